// The session model rebuilt from the journal on open (src/node/recorder/sessionReload.ts).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { Counters, nullLogger } from '../../../src/core/ports';
import { SessionModel } from '../../../src/core/session/sessionModel';
import { SessionJournal } from '../../../src/node/journal/sessionJournal';
import { reloadSessions, replaySession } from '../../../src/node/recorder/sessionReload';
import { extFiles } from '../../../src/node/recorder/sessionSnapshot';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { FakeClock, T0, TestRepo } from './recorderHarness';

const SID = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';
const OTHER = '3c9e1f2a-4b5d-4e6f-8a7b-9c0d1e2f3a4b';
const root = path.resolve('/work/tree');
const iso = (ms: number) => new Date(ms).toISOString();

describe('sessionReload', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();

  it('replaySession: the journal turn numbers, the session_start model, last responses, record ids and per-turn activity', () => {
    const sessions = new SessionModel({ clock: new FakeClock(T0) });
    replaySession(sessions, root, {
      agent: 'claude',
      id: SID,
      // the journal starts at turn 3 (earlier turns archived away); turn 3 has two prompt lines (the last one counts)
      prompts: [
        { turn: 3, prompt: 'third', timestamp: iso(T0), prompt_id: 'p3' },
        { turn: 3, prompt: 'third again', timestamp: iso(T0 + 1), prompt_id: 'p3b' },
        { turn: 4, prompt: 'fourth', timestamp: iso(T0 + 10_000), prompt_id: 'p4' },
      ],
      events: [
        { event: 'prompt', session_id: SID, timestamp: iso(T0), prompt_id: 'p3', turn: 3, model: 'from-prompt' },
        { event: 'session_start', session_id: SID, timestamp: iso(T0), agent: 'claude', model: 'from-start' },
        { event: 'stop', session_id: SID, timestamp: iso(T0 + 5_000), turn: 3, response: 'stopped' },
        { event: 'response', session_id: SID, timestamp: iso(T0 + 6_000), turn: 4, response: 'old' },
        { event: 'response', session_id: SID, timestamp: iso(T0 + 7_000), turn: 4, response: 'grown' },
      ],
      activity: [
        { kind: 'edit', turn: 3, tool: 'Write', file: 'src/a.ts', time: T0 + 1_000 },
        { kind: 'edit', turn: 3, tool: 'Write', file: null, time: T0 + 1_500 },
        { kind: 'tool', turn: 4, tool: 'Bash', time: T0 + 11_000 },
      ],
      promptExt: [{ key: 'k4', turn: 4, promptId: 'p4', recordId: 'rec-4', time: T0 + 10_000 }],
      transcriptPath: '/t/s.jsonl',
      heartbeat: T0 + 12_000,
    });
    const s = sessions.get('claude', SID);
    assert.ok(s);
    assert.equal(s.model, 'from-start');
    assert.deepEqual(
      s.turns.map((t) => [t.index, t.prompt, t.response, t.promptId, t.tools, t.files]),
      [
        [3, 'third again', 'stopped', undefined, ['Write'], [path.join(root, 'src', 'a.ts')]],
        [4, 'fourth', 'grown', 'rec-4', ['Bash'], []],
      ],
    );
    assert.deepEqual(s.transcriptPaths, ['/t/s.jsonl']);
  });

  it('reloadSessions: live sessions with prompt ids and response digests, pair records; unknown agents skipped', async () => {
    const repo = await TestRepo.create();
    try {
      const clock = new FakeClock(T0);
      const journal = await SessionJournal.forRepository(repo.runner(), { clock });
      const js = journal.session(SID);
      const other = journal.session(OTHER);
      assert.ok(js && other);
      const r = await js.recordPrompt({ prompt: 'Add b', agent: 'codex', model: 'gpt-5' });
      await js.appendEvent({ event: 'response', session_id: SID, timestamp: iso(T0), turn: r.turn, response: 'Done.' });
      const pair = {
        pairId: 'an-1',
        time: T0,
        file: 'a.ts',
        turn: 1,
        interactionKey: `codex:${SID}:1`,
        claimKey: 'k',
        tool: 'Edit',
        postBlob: 'q',
      };
      await js.appendJsonl(extFiles.pairs, pair);
      await js.appendJsonl(extFiles.pairs, { pairId: 'broken' });
      await other.recordPrompt({ prompt: 'x', agent: 'not-an-agent' });

      const sessions = new SessionModel({ clock });
      const counters = new Counters();
      const reloaded = await reloadSessions(journal, sessions, { root: repo.dir, counters, log: nullLogger });
      assert.equal(reloaded.length, 1);
      const [{ live, pairs }] = reloaded;
      assert.deepEqual([live.agent, live.id, live.started, live.promptIds.get(1)], ['codex', SID, true, r.promptId]);
      assert.equal(live.lastResponse.get(1), createHash('sha1').update('Done.').digest('hex'));
      assert.deepEqual(pairs, [pair]);
      assert.deepEqual(
        sessions.list().map((s) => [s.agent, s.id, s.model, s.turns.map((t) => t.prompt)]),
        [['codex', SID, 'gpt-5', ['Add b']]],
      );
      assert.equal(counters.get('recorder.rebuildFailures'), 0);
    } finally {
      await repo.remove();
    }
  });
});
