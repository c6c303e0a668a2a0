import * as assert from 'node:assert/strict';
import { Counters } from '../../../src/core/ports';
import { emptyBlobId } from '../../../src/core/model/journal';
import { BlobStore } from '../../../src/node/git/blobStore';
import { GitError } from '../../../src/node/git/gitRunner';
import { TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

describe('BlobStore', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();

  let repo: TempRepo;
  let store: BlobStore;
  let counters: Counters;

  beforeEach(async () => {
    repo = await TempRepo.create({ initialFiles: { 'README.md': 'hello\n' } });
    counters = new Counters();
    store = new BlobStore(repo.runner({ counters }));
  });
  afterEach(async () => {
    store.dispose();
    await repo.remove();
  });

  /** What `git hash-object --path=<p> --stdin` gives for the content (git's own filtering). */
  const gitHash = async (p: string, content: string | Buffer) =>
    (await repo.git(['hash-object', `--path=${p}`, '--stdin'], { input: content })).trim();

  it('hashes a batch of plain contents in few git processes and writes the objects', async () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ path: `src/f${i}.ts`, content: `export const v${i} = ${i};\n` }));
    const before = counters.get('git.calls');
    const ids = await store.hashContents(items);
    assert.equal(counters.get('git.calls') - before, 2, 'check-attr + one hash-object');
    for (const i of [0, 7, 19]) assert.equal(ids[i], await gitHash(items[i].path, items[i].content));
    const check = await repo.git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: ids.join('\n') + '\n' });
    assert.deepEqual(
      check.trim().split('\n'),
      ids.map((id) => `${id} blob`),
      'objects written',
    );
    assert.deepEqual(await store.hashContents([]), []);
  });

  it('writes through the writer runner when given one, and reads through its own cat-file process', async () => {
    const writerCounters = new Counters();
    const split = new BlobStore(repo.runner({ counters }), { writeGit: repo.runner({ counters: writerCounters }) });
    try {
      const before = counters.get('git.calls');
      const [id] = await split.hashContents([{ path: 'a.txt', content: 'alpha\n' }]);
      assert.equal(counters.get('git.calls'), before, 'no write on the reader runner');
      assert.equal(writerCounters.get('git.calls'), 2, 'check-attr + hash-object on the writer runner');
      assert.equal((await split.read(id))?.toString('utf8'), 'alpha\n');
      assert.equal(counters.get('git.calls'), before + 1, 'one cat-file --batch for the read');
      assert.equal(writerCounters.get('git.calls'), 2);
    } finally {
      split.dispose();
    }
  });

  it('applies core.autocrlf=true like git add does', async () => {
    await repo.git(['config', 'core.autocrlf', 'true']);
    const crlf = 'one\r\ntwo\r\n';
    const [id, lf] = await store.hashContents([
      { path: 'win.txt', content: crlf },
      { path: 'unix.txt', content: 'one\ntwo\n' },
    ]);
    assert.equal(id, await gitHash('win.txt', crlf));
    assert.equal(id, lf, 'CRLF normalized to the LF blob');
    await repo.write('win.txt', crlf);
    await repo.git(['add', 'win.txt']);
    assert.equal((await repo.git(['rev-parse', ':win.txt'])).trim(), id, 'same blob as the index entry');
  });

  it('applies .gitattributes eol/text, keeps -text files verbatim, and honours ident and filter drivers', async () => {
    await repo.write('.gitattributes', '*.txt text eol=crlf\n*.bin -text\n*.id ident\n*.up filter=upper\n');
    await repo.git(['config', 'filter.upper.clean', 'tr a-z A-Z']);
    await repo.git(['config', 'filter.upper.smudge', 'cat']);
    const items = [
      { path: 'docs/a.txt', content: 'x\r\ny\r\n' },
      { path: 'data.bin', content: Buffer.from([0x61, 0x0d, 0x0a, 0x00, 0x62, 0x0d, 0x0a]) },
      { path: 'v.id', content: 'version $Id: old $\n' },
      { path: 'shout.up', content: 'quiet words\n' },
      { path: 'docs/b.txt', content: 'also\r\n' },
    ];
    const ids = await store.hashContents(items);
    for (let i = 0; i < items.length; i++) assert.equal(ids[i], await gitHash(items[i].path, items[i].content), items[i].path);
    assert.equal(ids[0], (await repo.git(['hash-object', '--stdin'], { input: 'x\ny\n' })).trim());
    assert.equal(ids[1], (await repo.git(['hash-object', '--no-filters', '--stdin'], { input: items[1].content })).trim());
    assert.equal((await repo.gitBuffer(['cat-file', 'blob', ids[3]])).toString(), 'QUIET WORDS\n');
    assert.equal((await repo.gitBuffer(['cat-file', 'blob', ids[2]])).toString(), 'version $Id$\n');
  });

  it('hashes work-tree files with their filters; missing paths give undefined', async () => {
    await repo.git(['config', 'core.autocrlf', 'true']);
    await repo.write('w.txt', 'a\r\nb\r\n');
    await repo.write('dir/with space.txt', 'spaced\n');
    await repo.write('q"uote\nnl.txt', 'odd name\n');
    const ids = await store.hashFiles(['w.txt', 'missing.txt', 'dir/with space.txt', 'q"uote\nnl.txt', 'dir']);
    assert.equal(ids[0], await gitHash('w.txt', 'a\r\nb\r\n'));
    assert.equal(ids[1], undefined);
    assert.equal(ids[2], await gitHash('x', 'spaced\n'));
    assert.equal(ids[3], await gitHash('x', 'odd name\n'));
    assert.equal(ids[4], undefined, 'a directory');
  });

  it('writes and returns the empty blob', async () => {
    assert.equal((await repo.gitResult(['cat-file', '-e', emptyBlobId])).code, 1, 'not in a fresh repository');
    assert.equal(await store.ensureEmptyBlob(), emptyBlobId);
    assert.equal((await repo.gitResult(['cat-file', '-e', emptyBlobId])).code, 0);
  });

  it('reads many blobs through one cat-file --batch process', async () => {
    const contents = [Buffer.from('plain\n'), Buffer.from([0, 1, 2, 10, 10, 13, 255]), Buffer.alloc(0), Buffer.alloc(1_500_000, 'z')];
    const ids = await store.hashContents(contents.map((c, i) => ({ path: `bin${i}`, content: c })));
    const before = counters.get('git.calls');
    const read = await store.readMany([...ids, 'HEAD:README.md', '0000000000000000000000000000000000000001', 'HEAD', 'bad\nname']);
    assert.equal(counters.get('git.calls') - before, 1, 'one long-lived process');
    for (let i = 0; i < contents.length; i++) assert.deepEqual(read[i], contents[i]);
    assert.equal(read[4]?.toString(), 'hello\n');
    assert.equal(read[5], undefined, 'missing');
    assert.equal(read[6], undefined, 'a commit is not a blob');
    assert.equal(read[7], undefined, 'names with newlines are refused');
    const pid = store.readerPid;
    await store.read(ids[0]);
    assert.equal(store.readerPid, pid, 'process reused');
  });

  it('restarts the reader after it dies, retrying requests in flight', async () => {
    const [id] = await store.hashContents([{ path: 'a', content: 'survives\n' }]);
    assert.equal((await store.read(id))?.toString(), 'survives\n');
    const pid = store.readerPid!;
    process.kill(pid, 'SIGKILL');
    const again = await Promise.all([store.read(id), store.read(id)]);
    assert.deepEqual(
      again.map((b) => b?.toString()),
      ['survives\n', 'survives\n'],
    );
    assert.notEqual(store.readerPid, pid);
    // Killed while requests are in flight: they are sent again to a new process.
    const inFlight = [store.read(id), store.read('HEAD:README.md'), store.read(id)];
    process.kill(store.readerPid!, 'SIGKILL');
    assert.deepEqual(
      (await Promise.all(inFlight)).map((b) => b?.toString()),
      ['survives\n', 'hello\n', 'survives\n'],
    );
    assert.equal(counters.get('git.catFileRestarts') >= 1, true);
  });

  it('stops the idle reader and refuses work after dispose', async () => {
    const quick = new BlobStore(repo.runner(), { idleMs: 50 });
    const [id] = await quick.hashContents([{ path: 'a', content: 'x\n' }]);
    await quick.read(id);
    assert.ok(quick.readerPid);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(quick.readerPid, undefined, 'stopped after idling');
    assert.equal((await quick.read(id))?.toString(), 'x\n', 'restarted on demand');
    quick.dispose();
    await assert.rejects(quick.read(id), (e: unknown) => GitError.is(e));
  });
});
