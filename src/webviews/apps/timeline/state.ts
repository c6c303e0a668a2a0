/**
 * Pure state logic of the Timeline app: filtering, the row view model, the UI-state reducer and
 * the keyboard mapping. No DOM here, so Node unit tests cover it (docs/webviews.md §10).
 */
import type {
  TimelineCommitEntry,
  TimelineEditEntry,
  TimelineEntry,
  TimelineFilters,
  TimelineFocus,
  TimelinePromptEntry,
  TimelineSession,
  TimelineState,
  TimelineUiState,
} from '../../timeline/protocol';

export type TimelineRow =
  | { kind: 'session'; id: string; time: string; agent: string; session: TimelineSession }
  | { kind: 'prompt'; id: string; time: string; agent: string | null; entry: TimelinePromptEntry; session?: TimelineSession }
  | { kind: 'edit'; id: string; time: string; agent: string | null; entry: TimelineEditEntry; session?: TimelineSession }
  | { kind: 'commit'; id: string; time: string; agent: string | null; entry: TimelineCommitEntry };

export interface TimelineView {
  /** Visible rows, newest first. */
  rows: TimelineRow[];
  /** The row holding the roving tabindex: the persisted selection if visible, else the first row. */
  selectedId: string | null;
  /** Agents offered as filter chips, in canonical order. */
  agents: string[];
  /** Display names of the agents by id (from the state; an id without one is shown as it is). */
  agentNames: Record<string, string>;
  /** Sessions offered in the session select, most recently active first. */
  sessions: TimelineSession[];
  /** Files offered in the file select, sorted. */
  files: string[];
  /** `none`: no data at all; `noMatches`: filters hide everything. */
  empty: 'none' | 'noMatches' | null;
  filtersActive: boolean;
}

/** Prefix of the synthetic row id of a session header. */
export const sessionRowPrefix = 'session:';

/** No filters, nothing selected or expanded, scrolled to the top. */
export function defaultTimelineUiState(): TimelineUiState {
  return { v: 1, filters: { agents: [], sessionKey: null, file: null, text: '' }, selectedId: null, expanded: [], scrollTop: 0 };
}

const maxPersistedStrings = 500;

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * Validate what `getState()` returned (it may come from an older version of the app or be
 * corrupt): anything unusable falls back to the default, field by field.
 */
export function parseTimelineUiState(value: unknown): TimelineUiState {
  const ui = defaultTimelineUiState();
  if (typeof value !== 'object' || value === null || (value as { v?: unknown }).v !== 1) return ui;
  const v = value as Record<string, unknown>;
  const f = (typeof v.filters === 'object' && v.filters !== null ? v.filters : {}) as Record<string, unknown>;
  if (isStringArray(f.agents)) ui.filters.agents = [...new Set(f.agents)].slice(0, 50);
  if (typeof f.sessionKey === 'string') ui.filters.sessionKey = f.sessionKey;
  if (typeof f.file === 'string') ui.filters.file = f.file;
  if (typeof f.text === 'string') ui.filters.text = f.text.slice(0, 1000);
  if (typeof v.selectedId === 'string') ui.selectedId = v.selectedId;
  if (isStringArray(v.expanded)) ui.expanded = v.expanded.slice(-maxPersistedStrings);
  if (typeof v.scrollTop === 'number' && Number.isFinite(v.scrollTop) && v.scrollTop >= 0) ui.scrollTop = v.scrollTop;
  return ui;
}

/** True when any filter narrows the list (blank text does not). */
export function hasActiveFilters(filters: TimelineFilters): boolean {
  return filters.agents.length > 0 || filters.sessionKey !== null || filters.file !== null || filters.text.trim() !== '';
}

function timeValue(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

const kindRank: Record<TimelineRow['kind'], number> = { commit: 0, edit: 1, prompt: 2, session: 3 };

/** Newest first; at equal times a commit sorts above the edits and prompt that led to it. */
export function compareRows(a: TimelineRow, b: TimelineRow): number {
  return (
    timeValue(b.time) - timeValue(a.time) ||
    kindRank[a.kind] - kindRank[b.kind] ||
    (a.kind === 'prompt' && b.kind === 'prompt' ? b.entry.turn - a.entry.turn : 0) ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

/** The chips' order: the state's known agents (the registry's order), then the others alphabetically. */
function agentOrder(agents: Iterable<string>, known: readonly string[]): string[] {
  const set = new Set(agents);
  const first = known.filter((a) => set.has(a));
  const others = [...set].filter((a) => !known.includes(a)).sort();
  return [...first, ...others];
}

function includesText(haystack: string | null | undefined, needle: string): boolean {
  return !!haystack && haystack.toLowerCase().includes(needle);
}

/** Build the visible rows and the filter options from a snapshot and the UI state. */
export function buildTimelineView(state: TimelineState, ui: TimelineUiState): TimelineView {
  const sessionsByKey = new Map(state.sessions.map((s) => [s.key, s]));
  const { agents, sessionKey, file } = ui.filters;
  const text = ui.filters.text.trim().toLowerCase();
  const agentSet = new Set(agents);

  // Files touched per (session, turn), so the file filter can keep the prompts behind an edit.
  const turnFiles = new Map<string, Set<string>>();
  for (const e of state.entries) {
    if (e.kind === 'edit' && e.sessionKey !== null && e.turn !== null) {
      const k = `${e.sessionKey}\u0000${e.turn}`;
      let set = turnFiles.get(k);
      if (!set) turnFiles.set(k, (set = new Set()));
      set.add(e.file);
    }
  }

  const entryAgent = (e: TimelineEntry): string | null => {
    if (e.kind === 'commit') return e.agent;
    return e.sessionKey !== null ? (sessionsByKey.get(e.sessionKey)?.agent ?? null) : null;
  };
  const entrySession = (e: TimelineEntry): string | null | undefined => (e.kind === 'commit' ? (e.sessionKey ?? null) : e.sessionKey);

  const passes = (e: TimelineEntry): boolean => {
    if (agentSet.size > 0) {
      const a = entryAgent(e);
      if (a === null || !agentSet.has(a)) return false;
    }
    if (sessionKey !== null && entrySession(e) !== sessionKey) return false;
    if (file !== null) {
      if (e.kind === 'edit' && e.file !== file) return false;
      if (e.kind === 'commit' && !(e.files ?? []).includes(file)) return false;
      if (e.kind === 'prompt' && !turnFiles.get(`${e.sessionKey}\u0000${e.turn}`)?.has(file)) return false;
    }
    if (text) {
      if (e.kind === 'prompt' && !includesText(e.text, text) && !includesText(e.response, text)) return false;
      if (e.kind === 'edit' && !includesText(e.file, text)) return false;
      if (e.kind === 'commit' && !includesText(e.subject, text) && !e.sha.toLowerCase().startsWith(text)) return false;
    }
    return true;
  };

  const rows: TimelineRow[] = [];
  const sessionsWithRows = new Set<string>();
  for (const e of state.entries) {
    if (!passes(e)) continue;
    const sk = entrySession(e);
    if (sk) sessionsWithRows.add(sk);
    if (e.kind === 'commit') rows.push({ kind: 'commit', id: e.id, time: e.time, agent: e.agent, entry: e });
    else {
      const session = e.sessionKey !== null ? sessionsByKey.get(e.sessionKey) : undefined;
      const agent = session?.agent ?? null;
      if (e.kind === 'prompt') rows.push({ kind: 'prompt', id: e.id, time: e.time, agent, entry: e, session });
      else rows.push({ kind: 'edit', id: e.id, time: e.time, agent, entry: e, session });
    }
  }
  const narrowing = file !== null || text !== '';
  for (const s of state.sessions) {
    if (agentSet.size > 0 && !agentSet.has(s.agent)) continue;
    if (sessionKey !== null && s.key !== sessionKey) continue;
    if (narrowing && !sessionsWithRows.has(s.key)) {
      const matches =
        text !== '' && file === null && (includesText(s.model, text) || includesText(s.sessionId, text) || includesText(s.agent, text));
      if (!matches) continue;
    }
    rows.push({ kind: 'session', id: sessionRowPrefix + s.key, time: s.startedAt, agent: s.agent, session: s });
  }
  rows.sort(compareRows);

  const files = new Set<string>();
  for (const e of state.entries) {
    if (e.kind === 'edit') files.add(e.file);
    else if (e.kind === 'commit') for (const f of e.files ?? []) files.add(f);
  }
  const allAgents = new Set<string>(state.sessions.map((s) => s.agent));
  for (const e of state.entries) if (e.kind === 'commit' && e.agent) allAgents.add(e.agent);
  for (const a of agents) allAgents.add(a); // keep a persisted chip visible even if its data is gone

  const selectedId = ui.selectedId !== null && rows.some((r) => r.id === ui.selectedId) ? ui.selectedId : (rows[0]?.id ?? null);
  const filtersActive = hasActiveFilters(ui.filters);
  const empty = state.sessions.length === 0 && state.entries.length === 0 ? 'none' : rows.length === 0 ? 'noMatches' : null;
  return {
    rows,
    selectedId,
    agents: agentOrder(
      allAgents,
      (state.agents ?? []).map((a) => a.id),
    ),
    agentNames: Object.fromEntries((state.agents ?? []).map((a) => [a.id, a.name])),
    sessions: [...state.sessions].sort((a, b) => timeValue(b.lastActivityAt) - timeValue(a.lastActivityAt) || (a.key < b.key ? -1 : 1)),
    files: [...files].sort(),
    empty,
    filtersActive,
  };
}

export type TimelineUiAction =
  | { type: 'move'; to: 'next' | 'prev' | 'first' | 'last' | 'pageNext' | 'pagePrev' }
  | { type: 'select'; id: string }
  | { type: 'toggleAgent'; agent: string }
  | { type: 'setSession'; sessionKey: string | null }
  | { type: 'setFile'; file: string | null }
  | { type: 'setText'; text: string }
  | { type: 'clearFilters' }
  | { type: 'toggleExpanded'; id: string }
  | { type: 'setExpanded'; id: string; expanded: boolean }
  | { type: 'setScroll'; top: number };

const pageSize = 10;

/** The UI-state reducer. `view` is the view built from the current UI state (for moves). */
export function reduceTimelineUi(
  ui: TimelineUiState,
  action: TimelineUiAction,
  view: Pick<TimelineView, 'rows' | 'selectedId'>,
): TimelineUiState {
  switch (action.type) {
    case 'move': {
      const n = view.rows.length;
      if (n === 0) return ui;
      const i = Math.max(
        0,
        view.rows.findIndex((r) => r.id === view.selectedId),
      );
      const to = {
        next: Math.min(n - 1, i + 1),
        prev: Math.max(0, i - 1),
        first: 0,
        last: n - 1,
        pageNext: Math.min(n - 1, i + pageSize),
        pagePrev: Math.max(0, i - pageSize),
      }[action.to];
      return { ...ui, selectedId: view.rows[to].id };
    }
    case 'select':
      return { ...ui, selectedId: action.id };
    case 'toggleAgent': {
      const has = ui.filters.agents.includes(action.agent);
      const next = has ? ui.filters.agents.filter((a) => a !== action.agent) : [...ui.filters.agents, action.agent];
      return { ...ui, filters: { ...ui.filters, agents: next } };
    }
    case 'setSession':
      return { ...ui, filters: { ...ui.filters, sessionKey: action.sessionKey } };
    case 'setFile':
      return { ...ui, filters: { ...ui.filters, file: action.file } };
    case 'setText':
      return { ...ui, filters: { ...ui.filters, text: action.text } };
    case 'clearFilters':
      return { ...ui, filters: { agents: [], sessionKey: null, file: null, text: '' } };
    case 'toggleExpanded':
      return reduceTimelineUi(ui, { type: 'setExpanded', id: action.id, expanded: !ui.expanded.includes(action.id) }, view);
    case 'setExpanded': {
      const has = ui.expanded.includes(action.id);
      if (has === action.expanded) return ui;
      const expanded = action.expanded
        ? [...ui.expanded, action.id].slice(-maxPersistedStrings)
        : ui.expanded.filter((id) => id !== action.id);
      return { ...ui, expanded };
    }
    case 'setScroll':
      return ui.scrollTop === action.top ? ui : { ...ui, scrollTop: Math.max(0, action.top) };
  }
}

/** Apply an "Open in Timeline" focus: filter to the session and/or select the commit. */
export function applyTimelineFocus(ui: TimelineUiState, focus: TimelineFocus | undefined, state: TimelineState): TimelineUiState {
  if (!focus) return ui;
  let next = ui;
  if (focus.sessionKey && state.sessions.some((s) => s.key === focus.sessionKey)) {
    next = {
      ...next,
      filters: { agents: [], sessionKey: focus.sessionKey, file: null, text: '' },
      selectedId: sessionRowPrefix + focus.sessionKey,
    };
  }
  if (focus.sha) {
    const sha = focus.sha.toLowerCase();
    const commit = state.entries.find(
      (e): e is TimelineCommitEntry =>
        e.kind === 'commit' && (e.sha.toLowerCase() === sha || (sha.length >= 7 && e.sha.toLowerCase().startsWith(sha))),
    );
    if (commit) {
      const view = buildTimelineView(state, { ...next, selectedId: commit.id });
      // The commit may be hidden by the current filters: reveal it rather than select nothing.
      if (view.selectedId !== commit.id) next = { ...next, filters: { agents: [], sessionKey: null, file: null, text: '' } };
      next = { ...next, selectedId: commit.id };
    }
  }
  return next;
}

/** What a key press means, before it touches the state. */
export type TimelineIntent =
  | { type: 'move'; to: 'next' | 'prev' | 'first' | 'last' | 'pageNext' | 'pagePrev' }
  | { type: 'activate' }
  | { type: 'expand' }
  | { type: 'collapse' }
  | { type: 'focusFilter' }
  | { type: 'focusList' }
  | { type: 'escape' };

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
}

/**
 * Map a key press to an intent. `where`: `list` = a timeline row has focus, `filter` = the text
 * box, `other` = anything else in the app (chips, selects, buttons).
 */
export function keyToIntent(ev: KeyLike, where: 'list' | 'filter' | 'other'): TimelineIntent | undefined {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return undefined;
  if (where === 'filter') {
    if (ev.key === 'Escape') return { type: 'escape' };
    if (ev.key === 'ArrowDown' || ev.key === 'Enter') return { type: 'focusList' };
    return undefined;
  }
  if (ev.key === '/') return { type: 'focusFilter' };
  if (where === 'other') return ev.key === 'Escape' ? { type: 'escape' } : undefined;
  switch (ev.key) {
    case 'ArrowDown':
      return { type: 'move', to: 'next' };
    case 'ArrowUp':
      return { type: 'move', to: 'prev' };
    case 'Home':
      return { type: 'move', to: 'first' };
    case 'End':
      return { type: 'move', to: 'last' };
    case 'PageDown':
      return { type: 'move', to: 'pageNext' };
    case 'PageUp':
      return { type: 'move', to: 'pagePrev' };
    case 'Enter':
    case ' ':
      return { type: 'activate' };
    case 'ArrowRight':
      return { type: 'expand' };
    case 'ArrowLeft':
      return { type: 'collapse' };
    case 'Escape':
      return { type: 'escape' };
    default:
      return undefined;
  }
}

/** A command the app sends to the host. */
export type TimelineHostCommand =
  | { type: 'openEditDiff'; editId: string }
  | { type: 'openNote'; sha: string }
  | { type: 'openFile'; file: string };

export interface TimelineOutcome {
  ui: TimelineUiState;
  command?: TimelineHostCommand;
  /** Move keyboard focus: to the filter box or to the selected row. */
  focus?: 'filter' | 'list';
}

/** Activating a row: prompt → expand/collapse, edit → diff (or file), commit → note, session → filter. */
export function activateRow(ui: TimelineUiState, row: TimelineRow): TimelineOutcome {
  const selected = { ...ui, selectedId: row.id };
  switch (row.kind) {
    case 'prompt':
      return { ui: reduceTimelineUi(selected, { type: 'toggleExpanded', id: row.id }, { rows: [], selectedId: null }) };
    case 'edit':
      return {
        ui: selected,
        command: row.entry.hasBlobs ? { type: 'openEditDiff', editId: row.entry.id } : { type: 'openFile', file: row.entry.file },
      };
    case 'commit':
      return { ui: selected, command: { type: 'openNote', sha: row.entry.sha } };
    case 'session': {
      const key = ui.filters.sessionKey === row.session.key ? null : row.session.key;
      return { ui: { ...selected, filters: { ...ui.filters, sessionKey: key } } };
    }
  }
}

/** Apply an intent to the UI state; returns the new state plus any host command or focus move. */
export function applyIntent(
  ui: TimelineUiState,
  intent: TimelineIntent,
  view: TimelineView,
  where: 'list' | 'filter' | 'other',
): TimelineOutcome {
  const row = view.rows.find((r) => r.id === view.selectedId);
  switch (intent.type) {
    case 'move':
      return { ui: reduceTimelineUi(ui, intent, view), focus: 'list' };
    case 'activate':
      return row ? activateRow(ui, row) : { ui };
    case 'expand':
    case 'collapse':
      if (row?.kind !== 'prompt') return { ui };
      return { ui: reduceTimelineUi(ui, { type: 'setExpanded', id: row.id, expanded: intent.type === 'expand' }, view) };
    case 'focusFilter':
      return { ui, focus: 'filter' };
    case 'focusList':
      return { ui, focus: 'list' };
    case 'escape': {
      if (where === 'filter') {
        if (ui.filters.text !== '') return { ui: reduceTimelineUi(ui, { type: 'setText', text: '' }, view) };
        return { ui, focus: 'list' };
      }
      if (hasActiveFilters(ui.filters))
        return { ui: reduceTimelineUi(ui, { type: 'clearFilters' }, view), focus: where === 'list' ? 'list' : undefined };
      if (row?.kind === 'prompt' && ui.expanded.includes(row.id)) {
        return { ui: reduceTimelineUi(ui, { type: 'setExpanded', id: row.id, expanded: false }, view) };
      }
      return { ui };
    }
  }
}

/** Keep persisted expansion ids bounded to what still exists (called when a snapshot arrives). */
export function pruneUiState(ui: TimelineUiState, state: TimelineState): TimelineUiState {
  const ids = new Set(state.entries.map((e) => e.id));
  const expanded = ui.expanded.filter((id) => ids.has(id));
  return expanded.length === ui.expanded.length ? ui : { ...ui, expanded };
}
