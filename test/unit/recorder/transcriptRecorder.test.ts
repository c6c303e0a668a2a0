// Transcript events → session model + journal + edit claims (src/node/recorder/transcriptRecorder.ts),
// with a real journal and a claims sink that only collects.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentClaim } from '../../../src/core/capture/editCapture';
import type { AgentEvent } from '../../../src/core/model/agentEvents';
import { Counters, nullLogger } from '../../../src/core/ports';
import { SessionModel } from '../../../src/core/session/sessionModel';
import { SessionJournal } from '../../../src/node/journal/sessionJournal';
import { AppliedKeys } from '../../../src/node/recorder/appliedKeys';
import type { LiveSessions } from '../../../src/node/recorder/liveSession';
import { JournalGeneration } from '../../../src/node/recorder/recorderUtil';
import { TranscriptRecorder, type TranscriptItem } from '../../../src/node/recorder/transcriptRecorder';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { FakeClock, T0, TestRepo } from './recorderHarness';

const SID = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';

describe('TranscriptRecorder', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  let clock: FakeClock;
  let counters: Counters;
  let sessions: SessionModel;
  let journal: SessionJournal;
  let live: LiveSessions;
  let generation: JournalGeneration;
  let claims: AgentClaim[];
  let recorder: TranscriptRecorder;
  let offset: number;

  const make = async (root: string, redact?: (t: string) => { text: string; count: number }): Promise<TranscriptRecorder> => {
    const keys = await AppliedKeys.load(path.join(journal.root, 'capture', 'applied-keys.json'));
    return new TranscriptRecorder({
      root,
      journal,
      sessions,
      keys,
      live,
      generation,
      claims: { addClaims: async (c) => void claims.push(...c) },
      clock,
      log: nullLogger,
      counters,
      ...(redact ? { redact } : {}),
      maxClaimAgeMs: 30 * 60_000,
    });
  };

  beforeEach(async () => {
    repo = await TestRepo.create();
    clock = new FakeClock(T0);
    counters = new Counters();
    sessions = new SessionModel({ clock });
    journal = await SessionJournal.forRepository(repo.runner(), { clock, counters });
    live = new Map();
    generation = new JournalGeneration();
    claims = [];
    offset = 0;
    recorder = await make(repo.dir);
  });
  afterEach(async () => {
    await repo.remove();
  });

  const ts = () => new Date(clock.now()).toISOString();
  const item = (event: AgentEvent, key = `/t/${SID}.jsonl:${(offset += 100)}:0`): TranscriptItem => ({
    event,
    key,
    transcriptPath: `/t/${SID}.jsonl`,
  });
  const base = () => ({ agent: 'claude' as const, sessionId: SID, timestamp: ts() });
  const lines = (file: string) =>
    (fs.existsSync(path.join(journal.root, 'sessions', SID, file))
      ? fs.readFileSync(path.join(journal.root, 'sessions', SID, file), 'utf8')
      : ''
    )
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('journals a session and its prompt with the model turn, records activity, and turns an edit into a claim', async () => {
    const session = item({ ...base(), kind: 'session', cwd: repo.dir });
    const prompt = item({ ...base(), kind: 'prompt', text: 'Add b', model: 'claude-opus-4-6' });
    await recorder.applyBatch([
      session,
      prompt,
      item({ ...base(), kind: 'edit', file: repo.path('a.ts'), tool: 'Write', toolUseId: 'tu1', contents: 'b\n' }),
      item({ ...base(), kind: 'tool', tool: 'Bash' }),
    ]);
    assert.deepEqual(
      lines('prompts.jsonl').map((p) => [p.prompt, p.turn]),
      [['Add b', 1]],
    );
    assert.equal(sessions.get('claude', SID)?.turns.at(-1)?.index, 1);
    assert.deepEqual(
      lines('ext/activity.jsonl').map((a) => [a.kind, a.turn, a.tool, a.file]),
      [
        ['edit', 1, 'Write', 'a.ts'],
        ['tool', 1, 'Bash', undefined],
      ],
    );
    assert.deepEqual(
      claims.map((c) => [c.key.endsWith(':300:0'), c.file, c.turn, c.interactionKey]),
      [[true, 'a.ts', 1, `claude:${SID}:1`]],
    );
    assert.equal(live.get(`claude:${SID}`)?.promptIds.get(1), lines('prompts.jsonl')[0].prompt_id);
    assert.ok(generation.value > 0);
    // the same records again (a tailer re-reading): dropped by their keys
    await recorder.applyBatch([session, prompt]);
    assert.equal(counters.get('recorder.duplicateEvents'), 2);
    assert.equal(lines('prompts.jsonl').length, 1);
  });

  it('a move claims the deletion of its source; stale, failed and outside edits make no claim and are counted', async () => {
    await recorder.applyBatch([item({ ...base(), kind: 'prompt', text: 'Rename' })]);
    await recorder.applyBatch([
      item({ ...base(), kind: 'edit', file: repo.path('new.ts'), tool: 'apply_patch', movedFrom: repo.path('old.ts') }, 'k-move'),
      item({ ...base(), kind: 'edit', file: '/elsewhere/x.ts', tool: 'Write' }),
      item({ ...base(), kind: 'edit', file: repo.path('f.ts'), tool: 'Write', failed: true }),
      item({ ...base(), timestamp: new Date(T0 - 31 * 60_000).toISOString(), kind: 'edit', file: repo.path('s.ts'), tool: 'Write' }),
    ]);
    assert.deepEqual(
      claims.map((c) => [c.key, c.file, c.edit.deleted ?? false]),
      [
        ['k-move', 'new.ts', false],
        ['k-move#from', 'old.ts', true],
      ],
    );
    assert.equal(counters.get('recorder.editsOutsideRepo'), 1);
    assert.equal(counters.get('recorder.staleEdits'), 1);
    // an edit outside the repository is journaled as activity without a path
    assert.equal(lines('ext/activity.jsonl').find((a) => a.tool === 'Write' && !a.failed && a.file === null)?.turn, 1);
  });

  it('redacts prompt and response text before journaling it, counting the replacements', async () => {
    recorder = await make(repo.dir, (t) => ({ text: t.replaceAll('SECRET', '[REDACTED:x]'), count: t.split('SECRET').length - 1 }));
    await recorder.applyBatch([
      item({ ...base(), kind: 'prompt', text: 'use SECRET' }),
      item({ ...base(), kind: 'response', text: 'SECRET done' }),
    ]);
    assert.equal(lines('prompts.jsonl')[0].prompt, 'use [REDACTED:x]');
    assert.deepEqual(
      lines('events.jsonl')
        .filter((e) => e.event === 'response')
        .map((e) => e.response),
      ['[REDACTED:x] done'],
    );
    assert.equal(counters.get('recorder.journalRedactions'), 2);
    // the model (UI) keeps the text as the transcript has it
    assert.equal(sessions.get('claude', SID)?.turns.at(-1)?.prompt, 'use SECRET');
  });

  it('relPath: repo-relative posix paths, also through the real path of a symlinked root; nothing outside or in .git', async () => {
    const link = `${repo.dir}-link`;
    fs.symlinkSync(repo.dir, link);
    try {
      const viaLink = await make(link);
      assert.equal(viaLink.relPath(path.join(link, 'src', 'a.ts')), 'src/a.ts');
      assert.equal(viaLink.relPath(path.join(fs.realpathSync(repo.dir), 'src', 'a.ts')), 'src/a.ts');
      assert.equal(viaLink.relPath(path.join(repo.dir, '..', 'other', 'a.ts')), undefined);
      assert.equal(viaLink.relPath(path.join(link, '.git', 'config')), undefined);
      assert.equal(viaLink.relPath('relative/a.ts'), undefined);
      assert.equal(viaLink.relPath(link), undefined);
    } finally {
      fs.rmSync(link);
    }
  });

  it('forget drops a removed session from the model and the live sessions', async () => {
    await recorder.applyBatch([item({ ...base(), kind: 'prompt', text: 'hi' })]);
    assert.ok(live.has(`claude:${SID}`) && sessions.get('claude', SID));
    recorder.forget(SID);
    assert.equal(live.has(`claude:${SID}`), false);
    assert.equal(sessions.get('claude', SID), undefined);
  });
});
