/**
 * Git plumbing for notes sharing: reading notes trees, reading many blobs with one process, and
 * writing a notes commit with `git fast-import` (one process whatever the number of notes; it
 * handles the notes fan-out itself). Everything here is work done in git processes: the caller
 * only splits their output.
 */
import { createHash, randomBytes } from 'node:crypto';
import { GitError, type GitRunner } from '../git/gitRunner';
import { isObjectId } from '../../core/git/objectId';

/** Commits and blobs are named by full object ids only (SHA-1 or SHA-256). */

/**
 * Our private refs live under `refs/agentnote/`, outside `refs/notes/agentnote*` (the Agent Note
 * CLI's forced fetch glob writes there) and outside what a plain `git push` sends.
 */
export const privateRefPrefix = 'refs/agentnote/';

/** The last value of the local notes ref that we saw or wrote (to detect and repair forced updates). */
export const lastLocalNotesRef = `${privateRefPrefix}last-local`;

/** The remote-tracking notes ref of `remote`: `refs/notes/remotes/<remote>/agentnote` (odd names get a hash suffix). */
export function remoteTrackingNotesRef(remote: string): string {
  const safe = remote.replace(/[^A-Za-z0-9_-]+/g, '_');
  const suffix = safe === remote ? '' : `-${createHash('sha1').update(remote).digest('hex').slice(0, 8)}`;
  return `refs/notes/remotes/${safe}${suffix}/agentnote`;
}

/** A remote name we pass to git: no option look-alikes, no whitespace or control characters. */
export function checkRemoteName(remote: string): void {
  // eslint-disable-next-line no-control-regex
  if (!remote || remote.startsWith('-') || /[\s\0-\x1f\x7f]/.test(remote))
    throw new GitError('failed', `invalid remote name: ${JSON.stringify(remote.slice(0, 80))}`);
}

export async function revParse(git: GitRunner, ref: string): Promise<string | undefined> {
  const out = (await git.run(['rev-parse', '-q', '--verify', '--end-of-options', `${ref}^{commit}`], { okExitCodes: [1, 128] })).trim();
  return isObjectId(out) ? out : undefined;
}

export async function isAncestor(git: GitRunner, a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  try {
    await git.runBuffer(['merge-base', '--is-ancestor', a, b]);
    return true;
  } catch (e) {
    if (GitError.is(e, 'failed') && e.exitCode === 1) return false;
    throw e;
  }
}

export async function mergeBase(git: GitRunner, a: string, b: string): Promise<string | undefined> {
  const out = (await git.run(['merge-base', a, b], { okExitCodes: [1] })).trim();
  return isObjectId(out) ? out : undefined;
}

/** commit → note blob of the notes tree of `notesCommit` (fan-out paths flattened; other entries ignored). */
export async function readNotesTree(git: GitRunner, notesCommit: string | undefined): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  if (!notesCommit) return map;
  const out = await git.run(['ls-tree', '-r', '-z', '--full-tree', notesCommit], { okExitCodes: [] });
  for (const entry of out.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const meta = entry.slice(0, tab).split(' ');
    if (meta[1] !== 'blob' || !isObjectId(meta[2] ?? '')) continue;
    const commit = entry.slice(tab + 1).replace(/\//g, '');
    if (isObjectId(commit)) map.set(commit, meta[2]);
  }
  return map;
}

export interface ObjectInfo {
  type: string;
  size: number;
}

/** Type and size of each object (one `cat-file --batch-check`); missing objects are absent from the map. */
export async function objectInfo(git: GitRunner, ids: Iterable<string>): Promise<Map<string, ObjectInfo>> {
  const list = [...new Set(ids)].filter((id) => isObjectId(id));
  const map = new Map<string, ObjectInfo>();
  if (list.length === 0) return map;
  const out = await git.run(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
    input: `${list.join('\n')}\n`,
    okExitCodes: [],
  });
  for (const line of out.split('\n')) {
    const [id, type, size] = line.split(' ');
    if (id && type && type !== 'missing' && size !== undefined) map.set(id, { type, size: Number(size) });
  }
  return map;
}

/** Contents of blobs (one `cat-file --batch`), as UTF-8 text. Missing ones are absent. */
export async function readBlobs(git: GitRunner, ids: Iterable<string>): Promise<Map<string, string>> {
  const list = [...new Set(ids)].filter((id) => isObjectId(id));
  const map = new Map<string, string>();
  if (list.length === 0) return map;
  const buf = await git.runBuffer(['cat-file', '--batch'], { input: `${list.join('\n')}\n`, okExitCodes: [] });
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break;
    const header = buf.subarray(pos, nl).toString('utf8').split(' ');
    pos = nl + 1;
    if (header[1] === 'missing' || header.length < 3) continue;
    const size = Number(header[2]);
    if (!Number.isFinite(size) || pos + size > buf.length) break;
    if (header[1] === 'blob') map.set(header[0], buf.subarray(pos, pos + size).toString('utf8'));
    pos += size + 1; // content + LF
  }
  return map;
}

/** `Name <email> <epoch> <tz>` for notes commits: the user's committer identity, or Agent Note's when none is set. */
export async function committerIdent(git: GitRunner, nowMs: number): Promise<string> {
  const out = (await git.tryRun(['var', 'GIT_COMMITTER_IDENT'], { okExitCodes: [] }))?.trim();
  if (out && /^[^<>\n]*<[^<>\n]*> \d+ [+-]\d{4}$/.test(out)) return out;
  return `Agent Note <agentnote@localhost> ${Math.floor(nowMs / 1000)} +0000`;
}

export type NoteChange = { commit: string; blob: string } | { commit: string; text: string };

export interface NotesCommitSpec {
  /** First parent: its tree is the starting point (none: a root commit with only `changes`). */
  from?: string;
  /** Further parents (merges). */
  merge?: string[];
  /** Notes added or replaced on top of `from`'s tree. */
  changes: NoteChange[];
  message: string;
  ident: string;
}

/**
 * Writes a notes commit with `git fast-import` (one process; fan-out handled by git) on a
 * private temporary ref and returns its id. The temporary ref is deleted again.
 */
export async function writeNotesCommit(git: GitRunner, spec: NotesCommitSpec): Promise<string> {
  const tmp = `${privateRefPrefix}tmp/${process.pid}-${randomBytes(6).toString('hex')}`;
  const chunks: Buffer[] = [];
  const push = (s: string | Buffer) => chunks.push(typeof s === 'string' ? Buffer.from(s, 'utf8') : s);
  const message = Buffer.from(spec.message, 'utf8');
  push(`commit ${tmp}\ncommitter ${spec.ident}\ndata ${message.length}\n`);
  push(message);
  push('\n');
  if (spec.from) push(`from ${spec.from}\n`);
  for (const m of spec.merge ?? []) push(`merge ${m}\n`);
  for (const c of spec.changes) {
    if (!isObjectId(c.commit)) continue;
    if ('blob' in c) {
      if (isObjectId(c.blob)) push(`N ${c.blob} ${c.commit}\n`);
      continue;
    }
    const body = Buffer.from(c.text, 'utf8');
    push(`N inline ${c.commit}\ndata ${body.length}\n`);
    push(body);
    push('\n');
  }
  push('\ndone\n');
  try {
    await git.run(['fast-import', '--quiet', '--done'], { input: Buffer.concat(chunks), okExitCodes: [] });
    const id = await revParse(git, tmp);
    if (!id) throw new GitError('failed', 'fast-import wrote no notes commit');
    return id;
  } finally {
    await git.tryRun(['update-ref', '-d', tmp], { okExitCodes: [] });
  }
}

/** Compare-and-swap of a ref (`old` undefined: the ref must not exist). False when it moved meanwhile. */
export async function casRef(git: GitRunner, ref: string, next: string, old: string | undefined, reason: string): Promise<boolean> {
  try {
    await git.run(['update-ref', '-m', reason, ref, next, old ?? ''], { okExitCodes: [] });
    return true;
  } catch (e) {
    if (GitError.is(e, 'failed')) return false;
    throw e;
  }
}
