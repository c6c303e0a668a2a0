/**
 * The data file of the static dashboard (docs/architecture.md, "Dashboard"): what
 * src/node/dashboard/collectDashboard.ts writes into `dashboard-data.js` and the page reads back.
 * Every string in it comes from notes or commits (hostile input): the page escapes all of them, and
 * validates the whole object with {@link dashboardDataSchema} before it renders anything.
 */
import { z } from 'zod';
import { objectIdPattern } from '../git/objectId';

/** Bumped on an incompatible change of {@link DashboardData}. */
export const dashboardSchemaVersion = 1;

/** Longest prompt text kept per interaction in the data file (code points). */
export const dashboardPromptChars = 600;
/**
 * Longest text (code points) of each other field; the collector cuts to these (cutText), so one
 * hostile note can never make the page refuse the whole file. The schema allows two UTF-16 code
 * units per code point.
 */
export const dashboardTextLimits = {
  name: 200,
  subject: 1000,
  author: 200,
  path: 2048,
  reason: 300,
  branch: 300,
  repository: 300,
} as const;
/** Prompts kept per commit in the data file. */
export const dashboardPromptsPerCommit = 5;

export interface DashboardFile {
  path: string;
  /** The note says the file was written by AI (`files[].by_ai`). */
  ai: boolean;
  /** AI lines from `files[].ai_ranges` (0 when the note has none). */
  aiLines: number;
}

export interface DashboardCommit {
  sha: string;
  subject: string;
  author: string;
  /** Committer date, ISO 8601. */
  date: string;
  /** Indices into {@link DashboardData.branches} of the exported branches that contain the commit. */
  branches: number[];
  /** False: the commit has no (usable) note; the note fields below are then empty. */
  noted: boolean;
  agent: string | null;
  model: string | null;
  /** `attribution.ai_ratio`, 0–100. */
  ratio: number;
  method: 'line' | 'file' | 'none';
  /** `attribution.lines`, when the note has it. */
  lines: { aiAdded: number; totalAdded: number; deleted: number } | null;
  files: DashboardFile[];
  /** The first prompts of the note, redacted again on export and cut to {@link dashboardPromptChars}. */
  prompts: string[];
  interactions: number;
  /** Why a note of this commit could not be read (never its text). */
  invalid?: string;
}

/** A PR-sized range: the commits a merge brought in, or one squash-merged commit. */
export interface DashboardRange {
  /** The merge (or squash) commit. */
  sha: string;
  title: string;
  date: string;
  /** Commits of the range (the merge's second-parent side, or the squash commit itself). */
  commits: string[];
}

export interface DashboardData {
  schema: typeof dashboardSchemaVersion;
  generatedAt: string;
  repository: string;
  branches: string[];
  /** Newest first. */
  commits: DashboardCommit[];
  ranges: DashboardRange[];
  /** Notes left out because their commits are not on the exported branches. */
  notesOutsideBranches: number;
  /** Localized UI labels; missing keys fall back to the page's English defaults. */
  strings: Record<string, string>;
}

const str = (max: number) => z.string().max(max);
/** A text cut to `points` code points. */
const cut = (points: number) => z.string().max(2 * points);
const L = dashboardTextLimits;
const objectId = z.string().regex(objectIdPattern);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const dashboardFileSchema = z.object({ path: cut(L.path), ai: z.boolean(), aiLines: count });

export const dashboardCommitSchema = z.object({
  sha: objectId,
  subject: cut(L.subject),
  author: cut(L.author),
  date: str(64),
  branches: z.array(z.number().int().min(0).max(10_000)).max(10_000),
  noted: z.boolean(),
  agent: cut(L.name).nullable(),
  model: cut(L.name).nullable(),
  ratio: z.number().min(0).max(100),
  method: z.enum(['line', 'file', 'none']),
  lines: z.object({ aiAdded: count, totalAdded: count, deleted: count }).nullable(),
  files: z.array(dashboardFileSchema).max(100_000),
  prompts: z.array(cut(dashboardPromptChars)).max(dashboardPromptsPerCommit),
  interactions: count,
  invalid: cut(L.reason).optional(),
});

export const dashboardRangeSchema = z.object({
  sha: objectId,
  title: cut(L.subject),
  date: str(64),
  commits: z.array(objectId).max(1_000_000),
});

/** Validates the data the page loads (it may have been edited or come from anywhere). */
export const dashboardDataSchema = z.object({
  schema: z.literal(dashboardSchemaVersion),
  generatedAt: str(64),
  repository: cut(L.repository),
  branches: z.array(cut(L.branch)).max(10_000),
  commits: z.array(dashboardCommitSchema).max(1_000_000),
  ranges: z.array(dashboardRangeSchema).max(1_000_000),
  notesOutsideBranches: count,
  strings: z.record(z.string(), str(2000)),
});

/** The data, or a short reason it cannot be shown. */
export function parseDashboardData(value: unknown): { ok: true; data: DashboardData } | { ok: false; reason: string } {
  const r = dashboardDataSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, reason: issue ? `${issue.path.join('.') || 'data'}: ${issue.message}` : 'invalid data' };
  }
  const data = r.data as DashboardData;
  const bad = data.commits.find((c) => c.branches.some((b) => b >= data.branches.length));
  if (bad) return { ok: false, reason: `commit ${bad.sha.slice(0, 12)} names an unknown branch` };
  return { ok: true, data };
}
