// Self-test of the benchmark's own pieces (not of the extension): statistics, goal evaluation,
// report rendering, and that the generated data is what the benchmark claims (valid notes, blame
// answers matching the generator's line owners, transcripts accepted by our parsers and found by
// discovery in the agents' default layouts). Run: node esbuild.mjs && node --test scripts/bench/selfTest.mjs
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bootstrapInterval, gitSync, ratioInterval, rng, src, summarize } from './common.mjs';
import { buildHistoryRepo, pickNotedLines } from './gitData.mjs';
import { markdownReport, markdownTable, row } from './report.mjs';
import { buildRows, timelineRows } from './rows.mjs';
import { syntheticTimeline, timelineBench } from './timelineBench.mjs';
import { MiB, writeTranscripts } from './transcripts.mjs';

describe('summarize', () => {
  it('gives nearest-rank p95, median, min and max', () => {
    const s = summarize(Array.from({ length: 20 }, (_, i) => 20 - i));
    assert.deepEqual({ n: s.n, median: s.median, p95: s.p95, min: s.min, max: s.max }, { n: 20, median: 10.5, p95: 19, min: 1, max: 20 });
    assert.equal(summarize([3, 1, 2]).median, 2);
    assert.equal(summarize([]).n, 0);
    assert.equal(summarize([5, NaN, 7]).n, 2);
  });
});

describe('timeline v2 rows', () => {
  it('measures model + layout of the synthetic snapshot and judges both rows', () => {
    const snap = syntheticTimeline(2000);
    assert.equal(snap.entries.length + snap.sessions.length > 2000, true);
    assert.ok(snap.entries.some((e) => e.kind === 'commit' && (e.files?.length ?? 0) > 0));
    const r = timelineBench({ events: 2000, samples: 3 });
    assert.equal(r.samples.length, 3);
    assert.ok(r.drawnFit <= r.lanes * (r.width / 16 + 1), 'drawn elements bounded by the width');
    const rows = timelineRows({ timeline: r });
    assert.deepEqual(
      rows.map((x) => x.id),
      ['timeline-model', 'timeline-frame'],
    );
    assert.deepEqual(
      timelineRows({}).map((x) => x.status),
      ['missing', 'missing'],
    );
  });
});

describe('bootstrap intervals', () => {
  it('contain the point estimate, are deterministic, and shrink to a point without noise', () => {
    const a = Array.from({ length: 25 }, (_, i) => 100 + ((i * 37) % 23));
    const b = Array.from({ length: 25 }, (_, i) => 80 + ((i * 11) % 17));
    const interval = ratioInterval(a, b);
    assert.ok(interval);
    const [lo, hi] = interval;
    const point = summarize(a).median / summarize(b).median;
    assert.ok(lo <= point && point <= hi && lo < hi);
    assert.deepEqual(ratioInterval(a, b), [lo, hi]);
    assert.deepEqual(ratioInterval([5, 5, 5], [2, 2]), [2.5, 2.5]);
    assert.deepEqual(
      bootstrapInterval([[4], [2], [1], [1]], (w, x, y, z) => w / x / (y / z)),
      [2, 2],
    );
    assert.equal(ratioInterval([], [1]), undefined);
  });
});

describe('goal rows', () => {
  const lowIsGood = (s) => s.median <= 10 || `median ${s.median}`;
  it('passes, fails with a reason, or is missing without samples', () => {
    assert.equal(row({ id: 'a', what: 'a', unit: 'ms', samples: [1, 2, 3], check: lowIsGood }).status, 'pass');
    const f = row({ id: 'b', what: 'b', unit: 'ms', samples: [11, 12, 13], check: lowIsGood });
    assert.deepEqual([f.status, f.reason], ['fail', 'median 12']);
    assert.equal(row({ id: 'c', what: 'c', unit: 'ms', samples: [], check: lowIsGood, note: 'n/a' }).status, 'missing');
    assert.equal(row({ id: 'd', what: 'd', unit: 'ms', samples: [1] }).status, 'info');
  });
  it('computes the ratio measured ÷ baseline from medians (or takes the given one)', () => {
    assert.equal(row({ id: 'r', what: 'r', unit: 'ms', samples: [2, 2, 2], baseline: [8, 8, 8], baselineLabel: 'x' }).ratio, 0.25);
    assert.equal(row({ id: 'r', what: 'r', unit: 'ms', samples: [2], baseline: [8], ratio: 3 }).ratio, 3);
  });
  it('renders a self-explanatory Markdown table and report', () => {
    const rows = [
      row({
        id: 'warm',
        what: 'warm hover',
        unit: 'ms',
        goal: '≤ 10 ms',
        samples: [0.02, 0.03, 0.04],
        baseline: [500, 600, 700],
        baselineLabel: '`git blame`',
        check: (s) => s.median <= 10,
      }),
      row({
        id: 'size',
        what: 'bundle',
        unit: 'KB',
        goal: '≤ 600 KB',
        samples: [700],
        check: (s) => s.median <= 600 || 'too big',
        decimals: 0,
      }),
    ];
    const table = markdownTable(rows).split('\n');
    assert.equal(table[0], '| what | goal | median | p95 | min | max | n | baseline median | ratio (÷ baseline) | result |');
    assert.equal(
      table[2],
      '| warm hover | ≤ 10 ms | 30.0 µs | 40.0 µs | 20.0 µs | 40.0 µs | 3 | 600.0 ms — `git blame` | 5.0e-5 (20,000× less) | ✅ pass |',
    );
    assert.equal(table[3], '| bundle | ≤ 600 KB | 700 KB | 700 KB | 700 KB | 700 KB | 1 | — | — | ❌ FAIL |');
    const md = markdownReport({
      rows,
      env: { date: 'd', cpus: 2, cpuModel: 'cpu', memGiB: 4, os: 'linux', node: 'v20', git: '2.39', codeServer: '4.100.3' },
      data: ['x'],
      notes: [],
      durationMs: 1000,
      quick: false,
    });
    assert.match(md, /\*\*1 goal\(s\) missed:\*\* size\./);
    assert.match(md, /## How to reproduce\n\n.*npm run bench/);
  });
});

describe('goal evaluation of a run', () => {
  const MB = 1024 * 1024;
  const hostRun = (mode, o) => ({
    mode,
    exit: 0,
    failed: [],
    host: {
      statsAtStart:
        mode === 'enabled' ? { activateMs: o.activate, handlerStats: { calls: 0, totalMs: 0, maxMs: 0 }, gitCalls: 3 } : undefined,
      memorySettled: { rss: o.rss, peakRss: o.rss },
      settle: { ms: 1000, quiet: true },
      hoverWarm: { samples: [10, 12, 14], ours: mode === 'enabled' ? 3 : 0, total: 3 },
      typing: {
        chars: 200,
        startedAt: 0,
        endedAt: 10_000,
        typeCommandMs: [20, 30],
        statsBefore: mode === 'enabled' ? { activateMs: 1, handlerStats: { calls: 10, totalMs: 1, maxMs: 0.5 }, gitCalls: 3 } : undefined,
        statsDuring: mode === 'enabled' ? { activateMs: 1, handlerStats: { calls: 210, totalMs: 11, maxMs: 0.5 }, gitCalls: 3 } : undefined,
      },
    },
    driver: { processes: { during: { git: o.git, ours: o.ours, oursByCommand: {}, othersByCommand: {} }, after: { git: 0 } } },
  });
  /** The two hosts of a commit pair: `own` = Agent Note's workspace, `other` = the paired commits without it. */
  const commitPair = (own, other) => ({
    enabled: {
      mode: 'enabled',
      driver: { commits: own, pairedCommits: other, processes: { commits: { ours: 2, oursByCommand: { 'hash-object': 2 } } } },
    },
    disabled: { mode: 'disabled', driver: { commits: other, pairedCommits: own, processes: { commits: { ours: 0, oursByCommand: {} } } } },
  });
  const results = {
    bundleBytes: 435_000,
    host: {
      enabled: [hostRun('enabled', { activate: 5, rss: 200 * MB, git: 1, ours: 0 })],
      disabled: [hostRun('disabled', { rss: 160 * MB, git: 1, ours: 0 })],
      activation: [],
      commitPair: commitPair([50, 52, 48], [50, 50, 50]),
    },
  };
  const rows = Object.fromEntries(buildRows(results, 300_000).map((r) => [r.id, r]));
  it('takes the commit ratio as the median of the per-pair ratios', () => {
    assert.equal(rows['commit-overhead'].status, 'pass');
    assert.equal(rows['commit-overhead'].ratio, 1);
    assert.match(rows['commit-overhead'].note ?? '', /3 pairs/);
    assert.match(rows['commit-overhead'].note ?? '', /`hash-object` ×2/);
  });
  it('pairs each commit with the commit next to it: a slow stretch of the machine cancels out', () => {
    // the machine slowed down 3× for a while (both sides of those pairs); the medians of the two
    // series would call that overhead (30 ÷ 10 = 3), the per-commit pairs do not
    const drifted = { ...results, host: { ...results.host, commitPair: commitPair([10, 30, 30, 30, 10], [10, 30, 30, 10, 10]) } };
    const r = buildRows(drifted, 300_000).find((x) => x.id === 'commit-overhead');
    assert.ok(r);
    assert.equal(r.ratio, 1);
    assert.equal(r.status, 'pass');
    // a real 20 % overhead on every commit is still caught
    const slower = { ...results, host: { ...results.host, commitPair: commitPair([12, 36, 36, 12, 12], [10, 30, 30, 10, 10]) } };
    const s = buildRows(slower, 300_000).find((x) => x.id === 'commit-overhead');
    assert.ok(s?.ratio !== undefined);
    assert.ok(Math.abs(s.ratio - 1.2) < 1e-9);
    assert.equal(s.status, 'fail');
  });
  it('reports a missing commit pair as missing', () => {
    const none = { ...results, host: { ...results.host, commitPair: undefined } };
    assert.equal(buildRows(none, 300_000).find((x) => x.id === 'commit-overhead')?.status, 'missing');
  });
  it('takes extra RSS as enabled − disabled, the ratio as enabled ÷ disabled', () => {
    assert.equal(rows.rss.stats.median, 40);
    assert.equal(rows.rss.ratio, 1.25);
    assert.equal(rows.rss.status, 'pass');
  });
  it('judges keystrokes by Agent Note git processes and the handler time per call', () => {
    assert.equal(rows['keystroke-git'].status, 'pass');
    assert.equal(rows['keystroke-handler'].stats.median, 0.05);
    assert.equal(rows['keystroke-handler'].status, 'pass');
  });
  it('reports what could not be measured as missing (a failure), and the rest', () => {
    assert.equal(rows['hover-warm'].status, 'missing');
    assert.equal(rows['note-write'].status, 'missing');
    assert.equal(rows.activate.stats.median, 5);
    assert.equal(rows.bundle.stats.median, 435);
    assert.equal(rows['host-hover-warm'].stats.median, 12);
    assert.equal(rows['bench-time'].status, 'pass');
  });
});

describe('generated data', () => {
  let base;
  let home;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'agentnote-bench-selftest-'));
    home = join(base, 'home');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Ann Dev\n\temail = ann@example.com\n');
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('builds the history with fast-import: every commit touches the big file, every even commit has a valid note', async () => {
    const { decodeNote } = src('core/notes/noteCodec');
    const repo = await buildHistoryRepo({ dir: join(base, 'repo'), home, commits: 60, lineCount: 600, seed: 3 });
    const git = (...a) => gitSync(repo.root, home, a);
    assert.deepEqual([repo.commits, repo.notes], [60, 30]);
    assert.equal(git('rev-list', '--count', 'main').trim(), '60');
    assert.equal(git('log', '--format=%H', '--', 'src/big.ts').trim().split('\n').length, 60);
    assert.equal(git('ls-files', 'src/feature').trim().split('\n').length, 50);
    const listed = git('notes', '--ref=agentnote', 'list')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[1]);
    assert.deepEqual(new Set(listed), repo.noted);
    for (const sha of listed) {
      const d = decodeNote(git('notes', '--ref=agentnote', 'show', sha));
      assert.equal(d.kind, 'valid');
      assert.deepEqual(d.issues, []);
      assert.equal(d.note.v, 1);
      assert.equal(d.note.files[0].path, 'src/big.ts');
      assert.ok(Array.isArray(d.note.files[0].ai_ranges));
    }
  });

  it('knows which commit last changed every line (what git blame answers)', async () => {
    const repo = await buildHistoryRepo({ dir: join(base, 'repo2'), home, commits: 80, lineCount: 400, seed: 5 });
    const out = gitSync(repo.root, home, ['blame', '--porcelain', '--', 'src/big.ts']);
    const blamed = [];
    for (const l of out.split('\n')) {
      const m = /^([0-9a-f]{40}) \d+ (\d+)/.exec(l);
      if (m) blamed[Number(m[2]) - 1] = m[1];
    }
    assert.equal(blamed.length, repo.lineCount);
    assert.deepEqual(blamed, repo.lineOwners);
    const picked = pickNotedLines(repo, 5, 1);
    assert.equal(picked.length, 5);
    for (const p of picked) {
      assert.ok(repo.noted.has(p.sha));
      assert.equal(p.sha, repo.lineOwners[p.line - 1]);
      assert.ok(p.depth >= 0 && p.depth < 80);
    }
  });

  it('writes transcripts in the default layouts that our parsers accept fully and discovery finds', async () => {
    const { createTranscriptParser } = src('core/agents/transcriptParser');
    const { LineSplitter } = src('core/transcripts/lineSplitter');
    const { TranscriptDiscovery } = src('node/transcripts/transcriptDiscovery');
    const cwd = join(base, 'ws', 'repo');
    mkdirSync(cwd, { recursive: true });
    gitSync(cwd, home, ['init', '-q']);
    const plan = { claude: [MiB / 4, MiB / 8], codex: [MiB / 8], cursor: [MiB / 8], gemini: [MiB / 8] };
    const files = writeTranscripts({ home, cwd, files: ['src/big.ts', 'src/feature/mod01.ts'], plan, seed: 11 });
    assert.equal(files.length, 5);
    const layout = files.map((f) => relative(home, f.file).replaceAll(f.sessionId, '<id>'));
    assert.match(layout[0], /^\.claude\/projects\/-.*-ws-repo\/<id>\.jsonl$/);
    assert.match(layout[2], /^\.codex\/sessions\/\d{4}\/\d\d\/\d\d\/rollout-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-<id>\.jsonl$/);
    assert.match(layout[3], /^\.cursor\/projects\/.*-ws-repo\/agent-transcripts\/<id>\/<id>\.jsonl$/);
    assert.equal(layout[4], relative(home, files[4].file));
    assert.match(
      layout[4],
      new RegExp(`^\\.gemini/tmp/repo/chats/session-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-${files[4].sessionId.slice(0, 8)}\\.jsonl$`),
    );
    for (const f of files) {
      assert.ok(f.bytes >= plan[f.agent][0] / 2, `${f.agent} size`);
      const parser = createTranscriptParser(f.agent, { filePath: f.file, sessionIdHint: f.sessionId });
      const kinds = {};
      const text = readFileSync(f.file);
      for (const line of new LineSplitter().push(text)) for (const e of parser.push(line.text)) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
      const sk = parser.stats.skipped;
      assert.deepEqual(sk, { invalidJson: 0, schemaMismatch: 0, unknownType: 0 }, `${f.agent} records all accepted`);
      assert.equal(kinds.prompt, f.turns, `${f.agent}: one prompt per turn`);
      assert.ok(kinds.edit > 0 && kinds.response > 0, `${f.agent} has edits and responses`);
      // no record is newer than now
      const stamps = [...text.toString('utf8').matchAll(/"timestamp":"([^"]+)"/g)].map((m) => Date.parse(m[1]));
      if (stamps.length) assert.ok(Math.max(...stamps) <= Date.now(), `${f.agent}: no future timestamps`);
    }
    const found = await new TranscriptDiscovery({ root: cwd }, { homeDir: home }).scan();
    assert.deepEqual(found.transcripts.map((t) => t.filePath).sort(), files.map((f) => f.file).sort());
  });

  it('is deterministic for a seed', () => {
    const a = rng(9);
    const b = rng(9);
    assert.deepEqual([a.uuid(), a.int(1, 100), a.hex(8)], [b.uuid(), b.int(1, 100), b.hex(8)]);
    assert.match(rng(1).uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
