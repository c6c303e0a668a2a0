import type { GitRunner } from '../node/git/gitRunner';

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

/** Commits reachable from `rev` (newest first). */
export async function logCommits(git: GitRunner, rev: string, max = 200): Promise<CommitSummary[]> {
  const out = await git.tryRun(['log', `-n${max}`, `--format=${fmt}`, rev, '--']);
  return out ? parse(out) : [];
}

export async function commitSummary(git: GitRunner, sha: string): Promise<CommitSummary | undefined> {
  const out = await git.tryRun(['log', '-n1', `--format=${fmt}`, sha, '--']);
  return out ? parse(out)[0] : undefined;
}

/** Commits in `base..head`, oldest first (for the PR report). */
export async function rangeCommits(git: GitRunner, base: string, head = 'HEAD'): Promise<CommitSummary[]> {
  const out = await git.tryRun(['log', '--reverse', `--format=${fmt}`, `${base}..${head}`, '--']);
  return out ? parse(out) : [];
}
