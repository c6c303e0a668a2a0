// The batched git reads of a rewrite (src/node/recorder/rewriteBatch.ts, issue #18 "Cost"): the
// same answers as the per-commit reads they replace, from a constant number of git processes.
import * as assert from 'node:assert/strict';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { CommitDiffs } from '../../../src/node/attribution/commitDiffs';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { key, readRewriteBatch } from '../../../src/node/recorder/rewriteBatch';
import { commitTimes } from '../../../src/node/recorder/rewriteSources';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { TestRepo } from './recorderHarness';

const note = (file: string): AgentNoteV1 => ({
  v: 1,
  agent: 'claude',
  session_id: 's',
  timestamp: '2026-05-01T10:00:00.000Z',
  model: null,
  interactions: [{ prompt: 'p', response: null }],
  files: [{ path: file, by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 0 }] }],
  attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } },
});

describe('readRewriteBatch: the git reads of many rewritten commits at once', function () {
  this.timeout(30_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  beforeEach(async () => {
    repo = await TestRepo.create();
  });
  afterEach(async () => {
    await repo.remove();
  });
  const commit = async (files: Record<string, string>, msg: string, extra: string[] = []): Promise<string> => {
    for (const [f, c] of Object.entries(files)) await repo.write(f, c);
    await repo.git(['add', '-A']);
    await repo.git(['commit', '-q', ...extra, '-m', msg]);
    return repo.head();
  };

  it('own diffs equal commitHunks (root, empty and multi-file commits), blobs per path, missing files are null', async () => {
    const root = await commit({ 'a.txt': 'one\n' }, 'root');
    const two = await commit({ 'a.txt': 'one\ntwo\n', 'dir/b b.txt': 'bee\n' }, 'two files');
    const empty = await commit({}, 'empty', ['--allow-empty']);
    const three = await commit({ 'a.txt': 'zero\none\ntwo\n' }, 'three');
    const git = repo.runner();
    const notes = new NoteStore(git, { trustCacheUntilInvalidated: true });
    await notes.write(two, note('dir/b b.txt'));
    await notes.write(root, note('a.txt'));
    const diffs = new CommitDiffs(git);
    // the notes are read through the store's cache (in the extension: one cat-file --batch)
    for (const c of [root, two]) await notes.read(c);
    const calls0 = git.counters.get('git.calls');
    const batch = await readRewriteBatch(git, notes, diffs, [
      { target: three, sources: [root, two] },
      { target: two, sources: [root] },
      { target: empty, sources: [two] },
      { target: root, sources: [] },
    ]);
    const calls = git.counters.get('git.calls') - calls0;
    assert.ok(calls <= 4, `a constant number of git processes (${calls})`);
    for (const t of [root, two, empty, three]) {
      const one = await new CommitDiffs(git).commitHunks(t);
      assert.deepEqual([...(batch.own.get(t) ?? new Map())], [...one], `own diff of ${t.slice(0, 7)}`);
    }
    assert.equal(batch.own.get(empty)?.size, 0);
    const blobOf = async (rev: string) => (await repo.git(['rev-parse', rev])).trim();
    // three's diff has a.txt; root's note claims a.txt → both sides looked up
    assert.equal(batch.blobs.get(key(root, 'a.txt')), await blobOf(`${root}:a.txt`));
    assert.equal(batch.blobs.get(key(three, 'a.txt')), await blobOf(`${three}:a.txt`));
    // two's note claims "dir/b b.txt", which three's own diff does not have: not looked up
    assert.equal(batch.blobs.has(key(three, 'dir/b b.txt')), false);
    // root has no "dir/b b.txt"... and two's source (root) claims a.txt which two's diff has
    assert.equal(batch.blobs.get(key(two, 'a.txt')), await blobOf(`${two}:a.txt`));
    assert.deepEqual(await diffs.blobDiff(batch.blobs.get(key(root, 'a.txt'))!, batch.blobs.get(key(three, 'a.txt'))!), [
      ...(await new CommitDiffs(git).blobDiff(await blobOf(`${root}:a.txt`), await blobOf(`${three}:a.txt`))),
    ]);
    const times = await commitTimes(git, [root, three, 'f'.repeat(40)]);
    assert.deepEqual([...times.keys()].sort(), [root, three].sort());
  });

  it('a source without the file gives null (the file is new to the target)', async () => {
    const base = await commit({ 'x.txt': 'x\n' }, 'base');
    const target = await commit({ 'new.txt': 'n\n' }, 'adds new.txt');
    const git = repo.runner();
    const notes = new NoteStore(git);
    await notes.write(base, note('new.txt'));
    const batch = await readRewriteBatch(git, notes, new CommitDiffs(git), [{ target, sources: [base] }]);
    assert.equal(batch.blobs.get(key(base, 'new.txt')), null);
    assert.ok(batch.blobs.get(key(target, 'new.txt')));
  });
});
