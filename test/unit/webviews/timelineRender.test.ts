import * as assert from 'node:assert/strict';
import type { TimelineUiState } from '../../../src/webviews/timeline/protocol';
import { loadApp } from './loadApp';
import { sampleTimeline } from './timelineSample';

type StateModule = typeof import('../../../src/webviews/apps/timeline/state');
type RenderModule = typeof import('../../../src/webviews/apps/timeline/render');
type TimeModule = typeof import('../../../src/webviews/apps/shared/time');
const S = loadApp<StateModule>('timeline/state');
const R = loadApp<RenderModule>('timeline/render');
const { utcTimeFormat: fmt } = loadApp<TimeModule>('shared/time');

const ui = (patch: Partial<TimelineUiState> = {}, filters: Partial<TimelineUiState['filters']> = {}): TimelineUiState => {
  const base = S.defaultTimelineUiState();
  return { ...base, ...patch, filters: { ...base.filters, ...filters } };
};

function renderList(state = sampleTimeline(), u = ui(), strings: Record<string, string> = {}) {
  return R.renderList(S.buildTimelineView(state, u), u, strings, fmt);
}

describe('Timeline render', () => {
  it('escapes untrusted prompt, response, path, subject and agent text', () => {
    const state = sampleTimeline();
    const p = state.entries.find((e) => e.id === 'p1');
    if (p?.kind !== 'prompt') throw new Error('fixture');
    p.firstLine = '<script>alert(1)</script>';
    p.text = '<script>alert(1)</script>\n<img src=x onerror=alert(2)>';
    p.response = '"><svg onload=alert(3)>';
    const e = state.entries.find((x) => x.id === 'e1');
    if (e?.kind === 'edit') e.file = 'src/<b>&"\'.ts';
    const c = state.entries.find((x) => x.id === 'c1');
    if (c?.kind === 'commit') c.subject = 'fix: </div><script>x()</script>';
    state.sessions[0].agent = '"><script>y()</script>';
    const u = ui({ expanded: ['p1'] });
    const html = renderList(state, u) + R.renderToolbar(S.buildTimelineView(state, u), u, {}, fmt);
    assert.ok(!/<script/i.test(html), 'no script element');
    assert.ok(!/<img|<svg|<b>/i.test(html), 'no injected elements');
    assert.ok(
      html.includes('&lt;script&gt;alert(1)&lt;/script&gt;\n&lt;img src=x onerror=alert(2)&gt;'),
      'full text escaped, line break kept',
    );
    assert.ok(html.includes('&quot;&gt;&lt;svg onload=alert(3)&gt;'));
    assert.ok(html.includes('src/&lt;b&gt;&amp;&quot;&#39;.ts'));
    assert.ok(html.includes('fix: &lt;/div&gt;&lt;script&gt;x()&lt;/script&gt;'));
    assert.ok(html.includes('data-agent="&quot;&gt;&lt;script&gt;y()&lt;/script&gt;"'));
    assert.ok(html.includes('class="row row-session agent-other'), 'odd agent names never become class names');
  });

  it('is a listbox with a roving tabindex, one option per row, grouped by day', () => {
    const u = ui({ selectedId: 'e2' });
    const html = renderList(sampleTimeline(), u, { listLabel: 'Zeitachse' });
    assert.ok(html.startsWith('<div id="timeline-list" class="list" role="listbox" aria-label="Zeitachse" aria-describedby="list-count">'));
    const options = html.match(/role="option"[^>]*>/g) ?? [];
    assert.equal(options.length, 10);
    assert.equal((html.match(/tabindex="0"/g) ?? []).length, 1);
    assert.match(html, /id="row-6" data-index="6" tabindex="0" aria-selected="true" aria-posinset="7" aria-setsize="10"/);
    assert.equal((html.match(/aria-selected="true"/g) ?? []).length, 1);
    assert.deepEqual(
      [...html.matchAll(/<div class="day-label" id="day-\d+" role="presentation">([^<]*)<\/div>/g)].map((m) => m[1]),
      ['2026-03-03', '2026-03-02'],
    );
    assert.equal((html.match(/role="group"/g) ?? []).length, 2);
    assert.ok(html.endsWith('<div id="list-count" class="visually-hidden">10 items</div>'));
  });

  it('renders an edit row exactly', () => {
    const html = renderList();
    const row = html.slice(
      html.indexOf('<div class="row row-edit agent-cursor origin-ai"'),
      html.indexOf('</div>', html.indexOf('row-edit agent-cursor')) + 6,
    );
    assert.equal(
      row,
      '<div class="row row-edit agent-cursor origin-ai" role="option" id="row-1" data-index="1" tabindex="-1" aria-selected="false" aria-posinset="2" aria-setsize="10">' +
        '<span class="marker" aria-hidden="true"></span><span class="main"><span class="kind">Edit</span> <span class="file">src/api.ts</span> ' +
        '<span class="added" aria-label="39 added">+39</span> <span class="removed" aria-label="1 removed">−1</span> <span class="badge origin-ai">AI</span></span>' +
        '<time class="time" datetime="2026-03-03T10:06:00Z">10:06</time></div>',
    );
  });

  it('shows commits with a ratio bar (width applied later through the CSSOM) or "no Agent Note"', () => {
    const html = renderList();
    assert.ok(
      html.includes(
        '<span class="ratio-bar" role="img" aria-label="88% AI"><span class="ratio-fill" data-ratio="88"></span></span> <span class="ratio-text">88% AI</span> <span class="muted">by line</span> <span class="agent-name">claude</span>',
      ),
    );
    assert.ok(
      html.includes(
        '<code class="sha">5952e93</code> <span class="subject">fix: time out slow requests</span> <span class="summary"><span class="muted">no Agent Note</span></span>',
      ),
    );
    assert.ok(!html.includes('style='), 'no inline styles (blocked by the CSP)');
  });

  it('collapses prompts to their first line and expands to the full text and response', () => {
    const collapsed = renderList();
    assert.ok(collapsed.includes('<span class="first-line">Create a Todo type</span>'));
    assert.ok(!collapsed.includes('prompt-full'));
    const expanded = renderList(sampleTimeline(), ui({ expanded: ['p1'] }));
    assert.ok(
      expanded.includes(
        '<div class="details"><div class="prompt-full">Create a Todo type\nin src/todo.ts</div><div class="response"><span class="label">Response</span> Created `src/todo.ts`.</div></div>',
      ),
    );
    assert.ok(expanded.includes('class="row row-prompt agent-claude expanded"'));
  });

  it('shows the empty state from the host strings, or the English default', () => {
    const none = { sessions: [], entries: [], strings: {} };
    assert.equal(
      renderList(none, ui(), { empty: 'Noch keine Agent-Sitzungen…' }),
      '<div class="empty" role="status"><p>Noch keine Agent-Sitzungen…</p></div>',
    );
    assert.ok(renderList(none).includes('No agent sessions yet.'));
    const noMatch = renderList(sampleTimeline(), ui({}, { text: 'zzz' }));
    assert.equal(
      noMatch,
      '<div class="empty" role="status"><p>Nothing matches the current filters.</p><button type="button" id="empty-clear" class="link-button">Clear filters</button></div>',
    );
  });

  it('renders the filter bar from the UI state', () => {
    const u = ui({}, { agents: ['cursor'], sessionKey: 'claude:s1', file: 'gone.ts', text: 'a "quoted" <b>' });
    const html = R.renderToolbar(S.buildTimelineView(sampleTimeline(), u), u, {}, fmt);
    assert.ok(html.includes('value="a &quot;quoted&quot; &lt;b&gt;"'));
    assert.ok(html.includes('aria-keyshortcuts="/"'));
    assert.ok(html.includes('data-agent="claude" aria-pressed="false"'));
    assert.ok(html.includes('data-agent="cursor" aria-pressed="true"'));
    assert.ok(html.includes('<option value="claude:s1" selected>claude · claude-opus-4-6 · 6f1d2c3b · 2026-03-02 09:40 UTC</option>'));
    assert.ok(html.includes('<option value="gone.ts" selected>gone.ts</option>'), 'a persisted file that no longer exists stays selected');
    assert.ok(html.includes('<button type="button" id="clear-filters" class="link-button">Clear filters</button>'));
    const idle = R.renderToolbar(S.buildTimelineView(sampleTimeline(), ui()), ui(), {}, fmt);
    assert.ok(idle.includes('id="clear-filters" class="link-button" hidden>'));
  });

  it('shows a loading state before the host answered', () => {
    assert.equal(
      R.renderLoading({ loading: 'Wird geladen…' }),
      '<div class="empty" role="status" aria-busy="true"><p>Wird geladen…</p></div>',
    );
  });
});
