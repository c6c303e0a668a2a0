/**
 * The Timeline v2 lanes as DOM: a time scale and one row per lane, virtualized both ways (only
 * the lanes scrolled into view, and in each only the marks of the visible window, merged when
 * closer than a few pixels). Mouse: drag pans, Ctrl/Cmd+wheel zooms at the pointer, Shift+wheel
 * pans. Pure DOM, no `vscode`, no host messages: the owner gets callbacks.
 */
import type { TimelineLane, TimelineMark, TimelineModel } from '../../../core/timeline/timelineModel';
import { agentClass } from '../shared/html';
import { laneWindow, panBy, placeLane, ticks, zoomAt, type TickUnit, type Viewport } from './axis';
import { zoomStep } from './axisState';

export const laneHeight = 30;
export const labelWidth = 180;
/** Marks closer than this merge into one group (a group is drawn 16 px wide). */
export const mergePx = 16;

export interface LaneViewHooks {
  laneLabel(lane: TimelineLane): string;
  markLabel(mark: TimelineMark): string;
  mergedLabel(count: number): string;
  tickLabel(t: number, unit: TickUnit): string;
  onFocus(id: string): void;
  onSelect(id: string): void;
  onKey(ev: KeyboardEvent, id: string): void;
  onViewport(vp: Viewport): void;
}

export class LaneView {
  private model: TimelineModel | undefined;
  private laneTimes: Float64Array[] = [];
  private vp: Viewport = { start: 0, end: 1, width: 1 };
  private selectedId: string | null = null;
  private focusId: string | null = null;
  private readonly scale: HTMLElement;
  private readonly lanesEl: HTMLElement;
  private readonly inner: HTMLElement;
  private drag: { x: number; vp: Viewport; moved: boolean } | undefined;
  private frame = 0;
  /** Elements drawn by the last render (a figure for tests and the bench). */
  drawn = 0;

  constructor(
    readonly root: HTMLElement,
    ariaLabel: string,
    private readonly hooks: LaneViewHooks,
  ) {
    const doc = root.ownerDocument;
    this.scale = doc.createElement('div');
    this.scale.className = 'axis-scale';
    this.scale.setAttribute('aria-hidden', 'true');
    this.lanesEl = doc.createElement('div');
    this.lanesEl.className = 'lanes';
    this.lanesEl.setAttribute('role', 'group');
    this.lanesEl.setAttribute('aria-label', ariaLabel);
    this.inner = doc.createElement('div');
    this.inner.className = 'lanes-inner';
    this.lanesEl.append(this.inner);
    root.append(this.scale, this.lanesEl);
    this.lanesEl.addEventListener('scroll', () => this.schedule());
    this.lanesEl.addEventListener('wheel', (ev) => this.onWheel(ev), { passive: false });
    this.lanesEl.addEventListener('pointerdown', (ev) => this.onPointerDown(ev));
    this.lanesEl.addEventListener('pointermove', (ev) => this.onPointerMove(ev));
    this.lanesEl.addEventListener('pointerup', (ev) => this.onPointerUp(ev));
    this.lanesEl.addEventListener('click', (ev) => this.onClick(ev));
    this.lanesEl.addEventListener('keydown', (ev) => {
      const el = (ev.target as HTMLElement).closest<HTMLElement>('[data-mark]');
      if (el?.dataset.mark) this.hooks.onKey(ev, el.dataset.mark);
    });
  }

  /** The accessible name of the lanes group (localized once the strings arrive). */
  setAriaLabel(text: string): void {
    this.lanesEl.setAttribute('aria-label', text);
  }

  /** Width in pixels of the time tracks (the viewport width). */
  trackWidth(): number {
    return Math.max(1, this.root.clientWidth - labelWidth - 2);
  }

  get viewport(): Viewport {
    return this.vp;
  }

  setModel(model: TimelineModel): void {
    if (model === this.model) return;
    this.model = model;
    this.laneTimes = model.byLane.map((idx) => Float64Array.from(idx, (i) => model.marks[i].t));
  }

  update(vp: Viewport, selectedId: string | null, focusId: string | null): void {
    this.vp = { ...vp, width: this.trackWidth() };
    this.selectedId = selectedId;
    this.focusId = focusId;
    this.render();
  }

  /** Focus the element of the focused mark (after a keyboard move). */
  focusActive(): void {
    this.inner.querySelector<HTMLElement>('[data-mark][tabindex="0"]')?.focus({ preventScroll: true });
  }

  /** Scroll the lanes vertically so that the focused mark's lane is in view. */
  revealLane(lane: number): void {
    const top = lane * laneHeight;
    const el = this.lanesEl;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + laneHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + laneHeight - el.clientHeight;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  render(): void {
    const model = this.model;
    const doc = this.root.ownerDocument;
    const hadFocus = this.inner.contains(doc.activeElement);
    this.vp = { ...this.vp, width: this.trackWidth() };
    this.renderScale();
    if (!model) return;
    this.inner.style.height = `${model.lanes.length * laneHeight}px`;
    const { from, to } = laneWindow(this.lanesEl.scrollTop, this.lanesEl.clientHeight || 400, laneHeight, model.lanes.length);
    const focusIndex = this.focusId === null ? undefined : model.byId.get(this.focusId);
    const selectedIndex = this.selectedId === null ? undefined : model.byId.get(this.selectedId);
    const focusLane = focusIndex === undefined ? -1 : model.marks[focusIndex].lane;
    const rows: HTMLElement[] = [];
    let drawn = 0;
    const draw = (l: number) => {
      const lane = model.lanes[l];
      const row = doc.createElement('div');
      row.className = `lane lane-${lane.kind} ${agentClass(lane.agent)}`;
      row.style.top = `${l * laneHeight}px`;
      row.setAttribute('role', 'listbox');
      row.setAttribute('aria-orientation', 'horizontal');
      const name = this.hooks.laneLabel(lane);
      row.setAttribute('aria-label', name);
      const labelEl = doc.createElement('div');
      labelEl.className = 'lane-label';
      labelEl.title = name;
      const dot = doc.createElement('span');
      dot.className = 'dot';
      dot.setAttribute('aria-hidden', 'true');
      labelEl.append(dot, doc.createTextNode(name));
      if (lane.active) labelEl.classList.add('active');
      const track = doc.createElement('div');
      track.className = 'lane-track';
      const idx = model.byLane[l];
      const special = new Set<number>();
      for (const i of [focusIndex, selectedIndex]) if (i !== undefined && model.marks[i].lane === l) special.add(i);
      for (const p of placeLane(this.laneTimes[l], this.vp, mergePx)) {
        // the focused and the selected mark are always drawn on their own
        const members = idx.slice(p.first, p.first + p.count);
        const plain = members.filter((i) => !special.has(i));
        if (plain.length === 0) continue;
        const el =
          plain.length === 1 ? this.markEl(model.marks[plain[0]], false, false) : this.clusterEl(model.marks[plain[0]], plain.length);
        el.style.left = `${p.x}px`;
        track.append(el);
        drawn++;
      }
      for (const i of special) {
        const m = model.marks[i];
        const el = this.markEl(m, i === focusIndex, i === selectedIndex);
        el.style.left = `${(m.t - this.vp.start) * (this.vp.width / (this.vp.end - this.vp.start))}px`;
        track.append(el);
        drawn++;
      }
      row.append(labelEl, track);
      rows.push(row);
    };
    for (let l = from; l < to; l++) draw(l);
    // the lane holding the focus is always present, so the one tab stop of the lanes exists
    if (focusLane >= 0 && (focusLane < from || focusLane >= to)) draw(focusLane);
    this.inner.replaceChildren(...rows);
    this.drawn = drawn;
    if (hadFocus) this.focusActive();
  }

  private renderScale(): void {
    const doc = this.root.ownerDocument;
    const offset = -new Date((this.vp.start + this.vp.end) / 2).getTimezoneOffset() * 60_000;
    const items = ticks(this.vp, offset).map((tk) => {
      const el = doc.createElement('span');
      el.className = `tick tick-${tk.unit}`;
      el.style.left = `${labelWidth + tk.x}px`;
      el.textContent = this.hooks.tickLabel(tk.t, tk.unit);
      return el;
    });
    this.scale.replaceChildren(...items);
  }

  private markEl(m: TimelineMark, focused: boolean, selected: boolean): HTMLElement {
    const el = this.root.ownerDocument.createElement('div');
    el.className = `mark kind-${m.kind} ${agentClass(m.agent)}${selected ? ' selected' : ''}`;
    el.dataset.mark = m.id;
    el.id = `mark-${this.model?.byId.get(m.id) ?? 0}`;
    el.setAttribute('role', 'option');
    el.setAttribute('aria-selected', String(selected));
    el.setAttribute('aria-label', this.hooks.markLabel(m));
    el.title = this.hooks.markLabel(m);
    el.tabIndex = focused ? 0 : -1;
    return el;
  }

  private clusterEl(first: TimelineMark, count: number): HTMLElement {
    const el = this.markEl(first, false, false);
    el.classList.add('cluster');
    el.dataset.count = String(count);
    el.setAttribute('aria-label', `${this.hooks.mergedLabel(count)}: ${this.hooks.markLabel(first)}`);
    el.title = this.hooks.mergedLabel(count);
    el.textContent = count > 99 ? '99+' : String(count);
    return el;
  }

  private trackX(clientX: number): number {
    const r = this.lanesEl.getBoundingClientRect();
    return Math.max(0, Math.min(this.vp.width, clientX - r.left - labelWidth));
  }

  private onWheel(ev: WheelEvent): void {
    if (ev.ctrlKey || ev.metaKey) {
      ev.preventDefault();
      const factor = ev.deltaY < 0 ? zoomStep : 1 / zoomStep;
      this.hooks.onViewport(zoomAt(this.vp, factor, this.trackX(ev.clientX)));
    } else if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
      ev.preventDefault();
      this.hooks.onViewport(panBy(this.vp, ev.shiftKey ? ev.deltaY || ev.deltaX : ev.deltaX));
    }
  }

  private onPointerDown(ev: PointerEvent): void {
    if (ev.button !== 0 || !(ev.target as HTMLElement).closest('.lane-track')) return;
    this.drag = { x: ev.clientX, vp: this.vp, moved: false };
    this.lanesEl.setPointerCapture?.(ev.pointerId);
  }

  private onPointerMove(ev: PointerEvent): void {
    if (!this.drag) return;
    const dx = ev.clientX - this.drag.x;
    if (Math.abs(dx) < 3 && !this.drag.moved) return;
    this.drag.moved = true;
    this.lanesEl.classList.add('dragging');
    this.hooks.onViewport(panBy(this.drag.vp, -dx));
  }

  private onPointerUp(ev: PointerEvent): void {
    const moved = this.drag?.moved;
    this.drag = undefined;
    this.lanesEl.classList.remove('dragging');
    this.lanesEl.releasePointerCapture?.(ev.pointerId);
    if (moved) this.suppressClick = true;
  }

  private suppressClick = false;

  private onClick(ev: MouseEvent): void {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const el = (ev.target as HTMLElement).closest<HTMLElement>('[data-mark]');
    if (!el?.dataset.mark) return;
    if (el.classList.contains('cluster')) {
      // a merged group: zoom in around it so its marks separate, and focus its first mark
      this.hooks.onViewport(zoomAt(this.vp, 4, this.trackX(ev.clientX)));
      this.hooks.onFocus(el.dataset.mark);
      return;
    }
    this.hooks.onSelect(el.dataset.mark);
  }
}
