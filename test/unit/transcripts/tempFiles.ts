import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A temp directory removed by cleanup(); paths are realpaths (macOS /var → /private/var). */
export function makeTempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `agentnote-${prefix}-`)));
  return {
    dir,
    cleanup() {
      chmodTree(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Restores permissions so a test that removed them can still clean up. */
function chmodTree(p: string): void {
  try {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    fs.chmodSync(p, 0o755);
    if (st.isDirectory()) for (const n of fs.readdirSync(p)) chmodTree(path.join(p, n));
  } catch {
    // already gone
  }
}

/** Writes a file, creating its directories; `mtime` in epoch ms when given. */
export function writeFile(p: string, content: string | Uint8Array, mtime?: number): string {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  if (mtime !== undefined) fs.utimesSync(p, mtime / 1000, mtime / 1000);
  return p;
}

export function jsonl(records: unknown[]): string {
  return records.map((r) => JSON.stringify(r) + '\n').join('');
}

/** Resolves when `pred()` is true, polling every 10 ms; rejects after `timeoutMs`. */
export async function waitFor(pred: () => boolean, timeoutMs: number, what: string): Promise<number> {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - start;
}
