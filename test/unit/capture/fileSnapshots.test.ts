// The content a disk change started from: known snapshot, else the index version read through the
// long-lived cat-file process (no git process per changed file), else empty.
import * as assert from 'node:assert/strict';
import { FileSnapshots } from '../../../src/node/capture/fileSnapshots';
import { BlobStore } from '../../../src/node/git/blobStore';
import { GitRunner } from '../../../src/node/git/gitRunner';
import { TempRepo } from '../attribution/fixtureRepo';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';

describe('FileSnapshots', () => {
  useIsolatedGitEnv();
  let repo: TempRepo;
  let blobs: BlobStore | undefined;
  beforeEach(() => {
    repo = TempRepo.create('an-snap-');
  });
  afterEach(() => {
    blobs?.dispose();
    repo.dispose();
  });

  it('reads the index version of 50 changed files through the blob reader, with no git process per file', async () => {
    for (let i = 0; i < 50; i++) repo.write(`m/f${i}.ts`, `export const v${i} = ${i};\r\n`);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'base']);
    const runner = new GitRunner(repo.dir);
    blobs = new BlobStore(runner);
    const store = blobs;
    const snaps = new FileSnapshots(repo.dir, runner, (name) => store.read(name));
    await snaps.previous('m/f0.ts'); // starts the reader
    const before = runner.counters.get('git.calls');
    const got = await Promise.all(Array.from({ length: 50 }, (_, i) => snaps.previous(`m/f${i}.ts`)));
    assert.deepEqual(
      got,
      Array.from({ length: 50 }, (_, i) => `export const v${i} = ${i};\r\n`),
    );
    assert.equal(runner.counters.get('git.calls') - before, 0);
    // untracked: empty; a known snapshot wins over the index
    assert.equal(await snaps.previous('new.ts'), '');
    snaps.set('m/f1.ts', 'typed\n');
    assert.equal(await snaps.previous('m/f1.ts'), 'typed\n');
  });

  it('without a blob reader falls back to git show of the index version', async () => {
    repo.write('a.txt', 'alpha\n');
    repo.git(['add', 'a.txt']);
    const snaps = new FileSnapshots(repo.dir, new GitRunner(repo.dir));
    assert.equal(await snaps.previous('a.txt'), 'alpha\n');
    assert.equal(await snaps.previous('missing.txt'), '');
  });
});
