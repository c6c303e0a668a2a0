/**
 * The dashboard's figures (pure): notes + commit metadata → the rows the page shows, and the
 * filters that narrow them. The page and the tests compute the very same numbers from here.
 *
 * Ratios: the **line ratio** is Σ AI-added lines / Σ added lines over the noted commits that carry
 * line counts (`attribution.lines`); the **mean ratio** is the mean `ai_ratio` over noted commits.
 * Commits without a note count towards coverage only: a gap is shown as a gap, never as 0 % AI.
 */
import type { AgentNoteV1 } from '../notes/noteTypes';
import { cutText } from '../text/escape';
import {
  dashboardPromptChars,
  dashboardTextLimits as L,
  dashboardPromptsPerCommit,
  type DashboardCommit,
  type DashboardData,
  type DashboardFile,
  type DashboardRange,
} from './dashboardData';

/** Commit metadata from git (one `git log` line). */
export interface CommitMeta {
  sha: string;
  subject: string;
  author: string;
  date: string;
}

/** The exported row of one commit; `redact` re-redacts every prompt (notes may come from anywhere). */
export function dashboardCommit(
  meta: CommitMeta,
  branches: number[],
  note: AgentNoteV1 | undefined,
  redact: (text: string) => string,
  invalid?: string,
): DashboardCommit {
  const base = {
    sha: meta.sha,
    subject: cutText(meta.subject, L.subject),
    author: cutText(meta.author, L.author),
    date: meta.date.slice(0, 64),
    branches,
  };
  if (!note) {
    return {
      ...base,
      noted: false,
      agent: null,
      model: null,
      ratio: 0,
      method: 'none',
      lines: null,
      files: [],
      prompts: [],
      interactions: 0,
      ...(invalid ? { invalid: cutText(invalid, L.reason) } : {}),
    };
  }
  const files: DashboardFile[] = note.files.map((f) => ({
    path: cutText(f.path, L.path),
    ai: f.by_ai === true,
    aiLines: (f.ai_ranges ?? []).reduce((n, r) => n + Math.max(0, r.end - r.start + 1), 0),
  }));
  const lines = note.attribution.lines;
  const ratio = Number.isFinite(note.attribution.ai_ratio) ? Math.max(0, Math.min(100, note.attribution.ai_ratio)) : 0;
  return {
    ...base,
    noted: true,
    agent: note.agent === null ? null : cutText(note.agent, L.name),
    model: note.model === null ? null : cutText(note.model, L.name),
    ratio,
    method: note.attribution.method,
    lines: lines ? { aiAdded: lines.ai_added, totalAdded: lines.total_added, deleted: lines.deleted } : null,
    files,
    prompts: note.interactions
      .slice(0, dashboardPromptsPerCommit)
      .map((i) => cutText(redact(typeof i.prompt === 'string' ? i.prompt : ''), dashboardPromptChars)),
    interactions: note.interactions.length,
  };
}

/** What the page lets a reader narrow the figures to. Empty / undefined fields do not filter. */
export interface DashboardFilter {
  /** Index into DashboardData.branches. */
  branch?: number;
  /** Agent name; `''` selects commits whose note names no agent. */
  agent?: string;
  model?: string;
  /** Inclusive day bounds, `YYYY-MM-DD` (UTC). */
  from?: string;
  to?: string;
  /** A path or directory prefix (`src/` or `src/a.ts`): commits touching it, and only its files in the heat view. */
  path?: string;
}

export interface RatioSummary {
  commits: number;
  noted: number;
  aiAdded: number;
  totalAdded: number;
  /** Σ aiAdded / Σ totalAdded × 100, null when no commit has line counts. */
  lineRatio: number | null;
  /** Mean ai_ratio of noted commits, null when none is noted. */
  meanRatio: number | null;
}

function pathMatches(path: string, prefix: string): boolean {
  if (!prefix) return true;
  if (prefix.endsWith('/')) return path.startsWith(prefix);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The commits the filter keeps, in the data's order (newest first). */
export function filterCommits(data: DashboardData, filter: DashboardFilter): DashboardCommit[] {
  const path = filter.path?.trim().replace(/^\.?\//, '') ?? '';
  return data.commits.filter((c) => {
    if (filter.branch !== undefined && !c.branches.includes(filter.branch)) return false;
    if (filter.agent !== undefined && (c.agent ?? '') !== filter.agent) return false;
    if (filter.model !== undefined && (c.model ?? '') !== filter.model) return false;
    const day = c.date.slice(0, 10);
    if (filter.from && day < filter.from) return false;
    if (filter.to && day > filter.to) return false;
    if (path && !c.files.some((f) => pathMatches(f.path, path))) return false;
    return true;
  });
}

/** Coverage and both ratios of a set of commits. */
export function summarize(commits: readonly DashboardCommit[]): RatioSummary {
  let noted = 0;
  let aiAdded = 0;
  let totalAdded = 0;
  let withLines = 0;
  let ratioSum = 0;
  for (const c of commits) {
    if (!c.noted) continue;
    noted++;
    ratioSum += c.ratio;
    if (c.lines) {
      withLines++;
      aiAdded += c.lines.aiAdded;
      totalAdded += c.lines.totalAdded;
    }
  }
  return {
    commits: commits.length,
    noted,
    aiAdded,
    totalAdded,
    lineRatio: withLines > 0 && totalAdded > 0 ? (aiAdded / totalAdded) * 100 : null,
    meanRatio: noted > 0 ? ratioSum / noted : null,
  };
}

export interface TimeBucket extends RatioSummary {
  /** First day of the bucket, `YYYY-MM-DD` (UTC). */
  start: string;
}

export type BucketSize = 'day' | 'week' | 'month';

/** The bucket size that gives a readable chart for a span of days (≤ ~60 buckets). */
export function bucketSizeFor(days: number): BucketSize {
  if (days <= 45) return 'day';
  if (days <= 7 * 60) return 'week';
  return 'month';
}

function bucketStart(iso: string, size: BucketSize): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'unknown';
  if (size === 'month') return `${d.toISOString().slice(0, 7)}-01`;
  if (size === 'week') {
    // ISO weeks start on Monday (UTC)
    const dow = (d.getUTCDay() + 6) % 7;
    d.setUTCDate(d.getUTCDate() - dow);
  }
  return d.toISOString().slice(0, 10);
}

/** Ratio over time, oldest bucket first; the bucket size follows the span unless given. */
export function ratioOverTime(commits: readonly DashboardCommit[], size?: BucketSize): { size: BucketSize; buckets: TimeBucket[] } {
  const times = commits.map((c) => new Date(c.date).getTime()).filter((t) => Number.isFinite(t));
  const span = times.length ? (Math.max(...times) - Math.min(...times)) / 86_400_000 : 0;
  const s = size ?? bucketSizeFor(span);
  const groups = new Map<string, DashboardCommit[]>();
  for (const c of commits) {
    const k = bucketStart(c.date, s);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(c);
  }
  const buckets = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([start, g]) => ({ start, ...summarize(g) }));
  return { size: s, buckets };
}

export interface GroupRow extends RatioSummary {
  key: string;
  agent: string | null;
  model: string | null;
}

function sortRows<T extends RatioSummary & { key: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => b.noted - a.noted || b.commits - a.commits || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Per exported branch (index order of data.branches). */
export function perBranch(data: DashboardData, commits: readonly DashboardCommit[]): (RatioSummary & { branch: string })[] {
  return data.branches.map((branch, i) => ({ branch, ...summarize(commits.filter((c) => c.branches.includes(i))) }));
}

/** Per agent (noted commits only), most noted first. */
export function perAgent(commits: readonly DashboardCommit[]): GroupRow[] {
  const groups = new Map<string, DashboardCommit[]>();
  for (const c of commits) {
    if (!c.noted) continue;
    const k = c.agent ?? '';
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(c);
  }
  return sortRows([...groups.entries()].map(([key, g]) => ({ key, agent: key || null, model: null, ...summarize(g) })));
}

/** Per agent and model (noted commits only), most noted first. */
export function perModel(commits: readonly DashboardCommit[]): GroupRow[] {
  const groups = new Map<string, { agent: string | null; model: string | null; commits: DashboardCommit[] }>();
  for (const c of commits) {
    if (!c.noted) continue;
    const key = `${c.agent ?? ''}\u0000${c.model ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { agent: c.agent, model: c.model, commits: [] }));
    g.commits.push(c);
  }
  return sortRows([...groups.entries()].map(([key, g]) => ({ key, agent: g.agent, model: g.model, ...summarize(g.commits) })));
}

export interface HeatRow {
  /** A file path, or a directory with a trailing `/` (`''` is the repository root). */
  path: string;
  /** Noted commits that touched it. */
  commits: number;
  /** Of those, the ones whose note says AI wrote it (`by_ai`). */
  aiCommits: number;
  /** AI lines from `ai_ranges`. */
  aiLines: number;
  /** aiCommits / commits × 100. */
  heat: number;
}

/**
 * Per file and per directory: how often notes say AI wrote it. `depth` limits directories to
 * that many levels (files are always listed). Rows sorted by heat, then activity.
 */
export function fileHeat(
  commits: readonly DashboardCommit[],
  opts: { path?: string; depth?: number } = {},
): { files: HeatRow[]; dirs: HeatRow[] } {
  const prefix = opts.path?.trim().replace(/^\.?\//, '') ?? '';
  const depth = opts.depth ?? 2;
  const files = new Map<string, HeatRow>();
  const dirs = new Map<string, HeatRow>();
  const add = (map: Map<string, HeatRow>, path: string, f: DashboardFile) => {
    let r = map.get(path);
    if (!r) map.set(path, (r = { path, commits: 0, aiCommits: 0, aiLines: 0, heat: 0 }));
    r.commits++;
    if (f.ai) r.aiCommits++;
    r.aiLines += f.aiLines;
  };
  for (const c of commits) {
    if (!c.noted) continue;
    for (const f of c.files) {
      if (!pathMatches(f.path, prefix)) continue;
      add(files, f.path, f);
      const parts = f.path.split('/').slice(0, -1);
      for (let i = 1; i <= Math.min(depth, parts.length); i++) add(dirs, `${parts.slice(0, i).join('/')}/`, f);
    }
  }
  const done = (m: Map<string, HeatRow>) =>
    [...m.values()]
      .map((r) => ({ ...r, heat: r.commits ? (r.aiCommits / r.commits) * 100 : 0 }))
      .sort((a, b) => b.heat - a.heat || b.aiLines - a.aiLines || b.commits - a.commits || (a.path < b.path ? -1 : 1));
  return { files: done(files), dirs: done(dirs) };
}

export interface RangeRow extends RatioSummary {
  range: DashboardRange;
}

/** PR-sized ranges with the figures of their commits that pass the filter (empty ranges dropped). */
export function rangeSummaries(data: DashboardData, commits: readonly DashboardCommit[]): RangeRow[] {
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  const rows: RangeRow[] = [];
  for (const range of data.ranges) {
    const inRange = range.commits.map((s) => bySha.get(s)).filter((c): c is DashboardCommit => c !== undefined);
    if (inRange.length) rows.push({ range, ...summarize(inRange) });
  }
  return rows;
}

/** One page of a list (1-based page numbers, clamped). */
export function paginate<T>(items: readonly T[], page: number, pageSize: number): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / pageSize));
  const p = Math.min(pages, Math.max(1, Math.floor(page) || 1));
  return { items: items.slice((p - 1) * pageSize, p * pageSize), page: p, pages };
}

/** Distinct agents and models of the data (for the filter menus), sorted. */
export function filterOptions(data: DashboardData): { agents: string[]; models: string[] } {
  const agents = new Set<string>();
  const models = new Set<string>();
  for (const c of data.commits) {
    if (!c.noted) continue;
    agents.add(c.agent ?? '');
    models.add(c.model ?? '');
  }
  return { agents: [...agents].sort(), models: [...models].sort() };
}
