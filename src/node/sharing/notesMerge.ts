/**
 * JSON-aware merge of two notes histories into the local notes ref.
 *
 * Rule, per annotated commit (3-way against the merge base of the two notes histories):
 * - a note on one side only is kept; the same note on both sides stays;
 * - changed on one side only (the other still has the base's note): that side's note;
 * - different on both sides: resolveNoteConflict() — both notes become one valid v1 note (the
 *   later bounded `timestamp` wins, the other is kept under `superseded_notes`);
 * - a note is never deleted because the incoming side lacks it. With `keepLocalDeletions` (the
 *   merge of a fetched tracking ref into the local ref), a note deleted locally whose incoming
 *   version is still the base's stays deleted; a repair merge (our own older history) keeps every note.
 * Unusable notes (invalid, too large, nested too deep) never throw: in a conflict the valid note
 * wins, and the reason is reported in `skipped`.
 *
 * The result is one merge commit written with `git fast-import` whose parents are the local notes
 * commit and the incoming one (so the next merge of the same history is a no-op and every note of
 * either side stays reachable), then a compare-and-swap of the local ref (retried if it moved).
 */
import { defaultNoteReadLimits } from '../../core/notes/noteLimits';
import { type Logger, nullLogger, systemClock } from '../../core/ports';
import type { GitRunner } from '../git/gitRunner';
import { type ConflictOptions, type OmittedNote, resolveNoteConflictDetailed } from './noteConflict';
import {
  casRef,
  committerIdent,
  isAncestor,
  mergeBase,
  type NoteChange,
  objectInfo,
  readBlobs,
  readNotesTree,
  revParse,
  writeNotesCommit,
} from './notesGit';

/** Notes larger than this are not read for a conflict (they lose to a readable note, and stay in the history). */
export const maxMergedNoteBytes = defaultNoteReadLimits.maxBytes;

export interface MergeOptions {
  log?: Logger;
  /** Local notes ref (default refs/notes/agentnote). */
  ref?: string;
  /** What is merged, for the commit message and the log (e.g. "origin"). */
  label?: string;
  /** See the module comment (default false). */
  keepLocalDeletions?: boolean;
  /** Merge time (tests); default now. */
  now?: number;
  conflict?: Omit<ConflictOptions, 'now'>;
  /** Compare-and-swap attempts when the local ref moves during the merge (default 5). */
  attempts?: number;
}

export interface MergeResult {
  status: 'upToDate' | 'fastForward' | 'merged' | 'created';
  /** The local notes commit afterwards. */
  local: string | undefined;
  /** Notes taken from the incoming side (new or changed there) by a merge (0 for a fast-forward). */
  taken: number;
  /** Commits whose notes were resolved with resolveNoteConflict. */
  conflicts: string[];
  /** Unusable notes met in conflicts: commit and reason (never the note's content). */
  skipped: { commit: string; reason: string }[];
}

export class MergeRaceError extends Error {}

/** Merges the notes commit `incoming` into the local notes ref (module comment). */
export async function mergeNotesInto(git: GitRunner, incoming: string, opts: MergeOptions = {}): Promise<MergeResult> {
  const ref = opts.ref ?? 'refs/notes/agentnote';
  const log = opts.log ?? nullLogger;
  const attempts = opts.attempts ?? 5;
  for (let i = 0; i < attempts; i++) {
    const r = await mergeOnce(git, ref, incoming, opts, log);
    if (r) return r;
  }
  throw new MergeRaceError(`${ref} kept moving during ${attempts} merge attempts`);
}

async function mergeOnce(git: GitRunner, ref: string, incoming: string, opts: MergeOptions, log: Logger): Promise<MergeResult | undefined> {
  const label = opts.label ?? incoming.slice(0, 12);
  const ours = await revParse(git, ref);
  const none = { taken: 0, conflicts: [], skipped: [] };
  if (!ours) {
    if (!(await casRef(git, ref, incoming, undefined, `notes: from ${label}`))) return undefined;
    return { status: 'created', local: incoming, ...none };
  }
  if (await isAncestor(git, incoming, ours)) return { status: 'upToDate', local: ours, ...none };
  if (await isAncestor(git, ours, incoming)) {
    if (!(await casRef(git, ref, incoming, ours, `notes: fast-forward to ${label}`))) return undefined;
    return { status: 'fastForward', local: incoming, ...none };
  }
  const base = await mergeBase(git, ours, incoming);
  const [o, t, b] = await Promise.all([readNotesTree(git, ours), readNotesTree(git, incoming), readNotesTree(git, base)]);

  const changes: NoteChange[] = [];
  const conflicted: { commit: string; ob: string; tb: string }[] = [];
  for (const [commit, tb] of t) {
    const ob = o.get(commit);
    if (ob === tb) continue;
    const bb = b.get(commit);
    if (ob === undefined) {
      if (opts.keepLocalDeletions && bb === tb) continue; // deleted here, unchanged there
      changes.push({ commit, blob: tb });
    } else if (tb === bb)
      continue; // changed here only
    else if (ob === bb)
      changes.push({ commit, blob: tb }); // changed there only
    else conflicted.push({ commit, ob, tb });
  }

  const conflicts: string[] = [];
  const skipped: { commit: string; reason: string }[] = [];
  if (conflicted.length) {
    const blobs = conflicted.flatMap((c) => [c.ob, c.tb]);
    const info = await objectInfo(git, blobs);
    const readable = blobs.filter((id) => (info.get(id)?.size ?? Infinity) <= maxMergedNoteBytes);
    const texts = await readBlobs(git, readable);
    const side = (id: string): string | OmittedNote =>
      texts.get(id) ?? {
        omitted: { blob: id, bytes: info.get(id)?.size ?? 0, reason: info.has(id) ? 'note too large' : 'note blob missing' },
      };
    const now = opts.now ?? systemClock.now();
    for (const c of conflicted) {
      const a = side(c.ob);
      const z = side(c.tb);
      const r = resolveNoteConflictDetailed(a, z, { ...opts.conflict, now });
      for (const reason of r.skipped) skipped.push({ commit: c.commit, reason });
      if (r.droppedSuperseded)
        log.info(`notes merge: ${c.commit.slice(0, 12)} kept the newest superseded notes, ${r.droppedSuperseded} older left out`);
      if (r.skipped.length >= 2) {
        // neither is usable Agent Note data: keep the blob whose id sorts last (symmetric, nothing read)
        const keep = c.ob > c.tb ? c.ob : c.tb;
        if (keep !== c.ob) changes.push({ commit: c.commit, blob: keep });
        continue;
      }
      changes.push({ commit: c.commit, text: r.text });
      conflicts.push(c.commit);
    }
  }

  const merged = await writeNotesCommit(git, {
    from: ours,
    merge: [incoming],
    changes,
    message: `Notes merged from ${label} by Agent Note\n`,
    ident: await committerIdent(git, opts.now ?? systemClock.now()),
  });
  if (!(await casRef(git, ref, merged, ours, `notes: merged ${label}`))) return undefined;
  if (conflicts.length)
    log.info(
      `notes merge from ${label}: ${conflicts.length} conflicting note(s) combined (later timestamp wins, the other kept in superseded_notes)`,
    );
  if (skipped.length)
    log.info(
      `notes merge from ${label}: ${skipped.length} unusable note(s) skipped: ${[...new Set(skipped.map((s) => s.reason))].join(', ')}`,
    );
  return { status: 'merged', local: merged, taken: changes.length - conflicts.length, conflicts, skipped };
}
