// Which HEAD moves need a note (src/node/recorder/commitWatcher.ts), on a real repository.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { CaptureStore } from '../../../src/node/recorder/captureStore';
import { CommitWatcher } from '../../../src/node/recorder/commitWatcher';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { TestRepo } from './recorderHarness';

const note: AgentNoteV1 = {
  v: 1,
  agent: 'claude',
  session_id: '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f',
  timestamp: '2026-05-01T10:00:00.000Z',
  model: null,
  interactions: [{ prompt: 'p', response: null }],
  files: [{ path: 'a.ts', by_ai: true }],
  attribution: { ai_ratio: 100, method: 'file' },
};

describe('CommitWatcher', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  let watcher: CommitWatcher;
  let notes: NoteStore;
  let store: CaptureStore;

  beforeEach(async () => {
    repo = await TestRepo.create();
    const git = repo.runner();
    notes = new NoteStore(git);
    store = new CaptureStore(path.join(repo.dir, '.git', 'agentnote', 'capture'));
    watcher = new CommitWatcher(git, notes, store);
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
  const classify = (sha: string, opts: { amendedFrom?: string } = {}) => watcher.classify(sha, opts, watcher.commitInfo(sha));

  it('a new commit needs a note; its info has parents, committer time, tree and subject', async () => {
    const first = await commit('a.ts', 'a\n');
    const second = await commit('b.ts', 'b\n');
    const v = await classify(second);
    assert.equal(v.kind, 'record');
    assert.ok(v.kind === 'record');
    assert.deepEqual(v.info.parents, [first]);
    assert.equal(v.info.subject, 'c b.ts');
    assert.equal(v.info.tree, (await repo.git(['rev-parse', `${second}^{tree}`])).trim());
    assert.ok(v.info.time > 0 && v.info.time % 1000 === 0);
    assert.equal('amendedFrom' in v, false);
  });

  it('a commit with a note exists; merges and checkouts are skipped', async () => {
    const base = await commit('a.ts', 'a\n');
    await notes.write(base, note);
    assert.deepEqual(await classify(base), { kind: 'done', outcome: { kind: 'exists' } });
    await repo.git(['checkout', '-q', '-b', 'side']);
    const side = await commit('s.ts', 's\n');
    await repo.git(['checkout', '-q', 'main']);
    await commit('m.ts', 'm\n');
    await repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
    assert.deepEqual(await classify(await repo.head()), { kind: 'done', outcome: { kind: 'skipped', reason: 'merge commit' } });
    await repo.git(['checkout', '-q', side]);
    assert.deepEqual(await classify(side), { kind: 'done', outcome: { kind: 'skipped', reason: 'not a new commit (checkout)' } });
  });

  it('an amend is found in the reflog with the amended commit; an explicit amendedFrom wins', async () => {
    await commit('a.ts', 'a\n');
    const before = await commit('b.ts', 'b\n');
    const amended = await commit('b.ts', 'b2\n', ['--amend']);
    assert.deepEqual(await watcher.reflogEntry(amended), { op: `commit (amend): c b.ts`, previous: before });
    const v = await classify(amended);
    assert.ok(v.kind === 'record');
    assert.equal(v.amendedFrom, before);
    const explicit = await classify(amended, { amendedFrom: 'HEAD@{1}' });
    assert.ok(explicit.kind === 'record');
    assert.equal(explicit.amendedFrom, 'HEAD@{1}');
  });

  it('an amend that already has a note: recorded by us ⇒ exists; not in our capture log ⇒ recorded again', async () => {
    await commit('a.ts', 'a\n');
    await commit('b.ts', 'b\n');
    const amended = await commit('b.ts', 'b2\n', ['--amend']);
    await notes.write(amended, note);
    // a note from elsewhere (a peer, the CLI): the amend is still ours to record
    assert.equal((await classify(amended)).kind, 'record');
    await store.appendCommit({ sha: amended, time: 1, sessions: {} });
    assert.deepEqual(await classify(amended), { kind: 'done', outcome: { kind: 'exists' } });
    // the host saying it is an amend always records it
    assert.equal((await classify(amended, { amendedFrom: 'HEAD@{1}' })).kind, 'record');
  });
});
