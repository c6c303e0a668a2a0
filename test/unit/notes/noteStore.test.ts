import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { encodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { Counters } from '../../../src/core/ports';
import { BlobStore } from '../../../src/node/git/blobStore';
import { NoteStore, NoteStoreError } from '../../../src/node/notes/noteStore';
import { projectRoot, TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

function note(prompt: string, extra: Partial<AgentNoteV1> = {}): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f',
    timestamp: '2026-12-02T14:30:57.434Z',
    model: 'claude-opus-4-6',
    interactions: [{ prompt, response: 'done', files_touched: ['a.txt'], tools: ['Edit'] }],
    files: [{ path: 'a.txt', by_ai: true }],
    attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } },
    ...extra,
  };
}

const slug = (subject: string) =>
  subject
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

describe('NoteStore', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();

  let repo: TempRepo;
  let c1: string;
  let c2: string;
  let c3: string;

  beforeEach(async () => {
    repo = await TempRepo.create();
    c1 = await repo.commit({ 'a.txt': 'one\n' }, 'first');
    c2 = await repo.commit({ 'a.txt': 'one\ntwo\n' }, 'second');
    c3 = await repo.commit({ 'b.txt': 'b\n' }, 'third');
  });
  afterEach(async () => {
    await repo.remove();
  });

  it('writes the exact bytes the CLI writes and reads them back', async () => {
    const store = new NoteStore(repo.runner());
    const n = note('Append a line to a.txt — añadir 測試');
    assert.equal(await store.write(c1, n), 'written');
    const blob = (await repo.git(['notes', '--ref=agentnote', 'list', c1])).trim();
    const stored = await repo.gitBuffer(['cat-file', '-p', blob]);
    assert.equal(stored.toString('utf8'), encodeNote(n));
    assert.equal(await repo.git(['notes', '--ref=agentnote', 'show', c1]), encodeNote(n));
    // Same blob as the CLI's `git notes add -m <JSON without trailing newline>`.
    await repo.git(['notes', '--ref=cli', 'add', '-m', JSON.stringify(n, null, 2), c1]);
    assert.equal((await repo.git(['notes', '--ref=cli', 'list', c1])).trim(), blob);
    assert.equal((await repo.git(['log', '-1', '--format=%s', 'refs/notes/agentnote'])).trim(), "Notes added by 'git notes add'");

    const d = await store.read(c1);
    assert.equal(d?.kind, 'valid');
    assert.deepEqual(d?.kind === 'valid' && d.note, n);
    assert.equal(await store.readRaw('HEAD~2'), encodeNote(n));
    assert.equal(await store.read(c2), undefined);
    assert.equal(await store.read('no-such-revision'), undefined);
    assert.equal(await store.has(c1.slice(0, 10)), true);
  });

  it('writes a 1 MB note (no argv limit) byte for byte; reads it only under limits that allow it', async () => {
    const big = note('x'.repeat(1024 * 1024));
    const store = new NoteStore(repo.runner(), { limits: { maxBytes: 4 * 1024 * 1024 } });
    assert.equal(await store.write(c2, big), 'written');
    const raw = await store.readRaw(c2);
    assert.ok(raw === encodeNote(big), 'byte for byte');
    assert.ok(raw!.length > 1024 * 1024);
    const d = await store.read(c2);
    assert.equal(d?.kind === 'valid' && d.note.interactions[0].prompt.length, 1024 * 1024);
    // with the default limits (1 MiB) the same note is "too large", never loaded
    const counters = new Counters();
    const strict = new NoteStore(repo.runner({ counters }));
    assert.equal(await strict.noteSize(c2), Buffer.byteLength(encodeNote(big)));
    const calls = counters.get('git.calls');
    const tooLarge = await strict.read(c2);
    assert.equal(tooLarge?.kind, 'invalid');
    assert.equal(tooLarge?.kind === 'invalid' && tooLarge.violation?.kind, 'tooLarge');
    assert.match(
      tooLarge?.kind === 'invalid' ? tooLarge.reason : '',
      /^note too large \(1,04[89],\d{3} bytes; the limit is 1,048,576 bytes\)$/,
    );
    assert.equal(tooLarge?.kind === 'invalid' && tooLarge.raw, '');
    assert.equal(counters.get('git.calls') - calls, 1, 'only the ref check: the blob is not read');
    assert.equal(await strict.readRaw(c2), undefined);
  });

  it('lists noted commits once per notes-ref value and re-lists when the ref moves', async () => {
    const counters = new Counters();
    const store = new NoteStore(repo.runner({ counters }));
    assert.equal((await store.listNotedCommits()).size, 0);
    await store.write(c1, note('a'));
    const first = await store.listNotedCommits();
    assert.deepEqual([...first.keys()], [c1]);
    const calls = counters.get('git.calls');
    const again = await store.listNotedCommits();
    assert.equal(again, first, 'same cached map');
    assert.equal(counters.get('git.calls') - calls, 1, 'only the rev-parse of the ref');
    // Another writer (the CLI) moves the ref behind our back.
    await repo.git(['notes', '--ref=agentnote', 'add', '-m', '{"x":1}', c3]);
    const moved = await store.listNotedCommits();
    assert.deepEqual([...moved.keys()].sort(), [c1, c3].sort());
    // Concurrent callers share one list.
    store.invalidate();
    const before = counters.get('git.calls');
    const all = await Promise.all([store.listNotedCommits(), store.listNotedCommits(), store.listNotedCommits()]);
    assert.equal(all[0], all[1]);
    assert.equal(all[1], all[2]);
    assert.equal(counters.get('git.calls') - before, 2, 'one rev-parse and one notes list');
  });

  it('a trusted listing read from a ref value taken before invalidate() is not kept as the cache', async () => {
    const runner = repo.runner();
    let gate: (() => void) | undefined;
    const held = new Promise<void>((r) => (gate = r));
    // hold the first `ls-tree` until the ref has moved and the watcher's invalidate() came
    let holdNext = true;
    const slow = new Proxy(runner, {
      get(target, prop, receiver) {
        if (prop !== 'run') return Reflect.get(target, prop, receiver) as unknown;
        return async (args: string[], opts?: unknown) => {
          if (args[0] === 'ls-tree' && holdNext) {
            holdNext = false;
            await held;
          }
          return target.run(args, opts as Parameters<typeof target.run>[1]);
        };
      },
    });
    const trusting = new NoteStore(slow, { trustCacheUntilInvalidated: true });
    await repo.git(['notes', '--ref=agentnote', 'add', '-m', '{"x":1}', c1]);
    const first = trusting.listNotedCommits(); // reads the ref (c1's note only), then waits in ls-tree
    await new Promise((r) => setTimeout(r, 200));
    await repo.git(['notes', '--ref=agentnote', 'add', '-m', '{"x":2}', c2]); // another writer
    trusting.invalidate(); // what the host does when its watcher sees the ref move
    gate!();
    assert.deepEqual([...(await first).keys()], [c1], 'the caller gets the listing of the value it read');
    assert.deepEqual(
      [...(await trusting.listNotedCommits()).keys()].sort(),
      [c1, c2].sort(),
      'the next caller is not served the stale one',
    );
    const now = await trusting.listNotedCommitsNow();
    assert.equal(now.refValue, (await repo.git(['rev-parse', 'refs/notes/agentnote'])).trim());
    assert.equal(now.map.size, 2);
  });

  it('never overwrites unless asked', async () => {
    const store = new NoteStore(repo.runner());
    assert.equal(await store.write(c1, note('first')), 'written');
    assert.equal(await store.write(c1, note('second')), 'exists');
    assert.equal(await store.readRaw(c1), encodeNote(note('first')));
    assert.equal(await store.write(c1, note('third'), { overwrite: true }), 'written');
    assert.equal(await store.readRaw(c1), encodeNote(note('third')));
  });

  it('copies a note as the very same blob', async () => {
    const store = new NoteStore(repo.runner());
    await store.write(c1, note('carried'));
    assert.equal(await store.copy(c1, c3), 'written');
    const list = await store.listNotedCommits();
    assert.equal(list.get(c3), list.get(c1));
    assert.equal(await store.copy(c2, c3), 'missing');
    await store.write(c2, note('other'));
    assert.equal(await store.copy(c2, c3), 'exists');
    assert.equal(await store.copy(c2, c3, { overwrite: true }), 'written');
    assert.equal((await store.listNotedCommits()).get(c3), (await store.listNotedCommits()).get(c2));
  });

  it('reports a note of another tool as invalid instead of failing', async () => {
    await repo.git(['notes', '--ref=agentnote', 'add', '-m', 'Reviewed-by: Ann <ann@example.com>', c1]);
    const store = new NoteStore(repo.runner());
    const d = await store.read(c1);
    assert.deepEqual(d, { kind: 'invalid', reason: 'text note from another tool', raw: 'Reviewed-by: Ann <ann@example.com>\n' });
  });

  it('caches decoded notes by blob and hands out copies', async () => {
    const counters = new Counters();
    const store = new NoteStore(repo.runner({ counters }));
    await store.write(c1, note('cached'));
    const a = await store.read(c1);
    const calls = counters.get('git.calls');
    const b = await store.read(c1);
    assert.equal(counters.get('git.calls') - calls, 1, 'only the ref check, no cat-file');
    assert.deepEqual(a, b);
    if (a?.kind === 'valid') a.note.interactions[0].prompt = 'mutated by a caller';
    const c = await store.read(c1);
    assert.equal(c?.kind === 'valid' && c.note.interactions[0].prompt, 'cached');
  });

  it('reads note blobs through a BlobStore when given one', async () => {
    const blobs = new BlobStore(repo.runner());
    try {
      const store = new NoteStore(repo.runner(), { blobs });
      await store.write(c1, note('via batch'));
      assert.equal(await store.readRaw(c1), encodeNote(note('via batch')));
      assert.ok(blobs.readerPid !== undefined);
    } finally {
      blobs.dispose();
    }
  });

  it('loses no note when two stores write concurrently', async () => {
    const more: string[] = [];
    for (let i = 0; i < 6; i++) more.push(await repo.commit({ [`f${i}.txt`]: `${i}\n` }, `c${i}`));
    const s1 = new NoteStore(repo.runner());
    const s2 = new NoteStore(repo.runner());
    const results = await Promise.all(more.map((c, i) => (i % 2 ? s1 : s2).write(c, note(`n${i}`))));
    assert.deepEqual(
      results,
      more.map(() => 'written'),
    );
    const list = await new NoteStore(repo.runner()).listNotedCommits();
    assert.deepEqual([...list.keys()].sort(), [...more].sort());
    // Same commit from both: one wins, the other sees it.
    const same = await Promise.all([s1.write(c1, note('left')), s2.write(c1, note('right'))]);
    assert.deepEqual([...same].sort(), ['exists', 'written']);
  });

  it('retries while the notes ref is locked, then gives up with refLocked', async () => {
    const store = new NoteStore(repo.runner(), { retryDelayMs: 30 });
    await store.write(c1, note('first'));
    const lock = path.join(repo.dir, '.git', 'refs', 'notes', 'agentnote.lock');
    await writeFile(lock, '');
    const pending = store.write(c2, note('waits'));
    setTimeout(() => void rm(lock, { force: true }), 150);
    assert.equal(await pending, 'written');
    assert.equal(await store.readRaw(c2), encodeNote(note('waits')));

    await writeFile(lock, '');
    const quick = new NoteStore(repo.runner(), { retryDelayMs: 5, writeAttempts: 3 });
    await assert.rejects(quick.write(c3, note('never')), (e: unknown) => NoteStoreError.is(e, 'refLocked'));
    await rm(lock, { force: true });
    assert.equal(await quick.has(c3), false);
    await assert.rejects(quick.write('not-a-commit', note('x')), (e: unknown) => NoteStoreError.is(e, 'badCommit'));
  });

  describe('peer bundles', () => {
    const peerDir = path.join(projectRoot(), 'test', 'fixtures', 'peer-repos');
    const expected: Record<string, number> = { 'todo-api': 5, 'weather-cli': 5, 'shop-cart': 4 };
    for (const name of Object.keys(expected)) {
      it(`reads every note of ${name}.bundle byte for byte`, async () => {
        const bundleRepo = await TempRepo.fromBundle(path.join(peerDir, `${name}.bundle`));
        try {
          const store = new NoteStore(bundleRepo.runner());
          const list = await store.listNotedCommits();
          assert.equal(list.size, expected[name]);
          for (const commit of list.keys()) {
            const subject = (await bundleRepo.git(['log', '-1', '--format=%s', commit])).trim();
            const fixture = path.join(peerDir, name, 'notes', `${slug(subject)}.json`);
            assert.ok(existsSync(fixture), fixture);
            const raw = await store.readRaw(commit);
            assert.equal(raw, readFileSync(fixture, 'utf8'));
            const d = await store.read(commit);
            assert.equal(d?.kind, 'valid');
            assert.equal(d?.kind === 'valid' && encodeNote(d.note), raw);
          }
        } finally {
          await bundleRepo.remove();
        }
      });
    }
  });
});
