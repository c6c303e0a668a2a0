/**
 * Sharing Agent Note git notes with remotes, and keeping them across rewrites
 * (shared docs: agentnote-format.md §1.1 "Sharing" and §8).
 *
 * - ensureFetchRefspec(): makes plain `git fetch` bring the notes ref too.
 * - fetchNotes(): fetches the remote notes into a private tracking ref
 *   `refs/notes/remotes/<remote>/agentnote` and merges it into the local notes ref, so notes that
 *   exist only locally are never lost (a forced fetch straight into refs/notes/agentnote would).
 * - pushNotes(): pushes the notes ref; when the remote has moved (non-fast-forward) it fetches,
 *   merges and pushes again.
 * - Merge policy (mergeNotesRef): 3-way at note level against the merge base of the two notes
 *   histories. Notes changed on one side only are taken from that side (git's own notes merge).
 *   A commit whose note was changed differently on both sides is resolved with
 *   resolveNoteConflict(): the later `timestamp` wins and the other note is kept under
 *   `superseded_notes` (see noteConflict.ts), so no data is lost and every clone computes the
 *   same result. If one side deleted a note the other side changed, the changed note is kept.
 *   The resolved notes are written locally first, then `git notes merge -s ours` records the
 *   merge commit (so the history of both sides is kept and the next push fast-forwards).
 * - configureRewrite(): makes `git commit --amend` and `git rebase` copy our notes
 *   (`notes.rewriteRef`), without touching other values of that multi-valued key.
 * - carryNote(): copies a note to a rewritten commit when git did not (e.g. a tool that
 *   ignores notes.rewriteRef).
 */
import { createHash } from 'node:crypto';
import { type Logger, nullLogger } from '../../core/ports';
import { GitError, type GitRunner } from '../git/gitRunner';
import { isObjectId } from '../../core/git/gitArgs';
import { agentNoteRef, type NoteCopyResult, NoteStore } from '../notes/noteStore';
import { resolveNoteConflict } from './noteConflict';

/** The refspec we add: exactly our notes ref. */
export const notesFetchRefspec = `+${agentNoteRef}:${agentNoteRef}`;
/** The refspec `agent-note init` adds (glob); treated as equivalent. */
export const cliNotesFetchRefspec = `+${agentNoteRef}*:${agentNoteRef}*`;

export interface SharingOptions {
  log?: Logger;
  /** Network timeout per git call (default 30 s). */
  timeoutMs?: number;
}

export type EnsureRefspecResult = 'added' | 'present' | 'noRemote';

export interface MergeNotesResult {
  status: 'upToDate' | 'fastForward' | 'merged';
  /** Commits whose notes differed on both sides and were resolved by resolveNoteConflict. */
  conflicts: string[];
}

export type FetchNotesResult =
  | {
      status: 'fetched';
      /** How the fetched notes were combined with the local ones. */
      merge: MergeNotesResult['status'];
      conflicts: string[];
      trackingRef: string;
    }
  | { status: 'noRemoteNotes' }
  | { status: 'failed'; error: string };

export type PushNotesResult =
  | { status: 'pushed' | 'upToDate'; mergedRemote: boolean; conflicts: string[] }
  | { status: 'nothingToPush' }
  | { status: 'failed'; error: string };

const networkEnv = { GIT_TERMINAL_PROMPT: '0', AGENTNOTE_PUSHING: '1' };

function message(e: unknown): string {
  if (e instanceof GitError) return (e.stderr?.trim() || e.message).slice(0, 500);
  return e instanceof Error ? e.message : String(e);
}

function checkRemoteName(remote: string): void {
  if (!remote || remote.startsWith('-') || /[\s\0]/.test(remote))
    throw new GitError('failed', `invalid remote name: ${JSON.stringify(remote)}`);
}

/** The private tracking ref our fetch writes the remote's notes into. */
export function remoteTrackingNotesRef(remote: string): string {
  const safe = remote.replace(/[^A-Za-z0-9_-]+/g, '_');
  const suffix = safe === remote ? '' : `-${createHash('sha1').update(remote).digest('hex').slice(0, 8)}`;
  return `refs/notes/remotes/${safe}${suffix}/agentnote`;
}

async function revParse(git: GitRunner, ref: string): Promise<string | undefined> {
  return (await git.run(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { okExitCodes: [1, 128] })).trim() || undefined;
}

async function configValues(git: GitRunner, key: string): Promise<string[]> {
  const out = await git.run(['config', '--get-all', key], { okExitCodes: [1] });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * Adds `+refs/notes/agentnote:refs/notes/agentnote` to `remote.<remote>.fetch` unless it (or the
 * CLI's glob `+refs/notes/agentnote*:refs/notes/agentnote*`) is already there. Touches nothing
 * else. Note: like the CLI's refspec it is forced, so a plain `git fetch` replaces unpushed local
 * notes with the remote's (they stay in the notes reflog); fetchNotes()/pushNotes() merge instead.
 */
export async function ensureFetchRefspec(git: GitRunner, remote: string): Promise<EnsureRefspecResult> {
  checkRemoteName(remote);
  const url = await git.run(['config', '--get', `remote.${remote}.url`], { okExitCodes: [1] });
  if (!url.trim()) return 'noRemote';
  const values = await configValues(git, `remote.${remote}.fetch`);
  if (values.includes(notesFetchRefspec) || values.includes(cliNotesFetchRefspec)) return 'present';
  await git.run(['config', '--add', `remote.${remote}.fetch`, notesFetchRefspec], { okExitCodes: [] });
  return 'added';
}

/** commit → note blob of the notes tree at `notesCommit` (fan-out paths flattened). */
async function notesAt(git: GitRunner, notesCommit: string | undefined): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  if (!notesCommit) return map;
  const out = await git.run(['ls-tree', '-r', '-z', notesCommit], { okExitCodes: [] });
  for (const entry of out.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (!m) continue;
    const commit = m[2].replace(/\//g, '');
    if (/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit)) map.set(commit, m[1]);
  }
  return map;
}

/**
 * A note blob's text for merging, or undefined when it is larger than `maxBytes` (the read limit
 * of noteLimits.ts): such a note is never loaded, whatever its origin.
 */
async function noteTextForMerge(git: GitRunner, blob: string, maxBytes: number): Promise<string | undefined> {
  if (!isObjectId(blob)) return undefined;
  const size = Number((await git.run(['cat-file', '-s', blob], { okExitCodes: [] })).trim());
  if (!Number.isSafeInteger(size) || size > maxBytes) return undefined;
  return (await git.runBuffer(['cat-file', 'blob', blob], { maxOutputBytes: maxBytes + 1 })).toString('utf8');
}

/**
 * Merges the notes history at `theirsRef` into the local notes ref with the policy described in
 * the module comment. `store` (optional) is used for the resolved writes so its caches stay right.
 */
export async function mergeNotesRef(
  git: GitRunner,
  theirsRef: string,
  opts: SharingOptions & { store?: NoteStore } = {},
): Promise<MergeNotesResult> {
  const log = opts.log ?? nullLogger;
  const store = opts.store ?? new NoteStore(git, { log });
  const ref = store.ref;
  const theirs = await revParse(git, theirsRef);
  const ours = await revParse(git, ref);
  if (!theirs || theirs === ours) return { status: 'upToDate', conflicts: [] };
  if (!ours) {
    await git.run(['update-ref', '-m', 'notes: fetched', ref, theirs, ''], { okExitCodes: [] });
    store.invalidate();
    return { status: 'fastForward', conflicts: [] };
  }
  if (await ancestor(git, theirs, ours)) return { status: 'upToDate', conflicts: [] };
  if (await ancestor(git, ours, theirs)) {
    await git.run(['update-ref', '-m', 'notes: fast-forward', ref, theirs, ours], { okExitCodes: [] });
    store.invalidate();
    return { status: 'fastForward', conflicts: [] };
  }

  const base = (await git.run(['merge-base', ours, theirs], { okExitCodes: [1] })).trim() || undefined;
  const [o, t, b] = await Promise.all([notesAt(git, ours), notesAt(git, theirs), notesAt(git, base)]);
  const conflicts: string[] = [];
  const skipped: string[] = [];
  for (const commit of new Set([...o.keys(), ...t.keys()])) {
    const ob = o.get(commit);
    const tb = t.get(commit);
    const bb = b.get(commit);
    if (ob === tb || tb === bb || ob === bb) continue; // same, or changed on one side only
    if (tb === undefined) continue; // deleted there, changed here: `-s ours` keeps ours
    if (ob === undefined) {
      // deleted here, changed there: theirs, the very same blob (never read)
      await store.writeBlob(commit, tb, { overwrite: true });
      conflicts.push(commit);
      continue;
    }
    const [oursText, theirsText] = [
      await noteTextForMerge(git, ob, store.limits.maxBytes),
      await noteTextForMerge(git, tb, store.limits.maxBytes),
    ];
    if (oursText === undefined || theirsText === undefined) {
      // a note over the read limit is not merged (it stays in the notes history of the merge)
      log.info(
        `notes merge: the note of ${commit.slice(0, 12)} is ${oursText === undefined ? 'ours' : 'theirs'} over the read limit; kept ours`,
      );
      skipped.push(commit);
      continue;
    }
    await store.writeText(commit, resolveNoteConflict(oursText, theirsText), { overwrite: true });
    conflicts.push(commit);
  }
  if (conflicts.length)
    log.info(`notes merge: resolved ${conflicts.length} conflicting note(s) (later timestamp wins, the other kept in superseded_notes)`);
  await git.run(['notes', `--ref=${ref}`, 'merge', '-q', '-s', 'ours', theirsRef], { okExitCodes: [] });
  store.invalidate();
  return { status: 'merged', conflicts };
}

async function ancestor(git: GitRunner, a: string, b: string): Promise<boolean> {
  try {
    await git.runBuffer(['merge-base', '--is-ancestor', a, b]);
    return true;
  } catch (e) {
    if (GitError.is(e, 'failed') && e.exitCode === 1) return false;
    throw e;
  }
}

/**
 * Fetches the remote's notes into `refs/notes/remotes/<remote>/agentnote` and merges them into
 * the local notes ref (module comment). Opportunistic updates through configured refspecs are
 * disabled (`--refmap=`), so the fetch itself never touches refs/notes/agentnote.
 */
export async function fetchNotes(
  git: GitRunner,
  remote: string,
  opts: SharingOptions & { store?: NoteStore } = {},
): Promise<FetchNotesResult> {
  checkRemoteName(remote);
  const ref = opts.store?.ref ?? agentNoteRef;
  const trackingRef = remoteTrackingNotesRef(remote);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  try {
    await git.run(
      ['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', '--no-write-fetch-head', '--refmap=', remote, `+${ref}:${trackingRef}`],
      { env: networkEnv, timeoutMs },
    );
  } catch (e) {
    // Distinguish "the remote has no notes yet" from a real failure without parsing messages.
    const listed = await git.tryRun(['ls-remote', '--refs', remote, ref], { env: networkEnv, timeoutMs });
    if (listed !== undefined && listed.trim() === '') {
      await git.tryRun(['update-ref', '-d', trackingRef], { okExitCodes: [] });
      return { status: 'noRemoteNotes' };
    }
    return { status: 'failed', error: message(e) };
  }
  try {
    const merged = await mergeNotesRef(git, trackingRef, opts);
    return { status: 'fetched', merge: merged.status, conflicts: merged.conflicts, trackingRef };
  } catch (e) {
    return { status: 'failed', error: message(e) };
  }
}

/**
 * Pushes the local notes ref to `remote`. A non-fast-forward rejection triggers fetchNotes()
 * (merge) and another push, up to `attempts` times (default 3). Runs with AGENTNOTE_PUSHING=1 so
 * our pre-push hook (and the CLI's) does not recurse, and without terminal prompts.
 */
export async function pushNotes(
  git: GitRunner,
  remote: string,
  opts: SharingOptions & { store?: NoteStore; attempts?: number } = {},
): Promise<PushNotesResult> {
  checkRemoteName(remote);
  const ref = opts.store?.ref ?? agentNoteRef;
  if (!(await revParse(git, ref))) return { status: 'nothingToPush' };
  const attempts = opts.attempts ?? 3;
  let mergedRemote = false;
  const conflicts: string[] = [];
  for (let i = 0; i < attempts; i++) {
    let out: string;
    try {
      out = await git.run(['push', '--porcelain', '--no-signed', remote, `${ref}:${ref}`], {
        env: networkEnv,
        timeoutMs: opts.timeoutMs ?? 30_000,
        okExitCodes: [1],
      });
    } catch (e) {
      return { status: 'failed', error: message(e) };
    }
    // Porcelain: "<flag>\t<from>:<to>\t<summary>"; flag '=' up to date, '!' rejected.
    const line = out.split('\n').find((l) => l.includes(`\t${ref}:${ref}\t`));
    if (!line) return { status: 'failed', error: out.trim().slice(0, 500) || 'push printed no status' };
    const [flag, , summary = ''] = line.split('\t');
    if (flag === '=') return { status: 'upToDate', mergedRemote, conflicts };
    if (flag !== '!') return { status: 'pushed', mergedRemote, conflicts };
    if (!/non-fast-forward|fetch first|stale info/.test(summary)) return { status: 'failed', error: summary };
    const fetched = await fetchNotes(git, remote, opts);
    if (fetched.status === 'failed') return fetched;
    if (fetched.status === 'fetched') conflicts.push(...fetched.conflicts);
    mergedRemote = true;
  }
  return { status: 'failed', error: `notes push still rejected after ${attempts} attempts` };
}

/**
 * Makes amend and rebase carry our notes: appends `refs/notes/agentnote` to the multi-valued
 * `notes.rewriteRef` (other values are kept; an existing glob covering it counts as present) and
 * sets `notes.rewrite.amend` / `notes.rewrite.rebase` to true. Returns the keys it changed.
 * `notes.rewriteMode` is left alone (it applies to every rewritten notes ref); with its default
 * `concatenate`, squashing two noted commits yields a note our reader reports as
 * "several notes concatenated".
 */
export async function configureRewrite(git: GitRunner, ref = agentNoteRef): Promise<string[]> {
  const changed: string[] = [];
  const refs = await configValues(git, 'notes.rewriteRef');
  const covered = refs.some((r) => r === ref || (r.endsWith('*') && ref.startsWith(r.slice(0, -1))));
  if (!covered) {
    await git.run(['config', '--add', 'notes.rewriteRef', ref], { okExitCodes: [] });
    changed.push('notes.rewriteRef');
  }
  for (const key of ['notes.rewrite.amend', 'notes.rewrite.rebase']) {
    const v = await configValues(git, key);
    if (v.length !== 1 || v[0].toLowerCase() !== 'true') {
      await git.run(['config', '--replace-all', key, 'true'], { okExitCodes: [] });
      changed.push(key);
    }
  }
  return changed;
}

/** Copies the note of a rewritten commit to its replacement (never overwrites). */
export function carryNote(store: NoteStore, oldSha: string, newSha: string): Promise<NoteCopyResult> {
  return store.copy(oldSha, newSha);
}
