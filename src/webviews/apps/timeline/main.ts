/** Timeline app entry: DOM wiring only. State logic is in state.ts, HTML in render.ts. */
import './timeline.css';
import {
  DidChangeStateNotification,
  DidRequestFocusNotification,
  FilterChangedCommand,
  OpenEditDiffCommand,
  OpenFileCommand,
  OpenNoteCommand,
  ReadyRequest,
  type TimelineFocus,
  type TimelineState,
  type TimelineUiState,
} from '../../timeline/protocol';
import { createHostChannel } from '../shared/host';
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

let ui: TimelineUiState = parseTimelineUiState(host.getState());
let state: TimelineState | undefined;
let view: TimelineView = buildTimelineView(emptyState, ui);
let scrollRestored = false;
let filterTimer: ReturnType<typeof setTimeout> | undefined;

const app = document.getElementById('app') ?? document.body;
app.innerHTML = '<div id="toolbar" class="toolbar"></div><div id="list-container" class="list-container"></div>';
const toolbarEl = document.getElementById('toolbar') as HTMLElement;
const listEl = document.getElementById('list-container') as HTMLElement;
const strings = () => state?.strings ?? {};

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
  persist();
  render({ focusList: true });
}

toolbarEl.addEventListener('click', (ev) => {
  const target = ev.target as HTMLElement;
  const chip = target.closest<HTMLElement>('[data-agent]');
  if (chip?.dataset.agent) dispatch({ type: 'toggleAgent', agent: chip.dataset.agent });
  else if (target.closest('#clear-filters')) dispatch({ type: 'clearFilters' });
});
toolbarEl.addEventListener('change', (ev) => {
  const target = ev.target as HTMLSelectElement;
  if (target.id === 'session-filter') dispatch({ type: 'setSession', sessionKey: target.value || null });
  else if (target.id === 'file-filter') dispatch({ type: 'setFile', file: target.value || null });
});
toolbarEl.addEventListener('input', (ev) => {
  const target = ev.target as HTMLInputElement;
  if (target.id === 'text-filter') dispatch({ type: 'setText', text: target.value }, { toolbar: false });
});
toolbarEl.addEventListener('keydown', (ev) => {
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
