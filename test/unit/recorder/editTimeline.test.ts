// The recorder's edit timeline (src/node/recorder/editTimeline.ts): one record per id, AI wins,
// time order, retention, the record shapes of journal pairs and capture-log lines.
import * as assert from 'node:assert/strict';
import { aiTimelineRecord, EditTimeline, unclaimedTimelineRecord, type TimelineEditRecord } from '../../../src/node/recorder/editTimeline';

const rec = (id: string, time: number, origin: TimelineEditRecord['origin'] = 'human'): TimelineEditRecord => ({
  id,
  time,
  file: 'a.ts',
  origin,
});

describe('EditTimeline', () => {
  it('keeps time order and one record per id: the first AI classification wins, human/other never replaces AI', () => {
    const t = new EditTimeline();
    t.add(rec('tr-2', 200));
    t.add(rec('tr-1', 100, 'other'));
    t.add({ ...rec('tr-2', 200, 'ai'), agent: 'claude' });
    t.add({ ...rec('tr-2', 200, 'ai'), agent: 'cursor' });
    t.add(rec('tr-2', 200, 'human'));
    assert.deepEqual(
      t.all().map((r) => [r.id, r.origin, r.agent]),
      [
        ['tr-1', 'other', undefined],
        ['tr-2', 'ai', 'claude'],
      ],
    );
    assert.ok(Object.isFrozen(t.all()[0]));
  });

  it('since(cutoff) returns a new array; prune drops old records and their ids; reset replaces all, sorted', () => {
    const t = new EditTimeline();
    t.reset([rec('b', 300), rec('a', 100), rec('c', 200)]);
    assert.deepEqual(
      t.all().map((r) => r.id),
      ['a', 'c', 'b'],
    );
    const all = t.since(0);
    all.pop();
    assert.equal(t.size, 3);
    assert.deepEqual(
      t.since(150).map((r) => r.id),
      ['c', 'b'],
    );
    t.prune(150);
    assert.deepEqual(
      t.all().map((r) => r.id),
      ['c', 'b'],
    );
    // the pruned id is free again
    t.add(rec('a', 400, 'ai'));
    assert.deepEqual(
      t.all().map((r) => [r.id, r.origin]),
      [
        ['c', 'human'],
        ['b', 'human'],
        ['a', 'ai'],
      ],
    );
  });

  it('is bounded to the newest 20,000 records', () => {
    const t = new EditTimeline();
    for (let i = 0; i < 20_005; i++) t.add(rec(`r${i}`, i));
    assert.equal(t.size, 20_000);
    assert.equal(t.all()[0].id, 'r5');
    // an evicted id can be added again
    t.add(rec('r0', 30_000));
    assert.equal(t.all()[t.size - 1].id, 'r0');
  });

  it('records of a journal pair (transition id, else pair id) and of a capture-log line', () => {
    const pair = {
      pairId: 'an-1',
      time: 5,
      file: 'a.ts',
      turn: 2,
      interactionKey: 'claude:s:2',
      claimKey: 'k',
      tool: 'Edit',
      postBlob: 'q',
    };
    assert.deepEqual(aiTimelineRecord(pair, 'claude', 's'), {
      id: 'an-1',
      time: 5,
      file: 'a.ts',
      origin: 'ai',
      agent: 'claude',
      sessionId: 's',
      turn: 2,
      interactionKey: 'claude:s:2',
      postBlob: 'q',
    });
    assert.deepEqual(aiTimelineRecord({ ...pair, transitionId: 'tr-9', added: 1, removed: 0, preBlob: 'p' }, 'claude', 's'), {
      id: 'tr-9',
      time: 5,
      file: 'a.ts',
      origin: 'ai',
      agent: 'claude',
      sessionId: 's',
      turn: 2,
      interactionKey: 'claude:s:2',
      postBlob: 'q',
      added: 1,
      removed: 0,
      preBlob: 'p',
    });
    assert.deepEqual(
      unclaimedTimelineRecord({
        id: 'tr-1',
        time: 7,
        file: 'b.ts',
        origin: 'other',
        source: 'disk',
        preBlob: 'p',
        postBlob: 'q',
        added: 2,
        removed: 1,
      }),
      { id: 'tr-1', time: 7, file: 'b.ts', origin: 'other', added: 2, removed: 1, preBlob: 'p', postBlob: 'q' },
    );
  });
});
