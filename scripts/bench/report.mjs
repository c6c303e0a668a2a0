// Goals of the benchmark issue, evaluation of the measured samples against them, and the Markdown
// table (bench-results/latest.md) the README's "Performance" section is taken from.
import { fmtMs, summarize } from './common.mjs';

/** @typedef {ReturnType<typeof summarize>} Stats */
/** @typedef {ReturnType<typeof row>} Row */
/** @typedef {'pass' | 'fail' | 'missing' | 'info'} Status */

/**
 * A row: what was measured, its goal, statistics of its samples, the baseline measured in the same
 * run and the ratio measured ÷ baseline. status: pass | fail | missing (the measurement could not
 * be made: counts as a failure) | info (no goal).
 * @param {{
 *   id: string, what: string, unit: string, goal?: string, samples?: number[], baseline?: number[],
 *   baselineLabel?: string, check?: (stats: Stats, ratio: number | undefined, base: Stats | undefined) => boolean | string,
 *   note?: string, decimals?: number, ratio?: number,
 * }} spec
 */
export function row({ id, what, unit, goal = '—', samples, baseline, baselineLabel, check, note, decimals, ratio: ratioOverride }) {
  const stats = summarize(samples ?? []);
  const base = baseline ? summarize(baseline) : undefined;
  const ratio = ratioOverride ?? (base && stats.n && base.median ? stats.median / base.median : undefined);
  /** @type {Status} */
  let status = 'info';
  let reason;
  if (check) {
    if (!stats.n) {
      status = 'missing';
      reason = note;
    } else {
      const r = check(stats, ratio, base);
      status = r === true ? 'pass' : 'fail';
      if (typeof r === 'string') reason = r;
    }
  }
  return {
    id,
    what,
    unit,
    goal,
    stats,
    baseline: base ? { label: baselineLabel, ...base } : undefined,
    baselineLabel,
    ratio,
    status,
    reason,
    note,
    decimals,
  };
}

/**
 * @param {number} v
 * @param {string} unit
 * @param {number} [decimals]
 */
function fmtVal(v, unit, decimals) {
  if (!Number.isFinite(v)) return '—';
  if (unit === 'ms') return fmtMs(v);
  const d = decimals ?? (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2);
  return `${v.toFixed(d)} ${unit}`;
}

/** @param {number | undefined} r */
function fmtRatio(r) {
  if (r === undefined || !Number.isFinite(r)) return '—';
  if (r === 0) return '0';
  if (r < 0.01) return `${r.toExponential(1)} (${Math.round(1 / r).toLocaleString('en-US')}× less)`;
  if (r < 0.5) return `${r.toFixed(3)} (${(1 / r).toFixed(1)}× less)`;
  return r.toFixed(3);
}

const statusText = { pass: '✅ pass', fail: '❌ FAIL', missing: '⚠️ missing', info: 'info' };

/**
 * The Markdown table of the rows.
 * @param {Row[]} rows
 */
export function markdownTable(rows) {
  const head =
    '| what | goal | median | p95 | min | max | n | baseline median | ratio (÷ baseline) | result |\n|---|---|---|---|---|---|---|---|---|---|';
  const body = rows.map((r) => {
    const s = r.stats;
    const f = (/** @type {number} */ v) => fmtVal(v, r.unit, r.decimals);
    return `| ${r.what} | ${r.goal} | ${f(s.median)} | ${f(s.p95)} | ${f(s.min)} | ${f(s.max)} | ${s.n} | ${r.baseline ? `${f(r.baseline.median)} — ${r.baselineLabel}` : '—'} | ${fmtRatio(r.ratio)} | ${statusText[r.status]} |`;
  });
  return `${head}\n${body.join('\n')}`;
}

/**
 * Plain-text table for the terminal.
 * @param {Row[]} rows
 */
export function textTable(rows) {
  const cols = rows.map((r) => {
    const f = (/** @type {number} */ v) => fmtVal(v, r.unit, r.decimals);
    return [
      statusText[r.status],
      r.what.replace(/`/g, ''),
      r.goal,
      f(r.stats.median),
      f(r.stats.p95),
      f(r.stats.min),
      f(r.stats.max),
      r.baseline ? f(r.baseline.median) : '—',
      fmtRatio(r.ratio),
    ];
  });
  const header = ['result', 'what', 'goal', 'median', 'p95', 'min', 'max', 'baseline', 'ratio'];
  const widths = header.map((h, i) => Math.min(i === 1 ? 70 : 40, Math.max(h.length, ...cols.map((c) => c[i].length))));
  const line = (/** @type {string[]} */ c) =>
    c.map((v, i) => (v.length > widths[i] ? `${v.slice(0, widths[i] - 1)}…` : v.padEnd(widths[i]))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cols.map(line)].join('\n');
}

/**
 * Whole latest.md.
 * @param {{
 *   rows: Row[], env: Record<string, string | number | undefined>, data: string[], notes: string[], durationMs: number, quick: boolean,
 * }} report
 */
export function markdownReport({ rows, env, data, notes, durationMs, quick }) {
  const failed = rows.filter((r) => r.status === 'fail' || r.status === 'missing');
  const lines = [
    '# Agent Note benchmark',
    '',
    `${quick ? '**Quick run (reduced data: not comparable to the goals).** ' : ''}Measured ${env.date} on ${env.cpus} × ${env.cpuModel}, ${env.memGiB} GiB RAM, ${env.os}; node ${env.node}, git ${env.git}, code-server ${env.codeServer} (VS Code ${env.vscode ?? '?'}). Total run time ${(durationMs / 1000).toFixed(0)} s.`,
    '',
    failed.length ? `**${failed.length} goal(s) missed:** ${failed.map((r) => r.id).join(', ')}.` : '**All goals met.**',
    '',
    markdownTable(rows),
    '',
    'Columns: statistics over all samples of the measurement (nearest-rank p95); *baseline* is measured in the same run on the same data; *ratio* = measured median ÷ baseline median (for throughput, higher is better), except where the note of the row defines it (commit duration: corrected for machine drift; RSS: enabled ÷ disabled RSS). Sizes: KB = 1,000 bytes, MiB = 1,048,576 bytes.',
    '',
    '## What each row measures',
    '',
    ...rows.map((r) => `- **${r.what}** — ${r.note ?? ''}${r.reason ? ` _(${r.reason})_` : ''}`),
    '',
    '## Data',
    '',
    ...data.map((d) => `- ${d}`),
    '',
    ...(notes.length ? ['## Notes', '', ...notes.map((n) => `- ${n}`), ''] : []),
    '## How to reproduce',
    '',
    'From a clean clone, run `npm run bench` (it installs what is missing, like `npm test`). It builds the extension, generates all data in a temporary directory (removed afterwards; `VSH_KEEP=1` keeps it), runs every measurement several times, writes `bench-results/latest.json` (all samples) and this file, prints the table and exits non-zero when a goal is missed. It needs no network and takes a few minutes on 2 cores. `npm run bench -- --skip-host` skips the code-server runs; `--quick` uses reduced data for a fast smoke run (its numbers do not count; it writes `bench-results/quick.md` instead).',
    '',
  ];
  return lines.join('\n');
}
