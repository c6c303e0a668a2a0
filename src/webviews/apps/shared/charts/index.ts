/**
 * Framework-free chart helpers shared by the dashboard and the timeline (docs/webviews.md §9 for
 * the theming rule). The whole API:
 *
 * - `columnChart(points, opts)` — an SVG column chart of 0–100 values (gaps for no data);
 * - `shareBar(ratio, label)` + `applyBarWidths(root)` (`./dom`, the only DOM code) — a horizontal
 *   share bar under a strict CSP;
 * - `heatLevel(ratio)` — 0–5, for the `heat-<n>` classes;
 * - `formatPercent`, `roundPercent`, `formatCount`, `formatDay` — locale-aware formatting;
 * - `theme.css` (import it from the app's CSS entry) — tokens `--an-*` that map to the editor's
 *   `--vscode-*` variables in a webview and to light / dark / forced-colors palettes in a plain
 *   browser (`prefers-color-scheme`, `forced-colors`).
 *
 * Strings passed in are escaped here; nothing touches the DOM except applyBarWidths, which lives in
 * `./dom` so that these pure modules type-check and run in Node tests.
 */
export { columnChart, heatLevel, shareBar, type ColumnChartOptions, type ColumnPoint } from './svg';
export { formatCount, formatDay, formatPercent, roundPercent } from './format';
