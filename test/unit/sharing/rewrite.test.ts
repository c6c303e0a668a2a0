import * as assert from 'node:assert/strict';
import { encodeNote } from '../../../src/core/notes/noteCodec';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { carryNote, configureRewrite } from '../../../src/node/sharing/notesSharing';
import { aNote } from '../../helpers/sharingFixture';
import { TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

describe('notes across rewrites', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let a: TempRepo;
  let c1: string;
  beforeEach(async () => {
    a = await TempRepo.create();
    c1 = await a.commit({ 'a.txt': 'one\n' }, 'first');
  });
  afterEach(() => a.remove());

  it('configures notes.rewriteRef next to existing values, idempotently', async () => {
    await a.git(['config', '--add', 'notes.rewriteRef', 'refs/notes/commits']);
    assert.deepEqual(await configureRewrite(a.runner()), ['notes.rewriteRef', 'notes.rewrite.amend', 'notes.rewrite.rebase']);
    assert.deepEqual(await configureRewrite(a.runner()), []);
    assert.deepEqual((await a.git(['config', '--get-all', 'notes.rewriteRef'])).trim().split('\n'), [
      'refs/notes/commits',
      'refs/notes/agentnote',
    ]);
    assert.equal((await a.git(['config', 'notes.rewrite.amend'])).trim(), 'true');
    assert.equal((await a.git(['config', 'notes.rewrite.rebase'])).trim(), 'true');
  });

  it('keeps notes through amend and rebase once configured', async () => {
    const store = new NoteStore(a.runner());
    const n = aNote('amend me');
    await store.write(c1, n);
    // Without the configuration git drops the note on amend.
    await a.git(['commit', '-q', '--amend', '-m', 'first (amended, unconfigured)']);
    assert.equal(await store.has('HEAD'), false);
    assert.equal(await carryNote(store, c1, await a.head()), 'written', 'carryNote repairs it');
    assert.equal(await carryNote(store, c1, await a.head()), 'exists');

    await configureRewrite(a.runner());
    await a.git(['commit', '-q', '--amend', '-m', 'first (amended again)']);
    assert.equal(await store.readRaw('HEAD'), encodeNote(n));

    await a.git(['checkout', '-q', '-b', 'feature']);
    const f1 = await a.commit({ 'f.txt': 'feature\n' }, 'feature work');
    const fn = aNote('feature prompt', '2026-03-01T10:05:00.000Z');
    await store.write(f1, fn);
    await a.git(['checkout', '-q', 'main']);
    await a.commit({ 'm.txt': 'main\n' }, 'main moves on');
    await a.git(['checkout', '-q', 'feature']);
    await a.git(['rebase', '-q', 'main']);
    const rebased = await a.head();
    assert.notEqual(rebased, f1);
    assert.equal(await store.readRaw(rebased), encodeNote(fn));
  });
});
