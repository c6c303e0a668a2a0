/**
 * SVG and HTML chart pieces as strings (no DOM, no inline styles: colours come from the classes in
 * theme.css, so a strict CSP holds and Node tests can check the markup). Every label is escaped.
 */
import { escapeHtml } from '../html';

export interface ColumnPoint {
  /** Axis label (short), escaped. */
  label: string;
  /** 0–100, or null for a gap (no data: drawn as a gap, never as 0). */
  value: number | null;
  /** Tooltip / accessible text, escaped. */
  detail: string;
}

export interface ColumnChartOptions {
  ariaLabel: string;
  /** Drawing size in SVG units (the SVG scales to its container). */
  width?: number;
  height?: number;
  /** Extra class on the <svg>. */
  className?: string;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/**
 * A column chart of 0–100 values with gridlines at 0/50/100 %. Columns carry `data-value` (the
 * rounded value) and a <title>; null values leave an empty slot marked `chart-gap`.
 */
export function columnChart(points: readonly ColumnPoint[], opts: ColumnChartOptions): string {
  const width = opts.width ?? 720;
  const height = opts.height ?? 180;
  const left = 34;
  const bottom = 22;
  const top = 8;
  const plotH = height - bottom - top;
  const slot = points.length ? (width - left) / points.length : width - left;
  const barW = Math.max(1, Math.min(40, slot * 0.7));
  const grid = [0, 50, 100]
    .map((v) => {
      const y = r1(top + plotH - (v / 100) * plotH);
      return `<line class="chart-grid" x1="${left}" x2="${width}" y1="${y}" y2="${y}"/><text class="chart-axis" x="${left - 4}" y="${r1(y + 4)}" text-anchor="end">${v}%</text>`;
    })
    .join('');
  const labelEvery = Math.max(1, Math.ceil(points.length / 8));
  const cols = points
    .map((p, i) => {
      const x = r1(left + i * slot + (slot - barW) / 2);
      const label =
        i % labelEvery === 0
          ? `<text class="chart-axis" x="${r1(x + barW / 2)}" y="${height - 6}" text-anchor="middle">${escapeHtml(p.label)}</text>`
          : '';
      if (p.value === null || !Number.isFinite(p.value)) {
        return `<g class="chart-gap" data-value=""><title>${escapeHtml(p.detail)}</title></g>${label}`;
      }
      const v = Math.max(0, Math.min(100, p.value));
      const h = r1(Math.max(v > 0 ? 1 : 0, (v / 100) * plotH));
      return `<rect class="chart-col" data-value="${Math.round(v)}" x="${x}" y="${r1(top + plotH - h)}" width="${r1(barW)}" height="${h}"><title>${escapeHtml(p.detail)}</title></rect>${label}`;
    })
    .join('');
  const cls = `chart${opts.className ? ` ${escapeHtml(opts.className)}` : ''}`;
  return `<svg class="${cls}" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(opts.ariaLabel)}">${grid}${cols}</svg>`;
}

/** Heat level 0–5 of a 0–100 share (null → 0): the class `heat-<n>` colours a cell. */
export function heatLevel(ratio: number | null | undefined): number {
  if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio <= 0) return 0;
  return Math.min(5, 1 + Math.floor(Math.min(99.999, ratio) / 20));
}

/**
 * A horizontal share bar as HTML. Widths cannot be inline `style` attributes under the CSP: the
 * fill carries `data-ratio` and `applyBarWidths` (dom.ts) sets it through the CSSOM.
 */
export function shareBar(ratio: number | null, accessibleLabel: string): string {
  const r = typeof ratio === 'number' && Number.isFinite(ratio) ? Math.max(0, Math.min(100, Math.round(ratio))) : 0;
  return `<span class="share-bar" role="img" aria-label="${escapeHtml(accessibleLabel)}"><span class="share-fill" data-ratio="${r}"></span></span>`;
}
