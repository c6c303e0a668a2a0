/**
 * Files under `<git-dir>/agentnote/` hold prompts, responses and edit records: they are created
 * readable by the user only (files 0600, folders 0700, issue #14 part 6), whatever the umask, and
 * a tree left by an older version is tightened once when a repository opens. POSIX modes only
 * (on Windows chmod is a no-op apart from the read-only bit).
 */
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const privateFileMode = 0o600;
export const privateDirMode = 0o700;

/** Folders already checked in this process (the mode check costs a stat; mkdir stays, the folder may be removed). */
const checked = new Set<string>();

/** `mkdir -p` with 0700 for every folder it creates, and the folder itself made 0700. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: privateDirMode });
  if (checked.has(dir)) return;
  await chmodIfLoose(dir, privateDirMode);
  if (checked.size > 1000) checked.clear();
  checked.add(dir);
}

/** Synchronous {@link ensurePrivateDir} (shutdown paths). */
export function ensurePrivateDirSync(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: privateDirMode });
  try {
    if ((fs.statSync(dir).mode & 0o077) !== 0) fs.chmodSync(dir, privateDirMode);
  } catch {
    /* best effort */
  }
}

async function chmodIfLoose(p: string, mode: number): Promise<void> {
  try {
    const st = await stat(p);
    if ((st.mode & 0o077) !== 0) await chmod(p, mode);
  } catch {
    /* gone, or not ours to change: best effort */
  }
}

/**
 * Makes every folder under `root` (and `root`) 0700 and every file 0600 when they are looser.
 * Symbolic links are not followed. Returns how many entries were changed.
 */
export async function tightenPrivateTree(root: string, maxEntries = 100_000): Promise<number> {
  let changed = 0;
  let seen = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > maxEntries) return;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        changed += await tighten(p, privateDirMode);
        await walk(p);
      } else if (e.isFile()) changed += await tighten(p, privateFileMode);
    }
  };
  const tighten = async (p: string, mode: number): Promise<number> => {
    try {
      const st = await stat(p);
      if ((st.mode & 0o777 & ~mode) === 0) return 0;
      await chmod(p, mode);
      return 1;
    } catch {
      return 0;
    }
  };
  try {
    if (!(await stat(root)).isDirectory()) return 0;
  } catch {
    return 0;
  }
  changed += await tighten(root, privateDirMode);
  await walk(root);
  return changed;
}
