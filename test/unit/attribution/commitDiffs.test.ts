// The git side: CommitDiffs reads and analyzeCommit edge cases against real temp repositories.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeCommit, CommitDiffs, type EditPairInput } from '../../../src/node/attribution/commitDiffs';
import { GitError, GitRunner } from '../../../src/node/git/gitRunner';
import { TempRepo, toExpectedShape, useIsolatedGitEnv } from './fixtureRepo';

const pairOf = (repo: TempRepo, file: string, pre: string | undefined, post: string, key = 't1', timestamp = 1): EditPairInput => ({
  file,
  ...(pre !== undefined ? { preBlob: repo.hashObject(pre) } : {}),
  postBlob: repo.hashObject(post),
  interactionKey: key,
  agent: 'claude',
  timestamp,
});

describe('CommitDiffs / analyzeCommit (git side)', () => {
  useIsolatedGitEnv();
  let repo: TempRepo;
  beforeEach(() => {
    repo = TempRepo.create();
  });
  afterEach(() => repo.dispose());

  it('commitFiles / commitBlobs / fileHunks / blobDiff read one commit', async () => {
    repo.write('a.txt', 'a\n');
    repo.write('gone.txt', 'g\n');
    repo.commitAll('one');
    repo.write('a.txt', 'a\nb\n');
    repo.remove('gone.txt');
    repo.write('z/new.txt', 'n\n');
    const sha = repo.commitAll('two');
    const diffs = new CommitDiffs(new GitRunner(repo.dir));
    assert.deepEqual(await diffs.commitFiles(sha), ['a.txt', 'gone.txt', 'z/new.txt']);
    const blobs = await diffs.commitBlobs(sha);
    assert.deepEqual(
      blobs.map((b) => [b.path, b.status, b.parentBlob, b.committedBlob]),
      [
        ['a.txt', 'M', repo.hashObject('a\n'), repo.hashObject('a\nb\n')],
        ['gone.txt', 'D', repo.hashObject('g\n'), 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'],
        ['z/new.txt', 'A', 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', repo.hashObject('n\n')],
      ],
    );
    assert.deepEqual((await diffs.fileHunks(sha, 'a.txt'))?.hunks, [{ oldStart: 1, oldCount: 0, newStart: 2, newCount: 1 }]);
    assert.equal(await diffs.fileHunks(sha, 'missing.txt'), undefined);
    const a = repo.hashObject('x\n');
    const b = repo.hashObject('x\ny\n');
    assert.deepEqual(await diffs.blobDiff(a, b), [{ oldStart: 1, oldCount: 0, newStart: 2, newCount: 1 }]);
    assert.deepEqual(await diffs.blobDiff(a, a), []);
    assert.deepEqual(await diffs.blobDiff('', b), []);
    const calls = diffs.git.counters.get('git.calls');
    await diffs.blobDiff(a, b);
    assert.equal(diffs.git.counters.get('git.calls'), calls, 'second identical blob diff is cached');
    await assert.rejects(diffs.blobDiff(a, '0123456789012345678901234567890123456789'), GitError);
    // limited reads of committed content, and the commit's .agentnoteignore
    assert.deepEqual(Buffer.from((await diffs.committedHeader(sha, 'a.txt', 3)) ?? []).toString(), 'a\nb');
    assert.deepEqual(Buffer.from((await diffs.committedHeader(sha, 'a.txt')) ?? []).toString(), 'a\nb\n');
    assert.equal(await diffs.committedHeader(sha, 'gone.txt'), undefined);
    assert.deepEqual(await diffs.agentnoteIgnore(sha), { text: '', source: 'none' });
    // the root commit lists every path
    assert.deepEqual(await diffs.commitFiles(repo.git(['rev-list', '--max-parents=0', 'HEAD']).trim()), ['a.txt', 'gone.txt']);
  });

  it('user diff config (patience, external diff, inter-hunk context, prefixes, colour, quoting) does not change results', async () => {
    // p.txt: Myers and patience disagree (checked below). q.txt: the human changed the lines around
    // an AI line, so merged hunks (diff.interHunkContext) would swallow the AI line.
    const p = { parent: '}\na\na\nx\nx\n{\n', committed: '{\nx\n}\nx\n}\n' };
    const q = { parent: 'x\ny\nz\n', post: 'x\nY\nz\n', committed: 'X\nY\nZ\n' };
    repo.write('p.txt', p.parent);
    repo.write('q.txt', q.parent);
    repo.commitAll('parent');
    repo.write('p.txt', p.committed);
    repo.write('q.txt', q.committed);
    repo.commitAll('committed');
    const pairs = [pairOf(repo, 'p.txt', p.parent, p.committed), pairOf(repo, 'q.txt', q.parent, q.post, 't2', 2)];
    const clean = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', pairs);
    assert.deepEqual(clean.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 4, total_added: 6, deleted: 7 } });
    assert.deepEqual(clean.files[0].detail?.addedLines, [1, 3, 5]);
    assert.deepEqual(clean.files[0].ranges, [
      { start: 1, end: 1, interactionKey: 't1' },
      { start: 3, end: 3, interactionKey: 't1' },
      { start: 5, end: 5, interactionKey: 't1' },
    ]);
    assert.deepEqual(clean.files[1].ranges, [{ start: 2, end: 2, interactionKey: 't2' }]);

    const script = path.join(repo.dir, '..', `ext-diff-${path.basename(repo.dir)}.sh`);
    fs.writeFileSync(script, '#!/bin/sh\necho EXTERNAL DIFF RAN\n', { mode: 0o755 });
    try {
      for (const [k, v] of [
        ['diff.algorithm', 'patience'],
        ['diff.external', script],
        ['diff.interHunkContext', '10'],
        ['diff.context', '5'],
        ['diff.noprefix', 'true'],
        ['diff.mnemonicPrefix', 'true'],
        ['diff.indentHeuristic', 'false'],
        ['diff.renames', 'copies'],
        ['color.ui', 'always'],
        ['color.diff', 'always'],
        ['core.quotepath', 'true'],
      ]) {
        repo.git(['config', k, v]);
      }
      const a = repo.hashObject(p.parent);
      const b = repo.hashObject(p.committed);
      assert.match(repo.git(['diff', a, b]), /EXTERNAL DIFF RAN/);
      const headers = (x: string, y: string, ...extra: string[]): string =>
        repo
          .git(['diff', '--no-ext-diff', '--no-color', '-U0', ...extra, x, y])
          .split('\n')
          .filter((l) => l.startsWith('@@'))
          .join('|');
      // The config is live: patience gives other hunks than Myers, and diff.interHunkContext merges them.
      assert.equal(headers(a, b, '--inter-hunk-context=0'), '@@ -1,5 +0,0 @@|@@ -6,0 +2,4 @@ x');
      assert.equal(headers(a, b, '--inter-hunk-context=0', '--diff-algorithm=myers'), '@@ -1,3 +1 @@|@@ -4,0 +3 @@ x|@@ -6 +5 @@ x');
      assert.equal(headers(repo.hashObject(q.post), repo.hashObject(q.committed)), '@@ -1,3 +1,3 @@');
      const configured = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', pairs);
      assert.deepEqual(toExpectedShape(configured), toExpectedShape(clean));
    } finally {
      fs.rmSync(script, { force: true });
    }
  });

  it('handles paths with spaces, " b/", tabs, quotes, backslashes and non-ASCII', async () => {
    const names = ['na me.txt', 'x b/y b.txt', 'tab\tname.txt', 'quo"te.txt', 'back\\slash.txt', 'ünï/ß.txt'];
    for (const n of names) repo.write(n, 'base\n');
    repo.commitAll('parent');
    const pairs: EditPairInput[] = [];
    names.forEach((n, i) => {
      pairs.push(pairOf(repo, n, 'base\n', 'base\nai\n', `t${i}`, i));
      repo.write(n, 'base\nai\nhuman\n');
    });
    repo.commitAll('committed');
    const r = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', pairs);
    assert.deepEqual(r.files.map((f) => f.path).sort(), [...names].sort());
    for (const f of r.files) {
      assert.deepEqual(f.lines, { ai_added: 1, total_added: 2, deleted: 0 }, f.path);
      assert.deepEqual(f.ranges, [{ start: 2, end: 2, interactionKey: `t${names.indexOf(f.path)}` }], f.path);
    }
    assert.deepEqual(r.attribution, { ai_ratio: 50, method: 'line', lines: { ai_added: 6, total_added: 12, deleted: 0 } });
    assert.deepEqual(r.degraded, []);
  });

  it('more than maxFiles paths ⇒ file level, reported as degraded', async () => {
    repo.write('a.txt', 'a\n');
    repo.write('b.txt', 'b\n');
    repo.write('c.txt', 'c\n');
    repo.commitAll('three');
    const r = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', [pairOf(repo, 'a.txt', '', 'a\n')], { maxFiles: 2 });
    assert.deepEqual(r.degraded, [{ reason: 'tooManyFiles', detail: '3 > 2' }]);
    assert.equal(r.summary, 'commitFallback');
    assert.deepEqual(r.attribution, { ai_ratio: 33, method: 'file' });
    assert.deepEqual(
      r.files.map((f) => [f.path, f.byAi, f.level]),
      [
        ['a.txt', true, 'unknown'],
        ['b.txt', false, 'unknown'],
        ['c.txt', false, 'unknown'],
      ],
    );
  });

  it('a text blob over maxBlobBytes degrades; an oversized binary blob counts 0 lines exactly', async () => {
    const big = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const bin = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]), Buffer.alloc(300, 7)]);
    repo.write('small.txt', 's\n');
    repo.commitAll('parent');
    repo.write('small.txt', 's\nai\n');
    repo.write('img.bin', bin);
    const sha = repo.commitAll('binary');
    const pairs = [pairOf(repo, 'small.txt', 's\n', 's\nai\n'), { ...pairOf(repo, 'img.bin', '', ''), postBlob: repo.hashObject(bin) }];
    const ok = await analyzeCommit(new GitRunner(repo.dir), sha, pairs, { maxBlobBytes: 100 });
    assert.deepEqual(ok.degraded, []);
    assert.deepEqual(ok.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    assert.deepEqual(
      ok.files.map((f) => [f.path, f.byAi, f.level, f.basis, f.lines]),
      [
        ['img.bin', true, 'line', 'pairs', { ai_added: 0, total_added: 0, deleted: 0 }],
        ['small.txt', true, 'line', 'pairs', { ai_added: 1, total_added: 1, deleted: 0 }],
      ],
    );

    repo.write('big.txt', big);
    repo.commitAll('big text');
    const r = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', [pairOf(repo, 'big.txt', '', big)], { maxBlobBytes: 100 });
    assert.deepEqual(r.degraded, [{ reason: 'blobTooLarge', path: 'big.txt' }]);
    assert.equal(r.summary, 'commitFallback');
    assert.deepEqual(r.attribution, { ai_ratio: 100, method: 'file' });
  });

  it('reads .agentnoteignore from the commit, falling back to the working tree', async () => {
    repo.write('.agentnoteignore', 'dist/**\ndist/*.*\n');
    repo.write('dist/a.js', 'a\n');
    repo.write('src/x.ts', 'x\n');
    repo.commitAll('with ignore');
    repo.write('.agentnoteignore', 'src/**\n'); // uncommitted edit: must not matter
    const fromCommit = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', [pairOf(repo, 'src/x.ts', '', 'x\n')]);
    assert.equal(fromCommit.ignoreSource, 'commit');
    assert.deepEqual(
      fromCommit.ignoreRejected.map((x) => [x.source, x.reason]),
      [['dist/*.*', 'overlappingWildcards']],
    );
    assert.deepEqual(
      fromCommit.files.map((f) => [f.path, f.ignored]),
      [
        ['.agentnoteignore', false],
        ['dist/a.js', true],
        ['src/x.ts', false],
      ],
    );
    assert.deepEqual(fromCommit.attribution.lines, { ai_added: 1, total_added: 3, deleted: 0 });

    repo.git(['rm', '-q', '--cached', '.agentnoteignore']);
    repo.write('src/y.ts', 'y\n');
    repo.git(['add', 'src/y.ts']);
    repo.git(['commit', '-q', '-m', 'drop ignore from the tree']);
    const fromWorktree = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', []);
    assert.equal(fromWorktree.ignoreSource, 'worktree');
    assert.deepEqual(
      fromWorktree.files.map((f) => [f.path, f.ignored]),
      [
        ['.agentnoteignore', false],
        ['src/y.ts', true],
      ],
    );
    fs.rmSync(path.join(repo.dir, '.agentnoteignore'));
    assert.equal((await analyzeCommit(new GitRunner(repo.dir), 'HEAD', [])).ignoreSource, 'none');
  });

  it('detects generated headers of large blobs by a limited read, and skips binary ones', async () => {
    const filler = 'x'.repeat(100 * 1024);
    repo.write('seed.txt', filler);
    const seed = repo.commitAll('seed');
    const runner = new GitRunner(repo.dir);
    const head = await new CommitDiffs(runner).committedHeader(seed, 'seed.txt', 10);
    assert.equal(head?.length, 10);
    repo.write('api.ts', `// Code generated by sqlc. DO NOT EDIT.\n${filler}\n`);
    repo.write('blob.bin', Buffer.concat([Buffer.from('@generated\0'), Buffer.from(filler)]));
    repo.write('plain.ts', `// handwritten\n${filler}\n`);
    repo.write('small.ts', '/** @generated */\nexport const a = 1;\n');
    repo.commitAll('headers');
    const r = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', []);
    assert.deepEqual(
      r.files.map((f) => [f.path, f.generated]),
      [
        ['api.ts', true],
        ['blob.bin', false],
        ['plain.ts', false],
        ['small.ts', true],
      ],
    );
  });

  it('a merge commit lists no files and has no line data', async () => {
    repo.write('a.txt', 'a\n');
    repo.commitAll('base');
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.write('b.txt', 'b\n');
    repo.commitAll('side');
    repo.git(['checkout', '-q', 'main']);
    repo.write('c.txt', 'c\n');
    repo.commitAll('main');
    repo.git(['merge', '-q', '--no-ff', '-m', 'merge', 'side']);
    const r = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', [pairOf(repo, 'b.txt', '', 'b\n')]);
    assert.deepEqual(r.files, []);
    assert.equal(r.summary, 'noLineData');
    assert.deepEqual(r.attribution, { ai_ratio: 0, method: 'file' });
  });

  it('skips invalid pair input and pairs whose blobs are missing, and says so', async () => {
    repo.write('a.txt', 'a\n');
    repo.commitAll('parent');
    repo.write('a.txt', 'a\nb\n');
    repo.write('c.txt', 'c\n');
    repo.commitAll('child');
    const missing = '0123456789abcdef0123456789abcdef01234567';
    const runner = new GitRunner(repo.dir);
    const r = await analyzeCommit(runner, 'HEAD', [
      {
        file: 'a.txt',
        preBlob: '--output=/tmp/evil',
        postBlob: repo.hashObject('a\nb\n'),
        interactionKey: 't1',
        agent: 'claude',
        timestamp: 1,
      },
      {
        file: 'c.txt',
        preBlob: missing,
        postBlob: repo.hashObject('c\n'),
        interactionKey: 't2',
        agent: 'claude',
        timestamp: 2,
        pairId: 'c-pair',
      },
      { file: 'a.txt', postBlob: 'not-a-sha', interactionKey: 't3', agent: 'claude', timestamp: 3 } as EditPairInput,
    ]);
    assert.deepEqual(
      r.degraded.map((d) => [d.reason, d.pairId, d.path]),
      [
        ['invalidPair', 'p0', undefined],
        ['invalidPair', 'p2', undefined],
        ['missingBlob', 'c-pair', 'c.txt'],
      ],
    );
    assert.equal(runner.counters.get('attribution.invalidPairs'), 2);
    // c.txt keeps its post-blob evidence (committed = post); a.txt has no valid edit left ⇒ human.
    assert.deepEqual(
      r.files.map((f) => [f.path, f.byAi, f.level]),
      [
        ['a.txt', false, 'line'],
        ['c.txt', true, 'evidence'],
      ],
    );
    assert.deepEqual(r.attribution, { ai_ratio: 50, method: 'line', lines: { ai_added: 1, total_added: 2, deleted: 0 } });
  });

  it('orders pairs by timestamp (latest owns), accepts extra AI files, rejects unknown commits', async () => {
    repo.write('a.txt', 'a\n');
    repo.commitAll('parent');
    repo.write('a.txt', 'a\nb\n');
    repo.write('t.txt', 't\n');
    repo.commitAll('child');
    const early = pairOf(repo, 'a.txt', 'a\n', 'a\nb\n', 'early', 10);
    const late = pairOf(repo, 'a.txt', 'a\n', 'a\nb\n', 'late', 20);
    const r = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', [late, early]);
    assert.deepEqual(r.files[0].ranges, [{ start: 2, end: 2, interactionKey: 'late' }]);
    assert.deepEqual(r.contributingInteractionKeys, ['early', 'late']);
    const withTranscriptFile = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', [early], { aiFiles: ['t.txt', 'not-in-commit.txt'] });
    assert.deepEqual(
      withTranscriptFile.files.map((f) => [f.path, f.byAi, f.level]),
      [
        ['a.txt', true, 'line'],
        ['t.txt', true, 'unknown'],
      ],
    );
    assert.deepEqual(withTranscriptFile.attribution, { ai_ratio: 100, method: 'file' });
    await assert.rejects(analyzeCommit(new GitRunner(repo.dir), 'deadbeef', []), GitError);
    await assert.rejects(analyzeCommit(new GitRunner(repo.dir), '--all', []), GitError);
  });
});
