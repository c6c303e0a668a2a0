import type { NoteAiRange, NoteAttribution, NoteFile, NoteLines } from '../notes/noteTypes';
import { aiRatio } from './aiRatio';
import { countDiffLines, type DiffHunk } from './diffHunks';
import { attributeLines, mergeRanges, type AiRange, type EditPairDiff, type LineAttribution } from './lineAttribution';

/**
 * Combines per-file line attribution into the commit's `files[]` and `attribution`
 * (docs/note-format.md §1.5, §1.6, §3.2–3.4, §3.6–3.7).
 *
 * Per file (diff-tree order), in this priority:
 * - `excluded` — generated (§3.6) or `.agentnoteignore`d (§3.7): no line counting, not in the
 *   completeness check.
 * - `skipped` — a submodule gitlink: left out of line counting (the CLI's blob diff fails on it and
 *   it skips the file).
 * - `line` — the CLI's completeness rule (§3.2 step 6) holds: the file is not by AI (all its added
 *   lines are human), or it has at least one full edit pair (3-diff), or the Cursor exact-count
 *   upgrade (§3.3) applies — only while some edit of the file lacks a full pair; when every edit
 *   has one, the 3-diff alone decides: the edits' reported added/deleted sums equal the committed counts and
 *   the committed blob equals the last post-edit blob ⇒ every added line is AI (lines claimed by a
 *   pair keep that pair's owner; the rest get the interaction of the edits without a full pair, or null
 *   when several).
 * - `evidence` — ours, where the CLI gives up: an AI file without a full pair and without an exact
 *   count match, whose committed blob equals the agent's last post-edit blob. Nobody changed the
 *   file after the agent's last edit, so every added line is counted as AI (owner: the edits'
 *   interaction, null when several). When every edit of the file reports counts and their added sum
 *   is smaller than the committed added lines, the evidence contradicts itself and the file stays
 *   `unknown`. Weakness: human lines typed before the agent's first edit (same commit) count as AI.
 * - `unknown` — an AI file with no usable evidence (no pair, no count match, committed ≠ last post),
 *   or any eligible file whose diff could not be computed within our work bounds.
 *
 * Commit summary:
 * - no edit data at all (§3.2 step 3), or a commit without paths (merge) ⇒ `summary: 'noLineData'`,
 *   no `lines`, method `file` — as the CLI;
 * - any eligible `unknown` file ⇒ no `lines`, method `file` — the CLI's whole-commit fallback,
 *   because schema v1 has a single commit-level method and the unknown file's added lines can be
 *   counted neither as AI nor as human without guessing. Per-file ranges of the other files are
 *   still returned (they are facts about those files);
 * - otherwise `lines` = Σ over `line` and `evidence` files and the method follows §3.4. With no
 *   `evidence` file this is exactly the CLI's result (`summary: 'cli'`); with some it is our
 *   per-file refinement (`summary: 'perFile'`), still schema-v1 valid.
 * `contributingInteractionKeys` (the CLI's contributing turns, §3.2 step 7) is empty whenever
 * `lines` is absent, as in the CLI (the caller then falls back to the latest touching turn per file).
 */

/** One agent edit of a file as evidence without a pre-blob (and also with one). */
export interface FileEditEvidence {
  interactionKey: string;
  agent: string;
  /** Blob of the file after the edit. */
  postBlob: string;
  /** Lines the edit added / deleted as reported by the agent (Cursor `edits[]`), both or neither. */
  editAdded?: number;
  editDeleted?: number;
  /** Id of the edit's full pair in `CommitFileInput.pairs`, when it has a pre-blob. */
  pairId?: string;
}

export interface CommitFileInput {
  /** Repo-relative path. */
  path: string;
  /** The file is in the AI-file set of the commit. */
  byAi: boolean;
  /** Generated-artifact heuristic fired (§3.6). */
  generated: boolean;
  /** `.agentnoteignore` matched (§3.7). */
  ignored: boolean;
  /** Committed blob id from diff-tree (the empty blob for deletions). */
  committedBlob?: string;
  /** diff1 (parent → committed) hunks; undefined when not computed, see `unavailable`. */
  diff1?: readonly DiffHunk[];
  /** Why diff1 is missing: a gitlink (skipped like the CLI), or degraded (our bounds / git failure). */
  unavailable?: 'submodule' | 'degraded';
  /** Full edit pairs (pre and post blobs known and diffable), chronological. */
  pairs: readonly EditPairDiff[];
  /** Every agent edit of the file, chronological (with or without pre-blob). */
  edits: readonly FileEditEvidence[];
}

export interface CommitAttributionInput {
  /** Every path of the commit, in diff-tree order. */
  files: readonly CommitFileInput[];
  /**
   * False when no edit blobs were recorded at all (§3.2 step 3) or the commit lists no paths
   * (merge commits): no line counts, as the CLI.
   */
  hasEditData: boolean;
}

export type FileLevel = 'line' | 'evidence' | 'unknown' | 'excluded' | 'skipped';

/** How a `line` / `evidence` file got its AI lines. */
export type FileBasis = 'human' | 'pairs' | 'countMatch' | 'postMatch';

export interface AttributedFile {
  path: string;
  byAi: boolean;
  generated: boolean;
  ignored: boolean;
  level: FileLevel;
  basis?: FileBasis;
  /** Per-file counts (level line / evidence). */
  lines?: NoteLines;
  /** AI line ranges of the committed blob (level line / evidence). */
  ranges: AiRange[];
  /** Interactions that produced committed added lines of this file. */
  contributingInteractionKeys: string[];
  /** Full 3-diff detail (level line / evidence). */
  detail?: LineAttribution;
}

export type CommitSummary = 'cli' | 'perFile' | 'commitFallback' | 'noLineData';

export interface CommitAttribution {
  files: AttributedFile[];
  attribution: NoteAttribution;
  summary: CommitSummary;
  /** Contributing interactions (§3.2 step 7), first seen in file order; empty without `lines`. */
  contributingInteractionKeys: string[];
}

/** Applies the per-file levels and the commit summary described above. */
export function commitAttribution(input: CommitAttributionInput): CommitAttribution {
  const files = input.files.map(attributeFile);
  const counted = files.filter((f) => f.level === 'line' || f.level === 'evidence');
  let summary: CommitSummary;
  if (!input.hasEditData) summary = 'noLineData';
  else if (files.some((f) => f.level === 'unknown')) summary = 'commitFallback';
  else summary = files.some((f) => f.level === 'evidence') ? 'perFile' : 'cli';

  let lines: NoteLines | undefined;
  const contributing: string[] = [];
  if (summary === 'cli' || summary === 'perFile') {
    lines = { ai_added: 0, total_added: 0, deleted: 0 };
    for (const f of counted) {
      lines.ai_added += f.lines?.ai_added ?? 0;
      lines.total_added += f.lines?.total_added ?? 0;
      lines.deleted += f.lines?.deleted ?? 0;
      for (const k of f.contributingInteractionKeys) if (!contributing.includes(k)) contributing.push(k);
    }
  }
  const ratioFiles = files.map((f) => ({ path: f.path, by_ai: f.byAi, generated: f.generated, ai_ratio_excluded: f.ignored }));
  return { files, attribution: aiRatio(ratioFiles, lines), summary, contributingInteractionKeys: contributing };
}

function attributeFile(f: CommitFileInput): AttributedFile {
  const base = { path: f.path, byAi: f.byAi, generated: f.generated, ignored: f.ignored, ranges: [], contributingInteractionKeys: [] };
  if (f.generated || f.ignored) return { ...base, level: 'excluded' };
  if (f.unavailable === 'submodule') return { ...base, level: 'skipped' };
  if (!f.diff1) return { ...base, level: 'unknown' };
  const diff1 = f.diff1;

  if (!f.byAi && f.pairs.length === 0) return lineFile(base, 'line', 'human', attributeLines(diff1, []));

  const committed = countDiffLines(diff1);
  const lastPost = f.edits.length > 0 ? f.edits[f.edits.length - 1].postBlob : undefined;
  const postMatches = f.committedBlob !== undefined && lastPost === f.committedBlob;
  const counted = f.edits.filter((e) => e.editAdded !== undefined && e.editDeleted !== undefined);
  const countedKeys = unique(counted.map((e) => e.interactionKey));

  // Every edit of the file has a full pair (pre and post blob): the 3-diff is exact and nothing is
  // guessed. The count upgrade below is for edits without a pre-blob (Cursor's hooks, the CLI's
  // §3.3); applied on top of full pairs it would also claim a person's change made between two
  // agent edits that happens to keep the line counts (issue #15, class 3).
  const allPaired = f.edits.length > 0 && f.pairs.length >= f.edits.length;
  if (f.byAi && counted.length > 0 && postMatches && !allPaired) {
    const added = counted.reduce((s, e) => s + (e.editAdded ?? 0), 0);
    const deleted = counted.reduce((s, e) => s + (e.editDeleted ?? 0), 0);
    if (added === committed.added && deleted === committed.deleted) {
      // Lines no pair claims were written by the edits without a full pair (a paired edit's surviving
      // line is claimed by its own pair; one a later edit rewrote is in that edit's post-blob). When
      // those edits share one interaction, the lines are that interaction's, even if the paired
      // edits belong to others (a Codex write without pre-blob next to Cursor's edit, issue #15).
      const paired = new Set(f.pairs.map((p) => p.pairId));
      const unpairedKeys = unique(f.edits.filter((e) => e.pairId === undefined || !paired.has(e.pairId)).map((e) => e.interactionKey));
      const owner = soleKey(unpairedKeys.length > 0 ? unpairedKeys : countedKeys);
      const detail = attributeLines(diff1, f.pairs, { claimAllAdded: { interactionKey: owner } });
      // The CLI credits every counted edit's turn here (and not the pairs'), even without added lines.
      return { ...lineFile(base, 'line', 'countMatch', detail), contributingInteractionKeys: countedKeys };
    }
  }
  if (f.pairs.length > 0) return lineFile(base, 'line', 'pairs', attributeLines(diff1, f.pairs));

  const everyEditCounted = f.edits.length > 0 && counted.length === f.edits.length;
  const contradicted = everyEditCounted && counted.reduce((s, e) => s + (e.editAdded ?? 0), 0) < committed.added;
  if (postMatches && !contradicted) {
    const keys = unique(f.edits.map((e) => e.interactionKey));
    const detail = attributeLines(diff1, [], { claimAllAdded: { interactionKey: soleKey(keys) } });
    return { ...lineFile(base, 'evidence', 'postMatch', detail), contributingInteractionKeys: detail.aiAdded > 0 ? keys : [] };
  }
  return { ...base, level: 'unknown' };
}

function lineFile(
  base: Pick<AttributedFile, 'path' | 'byAi' | 'generated' | 'ignored'>,
  level: 'line' | 'evidence',
  basis: FileBasis,
  detail: LineAttribution,
): AttributedFile {
  return {
    ...base,
    level,
    basis,
    lines: { ai_added: detail.aiAdded, total_added: detail.totalAdded, deleted: detail.deleted },
    ranges: detail.ranges,
    contributingInteractionKeys: detail.contributingInteractionKeys,
    detail,
  };
}

function unique(keys: readonly string[]): string[] {
  return [...new Set(keys)];
}

function soleKey(keys: readonly string[]): string | null {
  return keys.length === 1 ? keys[0] : null;
}

/**
 * The note's `files[]` (key order `path`, `by_ai`, `generated`, `ai_ratio_excluded`, then our
 * additive `ai_ranges`). Ranges are mapped to interaction indexes by `interactionIndex` (null when
 * the interaction is not in the note) and re-merged; `ai_ranges` is omitted when empty or when
 * `opts.ranges` is false.
 */
export function noteFiles(
  result: Pick<CommitAttribution, 'files'>,
  interactionIndex: (key: string | null) => number | null,
  opts: { ranges?: boolean } = {},
): NoteFile[] {
  return result.files.map((f) => {
    const entry: NoteFile = { path: f.path, by_ai: f.byAi };
    if (f.generated) entry.generated = true;
    if (f.ignored) entry.ai_ratio_excluded = true;
    if (opts.ranges !== false && f.ranges.length > 0) entry.ai_ranges = toNoteRanges(f.ranges, interactionIndex);
    return entry;
  });
}

function toNoteRanges(ranges: readonly AiRange[], interactionIndex: (key: string | null) => number | null): NoteAiRange[] {
  const lines: number[] = [];
  const owners: (string | null)[] = [];
  for (const r of ranges) {
    const index = interactionIndex(r.interactionKey);
    for (let line = r.start; line <= r.end; line++) {
      lines.push(line);
      owners.push(index === null ? null : String(index));
    }
  }
  return mergeRanges(lines, owners).map((r) => ({
    start: r.start,
    end: r.end,
    interaction: r.interactionKey === null ? null : Number(r.interactionKey),
  }));
}

/** One commit file keyed by interaction keys (the shape the note builder consumes). */
export interface KeyedNoteFile {
  path: string;
  by_ai: boolean;
  generated?: true;
  ai_ratio_excluded?: true;
  ai_ranges?: AiRange[];
}

/**
 * `files` + `attribution` for the note builder: v1 keys in order, `ai_ranges` still owned by
 * interaction keys (the builder maps them to indexes of the interactions it selects).
 */
export function keyedAttribution(result: Pick<CommitAttribution, 'files' | 'attribution'>): {
  files: KeyedNoteFile[];
  attribution: NoteAttribution;
} {
  const files = result.files.map((f) => {
    const entry: KeyedNoteFile = { path: f.path, by_ai: f.byAi };
    if (f.generated) entry.generated = true;
    if (f.ignored) entry.ai_ratio_excluded = true;
    if (f.ranges.length > 0) entry.ai_ranges = f.ranges.map((r) => ({ ...r }));
    return entry;
  });
  return { files, attribution: result.attribution };
}

/**
 * Lines of an edit's `old_string` / `new_string` as the CLI counts them (§3.3): empty ⇒ 0; exactly
 * "\n" ⇒ 1; otherwise CRLF → LF, one trailing newline dropped, `\n`-separated lines counted.
 */
export function countTextLines(value: string): number {
  if (!value) return 0;
  const normalized = value.replace(/\r\n/g, '\n');
  if (normalized === '\n') return 1;
  const trimmed = normalized.endsWith('\n') ? normalized.slice(0, -1) : normalized;
  return trimmed ? trimmed.split('\n').length : 0;
}

/**
 * Added / deleted line counts of one edit record's replacements (Cursor `edits[]`). Replacements
 * with both strings empty are skipped; undefined when none is left (the CLI stores nulls then).
 */
export function countEditLines(
  edits: readonly { oldString?: string; newString?: string }[],
): { added: number; deleted: number } | undefined {
  let added = 0;
  let deleted = 0;
  let seen = false;
  for (const e of edits) {
    const oldString = e.oldString ?? '';
    const newString = e.newString ?? '';
    if (!oldString && !newString) continue;
    seen = true;
    deleted += countTextLines(oldString);
    added += countTextLines(newString);
  }
  return seen ? { added, deleted } : undefined;
}
