import * as assert from 'node:assert/strict';
import {
  buildTimelineModel,
  emptyModelFilters,
  filterTimelineModel,
  relatedMarks,
  timelineFilterOptions,
  type TimelineModel,
} from '../../../src/core/timeline/timelineModel';
import { firstChangedLine } from '../../../src/core/timeline/changedLine';
import type { TimelineCommitEntry, TimelineEntry } from '../../../src/core/timeline/timelineTypes';
import { sampleTimeline } from '../webviews/timelineSample';

const ids = (m: TimelineModel) => m.marks.map((x) => x.id);
const kinds = (m: TimelineModel) => m.marks.map((x) => `${x.id}:${x.kind}`);

function withBranches(): ReturnType<typeof sampleTimeline> {
  const s = sampleTimeline();
  for (const e of s.entries) if (e.kind === 'commit') e.branches = e.id === 'c1' ? ['main'] : ['feature'];
  s.entries.push({
    kind: 'edit',
    id: 'e5',
    sessionKey: 'cursor:c1',
    turn: 1,
    time: '2026-03-03T11:30:00Z',
    file: 'src/new.ts',
    added: 5,
    removed: 0,
    origin: 'ai',
    hasBlobs: true,
  });
  return s;
}

describe('timeline model (Timeline v2)', () => {
  it('puts every mark in time order on its lane: sessions, the person, commits', () => {
    const m = buildTimelineModel(sampleTimeline());
    assert.deepEqual(
      m.lanes.map((l) => l.key),
      ['session:claude:s1', 'session:cursor:c1', 'human', 'commits'],
    );
    assert.deepEqual(ids(m), ['session:claude:s1', 'p1', 'e1', 'e2', 'e3', 'c1', 'session:cursor:c1', 'p2', 'e4', 'c2']);
    assert.deepEqual(m.byLane, [[0, 1, 2, 3], [6, 7, 8], [4], [5, 9]]);
    assert.equal(m.start, Date.parse('2026-03-02T09:00:00Z'));
    assert.equal(m.end, Date.parse('2026-03-03T11:00:00Z'));
  });

  it('a session start comes before its first prompt at the same time (the v1 list showed the prompt above it); other ties keep the input order', () => {
    const s = sampleTimeline();
    s.sessions[0].startedAt = '2026-03-02T09:01:00Z'; // the host takes the first turn's time as the start
    const same = '2026-03-02T09:02:00Z';
    const e2 = s.entries.find((e) => e.id === 'e2') as TimelineEntry;
    e2.time = same; // e1 and e2 at the same instant, e1 first in the input
    const m = buildTimelineModel(s);
    assert.deepEqual(ids(m).slice(0, 4), ['session:claude:s1', 'p1', 'e1', 'e2']);
    // reversed input: the session still first (kind), the edits in the new input order
    s.entries.reverse();
    s.sessions.reverse();
    const r = buildTimelineModel(s);
    assert.deepEqual(ids(r).slice(0, 4), ['session:claude:s1', 'p1', 'e2', 'e1']);
  });

  it('a session starts no later than its earliest prompt or edit (an edit seen before the first turn)', () => {
    const s = sampleTimeline();
    s.sessions[0].startedAt = '2026-03-02T09:05:00Z'; // after p1 (09:01) and e1 (09:02)
    const m = buildTimelineModel(s);
    assert.deepEqual(ids(m).slice(0, 3), ['session:claude:s1', 'p1', 'e1']);
    assert.equal(m.marks[0].t, Date.parse('2026-03-02T09:01:00Z'));
  });

  it('links each edit to the first later commit whose note lists its file, and a prompt to its edits and their commits', () => {
    const m = buildTimelineModel(sampleTimeline());
    const get = (id: string) => m.marks[m.byId.get(id) as number];
    assert.deepEqual(get('e1').commits, ['c1']);
    assert.deepEqual(get('e3').commits, ['c1']); // the person's edit of src/store.ts
    assert.deepEqual(get('e4').commits, ['c2']);
    assert.equal(get('e1').promptId, 'p1');
    assert.equal(get('e3').promptId, null);
    assert.deepEqual(get('p1').files, ['src/store.ts', 'src/todo.ts']);
    assert.deepEqual(get('p1').commits, ['c1']);
    assert.deepEqual(get('c1').files, ['src/store.ts', 'src/todo.ts']);
    const rel = relatedMarks(m, 'c1');
    assert.deepEqual(
      rel.edits.map((x) => x.id),
      ['e1', 'e2', 'e3'],
    );
    assert.deepEqual(
      relatedMarks(m, 'p1').edits.map((x) => x.id),
      ['e1', 'e2'],
    );
    assert.equal(relatedMarks(m, 'e2').prompt?.id, 'p1');
    assert.deepEqual(
      relatedMarks(m, 'e2').commits.map((x) => x.id),
      ['c1'],
    );
  });

  it('claims no commit without a file list, nor one before the edit; an edit after HEAD that no commit took is uncommitted', () => {
    const s = withBranches();
    const c1 = s.entries.find((e) => e.id === 'c1') as TimelineCommitEntry;
    delete c1.files; // an unnoted commit: its files are not known
    const m = buildTimelineModel({ ...s, headTime: '2026-03-03T11:00:00Z' });
    const get = (id: string) => m.marks[m.byId.get(id) as number];
    assert.deepEqual(get('e1').commits, []);
    assert.equal(get('e1').kind, 'edit', 'older than HEAD: a gap, not "uncommitted"');
    assert.deepEqual(get('e5').commits, []);
    assert.equal(get('e5').kind, 'uncommitted');
    assert.deepEqual(kinds(m).slice(-2), ['c2:commit', 'e5:uncommitted']);
    // commit times have whole seconds: an edit 400 ms into the commit's second still went into it
    const t = sampleTimeline();
    (t.entries.find((e) => e.id === 'e4') as TimelineEntry).time = '2026-03-03T11:00:00.400Z';
    const n = buildTimelineModel(t);
    assert.deepEqual(n.marks[n.byId.get('e4') as number].commits, ['c2']);
  });

  it('filters by agent, file, branch and date range; lanes without marks go', () => {
    const s = withBranches();
    const m = buildTimelineModel(s);
    const f = (patch: Partial<ReturnType<typeof emptyModelFilters>>) =>
      filterTimelineModel(m, { ...emptyModelFilters(), ...patch }, 'main');
    const claude = f({ agents: ['claude'] });
    assert.deepEqual(ids(claude), ['session:claude:s1', 'p1', 'e1', 'e2', 'c1']);
    assert.deepEqual(
      claude.lanes.map((l) => l.key),
      ['session:claude:s1', 'commits'],
    );
    assert.deepEqual(claude.byLane, [[0, 1, 2, 3], [4]]);
    assert.deepEqual(ids(f({ file: 'src/store.ts' })), ['p1', 'e2', 'e3', 'c1']);
    assert.deepEqual(ids(f({ branch: 'main' })), ['session:claude:s1', 'p1', 'e1', 'e2', 'e3', 'c1', 'session:cursor:c1', 'e5']);
    assert.deepEqual(ids(f({ branch: 'feature' })), ['p2', 'e4', 'c2']);
    assert.deepEqual(ids(f({ from: Date.parse('2026-03-03T00:00:00Z'), to: Date.parse('2026-03-03T10:59:59Z') })), [
      'session:cursor:c1',
      'p2',
      'e4',
    ]);
    assert.deepEqual(ids(f({ agents: ['gemini'] })), []);
    assert.deepEqual(f({ agents: ['gemini'] }).lanes, []);
    assert.deepEqual(timelineFilterOptions(m), {
      agents: ['claude', 'cursor'],
      files: ['src/api.ts', 'src/new.ts', 'src/store.ts', 'src/todo.ts'],
      branches: ['feature', 'main'],
    });
  });

  it('handles an empty snapshot and unknown session keys', () => {
    const m = buildTimelineModel({ sessions: [], entries: [] });
    assert.deepEqual([m.lanes, m.marks, m.start, m.end], [[], [], 0, 0]);
    const n = buildTimelineModel({
      sessions: [],
      entries: [
        { kind: 'prompt', id: 'p', sessionKey: 'gone', turn: 1, time: '2026-01-01T00:00:00Z', firstLine: 'x', text: 'x', response: null },
        {
          kind: 'edit',
          id: 'e',
          sessionKey: 'gone',
          turn: 1,
          time: 'not a time',
          file: 'a.ts',
          added: 1,
          removed: 0,
          origin: 'ai',
          hasBlobs: false,
        },
      ],
    });
    // a prompt of an unknown session has no lane; its edit falls to the person's lane rather than vanish
    assert.deepEqual(ids(n), ['e']);
    assert.deepEqual(
      n.lanes.map((l) => l.key),
      ['human'],
    );
    assert.equal(n.marks[0].t, 0);
  });
});

describe('firstChangedLine (Reveal Line)', () => {
  it('is the 1-based first line that differs', () => {
    assert.equal(firstChangedLine('a\nb\nc\n', 'a\nB\nc\n'), 2);
    assert.equal(firstChangedLine('a\nb', 'a\nb\nc'), 3);
    assert.equal(firstChangedLine('a\r\nb\r\n', 'a\nb\nnew\n'), 3);
    assert.equal(firstChangedLine('x', 'y'), 1);
    assert.equal(firstChangedLine('same', 'same'), 1);
    assert.equal(firstChangedLine('a\nb\nc', 'a\nc'), 2);
  });
});
