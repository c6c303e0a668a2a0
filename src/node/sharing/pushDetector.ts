/**
 * Detects real pushes from the reflogs of the remote-tracking refs.
 *
 * `git push` (from a terminal, the editor or any tool) updates `refs/remotes/<remote>/<branch>`
 * with the reflog message `update by push`; fetch and pull write `fetch…`/`pull…` messages, and
 * opening a folder, checkout, reset or commit write nothing there. So a new `update by push` entry
 * is a push the user really made, and nothing else produces one.
 *
 * check() reads only what was appended to `<git-common-dir>/logs/refs/remotes/**` since the
 * previous check (the first check only takes the baseline: pushes made before are not reported).
 * Plain file reads, no git process. Not detected: pushes that update no remote-tracking ref (a
 * URL instead of a remote name, a refspec without a tracking ref) and repositories with
 * `core.logAllRefUpdates=false`; the pre-push hook (Install Git Hooks) covers those.
 */
import { type Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { systemClock } from '../../core/ports';

export interface DetectedPush {
  remote: string;
  /** Remote-tracking refs the push updated, e.g. `refs/remotes/origin/main`. */
  refs: string[];
}

interface FileMark {
  size: number;
  ino: number;
}

/** Reflog files read at most per check (a repository with more remote branches is read in part). */
const maxFiles = 20_000;
/** Longest appended part read per file and check. */
const maxAppendBytes = 256 * 1024;

export class PushDetector {
  private sizes: Map<string, FileMark> | undefined;
  private readonly root: string;
  private checkedAtSec = 0;

  constructor(
    commonDir: string,
    /** The configured remote names (asked at each check; names may contain '/'). */
    private readonly remotes: () => readonly string[],
  ) {
    this.root = path.join(commonDir, 'logs', 'refs', 'remotes');
  }

  /** Takes the baseline (pushes before this moment are never reported). */
  async start(): Promise<void> {
    if (this.sizes) return;
    this.checkedAtSec = Math.floor(systemClock.now() / 1000);
    this.sizes = await this.scan();
  }

  /** What the remote-tracking reflogs were at the last check (size and inode of each): moves with every fetch and push. */
  get fingerprint(): string {
    return [...(this.sizes ?? new Map<string, FileMark>())]
      .map(([f, m]) => `${f}:${m.ino}:${m.size}`)
      .sort()
      .join('\n');
  }

  /** Pushes since the previous call, one entry per remote. */
  async check(): Promise<DetectedPush[]> {
    if (!this.sizes) {
      await this.start();
      return [];
    }
    const checkedAt = Math.floor(systemClock.now() / 1000);
    const now = await this.scan();
    const byRemote = new Map<string, Set<string>>();
    for (const [file, { size, ino }] of now) {
      const mark = this.sizes.get(file);
      // appended to (the same file, longer): the new part; a new file (a branch pushed for the first
      // time, or deleted and pushed again) or a rewritten one (reflog expire): its entries since the last check
      const appendedTo = mark !== undefined && mark.ino === ino;
      if (appendedTo && size <= mark.size) continue;
      const from = appendedTo ? mark.size : 0;
      const text = await readRange(file, Math.max(from, size - maxAppendBytes), size);
      const since = appendedTo ? 0 : this.checkedAtSec - 1;
      if (!text.split('\n').some((line) => isPushEntry(line, since))) continue;
      const refName = ['refs', 'remotes', ...path.relative(this.root, file).split(path.sep)].join('/');
      const remote = this.remoteOf(refName);
      if (!remote) continue;
      let set = byRemote.get(remote);
      if (!set) byRemote.set(remote, (set = new Set()));
      set.add(refName);
    }
    this.sizes = now;
    this.checkedAtSec = checkedAt;
    return [...byRemote].map(([remote, refs]) => ({ remote, refs: [...refs].sort() }));
  }

  /** The remote whose name is the longest prefix of the ref's path after `refs/remotes/`. */
  private remoteOf(refName: string): string | undefined {
    const rest = refName.slice('refs/remotes/'.length);
    let best: string | undefined;
    for (const r of this.remotes()) if (rest.startsWith(`${r}/`) && (!best || r.length > best.length)) best = r;
    return best;
  }

  private async scan(): Promise<Map<string, FileMark>> {
    const sizes = new Map<string, FileMark>();
    const stack = [this.root];
    while (stack.length && sizes.size < maxFiles) {
      const dir = stack.pop() as string;
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) stack.push(p);
        else if (e.isFile()) {
          try {
            const st = await stat(p);
            sizes.set(p, { size: st.size, ino: st.ino });
          } catch {
            /* removed meanwhile */
          }
        }
      }
    }
    return sizes;
  }
}

/** A reflog line `<old> <new> <ident> <epoch> <tz>\t<message>` of a push, written at or after `sinceSec`. */
function isPushEntry(line: string, sinceSec: number): boolean {
  const tab = line.indexOf('\t');
  if (tab < 0 || line.slice(tab + 1) !== 'update by push') return false;
  if (sinceSec <= 0) return true;
  const m = / (\d+) [+-]\d{4}$/.exec(line.slice(0, tab));
  return m !== null && Number(m[1]) >= sinceSec;
}

async function readRange(file: string, from: number, to: number): Promise<string> {
  try {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(to - from);
      const { bytesRead } = await fh.read(buf, 0, buf.length, from);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}
