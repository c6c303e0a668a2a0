/** A small synthetic dashboard data set with figures that are easy to check by hand. */
import type { DashboardCommit, DashboardData } from '../../../src/core/dashboard/dashboardData';

const sha = (n: number) => n.toString(16).padStart(40, '0');

function commit(n: number, over: Partial<DashboardCommit>): DashboardCommit {
  return {
    sha: sha(n),
    subject: `commit ${n}`,
    author: 'Ann Dev',
    date: '2026-03-02T10:00:00+00:00',
    branches: [0],
    noted: true,
    agent: 'claude',
    model: 'claude-sonnet-4-5',
    ratio: 0,
    method: 'line',
    lines: null,
    files: [],
    prompts: [],
    interactions: 1,
    ...over,
  };
}

export const sampleShas = { c1: sha(1), c2: sha(2), c3: sha(3), c4: sha(4), c5: sha(5), merge: sha(9) };

/**
 * c1 claude 30/40 lines (75 %), c2 codex 10/60 (17 %), c3 claude file-level 100 % (no lines),
 * c4 no note, c5 claude on branch 1 only, 0/10.
 * Line ratio over all: (30+10+0)/(40+60+10) = 40/110 = 36.36 %; mean: (75+17+100+0)/4 = 48.
 */
export function sampleData(): DashboardData {
  return {
    schema: 1,
    generatedAt: '2026-03-10T00:00:00.000Z',
    repository: 'sample',
    branches: ['main', 'feature'],
    commits: [
      commit(5, {
        date: '2026-03-09T08:00:00+00:00',
        branches: [1],
        ratio: 0,
        lines: { aiAdded: 0, totalAdded: 10, deleted: 0 },
        files: [{ path: 'docs/readme.md', ai: false, aiLines: 0 }],
      }),
      commit(4, {
        date: '2026-03-05T08:00:00+00:00',
        noted: false,
        agent: null,
        model: null,
        method: 'none',
        interactions: 0,
        branches: [0, 1],
      }),
      commit(3, {
        date: '2026-03-04T08:00:00+00:00',
        branches: [0, 1],
        ratio: 100,
        method: 'file',
        model: 'claude-opus-4-6',
        files: [{ path: 'src/ui/view.ts', ai: true, aiLines: 0 }],
      }),
      commit(2, {
        date: '2026-03-03T08:00:00+00:00',
        branches: [0, 1],
        agent: 'codex',
        model: 'gpt-5-codex',
        ratio: 17,
        lines: { aiAdded: 10, totalAdded: 60, deleted: 2 },
        files: [
          { path: 'src/core/a.ts', ai: true, aiLines: 10 },
          { path: 'test/a.test.ts', ai: false, aiLines: 0 },
        ],
      }),
      commit(1, {
        date: '2026-03-02T08:00:00+00:00',
        branches: [0, 1],
        ratio: 75,
        lines: { aiAdded: 30, totalAdded: 40, deleted: 0 },
        files: [
          { path: 'src/core/a.ts', ai: true, aiLines: 20 },
          { path: 'src/core/b.ts', ai: true, aiLines: 10 },
        ],
        prompts: ['Write a and b <img src=x onerror=alert(1)>'],
      }),
    ],
    ranges: [{ sha: sha(9), title: 'Merge pull request #1', date: '2026-03-06T00:00:00+00:00', commits: [sha(1), sha(2), sha(3)] }],
    notesOutsideBranches: 0,
    strings: {},
  };
}
