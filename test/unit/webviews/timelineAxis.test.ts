import * as assert from 'node:assert/strict';
import { buildTimelineModel } from '../../../src/core/timeline/timelineModel';
import type { TimelineUiState } from '../../../src/webviews/timeline/protocol';
import { loadApp } from './loadApp';
import { sampleTimeline } from './timelineSample';

type AxisModule = typeof import('../../../src/webviews/apps/timeline/axis');
type AxisStateModule = typeof import('../../../src/webviews/apps/timeline/axisState');
type AxisRenderModule = typeof import('../../../src/webviews/apps/timeline/axisRender');
type TimeModule = typeof import('../../../src/webviews/apps/shared/time');
const A = loadApp<AxisModule>('timeline/axis');
const S = loadApp<AxisStateModule>('timeline/axisState');
const R = loadApp<AxisRenderModule>('timeline/axisRender');
const { utcTimeFormat: fmt } = loadApp<TimeModule>('shared/time');

const minute = 60_000;
const vp = (start: number, end: number, width = 1000) => ({ start, end, width });

describe('Timeline v2 axis math', () => {
  it('maps time to pixels and back', () => {
    const v = vp(1000, 11_000, 100);
    assert.equal(A.xOf(6000, v), 50);
    assert.equal(A.tOf(50, v), 6000);
    assert.equal(A.xOf(1000, v), 0);
    assert.equal(A.xOf(11_000, v), 100);
  });

  it('zooms around the anchor, clamps the span, pans by pixels, fits with a margin', () => {
    const v = vp(0, 100 * minute, 1000);
    const z = A.zoomAt(v, 2, 250); // 25 % from the left stays put
    assert.equal(A.tOf(250, z), A.tOf(250, v));
    assert.equal(z.end - z.start, 50 * minute);
    assert.deepEqual(A.zoomAt(v, 1e12), { ...v, start: A.tOf(500, v) - 500, end: A.tOf(500, v) + 500 }, 'no narrower than a second');
    assert.equal(A.zoomAt(v, 1e-12).end - A.zoomAt(v, 1e-12).start, A.maxSpanMs);
    assert.deepEqual(A.panBy(v, 100), { ...v, start: 10 * minute, end: 110 * minute });
    const f = A.fitViewport(0, 100 * minute, 800);
    assert.deepEqual(f, { start: -4 * minute, end: 104 * minute, width: 800 });
    assert.equal(A.fitViewport(5000, 5000, 10).end - A.fitViewport(5000, 5000, 10).start, 64_800, 'a single instant gets a minute (+ 8 %)');
  });

  it('keeps a time in view with a margin', () => {
    const v = vp(0, 1000, 1000);
    assert.equal(A.ensureVisible(v, 500), v);
    assert.deepEqual(A.ensureVisible(v, 1200, 24), { ...v, start: 224, end: 1224 });
    assert.deepEqual(A.ensureVisible(v, -100, 24), { ...v, start: -124, end: 876 });
  });

  it('picks tick steps that leave room for a label, aligned to the zone', () => {
    assert.equal(A.tickStep(vp(0, 60 * minute, 1200)), 5 * minute);
    assert.equal(A.tickStep(vp(0, 30 * 24 * 60 * minute, 1200)), 7 * 24 * 60 * minute);
    const ts = A.ticks(vp(1 * minute + 30_000, 21 * minute, 1200));
    assert.deepEqual(
      ts.map((t) => t.t / minute),
      [5, 10, 15, 20],
    );
    assert.equal(ts[0].unit, 'minute');
    // two hours ahead of UTC: day ticks fall on local midnight (22:00 UTC)
    const day = 24 * 60 * minute;
    const d = A.ticks(vp(0, 10 * day, 1200), 2 * 60 * minute);
    assert.equal(d[0].t, day - 2 * 60 * minute);
  });

  it('finds the window of sorted times by binary search', () => {
    const times = [10, 20, 20, 30, 40];
    assert.deepEqual(A.timeWindow(times, 20, 30), { from: 1, to: 4 });
    assert.deepEqual(A.timeWindow(times, 41, 50), { from: 5, to: 5 });
    assert.deepEqual(A.timeWindow(times, 0, 9), { from: 0, to: 0 });
    assert.equal(A.lowerBound(times, 25), 3);
    assert.equal(A.nearestIndex(times, 24), 2);
    assert.equal(A.nearestIndex(times, 26), 3);
    assert.equal(A.nearestIndex(times, 99), 4);
    assert.equal(A.nearestIndex([], 1), -1);
  });

  it('windows the lanes scrolled into view, with overscan', () => {
    assert.deepEqual(A.laneWindow(0, 300, 30, 100), { from: 0, to: 12 });
    assert.deepEqual(A.laneWindow(900, 300, 30, 100), { from: 28, to: 42 });
    assert.deepEqual(A.laneWindow(2950, 300, 30, 100), { from: 96, to: 100 });
    assert.deepEqual(A.laneWindow(0, 300, 30, 0), { from: 0, to: 0 });
  });

  it('places only the marks in view and merges those closer than the merge distance', () => {
    const v = vp(0, 1000, 100); // 10 ms per px
    const placed = A.placeLane([-500, 0, 20, 40, 100, 500, 505, 990, 2000], v, 6, 0);
    assert.deepEqual(placed, [
      { x: 0, first: 1, count: 3 }, // a group is anchored at its first mark: 0, 2 and 4 px
      { x: 10, first: 4, count: 1 },
      { x: 50, first: 5, count: 2 },
      { x: 99, first: 7, count: 1 },
    ]);
  });

  it('virtualizes 10,000 events: drawn elements are bounded by the width, every event in view is counted once', () => {
    const times = Float64Array.from({ length: 10_000 }, (_, i) => i * 1000);
    const all = A.placeLane(times, vp(0, 10_000_000, 1200), 16);
    assert.ok(all.length <= 1200 / 16 + 1, `${all.length} groups`);
    assert.equal(
      all.reduce((n, p) => n + p.count, 0),
      10_000,
    );
    const zoomed = A.placeLane(times, vp(5_000_000, 5_060_000, 1200), 16, 0);
    assert.deepEqual([zoomed.length, zoomed[0].first, zoomed.reduce((n, p) => n + p.count, 0)], [61, 5000, 61]);
  });
});

describe('Timeline v2 axis UI state', () => {
  const model = () => buildTimelineModel(sampleTimeline());

  it('restores a persisted axis state field by field and rejects garbage', () => {
    assert.deepEqual(S.parseAxisUi(undefined), S.defaultAxisUi());
    assert.deepEqual(S.parseAxisUi({ view: 'list', branch: 'main', from: '2026-03-02', to: 'yesterday', window: { start: 5, end: 1 } }), {
      ...S.defaultAxisUi(),
      view: 'list',
      branch: 'main',
      from: '2026-03-02',
    });
    assert.deepEqual(S.parseAxisUi({ view: 'grid', selectedId: 'c1', focusId: 7, window: { start: 1, end: 5 } }), {
      ...S.defaultAxisUi(),
      selectedId: 'c1',
      window: { start: 1, end: 5 },
    });
  });

  it('turns the date range into inclusive local-day bounds', () => {
    assert.equal(S.dayBound('2026-03-02'), new Date(2026, 2, 2).getTime());
    assert.equal(S.dayBound('2026-03-02', true), new Date(2026, 2, 3).getTime() - 1);
    assert.equal(S.dayBound('garbage'), null);
    const filters: TimelineUiState['filters'] = { agents: ['claude'], sessionKey: null, file: 'a.ts', text: '' };
    assert.deepEqual(S.axisModelFilters(filters, { ...S.defaultAxisUi(), branch: 'main', to: '2026-03-02' }), {
      agents: ['claude'],
      file: 'a.ts',
      branch: 'main',
      from: null,
      to: new Date(2026, 2, 3).getTime() - 1,
    });
  });

  it('maps keys: arrows move, Shift+arrows pan, + − 0 zoom, Enter selects, N D R run the commands', () => {
    const k = (key: string, shiftKey = false) => S.axisKeyToIntent({ key, shiftKey });
    assert.deepEqual(k('ArrowRight'), { type: 'move', to: 'next' });
    assert.deepEqual(k('ArrowLeft', true), { type: 'pan', dir: -1 });
    assert.deepEqual(k('ArrowDown'), { type: 'move', to: 'down' });
    assert.deepEqual(k('+'), { type: 'zoom', factor: S.zoomStep });
    assert.deepEqual(k('-'), { type: 'zoom', factor: 1 / S.zoomStep });
    assert.deepEqual(k('0'), { type: 'fit' });
    assert.deepEqual(k('Enter'), { type: 'select' });
    assert.deepEqual(k('n'), { type: 'showNote' });
    assert.deepEqual(k('d'), { type: 'openDiff' });
    assert.deepEqual(k('r'), { type: 'revealLine' });
    assert.equal(S.axisKeyToIntent({ key: '+', ctrlKey: true }), undefined, 'browser zoom stays the browser’s');
    assert.equal(k('x'), undefined);
  });

  it('moves the focus along a lane in time and to the nearest mark of the next lane with marks', () => {
    const m = model();
    assert.equal(S.focusMark(m, null), 'c2', 'the newest mark by default');
    assert.equal(S.focusMark(m, 'gone'), 'c2');
    assert.equal(S.moveFocus(m, 'p1', 'next'), 'e1');
    assert.equal(S.moveFocus(m, 'p1', 'prev'), 'session:claude:s1');
    assert.equal(S.moveFocus(m, 'session:claude:s1', 'prev'), 'session:claude:s1');
    assert.equal(S.moveFocus(m, 'p1', 'last'), 'e2');
    assert.equal(S.moveFocus(m, 'e2', 'first'), 'session:claude:s1');
    assert.equal(S.moveFocus(m, 'e2', 'down'), 'session:cursor:c1', 'nearest in time on the next lane');
    assert.equal(S.moveFocus(m, 'p2', 'down'), 'e3', 'the human lane');
    assert.equal(S.moveFocus(m, 'e3', 'down'), 'c1');
    assert.equal(S.moveFocus(m, 'c1', 'down'), 'c1', 'the last lane');
    assert.equal(S.moveFocus(m, 'p1', 'up'), 'p1');
    assert.equal(S.moveFocus(buildTimelineModel({ sessions: [], entries: [] }), null, 'next'), null);
  });
});

describe('Timeline v2 axis render', () => {
  const names = { claude: 'Claude Code', cursor: 'Cursor' };

  it('labels lanes and marks', () => {
    const m = buildTimelineModel(sampleTimeline());
    assert.deepEqual(
      m.lanes.map((l) => R.laneLabel(l, names, {})),
      ['Claude Code · claude-opus-4-6 · 6f1d2c3b', 'Cursor · gpt-5 · conv-dem', 'Your edits', 'Commits'],
    );
    const get = (id: string) => m.marks[m.byId.get(id) as number];
    assert.equal(R.markAriaLabel(get('p1'), {}, fmt), 'Prompt: Create a Todo type, 2026-03-02 09:01 UTC');
    assert.equal(R.markText(get('e1'), {}), 'Edit: src/todo.ts +12 −0');
    assert.equal(R.markText(get('c1'), {}), 'Commit 07e49a7: feat: add Todo model');
    assert.equal(R.markText(get('session:claude:s1'), { sessionStart: 'Sitzung begonnen' }), 'Sitzung begonnen');
  });

  it('shows the selection: prompt and response escaped, files, the commit it went into, and the commands that apply', () => {
    const s = sampleTimeline();
    const p = s.entries.find((e) => e.id === 'p1');
    if (p?.kind !== 'prompt') throw new Error('fixture');
    p.text = '<script>alert(1)</script>\nsecond line';
    p.response = '"><img src=x onerror=alert(2)>';
    const m = buildTimelineModel(s);
    const html = R.renderDetails(m, 'e1', names, {}, fmt);
    assert.ok(!html.includes('<script>') && !html.includes('<img'), 'no markup from the transcript');
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;\nsecond line/);
    assert.match(html, /&quot;&gt;&lt;img src=x onerror=alert\(2\)&gt;/);
    assert.match(html, /data-open-file="src\/todo\.ts"/);
    assert.match(html, /data-select="c1"><code class="sha">07e49a7<\/code> feat: add Todo model/);
    assert.match(html, /data-action="showNote" data-sha="07e49a78a568f2f913b469fb894f90c368a6ba64"/);
    assert.match(html, /data-action="openDiff"/);
    assert.match(html, /data-action="revealLine"/);
    // an edit without blobs: no diff; a commit: its edits and Show Note, no diff or reveal
    assert.doesNotMatch(R.renderDetails(m, 'e2', names, {}, fmt), /openDiff/);
    const commit = R.renderDetails(m, 'c1', names, {}, fmt);
    assert.match(commit, /Edits in this commit/);
    assert.match(R.renderDetails(m, 'p1', names, {}, fmt), /Edits of this prompt/);
    assert.deepEqual(
      [...commit.matchAll(/data-select="(e\d)"/g)].map((x) => x[1]),
      ['e1', 'e2', 'e3'],
    );
    assert.doesNotMatch(commit, /revealLine|openDiff/);
    // an unnoted commit offers no Show Note; nothing selected shows the hint
    assert.doesNotMatch(R.renderDetails(m, 'e4', names, {}, fmt), /showNote/);
    assert.match(R.renderDetails(m, null, names, {}, fmt), /Select a mark/);
  });

  it('renders the filter bar with the current values selected and escaped', () => {
    const m = buildTimelineModel(sampleTimeline());
    const ui: TimelineUiState = {
      v: 1,
      filters: { agents: ['claude'], sessionKey: null, file: 'src/"x".ts', text: '' },
      selectedId: null,
      expanded: [],
      scrollTop: 0,
    };
    const html = R.renderAxisToolbar(
      { agents: ['claude', 'cursor'], files: ['src/api.ts'], branches: ['main'] },
      ui,
      { ...S.defaultAxisUi(), branch: 'main', from: '2026-03-02' },
      names,
      {},
    );
    assert.match(html, /data-agent="claude" aria-pressed="true"/);
    assert.match(html, /data-agent="cursor" aria-pressed="false"/);
    assert.match(html, /<option value="src\/&quot;x&quot;\.ts" selected>/);
    assert.match(html, /<option value="main" selected>main<\/option>/);
    assert.match(html, /id="axis-from" value="2026-03-02"/);
    assert.doesNotMatch(html, /id="axis-clear"[^>]*hidden/);
    assert.equal(m.lanes.length, 4);
    assert.match(R.renderViewSwitch(S.defaultAxisUi(), {}), /data-view="axis" aria-pressed="true"/);
  });
});
