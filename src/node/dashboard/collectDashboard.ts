/**
 * Reads a repository's notes and commits into the dashboard's data (src/core/dashboard/dashboardData.ts).
 * Notes may come from a remote (untrusted): they are read through the NoteStore's tolerant decoder
 * under its read limits, and every prompt is redacted again before it is written anywhere.
 */
import * as path from 'node:path';
import { dashboardCommit, type CommitMeta } from '../../core/dashboard/aggregate';
import {
  dashboardSchemaVersion,
  dashboardTextLimits,
  type DashboardCommit,
  type DashboardData,
  type DashboardRange,
} from '../../core/dashboard/dashboardData';
import { isSafeRevision } from '../../core/git/gitArgs';
import { isObjectId } from '../../core/git/objectId';
import { type Clock, type Logger, nullLogger, systemClock } from '../../core/ports';
import { createRedactor } from '../../core/redaction/redactor';
import { cutText } from '../../core/text/escape';
import { BlobStore } from '../git/blobStore';
import type { GitRunner } from '../git/gitRunner';
import { NoteStore } from '../notes/noteStore';

export interface CollectOptions {
  /** Branches (or other revisions) to export; default: the current branch, else the default branch, else HEAD. */
  branches?: readonly string[];
  /** Also export notes of commits that are on none of the branches (when those commits exist locally). */
  allNotes?: boolean;
  /** Extra redaction patterns (the `agentNote.redaction.extraPatterns` setting). */
  redactionExtraPatterns?: readonly string[];
  /** Shown as the title (default: the repository folder's name). */
  repository?: string;
  strings?: Record<string, string>;
  /** Most merges looked at for PR-sized ranges (default 500). */
  maxRanges?: number;
  log?: Logger;
  clock?: Clock;
  /** Called with (done, total) while notes are read. */
  progress?: (done: number, total: number) => void;
}

export class DashboardError extends Error {
  constructor(
    readonly reason: 'notARepository' | 'badBranch' | 'noBranch',
    message: string,
  ) {
    super(message);
  }
}

const recordSep = '\x1e';
const fieldSep = '\x00';
const logFormat = '--format=%H%x00%P%x00%an%x00%cI%x00%s%x1e';

interface LoggedCommit extends CommitMeta {
  parents: string[];
}

function parseLog(out: string): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  for (const record of out.split(recordSep)) {
    const [sha, parents, author, date, subject] = record.replace(/^\n/, '').split(fieldSep);
    if (!isObjectId(sha)) continue;
    commits.push({
      sha,
      parents: (parents ?? '').split(' ').filter(isObjectId),
      author: author ?? '',
      date: date ?? '',
      subject: subject ?? '',
    });
  }
  return commits;
}

/** The branches to export when none are given: the current branch, else origin's default branch, else HEAD. */
export async function defaultBranches(git: GitRunner): Promise<string[]> {
  const current = (await git.tryRun(['symbolic-ref', '-q', '--short', 'HEAD'], { okExitCodes: [1] }))?.trim();
  if (current) return [current];
  const remoteHead = (await git.tryRun(['symbolic-ref', '-q', '--short', 'refs/remotes/origin/HEAD'], { okExitCodes: [1] }))?.trim();
  if (remoteHead) return [remoteHead];
  return ['HEAD'];
}

/** Collects the dashboard data of the repository `git` runs in. Throws DashboardError on bad input. */
export async function collectDashboard(git: GitRunner, opts: CollectOptions = {}): Promise<DashboardData> {
  const log = opts.log ?? nullLogger;
  const top = (await git.tryRun(['rev-parse', '--show-toplevel']))?.trim();
  if (!top) throw new DashboardError('notARepository', `not a git repository: ${git.cwd}`);
  const branches = opts.branches?.length ? [...new Set(opts.branches)] : await defaultBranches(git);
  const tips: string[] = [];
  for (const b of branches) {
    if (!isSafeRevision(b)) throw new DashboardError('badBranch', `not a branch or revision: ${b}`);
    const tip = (await git.tryRun(['rev-parse', '-q', '--verify', '--end-of-options', `${b}^{commit}`], { okExitCodes: [1] }))?.trim();
    if (!tip || !isObjectId(tip))
      throw new DashboardError(opts.branches?.length ? 'badBranch' : 'noBranch', `no such branch or commit: ${b}`);
    tips.push(tip);
  }

  // one rev-list per branch gives membership; one log over all of them the metadata
  const membership = new Map<string, number[]>();
  for (let i = 0; i < tips.length; i++) {
    const out = await git.run(['rev-list', '--end-of-options', tips[i]]);
    for (const sha of out.split('\n')) if (isObjectId(sha)) (membership.get(sha) ?? membership.set(sha, []).get(sha))?.push(i);
  }
  const logged = parseLog(await git.run(['log', '--no-color', '--date-order', logFormat, '--end-of-options', ...new Set(tips)]));

  const blobs = new BlobStore(git, { log });
  const notes = new NoteStore(git, { log, blobs, trustCacheUntilInvalidated: true });
  try {
    const noted = await notes.listNotedCommits();
    const outside = [...noted.keys()].filter((sha) => !membership.has(sha));
    let extra: LoggedCommit[] = [];
    if (opts.allNotes && outside.length) {
      const out = await git.tryRun(['log', '--no-color', '--no-walk=sorted', logFormat, '--stdin'], { input: `${outside.join('\n')}\n` });
      // a note of a commit that is not in this clone (not fetched) cannot be dated: left out
      extra = out ? parseLog(out) : await existingCommits(git, outside);
    }
    const redactor = createRedactor({ extraPatterns: opts.redactionExtraPatterns ?? [], logger: log });
    const redact = (t: string) => redactor.redact(t).text;
    const all = [...logged, ...extra];
    const total = all.filter((c) => noted.has(c.sha)).length;
    let done = 0;
    const rows: DashboardCommit[] = [];
    const chunk = 100;
    for (let i = 0; i < all.length; i += chunk) {
      const part = all.slice(i, i + chunk);
      const decoded = await Promise.all(part.map((c) => (noted.has(c.sha) ? notes.read(c.sha) : Promise.resolve(undefined))));
      part.forEach((c, j) => {
        const d = decoded[j];
        if (d) done++;
        rows.push(
          dashboardCommit(
            c,
            membership.get(c.sha) ?? [],
            d?.kind === 'valid' ? d.note : undefined,
            redact,
            d?.kind === 'invalid' ? d.reason : undefined,
          ),
        );
      });
      opts.progress?.(done, total);
    }
    rows.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    const included = new Set(rows.map((r) => r.sha));
    return {
      schema: dashboardSchemaVersion,
      generatedAt: new Date((opts.clock ?? systemClock).now()).toISOString(),
      repository: cutText(opts.repository ?? path.basename(top), dashboardTextLimits.repository),
      branches: branches.map((b) => cutText(b, dashboardTextLimits.branch)),
      commits: rows,
      ranges: await prRanges(git, tips, opts.maxRanges ?? 500),
      notesOutsideBranches: [...noted.keys()].filter((s) => !included.has(s)).length,
      strings: opts.strings ?? {},
    };
  } finally {
    blobs.dispose();
  }
}

/** The given commits that exist in the repository, with metadata (one git call each; rare path). */
async function existingCommits(git: GitRunner, shas: readonly string[]): Promise<LoggedCommit[]> {
  const found: LoggedCommit[] = [];
  for (const sha of shas) {
    const out = await git.tryRun(['log', '--no-color', '--no-walk', logFormat, '--end-of-options', sha]);
    if (out) found.push(...parseLog(out));
  }
  return found;
}

const squashSubject = /\(#\d+\)\s*$/;

/**
 * PR-sized ranges along each branch's first-parent line: a merge brings in `M^1..M^2`; a commit
 * whose subject ends in `(#123)` (a hosting service's squash merge) is a range of its own.
 */
export async function prRanges(git: GitRunner, tips: readonly string[], max: number): Promise<DashboardRange[]> {
  const ranges = new Map<string, DashboardRange>();
  for (const tip of tips) {
    const line = parseLog(await git.run(['log', '--no-color', '--first-parent', logFormat, '--end-of-options', tip]));
    for (const c of line) {
      if (ranges.size >= max) break;
      if (ranges.has(c.sha)) continue;
      if (c.parents.length >= 2) {
        const out = await git.tryRun(['rev-list', '--end-of-options', c.parents[1], `^${c.parents[0]}`]);
        const commits = (out ?? '').split('\n').filter(isObjectId);
        if (commits.length)
          ranges.set(c.sha, { sha: c.sha, title: cutText(c.subject, dashboardTextLimits.subject), date: c.date, commits });
      } else if (squashSubject.test(c.subject)) {
        ranges.set(c.sha, { sha: c.sha, title: cutText(c.subject, dashboardTextLimits.subject), date: c.date, commits: [c.sha] });
      }
    }
  }
  return [...ranges.values()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}
