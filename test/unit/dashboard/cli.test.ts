// The CI entry point (cli.ts → dist/dashboard.js) run on fixture repositories: the peer bundles
// (notes written by the Agent Note CLI) and a scripted repository with 5,024 notes. The figures
// of the data file are checked against the notes read back with git.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { summarize } from '../../../src/core/dashboard/aggregate';
import { parseDashboardData, type DashboardData } from '../../../src/core/dashboard/dashboardData';
import { parseCliArgs, runDashboardCli } from '../../../src/node/dashboard/cli';
import { dashboardCsp } from '../../../src/node/dashboard/dashboardSite';
import { peerReposDir, TempRepo, useIsolatedGitEnv } from '../attribution/fixtureRepo';
import { repoRoot } from '../report/peerFixtures';

const assetDir = path.join(repoRoot(), 'dist', 'webviews');

async function run(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runDashboardCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd, assetDir });
  return { code, out, err };
}

function readData(site: string): DashboardData {
  const text = fs.readFileSync(path.join(site, 'dashboard-data.js'), 'utf8');
  const json = text.slice(text.indexOf('= ') + 2, text.lastIndexOf(';'));
  const r = parseDashboardData(JSON.parse(json));
  assert.ok(r.ok, r.ok ? '' : r.reason);
  return r.data;
}

/** Notes of the commits on `branch`, read with git. */
function gitNotes(repo: TempRepo, branch: string) {
  const on = new Set(repo.git(['rev-list', branch]).trim().split('\n'));
  const notes: { commit: string; ratio: number; ai: number; total: number; hasLines: boolean; agent: string | null }[] = [];
  for (const line of repo.git(['notes', '--ref=agentnote', 'list']).trim().split('\n').filter(Boolean)) {
    const [blob, commit] = line.split(' ');
    if (!on.has(commit)) continue;
    const n = JSON.parse(repo.git(['cat-file', 'blob', blob])) as {
      agent: string | null;
      attribution: { ai_ratio: number; lines?: { ai_added: number; total_added: number } };
    };
    notes.push({
      commit,
      ratio: n.attribution.ai_ratio,
      ai: n.attribution.lines?.ai_added ?? 0,
      total: n.attribution.lines?.total_added ?? 0,
      hasLines: !!n.attribution.lines,
      agent: n.agent,
    });
  }
  return { notes, commits: on.size };
}

describe('dashboard CLI (dist/dashboard.js) on fixture repositories', () => {
  useIsolatedGitEnv();
  const cleanup: string[] = [];
  let tmp = '';
  before(function () {
    if (!fs.existsSync(path.join(assetDir, 'dashboard.js'))) {
      console.log(`    (skipped: ${assetDir}/dashboard.js is not built)`);
      this.skip();
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'an-dash-'));
    cleanup.push(tmp);
  });
  after(() => cleanup.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('parses its arguments; usage errors exit 2, --help exits 0', async () => {
    assert.deepEqual(parseCliArgs(['--out', 's', '--branch', 'a', '--branch=b', '--all-notes']), {
      repo: '.',
      out: 's',
      branches: ['a', 'b'],
      allNotes: true,
      title: undefined,
      redact: [],
      lang: undefined,
    });
    assert.equal(parseCliArgs(['--help']), 'help');
    assert.match(parseCliArgs([]) as string, /--out is required/);
    assert.match(parseCliArgs(['--out']) as string, /needs a value/);
    assert.match(parseCliArgs(['--out', 'x', '--bogus']) as string, /unknown argument/);
    const help = await run(['--help'], tmp);
    assert.equal(help.code, 0);
    assert.match(help.out, /Usage: node dashboard\.js/);
    const bad = await run(['--frobnicate'], tmp);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /unknown argument: --frobnicate/);
  });

  it('exits 1 with a message on stderr outside a repository or for an unknown branch', async () => {
    const notRepo = await run(['--repo', tmp, '--out', path.join(tmp, 'o1')], tmp);
    assert.equal(notRepo.code, 1);
    assert.match(notRepo.err, /not a git repository/);
    const repo = TempRepo.fromBundle(path.join(peerReposDir, 'todo-api.bundle'));
    cleanup.push(repo.dir);
    const unknown = await run(['--repo', repo.dir, '--out', path.join(tmp, 'o2'), '--branch', 'no-such-branch'], tmp);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /no such branch or commit: no-such-branch/);
    const hostile = await run(['--repo', repo.dir, '--out', path.join(tmp, 'o3'), '--branch', '--upload-pack=x'], tmp);
    assert.equal(hostile.code, 1);
    assert.match(hostile.err, /not a branch or revision/);
  });

  for (const name of ['todo-api', 'weather-cli', 'shop-cart']) {
    it(`exports ${name} with the figures of its notes`, async function () {
      const bundle = path.join(peerReposDir, `${name}.bundle`);
      if (!fs.existsSync(bundle)) {
        console.log(`    (skipped: ${bundle} is missing)`);
        this.skip();
      }
      const repo = TempRepo.fromBundle(bundle);
      cleanup.push(repo.dir);
      const site = path.join(tmp, name);
      const r = await run(['--repo', repo.dir, '--out', site, '--branch', 'main'], tmp);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, '');
      for (const f of ['index.html', 'dashboard-data.js', 'dashboard.js', 'dashboard.css', '.nojekyll'])
        assert.ok(fs.existsSync(path.join(site, f)), f);
      const html = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
      assert.ok(html.includes(`content="${dashboardCsp}"`), 'the CSP meta');
      assert.ok(!/https?:\/\//.test(html), 'no remote URL in the page');
      const data = readData(site);
      const truth = gitNotes(repo, 'main');
      assert.equal(data.commits.length, truth.commits);
      const noted = data.commits.filter((c) => c.noted);
      assert.deepEqual(noted.map((c) => c.sha).sort(), truth.notes.map((n) => n.commit).sort());
      for (const n of truth.notes) assert.equal(data.commits.find((c) => c.sha === n.commit)?.ratio, n.ratio);
      const s = summarize(data.commits);
      assert.equal(
        s.aiAdded,
        truth.notes.reduce((a, n) => a + n.ai, 0),
      );
      assert.equal(
        s.totalAdded,
        truth.notes.reduce((a, n) => a + n.total, 0),
      );
      assert.equal(s.meanRatio, truth.notes.length ? truth.notes.reduce((a, n) => a + n.ratio, 0) / truth.notes.length : null);
      assert.deepEqual(data.branches, ['main']);
    });
  }

  it('re-redacts prompts, leaves out notes of other branches unless --all-notes, finds merges and squash ranges', async () => {
    const repo = TempRepo.create('an-dash-');
    cleanup.push(repo.dir);
    const commit = (file: string, msg: string) => {
      fs.writeFileSync(path.join(repo.dir, file), `${msg}\n`);
      repo.git(['add', file]);
      repo.git(['commit', '-q', '-m', msg]);
      return repo.git(['rev-parse', 'HEAD']).trim();
    };
    const note = (sha: string, prompt: string, ratio: number) =>
      repo.git([
        'notes',
        '--ref=agentnote',
        'add',
        '-m',
        JSON.stringify({
          v: 1,
          agent: 'claude',
          session_id: 's',
          timestamp: '2026-03-02T08:00:00Z',
          model: null,
          interactions: [{ prompt, response: null }],
          files: [{ path: 'a.txt', by_ai: true }],
          attribution: { ai_ratio: ratio, method: 'file' },
        }),
        sha,
      ]);
    const c1 = commit('a.txt', 'first');
    note(c1, 'deploy with AWS key AKIAIOSFODNN7EXAMPLE now', 100);
    repo.git(['checkout', '-q', '-b', 'feature']);
    const f1 = commit('b.txt', 'feature work');
    note(f1, 'feature prompt', 50);
    repo.git(['checkout', '-q', 'main']);
    commit('c.txt', 'fix: squashed thing (#12)');
    repo.git(['merge', '-q', '--no-ff', '-m', 'Merge branch feature', 'feature']);
    repo.git(['checkout', '-q', '-b', 'other']);
    const o1 = commit('d.txt', 'other only');
    note(o1, 'other prompt', 10);
    repo.git(['checkout', '-q', 'main']);

    const site = path.join(tmp, 'scripted');
    assert.equal((await run(['--repo', repo.dir, '--out', site], tmp)).code, 0);
    const text = fs.readFileSync(path.join(site, 'dashboard-data.js'), 'utf8');
    assert.ok(!text.includes('AKIAIOSFODNN7EXAMPLE'), 'the secret is redacted again on export');
    const data = readData(site);
    assert.deepEqual(data.branches, ['main'], 'default: the current branch');
    assert.ok(data.commits.find((c) => c.sha === c1)?.prompts[0].includes('[REDACTED:'));
    assert.equal(data.notesOutsideBranches, 1);
    assert.equal(
      data.commits.some((c) => c.sha === o1),
      false,
    );
    assert.deepEqual(
      data.ranges.map((r) => [r.title, r.commits.length]),
      [
        ['Merge branch feature', 1],
        ['fix: squashed thing (#12)', 1],
      ],
    );
    assert.deepEqual(data.ranges[0].commits, [f1]);

    const all = path.join(tmp, 'scripted-all');
    assert.equal((await run(['--repo', repo.dir, '--out', all, '--all-notes', '--title', 'Scripted'], tmp)).code, 0);
    const allData = readData(all);
    assert.equal(allData.notesOutsideBranches, 0);
    assert.deepEqual(allData.commits.find((c) => c.sha === o1)?.branches, []);
    assert.equal(allData.repository, 'Scripted');

    const two = path.join(tmp, 'scripted-two');
    assert.equal((await run(['--repo', repo.dir, '--out', two, '--branch', 'main', '--branch', 'other'], tmp)).code, 0);
    const twoData = readData(two);
    assert.deepEqual(twoData.branches, ['main', 'other']);
    assert.deepEqual(twoData.commits.find((c) => c.sha === o1)?.branches, [1]);
    assert.deepEqual(twoData.commits.find((c) => c.sha === c1)?.branches, [0, 1]);
  });

  it('exports a scripted repository with 5,024 notes in seconds', async function () {
    this.timeout(180_000);
    const dir = path.join(tmp, 'big');
    execFileSync(process.execPath, [path.join(repoRoot(), 'test', 'e2e', 'dashboardFixture.mjs'), dir], { encoding: 'utf8' });
    const site = path.join(tmp, 'big-site');
    const t0 = Date.now();
    const r = await run(['--repo', dir, '--out', site], tmp);
    const ms = Date.now() - t0;
    assert.equal(r.code, 0, r.err);
    const data = readData(site);
    const noted = data.commits.filter((c) => c.noted);
    assert.equal(noted.length, 5024);
    const listed = execFileSync('git', ['notes', '--ref=agentnote', 'list'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').length;
    assert.equal(listed, 5024);
    assert.ok(data.ranges.length > 300, `${data.ranges.length} ranges`);
    assert.ok(ms < 60_000, `exported in ${ms} ms`);
    console.log(
      `    (5,024 notes exported in ${ms} ms, ${(fs.statSync(path.join(site, 'dashboard-data.js')).size / 1e6).toFixed(1)} MB of data)`,
    );
  });
});
