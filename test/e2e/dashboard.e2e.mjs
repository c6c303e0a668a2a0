// The exported dashboard in a real browser (headless Chromium via playwright-core), opened from
// file:// exactly as a user opens it: built by the CI entry point (dist/dashboard.js) from a peer
// fixture repository with genuine Agent Note CLI notes and from a scripted repository with 5,024
// notes. Expected figures are computed here from the notes read back through git, never from the
// page's own code. Screenshots in light, dark and forced colors go to test-results/ and, with
// AN_UPDATE_SCREENSHOTS=1, to media/screenshots/<theme>-dashboard.png (the README's picture).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, cleanup, launchChromium, tempDir } from '../../scripts/harness.mjs';
import { makeDashboardFixture } from './dashboardFixture.mjs';
import { MEDIA_SHOTS, SHOTS } from './workbench.mjs';

const cli = join(ROOT, 'dist/dashboard.js');
const peerBundle = join(ROOT, 'test/fixtures/peer-repos/todo-api.bundle');

function git(dir, args) {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

function exportSite(repo, out, extra = []) {
  execFileSync(process.execPath, [cli, '--repo', repo, '--out', out, ...extra], { encoding: 'utf8' });
  return pathToFileURL(join(out, 'index.html')).href;
}

/** The notes of the commits on `branch`, read back with git (the reference the page is checked against). */
function notesOn(repo, branch) {
  const onBranch = new Set(git(repo, ['rev-list', branch]).trim().split('\n'));
  const notes = [];
  for (const line of git(repo, ['notes', '--ref=agentnote', 'list']).trim().split('\n').filter(Boolean)) {
    const [blob, commit] = line.split(' ');
    if (!onBranch.has(commit)) continue;
    notes.push({ commit, note: JSON.parse(git(repo, ['cat-file', 'blob', blob])) });
  }
  return { notes, commits: onBranch.size };
}

function expected(notes, commits) {
  let ai = 0;
  let total = 0;
  let ratioSum = 0;
  for (const { note } of notes) {
    ratioSum += note.attribution.ai_ratio;
    if (note.attribution.lines) {
      ai += note.attribution.lines.ai_added;
      total += note.attribution.lines.total_added;
    }
  }
  const pct = (v) => (v === null ? '—' : `${Math.round(v)}%`);
  return {
    lineRatio: pct(total ? (ai / total) * 100 : null),
    meanRatio: pct(notes.length ? ratioSum / notes.length : null),
    coverage: `${notes.length.toLocaleString('en')} of ${commits.toLocaleString('en')}`,
    aiLines: `${ai.toLocaleString('en')} of ${total.toLocaleString('en')}`,
  };
}

/**
 * The page in light, dark and forced colors: saved as test-results/<prefix>-<theme>.png (and, for the
 * README, media/screenshots/<theme>-dashboard.png with AN_UPDATE_SCREENSHOTS=1); checked to be not
 * blank and different per theme. There is no pixel baseline: fonts differ between machines.
 */
async function themeShots(page, prefix, media) {
  mkdirSync(SHOTS, { recursive: true });
  const shots = {};
  for (const [name, m] of [
    ['light', { colorScheme: 'light', forcedColors: 'none' }],
    ['dark', { colorScheme: 'dark', forcedColors: 'none' }],
    ['hc', { colorScheme: 'dark', forcedColors: 'active' }],
  ]) {
    await page.emulateMedia(m);
    await page.evaluate(() => window.scrollTo(0, 0));
    const buf = await page.screenshot({ fullPage: false });
    shots[name] = buf;
    writeFileSync(join(SHOTS, `${prefix}-${name}.png`), buf);
    if (media && process.env.AN_UPDATE_SCREENSHOTS === '1') writeFileSync(join(MEDIA_SHOTS, `${name}-dashboard.png`), buf);
    shots[`${name}-bg`] = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  }
  await page.emulateMedia({ colorScheme: 'light', forcedColors: 'none' });
  assert.notEqual(shots['light-bg'], shots['dark-bg']);
  assert.ok(!shots.light.equals(shots.dark) && !shots.dark.equals(shots.hc) && !shots.light.equals(shots.hc));
  for (const k of ['light', 'dark', 'hc']) assert.ok(shots[k].length > 20_000, `${k} screenshot is not blank (${shots[k].length} bytes)`);
}

async function figures(page) {
  const out = {};
  for (const k of ['lineRatio', 'meanRatio', 'coverage', 'aiLines'])
    out[k] = (await page.locator(`[data-figure="${k}"]`).textContent())?.trim();
  return out;
}

describe('Dashboard (exported site in Chromium, file://)', function () {
  let base;
  let browser;
  let context;
  let page;
  const consoleErrors = [];
  const requests = [];

  before(async function () {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (node esbuild.mjs or npm run -s package)`);
    base = tempDir('an-e2e-dashboard-');
    browser = await launchChromium(base);
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith('file://')) requests.push(r.url());
    });
  });

  after(async function () {
    await browser?.close();
    if (base) cleanup(base);
  });

  describe('a peer fixture repository (notes written by the Agent Note CLI)', function () {
    let repo;
    let url;
    let truth;

    before(function () {
      if (!existsSync(peerBundle)) this.skip();
      repo = join(base, 'todo-api');
      mkdirSync(repo);
      git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
      git(repo, ['fetch', '-q', '--update-head-ok', peerBundle, '+refs/heads/*:refs/heads/*', 'refs/notes/agentnote:refs/notes/agentnote']);
      git(repo, ['reset', '-q', '--hard', 'main']);
      url = exportSite(repo, join(base, 'site-todo'));
      truth = notesOn(repo, 'main');
    });

    it('loads from file:// with no console errors and no network requests', async function () {
      await page.goto(url);
      await page.locator('[data-figure="lineRatio"]').waitFor();
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(requests, []);
    });

    it('shows the figures computed from the notes', async function () {
      assert.ok(truth.notes.length >= 3, 'the fixture has notes');
      assert.deepEqual(await figures(page), expected(truth.notes, truth.commits));
      // one row per commit of the branch, the noted ones with the note's own ratio
      const rows = page.locator('[data-table="commits"] tbody tr');
      assert.equal(await rows.count(), truth.commits);
      for (const { commit, note } of truth.notes) {
        const cell = page.locator(`[data-table="commits"] tr[data-sha="${commit}"] [data-col="ratio"]`);
        assert.equal((await cell.textContent())?.trim(), `${note.attribution.ai_ratio}%`);
      }
    });

    it('filters change the figures (agent, path, clear)', async function () {
      const agent = truth.notes[0].note.agent;
      await page.selectOption('[data-filter="agent"]', `=${agent}`);
      const only = truth.notes.filter((n) => n.note.agent === agent);
      const want = expected(only, only.length);
      assert.deepEqual(await figures(page), want);
      assert.match(await page.evaluate(() => location.hash), /agent=/);
      await page.click('[data-action="clear"]');
      assert.deepEqual(await figures(page), expected(truth.notes, truth.commits));

      const file = truth.notes.flatMap((n) => n.note.files).find((f) => f.path.includes('/'))?.path;
      assert.ok(file, 'a file in a folder');
      const dir = `${file.split('/')[0]}/`;
      await page.fill('[data-filter="path"]', dir);
      await page.waitForFunction(
        (d) => location.hash.includes(encodeURIComponent(d).replace(/%2F/g, '%2F')) || location.hash.includes('path='),
        dir,
      );
      const touching = truth.notes.filter((n) => n.note.files.some((f) => f.path.startsWith(dir)));
      const shown = await page.locator('[data-table="commits"] tbody tr').count();
      assert.equal(shown, touching.length);
      assert.equal((await figures(page)).lineRatio, expected(touching, touching.length).lineRatio);
      await page.click('[data-action="clear"]');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(requests, []);
    });

    it('shows hostile prompt text as text', async function () {
      // every prompt of the page is in a <pre> and equals the note's prompt (no markup was parsed)
      const first = truth.notes.find((n) => n.note.interactions.length)?.note.interactions[0].prompt;
      const texts = await page.locator('pre.prompt').allTextContents();
      assert.ok(texts.some((t) => t === first || first.startsWith(t.replace(/…$/, ''))));
      assert.equal(await page.locator('#content script').count(), 0);
    });

    it('has light, dark and forced-colors themes (different, not blank)', async function () {
      await themeShots(page, 'dashboard-todo-api', false);
    });
  });

  describe('the demo repository (notes written by the recording pipeline)', function () {
    let repo;
    let url;
    let truth;

    before(async function () {
      this.timeout(120_000);
      const builder = join(ROOT, 'out/test/demo/demoRepository.js');
      if (!existsSync(builder)) {
        console.log(`      (skipped: ${builder} is missing — run node esbuild.mjs first)`);
        this.skip();
      }
      const { createDemoRepository } = await import('../../scripts/demo-repo.mjs');
      const home = join(base, 'demo-home');
      mkdirSync(home, { recursive: true });
      // the identity the pipeline's notes commits need (as prepareDirs gives the in-host scenarios)
      writeFileSync(
        join(home, '.gitconfig'),
        '[user]\n\tname = Ann Dev\n\temail = ann@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n',
      );
      repo = await createDemoRepository({ base: join(base, 'demo'), home });
      url = exportSite(repo, join(base, 'site-demo'), ['--title', 'demo-shop']);
      truth = notesOn(repo, 'HEAD');
    });

    it('shows the figures of its notes, per agent too, and takes the README pictures', async function () {
      assert.ok(truth.notes.length >= 3, `the demo has notes (${truth.notes.length})`);
      await page.goto(url);
      await page.locator('[data-figure="lineRatio"]').waitFor();
      assert.deepEqual(await figures(page), expected(truth.notes, truth.commits));
      const agents = [...new Set(truth.notes.map((n) => n.note.agent))];
      for (const agent of agents) {
        const only = truth.notes.filter((n) => n.note.agent === agent);
        const row = page.locator(`[data-table="agents"] tr[data-key="${agent}"] [data-col="lineRatio"]`);
        assert.equal((await row.textContent())?.trim(), expected(only, only.length).lineRatio);
      }
      await themeShots(page, 'dashboard-demo', true);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(requests, []);
    });
  });

  describe('a scripted repository with 5,024 notes', function () {
    let repo;
    let url;
    let truth;

    before(function () {
      this.timeout(300_000);
      repo = join(base, 'big');
      makeDashboardFixture(repo);
      url = exportSite(repo, join(base, 'site-big'));
      truth = notesOn(repo, 'main');
    });

    it('loads quickly and paginates the commit list', async function () {
      assert.ok(truth.notes.length >= 5000, `${truth.notes.length} notes`);
      const t0 = Date.now();
      await page.goto(url);
      await page.locator('[data-figure="lineRatio"]').waitFor();
      const loadMs = Date.now() - t0;
      assert.ok(loadMs < 15_000, `loaded in ${loadMs} ms`);
      assert.deepEqual(await figures(page), expected(truth.notes, truth.commits));
      assert.equal(await page.locator('[data-table="commits"] tbody tr').count(), 50);
      assert.equal((await page.locator('[data-pager="commits"]').textContent())?.trim(), `Page 1 of ${Math.ceil(truth.commits / 50)}`);
      await page.click('button[data-page="commits"][data-to="2"]');
      assert.equal((await page.locator('[data-pager="commits"]').textContent())?.trim(), `Page 2 of ${Math.ceil(truth.commits / 50)}`);
      assert.ok((await page.locator('[data-table="ranges"] tbody tr').count()) > 0, 'PR-sized ranges listed');
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(requests, []);
    });

    it('filters 5,024 notes without a noticeable wait (agent, date range)', async function () {
      const t0 = Date.now();
      await page.selectOption('[data-filter="agent"]', '=codex');
      const ms = Date.now() - t0;
      const only = truth.notes.filter((n) => n.note.agent === 'codex');
      assert.deepEqual(await figures(page), expected(only, only.length));
      assert.ok(ms < 3000, `filtered in ${ms} ms`);
      await page.click('[data-action="clear"]');

      // a date range: the commits whose committer day (UTC) is inside it
      const days = new Map(
        git(repo, ['log', '--format=%H %cI', 'main'])
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, 40), new Date(l.slice(41)).toISOString().slice(0, 10)]),
      );
      await page.fill('[data-filter="from"]', '2026-03-01');
      await page.fill('[data-filter="to"]', '2026-03-31');
      const inMarch = truth.notes.filter((n) => {
        const d = days.get(n.commit) ?? '';
        return d >= '2026-03-01' && d <= '2026-03-31';
      });
      const commitsInMarch = [...days.values()].filter((d) => d >= '2026-03-01' && d <= '2026-03-31').length;
      assert.ok(inMarch.length > 100 && inMarch.length < truth.notes.length, `${inMarch.length} notes in March`);
      assert.deepEqual(await figures(page), expected(inMarch, commitsInMarch));
      await page.click('[data-action="clear"]');
      assert.deepEqual(await figures(page), expected(truth.notes, truth.commits));
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(requests, []);
    });
  });
});
