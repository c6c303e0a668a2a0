import * as assert from 'node:assert/strict';
import { loadApp } from '../webviews/loadApp';
import { readText } from '../report/peerFixtures';
import { sampleData } from './sample';

type RenderModule = typeof import('../../../src/webviews/apps/dashboard/render');
type StateModule = typeof import('../../../src/webviews/apps/dashboard/state');
type ChartsModule = typeof import('../../../src/webviews/apps/shared/charts/index');
const R = loadApp<RenderModule>('dashboard/render');
const S = loadApp<StateModule>('dashboard/state');
const C = loadApp<ChartsModule>('shared/charts/index');

const figure = (html: string, name: string) => new RegExp(`data-figure="${name}">([^<]*)<`).exec(html)?.[1];

describe('dashboard page rendering', () => {
  it('shows the figures of the filter', () => {
    const data = sampleData();
    const html = R.renderContent({ data, ui: S.initialUi, locale: 'en-US' });
    assert.equal(figure(html, 'lineRatio'), '36%');
    assert.equal(figure(html, 'meanRatio'), '48%');
    assert.equal(figure(html, 'coverage'), '4 of 5');
    assert.equal(figure(html, 'aiLines'), '40 of 110');
    const codex = R.renderContent({ data, ui: S.applyFilterChange(S.initialUi, 'agent', '=codex'), locale: 'en-US' });
    assert.equal(figure(codex, 'lineRatio'), '17%');
    assert.equal(figure(codex, 'coverage'), '1 of 1');
    assert.match(html, /data-table="branches"/, 'two branches: a per-branch table');
    assert.match(html, /data-table="ranges"/);
  });

  it('escapes every string from notes and commits', () => {
    const data = sampleData();
    const evil = '<script>alert(1)</script>"\'&';
    data.repository = evil;
    data.branches[0] = evil;
    data.commits[0].subject = evil;
    data.commits[0].author = evil;
    data.commits[1].agent = evil;
    data.commits[1].noted = true;
    data.commits[1].model = evil;
    data.commits[0].files[0].path = evil;
    data.commits[0].prompts = [evil];
    data.commits[0].interactions = 1;
    data.ranges[0].title = evil;
    data.strings = { title: evil };
    const ctx = { data, ui: S.initialUi, locale: 'en-US' };
    const html = R.renderHeader(ctx) + R.renderFilters(ctx) + R.renderContent(ctx);
    assert.ok(!html.includes('<script>'), 'no raw markup');
    assert.ok(!html.includes(`"'&`), 'quotes escaped');
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!R.renderMessage({}, 'invalidData', evil).includes('<script>'));
  });

  it('paginates the commit list (50 a page) and labels the pages', () => {
    const data = sampleData();
    const base = data.commits[0];
    data.commits = Array.from({ length: 120 }, (_, i) => ({ ...base, sha: (i + 100).toString(16).padStart(40, '0') }));
    const page1 = R.renderContent({ data, ui: S.initialUi, locale: 'en-US' });
    assert.equal((page1.match(/<tr data-sha=/g) ?? []).length, 50);
    assert.match(page1, /data-pager="commits">Page 1 of 3</);
    const page3 = R.renderContent({ data, ui: { ...S.initialUi, commitPage: 3 }, locale: 'en-US' });
    assert.equal((page3.match(/<tr data-sha=/g) ?? []).length, 20);
  });

  it('round-trips the UI state through the URL hash and ignores junk', () => {
    const data = sampleData();
    let ui = S.applyFilterChange(S.initialUi, 'branch', '1');
    ui = S.applyFilterChange(ui, 'agent', '=');
    ui = S.applyFilterChange(ui, 'from', '2026-03-01');
    ui = S.applyFilterChange(ui, 'path', ' src/ ');
    ui = { ...ui, commitPage: 2 };
    assert.deepEqual(ui.filter, { branch: 1, agent: '', from: '2026-03-01', path: 'src/' });
    assert.deepEqual(S.parseHash(S.toHash(ui), data), ui);
    assert.deepEqual(S.parseHash('#branch=9&from=yesterday&page=-3&x=1', data), S.initialUi);
    assert.equal(S.toHash(S.initialUi), '');
    assert.deepEqual(S.applyFilterChange(ui, 'agent', '*').filter.agent, undefined);
    assert.equal(S.applyFilterChange(ui, 'branch', '0').commitPage, 1, 'a filter change starts at page 1');
  });
});

describe('shared charts module', () => {
  it('draws a column chart with gaps for no data, escaping labels', () => {
    const svg = C.columnChart(
      [
        { label: 'a<b', value: 40, detail: 'd"1' },
        { label: 'b', value: null, detail: 'none' },
        { label: 'c', value: 140, detail: 'clamped' },
      ],
      { ariaLabel: 'AI & time' },
    );
    assert.match(svg, /^<svg class="chart" viewBox="0 0 720 180"/);
    assert.match(svg, /aria-label="AI &amp; time"/);
    assert.deepEqual(
      [...svg.matchAll(/data-value="(\d*)"/g)].map((m) => m[1]),
      ['40', '', '100'],
    );
    assert.ok(svg.includes('a&lt;b') && svg.includes('d&quot;1'));
    assert.ok(!svg.includes('style='), 'no inline styles (CSP)');
  });

  it('formats percents, counts and days, and grades heat', () => {
    assert.equal(C.formatPercent(36.36, 'en-US'), '36%');
    assert.equal(C.formatPercent(null, 'en-US'), '—');
    assert.equal(C.roundPercent(99.5), 100);
    assert.equal(C.formatCount(5024, 'en-US'), '5,024');
    assert.equal(C.formatDay('2026-03-02', 'en-US'), 'Mar 2, 2026');
    assert.equal(C.formatDay('junk', 'en-US'), 'junk');
    assert.deepEqual(
      [null, 0, 1, 20, 50, 99, 100].map((v) => C.heatLevel(v)),
      [0, 0, 1, 2, 3, 5, 5],
    );
    assert.match(C.shareBar(42.4, 'x'), /data-ratio="42"/);
  });

  it('theme.css maps every token to a --vscode-* variable with light, dark and forced-colors palettes', () => {
    const css = readText('src', 'webviews', 'apps', 'shared', 'charts', 'theme.css');
    for (const token of ['bg', 'fg', 'muted', 'border', 'panel', 'accent', 'ai', 'link', 'focus'])
      assert.match(css, new RegExp(`--an-${token}: var\\(--vscode-[\\w-]+, var\\(--an-pal-${token}\\)\\)`));
    assert.match(css, /@media \(prefers-color-scheme: dark\)/);
    assert.match(css, /@media \(forced-colors: active\)/);
    assert.match(css, /body\.vscode-high-contrast/);
    const app = readText('src', 'webviews', 'apps', 'dashboard', 'dashboard.css').replace(/\/\*[\s\S]*?\*\//g, '');
    assert.deepEqual(app.match(/#[0-9a-fA-F]{3,8}\b/g), null, 'the page itself has no hard-coded colours');
  });
});
