import * as assert from 'node:assert/strict';
import {
  bucketSizeFor,
  dashboardCommit,
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
} from '../../../src/core/dashboard/aggregate';
import { dashboardPromptChars, parseDashboardData } from '../../../src/core/dashboard/dashboardData';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { createRedactor } from '../../../src/core/redaction/redactor';
import { sampleData, sampleShas } from './sample';

const near = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);

describe('dashboard aggregates (synthetic notes, exact figures)', () => {
  it('summarizes coverage, the line ratio and the mean ratio', () => {
    const s = summarize(sampleData().commits);
    assert.equal(s.commits, 5);
    assert.equal(s.noted, 4);
    assert.equal(s.aiAdded, 40);
    assert.equal(s.totalAdded, 110);
    near(s.lineRatio, (40 / 110) * 100);
    near(s.meanRatio, 48);
    assert.deepEqual(summarize([]), { commits: 0, noted: 0, aiAdded: 0, totalAdded: 0, lineRatio: null, meanRatio: null });
  });

  it('a commit without a note is a gap, never 0 % AI', () => {
    const d = sampleData();
    const unnoted = d.commits.filter((c) => !c.noted);
    const s = summarize(unnoted);
    assert.equal(s.lineRatio, null);
    assert.equal(s.meanRatio, null);
    assert.equal(s.commits, 1);
  });

  it('filters by branch, agent, model, days and path', () => {
    const d = sampleData();
    const shas = (f: Parameters<typeof filterCommits>[1]) => filterCommits(d, f).map((c) => c.sha);
    assert.deepEqual(shas({ branch: 0 }), [sampleShas.c4, sampleShas.c3, sampleShas.c2, sampleShas.c1]);
    assert.deepEqual(shas({ agent: 'codex' }), [sampleShas.c2]);
    assert.deepEqual(shas({ agent: '' }), [sampleShas.c4], 'no agent: the unnoted commit');
    assert.deepEqual(shas({ model: 'claude-opus-4-6' }), [sampleShas.c3]);
    assert.deepEqual(shas({ from: '2026-03-03', to: '2026-03-04' }), [sampleShas.c3, sampleShas.c2]);
    assert.deepEqual(shas({ path: 'src/core/' }), [sampleShas.c2, sampleShas.c1]);
    assert.deepEqual(shas({ path: 'src/core' }), [sampleShas.c2, sampleShas.c1], 'a folder without the slash');
    assert.deepEqual(shas({ path: 'src/core/b.ts' }), [sampleShas.c1]);
    assert.deepEqual(shas({ path: 'src/co' }), [], 'a prefix of a name is not a folder');
    near(summarize(filterCommits(d, { agent: 'claude' })).lineRatio, (30 / 50) * 100);
  });

  it('buckets the ratio over time by day, week or month', () => {
    const d = sampleData();
    const byDay = ratioOverTime(d.commits);
    assert.equal(byDay.size, 'day');
    assert.deepEqual(
      byDay.buckets.map((b) => [b.start, b.commits, b.noted, b.lineRatio === null ? null : Math.round(b.lineRatio)]),
      [
        ['2026-03-02', 1, 1, 75],
        ['2026-03-03', 1, 1, 17],
        ['2026-03-04', 1, 1, null],
        ['2026-03-05', 1, 0, null],
        ['2026-03-09', 1, 1, 0],
      ],
    );
    const byWeek = ratioOverTime(d.commits, 'week');
    // 2026-03-02 is a Monday; 03-09 the next one
    assert.deepEqual(
      byWeek.buckets.map((b) => [b.start, b.commits]),
      [
        ['2026-03-02', 4],
        ['2026-03-09', 1],
      ],
    );
    assert.deepEqual(
      ratioOverTime(d.commits, 'month').buckets.map((b) => b.start),
      ['2026-03-01'],
    );
    assert.equal(bucketSizeFor(10), 'day');
    assert.equal(bucketSizeFor(200), 'week');
    assert.equal(bucketSizeFor(1000), 'month');
  });

  it('groups per branch, per agent and per agent and model', () => {
    const d = sampleData();
    const branches = perBranch(d, d.commits);
    assert.deepEqual(
      branches.map((b) => [b.branch, b.commits, b.noted, b.aiAdded, b.totalAdded]),
      [
        ['main', 4, 3, 40, 100],
        ['feature', 5, 4, 40, 110],
      ],
    );
    const agents = perAgent(d.commits);
    assert.deepEqual(
      agents.map((a) => [a.agent, a.noted, a.aiAdded, a.totalAdded, a.meanRatio]),
      [
        ['claude', 3, 30, 50, 175 / 3],
        ['codex', 1, 10, 60, 17],
      ],
    );
    const models = perModel(d.commits);
    assert.deepEqual(
      models.map((m) => [m.agent, m.model, m.noted]),
      [
        ['claude', 'claude-sonnet-4-5', 2],
        ['claude', 'claude-opus-4-6', 1],
        ['codex', 'gpt-5-codex', 1],
      ],
    );
    assert.deepEqual(filterOptions(d), { agents: ['claude', 'codex'], models: ['claude-opus-4-6', 'claude-sonnet-4-5', 'gpt-5-codex'] });
  });

  it('computes the file and folder heat', () => {
    const d = sampleData();
    const heat = fileHeat(d.commits);
    const file = (p: string) => heat.files.find((f) => f.path === p);
    assert.deepEqual(file('src/core/a.ts'), { path: 'src/core/a.ts', commits: 2, aiCommits: 2, aiLines: 30, heat: 100 });
    assert.deepEqual(file('test/a.test.ts'), { path: 'test/a.test.ts', commits: 1, aiCommits: 0, aiLines: 0, heat: 0 });
    const dir = (p: string) => heat.dirs.find((f) => f.path === p);
    assert.equal(dir('src/')?.commits, 4);
    assert.equal(dir('src/')?.aiCommits, 4);
    assert.equal(dir('src/core/')?.aiLines, 40);
    assert.equal(dir('docs/')?.heat, 0);
    assert.equal(heat.files[0].heat, 100, 'hottest first');
    assert.deepEqual(
      fileHeat(d.commits, { path: 'src/ui' }).files.map((f) => f.path),
      ['src/ui/view.ts'],
    );
    assert.deepEqual(
      fileHeat(d.commits, { depth: 1 })
        .dirs.map((f) => f.path)
        .sort(),
      ['docs/', 'src/', 'test/'],
    );
  });

  it('sums PR-sized ranges over the commits that pass the filter', () => {
    const d = sampleData();
    const [r] = rangeSummaries(d, d.commits);
    assert.equal(r.commits, 3);
    assert.equal(r.aiAdded, 40);
    assert.equal(r.totalAdded, 100);
    assert.deepEqual(
      rangeSummaries(d, filterCommits(d, { agent: 'codex' })).map((x) => x.commits),
      [1],
    );
    assert.deepEqual(rangeSummaries(d, filterCommits(d, { path: 'docs/' })), [], 'empty ranges are dropped');
  });

  it('paginates (clamped pages)', () => {
    const items = Array.from({ length: 120 }, (_, i) => i);
    assert.deepEqual(paginate(items, 1, 50).items.length, 50);
    assert.deepEqual(paginate(items, 3, 50), { items: items.slice(100), page: 3, pages: 3 });
    assert.equal(paginate(items, 9, 50).page, 3);
    assert.equal(paginate(items, -1, 50).page, 1);
    assert.deepEqual(paginate([], 1, 50), { items: [], page: 1, pages: 1 });
  });

  it('builds a commit row from a note: redacted, cut prompts; AI lines from ai_ranges', () => {
    const note: AgentNoteV1 = {
      v: 1,
      agent: 'claude',
      session_id: 's',
      timestamp: '2026-03-02T08:00:00Z',
      model: null,
      interactions: [
        { prompt: 'use key AKIAIOSFODNN7EXAMPLE and token ghp_abcdefghijklmnopqrstuvwxyz0123456789', response: null },
        { prompt: 'x'.repeat(dashboardPromptChars + 50), response: null },
        ...Array.from({ length: 6 }, (_, i) => ({ prompt: `p${i}`, response: null })),
      ],
      files: [
        {
          path: 'a.ts',
          by_ai: true,
          ai_ranges: [
            { start: 1, end: 5, interaction: 0 },
            { start: 10, end: 10, interaction: 1 },
          ],
        },
        { path: 'b.ts', by_ai: false },
      ],
      attribution: { ai_ratio: 60, method: 'line', lines: { ai_added: 6, total_added: 10, deleted: 1 } },
    };
    const redactor = createRedactor();
    const row = dashboardCommit(
      { sha: sampleShas.c1, subject: 's', author: 'a', date: '2026-03-02T08:00:00Z' },
      [0],
      note,
      (t) => redactor.redact(t).text,
    );
    assert.equal(row.noted, true);
    assert.equal(row.interactions, 8);
    assert.equal(row.prompts.length, 5);
    assert.ok(!row.prompts[0].includes('AKIAIOSFODNN7EXAMPLE') && !row.prompts[0].includes('ghp_abc'), row.prompts[0]);
    assert.match(row.prompts[0], /\[REDACTED:/);
    assert.equal([...row.prompts[1]].length, dashboardPromptChars);
    assert.ok(row.prompts[1].endsWith('…'));
    assert.deepEqual(row.files, [
      { path: 'a.ts', ai: true, aiLines: 6 },
      { path: 'b.ts', ai: false, aiLines: 0 },
    ]);
    assert.deepEqual(row.lines, { aiAdded: 6, totalAdded: 10, deleted: 1 });
    const none = dashboardCommit({ sha: sampleShas.c2, subject: 's', author: 'a', date: 'd' }, [], undefined, (t) => t, 'not JSON');
    assert.equal(none.noted, false);
    assert.equal(none.invalid, 'not JSON');
  });

  it('validates the data the page loads', () => {
    assert.equal(parseDashboardData(sampleData()).ok, true);
    assert.equal(parseDashboardData(JSON.parse(JSON.stringify(sampleData()))).ok, true);
    const bad = (mut: (d: ReturnType<typeof sampleData>) => unknown) => {
      const d = sampleData();
      const v = mut(d) ?? d;
      const r = parseDashboardData(v);
      assert.equal(r.ok, false);
      return r.ok ? '' : r.reason;
    };
    assert.equal(parseDashboardData(null).ok, false);
    assert.equal(parseDashboardData('x').ok, false);
    bad((d) => ({ ...d, schema: 2 }));
    assert.match(
      bad((d) => void (d.commits[0].sha = 'not-a-sha')),
      /commits\.0\.sha/,
    );
    bad((d) => void (d.commits[0].ratio = 101));
    bad((d) => void ((d.commits[0] as { files: unknown }).files = 'x'));
    assert.match(
      bad((d) => void (d.commits[0].branches = [7])),
      /unknown branch/,
    );
  });
});
