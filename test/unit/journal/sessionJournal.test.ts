import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Clock } from '../../../src/core/ports';
import { GitRunner } from '../../../src/node/git/gitRunner';
import { appendJsonlLine, readJsonlFile, writeFileAtomic } from '../../../src/node/journal/jsonlFile';
import { heartbeatTtlMs, SessionJournal } from '../../../src/node/journal/sessionJournal';
import { TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

const day = 24 * 3600 * 1000;
const sid = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';

class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

describe('SessionJournal', function () {
  this.timeout(60_000);
  let tmp: string;
  let clock: FakeClock;
  let journal: SessionJournal;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentnote-journal-'));
    clock = new FakeClock(Date.UTC(2026, 2, 3, 4, 10, 19, 123));
    journal = new SessionJournal(path.join(tmp, 'agentnote'), { clock });
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  const read = (...p: string[]) => readFile(path.join(journal.root, ...p), 'utf8');

  describe('session ids', () => {
    it('accepts CLI ids and rejects path tricks', () => {
      for (const ok of [sid, 'conv-demo-1', '019cc4a2-5e7b-7d10-9f3a-2b6c8d0e1f42', 'a.b_c']) assert.ok(journal.session(ok), ok);
      for (const bad of ['', '.', '..', '../x', 'a/b', 'a\\b', ' lead', 'trail ', 'a:b', 'nul\0x', 'line\nbreak', 'x'.repeat(201)]) {
        assert.equal(journal.session(bad), undefined, JSON.stringify(bad));
      }
      assert.equal(journal.counters.get('journal.invalidSessionIds'), 12);
      assert.equal(journal.session(sid)!.dir, path.join(journal.root, 'sessions', sid));
    });
  });

  describe('JSONL lines', () => {
    it('writes one compact line per record in the CLI key order', async () => {
      const s = journal.session(sid)!;
      await s.appendChange({
        tool_use_id: 'toolu_01',
        edit_deleted: null,
        edit_added: null,
        change_id: null,
        blob: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
        prompt_id: 'p-1',
        turn: 1,
        session_id: sid,
        file: 'app.txt',
        tool: 'Edit',
        timestamp: '2026-03-03T04:10:19.123Z',
        event: 'file_change',
      });
      await s.appendPreBlob({ tool_use_id: null, blob: 'b'.repeat(40), file: 'app.txt', prompt_id: null, turn: 1, event: 'pre_blob' });
      await s.appendCommittedPair({ tool_use_id: null, change_id: null, prompt_scope: 'tail', file: null, prompt_id: 'p-1', turn: 2 });
      await s.appendCommittedPair({ tool_use_id: 'toolu_01', change_id: null, file: 'app.txt', turn: 1 });
      await s.appendEvent({ response: 'Done.', turn: 1, timestamp: 't', session_id: sid, event: 'stop' });
      assert.equal(
        await read('sessions', sid, 'changes.jsonl'),
        `{"event":"file_change","timestamp":"2026-03-03T04:10:19.123Z","tool":"Edit","file":"app.txt","session_id":"${sid}","turn":1,"prompt_id":"p-1","blob":"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391","change_id":null,"edit_added":null,"edit_deleted":null,"tool_use_id":"toolu_01"}\n`,
      );
      assert.equal(
        await read('sessions', sid, 'pre_blobs.jsonl'),
        `{"event":"pre_blob","turn":1,"prompt_id":null,"file":"app.txt","blob":"${'b'.repeat(40)}","tool_use_id":null}\n`,
      );
      assert.equal(
        await read('sessions', sid, 'committed_pairs.jsonl'),
        '{"turn":2,"prompt_id":"p-1","file":null,"prompt_scope":"tail","change_id":null,"tool_use_id":null}\n' +
          '{"turn":1,"file":"app.txt","change_id":null,"tool_use_id":"toolu_01"}\n',
      );
      assert.equal(
        await read('sessions', sid, 'events.jsonl'),
        `{"event":"stop","session_id":"${sid}","timestamp":"t","turn":1,"response":"Done."}\n`,
      );
      const pairs = await s.readCommittedPairs();
      assert.deepEqual(pairs.entries[1], { turn: 1, file: 'app.txt', change_id: null, tool_use_id: 'toolu_01' });
    });

    it('skips and counts a bad middle line and a torn last line', async () => {
      const s = journal.session(sid)!;
      await s.ensureDir();
      const good = (turn: number) => JSON.stringify({ event: 'prompt', timestamp: 't', prompt: `p${turn}`, prompt_id: `id${turn}`, turn });
      await writeFile(path.join(s.dir, 'prompts.jsonl'), `${good(1)}\nnot json at all\n[1,2]\n\n${good(2)}\n{"event":"prompt","timest`);
      const r = await s.readPrompts();
      assert.deepEqual(
        r.entries.map((e) => e.prompt),
        ['p1', 'p2'],
      );
      assert.equal(r.skipped, 3);
      assert.equal(journal.counters.get('journal.skippedLines'), 3);
      const raw = await readJsonlFile(path.join(s.dir, 'prompts.jsonl'));
      assert.equal(raw.tornTail, true);
      // An unterminated but complete last line is accepted (as the CLI's reader does).
      await writeFile(path.join(s.dir, 'prompts.jsonl'), `${good(1)}\n${good(2)}`);
      assert.deepEqual(
        (await s.readPrompts()).entries.map((e) => e.turn),
        [1, 2],
      );
      // Lines that are JSON objects but not valid records are skipped too; old lines get defaults.
      await writeFile(path.join(s.dir, 'changes.jsonl'), '{"event":"file_change","file":"a.ts"}\n{"file":"b.ts","blob":"x"}\n');
      const ch = await s.readChanges();
      assert.equal(ch.skipped, 1);
      assert.deepEqual(ch.entries, [
        {
          event: 'file_change',
          timestamp: '',
          tool: '',
          file: 'b.ts',
          session_id: '',
          turn: 0,
          prompt_id: null,
          blob: 'x',
          change_id: null,
          edit_added: null,
          edit_deleted: null,
          tool_use_id: null,
        },
      ]);
      assert.deepEqual(await readJsonlFile(path.join(s.dir, 'missing.jsonl')), { values: [], skipped: 0, tornTail: false });
    });

    it('validates events and skips unknown event kinds', async () => {
      const s = journal.session(sid)!;
      await s.ensureDir();
      await writeFile(
        path.join(s.dir, 'events.jsonl'),
        [
          `{"event":"session_start","session_id":"${sid}","timestamp":"t0","agent":"claude","model":"claude-opus-4-6"}`,
          '{"event":"future_kind","x":1}',
          `{"event":"response","session_id":"${sid}","timestamp":"t1","turn":1,"response":null}`,
        ].join('\n') + '\n',
      );
      const r = await s.readEvents();
      assert.deepEqual(
        r.entries.map((e) => e.event),
        ['session_start', 'response'],
      );
      assert.equal(r.skipped, 1);
    });

    it('never interleaves lines of two concurrent writer processes', async () => {
      const file = path.join(tmp, 'concurrent.jsonl');
      const lib = path.resolve(__dirname, '../../../src/node/journal/jsonlFile.js');
      const script = `
        const { appendJsonlLine } = require(${JSON.stringify(lib)});
        const [file, who] = process.argv.slice(1);
        (async () => {
          const pad = who.repeat(6000);
          for (let i = 0; i < 150; i++) await Promise.all([0, 1].map((k) => appendJsonlLine(file, { who, i, k, pad })));
        })().catch((e) => { console.error(e); process.exit(1); });`;
      const run = (who: string) =>
        new Promise<void>((resolve, reject) =>
          execFile(process.execPath, ['-e', script, file, who], (err) => (err ? reject(err) : resolve())),
        );
      await Promise.all([
        run('a'),
        run('b'),
        (async () => {
          for (let i = 0; i < 100; i++) await appendJsonlLine(file, { who: 'c', i, k: 0, pad: 'c'.repeat(6000) });
        })(),
      ]);
      const text = await readFile(file, 'utf8');
      const lines = text.split('\n');
      assert.equal(lines.pop(), '');
      assert.equal(lines.length, 700);
      const seen = new Set<string>();
      for (const l of lines) {
        const v = JSON.parse(l) as { who: string; i: number; k: number; pad: string };
        assert.equal(v.pad, v.who.repeat(6000));
        seen.add(`${v.who}:${v.i}:${v.k}`);
      }
      assert.equal(seen.size, 700);
    });

    it('appends and reads our own ext/ files and refuses unsafe names', async () => {
      const s = journal.session(sid)!;
      await s.appendJsonl('edits.jsonl', { file: 'a.ts', ranges: [[1, 2]] });
      await s.appendJsonl('edits.jsonl', { file: 'b.ts', ranges: [] });
      assert.equal(await read('sessions', sid, 'ext', 'edits.jsonl'), '{"file":"a.ts","ranges":[[1,2]]}\n{"file":"b.ts","ranges":[]}\n');
      assert.deepEqual(
        (await s.readJsonl('edits.jsonl')).values.map((v) => v.file),
        ['a.ts', 'b.ts'],
      );
      for (const bad of ['../x.jsonl', 'a/b.jsonl', '.hidden', '', 'x..jsonl']) await assert.rejects(s.appendJsonl(bad, {}), bad);
    });
  });

  describe('small files', () => {
    it('writes the CLI byte formats atomically', async () => {
      const s = journal.session(sid)!;
      await s.writeHeartbeat();
      await s.writeTurn(3);
      await s.writePromptId('0f8e2b4c-1111-4a2b-8c3d-123456789abc');
      await s.writeAgent('claude');
      await s.writeTranscriptPath('/home/ann/.claude/projects/p/x.jsonl');
      await journal.setActiveSession(sid);
      assert.equal(await read('sessions', sid, 'heartbeat'), String(clock.t));
      assert.equal(await read('sessions', sid, 'turn'), '3');
      assert.equal(await read('sessions', sid, 'prompt_id'), '0f8e2b4c-1111-4a2b-8c3d-123456789abc');
      assert.equal(await read('sessions', sid, 'agent'), 'claude\n');
      assert.equal(await read('sessions', sid, 'transcript_path'), '/home/ann/.claude/projects/p/x.jsonl\n');
      assert.equal(await read('session'), sid);
      assert.equal(await s.readHeartbeat(), clock.t);
      assert.equal(await s.readTurn(), 3);
      assert.equal(await s.readAgent(), 'claude');
      assert.equal(await s.readTranscriptPath(), '/home/ann/.claude/projects/p/x.jsonl');
      assert.equal(await journal.readActiveSessionId(), sid);
      assert.deepEqual((await readdir(s.dir)).sort(), ['agent', 'heartbeat', 'prompt_id', 'transcript_path', 'turn'], 'no temp files left');
    });

    it('lets a concurrent reader see only the old or the new content', async () => {
      const file = path.join(tmp, 'pointer');
      const a = 'a'.repeat(50_000);
      const b = 'b'.repeat(50_000);
      await writeFileAtomic(file, a);
      let stop = false;
      const reads: string[] = [];
      const reader = (async () => {
        while (!stop) reads.push(await readFile(file, 'utf8'));
      })();
      for (let i = 0; i < 100; i++) await writeFileAtomic(file, i % 2 ? a : b);
      stop = true;
      await reader;
      assert.ok(reads.length > 0);
      for (const r of reads) assert.ok(r === a || r === b, `partial read of ${r.length} chars`);
    });

    it('reads freshness and evidence like the CLI hooks', async () => {
      const s = journal.session(sid)!;
      assert.equal(await s.isFresh(), false);
      await s.writeHeartbeat(clock.t - heartbeatTtlMs);
      assert.equal(await s.isFresh(), true);
      await s.writeHeartbeat(clock.t - heartbeatTtlMs - 1);
      assert.equal(await s.isFresh(), false);
      await writeFile(path.join(s.dir, 'heartbeat'), 'garbage');
      assert.equal(await s.readHeartbeat(), undefined);
      assert.equal(await s.hasRecordableData(), false);
      await s.appendPrompt({ event: 'prompt', timestamp: 't', prompt: 'p', prompt_id: 'x', turn: 1 });
      assert.equal(await s.hasRecordableData(), true);
      assert.equal(await s.hasFileEvidence(), false, 'prompts alone are no file evidence');
      await s.appendPreBlob({ event: 'pre_blob', turn: 1, prompt_id: 'x', file: 'a', blob: 'b', tool_use_id: null });
      assert.equal(await s.hasFileEvidence(), true);
    });
  });

  describe('rotation', () => {
    it('records prompts like the CLI: rotation, turn, prompt_id, events', async () => {
      const s = journal.session(sid)!;
      const t1 = clock.t;
      const first = await s.recordPrompt({ prompt: 'first', agent: 'claude', model: 'claude-opus-4-6' });
      assert.deepEqual({ turn: first.turn, rotationId: first.rotationId }, { turn: 1, rotationId: undefined });
      assert.match(first.promptId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      await s.appendChange({
        event: 'file_change',
        timestamp: 't',
        tool: 'Edit',
        file: 'a',
        session_id: sid,
        turn: 1,
        prompt_id: first.promptId,
        blob: 'b',
        change_id: null,
        edit_added: null,
        edit_deleted: null,
        tool_use_id: null,
      });
      clock.t += 5000;
      const second = await s.recordPrompt({ prompt: 'second', agent: 'claude', model: null });
      const rid = (t1 + 5000).toString(36);
      assert.equal(second.rotationId, rid);
      assert.equal(second.turn, 2);
      assert.deepEqual((await readdir(s.dir)).filter((n) => n.endsWith('.jsonl')).sort(), [
        `changes-${rid}.jsonl`,
        'events.jsonl',
        `prompts-${rid}.jsonl`,
        'prompts.jsonl',
      ]);
      assert.equal(await read('sessions', sid, 'turn'), '2');
      assert.equal(await read('sessions', sid, 'prompt_id'), second.promptId);
      assert.equal(await read('session'), sid);
      assert.equal(await read('sessions', sid, 'agent'), 'claude\n');
      assert.equal(
        await read('sessions', sid, 'prompts.jsonl'),
        `{"event":"prompt","timestamp":"${new Date(t1 + 5000).toISOString()}","prompt":"second","prompt_id":"${second.promptId}","turn":2}\n`,
      );
      const events = (await s.readEvents()).entries;
      assert.deepEqual(
        events.map((e) => e.event),
        ['session_start', 'prompt', 'prompt'],
      );
      assert.deepEqual(events[0], {
        event: 'session_start',
        session_id: sid,
        timestamp: new Date(t1).toISOString(),
        agent: 'claude',
        model: 'claude-opus-4-6',
      });
      assert.equal(await s.hasFileEvidence(), false, 'the new turn has no edits yet');
      assert.deepEqual(
        (await s.readPrompts()).entries.map((p) => p.prompt),
        ['first', 'second'],
      );
      assert.equal((await s.readChanges()).entries.length, 1);
      assert.deepEqual((await s.readCurrent('changes')).entries, []);
    });

    it('gathers archives by base-36 value (not by name), current file last', async () => {
      const s = journal.session(sid)!;
      await s.ensureDir();
      const line = (p: string) => `{"event":"prompt","timestamp":"t","prompt":"${p}","prompt_id":"x","turn":1}\n`;
      await writeFile(path.join(s.dir, 'prompts-1000000.jsonl'), line('third')); // 36^6
      await writeFile(path.join(s.dir, 'prompts-zzzzzz.jsonl'), line('second')); // 36^6 - 1
      await writeFile(path.join(s.dir, 'prompts-00000a.jsonl'), line('first'));
      await writeFile(path.join(s.dir, 'prompts-short.jsonl'), line('ignored: id too short'));
      await writeFile(path.join(s.dir, 'prompts-AAAAAAA.jsonl'), line('ignored: upper case'));
      await writeFile(path.join(s.dir, 'prompts.jsonl'), line('current'));
      assert.deepEqual(
        (await s.readPrompts()).entries.map((p) => p.prompt),
        ['first', 'second', 'third', 'current'],
      );
    });

    it('never reuses a rotation id within the same millisecond', async () => {
      const s = journal.session(sid)!;
      await s.appendPrompt({ event: 'prompt', timestamp: 't', prompt: 'a', prompt_id: 'x', turn: 1 });
      const id1 = await s.rotate(clock.t);
      await s.appendPrompt({ event: 'prompt', timestamp: 't', prompt: 'b', prompt_id: 'y', turn: 2 });
      const id2 = await s.rotate(clock.t);
      assert.equal(id1, clock.t.toString(36));
      assert.equal(id2, (clock.t + 1).toString(36));
      assert.equal(await s.rotate(clock.t), undefined, 'nothing to archive');
      assert.deepEqual(
        (await s.readPrompts()).entries.map((p) => p.prompt),
        ['a', 'b'],
      );
    });
  });

  describe('cleanup', () => {
    const age = async (p: string, ms: number) => {
      const t = new Date(ms);
      await utimes(p, t, t);
    };
    const ageTree = async (dir: string, ms: number) => {
      for (const n of await readdir(dir, { withFileTypes: true })) {
        const p = path.join(dir, n.name);
        if (n.isDirectory()) await ageTree(p, ms);
        await age(p, ms);
      }
      await age(dir, ms);
    };

    it('removes idle sessions and old archives after the TTL, keeps fresh ones', async () => {
      const now = clock.t;
      // Old session: heartbeat and every mtime 20 days ago; it is the active one.
      const old = journal.session('old-session')!;
      await old.writeHeartbeat(now - 20 * day);
      await old.appendPrompt({ event: 'prompt', timestamp: 't', prompt: 'p', prompt_id: 'x', turn: 1 });
      await old.appendJsonl('edits.jsonl', { a: 1 });
      await journal.setActiveSession('old-session');
      await ageTree(old.dir, now - 20 * day);
      // Live session with a fresh heartbeat but old files.
      const live = journal.session('live')!;
      await live.writeHeartbeat(now - 10 * 60 * 1000);
      await live.appendEvent({ event: 'stop', session_id: 'live', timestamp: 't', turn: 1, response: null });
      await live.appendCommittedPair({ turn: 1, file: 'a', change_id: null, tool_use_id: null });
      const oldId = (now - 20 * day).toString(36);
      const newId = (now - 2 * day).toString(36);
      await writeFile(path.join(live.dir, `changes-${oldId}.jsonl`), '{}\n');
      await writeFile(path.join(live.dir, `prompts-${newId}.jsonl`), '{}\n');
      await writeFile(path.join(live.dir, 'heartbeat.tmp-123-abcd'), 'x');
      await ageTree(live.dir, now - 20 * day);
      await age(path.join(live.dir, `prompts-${newId}.jsonl`), now - 2 * day);
      // No heartbeat, but recently written ext file.
      const quiet = journal.session('quiet')!;
      await quiet.appendJsonl('edits.jsonl', { a: 1 });
      await ageTree(quiet.dir, now - 30 * day);
      await age(path.join(quiet.dir, 'ext', 'edits.jsonl'), now - 1 * day);

      const r = await journal.cleanup();
      assert.deepEqual(r.removedSessions, ['old-session']);
      assert.deepEqual(r.removedArchives, [`live/changes-${oldId}.jsonl`]);
      assert.equal(r.keptSessions, 2);
      assert.equal(existsSync(old.dir), false);
      assert.equal(await journal.readActiveSessionId(), undefined, 'dangling pointer cleared');
      assert.deepEqual((await readdir(live.dir)).sort(), ['committed_pairs.jsonl', 'events.jsonl', 'heartbeat', `prompts-${newId}.jsonl`]);
      assert.ok(existsSync(quiet.dir));

      // A tiny TTL never removes a session whose heartbeat is fresh.
      const again = await journal.cleanup({ ttlMs: 1000 });
      assert.deepEqual(again.removedSessions, ['quiet']);
      assert.ok(existsSync(live.dir));
    });
  });

  describe('per repository', () => {
    useIsolatedGitEnv();

    it('resolves <git-dir>/agentnote, separately for each linked worktree', async () => {
      const repo = await TempRepo.create({ initialFiles: { 'a.txt': 'a\n' } });
      try {
        const wt = await repo.addWorktree('feature');
        const main = await SessionJournal.forRepository(repo.runner());
        const linked = await SessionJournal.forRepository(new GitRunner(wt));
        assert.equal(main.root, path.join(repo.dir, '.git', 'agentnote'));
        assert.equal(linked.root, path.join(repo.dir, '.git', 'worktrees', path.basename(wt), 'agentnote'));
        await main.session(sid)!.appendPrompt({ event: 'prompt', timestamp: 't', prompt: 'main', prompt_id: 'x', turn: 1 });
        await linked.setActiveSession('other');
        assert.deepEqual((await linked.session(sid)!.readPrompts()).entries, []);
        assert.equal(await main.readActiveSessionId(), undefined);
        assert.equal(await linked.readActiveSessionId(), 'other');
      } finally {
        await repo.remove();
      }
    });
  });
});
