import type { GitRunner } from '../node/git/gitRunner';
import { isSafeRevision } from '../core/git/gitArgs';

export interface CommitSummary {
  sha: string;
  short: string;
  subject: string;
  author: string;
  /** ISO-8601 author date. */
  date: string;
  /** Commit time, epoch ms. */
  time: number;
}

const fmt = '%H%x1f%h%x1f%s%x1f%an%x1f%aI%x1f%ct%x1e';

function parse(out: string): CommitSummary[] {
  return out
    .split('\x1e')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const [sha, short, subject, author, date, ct] = r.split('\x1f');
      return { sha, short, subject, author, date, time: Number(ct) * 1000 };
    });
}

// Revisions come from command arguments and input boxes: validated, and after --end-of-options
// so that even a value starting with `-` (`--output=…`) can never be an option.

/** Commits reachable from `rev` (newest first). */
export async function logCommits(git: GitRunner, rev: string, max = 200): Promise<CommitSummary[]> {
  if (!isSafeRevision(rev)) return [];
  const out = await git.tryRun(['log', `-n${Math.max(1, Math.floor(max))}`, `--format=${fmt}`, '--end-of-options', rev, '--']);
  return out ? parse(out) : [];
}

export async function commitSummary(git: GitRunner, sha: string): Promise<CommitSummary | undefined> {
  if (!isSafeRevision(sha)) return undefined;
  const out = await git.tryRun(['log', '-n1', `--format=${fmt}`, '--end-of-options', sha, '--']);
  return out ? parse(out)[0] : undefined;
}

/** Commits in `base..head`, oldest first (for the PR report); none when a revision is not acceptable. */
export async function rangeCommits(git: GitRunner, base: string, head = 'HEAD', max = 100_000): Promise<CommitSummary[]> {
  if (!isSafeRevision(base) || !isSafeRevision(head)) return [];
  // -n keeps the newest `max` commits; --reverse then lists them oldest first
  const out = await git.tryRun([
    'log',
    '--reverse',
    `-n${Math.max(1, Math.floor(max))}`,
    `--format=${fmt}`,
    '--end-of-options',
    `${base}..${head}`,
    '--',
  ]);
  return out ? parse(out) : [];
}
