// The recorder's small parts: applied-key dedupe, journal pairing/consumption, line counts.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Counters } from '../../../src/core/ports';
import { SessionJournal } from '../../../src/node/journal/sessionJournal';
import { AppliedKeys } from '../../../src/node/recorder/appliedKeys';
import { replacementStats } from '../../../src/core/agents/editStats';
import { consumptionKey, responsesByTurn } from '../../../src/core/model/journalPairs';
import { readSessionSnapshot } from '../../../src/node/recorder/sessionSnapshot';

const A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccccccccccccccccccccccccccc';
const D = 'dddddddddddddddddddddddddddddddddddddddd';

describe('recorder parts', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentnote-recparts-'));
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  describe('AppliedKeys', () => {
    it('keeps one high-water mark per transcript file, exact keys otherwise, and survives a reload', async () => {
      const file = path.join(tmp, 'capture', 'applied-keys.json');
      const k = await AppliedKeys.load(file);
      k.add('/t/a.jsonl:100:0');
      k.add('/t/a.jsonl:100:1');
      k.add('C:\\Users\\ann\\b.jsonl:50:0');
      k.add('/t/g.json#3f2a');
      k.add('/t/a.jsonl:200:flush0');
      k.add('/t/a.jsonl:300:resume0');
      const check = (x: AppliedKeys) => {
        assert.equal(x.has('/t/a.jsonl:0:0'), true, 're-read line');
        assert.equal(x.has('/t/a.jsonl:100:1'), true);
        assert.equal(x.has('/t/a.jsonl:100:2'), false, 'next event of the same line');
        assert.equal(x.has('/t/a.jsonl:150:0'), false, 'next line');
        assert.equal(x.has('C:\\Users\\ann\\b.jsonl:50:0'), true, 'Windows paths keep their colon');
        assert.equal(x.has('/t/g.json#3f2a'), true);
        assert.equal(x.has('/t/g.json#9999'), false);
        assert.equal(x.has('/t/a.jsonl:200:flush0'), true);
        assert.equal(x.has('/t/a.jsonl:300:resume0'), false, 'resume announcements are never duplicates');
      };
      check(k);
      await k.save();
      check(await AppliedKeys.load(file));
    });

    it('starts empty on a corrupt file and bounds exact keys', async () => {
      const file = path.join(tmp, 'keys.json');
      await writeFile(file, '{"v":1,"lines":{"x":[1]}');
      const counters = new Counters();
      const k = await AppliedKeys.load(file, { counters, maxExactKeys: 2 });
      assert.equal(counters.get('recorder.keysUnreadable'), 1);
      k.add('#1');
      k.add('#2');
      k.add('#3');
      assert.deepEqual(
        ['#1', '#2', '#3'].map((x) => k.has(x)),
        [false, true, true],
      );
    });
  });

  describe('readSessionSnapshot', () => {
    it('pairs by tool_use_id, FIFO per file without ids, keeps evidence-only changes and pre-only entries, drops consumed ones', async () => {
      const journal = new SessionJournal(path.join(tmp, 'agentnote'));
      const s = journal.session('conv-1')!;
      await s.writeAgent('cursor');
      await s.recordPrompt({ prompt: 'p1', agent: 'cursor' });
      const change = (
        file: string,
        blob: string,
        id: string | null,
        extra: Partial<{ change_id: string; edit_added: number; edit_deleted: number; turn: number }> = {},
      ) =>
        s.appendChange({
          event: 'file_change',
          timestamp: '2026-05-01T10:00:00.000Z',
          tool: 'Edit',
          file,
          session_id: 'conv-1',
          turn: extra.turn ?? 1,
          prompt_id: 'p',
          blob,
          change_id: extra.change_id ?? null,
          edit_added: extra.edit_added ?? null,
          edit_deleted: extra.edit_deleted ?? null,
          tool_use_id: id,
        });
      const pre = (file: string, blob: string, id: string | null, turn = 1) =>
        s.appendPreBlob({ event: 'pre_blob', turn, prompt_id: 'p', file, blob, tool_use_id: id });
      await pre('a.ts', A, 'id-1');
      await pre('g.ts', A, null);
      await pre('g.ts', B, null);
      await pre('lonely.ts', A, 'id-9', 2);
      await change('g.ts', B, null);
      await change('a.ts', B, 'id-1', { turn: 3 });
      await change('g.ts', C, null);
      await change('c.ts', D, null, { change_id: 'cid-1', edit_added: 2, edit_deleted: 0 });
      await change('done.ts', D, 'id-done');
      await s.appendCommittedPair({ turn: 1, file: 'done.ts', change_id: null, tool_use_id: 'id-done' });
      await s.appendCommittedPair({ turn: 1, prompt_id: 'p', file: null, prompt_scope: 'window', change_id: null, tool_use_id: null });

      const snap = await readSessionSnapshot(s);
      assert.equal(snap.agent, 'cursor');
      assert.equal(snap.turn, 1);
      assert.deepEqual(
        snap.pairs.map((p) => [p.pairId, p.file, p.turn, p.preBlob ?? null, p.postBlob ?? null, p.editAdded ?? null, p.interactionKey]),
        [
          ['fifo:1:g.ts:1', 'g.ts', 1, A, B, null, 'cursor:conv-1:1'],
          ['id-1', 'a.ts', 1, A, B, null, 'cursor:conv-1:1'],
          ['fifo:1:g.ts:2', 'g.ts', 1, B, C, null, 'cursor:conv-1:1'],
          ['change:cid-1', 'c.ts', 1, null, D, 2, 'cursor:conv-1:1'],
          ['id-9', 'lonely.ts', 2, A, null, null, 'cursor:conv-1:2'],
        ],
      );
      assert.deepEqual(snap.pairs[1].consumeLines, [{ turn: 3, file: 'a.ts', change_id: null, tool_use_id: 'id-1' }]);
      assert.deepEqual(snap.pairs[0].consumeLines, [{ turn: 1, file: 'g.ts', change_id: null, tool_use_id: null }]);
      assert.deepEqual(snap.toolsByTurn.get(1), ['Edit']);

      // excluding the consumption line (an amend) brings the pair back
      const again = await readSessionSnapshot(s, { exclude: [{ turn: 1, file: 'done.ts', change_id: null, tool_use_id: 'id-done' }] });
      assert.ok(again.pairs.some((p) => p.pairId === 'id-done'));
      assert.equal(again.committed.length, 1);
    });

    it('consumption keys and responses follow the CLI', () => {
      assert.equal(consumptionKey({ turn: 2, file: 'a', change_id: 'c', tool_use_id: 't' }), 'change:c');
      assert.equal(consumptionKey({ turn: 2, file: 'a', change_id: null, tool_use_id: 't' }), 'id:t');
      assert.equal(consumptionKey({ turn: 2, file: 'a', change_id: null, tool_use_id: null }), '2:a');
      const ev = (event: 'response' | 'stop', turn: number, response: string | null) => ({
        event,
        session_id: 's',
        timestamp: '',
        turn,
        response,
      });
      assert.deepEqual(
        [
          ...responsesByTurn([
            ev('stop', 1, 'stop text'),
            ev('response', 1, 'r1'),
            ev('response', 1, 'r1 longer'),
            ev('stop', 2, 'only stop'),
            ev('stop', 3, null),
          ]),
        ],
        [
          [1, 'r1 longer'],
          [2, 'only stop'],
        ],
      );
    });
  });

  describe('replacementStats (timeline counts)', () => {
    it('counts one contiguous change exactly (CRLF-insensitive)', () => {
      assert.deepEqual(replacementStats('a\nb\n', 'a\nb\nc\n'), { added: 1, removed: 0 });
      assert.deepEqual(replacementStats('a\nb\nc\n', 'a\nX\nc\n'), { added: 1, removed: 1 });
      assert.deepEqual(replacementStats('', 'x\ny'), { added: 2, removed: 0 });
      assert.deepEqual(replacementStats('x\r\ny\r\n', ''), { added: 0, removed: 2 });
      assert.deepEqual(replacementStats('a\r\nb\r\n', 'a\nb\n'), { added: 0, removed: 0 });
      assert.deepEqual(replacementStats('same', 'same'), { added: 0, removed: 0 });
    });
  });
});
