import * as assert from 'node:assert/strict';
import type { TimelineUiState } from '../../../src/webviews/timeline/protocol';
import { loadApp } from './loadApp';
import { sampleTimeline } from './timelineSample';

type StateModule = typeof import('../../../src/webviews/apps/timeline/state');
const S = loadApp<StateModule>('timeline/state');

const ui = (patch: Partial<TimelineUiState> = {}, filters: Partial<TimelineUiState['filters']> = {}): TimelineUiState => {
  const base = S.defaultTimelineUiState();
  return { ...base, ...patch, filters: { ...base.filters, ...filters } };
};
const ids = (u: TimelineUiState) => S.buildTimelineView(sampleTimeline(), u).rows.map((r) => r.id);

describe('Timeline state', () => {
  describe('buildTimelineView', () => {
    it('lists sessions and entries newest first', () => {
      const view = S.buildTimelineView(sampleTimeline(), ui());
      assert.deepEqual(
        view.rows.map((r) => r.id),
        ['c2', 'e4', 'p2', 'session:cursor:c1', 'c1', 'e3', 'e2', 'e1', 'p1', 'session:claude:s1'],
      );
      assert.equal(view.selectedId, 'c2', 'the first row holds the tab stop when nothing is selected');
      assert.deepEqual(view.agents, ['claude', 'cursor']);
      assert.deepEqual(
        view.sessions.map((s) => s.key),
        ['cursor:c1', 'claude:s1'],
      );
      assert.deepEqual(view.files, ['src/api.ts', 'src/store.ts', 'src/todo.ts']);
      assert.equal(view.empty, null);
      assert.equal(view.filtersActive, false);
    });

    it('puts a commit above the edit and prompt of the same second', () => {
      const state = sampleTimeline();
      for (const e of state.entries) if (['p1', 'e1', 'c1'].includes(e.id)) e.time = '2026-03-02T09:02:00Z';
      const rows = S.buildTimelineView(state, ui()).rows.map((r) => r.id);
      assert.deepEqual(rows.slice(4), ['e3', 'e2', 'c1', 'e1', 'p1', 'session:claude:s1']);
    });

    it('filters by agent chips (agents of sessions and of noted commits)', () => {
      assert.deepEqual(ids(ui({}, { agents: ['cursor'] })), ['e4', 'p2', 'session:cursor:c1']);
      assert.deepEqual(ids(ui({}, { agents: ['claude'] })), ['c1', 'e2', 'e1', 'p1', 'session:claude:s1']);
      assert.deepEqual(ids(ui({}, { agents: ['claude', 'cursor'] })).length, 8, 'human edit and un-noted commit have no agent');
    });

    it('filters by session', () => {
      assert.deepEqual(ids(ui({}, { sessionKey: 'claude:s1' })), ['c1', 'e2', 'e1', 'p1', 'session:claude:s1']);
    });

    it('filters by file, keeping the prompts of turns that edited it', () => {
      assert.deepEqual(ids(ui({}, { file: 'src/store.ts' })), ['c1', 'e3', 'e2', 'p1', 'session:claude:s1']);
      assert.deepEqual(ids(ui({}, { file: 'src/api.ts' })), ['c2', 'e4', 'p2', 'session:cursor:c1']);
    });

    it('filters by text over prompts, responses, files, subjects and sha prefixes', () => {
      assert.deepEqual(ids(ui({}, { text: 'OPEN-METEO' })), ['p2', 'session:cursor:c1']);
      assert.deepEqual(ids(ui({}, { text: 'created `src' })), ['p1', 'session:claude:s1']);
      assert.deepEqual(ids(ui({}, { text: 'api.ts' })), ['e4', 'session:cursor:c1']);
      assert.deepEqual(ids(ui({}, { text: '5952e' })), ['c2']);
      assert.deepEqual(ids(ui({}, { text: 'gpt-5' })), ['session:cursor:c1']);
      assert.deepEqual(ids(ui({}, { text: '   ' })).length, 10, 'blank text is no filter');
    });

    it('reports no data and no matches', () => {
      const empty = S.buildTimelineView({ sessions: [], entries: [], strings: {} }, ui());
      assert.equal(empty.empty, 'none');
      assert.equal(empty.selectedId, null);
      const none = S.buildTimelineView(sampleTimeline(), ui({}, { text: 'zzz' }));
      assert.equal(none.empty, 'noMatches');
      assert.equal(none.filtersActive, true);
    });

    it('keeps a persisted agent chip even when its data is gone', () => {
      const view = S.buildTimelineView({ sessions: [], entries: [], strings: {} }, ui({}, { agents: ['gemini'] }));
      assert.deepEqual(view.agents, ['gemini']);
    });
  });

  describe('keyboard', () => {
    it('maps keys to intents per focus area', () => {
      assert.deepEqual(S.keyToIntent({ key: 'ArrowDown' }, 'list'), { type: 'move', to: 'next' });
      assert.deepEqual(S.keyToIntent({ key: 'ArrowUp' }, 'list'), { type: 'move', to: 'prev' });
      assert.deepEqual(S.keyToIntent({ key: 'Home' }, 'list'), { type: 'move', to: 'first' });
      assert.deepEqual(S.keyToIntent({ key: 'End' }, 'list'), { type: 'move', to: 'last' });
      assert.deepEqual(S.keyToIntent({ key: 'Enter' }, 'list'), { type: 'activate' });
      assert.deepEqual(S.keyToIntent({ key: ' ' }, 'list'), { type: 'activate' });
      assert.deepEqual(S.keyToIntent({ key: '/' }, 'list'), { type: 'focusFilter' });
      assert.deepEqual(S.keyToIntent({ key: '/' }, 'other'), { type: 'focusFilter' });
      assert.deepEqual(S.keyToIntent({ key: 'Escape' }, 'list'), { type: 'escape' });
      assert.deepEqual(S.keyToIntent({ key: 'Escape' }, 'filter'), { type: 'escape' });
      assert.deepEqual(S.keyToIntent({ key: 'ArrowDown' }, 'filter'), { type: 'focusList' });
      assert.equal(S.keyToIntent({ key: '/' }, 'filter'), undefined, 'typing / in the filter box types it');
      assert.equal(S.keyToIntent({ key: 'ArrowDown', ctrlKey: true }, 'list'), undefined);
      assert.equal(S.keyToIntent({ key: 'a' }, 'list'), undefined);
    });

    it('moves the selection with next / prev / home / end and clamps at the ends', () => {
      const view = S.buildTimelineView(sampleTimeline(), ui());
      let u = ui();
      const move = (to: 'next' | 'prev' | 'first' | 'last') => {
        u = S.reduceTimelineUi(u, { type: 'move', to }, S.buildTimelineView(sampleTimeline(), u));
        return u.selectedId;
      };
      assert.equal(move('next'), 'e4');
      assert.equal(move('next'), 'p2');
      assert.equal(move('prev'), 'e4');
      assert.equal(move('last'), 'session:claude:s1');
      assert.equal(move('next'), 'session:claude:s1');
      assert.equal(move('first'), 'c2');
      assert.equal(move('prev'), 'c2');
      assert.equal(S.reduceTimelineUi(ui(), { type: 'move', to: 'pageNext' }, view).selectedId, 'session:claude:s1');
      const before = ui();
      const empty = S.buildTimelineView({ sessions: [], entries: [], strings: {} }, before);
      assert.equal(S.reduceTimelineUi(before, { type: 'move', to: 'next' }, empty), before, 'nothing to move to');
    });

    it('activates: edit → diff (or file without blobs), commit → note, prompt → expand, session → filter', () => {
      const state = sampleTimeline();
      const at = (id: string) => {
        const u = ui({ selectedId: id });
        return S.applyIntent(u, { type: 'activate' }, S.buildTimelineView(state, u), 'list');
      };
      assert.deepEqual(at('e1').command, { type: 'openEditDiff', editId: 'e1' });
      assert.deepEqual(at('e2').command, { type: 'openFile', file: 'src/store.ts' });
      assert.deepEqual(at('c1').command, { type: 'openNote', sha: '07e49a78a568f2f913b469fb894f90c368a6ba64' });
      assert.deepEqual(at('c2').command, { type: 'openNote', sha: '5952e93ec0163e0ecee07f866f6a14652340fd96' });
      const p = at('p1');
      assert.equal(p.command, undefined);
      assert.deepEqual(p.ui.expanded, ['p1']);
      const collapsed = S.applyIntent(p.ui, { type: 'activate' }, S.buildTimelineView(state, p.ui), 'list');
      assert.deepEqual(collapsed.ui.expanded, []);
      const s = at('session:cursor:c1');
      assert.equal(s.ui.filters.sessionKey, 'cursor:c1');
      const again = S.applyIntent(s.ui, { type: 'activate' }, S.buildTimelineView(state, s.ui), 'list');
      assert.equal(again.ui.filters.sessionKey, null, 'activating the filtered session clears the filter');
    });

    it('expands and collapses prompts with ArrowRight / ArrowLeft only', () => {
      const state = sampleTimeline();
      const u = ui({ selectedId: 'p2' });
      const open = S.applyIntent(u, { type: 'expand' }, S.buildTimelineView(state, u), 'list').ui;
      assert.deepEqual(open.expanded, ['p2']);
      assert.deepEqual(S.applyIntent(open, { type: 'collapse' }, S.buildTimelineView(state, open), 'list').ui.expanded, []);
      const onEdit = ui({ selectedId: 'e4' });
      assert.equal(S.applyIntent(onEdit, { type: 'expand' }, S.buildTimelineView(state, onEdit), 'list').ui, onEdit);
    });

    it('Escape clears the filter text first, then leaves the box; in the list it clears filters, then collapses', () => {
      const state = sampleTimeline();
      const typed = ui({}, { text: 'todo', agents: ['claude'] });
      const r1 = S.applyIntent(typed, { type: 'escape' }, S.buildTimelineView(state, typed), 'filter');
      assert.deepEqual(r1.ui.filters, { agents: ['claude'], sessionKey: null, file: null, text: '' });
      const r2 = S.applyIntent(r1.ui, { type: 'escape' }, S.buildTimelineView(state, r1.ui), 'filter');
      assert.equal(r2.focus, 'list');
      const r3 = S.applyIntent(r2.ui, { type: 'escape' }, S.buildTimelineView(state, r2.ui), 'list');
      assert.deepEqual(r3.ui.filters, { agents: [], sessionKey: null, file: null, text: '' });
      const expanded = ui({ selectedId: 'p1', expanded: ['p1'] });
      assert.deepEqual(S.applyIntent(expanded, { type: 'escape' }, S.buildTimelineView(state, expanded), 'list').ui.expanded, []);
      assert.deepEqual(S.applyIntent(ui(), { type: 'focusFilter' }, S.buildTimelineView(state, ui()), 'list').focus, 'filter');
    });
  });

  describe('UI state', () => {
    it('toggles agent chips and sets filters', () => {
      const view = S.buildTimelineView(sampleTimeline(), ui());
      let u = S.reduceTimelineUi(ui(), { type: 'toggleAgent', agent: 'claude' }, view);
      u = S.reduceTimelineUi(u, { type: 'toggleAgent', agent: 'cursor' }, view);
      u = S.reduceTimelineUi(u, { type: 'toggleAgent', agent: 'claude' }, view);
      assert.deepEqual(u.filters.agents, ['cursor']);
      u = S.reduceTimelineUi(u, { type: 'setFile', file: 'src/api.ts' }, view);
      u = S.reduceTimelineUi(u, { type: 'setSession', sessionKey: 'cursor:c1' }, view);
      assert.deepEqual(u.filters, { agents: ['cursor'], sessionKey: 'cursor:c1', file: 'src/api.ts', text: '' });
      assert.deepEqual(S.reduceTimelineUi(u, { type: 'clearFilters' }, view).filters, {
        agents: [],
        sessionKey: null,
        file: null,
        text: '',
      });
    });

    it('restores a persisted UI state field by field and rejects garbage', () => {
      assert.deepEqual(S.parseTimelineUiState(undefined), S.defaultTimelineUiState());
      assert.deepEqual(S.parseTimelineUiState('x'), S.defaultTimelineUiState());
      assert.deepEqual(S.parseTimelineUiState({ v: 2, selectedId: 'a' }), S.defaultTimelineUiState());
      assert.deepEqual(
        S.parseTimelineUiState({
          v: 1,
          filters: { agents: ['claude', 'claude', 3], sessionKey: 'k', file: 7, text: 'q' },
          selectedId: 'p1',
          expanded: ['p1'],
          scrollTop: 120,
        }),
        { v: 1, filters: { agents: [], sessionKey: 'k', file: null, text: 'q' }, selectedId: 'p1', expanded: ['p1'], scrollTop: 120 },
      );
      assert.deepEqual(S.parseTimelineUiState({ v: 1, filters: { agents: ['claude', 'claude'] }, scrollTop: -5 }).filters.agents, [
        'claude',
      ]);
      assert.equal(S.parseTimelineUiState({ v: 1, scrollTop: -5 }).scrollTop, 0);
    });

    it('drops expansion ids whose entries are gone', () => {
      assert.deepEqual(S.pruneUiState(ui({ expanded: ['p1', 'gone'] }), sampleTimeline()).expanded, ['p1']);
    });

    it('applies "Open in Timeline": selects the commit (revealing it past filters) or filters to the session', () => {
      const state = sampleTimeline();
      const filtered = ui({}, { agents: ['cursor'] });
      const r = S.applyTimelineFocus(filtered, { sha: '07e49a7' }, state);
      assert.equal(r.selectedId, 'c1');
      assert.deepEqual(r.filters.agents, []);
      const kept = S.applyTimelineFocus(ui({}, { agents: ['claude'] }), { sha: '07E49A78A568F2F913B469FB894F90C368A6BA64' }, state);
      assert.deepEqual(kept.filters.agents, ['claude'], 'filters that show the commit are kept');
      const s = S.applyTimelineFocus(ui({}, { text: 'x' }), { sessionKey: 'claude:s1' }, state);
      assert.deepEqual(s.filters, { agents: [], sessionKey: 'claude:s1', file: null, text: '' });
      assert.equal(s.selectedId, 'session:claude:s1');
      const same = ui();
      assert.equal(S.applyTimelineFocus(same, { sha: 'ffffff0' }, state), same);
      assert.equal(S.applyTimelineFocus(same, { sessionKey: 'nope' }, state), same);
    });
  });
});
