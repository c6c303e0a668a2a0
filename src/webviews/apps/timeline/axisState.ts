/**
 * Pure UI logic of the Timeline v2 axis view: its persisted state, the model filters it stands
 * for, keyboard intents and moves between marks. No DOM (docs/webviews.md §10).
 */
import type { TimelineModel, TimelineModelFilters } from '../../../core/timeline/timelineModel';
import type { TimelineAxisUiState, TimelineFilters } from '../../timeline/protocol';
import { nearestIndex } from './axis';

export function defaultAxisUi(): TimelineAxisUiState {
  return { view: 'axis', branch: null, from: null, to: null, selectedId: null, focusId: null, window: null };
}

const dateRe = /^\d{4}-\d{2}-\d{2}$/;

/** Validate the persisted axis state field by field (it may be corrupt or from an older version). */
export function parseAxisUi(value: unknown): TimelineAxisUiState {
  const ui = defaultAxisUi();
  if (typeof value !== 'object' || value === null) return ui;
  const v = value as Record<string, unknown>;
  if (v.view === 'list') ui.view = 'list';
  if (typeof v.branch === 'string' && v.branch.length <= 500) ui.branch = v.branch;
  if (typeof v.from === 'string' && dateRe.test(v.from)) ui.from = v.from;
  if (typeof v.to === 'string' && dateRe.test(v.to)) ui.to = v.to;
  if (typeof v.selectedId === 'string' && v.selectedId.length <= 1000) ui.selectedId = v.selectedId;
  if (typeof v.focusId === 'string' && v.focusId.length <= 1000) ui.focusId = v.focusId;
  const w = v.window as { start?: unknown; end?: unknown } | null | undefined;
  if (
    w &&
    typeof w.start === 'number' &&
    typeof w.end === 'number' &&
    Number.isFinite(w.start) &&
    Number.isFinite(w.end) &&
    w.end > w.start
  )
    ui.window = { start: w.start, end: w.end };
  return ui;
}

/** Local midnight of a `YYYY-MM-DD` day (epoch ms), or null. `endOfDay`: the last millisecond of that day. */
export function dayBound(day: string | null, endOfDay = false): number | null {
  if (!day || !dateRe.test(day)) return null;
  const [y, m, d] = day.split('-').map(Number);
  const t = endOfDay ? new Date(y, m - 1, d + 1).getTime() - 1 : new Date(y, m - 1, d).getTime();
  return Number.isNaN(t) ? null : t;
}

/** The model filters of the UI: agents and file shared with the list, branch and dates of the axis. */
export function axisModelFilters(filters: TimelineFilters, axis: TimelineAxisUiState): TimelineModelFilters {
  return { agents: filters.agents, file: filters.file, branch: axis.branch, from: dayBound(axis.from), to: dayBound(axis.to, true) };
}

export type AxisIntent =
  | { type: 'move'; to: 'next' | 'prev' | 'first' | 'last' | 'up' | 'down' }
  | { type: 'select' }
  | { type: 'zoom'; factor: number }
  | { type: 'fit' }
  | { type: 'pan'; dir: -1 | 1 }
  | { type: 'showNote' }
  | { type: 'openDiff' }
  | { type: 'revealLine' }
  | { type: 'escape' };

export interface AxisKey {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** Zoom step of one key press or wheel notch. */
export const zoomStep = 1.5;

/** What a key press on a mark of the lanes means. */
export function axisKeyToIntent(ev: AxisKey): AxisIntent | undefined {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return undefined;
  switch (ev.key) {
    case 'ArrowRight':
      return ev.shiftKey ? { type: 'pan', dir: 1 } : { type: 'move', to: 'next' };
    case 'ArrowLeft':
      return ev.shiftKey ? { type: 'pan', dir: -1 } : { type: 'move', to: 'prev' };
    case 'ArrowDown':
      return { type: 'move', to: 'down' };
    case 'ArrowUp':
      return { type: 'move', to: 'up' };
    case 'Home':
      return { type: 'move', to: 'first' };
    case 'End':
      return { type: 'move', to: 'last' };
    case 'Enter':
    case ' ':
      return { type: 'select' };
    case '+':
    case '=':
      return { type: 'zoom', factor: zoomStep };
    case '-':
    case '_':
      return { type: 'zoom', factor: 1 / zoomStep };
    case '0':
      return { type: 'fit' };
    case 'n':
    case 'N':
      return { type: 'showNote' };
    case 'd':
    case 'D':
      return { type: 'openDiff' };
    case 'r':
    case 'R':
      return { type: 'revealLine' };
    case 'Escape':
      return { type: 'escape' };
    default:
      return undefined;
  }
}

/** The mark that keeps the keyboard focus: the persisted one if it still exists, else the newest mark. */
export function focusMark(model: TimelineModel, focusId: string | null): string | null {
  if (focusId !== null && model.byId.has(focusId)) return focusId;
  return model.marks.length ? model.marks[model.marks.length - 1].id : null;
}

/** The mark a move lands on: along the lane in time, or to the nearest-in-time mark of the next lane with marks. */
export function moveFocus(
  model: TimelineModel,
  fromId: string | null,
  to: 'next' | 'prev' | 'first' | 'last' | 'up' | 'down',
): string | null {
  const start = focusMark(model, fromId);
  if (start === null) return null;
  const m = model.marks[model.byId.get(start) as number];
  const lane = model.byLane[m.lane];
  const pos = lane.indexOf(model.byId.get(start) as number);
  const at = (i: number) => model.marks[lane[i]].id;
  switch (to) {
    case 'next':
      return at(Math.min(lane.length - 1, pos + 1));
    case 'prev':
      return at(Math.max(0, pos - 1));
    case 'first':
      return at(0);
    case 'last':
      return at(lane.length - 1);
    case 'up':
    case 'down': {
      const step = to === 'down' ? 1 : -1;
      for (let l = m.lane + step; l >= 0 && l < model.lanes.length; l += step) {
        const other = model.byLane[l];
        if (other.length === 0) continue;
        const times = other.map((i) => model.marks[i].t);
        return model.marks[other[nearestIndex(times, m.t)]].id;
      }
      return start;
    }
  }
}
