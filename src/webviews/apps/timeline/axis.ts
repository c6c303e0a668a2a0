/**
 * Time-axis math of Timeline v2, pure (no DOM, no `vscode`): the visible time window, zoom and pan,
 * tick steps, the virtualization window (which marks and lanes are in view) and the merging of
 * marks closer than a few pixels. Written to move to a shared chart module later unchanged.
 */

/** The visible time window mapped onto `width` pixels. */
export interface Viewport {
  /** Epoch ms at x = 0. */
  start: number;
  /** Epoch ms at x = width. */
  end: number;
  width: number;
}

/** The narrowest window (one second) and the widest (ten years). */
export const minSpanMs = 1000;
export const maxSpanMs = 10 * 366 * 24 * 3600 * 1000;

export function xOf(t: number, vp: Viewport): number {
  return ((t - vp.start) / (vp.end - vp.start)) * vp.width;
}

export function tOf(x: number, vp: Viewport): number {
  return vp.start + (x / vp.width) * (vp.end - vp.start);
}

function clampSpan(span: number): number {
  return Math.min(maxSpanMs, Math.max(minSpanMs, span));
}

/** A window that shows `[start, end]` with a margin of 4 % each side (at least a minute in all). */
export function fitViewport(start: number, end: number, width: number): Viewport {
  const span = Math.max(60_000, end - start);
  const pad = span * 0.04;
  const s = clampSpan(span + 2 * pad);
  const mid = (start + end) / 2;
  return { start: mid - s / 2, end: mid + s / 2, width: Math.max(1, width) };
}

/** Zoom by `factor` (> 1 zooms in) keeping the time under `anchorX` in place. */
export function zoomAt(vp: Viewport, factor: number, anchorX = vp.width / 2): Viewport {
  const anchor = tOf(anchorX, vp);
  const span = clampSpan((vp.end - vp.start) / factor);
  const left = (anchorX / vp.width) * span;
  return { ...vp, start: anchor - left, end: anchor - left + span };
}

/** Pan by `dx` pixels (positive: later times come into view). */
export function panBy(vp: Viewport, dx: number): Viewport {
  const dt = (dx / vp.width) * (vp.end - vp.start);
  return { ...vp, start: vp.start + dt, end: vp.end + dt };
}

/** Pan just enough that `t` lies inside the window with `marginPx` to spare. */
export function ensureVisible(vp: Viewport, t: number, marginPx = 24): Viewport {
  const x = xOf(t, vp);
  if (x < marginPx) return panBy(vp, x - marginPx);
  if (x > vp.width - marginPx) return panBy(vp, x - (vp.width - marginPx));
  return vp;
}

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
/** Tick steps, smallest first; months and years are approximated by 30 and 365 days. */
export const tickSteps = [
  second,
  5 * second,
  15 * second,
  30 * second,
  minute,
  5 * minute,
  15 * minute,
  30 * minute,
  hour,
  3 * hour,
  6 * hour,
  12 * hour,
  day,
  2 * day,
  7 * day,
  30 * day,
  90 * day,
  365 * day,
];

export type TickUnit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';

export interface Tick {
  t: number;
  x: number;
  unit: TickUnit;
}

function unitOf(step: number): TickUnit {
  if (step < minute) return 'second';
  if (step < hour) return 'minute';
  if (step < day) return 'hour';
  if (step < 30 * day) return 'day';
  if (step < 365 * day) return 'month';
  return 'year';
}

/** The smallest step that leaves at least `minGapPx` between ticks. */
export function tickStep(vp: Viewport, minGapPx = 90): number {
  const msPerPx = (vp.end - vp.start) / vp.width;
  return tickSteps.find((s) => s / msPerPx >= minGapPx) ?? tickSteps[tickSteps.length - 1];
}

/**
 * Ticks of the window, aligned to the step in the viewer's zone (`offsetMs`: the zone's offset
 * from UTC, so day ticks fall on local midnights).
 */
export function ticks(vp: Viewport, offsetMs = 0, minGapPx = 90): Tick[] {
  const step = tickStep(vp, minGapPx);
  const unit = unitOf(step);
  const out: Tick[] = [];
  const first = Math.ceil((vp.start + offsetMs) / step) * step - offsetMs;
  for (let t = first; t <= vp.end && out.length < 500; t += step) out.push({ t, x: xOf(t, vp), unit });
  return out;
}

/** First index in `sorted` whose value is ≥ `value` (binary search). */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index range `[from, to)` of the times in `[start, end]` (sorted ascending). */
export function timeWindow(sorted: ArrayLike<number>, start: number, end: number): { from: number; to: number } {
  const from = lowerBound(sorted, start);
  let to = lowerBound(sorted, end);
  while (to < sorted.length && sorted[to] <= end) to++;
  return { from, to };
}

/** Lanes in view: `[from, to)` of `count` lanes of `laneHeight` px, scrolled by `scrollTop`, with `overscan` extra each side. */
export function laneWindow(
  scrollTop: number,
  height: number,
  laneHeight: number,
  count: number,
  overscan = 2,
): { from: number; to: number } {
  const from = Math.max(0, Math.floor(scrollTop / laneHeight) - overscan);
  const to = Math.min(count, Math.ceil((scrollTop + height) / laneHeight) + overscan);
  return { from, to: Math.max(from, to) };
}

/** A drawn mark: one mark, or several closer than the merge distance (drawn as one, with a count). */
export interface PlacedMark {
  x: number;
  /** Position in the lane's index list of the first mark of the group. */
  first: number;
  count: number;
}

/**
 * Place the lane's marks in view (virtualized: only `[start − margin, end + margin]` is looked at)
 * and merge marks less than `mergePx` apart, so a lane never draws more than width / mergePx
 * elements whatever the number of events. `times` are the lane's mark times, ascending.
 */
export function placeLane(times: ArrayLike<number>, vp: Viewport, mergePx = 6, marginPx = 12): PlacedMark[] {
  const msPerPx = (vp.end - vp.start) / vp.width;
  const { from, to } = timeWindow(times, vp.start - marginPx * msPerPx, vp.end + marginPx * msPerPx);
  const out: PlacedMark[] = [];
  let group: PlacedMark | undefined;
  for (let i = from; i < to; i++) {
    const x = xOf(times[i], vp);
    if (group && x - group.x < mergePx) {
      group.count++;
      continue;
    }
    group = { x, first: i, count: 1 };
    out.push(group);
  }
  return out;
}

/** Which position of a sorted time list is nearest to `t` (for moving between lanes by keyboard). */
export function nearestIndex(sorted: ArrayLike<number>, t: number): number {
  if (sorted.length === 0) return -1;
  const i = lowerBound(sorted, t);
  if (i === 0) return 0;
  if (i >= sorted.length) return sorted.length - 1;
  return t - sorted[i - 1] <= sorted[i] - t ? i - 1 : i;
}
