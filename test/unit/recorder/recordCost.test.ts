// What recording a note costs in git processes: the pre → committed / post → committed diffs of
// every edit pair run as one tree-to-tree diff, so the count does not grow with the files.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { CommitDiffs } from '../../../src/node/attribution/commitDiffs';
import { BlobStore } from '../../../src/node/git/blobStore';
import { GitRunner } from '../../../src/node/git/gitRunner';
import { TempRepo } from '../attribution/fixtureRepo';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { Harness } from './recorderHarness';

const SID = '6a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

/** Module i before the agent's edit. */
const moduleText = (i: number): string => `export function f${i}(x: number): number {\n  const y = x * ${i};\n  return y;\n}\n`;

/**
 * One Claude turn edits `n` modules (one line replaced, two added in each; record + disk
 * transition), the change is committed, and the note is recorded. Returns the git processes the
 * recordCommit call started and the note's per-file flags.
 */
async function recordAgentCommit(n: number): Promise<{ calls: number; byAi: number; files: number; lines: unknown; batched: number }> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`src/m${String(i).padStart(2, '0')}.ts`] = moduleText(i);
  const h = await Harness.create(files);
  try {
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt(`Guard every one of the ${n} modules against negative input`);
    let k = 0;
    for (const [rel, before] of Object.entries(files)) {
      const oldString = `  const y = x * ${k};\n`;
      const newString = `  if (x < 0) return 0;\n  const y = x * ${k + 1};\n  void y;\n`;
      h.advance(100);
      await h.change(rel, before.replace(oldString, newString), 'disk');
      await s.edit(rel, { tool: 'Edit', toolUseId: `toolu_${k}`, oldString, newString, originalContent: before });
      k++;
    }
    await s.respond('Done.');
    await h.tick();
    h.advance(5000);
    const sha = await h.commitAll('feat: guards');
    const before = h.runner.counters.get('git.calls');
    const batchedBefore = h.runner.counters.get('attribution.batchedPairDiffs');
    const outcome = await h.recorder.recordCommit(sha);
    const calls = h.runner.counters.get('git.calls') - before;
    assert.equal(outcome.kind, 'written');
    const note = await h.note(sha);
    return {
      calls,
      byAi: note.files.filter((f) => f.by_ai).length,
      files: note.files.length,
      lines: note.attribution.lines,
      batched: h.runner.counters.get('attribution.batchedPairDiffs') - batchedBefore,
    };
  } finally {
    await h.dispose();
  }
}

describe('recording cost in git processes', function () {
  this.timeout(120_000);
  useIsolatedGitEnv();

  it('a 50-file AI commit starts as many git processes as a 5-file one (± 2)', async () => {
    const small = await recordAgentCommit(5);
    const large = await recordAgentCommit(50);
    assert.deepEqual([small.byAi, small.files], [5, 5]);
    assert.deepEqual([large.byAi, large.files], [50, 50]);
    assert.deepEqual(small.lines, { ai_added: 15, total_added: 15, deleted: 5 });
    assert.deepEqual(large.lines, { ai_added: 150, total_added: 150, deleted: 50 });
    // every pre → committed diff went through the batch (post = committed needs no diff)
    assert.equal(small.batched, 5);
    assert.equal(large.batched, 50);
    assert.ok(Math.abs(large.calls - small.calls) <= 2, `git processes: ${small.calls} for 5 files, ${large.calls} for 50`);
    assert.ok(large.calls <= 25, `${large.calls} git processes for one note`);
  });
});

describe('CommitDiffs.prefetchBlobDiffs', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TempRepo;
  beforeEach(() => {
    repo = TempRepo.create();
  });
  afterEach(() => repo.dispose());

  /** Hunks of each pair diffed one `git diff <a> <b>` at a time (the reference). */
  async function oneByOne(pairs: readonly (readonly [string, string])[]): Promise<unknown[]> {
    const single = new CommitDiffs(new GitRunner(repo.dir));
    const out: unknown[] = [];
    for (const [a, b] of pairs) out.push(await single.blobDiff(a, b));
    return out;
  }

  it('gives the hunks of git diff <a> <b> for every pair in two git processes', async () => {
    const empty = repo.hashObject('');
    const lines = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join('');
    const base = repo.hashObject(lines(40, (i) => `line ${i}`));
    const texts = [
      lines(40, (i) => (i % 7 === 3 ? `changed ${i}` : `line ${i}`)),
      lines(40, (i) => `line ${i}`).replace('line 39\n', 'line 39'), // no newline at the end
      lines(45, (i) => (i < 5 ? `new top ${i}` : `line ${i - 5}`)),
      'a\r\nb\r\n',
      '',
    ];
    const ids = texts.map((t) => repo.hashObject(t));
    const binary = repo.hashObject(Buffer.from([0x61, 0x00, 0x62, 0x0a]));
    const pairs: (readonly [string, string])[] = [
      ...ids.map((id) => [base, id] as const),
      ...ids.map((id) => [id, base] as const),
      [empty, ids[2]],
      [ids[3], empty],
      [base, binary],
      [ids[0], ids[2]],
    ];
    const expected = await oneByOne(pairs);
    assert.ok(
      expected.some((h) => (h as unknown[]).length > 1),
      'the cases include multi-hunk diffs',
    );

    const runner = new GitRunner(repo.dir);
    const diffs = new CommitDiffs(runner);
    await diffs.ensureEmptyBlob();
    const calls = runner.counters.get('git.calls');
    diffs.prefetchBlobDiffs(pairs);
    const got = [];
    for (const [a, b] of pairs) got.push(await diffs.blobDiff(a, b));
    assert.deepEqual(got, expected);
    assert.equal(runner.counters.get('git.calls') - calls, 2, 'one mktree --batch and one diff-tree');
    assert.equal(runner.counters.get('attribution.batchedPairDiffs'), pairs.length);
  });

  it('answers like git diff <a> <b> under a catch-all .gitattributes rule, and falls back per pair when an object is missing', async () => {
    const a = repo.hashObject('one\ntwo\n');
    const b = repo.hashObject('one\n2\n');
    const c = repo.hashObject('zero\none\ntwo\n');
    const d = repo.hashObject('one\ntwo\nthree\n');
    repo.write('.gitattributes', '* -diff\n');
    const pairs = [
      [a, b],
      [a, c],
      [a, d],
    ] as const;
    const expected = await oneByOne(pairs);
    assert.deepEqual(expected, [[], [], []], '`* -diff` makes git treat the blobs as binary');
    const diffs = new CommitDiffs(new GitRunner(repo.dir));
    diffs.prefetchBlobDiffs(pairs);
    assert.deepEqual(await Promise.all(pairs.map(([x, y]) => diffs.blobDiff(x, y))), expected);

    repo.write('.gitattributes', '');
    const missing = '0123456789012345678901234567890123456789';
    const withMissing = new CommitDiffs(new GitRunner(repo.dir));
    withMissing.prefetchBlobDiffs([
      [a, b],
      [a, c],
      [a, missing],
    ]);
    assert.deepEqual(await withMissing.blobDiff(a, b), [{ oldStart: 2, oldCount: 1, newStart: 2, newCount: 1 }]);
    assert.deepEqual(await withMissing.blobDiff(a, c), [{ oldStart: 0, oldCount: 0, newStart: 1, newCount: 1 }]);
    await assert.rejects(withMissing.blobDiff(a, missing));
  });
});

describe('GitRunner.background', function () {
  this.timeout(30_000);
  useIsolatedGitEnv();

  it('runs git at a lower CPU priority, counted with the runner it came from', async () => {
    const repo = TempRepo.create();
    try {
      const id = repo.hashObject('x\n');
      const runner = new GitRunner(repo.dir);
      const bg = runner.background();
      assert.equal(bg.niceness, 10);
      assert.equal(runner.niceness, 0);
      const fg = new BlobStore(runner, { idleMs: 60_000 });
      const store = new BlobStore(bg, { idleMs: 60_000 });
      try {
        assert.equal((await store.read(id))?.toString(), 'x\n');
        assert.equal((await fg.read(id))?.toString(), 'x\n');
        // the long-lived cat-file readers: ours reniced, the foreground one as started
        const base = os.getPriority(process.pid);
        assert.equal(os.getPriority(store.readerPid), Math.min(19, base + 10));
        assert.equal(os.getPriority(fg.readerPid), base);
      } finally {
        store.dispose();
        fg.dispose();
      }
      const calls = runner.counters.get('git.calls');
      assert.equal((await bg.run(['cat-file', '-t', id])).trim(), 'blob');
      assert.equal(runner.counters.get('git.calls'), calls + 1);
    } finally {
      repo.dispose();
    }
  });
});
