// Commits that replace recorded ones (src/node/recorder/rewriteHandler.ts): amends, replaced
// commits ("Undo Last Commit" then a new commit), note copies, on a real repository.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { encodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { nullLogger } from '../../../src/core/ports';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { CaptureStore } from '../../../src/node/recorder/captureStore';
import { RewriteHandler } from '../../../src/node/recorder/rewriteHandler';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { FakeClock, T0, TestRepo } from './recorderHarness';

const note: AgentNoteV1 = {
  v: 1,
  agent: 'claude',
  session_id: '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f',
  timestamp: '2026-05-01T10:00:00.000Z',
  model: null,
  interactions: [{ prompt: 'use [REDACTED:github-token]', response: null }],
  files: [{ path: 'a.ts', by_ai: true }],
  attribution: { ai_ratio: 100, method: 'file' },
};
const line = (file: string | null, id: string) => ({ turn: 1, file, change_id: null, tool_use_id: id });

describe('RewriteHandler', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  let notes: NoteStore;
  let store: CaptureStore;
  let rewrites: RewriteHandler;

  beforeEach(async () => {
    repo = await TestRepo.create();
    const git = repo.runner();
    notes = new NoteStore(git);
    store = new CaptureStore(path.join(repo.dir, '.git', 'agentnote', 'capture'));
    rewrites = new RewriteHandler({ git, log: nullLogger, clock: new FakeClock(T0), notes, store });
  });
  afterEach(async () => {
    await repo.remove();
  });

  const commit = async (file: string, content: string, args: string[] = []): Promise<string> => {
    await repo.write(file, content);
    await repo.git(['add', '-A']);
    await repo.git(['commit', '-q', '--no-verify', ...args, '-m', `c ${file}`]);
    return repo.head();
  };

  it('a recorded commit with the same parents touching the files is replaced; its lines are excluded per session', async () => {
    const base = await commit('a.ts', 'a\n');
    const undone = await commit('a.ts', 'a\nb\n');
    await store.appendCommit({ sha: undone, time: 1, sessions: { s1: [line('a.ts', 't1')], s2: [line('a.ts', 't2'), line(null, 'w')] } });
    // recorded, but of other files, or not a full object id: never replaced
    await store.appendCommit({ sha: base, time: 2, sessions: { s1: [line('other.ts', 'o')] } });
    await store.appendCommit({ sha: 'HEAD', time: 3, sessions: { s1: [line('a.ts', 'h')] } });
    await repo.git(['reset', '-q', '--soft', 'HEAD~1']);
    const again = await commit('a.ts', 'a\nb\nc\n');
    const files = new Set(['a.ts']);
    assert.deepEqual(
      (await rewrites.replacedCommits(again, [base], files, undefined)).map((r) => r.sha),
      [undone],
    );
    // other parents: not a replacement
    assert.deepEqual(await rewrites.replacedCommits(again, [undone], files, undefined), []);
    const excluded = await rewrites.excludedLines(again, [base], files, undefined);
    assert.deepEqual(Object.fromEntries(excluded), { s1: [line('a.ts', 't1')], s2: [line('a.ts', 't2'), line(null, 'w')] });
  });

  it('an amend: the amended commit comes first; an unchanged tree with a note is copied to the new commit', async () => {
    await commit('a.ts', 'a\n');
    const old = await commit('b.ts', 'b\n');
    await notes.write(old, note);
    await store.appendCommit({ sha: old, time: 1, sessions: { s1: [line('b.ts', 't1')] } });
    await repo.git(['commit', '-q', '--no-verify', '--amend', '-m', 'reworded']);
    const reworded = await repo.head();
    const amended = await rewrites.amended('HEAD@{1}', async (rev) => (await repo.git(['rev-parse', rev])).trim());
    assert.equal(amended.sha, old);
    assert.equal(amended.hasNote, true);
    assert.deepEqual(amended.log?.sessions, { s1: [line('b.ts', 't1')] });
    const tree = (await repo.git(['rev-parse', `${reworded}^{tree}`])).trim();
    assert.equal(await rewrites.unchangedAmend(amended, tree), true);
    assert.equal(await rewrites.unchangedAmend({ ...amended, hasNote: false }, tree), false);
    assert.equal(await rewrites.unchangedAmend(amended, '0'.repeat(40)), false);
    assert.deepEqual(
      (await rewrites.replacedCommits(reworded, [], new Set(['b.ts']), amended.log)).map((r) => r.sha),
      [old],
    );

    const outcome = await rewrites.copyNote(old, reworded, amended.log);
    assert.deepEqual(outcome, {
      kind: 'written',
      noteBytes: Buffer.byteLength(encodeNote(note)),
      aiRatio: 100,
      method: 'file',
      redactions: 1,
    });
    assert.equal(await notes.readRaw(reworded), await notes.readRaw(old));
    const log = await store.findCommit(reworded);
    assert.equal(log?.copiedFrom, old);
    assert.deepEqual(log?.sessions, { s1: [line('b.ts', 't1')] });
  });

  it('copying a note that does not exist is human-only and adds no capture-log line', async () => {
    const a = await commit('a.ts', 'a\n');
    const b = await commit('b.ts', 'b\n');
    assert.deepEqual(await rewrites.copyNote(a, b, undefined), { kind: 'human-only' });
    assert.equal(await store.findCommit(b), undefined);
  });
});
