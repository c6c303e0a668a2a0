/**
 * HTML of the dashboard page, as strings from the data and the UI state (pure; Node tests render
 * it). Every string from notes or commits goes through escapeHtml; nothing here is inserted raw.
 * Figures carry `data-figure` so tests read exactly what is shown.
 */
import {
  fileHeat,
  filterCommits,
  filterOptions,
  paginate,
  perAgent,
  perBranch,
  perModel,
  rangeSummaries,
  ratioOverTime,
  summarize,
  type GroupRow,
  type HeatRow,
  type RatioSummary,
} from '../../../core/dashboard/aggregate';
import type { DashboardCommit, DashboardData } from '../../../core/dashboard/dashboardData';
import { dashboardDefaultStrings, type DashboardStringKey } from '../../../core/dashboard/dashboardStrings';
import { columnChart, formatCount, formatDay, formatPercent, heatLevel, shareBar } from '../shared/charts';
import { escapeHtml, label } from '../shared/html';
import { commitPageSize, hasFilter, rangePageSize, type DashboardUi } from './state';

export interface RenderContext {
  data: DashboardData;
  ui: DashboardUi;
  /** Locale for numbers and dates (undefined = the viewer's). */
  locale?: string;
}

const heatRows = 30;

function t(ctx: RenderContext, key: DashboardStringKey, ...args: (string | number)[]): string {
  return label(ctx.data.strings, dashboardDefaultStrings, key, ...args);
}

const pct = (ctx: RenderContext, v: number | null) => formatPercent(v, ctx.locale, t(ctx, 'none'));
const num = (ctx: RenderContext, n: number) => formatCount(n, ctx.locale);

function agentName(ctx: RenderContext, agent: string | null, model?: string | null): string {
  const a = agent ?? t(ctx, 'noAgent');
  return model === undefined ? a : `${a} · ${model ?? t(ctx, 'noAgent')}`;
}

/** The filter bar (rendered once per data; its controls keep focus while the content re-renders). */
export function renderFilters(ctx: RenderContext): string {
  const { data, ui } = ctx;
  const f = ui.filter;
  const opts = filterOptions(data);
  const option = (value: string, text: string, selected: boolean) =>
    `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(text)}</option>`;
  const branches = [
    option('', t(ctx, 'allBranches'), f.branch === undefined),
    ...data.branches.map((b, i) => option(String(i), b, f.branch === i)),
  ].join('');
  const agents = [
    option('*', t(ctx, 'allAgents'), f.agent === undefined),
    ...opts.agents.map((a) => option(`=${a}`, a || t(ctx, 'noAgent'), f.agent === a)),
  ].join('');
  const models = [
    option('*', t(ctx, 'allModels'), f.model === undefined),
    ...opts.models.map((m) => option(`=${m}`, m || t(ctx, 'noAgent'), f.model === m)),
  ].join('');
  const field = (name: string, text: string, control: string) => `<label class="filter"><span>${escapeHtml(text)}</span>${control}</label>`;
  return [
    `<form class="filters" role="search" aria-label="${escapeHtml(t(ctx, 'filters'))}">`,
    field('branch', t(ctx, 'branch'), `<select data-filter="branch">${branches}</select>`),
    field('agent', t(ctx, 'agent'), `<select data-filter="agent">${agents}</select>`),
    field('model', t(ctx, 'model'), `<select data-filter="model">${models}</select>`),
    field('from', t(ctx, 'from'), `<input type="date" data-filter="from" value="${escapeHtml(f.from ?? '')}">`),
    field('to', t(ctx, 'to'), `<input type="date" data-filter="to" value="${escapeHtml(f.to ?? '')}">`),
    field(
      'path',
      t(ctx, 'path'),
      `<input type="search" data-filter="path" value="${escapeHtml(f.path ?? '')}" placeholder="${escapeHtml(t(ctx, 'pathPlaceholder'))}" spellcheck="false">`,
    ),
    `<button type="button" data-action="clear"${hasFilter(f) ? '' : ' disabled'}>${escapeHtml(t(ctx, 'clearFilters'))}</button>`,
    '</form>',
  ].join('');
}

export function renderHeader(ctx: RenderContext): string {
  const { data } = ctx;
  const when = data.generatedAt ? new Date(data.generatedAt) : undefined;
  const whenText = when && !Number.isNaN(when.getTime()) ? formatDay(data.generatedAt.slice(0, 10), ctx.locale) : data.generatedAt;
  return `<header class="page-header"><h1>${escapeHtml(t(ctx, 'title'))} <span class="repo">${escapeHtml(data.repository)}</span></h1><p class="muted">${escapeHtml(t(ctx, 'generated', whenText, data.branches.join(', ')))}</p></header>`;
}

function card(figure: string, title: string, value: string, detail = ''): string {
  return `<div class="card"><div class="card-title">${escapeHtml(title)}</div><div class="card-value" data-figure="${figure}">${escapeHtml(value)}</div>${detail ? `<div class="card-detail muted">${escapeHtml(detail)}</div>` : ''}</div>`;
}

function summaryCards(ctx: RenderContext, s: RatioSummary): string {
  return `<section class="cards" aria-label="${escapeHtml(t(ctx, 'lineRatio'))}">${[
    card('lineRatio', t(ctx, 'lineRatio'), pct(ctx, s.lineRatio)),
    card('meanRatio', t(ctx, 'meanRatio'), pct(ctx, s.meanRatio)),
    card('coverage', t(ctx, 'coverage'), t(ctx, 'coverageValue', num(ctx, s.noted), num(ctx, s.commits))),
    card('aiLines', t(ctx, 'aiLines'), t(ctx, 'aiLinesValue', num(ctx, s.aiAdded), num(ctx, s.totalAdded))),
  ].join('')}</section>`;
}

function section(id: string, title: string, body: string, note = ''): string {
  return `<section class="panel" id="${id}" aria-labelledby="${id}-h"><h2 id="${id}-h">${escapeHtml(title)}${note ? ` <span class="muted small">${escapeHtml(note)}</span>` : ''}</h2>${body}</section>`;
}

function ratioCells(ctx: RenderContext, s: RatioSummary): string {
  return `<td class="num" data-col="commits">${num(ctx, s.commits)}</td><td class="num" data-col="noted">${num(ctx, s.noted)}</td><td class="num" data-col="lineRatio">${escapeHtml(pct(ctx, s.lineRatio))} ${shareBar(s.lineRatio, pct(ctx, s.lineRatio))}</td><td class="num" data-col="meanRatio">${escapeHtml(pct(ctx, s.meanRatio))}</td>`;
}

function ratioHead(ctx: RenderContext, first: string): string {
  return `<thead><tr><th scope="col">${escapeHtml(first)}</th><th scope="col" class="num">${escapeHtml(t(ctx, 'colCommits'))}</th><th scope="col" class="num">${escapeHtml(t(ctx, 'colNoted'))}</th><th scope="col" class="num">${escapeHtml(t(ctx, 'colRatio'))}</th><th scope="col" class="num">${escapeHtml(t(ctx, 'colMean'))}</th></tr></thead>`;
}

function groupTable(ctx: RenderContext, rows: readonly (RatioSummary & { name: string; key: string })[], testid: string): string {
  if (!rows.length) return `<p class="muted">${escapeHtml(t(ctx, 'nothing'))}</p>`;
  return `<table class="grid" data-table="${testid}">${ratioHead(ctx, t(ctx, 'colName'))}<tbody>${rows
    .map((r) => `<tr data-key="${escapeHtml(r.key)}"><th scope="row">${escapeHtml(r.name)}</th>${ratioCells(ctx, r)}</tr>`)
    .join('')}</tbody></table>`;
}

function heatTable(ctx: RenderContext, rows: readonly HeatRow[], testid: string, title: string): string {
  const shown = rows.slice(0, heatRows);
  const body = shown.length
    ? shown
        .map(
          (r) =>
            `<tr data-key="${escapeHtml(r.path)}"><th scope="row" class="path heat-${heatLevel(r.heat)}">${escapeHtml(r.path || '/')}</th><td class="num" data-col="heat">${escapeHtml(pct(ctx, r.heat))}</td><td class="num">${num(ctx, r.aiCommits)} / ${num(ctx, r.commits)}</td><td class="num">${num(ctx, r.aiLines)}</td></tr>`,
        )
        .join('')
    : `<tr><td colspan="4" class="muted">${escapeHtml(t(ctx, 'nothing'))}</td></tr>`;
  return `<div class="heat-block"><h3>${escapeHtml(title)}</h3><table class="grid heat" data-table="${testid}"><thead><tr><th scope="col">${escapeHtml(t(ctx, 'colName'))}</th><th scope="col" class="num">${escapeHtml(t(ctx, 'heatShare'))}</th><th scope="col" class="num">${escapeHtml(t(ctx, 'colTouches'))}</th><th scope="col" class="num">${escapeHtml(t(ctx, 'colAiLines'))}</th></tr></thead><tbody>${body}</tbody></table></div>`;
}

function pager(ctx: RenderContext, what: 'commits' | 'ranges', page: number, pages: number): string {
  if (pages <= 1) return '';
  return `<nav class="pager" aria-label="${escapeHtml(t(ctx, what))}"><button type="button" data-page="${what}" data-to="${page - 1}"${page <= 1 ? ' disabled' : ''}>${escapeHtml(t(ctx, 'previous'))}</button><span data-pager="${what}">${escapeHtml(t(ctx, 'page', page, pages))}</span><button type="button" data-page="${what}" data-to="${page + 1}"${page >= pages ? ' disabled' : ''}>${escapeHtml(t(ctx, 'next'))}</button></nav>`;
}

function commitRow(ctx: RenderContext, c: DashboardCommit): string {
  const day = formatDay(c.date.slice(0, 10), ctx.locale);
  const who = c.noted ? agentName(ctx, c.agent, c.model) : c.invalid ? t(ctx, 'noteInvalid', c.invalid) : t(ctx, 'noNote');
  const ratio = c.noted ? `${escapeHtml(formatPercent(c.ratio, ctx.locale))} ${shareBar(c.ratio, formatPercent(c.ratio, ctx.locale))}` : '';
  const more = c.interactions - c.prompts.length;
  const prompts = c.prompts.length
    ? `<details class="prompts"><summary>${escapeHtml(t(ctx, 'prompts', c.interactions))} · ${escapeHtml(t(ctx, 'files', c.files.length))}</summary><ol>${c.prompts
        .map((p) => `<li><pre class="prompt">${escapeHtml(p)}</pre></li>`)
        .join('')}</ol>${more > 0 ? `<p class="muted">${escapeHtml(t(ctx, 'morePrompts', more))}</p>` : ''}</details>`
    : '';
  return `<tr data-sha="${escapeHtml(c.sha)}"${c.noted ? '' : ' class="unnoted"'}><td class="nowrap">${escapeHtml(day)}</td><td><code>${escapeHtml(c.sha.slice(0, 8))}</code> ${escapeHtml(c.subject)}<div class="muted small">${escapeHtml(c.author)}</div>${prompts}</td><td>${escapeHtml(who)}</td><td class="num nowrap" data-col="ratio">${ratio}</td></tr>`;
}

/** Everything below the filter bar for the current filter. */
export function renderContent(ctx: RenderContext): string {
  const { data, ui } = ctx;
  const commits = filterCommits(data, ui.filter);
  const total = summarize(commits);
  const parts: string[] = [summaryCards(ctx, total)];
  if (data.notesOutsideBranches > 0)
    parts.push(`<p class="muted small" data-figure="outside">${escapeHtml(t(ctx, 'outside', num(ctx, data.notesOutsideBranches)))}</p>`);

  const time = ratioOverTime(commits);
  const sizeNote = t(ctx, time.size === 'day' ? 'overTimeDay' : time.size === 'week' ? 'overTimeWeek' : 'overTimeMonth');
  const points = time.buckets.map((b) => ({
    label: formatDay(b.start, ctx.locale),
    value: b.lineRatio ?? (b.noted ? b.meanRatio : null),
    detail: t(
      ctx,
      'bucketDetail',
      formatDay(b.start, ctx.locale),
      pct(ctx, b.lineRatio ?? b.meanRatio),
      num(ctx, b.noted),
      num(ctx, b.commits),
    ),
  }));
  parts.push(
    section(
      'over-time',
      t(ctx, 'overTime'),
      points.length ? columnChart(points, { ariaLabel: t(ctx, 'overTime') }) : `<p class="muted">${escapeHtml(t(ctx, 'nothing'))}</p>`,
      sizeNote,
    ),
  );

  const grid: string[] = [];
  if (data.branches.length > 1)
    grid.push(
      section(
        'per-branch',
        t(ctx, 'perBranch'),
        groupTable(
          ctx,
          perBranch(data, commits).map((r, i) => ({ ...r, name: r.branch, key: String(i) })),
          'branches',
        ),
      ),
    );
  const named = (rows: GroupRow[], withModel: boolean) =>
    rows.map((r) => ({ ...r, name: withModel ? agentName(ctx, r.agent, r.model) : agentName(ctx, r.agent) }));
  grid.push(section('per-agent', t(ctx, 'perAgent'), groupTable(ctx, named(perAgent(commits), false), 'agents')));
  grid.push(section('per-model', t(ctx, 'perModel'), groupTable(ctx, named(perModel(commits), true), 'models')));
  parts.push(`<div class="two-col">${grid.join('')}</div>`);

  const heat = fileHeat(commits, { path: ui.filter.path });
  parts.push(
    section(
      'heat',
      t(ctx, 'heat'),
      `<div class="two-col">${heatTable(ctx, heat.dirs, 'dirs', t(ctx, 'heatDirs'))}${heatTable(ctx, heat.files, 'files', t(ctx, 'heatFiles'))}</div>`,
    ),
  );

  const ranges = rangeSummaries(data, commits);
  const rp = paginate(ranges, ui.rangePage, rangePageSize);
  const rangeBody = ranges.length
    ? `<table class="grid" data-table="ranges">${ratioHead(ctx, t(ctx, 'colCommit'))}<tbody>${rp.items
        .map(
          (r) =>
            `<tr data-sha="${escapeHtml(r.range.sha)}"><th scope="row"><code>${escapeHtml(r.range.sha.slice(0, 8))}</code> ${escapeHtml(r.range.title)}<div class="muted small">${escapeHtml(formatDay(r.range.date.slice(0, 10), ctx.locale))} · ${escapeHtml(t(ctx, 'rangeCommits', r.range.commits.length))}</div></th>${ratioCells(ctx, r)}</tr>`,
        )
        .join('')}</tbody></table>${pager(ctx, 'ranges', rp.page, rp.pages)}`
    : `<p class="muted">${escapeHtml(t(ctx, 'rangesNone'))}</p>`;
  parts.push(section('ranges', t(ctx, 'ranges'), rangeBody));

  const cp = paginate(commits, ui.commitPage, commitPageSize);
  const list = commits.length
    ? `<table class="grid commits" data-table="commits"><thead><tr><th scope="col">${escapeHtml(t(ctx, 'colDate'))}</th><th scope="col">${escapeHtml(t(ctx, 'colCommit'))}</th><th scope="col">${escapeHtml(t(ctx, 'colAgent'))}</th><th scope="col" class="num">${escapeHtml(t(ctx, 'colRatio'))}</th></tr></thead><tbody>${cp.items
        .map((c) => commitRow(ctx, c))
        .join('')}</tbody></table>${pager(ctx, 'commits', cp.page, cp.pages)}`
    : `<p class="muted">${escapeHtml(t(ctx, 'nothing'))}</p>`;
  parts.push(section('commits', t(ctx, 'commits'), list, num(ctx, commits.length)));
  return parts.join('');
}

/** A message instead of the dashboard (no data, invalid data). */
export function renderMessage(strings: Record<string, string>, key: 'noData' | 'invalidData', reason = ''): string {
  return `<p class="message" role="alert">${escapeHtml(label(strings, dashboardDefaultStrings, key, reason))}</p>`;
}
