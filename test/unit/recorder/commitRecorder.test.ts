// One commit's note (src/node/recorder/commitRecorder.ts) from a CLI-shaped journal written directly.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Counters, nullLogger } from '../../../src/core/ports';
import { BlobStore } from '../../../src/node/git/blobStore';
import { SessionJournal, type JournalSession } from '../../../src/node/journal/sessionJournal';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { CaptureStore } from '../../../src/node/recorder/captureStore';
import { CommitRecorder } from '../../../src/node/recorder/commitRecorder';
import { EditTimeline } from '../../../src/node/recorder/editTimeline';
import { JournalGeneration } from '../../../src/node/recorder/recorderUtil';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { FakeClock, T0, TestRepo } from './recorderHarness';

const SID = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';

describe('CommitRecorder', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  let blobs: BlobStore;
  let js: JournalSession;
  let store: CaptureStore;
  let notes: NoteStore;
  let counters: Counters;
  let generation: JournalGeneration;
  let settled: number;
  let commits: CommitRecorder;
  const clock = new FakeClock(T0);

  beforeEach(async () => {
    repo = await TestRepo.create();
    await repo.write('a.ts', 'a\n');
    await commit('init', -60);
    const git = repo.runner();
    blobs = new BlobStore(git);
    notes = new NoteStore(git, { blobs });
    const journal = await SessionJournal.forRepository(git, { clock });
    const s = journal.session(SID);
    assert.ok(s);
    js = s;
    store = new CaptureStore(path.join(journal.root, 'capture'));
    counters = new Counters();
    generation = new JournalGeneration();
    settled = 0;
    commits = new CommitRecorder({
      root: repo.dir,
      git,
      log: nullLogger,
      clock,
      counters,
      commitTimeSkewMs: 2_000,
      journal,
      notes,
      store,
      timeline: new EditTimeline(),
      generation,
      settle: async () => void settled++,
    });
  });
  afterEach(async () => {
    blobs.dispose();
    await repo.remove();
  });

  async function commit(message: string, offsetS = 0): Promise<string> {
    const date = `${Math.floor(T0 / 1000) + offsetS} +0000`;
    await repo.git(['add', '-A']);
    await repo.git(['commit', '-q', '--no-verify', '--allow-empty', '-m', message], {
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    return repo.head();
  }
  const hashW = async (content: string) => (await repo.git(['hash-object', '-w', '--stdin'], { input: content })).trim();

  it('a commit with an agent pair: the note, consumption lines in the session and the commit in the capture log; then exists', async () => {
    const r = await js.recordPrompt({ prompt: 'Add b', agent: 'claude', model: 'claude-opus-4-6' });
    await js.appendPreBlob({
      event: 'pre_blob',
      turn: 1,
      prompt_id: r.promptId,
      file: 'a.ts',
      blob: await hashW('a\n'),
      tool_use_id: 'tu1',
    });
    await js.appendChange({
      event: 'file_change',
      timestamp: new Date(T0 - 10_000).toISOString(),
      tool: 'Edit',
      file: 'a.ts',
      session_id: SID,
      turn: 1,
      prompt_id: r.promptId,
      blob: await hashW('a\nb\n'),
      change_id: null,
      edit_added: 1,
      edit_deleted: 0,
      tool_use_id: 'tu1',
    });
    await repo.write('a.ts', 'a\nb\n');
    const sha = await commit('feat: b');
    const outcome = await commits.record(sha, {});
    assert.equal(settled, 1);
    assert.equal(outcome.kind, 'written');
    assert.ok(outcome.kind === 'written' && outcome.aiRatio === 100 && outcome.method === 'line' && outcome.noteBytes > 0);
    const note = await notes.read(sha);
    assert.ok(note?.kind === 'valid');
    assert.deepEqual(
      note.note.interactions.map((i) => i.prompt),
      ['Add b'],
    );
    const consumed = (await js.readCommittedPairs()).entries;
    assert.ok(consumed.some((l) => l.tool_use_id === 'tu1' && l.file === 'a.ts'));
    assert.ok(consumed.some((l) => l.prompt_scope !== undefined && l.prompt_id === r.promptId));
    assert.deepEqual(Object.keys((await store.findCommit(sha))?.sessions ?? {}), [SID]);
    assert.equal(generation.value, 1);
    // by short revision as well
    assert.deepEqual(await commits.record(sha.slice(0, 10), {}), { kind: 'exists' });
  });

  it('another window wrote the note and consumed the edits after this one looked: "exists", not human-only', async () => {
    const r = await js.recordPrompt({ prompt: 'Add c', agent: 'claude', model: 'claude-opus-4-6' });
    await js.appendChange({
      event: 'file_change',
      timestamp: new Date(T0 - 10_000).toISOString(),
      tool: 'Write',
      file: 'a.ts',
      session_id: SID,
      turn: 1,
      prompt_id: r.promptId,
      blob: await hashW('a\nc\n'),
      change_id: null,
      edit_added: 1,
      edit_deleted: 0,
      tool_use_id: 'tu2',
    });
    await repo.write('a.ts', 'a\nc\n');
    const sha = await commit('feat: c');
    assert.equal((await commits.record(sha, {})).kind, 'written'); // the first window
    // the second window's first look for a note came before the first window's write
    const git = repo.runner();
    let looks = 0;
    class LateNotes extends NoteStore {
      override async has(_commit: string): Promise<boolean> {
        looks++;
        return false; // the first look (the only one through has) came before the other window's write
      }
    }
    const journal = await SessionJournal.forRepository(git, { clock });
    const second = new CommitRecorder({
      root: repo.dir,
      git,
      log: nullLogger,
      clock,
      counters: new Counters(),
      commitTimeSkewMs: 2_000,
      journal,
      notes: new LateNotes(git, { blobs, trustCacheUntilInvalidated: true }),
      store: new CaptureStore(path.join(journal.root, 'capture-second')),
      timeline: new EditTimeline(),
      generation: new JournalGeneration(),
      settle: async () => undefined,
    });
    assert.deepEqual(await second.record(sha, {}), { kind: 'exists' });
    assert.ok(looks >= 1, 'the first look found no note');
  });

  it('a commit no agent edit touched is human-only; an unknown revision fails with a reason, counted', async () => {
    await repo.write('h.ts', 'by hand\n');
    const sha = await commit('chore: h');
    assert.deepEqual(await commits.record(sha, {}), { kind: 'human-only' });
    assert.equal(await notes.has(sha), false);
    const failed = await commits.record('no-such-rev', {});
    assert.equal(failed.kind, 'failed');
    assert.equal(counters.get('recorder.recordFailures'), 1);
  });
});
