import { aiRatio } from '../attribution/aiRatio';
import { addedLinePositions, countDiffLines, type DiffHunk } from '../attribution/diffHunks';
import { mergeRanges } from '../attribution/lineAttribution';
import type { Clock } from '../ports';
import { fileLineHashes } from './lineHashes';
import type { AgentNoteV1, NoteAiRange, NoteFile, NoteInteraction, NoteLines } from './noteTypes';

/**
 * The note of a commit made by rewriting noted commits (rebase, squash, amend, cherry-pick),
 * computed for the new commit's own diff (issue #18). Pure: the caller asks git for the diffs.
 *
 * The rule: a gap is acceptable, wrong attribution is not. A line of the new commit is AI only when
 * - the new commit adds it (diff1: new parent → new commit), and
 * - git's diff of a source commit's version of the file to the new commit's version (`hunks`)
 *   leaves it unchanged (outside every hunk, so its content is identical), and
 * - it is inside the source note's `ai_ranges` and the source note has line counts.
 * Everything else the new commit adds (conflict resolutions, a person's fixup) is the person's.
 * Several sources (squash, oldest first) give the union of their interactions and ranges; a line
 * keeps a source's claim only when every later source has it unchanged too (so a line a later
 * commit deleted and wrote again is the later commit's), and where two sources claim the same line
 * the later one owns it.
 */

/**
 * One commit the new commit came from (oldest first): its note, or none for a commit of the
 * rewrite without one (a person's commit squashed in), which claims nothing but is still a later
 * version of the lines before it.
 */
export interface RewriteSource {
  note: AgentNoteV1 | undefined;
}

/** One file of the new commit (diff-tree order). */
export interface RewrittenFile {
  path: string;
  /** new parent → new commit hunks; undefined when git could not diff it (the file then gets no AI claim). */
  diff1: readonly DiffHunk[] | undefined;
  /**
   * Per source (same index as `sources`): the hunks of git's diff of the source commit's blob of
   * this path to the new commit's blob; undefined when the source has no such file or it was not
   * diffed.
   */
  fromSource: readonly (readonly DiffHunk[] | undefined)[];
}

export interface RewriteNoteInput {
  sources: readonly RewriteSource[];
  files: readonly RewrittenFile[];
  clock: Clock;
}

/**
 * Where a line of the old side of `hunks` (`-U0` hunks of old → new) is on the new side, or
 * undefined when the diff changed or deleted it.
 */
export function mapUnchangedLine(hunks: readonly DiffHunk[], line: number): number | undefined {
  let delta = 0;
  for (const h of [...hunks].sort((a, b) => a.oldStart - b.oldStart)) {
    if (h.oldCount > 0 && line >= h.oldStart && line < h.oldStart + h.oldCount) return undefined;
    // a pure insertion (oldCount 0) sits after old line oldStart
    const lastOld = h.oldCount > 0 ? h.oldStart + h.oldCount - 1 : h.oldStart;
    if (line > lastOld) delta += h.newCount - h.oldCount;
    else break;
  }
  return line + delta;
}

/** The note of the new commit, or undefined when none of its added lines keeps an AI claim. */
export function rewriteNote(input: RewriteNoteInput): AgentNoteV1 | undefined {
  const files: OwnedFile[] = input.files.map((f) => {
    if (!f.diff1) return { path: f.path, diff1: undefined, owners: new Map() };
    const addedSet = new Set(addedLinePositions(f.diff1));
    const owners = new Map<number, LineOwner>();
    input.sources.forEach((s, si) => {
      const hunks = f.fromSource[si];
      const src = s.note?.files.find((x) => x.path === f.path);
      if (!hunks || !src?.ai_ranges || !s.note?.attribution.lines) return;
      const hashes = fileLineHashes(src);
      for (const r of src.ai_ranges) {
        for (let line = r.start; line <= r.end; line++) {
          const to = mapUnchangedLine(hunks, line);
          if (to === undefined || !addedSet.has(to) || !untouchedSince(f, si, to)) continue;
          // the line is unchanged from the source's version: its text, so its hash, is the same
          owners.set(to, { source: si, interaction: r.interaction, hash: hashes?.get(line) });
        }
      }
    });
    return { path: f.path, diff1: f.diff1, owners };
  });
  return composeOwnedNote(input.sources, files, input.clock);
}

/** Who wrote one AI line of the new commit: a source (index), its prompt (index into that source's interactions), its hash. */
export interface LineOwner {
  source: number;
  interaction: number | null;
  hash: string | undefined;
}

/** One file of the new commit with the owners of its AI lines (new-side line numbers). */
export interface OwnedFile {
  path: string;
  /** new parent → new commit hunks; undefined: not diffed (no AI claim, line counts incomplete). */
  diff1: readonly DiffHunk[] | undefined;
  owners: ReadonlyMap<number, LineOwner>;
}

/**
 * The note of a commit whose AI lines are known with their sources (a rewrite's or a derived
 * note): the union of the sources' interactions (identical ones once, in source order), `files[]`
 * in the commit's order with `ai_ranges` (and `ai_line_hashes` where every AI line of the file has
 * a hash), line counts from the commit's own diff, and the session of the source owning most AI
 * lines. Undefined when no line is AI.
 */
export function composeOwnedNote(sources: readonly RewriteSource[], owned: readonly OwnedFile[], clock: Clock): AgentNoteV1 | undefined {
  const interactions: NoteInteraction[] = [];
  const indexOf = new Map<string, number>();
  const remap: number[][] = sources.map((s) =>
    (s.note?.interactions ?? []).map((i) => {
      const key = JSON.stringify(i);
      let at = indexOf.get(key);
      if (at === undefined) {
        at = interactions.length;
        indexOf.set(key, at);
        interactions.push(i);
      }
      return at;
    }),
  );

  const paths = new Set(owned.map((f) => f.path));
  const files: NoteFile[] = [];
  const lines: NoteLines = { ai_added: 0, total_added: 0, deleted: 0 };
  let complete = true;
  const aiLinesBySource = sources.map(() => 0);
  for (const f of owned) {
    const flags = sourceFlags(sources, f.path);
    const entry: NoteFile = { path: f.path, by_ai: false };
    if (flags.generated) entry.generated = true;
    if (flags.ignored) entry.ai_ratio_excluded = true;
    if (!f.diff1) {
      if (!flags.generated && !flags.ignored) complete = false;
      files.push(entry);
      continue;
    }
    const aiLines = addedLinePositions(f.diff1).filter((l) => f.owners.has(l));
    const counts = countDiffLines(f.diff1);
    if (!flags.generated && !flags.ignored) {
      lines.total_added += counts.added;
      lines.deleted += counts.deleted;
      lines.ai_added += aiLines.length;
    }
    for (const l of aiLines) aiLinesBySource[f.owners.get(l)?.source ?? 0]++;
    if (aiLines.length > 0) {
      entry.by_ai = true;
      const owners = aiLines.map((l) => {
        const o = f.owners.get(l);
        const i = o && o.interaction !== null && o.interaction < (remap[o.source]?.length ?? 0) ? remap[o.source][o.interaction] : null;
        return i === null ? null : String(i);
      });
      entry.ai_ranges = mergeRanges(aiLines, owners).map(
        (r): NoteAiRange => ({ start: r.start, end: r.end, interaction: r.interactionKey === null ? null : Number(r.interactionKey) }),
      );
      const hashes = aiLines.map((l) => f.owners.get(l)?.hash);
      if (hashes.every((h): h is string => h !== undefined)) entry.ai_line_hashes = hashes;
    }
    files.push(entry);
  }
  if (!files.some((f) => f.by_ai)) return undefined;

  // the session of the source owning most surviving AI lines (ties: the first)
  let lead = sources.findIndex((s) => s.note !== undefined);
  aiLinesBySource.forEach((n, i) => {
    if (n > aiLinesBySource[lead]) lead = i;
  });
  const head = sources[lead]?.note;
  if (!head) return undefined;
  const ratioFiles = files.map((f) => ({
    path: f.path,
    by_ai: f.by_ai,
    generated: f.generated === true,
    ai_ratio_excluded: f.ai_ratio_excluded === true,
  }));
  return {
    v: 1,
    agent: head.agent,
    session_id: head.session_id,
    timestamp: new Date(clock.now()).toISOString(),
    model: head.model,
    interactions: interactions.map((i) => restrictFilesTouched(i, paths)),
    files,
    attribution: aiRatio(ratioFiles, complete ? lines : undefined),
  };
}

/**
 * True when line `to` of the new commit's file is unchanged from every source after `si` too: a
 * later source that does not have the file, or whose version differs at that line (it deleted the
 * line and a later one wrote the same text again, say), leaves the line to the person.
 */
function untouchedSince(f: RewrittenFile, si: number, to: number): boolean {
  for (let sj = si + 1; sj < f.fromSource.length; sj++) {
    const later = f.fromSource[sj];
    if (!later) return false;
    for (const h of later) if (h.newCount > 0 && to >= h.newStart && to < h.newStart + h.newCount) return false;
  }
  return true;
}

function sourceFlags(sources: readonly RewriteSource[], path: string): { generated: boolean; ignored: boolean } {
  let generated = false;
  let ignored = false;
  for (const s of sources) {
    const f = s.note?.files.find((x) => x.path === path);
    if (f?.generated) generated = true;
    if (f?.ai_ratio_excluded) ignored = true;
  }
  return { generated, ignored };
}

/** `files_touched` restricted to the new commit's files (dropped when none is left), key order kept. */
function restrictFilesTouched(i: NoteInteraction, paths: ReadonlySet<string>): NoteInteraction {
  if (!Array.isArray(i.files_touched)) return i;
  const kept = i.files_touched.filter((p) => paths.has(p));
  const out: NoteInteraction = { prompt: i.prompt, response: i.response };
  for (const [k, v] of Object.entries(i)) {
    if (k === 'prompt' || k === 'response') continue;
    if (k === 'files_touched') {
      if (kept.length > 0) out.files_touched = kept;
    } else out[k] = v;
  }
  return out;
}
