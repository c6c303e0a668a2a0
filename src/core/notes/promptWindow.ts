// Long file: the prompt-window policy mirrors the CLI's rules one to one; more than half of the file is the documented input model.
/**
 * Prompt-window selection: which prompts of an agent session go into the note of one commit
 * (docs/note-format.md §4.1, with the signals of §4.2 and the primary-turn rules of
 * §3.5 / §4.1). Pure; behaviour mirrors the Agent Note CLI v1.0.8 `prompt-window` policy so that
 * the same session produces the same `interactions[]` and `selection` in both tools.
 *
 * ## Input model
 *
 * The caller (the recorder) turns each agent session it knows into a list of
 * {@link PromptCandidate} rows — one per accepted user prompt, numbered by `turn` (1, 2, … in the
 * order the prompts were submitted in that session) — and passes ALL prompts of the session it
 * still has, including those already used by earlier commits: the window itself decides what is
 * stale, and the previous turn's response is needed for reference contexts.
 *
 * Per row:
 * - `key`: stable interaction key, conventionally `${agent}:${sessionId}:${turn}`; the attribution
 *   uses the same key for its line ranges.
 * - `prompt` (already sanitized, §4.4), `response` (assistant text of that turn as it will be
 *   stored: transcript text, else hook-event text; `null` when unknown).
 * - `windowResponse` (optional): the response used for the window's *response anchor* test and as
 *   "previous response" of the next turn's reference context. Defaults to `response`. The CLI uses
 *   only hook-event responses there (Claude's Stop hook carries none), so pass `null` for Claude
 *   rows when byte-for-byte CLI parity matters more than the extra anchor.
 * - `filesTouched`: repo-relative paths the turn edited, restricted to the commit, deduped,
 *   insertion order; `tools`: edit tools of the turn, first-seen order (`null` = the adapter
 *   cannot track tools; omitted/empty = no tool data).
 * - `isPrimary`: the turn contributed AI lines to this commit (from the attribution, see
 *   {@link resolvePrimaryTurns} and {@link selectTranscriptPrimaryTurns}); `hasEdits`: the turn
 *   has unconsumed session edits (to any file).
 *
 * Per session: {@link ConsumedPromptState} (from the markers earlier commits recorded — the
 * equivalent of `committed_pairs.jsonl`, see {@link consumedStateFromMarkers}) and the
 * `upperTurn` (the session's current turn when the commit was made). Per commit: a
 * {@link CommitSignature} built from subject, paths and patch.
 *
 * ## Output
 *
 * {@link selectPromptWindow} returns the selected rows in turn order, each with its
 * `selection {schema: 1, source, signals}`, the markers to persist once the note is written
 * (every row of the bounded window, `tail` for tail rows, `window` otherwise), and a per-row
 * report of metrics, flags and outcome for logs and tests.
 */

import { z } from 'zod';
import type { CommittedPairLine } from '../model/journal';
import type { NoteSelection, SelectionSource } from './noteTypes';
import {
  collectSelectionSignals,
  isHardExcludedPrompt,
  isQuotedHistory,
  pathBasename,
  responseAnchorsCommit,
  tokenizeSelectionText,
  type CommitSignature,
} from './selectionSignals';

/** Maximum number of selected rows of one window (and of one note). */
export const maxWindowRows = 24;
const anchorTextScore = 2;
const anchorFileRefScore = 5;
const anchorShapeScore = 44;
const weakLeadingShapeMax = 20;
const maxSoftLeadingRows = 2;
const quotedTextScoreFactor = 0.25;

/** One user prompt of one agent session, candidate for a commit's note. See the module doc. */
export interface PromptCandidate {
  /** Stable interaction key, e.g. `${agent}:${sessionId}:${turn}`. */
  key: string;
  agent: string;
  sessionId: string;
  /** 1-based prompt counter within the session. */
  turn: number;
  /** Journal prompt id, when known (markers and tail checks use `promptId ?? key`). */
  promptId?: string;
  /** Sanitized prompt text. */
  prompt: string;
  /** Response as stored in the note; null when unknown. */
  response: string | null;
  /** Response for the window's anchor test and the next turn's reference context (default: `response`). */
  windowResponse?: string | null;
  /** ISO-8601 time of the prompt (used to merge sessions chronologically). */
  timestamp?: string;
  /** Commit files the turn edited (repo-relative, insertion order). */
  filesTouched: readonly string[];
  /** Edit tools of the turn (first-seen order); null = cannot track; undefined/empty = none. */
  tools?: readonly string[] | null;
  /** The turn contributed to this commit (primary turn). */
  isPrimary: boolean;
  /** The turn has unconsumed session edits (to any file). */
  hasEdits: boolean;
}

/** What earlier commits of the same session consumed. */
export interface ConsumedPromptState {
  /** Highest turn recorded by earlier commits, tail markers excluded (the window's lower bound). */
  maxConsumedTurn: number;
  /** `promptId ?? key` of prompts recorded as tail markers by earlier commits. */
  tailPromptIds: ReadonlySet<string>;
}

/** A consumption marker to persist after the note is written (`committed_pairs.jsonl` line). */
export interface PromptWindowMarker {
  key: string;
  sessionId: string;
  turn: number;
  /** Journal prompt id, or null when the row has none. */
  promptId: string | null;
  scope: 'window' | 'tail';
}

/** Input of one window run (one session). */
export interface PromptWindowInput {
  /** All prompts of the session the caller knows, any order. */
  rows: readonly PromptCandidate[];
  consumed: ConsumedPromptState;
  /** The session's current turn at commit time (≤ 0: unknown, the highest row turn is used). */
  upperTurn: number;
  commit: CommitSignature;
  /**
   * `window` (default): the regular policy, requires at least one primary row.
   * `fallback`: prompt-only window (Codex with no file evidence): no primaries, no tail, source
   * `fallback`, upper = latest prompt turn ≤ `upperTurn`.
   */
  mode?: 'window' | 'fallback';
}

/** Why a row did or did not make it into the selection. */
export type WindowRowOutcome = 'selected' | 'outOfWindow' | 'staleLeading' | 'hardTrimmed' | 'beforeAnchor' | 'filtered' | 'capped';

/** Metrics and flags of one considered row (diagnostics; never persisted). */
export interface WindowRowReport {
  key: string;
  turn: number;
  source: SelectionSource;
  fileRefScore: number;
  shapeScore: number;
  textScore: number;
  responseAnchor: boolean;
  quoted: boolean;
  hardExcluded: boolean;
  primary: boolean;
  tail: boolean;
  inWindow: boolean;
  boundary: boolean;
  nonPrimaryEdit: boolean;
  consumedTail: boolean;
  behindBarrier: boolean;
  anchor: boolean;
  outcome: WindowRowOutcome;
}

/** A selected row with its provenance and persisted selection. */
export interface SelectedPrompt {
  row: PromptCandidate;
  source: SelectionSource;
  /** Turn equals the window's upper turn. */
  beforeCommitBoundary: boolean;
  /** Selection computed for the window's own order (recompute after merging sessions). */
  selection: NoteSelection | undefined;
}

/** Result of {@link selectPromptWindow}. */
export interface PromptWindowResult {
  selected: SelectedPrompt[];
  /** Rows to record as consumed once the note is written (the whole bounded window). */
  markers: PromptWindowMarker[];
  /** Every row in the window's turn range, in turn order. */
  rows: WindowRowReport[];
  lowerTurn: number;
  upperTurn: number;
}

interface Row {
  c: PromptCandidate;
  source: SelectionSource;
  fileRef: number;
  shape: number;
  text: number;
  responseAnchor: boolean;
  quoted: boolean;
  hardExcluded: boolean;
  primary: boolean;
  tail: boolean;
  inWindow: boolean;
  boundary: boolean;
  nonPrimaryEdit: boolean;
  consumedTail: boolean;
  barrier: boolean;
  outcome: WindowRowOutcome;
}

// ---------------------------------------------------------------------------------------------
// Metrics

/**
 * Shape score: min(⌊len/4⌋, 24) + min(newlines×10, 30) + 18 backtick code + 16 path-like token
 * + 14 `--flag` + 20 list line (of the trimmed prompt).
 */
export function scorePromptShape(text: string): number {
  const t = text.trim();
  if (!t) return 0;
  let score = Math.min(Math.floor(t.length / 4), 24);
  score += Math.min((t.match(/\n/g) ?? []).length * 10, 30);
  if (/`[^`]+`/.test(t)) score += 18;
  if (/(^|\s)(?:\.{0,2}\/|~\/|[A-Za-z0-9_.-]+\/)[^\s]+/.test(t)) score += 16;
  if (/--[a-z0-9-]+/i.test(t)) score += 14;
  if (/^\s*(?:[-*]|\d+\.)\s/m.test(t)) score += 20;
  return score;
}

/**
 * File-reference score, case-insensitive, summed over commit files: +80 if the prompt contains
 * the path, +5 per path segment of ≥ 4 chars (split on `/` and `.`) it contains, +20 if it
 * contains the basename.
 */
export function scorePromptFileRefs(prompt: string, files: readonly string[]): number {
  const lower = prompt.toLowerCase();
  let score = 0;
  for (const ref of fileRefsOf(files)) {
    if (lower.includes(ref.path)) score += 80;
    for (const segment of ref.segments) if (lower.includes(segment)) score += 5;
    if (ref.basename && lower.includes(ref.basename)) score += 20;
  }
  return score;
}

interface FileRef {
  path: string;
  segments: string[];
  basename: string;
}

const fileRefCache = new WeakMap<readonly string[], FileRef[]>();

/** Lower-cased path, ≥ 4-char segments and basename of each file, cached per file list. */
function fileRefsOf(files: readonly string[]): FileRef[] {
  let refs = fileRefCache.get(files);
  if (!refs) {
    refs = files.map((file) => ({
      path: file.toLowerCase(),
      segments: file
        .split(/[/.]/)
        .filter((segment) => segment.length >= 4)
        .map((segment) => segment.toLowerCase()),
      basename: pathBasename(file).toLowerCase(),
    }));
    fileRefCache.set(files, refs);
  }
  return refs;
}

/**
 * Text score: selection tokens shared by the prompt and subject+paths, +4 per shared token
 * containing `/` or `.`, +1 otherwise (not yet scaled for quoted history).
 */
export function scorePromptTextOverlap(prompt: string, sig: CommitSignature): number {
  let score = 0;
  for (const token of tokenizeSelectionText(prompt)) {
    if (sig.commitSelectionTokens.has(token)) score += token.includes('/') || token.includes('.') ? 4 : 1;
  }
  return score;
}

// ---------------------------------------------------------------------------------------------
// Consumed state

const markerLineSchema = z
  .object({
    turn: z.number(),
    prompt_id: z.string().nullish(),
    prompt_scope: z.string().nullish(),
  })
  .passthrough();

/**
 * Consumed state of a session from its `committed_pairs.jsonl` lines (any line shape; invalid
 * lines are skipped and counted). Lower bound = max `turn` of lines that are not tail markers;
 * tail ids = `prompt_id` of `prompt_scope: "tail"` lines.
 */
export function consumedStateFromMarkers(lines: readonly unknown[]): ConsumedPromptState & { skipped: number } {
  let maxConsumedTurn = 0;
  let skipped = 0;
  const tailPromptIds = new Set<string>();
  for (const line of lines) {
    const parsed = markerLineSchema.safeParse(line);
    if (!parsed.success) {
      skipped += 1;
      continue;
    }
    const { turn, prompt_id: promptId, prompt_scope: scope } = parsed.data;
    if (scope === 'tail') {
      if (promptId) tailPromptIds.add(promptId);
      continue;
    }
    if (turn > maxConsumedTurn) maxConsumedTurn = turn;
  }
  return { maxConsumedTurn, tailPromptIds, skipped };
}

/** The `committed_pairs.jsonl` line of a marker (key order as the CLI writes it). */
export function markerToCommittedPairLine(marker: PromptWindowMarker): CommittedPairLine {
  return {
    turn: marker.turn,
    prompt_id: marker.promptId,
    file: null,
    prompt_scope: marker.scope,
    change_id: null,
    tool_use_id: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Primary turns

/**
 * Primary turns of a hook-captured commit (§4.1): the turns that contributed lines (3-diff);
 * else, for file-level attribution, the latest turn touching each committed file; else all
 * turns touching committed files. `fileTurns`: turn → committed files it touched (turns > 0).
 */
export function resolvePrimaryTurns(contributingTurns: Iterable<number>, fileTurns: ReadonlyMap<number, Iterable<string>>): Set<number> {
  const contributing = new Set([...contributingTurns].filter((t) => t > 0));
  if (contributing.size > 0) return contributing;
  const latestByFile = new Map<string, number>();
  for (const [turn, files] of fileTurns) {
    if (turn <= 0) continue;
    for (const file of files) if (turn > (latestByFile.get(file) ?? 0)) latestByFile.set(file, turn);
  }
  if (latestByFile.size > 0) return new Set(latestByFile.values());
  return new Set([...fileTurns.keys()].filter((t) => t > 0));
}

/** Line counts of one file. */
export interface LineStat {
  added: number;
  deleted: number;
}

/** A transcript interaction that touched commit files, with its session turn (if correlated). */
export interface TranscriptEditRow {
  turn?: number;
  /** Per-file `+`/`-` line counts of its patches. */
  lineStats?: Readonly<Record<string, LineStat>>;
}

/**
 * Primary turns of a transcript-driven commit (§3.5). Walking the matched rows (chronological
 * order) from newest to oldest and summing their line stats over `commitFiles`, the smallest
 * suffix whose sums equal `committedCounts` exactly becomes primary (its turns that contributed
 * stats); otherwise every matched turn. `committedCounts` must cover every file of `commitFiles`
 * (e.g. commit files minus generated ones), else all matched turns are returned.
 */
export function selectTranscriptPrimaryTurns(
  matched: readonly TranscriptEditRow[],
  committedCounts: ReadonlyMap<string, LineStat>,
  commitFiles: ReadonlySet<string>,
): Set<number> {
  const matchedTurns = new Set<number>();
  for (const row of matched) if (row.turn !== undefined && row.turn > 0) matchedTurns.add(row.turn);
  if (matchedTurns.size === 0) return matchedTurns;
  if (committedCounts.size !== commitFiles.size) return matchedTurns;

  const cumulative = new Map<string, LineStat>();
  const suffix = new Set<number>();
  for (let i = matched.length - 1; i >= 0; i--) {
    const row = matched[i];
    let contributed = false;
    for (const [file, stat] of Object.entries(row.lineStats ?? {})) {
      if (!commitFiles.has(file)) continue;
      contributed = true;
      const prev = cumulative.get(file) ?? { added: 0, deleted: 0 };
      cumulative.set(file, { added: prev.added + stat.added, deleted: prev.deleted + stat.deleted });
    }
    if (row.turn !== undefined && row.turn > 0 && contributed) suffix.add(row.turn);
    if (suffix.size > 0 && sameCounts(cumulative, committedCounts)) return suffix;
  }
  return matchedTurns;
}

function sameCounts(actual: ReadonlyMap<string, LineStat>, expected: ReadonlyMap<string, LineStat>): boolean {
  if (actual.size !== expected.size) return false;
  for (const [file, e] of expected) {
    const a = actual.get(file);
    if (!a || a.added !== e.added || a.deleted !== e.deleted) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Selection metadata

/** One interaction of an ordered list, as needed to compute its persisted selection. */
export interface SelectionItem {
  prompt: string;
  response: string | null;
  /** undefined: the interaction did not go through a window (no selection is written). */
  source: SelectionSource | undefined;
  beforeCommitBoundary: boolean;
}

/**
 * Persisted selections of an ordered interaction list. Hard-excluded items (not primary and
 * quoted history or ≤ 1 char) get none; `between_non_excluded_prompts` looks at the items at
 * index ±1 of this list, so call it again whenever the final order changes.
 */
export function computeSelections(items: readonly SelectionItem[], sig: CommitSignature): (NoteSelection | undefined)[] {
  const excluded = items.map((it) => isHardExcludedPrompt(it.prompt, it.source === 'primary'));
  const nonExcluded = (i: number): boolean => i >= 0 && i < items.length && !excluded[i];
  return items.map((it, i) => {
    if (it.source === undefined || excluded[i]) return undefined;
    return {
      schema: 1,
      source: it.source,
      signals: collectSelectionSignals(
        {
          prompt: it.prompt,
          response: it.response,
          source: it.source,
          beforeCommitBoundary: it.beforeCommitBoundary,
          adjacentNonExcluded: nonExcluded(i - 1) || nonExcluded(i + 1),
        },
        sig,
      ),
    };
  });
}

/**
 * The 24-row cap (§4.1 step 7): when over `max`, keep the first row, every primary row and the
 * newest remaining rows up to `max`, in the original order.
 */
export function capRows<T>(rows: readonly T[], isPrimary: (row: T) => boolean, max = maxWindowRows): T[] {
  if (rows.length <= max) return [...rows];
  const keep = new Set<number>([0]);
  rows.forEach((r, i) => {
    if (isPrimary(r)) keep.add(i);
  });
  const slots = Math.max(max - keep.size, 0);
  if (slots > 0) {
    const rest = rows.map((_, i) => i).filter((i) => !keep.has(i));
    for (const i of rest.slice(-slots)) keep.add(i);
  }
  return rows.filter((_, i) => keep.has(i));
}

// ---------------------------------------------------------------------------------------------
// The window

/**
 * Run the prompt-window policy of §4.1 for one session:
 * (1) drop out-of-window rows unless primary (a primary row is never dropped: see below);
 * (2) after a stale out-of-window primary, when the window has an anchor, drop the window's
 *     leading rows before its first primary row or row with shape ≥ 44;
 * (3) tail rows after a non-primary tail edit are behind a barrier;
 * (4) skip leading quoted / tiny / non-primary-edit / consumed-tail rows (never the last row);
 * (5) start at the first anchor, but keep up to 2 weak leading rows when no quoted row was skipped;
 * (6) keep primaries; drop quoted, tiny, non-primary-edit and consumed-tail rows; keep tail rows
 *     only with a response anchor, or (behind a barrier) file-ref ≥ 5 / text ≥ 2, else boundary /
 *     file-ref ≥ 5 / text ≥ 2 / shape ≥ 44;
 * (7) cap at 24 rows.
 */
export function selectPromptWindow(input: PromptWindowInput): PromptWindowResult {
  const mode = input.mode ?? 'window';
  const sig = input.commit;
  const lower = Math.max(0, input.consumed.maxConsumedTurn);
  const validRows = input.rows.filter((r) => Number.isInteger(r.turn));
  const empty = (upper: number): PromptWindowResult => ({ selected: [], markers: [], rows: [], lowerTurn: lower, upperTurn: upper });

  let upper: number;
  let latestPrimary: number;
  const primaryTurns = new Set<number>();
  if (mode === 'window') {
    for (const r of validRows) if (r.isPrimary && r.turn > 0) primaryTurns.add(r.turn);
    if (primaryTurns.size === 0) return empty(input.upperTurn);
    latestPrimary = maxOf(primaryTurns);
    // Unknown current turn: the newest prompt we know is the best stand-in.
    upper = input.upperTurn > 0 ? input.upperTurn : maxOf(validRows.map((r) => r.turn));
  } else {
    const bound = input.upperTurn > 0 ? input.upperTurn : Number.POSITIVE_INFINITY;
    const latest = validRows.reduce((m, r) => (r.turn <= bound && r.turn > m ? r.turn : m), 0);
    if (latest <= lower) return empty(latest);
    upper = latest;
    latestPrimary = latest;
  }
  // The prompt-only fallback has no edit evidence by definition: no non-primary edit rows.
  const editTurns = mode === 'window' ? new Set(validRows.filter((r) => r.hasEdits && r.turn > 0).map((r) => r.turn)) : new Set<number>();

  const rows: Row[] = validRows
    .filter((r) => (r.turn > lower && r.turn <= upper) || primaryTurns.has(r.turn))
    .sort((a, b) => a.turn - b.turn)
    .map((c) => buildRow(c, mode, sig, lower, upper, latestPrimary, primaryTurns, editTurns, input.consumed));

  // (1) Every primary row stays: a turn whose lines are in this commit survived into it, so its
  // prompt is in the note even when an earlier commit already consumed it (one turn's edits
  // committed in two commits). Only rows outside the window that contributed nothing go. The CLI
  // drops such a stale primary when the window has an anchor of its own; its lines then point at no
  // interaction (or the hover shows another turn's prompt), which is the defect of issue #15.
  const windowExplains = rows.some((r) => r.inWindow && isAnchor(r));
  const stalePrimary = rows.some((r) => r.primary && !r.inWindow);
  let bounded = rows.filter((r) => {
    const keep = r.inWindow || r.primary;
    if (!keep) r.outcome = 'outOfWindow';
    return keep;
  });
  // (2) stale carry-over: the window's own rows start at the current task's first boundary row
  // (the kept out-of-window primaries come first and are never trimmed).
  if (stalePrimary && windowExplains) {
    const stale = bounded.filter((r) => !r.inWindow);
    const own = bounded.filter((r) => r.inWindow);
    const start = own.findIndex((r) => r.primary || r.shape >= anchorShapeScore);
    if (start > 0) {
      for (const r of own.slice(0, start)) r.outcome = 'staleLeading';
      bounded = [...stale, ...own.slice(start)];
    }
  }
  // (3) barriers.
  let seenTailEdit = false;
  for (const r of bounded) {
    if (r.tail) r.barrier = seenTailEdit;
    if (r.tail && r.nonPrimaryEdit) seenTailEdit = true;
  }
  if (bounded.length === 0) return { ...empty(upper), rows: rows.map(report) };

  // (4) hard trim of leading noise, never the last row.
  let hardStart = 0;
  while (hardStart < bounded.length - 1 && isHardTrim(bounded[hardStart])) hardStart += 1;
  const quotedTrimmed = bounded.slice(0, hardStart).some((r) => r.quoted);
  for (const r of bounded.slice(0, hardStart)) r.outcome = 'hardTrimmed';

  // (5) first anchor, with up to two weak leading rows of soft context.
  const firstAnchor = bounded.findIndex((r, i) => i >= hardStart && isAnchor(r));
  let start = firstAnchor >= 0 ? firstAnchor : hardStart;
  if (
    firstAnchor >= 0 &&
    !quotedTrimmed &&
    firstAnchor - hardStart <= maxSoftLeadingRows &&
    bounded.slice(hardStart, firstAnchor).every(isWeakLeading)
  ) {
    start = hardStart;
  }
  for (const r of bounded.slice(hardStart, start)) r.outcome = 'beforeAnchor';

  // (6) filter, (7) cap.
  const kept = bounded.slice(start).filter((r) => {
    const keep = shouldKeep(r);
    if (!keep) r.outcome = 'filtered';
    return keep;
  });
  const capped = capRows(kept, (r) => r.primary);
  const cappedSet = new Set(capped);
  for (const r of kept) r.outcome = cappedSet.has(r) ? 'selected' : 'capped';

  const selections = computeSelections(
    capped.map((r) => ({ prompt: r.c.prompt, response: r.c.response, source: r.source, beforeCommitBoundary: r.boundary })),
    sig,
  );
  return {
    selected: capped.map((r, i) => ({ row: r.c, source: r.source, beforeCommitBoundary: r.boundary, selection: selections[i] })),
    markers: bounded.map((r) => ({
      key: r.c.key,
      sessionId: r.c.sessionId,
      turn: r.c.turn,
      promptId: r.c.promptId ?? null,
      scope: r.source === 'tail' ? 'tail' : 'window',
    })),
    rows: rows.map(report),
    lowerTurn: lower,
    upperTurn: upper,
  };
}

function buildRow(
  c: PromptCandidate,
  mode: 'window' | 'fallback',
  sig: CommitSignature,
  lower: number,
  upper: number,
  latestPrimary: number,
  primaryTurns: ReadonlySet<number>,
  editTurns: ReadonlySet<number>,
  consumed: ConsumedPromptState,
): Row {
  const primary = primaryTurns.has(c.turn);
  const tail = mode !== 'fallback' && !primary && c.turn > latestPrimary;
  const source: SelectionSource = mode === 'fallback' ? 'fallback' : primary ? 'primary' : tail ? 'tail' : 'window';
  const quoted = isQuotedHistory(c.prompt);
  const rawText = scorePromptTextOverlap(c.prompt, sig);
  const anchorResponse = c.windowResponse !== undefined ? c.windowResponse : c.response;
  return {
    c,
    source,
    fileRef: scorePromptFileRefs(c.prompt, sig.files),
    shape: scorePromptShape(c.prompt),
    text: quoted ? Math.floor(rawText * quotedTextScoreFactor) : rawText,
    responseAnchor: responseAnchorsCommit(anchorResponse, sig),
    quoted,
    hardExcluded: isHardExcludedPrompt(c.prompt, primary),
    primary,
    tail,
    inWindow: c.turn > lower && c.turn <= upper,
    boundary: c.turn === upper,
    nonPrimaryEdit: editTurns.has(c.turn) && !primary,
    // A tail marker only dedupes display; a consumed tail prompt may still become primary later.
    consumedTail: mode !== 'fallback' && !primary && consumed.tailPromptIds.has(c.promptId ?? c.key),
    barrier: false,
    outcome: 'selected',
  };
}

function maxOf(values: Iterable<number>): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max) max = v;
  return max;
}

function shouldKeep(r: Row): boolean {
  if (r.primary) return true;
  if (r.quoted || r.hardExcluded || r.nonPrimaryEdit || r.consumedTail) return false;
  if (!r.tail) return true;
  if (r.responseAnchor) return true;
  if (r.barrier) return r.fileRef >= anchorFileRefScore || r.text >= anchorTextScore;
  return r.boundary || r.fileRef >= anchorFileRefScore || r.text >= anchorTextScore || r.shape >= anchorShapeScore;
}

function isAnchor(r: Row): boolean {
  if (r.primary) return true;
  if (!shouldKeep(r)) return false;
  if (r.responseAnchor) return true;
  return r.text >= anchorTextScore || r.fileRef >= anchorFileRefScore || r.shape >= anchorShapeScore;
}

function isHardTrim(r: Row): boolean {
  if (r.primary) return false;
  return r.quoted || r.hardExcluded || r.nonPrimaryEdit || r.consumedTail;
}

function isWeakLeading(r: Row): boolean {
  return r.text < anchorTextScore && r.fileRef < anchorFileRefScore && r.shape < weakLeadingShapeMax;
}

function report(r: Row): WindowRowReport {
  return {
    key: r.c.key,
    turn: r.c.turn,
    source: r.source,
    fileRefScore: r.fileRef,
    shapeScore: r.shape,
    textScore: r.text,
    responseAnchor: r.responseAnchor,
    quoted: r.quoted,
    hardExcluded: r.hardExcluded,
    primary: r.primary,
    tail: r.tail,
    inWindow: r.inWindow,
    boundary: r.boundary,
    nonPrimaryEdit: r.nonPrimaryEdit,
    consumedTail: r.consumedTail,
    behindBarrier: r.barrier,
    anchor: isAnchor(r),
    outcome: r.outcome,
  };
}
