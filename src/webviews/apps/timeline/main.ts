/**
 * Timeline app entry: DOM wiring only. Two views of one snapshot: the time axis (Timeline v2:
 * model in src/core/timeline, math in axis.ts, DOM in laneView.ts, HTML in axisRender.ts, UI
 * logic in axisState.ts) and the flat list (state.ts, render.ts).
 */
import '../shared/codicons.css';
import './timeline.css';
import './axis.css';
import {
  DidChangeStateNotification,
  DidRequestFocusNotification,
  FilterChangedCommand,
  OpenEditDiffCommand,
  OpenFileCommand,
  OpenNoteCommand,
  ReadyRequest,
  RevealEditCommand,
  timelineDefaultStrings,
  type TimelineFocus,
  type TimelineState,
  type TimelineUiState,
} from '../../timeline/protocol';
import { createHostChannel } from '../shared/host';
import { buildTimelineModel, filterTimelineModel, timelineFilterOptions, type TimelineModel } from '../../../core/timeline/timelineModel';
import { ensureVisible, fitViewport, panBy, zoomAt, type TickUnit, type Viewport } from './axis';
import { axisKeyToIntent, axisModelFilters, focusMark, moveFocus, parseAxisUi } from './axisState';
import { laneLabel, markAriaLabel, renderAxisToolbar, renderDetails, renderViewSwitch } from './axisRender';
import { LaneView } from './laneView';
import { formatTemplate } from '../shared/html';
import { localTimeFormat } from '../shared/time';
import { renderList, renderLoading, renderToolbar } from './render';
import {
  applyIntent,
  applyTimelineFocus,
  buildTimelineView,
  hasActiveFilters,
  keyToIntent,
  parseTimelineUiState,
  pruneUiState,
  reduceTimelineUi,
  activateRow,
  type TimelineOutcome,
  type TimelineUiAction,
  type TimelineView,
} from './state';

const host = createHostChannel();
const fmt = localTimeFormat(document.documentElement.lang || navigator.language);
const emptyState: TimelineState = { sessions: [], entries: [], strings: {} };

const persisted = host.getState() as { axis?: unknown } | undefined;
let ui: TimelineUiState = { ...parseTimelineUiState(persisted), axis: parseAxisUi(persisted?.axis) };
let state: TimelineState | undefined;
let view: TimelineView = buildTimelineView(emptyState, ui);
let scrollRestored = false;
let filterTimer: ReturnType<typeof setTimeout> | undefined;

const app = document.getElementById('app') ?? document.body;
app.innerHTML =
  '<div id="view-switch" class="view-switch"></div><div id="toolbar" class="toolbar"></div>' +
  '<div id="axis-view" class="axis-view"><p id="axis-status" class="axis-status muted" role="status"></p><div id="lanes-host" class="lanes-host"></div>' +
  '<section id="details" class="details-pane" aria-live="polite"></section></div>' +
  '<div id="list-container" class="list-container"></div>';
const switchEl = document.getElementById('view-switch') as HTMLElement;
const toolbarEl = document.getElementById('toolbar') as HTMLElement;
const axisEl = document.getElementById('axis-view') as HTMLElement;
const axisStatusEl = document.getElementById('axis-status') as HTMLElement;
const detailsEl = document.getElementById('details') as HTMLElement;
const listEl = document.getElementById('list-container') as HTMLElement;
const strings = () => state?.strings ?? {};
const axisUi = () => ui.axis ?? parseAxisUi(undefined);
const isAxis = () => axisUi().view === 'axis';
const agentNames = () => Object.fromEntries((state?.agents ?? []).map((a) => [a.id, a.name]));
const str = (key: keyof typeof timelineDefaultStrings, ...args: (string | number)[]) =>
  formatTemplate(strings()[key] || timelineDefaultStrings[key], ...args);

// ---- Timeline v2: the time axis ----
let fullModel: TimelineModel = buildTimelineModel({ sessions: [], entries: [] });
let model: TimelineModel = fullModel;
const tickFormats = {
  second: new Intl.DateTimeFormat(document.documentElement.lang || navigator.language, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }),
  minute: new Intl.DateTimeFormat(document.documentElement.lang || navigator.language, { hour: '2-digit', minute: '2-digit' }),
  day: new Intl.DateTimeFormat(document.documentElement.lang || navigator.language, { weekday: 'short', month: 'short', day: 'numeric' }),
  month: new Intl.DateTimeFormat(document.documentElement.lang || navigator.language, { year: 'numeric', month: 'short' }),
  year: new Intl.DateTimeFormat(document.documentElement.lang || navigator.language, { year: 'numeric' }),
};
function tickLabel(t: number, unit: TickUnit): string {
  const f = unit === 'hour' ? tickFormats.minute : tickFormats[unit];
  return f.format(t);
}
const lanes = new LaneView(document.getElementById('lanes-host') as HTMLElement, timelineDefaultStrings.lanesLabel, {
  laneLabel: (lane) => laneLabel(lane, agentNames(), strings()),
  markLabel: (m) => markAriaLabel(m, strings(), fmt),
  mergedLabel: (n) => str('merged', n),
  tickLabel,
  onFocus: (id) => setAxis({ focusId: id }, { focus: true }),
  onSelect: (id) => setAxis({ focusId: id, selectedId: id }, { focus: true }),
  onKey: onAxisKey,
  onViewport: (vp) => setAxis({ window: { start: vp.start, end: vp.end } }),
});

function viewport(): Viewport {
  const w = axisUi().window;
  const width = lanes.trackWidth();
  return w ? { start: w.start, end: w.end, width } : fitViewport(model.start, model.end, width);
}

function rebuildAxisModel(): void {
  model = filterTimelineModel(fullModel, axisModelFilters(ui.filters, axisUi()), state?.branch);
}

function setAxis(patch: Partial<NonNullable<TimelineUiState['axis']>>, opts: { focus?: boolean; filters?: boolean } = {}): void {
  ui = { ...ui, axis: { ...axisUi(), ...patch } };
  persist();
  if (opts.filters) rebuildAxisModel();
  renderAxis({ toolbar: opts.filters, focus: opts.focus });
}

function renderAxis(opts: { toolbar?: boolean; focus?: boolean } = {}): void {
  const a = axisUi();
  if (opts.toolbar) renderAxisToolbarPreservingFocus();
  axisEl.hidden = false;
  const focusId = focusMark(model, a.focusId);
  lanes.setAriaLabel(str('lanesLabel'));
  lanes.setModel(model);
  lanes.update(viewport(), a.selectedId, focusId);
  if (opts.focus) lanes.focusActive();
  const total = state ? state.sessions.length + state.entries.length : 0;
  axisStatusEl.textContent = !state
    ? str('loading')
    : total === 0
      ? str('empty')
      : model.marks.length === 0
        ? str('noMatches')
        : str('markCount', model.marks.length, model.lanes.length);
  // a pan or zoom leaves the selection as it is: the details are rendered again only when it changes
  if (detailsFor.model !== model || detailsFor.id !== a.selectedId || detailsFor.strings !== strings()) {
    detailsFor = { model, id: a.selectedId, strings: strings() };
    detailsEl.innerHTML = renderDetails(model, a.selectedId, agentNames(), strings(), fmt);
  }
}
let detailsFor: { model?: TimelineModel; id?: string | null; strings?: Record<string, string> } = {};

function renderAxisToolbarPreservingFocus(): void {
  const active = document.activeElement as HTMLElement | null;
  const key = active && toolbarEl.contains(active) ? active.id || active.dataset.agent || active.dataset.zoom || '' : '';
  toolbarEl.innerHTML = renderAxisToolbar(timelineFilterOptions(fullModel), ui, axisUi(), agentNames(), strings());
  if (!key) return;
  const target =
    document.getElementById(key) ??
    [...toolbarEl.querySelectorAll<HTMLElement>('[data-agent],[data-zoom]')].find(
      (el) => el.dataset.agent === key || el.dataset.zoom === key,
    );
  target?.focus();
}

function selectedMark(fallbackId: string) {
  const id = axisUi().selectedId ?? fallbackId;
  const i = model.byId.get(id);
  return i === undefined ? undefined : model.marks[i];
}

function runMarkAction(action: 'showNote' | 'openDiff' | 'revealLine', id: string): void {
  const m = selectedMark(id);
  if (!m) return;
  const e = m.entry;
  if (action === 'showNote') {
    const c =
      e?.kind === 'commit' ? e : m.commits.map((x) => model.marks[model.byId.get(x) ?? -1]?.entry).find((x) => x?.kind === 'commit');
    if (c?.kind === 'commit' && c.noted) host.sendCommand(OpenNoteCommand, { sha: c.sha });
  } else if (e?.kind === 'edit') {
    if (action === 'openDiff' && e.hasBlobs) host.sendCommand(OpenEditDiffCommand, { editId: e.id });
    else if (action === 'revealLine') host.sendCommand(RevealEditCommand, { editId: e.id });
  }
}

function onAxisKey(ev: KeyboardEvent, id: string): void {
  const intent = axisKeyToIntent(ev);
  if (!intent) return;
  ev.preventDefault();
  const vp = viewport();
  switch (intent.type) {
    case 'move': {
      const next = moveFocus(model, id, intent.to);
      if (next === null) return;
      const m = model.marks[model.byId.get(next) as number];
      const shown = ensureVisible(vp, m.t);
      lanes.revealLane(m.lane);
      return setAxis({ focusId: next, window: { start: shown.start, end: shown.end } }, { focus: true });
    }
    case 'select':
      return setAxis({ focusId: id, selectedId: id }, { focus: true });
    case 'zoom': {
      const m = model.marks[model.byId.get(id) ?? -1];
      const x = m ? Math.max(0, Math.min(vp.width, ((m.t - vp.start) / (vp.end - vp.start)) * vp.width)) : vp.width / 2;
      const z = zoomAt(vp, intent.factor, x);
      return setAxis({ window: { start: z.start, end: z.end } }, { focus: true });
    }
    case 'fit':
      return setAxis({ window: null }, { focus: true });
    case 'pan': {
      const p = panBy(vp, intent.dir * vp.width * 0.2);
      return setAxis({ window: { start: p.start, end: p.end } }, { focus: true });
    }
    case 'showNote':
    case 'openDiff':
    case 'revealLine':
      return runMarkAction(intent.type, id);
    case 'escape':
      if (axisUi().selectedId !== null) setAxis({ selectedId: null }, { focus: true });
      return;
  }
}

toolbarEl.addEventListener('click', (ev) => {
  if (!isAxis()) return;
  const target = ev.target as HTMLElement;
  const chip = target.closest<HTMLElement>('[data-agent]');
  const zoom = target.closest<HTMLElement>('[data-zoom]')?.dataset.zoom;
  if (chip?.dataset.agent) {
    ui = reduceTimelineUi(ui, { type: 'toggleAgent', agent: chip.dataset.agent }, view);
    setAxis({}, { filters: true });
  } else if (zoom === 'fit') setAxis({ window: null });
  else if (zoom) {
    const z = zoomAt(viewport(), zoom === 'in' ? 1.5 : 1 / 1.5);
    setAxis({ window: { start: z.start, end: z.end } });
  } else if (target.closest('#axis-clear')) {
    ui = reduceTimelineUi(ui, { type: 'clearFilters' }, view);
    setAxis({ branch: null, from: null, to: null, window: null }, { filters: true });
  }
});
toolbarEl.addEventListener('change', (ev) => {
  if (!isAxis()) return;
  const target = ev.target as HTMLInputElement;
  const value = target.value || null;
  if (target.id === 'axis-file-filter') {
    ui = reduceTimelineUi(ui, { type: 'setFile', file: value }, view);
    setAxis({ window: null }, { filters: true });
  } else if (target.id === 'axis-branch-filter') setAxis({ branch: value, window: null }, { filters: true });
  else if (target.id === 'axis-from') setAxis({ from: value, window: null }, { filters: true });
  else if (target.id === 'axis-to') setAxis({ to: value, window: null }, { filters: true });
});
switchEl.addEventListener('click', (ev) => {
  const v = (ev.target as HTMLElement).closest<HTMLElement>('[data-view]')?.dataset.view;
  if (v !== 'axis' && v !== 'list') return;
  ui = { ...ui, axis: { ...axisUi(), view: v } };
  persist();
  render();
});
detailsEl.addEventListener('click', (ev) => {
  const target = ev.target as HTMLElement;
  const action = target.closest<HTMLElement>('[data-action]')?.dataset.action;
  const select = target.closest<HTMLElement>('[data-select]')?.dataset.select;
  const file = target.closest<HTMLElement>('[data-open-file]')?.dataset.openFile;
  const sel = axisUi().selectedId;
  if ((action === 'showNote' || action === 'openDiff' || action === 'revealLine') && sel) runMarkAction(action, sel);
  else if (select) {
    const m = model.marks[model.byId.get(select) ?? -1];
    if (!m) return;
    const shown = ensureVisible(viewport(), m.t);
    lanes.revealLane(m.lane);
    setAxis({ selectedId: select, focusId: select, window: { start: shown.start, end: shown.end } }, { focus: true });
  } else if (file) host.sendCommand(OpenFileCommand, { file });
});
let resizeFrame = 0;
window.addEventListener('resize', () => {
  if (resizeFrame || !isAxis()) return;
  resizeFrame = requestAnimationFrame(() => {
    resizeFrame = 0;
    renderAxis();
  });
});

function persist(): void {
  host.setState(ui);
}

function applyRatioWidths(root: HTMLElement): void {
  // CSSOM writes are allowed under the CSP; inline style attributes are not.
  for (const el of root.querySelectorAll<HTMLElement>('[data-ratio]')) el.style.width = `${el.dataset.ratio ?? 0}%`;
}

function selectedRowEl(): HTMLElement | null {
  return listEl.querySelector<HTMLElement>('[role="option"][tabindex="0"]');
}

function renderToolbarPreservingFocus(): void {
  const active = document.activeElement as HTMLElement | null;
  const focusId = active && toolbarEl.contains(active) ? active.id || (active.dataset.agent ? `agent:${active.dataset.agent}` : '') : '';
  const input = active instanceof HTMLInputElement ? active : undefined;
  const sel = input ? [input.selectionStart, input.selectionEnd] : undefined;
  toolbarEl.innerHTML = renderToolbar(view, ui, strings(), fmt);
  if (!focusId) return;
  const target = focusId.startsWith('agent:')
    ? [...toolbarEl.querySelectorAll<HTMLElement>('[data-agent]')].find((el) => el.dataset.agent === focusId.slice(6))
    : document.getElementById(focusId);
  target?.focus();
  if (target instanceof HTMLInputElement && sel) target.setSelectionRange(sel[0], sel[1]);
}

function render(opts: { toolbar?: boolean; focusList?: boolean } = {}): void {
  view = buildTimelineView(state ?? emptyState, ui);
  switchEl.innerHTML = renderViewSwitch(axisUi(), strings());
  if (isAxis()) {
    listEl.hidden = true;
    listEl.innerHTML = '';
    rebuildAxisModel();
    renderAxis({ toolbar: true });
    return;
  }
  axisEl.hidden = true;
  listEl.hidden = false;
  const listHadFocus = listEl.contains(document.activeElement);
  if (opts.toolbar !== false) renderToolbarPreservingFocus();
  else toolbarEl.querySelector('#clear-filters')?.toggleAttribute('hidden', !hasActiveFilters(ui.filters));
  listEl.innerHTML = state ? renderList(view, ui, strings(), fmt) : renderLoading(strings());
  applyRatioWidths(listEl);
  if (state && !scrollRestored) {
    scrollRestored = true;
    document.scrollingElement?.scrollTo({ top: ui.scrollTop });
  }
  if (opts.focusList || listHadFocus) {
    const row = selectedRowEl();
    row?.focus({ preventScroll: true });
    row?.scrollIntoView({ block: 'nearest' });
  }
}

function scheduleFilterLog(before: TimelineUiState): void {
  if (JSON.stringify(before.filters) === JSON.stringify(ui.filters)) return;
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => host.sendCommand(FilterChangedCommand, ui.filters), 750);
}

function commit(outcome: TimelineOutcome, opts: { toolbar?: boolean } = {}): void {
  const before = ui;
  ui = outcome.ui;
  persist();
  scheduleFilterLog(before);
  const c = outcome.command;
  if (c?.type === 'openEditDiff') host.sendCommand(OpenEditDiffCommand, { editId: c.editId });
  else if (c?.type === 'openNote') host.sendCommand(OpenNoteCommand, { sha: c.sha });
  else if (c?.type === 'openFile') host.sendCommand(OpenFileCommand, { file: c.file });
  if (before !== ui) render({ toolbar: opts.toolbar, focusList: outcome.focus === 'list' });
  else if (outcome.focus === 'list') selectedRowEl()?.focus();
  if (outcome.focus === 'filter') (document.getElementById('text-filter') as HTMLInputElement | null)?.select();
}

function dispatch(action: TimelineUiAction, opts: { toolbar?: boolean } = {}): void {
  commit({ ui: reduceTimelineUi(ui, action, view) }, opts);
}

let pendingFocus: TimelineFocus | undefined;

function onState(next: TimelineState): void {
  state = next;
  fullModel = buildTimelineModel(next);
  ui = pruneUiState(ui, next);
  if (pendingFocus) return onFocus(pendingFocus);
  persist();
  render();
}

function onFocus(focus: TimelineFocus): void {
  if (!state) {
    pendingFocus = focus;
    return;
  }
  pendingFocus = undefined;
  ui = applyTimelineFocus(ui, focus, state);
  if (isAxis()) {
    // "Open in Timeline" on the axis: select the commit's mark (or the session's start) and show it
    const sha = focus.sha?.toLowerCase();
    const commit = sha
      ? state.entries.find((e) => e.kind === 'commit' && (e.sha === sha || (sha.length >= 7 && e.sha.startsWith(sha))))
      : undefined;
    const id = commit?.id ?? (focus.sessionKey ? `session:${focus.sessionKey}` : undefined);
    if (id) {
      ui = {
        ...ui,
        filters: { agents: [], sessionKey: null, file: null, text: '' },
        axis: { ...axisUi(), branch: null, from: null, to: null, selectedId: id, focusId: id, window: null },
      };
      persist();
      render();
      return;
    }
  }
  persist();
  render({ focusList: true });
}

toolbarEl.addEventListener('click', (ev) => {
  if (isAxis()) return;
  const target = ev.target as HTMLElement;
  const chip = target.closest<HTMLElement>('[data-agent]');
  if (chip?.dataset.agent) dispatch({ type: 'toggleAgent', agent: chip.dataset.agent });
  else if (target.closest('#clear-filters')) dispatch({ type: 'clearFilters' });
});
toolbarEl.addEventListener('change', (ev) => {
  if (isAxis()) return;
  const target = ev.target as HTMLSelectElement;
  if (target.id === 'session-filter') dispatch({ type: 'setSession', sessionKey: target.value || null });
  else if (target.id === 'file-filter') dispatch({ type: 'setFile', file: target.value || null });
});
toolbarEl.addEventListener('input', (ev) => {
  if (isAxis()) return;
  const target = ev.target as HTMLInputElement;
  if (target.id === 'text-filter') dispatch({ type: 'setText', text: target.value }, { toolbar: false });
});
toolbarEl.addEventListener('keydown', (ev) => {
  if (isAxis()) return;
  const where = (ev.target as HTMLElement).id === 'text-filter' ? 'filter' : 'other';
  const intent = keyToIntent(ev, where);
  if (!intent) return;
  ev.preventDefault();
  ev.stopPropagation();
  commit(applyIntent(ui, intent, view, where), { toolbar: where !== 'filter' || intent.type === 'escape' });
});

listEl.addEventListener('click', (ev) => {
  const target = ev.target as HTMLElement;
  if (target.closest('#empty-clear')) return dispatch({ type: 'clearFilters' });
  const rowEl = target.closest<HTMLElement>('[role="option"]');
  const row = rowEl ? view.rows[Number(rowEl.dataset.index)] : undefined;
  if (!row) return;
  // Clicking inside an expanded prompt selects text; it should not collapse it.
  if (target.closest('.details')) return commit({ ui: { ...ui, selectedId: row.id }, focus: 'list' });
  commit({ ...activateRow(ui, row), focus: 'list' });
});
listEl.addEventListener('keydown', (ev) => {
  if (!(ev.target as HTMLElement).closest('[role="option"]')) return;
  const intent = keyToIntent(ev, 'list');
  if (!intent) return;
  ev.preventDefault();
  commit(applyIntent(ui, intent, view, 'list'));
});
document.addEventListener('keydown', (ev) => {
  if (isAxis()) return;
  if (ev.defaultPrevented || toolbarEl.contains(ev.target as Node) || listEl.contains(ev.target as Node)) return;
  const intent = keyToIntent(ev, 'other');
  if (!intent) return;
  ev.preventDefault();
  commit(applyIntent(ui, intent, view, 'other'));
});

let scrollFrame = 0;
window.addEventListener('scroll', () => {
  if (scrollFrame || !state) return;
  scrollFrame = requestAnimationFrame(() => {
    scrollFrame = 0;
    const top = Math.round(document.scrollingElement?.scrollTop ?? 0);
    if (top !== ui.scrollTop) {
      ui = { ...ui, scrollTop: top };
      persist();
    }
  });
});

host.onNotification(DidChangeStateNotification, onState);
host.onNotification(DidRequestFocusNotification, onFocus);
render();
host.sendRequest(ReadyRequest, undefined).then(onState, () => {
  // The host did not answer: show the (empty) list rather than a spinner forever.
  onState(emptyState);
});
