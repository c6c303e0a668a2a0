import * as assert from 'node:assert/strict';
import { Counters } from '../../../src/core/ports';
import { TimelineController } from '../../../src/webviews/timeline/timelineController';
import type { TimelineState } from '../../../src/webviews/timeline/protocol';
import { FakeTimelineSource, FakeTransport, recordingLogger, settle } from './fakes';

const session = {
  key: 'claude:s1',
  agent: 'claude',
  sessionId: 's1',
  model: 'claude-opus-4-6',
  startedAt: '2026-03-02T09:00:00Z',
  lastActivityAt: '2026-03-02T09:31:00Z',
  active: false,
};

function setup() {
  const t = new FakeTransport();
  const src = new FakeTimelineSource();
  src.state = { sessions: [session], entries: [], strings: { title: 'Chronologie' } };
  const log = recordingLogger();
  const counters = new Counters();
  const errors: string[] = [];
  const c = new TimelineController(t, src, log, {
    strings: { title: 'Agent Timeline', empty: 'Nothing yet' },
    counters,
    onActionError: (a) => errors.push(a),
  });
  return { t, src, log, counters, errors, c };
}

describe('TimelineController', () => {
  it('answers ready with a full snapshot (localized strings under the source’s own) and posts nothing before', async () => {
    const { t, src, c } = setup();
    src.fire();
    await settle();
    assert.equal(t.posted.length, 0, 'no post before ready');
    assert.equal(src.getStateCalls, 0, 'no snapshot computed before ready');
    await c.handleMessage({ id: 'wv-1', method: 'timeline/ready' });
    assert.equal(t.posted.length, 1);
    const [reply] = t.posted;
    assert.equal(reply.method, 'timeline/ready/completion');
    assert.equal(reply.completionId, 'wv-1');
    const state = reply.params as TimelineState;
    assert.deepEqual(state.sessions, [session]);
    assert.deepEqual(state.strings, { title: 'Chronologie', empty: 'Nothing yet' });
    assert.equal(src.getStateCalls, 1, 'the pending change was folded into the ready reply');
  });

  it('pushes a snapshot per change while visible, and only the newest after being hidden', async () => {
    const { t, src, c } = setup();
    await c.handleMessage({ id: 'wv-1', method: 'timeline/ready' });
    src.state.sessions[0].active = true;
    src.fire();
    await settle();
    assert.deepEqual(t.methods(), ['timeline/ready/completion', 'timeline/didChangeState']);
    assert.equal((t.posted[1].params as TimelineState).sessions[0].active, true);

    await c.setVisible(false);
    src.fire();
    src.fire();
    src.fire();
    await settle();
    assert.equal(t.posted.length, 2);
    assert.equal(src.getStateCalls, 2, 'nothing computed while hidden');
    await c.setVisible(true);
    await c.handleMessage({ id: 'wv-2', method: 'timeline/ready' });
    await settle();
    assert.deepEqual(t.methods(), ['timeline/ready/completion', 'timeline/didChangeState', 'timeline/ready/completion']);
    assert.equal(src.getStateCalls, 3);
  });

  it('sends "Open in Timeline" focus after the snapshot', async () => {
    const { t, c } = setup();
    await c.focus({ sha: 'a76d22f' });
    await c.focus({});
    await c.handleMessage({ id: 'wv-1', method: 'timeline/ready' });
    assert.deepEqual(t.methods(), ['timeline/ready/completion', 'timeline/didRequestFocus']);
    assert.deepEqual(t.posted[1].params, { sha: 'a76d22f' });
  });

  it('forwards actions to the data source and reports failures', async () => {
    const { src, errors, log, c } = setup();
    await c.handleMessage({ id: 'wv-1', method: 'timeline/openEditDiff', params: { editId: 'edit-7' } });
    await c.handleMessage({ id: 'wv-2', method: 'timeline/openNote', params: { sha: 'a76d22f2360e1089ab0cf0c0d4070c0a9276cafc' } });
    await c.handleMessage({ id: 'wv-3', method: 'timeline/openFile', params: { file: 'src/store.ts' } });
    await c.handleMessage({ id: 'wv-4', method: 'timeline/openFile', params: { file: 'missing.ts' } });
    await c.handleMessage({ id: 'wv-5', method: 'timeline/revealEdit', params: { editId: 'e:edit-8' } });
    assert.deepEqual(src.calls, ['diff edit-7', 'note a76d22f2360e1089ab0cf0c0d4070c0a9276cafc', 'file src/store.ts', 'reveal e:edit-8']);
    assert.deepEqual(errors, ['openFile']);
    assert.ok(log.lines.includes('error timeline: openFile failed: no such file'));
  });

  it('ignores and counts invalid messages; logs filters as counts only', async () => {
    const { t, src, counters, log, c } = setup();
    await c.handleMessage({ id: 'wv-1', method: 'timeline/openFile', params: { file: '../../etc/passwd' } });
    await c.handleMessage({ id: 'wv-2', method: 'timeline/runShell', params: { cmd: 'rm -rf /' } });
    await c.handleMessage({
      id: 'wv-3',
      method: 'timeline/filterChanged',
      params: { agents: ['claude'], sessionKey: null, file: null, text: 'my secret prompt' },
    });
    assert.deepEqual(src.calls, []);
    assert.equal(t.posted.length, 0);
    assert.deepEqual(counters.snapshot(), { 'timeline.inbound.invalidParams': 1, 'timeline.inbound.unknownMethod': 1 });
    assert.ok(log.lines.includes('debug timeline: filters agents=1 session=false file=false text=true'));
    assert.ok(!log.lines.join('\n').includes('secret'));
  });

  it('replies with an error when the snapshot fails, and recovers on the next change', async () => {
    const { t, src, c } = setup();
    src.failNext = true;
    await c.handleMessage({ id: 'wv-1', method: 'timeline/ready' });
    assert.deepEqual(t.posted[0].params, { error: 'snapshot failed' });
    src.fire();
    await settle();
    assert.equal(t.posted[1].method, 'timeline/didChangeState');
  });

  it('switches data sources and unsubscribes on dispose', async () => {
    const { t, src, c } = setup();
    await c.handleMessage({ id: 'wv-1', method: 'timeline/ready' });
    const next = new FakeTimelineSource();
    c.setDataSource(next);
    await settle();
    assert.equal(src.listenerCount, 0);
    assert.equal(next.listenerCount, 1);
    assert.deepEqual((t.posted[1].params as TimelineState).sessions, []);
    c.dispose();
    assert.equal(next.listenerCount, 0);
    next.fire();
    await c.handleMessage({ id: 'wv-2', method: 'timeline/ready' });
    assert.equal(t.posted.length, 2);
  });
});
