/**
 * Sharing notes with a remote after the user pushed to it — only notes of commits that the remote
 * has, and never our local notes history.
 *
 * shareNotes(remote):
 * 1. `git ls-remote <remote>`: the refs that exist on the remote now (after the user's push), and
 *    its notes commit R (if any). R is fetched into `refs/notes/remotes/<remote>/agentnote` and
 *    merged into the local notes ref (mergeNotesInto), so the local notes contain the remote's.
 * 2. The local notes whose commit is reachable from a ref of the remote (`git rev-list` with the
 *    remote's tips as negative revisions: what it prints is NOT on the remote) and that differ from R's.
 * 3. A new notes commit P with R as its only parent (no parent when the remote has no notes yet):
 *    R's tree plus those notes. The local notes commits are never parents of P, so a note of a
 *    local-only branch never reaches the remote, not even inside an older notes commit.
 * 4. `git push <remote> P:refs/notes/agentnote` (a fast-forward of R; hooks skipped, no prompts).
 *    Rejected because the remote's notes moved meanwhile: back to 1 (the other side's notes are
 *    merged, nothing is lost), at most `attempts` times. Accepted: the tracking ref moves to P and
 *    P is merged into the local notes ref.
 */
import { type Logger, nullLogger, systemClock } from '../../core/ports';
import { GitError, type GitRunner } from '../git/gitRunner';
import {
  casRef,
  checkRemoteName,
  committerIdent,
  objectInfo,
  readNotesTree,
  remoteTrackingNotesRef,
  revParse,
  writeNotesCommit,
} from './notesGit';
import { mergeNotesInto } from './notesMerge';
import { isObjectId } from '../../core/git/objectId';

export interface ShareOptions {
  log?: Logger;
  ref?: string;
  /** Network timeout per git call (default 60 s). */
  timeoutMs?: number;
  /** Push attempts when the remote's notes moved meanwhile (default 3). */
  attempts?: number;
  now?: number;
  /** Called right before each push attempt (tests: make the remote move in between). */
  beforePush?(attempt: number): Promise<void>;
}

export type ShareResult =
  | {
      status: 'pushed';
      /** Notes added or updated on the remote. */
      shared: number;
      /** Local notes left out because their commit is not on the remote. */
      withheld: number;
      notesCommit: string;
      attempts: number;
    }
  | { status: 'upToDate'; withheld: number }
  | { status: 'nothingToShare' }
  | { status: 'failed'; error: string };

/** Environment of our network git calls: no prompts, and our (and the CLI's) pre-push hooks know it is a notes push. */
export const networkEnv = { GIT_TERMINAL_PROMPT: '0', AGENTNOTE_PUSHING: '1' };

function message(e: unknown): string {
  if (e instanceof GitError) return (e.stderr?.trim() || e.message).slice(0, 500);
  return e instanceof Error ? e.message : String(e);
}

/** `git ls-remote` output: ref → object id. */
export function parseLsRemote(out: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [id, name] = line.split('\t');
    if (id && name && isObjectId(id)) refs.set(name, id);
  }
  return refs;
}

/**
 * The commits of `candidates` that are reachable from `tips` (both: full ids of objects present
 * locally). One `git rev-list`: it walks only what the tips do not reach.
 */
export async function reachableFrom(git: GitRunner, candidates: string[], tips: string[]): Promise<Set<string>> {
  if (candidates.length === 0 || tips.length === 0) return new Set();
  const out = await git.run(['rev-list', '--stdin'], {
    input: `${candidates.join('\n')}\n${tips.map((t) => `^${t}`).join('\n')}\n`,
    okExitCodes: [],
  });
  const notOnRemote = new Set(out.split('\n').filter(Boolean));
  return new Set(candidates.filter((c) => !notOnRemote.has(c)));
}

/** See the module comment. Never throws: failures are `{status:'failed'}`. */
export async function shareNotes(git: GitRunner, remote: string, opts: ShareOptions = {}): Promise<ShareResult> {
  const ref = opts.ref ?? 'refs/notes/agentnote';
  const log = opts.log ?? nullLogger;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const attempts = opts.attempts ?? 3;
  try {
    checkRemoteName(remote);
    if (!(await revParse(git, ref))) return { status: 'nothingToShare' };
    const tracking = remoteTrackingNotesRef(remote);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      // 1. the remote as it is now
      const refs = parseLsRemote(await git.run(['ls-remote', '--end-of-options', remote], { env: networkEnv, timeoutMs }));
      let remoteNotes = refs.get(ref);
      if (remoteNotes) {
        if ((await objectInfo(git, [remoteNotes])).get(remoteNotes)?.type !== 'commit') {
          await git.run(
            [
              'fetch',
              '--quiet',
              '--no-tags',
              '--no-recurse-submodules',
              '--no-write-fetch-head',
              '--refmap=',
              '--end-of-options',
              remote,
              `+${ref}:${tracking}`,
            ],
            { env: networkEnv, timeoutMs },
          );
          remoteNotes = await revParse(git, tracking);
        } else await git.run(['update-ref', '-m', 'agentnote: remote notes', tracking, remoteNotes], { okExitCodes: [] });
        if (remoteNotes) await mergeNotesInto(git, remoteNotes, { ref, log, keepLocalDeletions: true, label: remote, now: opts.now });
      }
      // 2. local notes of commits on the remote, not there yet
      const local = await revParse(git, ref);
      if (!local) return { status: 'nothingToShare' };
      const [mine, theirs] = await Promise.all([readNotesTree(git, local), readNotesTree(git, remoteNotes)]);
      const pending = [...mine].filter(([commit, blob]) => theirs.get(commit) !== blob).map(([commit]) => commit);
      if (pending.length === 0) return { status: 'upToDate', withheld: 0 };
      const tipIds = [...refs].filter(([name]) => !name.startsWith('refs/notes/')).map(([, id]) => id);
      const present = await objectInfo(git, [...pending, ...tipIds]);
      const tips = [...new Set(tipIds)].filter((id) => present.has(id));
      const commits = pending.filter((c) => present.get(c)?.type === 'commit');
      const onRemote = await reachableFrom(git, commits, tips);
      const withheld = pending.length - onRemote.size;
      if (onRemote.size === 0) return { status: 'upToDate', withheld };
      // 3. R + those notes, R as the only parent
      const now = opts.now ?? systemClock.now();
      const next = await writeNotesCommit(git, {
        from: remoteNotes,
        changes: [...onRemote].map((commit) => ({ commit, blob: mine.get(commit) as string })),
        message: `Notes added by Agent Note (${onRemote.size} commit${onRemote.size === 1 ? '' : 's'} pushed to ${remote})\n`,
        ident: await committerIdent(git, now),
      });
      // 4. push (a fast-forward of R); rejected: start again from the remote's new notes
      await opts.beforePush?.(attempt);
      const out = await git.run(['push', '--porcelain', '--no-verify', '--no-signed', '--end-of-options', remote, `${next}:${ref}`], {
        env: networkEnv,
        timeoutMs,
        okExitCodes: [1],
      });
      const line = out.split('\n').find((l) => l.includes(`:${ref}\t`));
      const [flag, , summary = ''] = (line ?? '').split('\t');
      if (line && flag !== '!') {
        await casRef(git, tracking, next, remoteNotes ?? (await revParse(git, tracking)), 'agentnote: pushed notes');
        await mergeNotesInto(git, next, { ref, log, keepLocalDeletions: true, label: remote, now });
        log.info(`notes shared with ${remote}: ${onRemote.size} note(s); ${withheld} of commits not on ${remote} kept local`);
        return { status: 'pushed', shared: onRemote.size, withheld, notesCommit: next, attempts: attempt };
      }
      if (!line || !/non-fast-forward|fetch first|stale info|already exists/.test(summary))
        return { status: 'failed', error: (summary || out.trim()).slice(0, 500) || 'push printed no status' };
      log.info(`notes push to ${remote} rejected (${summary}): merging the remote's notes and trying again`);
    }
    return { status: 'failed', error: `notes push still rejected after ${attempts} attempts` };
  } catch (e) {
    return { status: 'failed', error: message(e) };
  }
}
