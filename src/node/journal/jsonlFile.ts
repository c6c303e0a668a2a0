import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { TimeSlice } from '../util/timeSlice';

/** Result of a tolerant JSONL read. */
export interface JsonlReadResult {
  /** Parsed JSON objects, in file order. */
  values: Record<string, unknown>[];
  /** Lines that were not a JSON object (garbage, torn writes, arrays, numbers), skipped. */
  skipped: number;
  /** The file did not end with a newline and its last line could not be parsed (a torn write). */
  tornTail: boolean;
}

/**
 * Appends one value as a compact JSON line with a single O_APPEND write of the whole line, so
 * two processes appending to the same file at the same time never interleave inside a line.
 */
export async function appendJsonlLine(file: string, value: unknown): Promise<void> {
  const data = Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
  const fh = await open(file, 'a', 0o600);
  try {
    let off = 0;
    // A regular-file write on a local disk writes everything at once; loop only for odd
    // filesystems that return short writes (then atomicity is best effort).
    while (off < data.length) {
      const { bytesWritten } = await fh.write(data, off, data.length - off);
      off += bytesWritten;
    }
  } finally {
    await fh.close();
  }
}

/**
 * Reads a JSONL file tolerantly: a missing file is empty; blank lines are ignored; any line that
 * is not a JSON object — a bad middle line or a torn/garbage last line — is skipped and counted.
 * A last line without its newline is accepted when it parses (the CLI's reader does the same).
 */
export async function readJsonlFile(file: string): Promise<JsonlReadResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { values: [], skipped: 0, tornTail: false };
  }
  const lines = text.split('\n');
  const unterminated = lines.pop() ?? '';
  const values: Record<string, unknown>[] = [];
  let skipped = 0;
  let tornTail = false;
  const take = (line: string): boolean => {
    const t = line.trim();
    if (!t) return true;
    try {
      const v: unknown = JSON.parse(t);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
        values.push(v as Record<string, unknown>);
        return true;
      }
    } catch {
      /* counted below */
    }
    skipped++;
    return false;
  };
  const slice = new TimeSlice();
  for (const line of lines) {
    take(line);
    // a long journal is parsed in slices: the extension host stays responsive
    if (slice.due) await slice.pause();
  }
  if (!take(unterminated)) tornTail = true;
  return { values, skipped, tornTail };
}

/**
 * Replaces a small file atomically: writes a temp file next to it and renames it over the
 * target, so readers see either the old or the new content, never a partial one.
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, data, { mode: 0o600 });
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(tmp, file);
      return;
    } catch (e) {
      // Windows refuses to replace a file another process holds open for a moment.
      const code = (e as NodeJS.ErrnoException).code;
      if (attempt < 4 && (code === 'EPERM' || code === 'EBUSY' || code === 'EACCES')) {
        await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
        continue;
      }
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
  }
}
