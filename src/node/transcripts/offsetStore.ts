import { createHash } from 'node:crypto';

/**
 * Where a tailer stopped reading a transcript, persisted so that a window reload neither re-reads
 * nor loses records. `offset` is the byte offset just after the last complete line that was
 * parsed; `ino`/`dev`/`fingerprint` detect a replaced file; `parserState` is the parser's
 * minimal state at that offset (session id, cwd, model, turn count, dedupe state).
 */
export interface OffsetEntry {
  offset: number;
  /** File size when the entry was written. */
  size: number;
  /** Inode and device (decimal strings: they can exceed 2^53 on some file systems). */
  ino: string;
  dev: string;
  /** Hash of the first (up to) 64 bytes of the file ({@link printOf}): never the bytes themselves. */
  fingerprint: string;
  mtimeMs: number;
  /** Hash of the (up to) 64 bytes just before `offset` ({@link printOf}): detects a rewrite that kept the head. */
  tailFingerprint?: string;
  parserState?: unknown;
  /** Epoch ms the entry was written (for pruning). */
  updatedAt: number;
}

/** Persistence of tail offsets, keyed by absolute transcript path. */
export interface OffsetStore {
  get(filePath: string): OffsetEntry | undefined;
  set(filePath: string, entry: OffsetEntry): void;
  delete(filePath: string): void;
  /** Writes pending changes (no-op for in-memory stores). */
  flush(): Promise<void>;
}

/** An OffsetStore kept in memory (tests, or when no storage location is available). */
export class MemoryOffsetStore implements OffsetStore {
  private readonly map = new Map<string, OffsetEntry>();
  get(filePath: string): OffsetEntry | undefined {
    return this.map.get(filePath);
  }
  set(filePath: string, entry: OffsetEntry): void {
    this.map.set(filePath, entry);
  }
  delete(filePath: string): void {
    this.map.delete(filePath);
  }
  flush(): Promise<void> {
    return Promise.resolve();
  }
  /** Number of entries (tests). */
  get size(): number {
    return this.map.size;
  }
}

/**
 * What the offset store keeps of some bytes of a transcript: their length and SHA-256, never the
 * bytes themselves (`sha256:<length>:<hex>`).
 */
export function printOf(bytes: Buffer): string {
  return `sha256:${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Reads a stored print: the `sha256:` form, or the base64 bytes older versions stored. */
export function parsePrint(stored: string): { length: number; matches: (bytes: Buffer) => boolean } | undefined {
  const m = /^sha256:(\d+):([0-9a-f]{64})$/.exec(stored);
  if (m) {
    const hex = m[2];
    return { length: Number(m[1]), matches: (bytes) => createHash('sha256').update(bytes).digest('hex') === hex };
  }
  if (stored.startsWith('sha256:')) return undefined;
  const legacy = Buffer.from(stored, 'base64');
  return { length: legacy.length, matches: (bytes) => legacy.equals(bytes) };
}
