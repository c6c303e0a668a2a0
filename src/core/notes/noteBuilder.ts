/**
 * Assembles the schema-v1 note of one commit (docs/note-format.md §1.2–1.4, §3.8,
 * §4): runs the prompt window per session, merges sessions chronologically, attaches
 * `selection`, display `contexts`, `files_touched` and `tools`, copies files and attribution
 * from the attribution result (remapping `ai_ranges[].interaction` to the final order), applies
 * the redaction hook and decides agent / session / model. Pure: the caller does the I/O (reading
 * sessions, writing the note, persisting the returned markers).
 */

import type { Clock, Logger } from '../ports';
import type {
  AgentNoteV1,
  AttributionMethod,
  NoteAiRange,
  NoteAttribution,
  NoteContext,
  NoteFile,
  NoteInteraction,
  NoteLines,
  NoteSelection,
  SelectionSource,
} from './noteTypes';
import { composeContexts, selectReferenceContext, selectScopeContext, toReferenceContext } from './interactionContexts';
import {
  capRows,
  computeSelections,
  selectPromptWindow,
  type ConsumedPromptState,
  type PromptCandidate,
  type PromptWindowMarker,
} from './promptWindow';
import { buildCommitSignature, type CommitInfo, type CommitSignature } from './selectionSignals';

/** Prompts of one agent session and how to select among them. */
export interface SessionPrompts {
  agent: string;
  sessionId: string;
  /**
   * Model-bearing events of the session in order (`sessionStart`: a session_start event). The
   * note's model is the first session_start model, else the first model of any event, else null.
   */
  modelEvents?: ReadonlyArray<{ sessionStart: boolean; model?: string | null }>;
  /** Used when `modelEvents` yields nothing. */
  model?: string | null;
  /** All prompts of the session the caller knows (see promptWindow.ts). */
  rows: readonly PromptCandidate[];
  consumed: ConsumedPromptState;
  /** The session's current turn at commit time (≤ 0: unknown, the highest row turn is used). */
  upperTurn: number;
  /**
   * `window` (default): prompt-window selection (§4.1), needs primary rows. `fallback`: the
   * prompt-only window with source `fallback` (the CLI uses it for Codex commits whose transcript
   * shows tool work but no file evidence, and only when it selects ≥ 2 prompts — the caller
   * decides). `direct`: the rows are used as given, in the given order, without `selection` or
   * contexts and without markers (transcript-only paths).
   */
  mode?: 'window' | 'fallback' | 'direct';
}

/** One AI line range from the attribution, owned by an interaction key (or unknown). */
export interface AttributionRangeInput {
  start: number;
  end: number;
  /** Owning interaction key; null/undefined = unknown. */
  interactionKey?: string | null;
  /** Alternative: index into {@link AttributionInput.interactionKeys}. */
  interaction?: number | null;
}

/** One commit file from the attribution (diff-tree order). */
export interface AttributionFileInput {
  path: string;
  by_ai: boolean;
  generated?: boolean;
  ai_ratio_excluded?: boolean;
  ai_ranges?: readonly AttributionRangeInput[];
}

/** The attribution result the note's `files` and `attribution` are copied from. */
export interface AttributionInput {
  files: readonly AttributionFileInput[];
  attribution: { ai_ratio: number; method: AttributionMethod; lines?: NoteLines };
  /** Resolves numeric `ai_ranges[].interaction` values, when the attribution uses indexes. */
  interactionKeys?: readonly string[];
}

/** A redactor: returns the text with secrets replaced and how many replacements it made. */
export type RedactFn = (text: string) => { text: string; count: number };

/** Everything {@link buildNote} needs. */
export interface NoteBuildInput {
  /** Commit facts, or a signature already built from them. */
  commit: CommitInfo | CommitSignature;
  sessions: readonly SessionPrompts[];
  attribution: AttributionInput;
  clock: Clock;
  /** Applied to every prompt, response and context text. Exceptions propagate (fail closed). */
  redact?: RedactFn;
  /** Strict mode (HEAD fallback): skip unless at least one file is `by_ai`. */
  requireAiFileEvidence?: boolean;
  log?: Logger;
}

/** The note plus what the caller needs afterwards. */
export interface BuiltNote {
  note: AgentNoteV1;
  /** Total replacements made by `redact` (prompts, responses and contexts). */
  redactions: number;
  /** Interaction key of each `note.interactions[i]`. */
  interactionKeys: string[];
  /** Consumption markers to persist per session once the note is written. */
  markers: PromptWindowMarker[];
}

interface Item {
  session: number;
  row: PromptCandidate;
  source: SelectionSource | undefined;
  beforeCommitBoundary: boolean;
}

/**
 * Build the note of one commit, or undefined when §3.8 says to skip it: no interactions and no
 * AI file, or (with `requireAiFileEvidence`) no AI file; also when no session is given (a note
 * needs a `session_id`).
 *
 * - interactions: per session the window's selection (or the rows as given for `direct`),
 *   merged across sessions by prompt time (each session keeps its turn order; a row without a
 *   parseable timestamp takes its predecessor's time; ties keep session order), capped at 24
 *   (first, primaries, newest) when several sessions together exceed it; selections are
 *   recomputed on the merged order.
 * - agent: with several sessions, the agent owning most AI lines (`ai_ranges` through the
 *   interaction keys; without any range data, most `by_ai` files touched by its primary
 *   prompts); ties go to the agent of the latest interaction. session_id: that agent's session
 *   by the same rule. model: that session's model.
 * - files/attribution: copied in key order; `ai_ranges[].interaction` becomes the index of the
 *   owning interaction in `interactions[]`, or null when it was not selected; touching ranges
 *   that end up with the same interaction are merged.
 */
export function buildNote(input: NoteBuildInput): BuiltNote | undefined {
  const log = input.log;
  if (input.sessions.length === 0) {
    log?.debug('note skipped: no agent session');
    return undefined;
  }
  const sig = 'identifierMatcher' in input.commit ? input.commit : buildCommitSignature(input.commit);
  const commitFiles = new Set(sig.files);

  // Per-session selection.
  const perSession: Item[][] = [];
  const markers: PromptWindowMarker[] = [];
  input.sessions.forEach((s, si) => {
    if (s.mode === 'direct') {
      perSession.push(s.rows.map((row) => ({ session: si, row, source: undefined, beforeCommitBoundary: false })));
      return;
    }
    const result = selectPromptWindow({
      rows: s.rows,
      consumed: s.consumed,
      upperTurn: s.upperTurn,
      commit: sig,
      mode: s.mode === 'fallback' ? 'fallback' : 'window',
    });
    markers.push(...result.markers);
    perSession.push(
      result.selected.map((sel) => ({
        session: si,
        row: sel.row,
        source: sel.source,
        beforeCommitBoundary: sel.beforeCommitBoundary,
      })),
    );
  });

  let items = mergeChronologically(perSession);
  if (perSession.filter((l) => l.length > 0).length > 1) items = capRows(items, (it) => it.source === 'primary');

  const interactionKeys = items.map((it) => it.row.key);
  const files = input.attribution.files.map((f) => toNoteFile(f, interactionKeys, input.attribution.interactionKeys));
  const aiFiles = files.filter((f) => f.by_ai).length;
  if ((input.requireAiFileEvidence && aiFiles === 0) || (items.length === 0 && aiFiles === 0)) {
    log?.debug(`note skipped: ${items.length} interactions, ${aiFiles} AI files`);
    return undefined;
  }

  const selections = computeSelections(
    items.map((it) => ({
      prompt: it.row.prompt,
      response: it.row.response,
      source: it.source,
      beforeCommitBoundary: it.beforeCommitBoundary,
    })),
    sig,
  );

  // Contexts need the previous turn of the same session and which turns made it into the note.
  const selectedTurns = input.sessions.map(() => new Set<number>());
  for (const it of items) selectedTurns[it.session].add(it.row.turn);
  const byTurn = input.sessions.map((s) => new Map(s.rows.map((r) => [r.turn, r] as const)));

  let redactions = 0;
  const redact = (text: string): string => {
    if (!input.redact) return text;
    const out = input.redact(text);
    redactions += out.count;
    return out.text;
  };

  const interactions: NoteInteraction[] = items.map((it, i) => {
    const contexts = it.source === undefined ? [] : contextsFor(it, sig, byTurn[it.session], selectedTurns[it.session]);
    return toInteraction(it.row, contexts, selections[i], commitFiles, redact);
  });

  const owner = chooseOwnerSession(input.sessions, items, input.attribution, files);
  const session = input.sessions[owner];
  const note: AgentNoteV1 = {
    v: 1,
    agent: session.agent,
    session_id: session.sessionId,
    timestamp: new Date(input.clock.now()).toISOString(),
    model: resolveSessionModel(session.modelEvents, session.model),
    interactions,
    files,
    attribution: toNoteAttribution(input.attribution.attribution),
  };
  log?.debug(
    `note built: ${interactions.length} interactions from ${input.sessions.length} sessions, ${files.length} files, ${markers.length} markers, ${redactions} redactions`,
  );
  return { note, redactions, interactionKeys, markers };
}

/**
 * The session's model (§1.2): the first session_start event with a model, else the first event
 * with any model, else `fallback`, else null.
 */
export function resolveSessionModel(
  events: ReadonlyArray<{ sessionStart: boolean; model?: string | null }> | undefined,
  fallback?: string | null,
): string | null {
  let any: string | null = null;
  for (const e of events ?? []) {
    if (typeof e.model !== 'string' || !e.model) continue;
    if (e.sessionStart) return e.model;
    any ??= e.model;
  }
  return any ?? (fallback || null);
}

function contextsFor(
  it: Item,
  sig: CommitSignature,
  sessionRows: ReadonlyMap<number, PromptCandidate>,
  selectedTurns: ReadonlySet<number>,
): NoteContext[] {
  const turn = it.row.turn;
  const reference =
    turn > 1
      ? selectReferenceContext(
          {
            prompt: it.row.prompt,
            previousResponse: previousResponse(sessionRows.get(turn - 1)),
            previousTurnSelected: selectedTurns.has(turn - 1),
          },
          sig,
        )
      : undefined;
  const scope = selectScopeContext({ prompt: it.row.prompt, response: it.row.response }, sig);
  return composeContexts([toReferenceContext(reference), scope]);
}

/** Previous turn's response: the window response (hook events in the CLI) first, else the stored one. */
function previousResponse(row: PromptCandidate | undefined): string | null {
  if (!row) return null;
  const first = row.windowResponse !== undefined ? row.windowResponse?.trim() : undefined;
  if (first) return first;
  return row.response?.trim() || null;
}

function toInteraction(
  row: PromptCandidate,
  contexts: NoteContext[],
  selection: NoteSelection | undefined,
  commitFiles: ReadonlySet<string>,
  redact: (text: string) => string,
): NoteInteraction {
  const out: NoteInteraction = {
    prompt: redact(row.prompt),
    response: row.response === null ? null : redact(row.response),
  };
  if (contexts.length > 0) out.contexts = contexts.map((c) => ({ kind: c.kind, source: c.source, text: redact(c.text) }));
  const touched = [...new Set(row.filesTouched.map((f) => f.replaceAll('\\', '/')).filter((f) => commitFiles.has(f)))];
  if (touched.length > 0) out.files_touched = touched;
  if (selection) out.selection = { schema: 1, source: selection.source, signals: [...selection.signals] };
  if (row.tools === null) out.tools = null;
  else if (row.tools && row.tools.length > 0) out.tools = [...new Set(row.tools)];
  return out;
}

function toNoteFile(f: AttributionFileInput, interactionKeys: readonly string[], attributionKeys: readonly string[] | undefined): NoteFile {
  const out: NoteFile = { path: f.path, by_ai: f.by_ai };
  if (f.generated) out.generated = true;
  if (f.ai_ratio_excluded) out.ai_ratio_excluded = true;
  if (f.ai_ranges && f.ai_ranges.length > 0) {
    const mapped = f.ai_ranges.map((r): NoteAiRange => {
      const key = rangeKey(r, attributionKeys);
      const index = key === null ? -1 : interactionKeys.indexOf(key);
      return { start: r.start, end: r.end, interaction: index >= 0 ? index : null };
    });
    out.ai_ranges = mergeAdjacentRanges(mapped);
  }
  return out;
}

/** Ranges sorted by start; touching ranges with the same interaction become one. */
function mergeAdjacentRanges(ranges: NoteAiRange[]): NoteAiRange[] {
  const out: NoteAiRange[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && last.interaction === r.interaction && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ start: r.start, end: r.end, interaction: r.interaction });
  }
  return out;
}

/**
 * Adapts the commit attribution result (src/core/attribution/commitAttribution.ts: files with
 * `byAi`, `generated`, `ignored`, `ranges[{start, end, interactionKey}]`) to {@link AttributionInput}.
 * Typed structurally so the two modules stay independent.
 */
export function attributionInputFrom(result: {
  files: ReadonlyArray<{
    path: string;
    byAi: boolean;
    generated: boolean;
    ignored: boolean;
    ranges: ReadonlyArray<{ start: number; end: number; interactionKey: string | null }>;
  }>;
  attribution: AttributionInput['attribution'];
}): AttributionInput {
  return {
    files: result.files.map((f) => ({
      path: f.path,
      by_ai: f.byAi,
      generated: f.generated,
      ai_ratio_excluded: f.ignored,
      ai_ranges: f.ranges.map((r) => ({ start: r.start, end: r.end, interactionKey: r.interactionKey })),
    })),
    attribution: result.attribution,
  };
}

function rangeKey(r: AttributionRangeInput, attributionKeys: readonly string[] | undefined): string | null {
  if (typeof r.interactionKey === 'string') return r.interactionKey;
  if (typeof r.interaction === 'number') return attributionKeys?.[r.interaction] ?? null;
  return null;
}

function toNoteAttribution(a: AttributionInput['attribution']): NoteAttribution {
  const out: NoteAttribution = { ai_ratio: a.ai_ratio, method: a.method };
  if (a.lines) out.lines = { ai_added: a.lines.ai_added, total_added: a.lines.total_added, deleted: a.lines.deleted };
  return out;
}

/**
 * Merge per-session lists by prompt time. Each list keeps its order; a row without a parseable
 * timestamp inherits the previous row's time (−∞ for the first); ties go to the earlier session.
 */
function mergeChronologically(lists: readonly Item[][]): Item[] {
  const times = lists.map((list) => {
    let last = Number.NEGATIVE_INFINITY;
    return list.map((it) => {
      const t = it.row.timestamp ? Date.parse(it.row.timestamp) : Number.NaN;
      if (!Number.isNaN(t)) last = t;
      return last;
    });
  });
  const heads = lists.map(() => 0);
  const out: Item[] = [];
  for (;;) {
    let pick = -1;
    for (let l = 0; l < lists.length; l++) {
      if (heads[l] >= lists[l].length) continue;
      if (pick < 0 || times[l][heads[l]] < times[pick][heads[pick]]) pick = l;
    }
    if (pick < 0) return out;
    out.push(lists[pick][heads[pick]]);
    heads[pick] += 1;
  }
}

/** Index of the session that owns the note (see {@link buildNote}). */
function chooseOwnerSession(
  sessions: readonly SessionPrompts[],
  items: readonly Item[],
  attribution: AttributionInput,
  files: readonly NoteFile[],
): number {
  if (sessions.length <= 1) return 0;
  const sessionOfKey = new Map<string, number>();
  sessions.forEach((s, si) => s.rows.forEach((r) => sessionOfKey.set(r.key, si)));

  const weight = sessions.map(() => 0);
  let anyLines = false;
  for (const f of attribution.files) {
    for (const r of f.ai_ranges ?? []) {
      const key = rangeKey(r, attribution.interactionKeys);
      const si = key === null ? undefined : sessionOfKey.get(key);
      if (si === undefined) continue;
      weight[si] += Math.max(0, r.end - r.start + 1);
      anyLines = true;
    }
  }
  if (!anyLines) {
    const aiFiles = new Set(files.filter((f) => f.by_ai).map((f) => f.path));
    sessions.forEach((s, si) => {
      const touched = new Set(s.rows.filter((r) => r.isPrimary).flatMap((r) => r.filesTouched));
      weight[si] = [...touched].filter((f) => aiFiles.has(f)).length;
    });
  }

  // Latest interaction position of each session (−1 when it has none).
  const last = sessions.map(() => -1);
  items.forEach((it, i) => (last[it.session] = i));

  const agentWeight = new Map<string, number>();
  const agentLast = new Map<string, number>();
  sessions.forEach((s, si) => {
    agentWeight.set(s.agent, (agentWeight.get(s.agent) ?? 0) + weight[si]);
    agentLast.set(s.agent, Math.max(agentLast.get(s.agent) ?? -1, last[si]));
  });
  const agent = pickBest(
    [...agentWeight.keys()],
    (a) => agentWeight.get(a) ?? 0,
    (a) => agentLast.get(a) ?? -1,
  );
  const candidates = sessions.map((_, si) => si).filter((si) => sessions[si].agent === agent);
  return pickBest(
    candidates,
    (si) => weight[si],
    (si) => last[si],
  );
}

/** Highest weight; ties → highest `recency`; remaining ties → first in order. */
function pickBest<T>(candidates: readonly T[], weight: (c: T) => number, recency: (c: T) => number): T {
  let best = candidates[0];
  for (const c of candidates.slice(1)) {
    const dw = weight(c) - weight(best);
    if (dw > 0 || (dw === 0 && recency(c) > recency(best))) best = c;
  }
  return best;
}
