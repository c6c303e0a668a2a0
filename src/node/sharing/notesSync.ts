/**
 * Brings fetched notes into the local notes ref and repairs forced updates of it.
 *
 * - Fetched notes: a plain `git fetch`/`git pull` writes each remote's notes into its tracking
 *   ref `refs/notes/remotes/<remote>/agentnote` (our glob refspec, see fetchConfig.ts). Every such
 *   ref that is not yet part of the local history is merged with mergeNotesInto().
 * - Forced updates: a forced refspec that we did not write (the Agent Note CLI's
 *   `+refs/notes/agentnote*:refs/notes/agentnote*`, or our own old exact one) makes a fetch replace
 *   the local notes ref with the remote's. We keep the last local value we saw in
 *   `refs/agentnote/last-local`, and read the notes ref's reflog for `forced-update` entries: any
 *   such earlier value that is not contained in the current one is merged back (a repair merge
 *   never deletes a note). A notes ref deleted by `fetch --prune` is restored the same way.
 * Then `refs/agentnote/last-local` is moved to the result.
 */
import { open, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { type Logger, nullLogger } from '../../core/ports';
import type { GitRunner } from '../git/gitRunner';
import { casRef, isAncestor, lastLocalNotesRef, objectInfo, revParse } from './notesGit';
import { type MergeResult, mergeNotesInto } from './notesMerge';
import { isNullObjectId, isObjectId } from '../../core/git/objectId';

export interface SyncOptions {
  log?: Logger;
  ref?: string;
  /** Absolute `git rev-parse --git-common-dir` (for the reflog); found with git when omitted. */
  commonDir?: string;
  now?: number;
}

export interface SyncResult {
  /** The local notes ref moved. */
  changed: boolean;
  local: string | undefined;
  /** Earlier local values merged back after a forced update (or a deletion). */
  repaired: number;
  /** Tracking refs merged (ref → how). */
  merged: { from: string; status: MergeResult['status']; conflicts: number }[];
  skipped: { commit: string; reason: string }[];
}

/** How much of the end of the notes reflog is read for forced updates. */
const reflogTailBytes = 64 * 1024;

/** Old values of `forced-update` entries in the last part of the ref's reflog, newest first. */
export async function forcedUpdateOrigins(commonDir: string, ref: string): Promise<string[]> {
  const file = path.join(commonDir, 'logs', ...ref.split('/'));
  let text: string;
  try {
    const size = (await stat(file)).size;
    const fh = await open(file, 'r');
    try {
      const start = Math.max(0, size - reflogTailBytes);
      const buf = Buffer.alloc(size - start);
      await fh.read(buf, 0, buf.length, start);
      text = buf.toString('utf8');
      if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      await fh.close();
    }
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split('\n').reverse()) {
    const tab = line.indexOf('\t');
    if (tab < 0 || !line.slice(tab + 1).includes('forced-update')) continue;
    const old = line.split(' ', 1)[0];
    if (isObjectId(old) && !isNullObjectId(old) && !out.includes(old)) out.push(old);
  }
  return out;
}

/** The tracking refs `refs/notes/remotes/<remote>/agentnote` that exist. */
export async function trackingNotesRefs(git: GitRunner): Promise<{ ref: string; id: string }[]> {
  const out = await git.run(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/notes/remotes/'], { okExitCodes: [] });
  return out
    .split('\n')
    .map((l) => l.split(' '))
    .filter(([id, ref]) => id && isObjectId(id) && /^refs\/notes\/remotes\/[^/]+\/agentnote$/.test(ref ?? ''))
    .map(([id, ref]) => ({ ref, id }));
}

/** See the module comment. Safe to call at any time and often: a no-op costs three git calls. */
export async function syncNotes(git: GitRunner, opts: SyncOptions = {}): Promise<SyncResult> {
  const ref = opts.ref ?? 'refs/notes/agentnote';
  const log = opts.log ?? nullLogger;
  const start = await revParse(git, ref);
  const result: SyncResult = { changed: false, local: start, repaired: 0, merged: [], skipped: [] };
  const commonDir = opts.commonDir ?? path.resolve(git.cwd, (await git.run(['rev-parse', '--git-common-dir'], { okExitCodes: [] })).trim());

  // 1. forced updates: earlier local values that the current one does not contain
  const guard = await revParse(git, lastLocalNotesRef);
  const origins = [...(guard ? [guard] : []), ...(await forcedUpdateOrigins(commonDir, ref))];
  const present = await objectInfo(git, origins);
  for (const origin of new Set(origins)) {
    if (present.get(origin)?.type !== 'commit') continue;
    const local = await revParse(git, ref);
    if (local && (await isAncestor(git, origin, local))) continue;
    const r = await mergeNotesInto(git, origin, { ref, log, label: 'the earlier local notes', now: opts.now });
    result.repaired++;
    result.skipped.push(...r.skipped);
    log.info(
      local
        ? `notes ref had been replaced without our notes (a forced fetch refspec?): merged ${origin.slice(0, 12)} back in (${r.status})`
        : `notes ref had been deleted: restored ${origin.slice(0, 12)}`,
    );
  }

  // 2. fetched notes
  for (const t of await trackingNotesRefs(git)) {
    const local = await revParse(git, ref);
    if (local && (await isAncestor(git, t.id, local))) continue;
    const r = await mergeNotesInto(git, t.id, { ref, log, keepLocalDeletions: true, label: t.ref.split('/')[3], now: opts.now });
    result.merged.push({ from: t.ref, status: r.status, conflicts: r.conflicts.length });
    result.skipped.push(...r.skipped);
  }

  // 3. remember the result
  const end = await revParse(git, ref);
  if (end && end !== guard) await casRef(git, lastLocalNotesRef, end, guard, 'agentnote: last local notes');
  result.local = end;
  result.changed = end !== start;
  return result;
}
