import * as fsp from 'node:fs/promises';

/** A directory entry as discovery needs it. */
export interface FsEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

export interface FsStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
}

/**
 * The file-system calls of transcript discovery, injectable so tests can simulate failures that a
 * root test process cannot produce (EACCES) without touching real permissions.
 */
export interface TranscriptFs {
  readdir(dir: string): Promise<FsEntry[]>;
  stat(p: string): Promise<FsStat>;
  realpath(p: string): Promise<string>;
  /** Up to `maxBytes` from the start of a file, decoded as UTF-8 (a cut character becomes U+FFFD). */
  readHead(p: string, maxBytes: number): Promise<string>;
  /** A small whole file as UTF-8 (marker files); fails when larger than `maxBytes`. */
  readSmallFile(p: string, maxBytes: number): Promise<string>;
}

/** TranscriptFs over node:fs/promises. */
export const nodeTranscriptFs: TranscriptFs = {
  async readdir(dir) {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, isFile: e.isFile(), isDirectory: e.isDirectory(), isSymbolicLink: e.isSymbolicLink() }));
  },
  async stat(p) {
    const s = await fsp.stat(p);
    return { isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size, mtimeMs: s.mtimeMs };
  },
  realpath(p) {
    return fsp.realpath(p);
  },
  async readHead(p, maxBytes) {
    const fh = await fsp.open(p, 'r');
    try {
      const buf = Buffer.alloc(maxBytes);
      const { bytesRead } = await fh.read(buf, 0, maxBytes, 0);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  },
  async readSmallFile(p, maxBytes) {
    const fh = await fsp.open(p, 'r');
    try {
      const s = await fh.stat();
      if (s.size > maxBytes) throw Object.assign(new Error(`${p} is larger than ${maxBytes} bytes`), { code: 'EFBIG' });
      return (await fh.readFile()).toString('utf8');
    } finally {
      await fh.close();
    }
  },
};
