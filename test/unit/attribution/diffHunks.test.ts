import * as assert from 'node:assert/strict';
import {
  addedLinePositions,
  countDiffLines,
  parseDiffHunks,
  parseFileDiffs,
  parseHunkHeader,
  unquoteGitPath,
} from '../../../src/core/attribution/diffHunks';
import { TempRepo, useIsolatedGitEnv } from './fixtureRepo';

describe('diffHunks', () => {
  describe('parseHunkHeader', () => {
    it('reads explicit counts and ignores the function context', () => {
      assert.deepEqual(parseHunkHeader('@@ -1,3 +1,5 @@ function f() {'), { oldStart: 1, oldCount: 3, newStart: 1, newCount: 5 });
    });
    it('treats a missing count as 1', () => {
      assert.deepEqual(parseHunkHeader('@@ -10 +12 @@'), { oldStart: 10, oldCount: 1, newStart: 12, newCount: 1 });
    });
    it('keeps zero counts of pure additions and deletions', () => {
      assert.deepEqual(parseHunkHeader('@@ -0,0 +1,2 @@'), { oldStart: 0, oldCount: 0, newStart: 1, newCount: 2 });
      assert.deepEqual(parseHunkHeader('@@ -5,3 +4,0 @@'), { oldStart: 5, oldCount: 3, newStart: 4, newCount: 0 });
    });
    it('rejects other lines', () => {
      assert.equal(parseHunkHeader('@@@ -1 -1 +1 @@@'), undefined);
      assert.equal(parseHunkHeader('+@@ -1 +1 @@'), undefined);
      assert.equal(parseHunkHeader(''), undefined);
    });
  });

  describe('parseDiffHunks', () => {
    it('reads bare hunk headers and hunks of a single-file diff', () => {
      const text = [
        'diff --git a/f b/f',
        'index 1..2 100644',
        '--- a/f',
        '+++ b/f',
        '@@ -1,2 +1,3 @@ x',
        '-a',
        '-b',
        '+A',
        '+B',
        '+C',
        '@@ -10,0 +11,2 @@',
        '+d',
        '+e',
        '',
      ].join('\n');
      assert.deepEqual(parseDiffHunks(text), [
        { oldStart: 1, oldCount: 2, newStart: 1, newCount: 3 },
        { oldStart: 10, oldCount: 0, newStart: 11, newCount: 2 },
      ]);
      assert.deepEqual(parseDiffHunks('@@ -1,3 +1,5 @@ ctx'), [{ oldStart: 1, oldCount: 3, newStart: 1, newCount: 5 }]);
      assert.deepEqual(parseDiffHunks('no hunks here'), []);
      assert.deepEqual(parseDiffHunks(''), []);
    });

    it('never takes body lines for headers', () => {
      const text = [
        'diff --git a/f b/f',
        '--- a/f',
        '+++ b/f',
        '@@ -1,2 +1,2 @@',
        '--- a/fake',
        '-diff --git a/z b/z',
        '+@@ -9 +9 @@',
        '++++ b/fake',
        '',
      ].join('\n');
      const files = parseFileDiffs(text);
      assert.equal(files.length, 1);
      assert.equal(files[0].path, 'f');
      assert.deepEqual(files[0].hunks, [{ oldStart: 1, oldCount: 2, newStart: 1, newCount: 2 }]);
    });
  });

  it('addedLinePositions expands c … c+d-1 per hunk, ascending', () => {
    assert.deepEqual(
      addedLinePositions([
        { oldStart: 0, oldCount: 0, newStart: 10, newCount: 3 },
        { oldStart: 1, oldCount: 2, newStart: 1, newCount: 0 },
        { oldStart: 3, oldCount: 0, newStart: 2, newCount: 2 },
      ]),
      [2, 3, 10, 11, 12],
    );
  });

  it('countDiffLines sums new and old counts', () => {
    assert.deepEqual(
      countDiffLines([
        { oldStart: 1, oldCount: 3, newStart: 1, newCount: 5 },
        { oldStart: 10, oldCount: 2, newStart: 12, newCount: 0 },
      ]),
      { added: 5, deleted: 5 },
    );
    assert.deepEqual(countDiffLines([]), { added: 0, deleted: 0 });
  });

  it('unquoteGitPath undoes C quoting (octal bytes are UTF-8)', () => {
    assert.equal(unquoteGitPath('"a/t\\303\\251st\\tx\\"q\\\\.txt"'), 'a/tést\tx"q\\.txt');
    assert.equal(unquoteGitPath('"\\a\\b\\f\\n\\r\\v"'), '\x07\b\f\n\r\v');
    assert.equal(unquoteGitPath('plain'), undefined);
    assert.equal(unquoteGitPath('"bad\\q"'), undefined);
    assert.equal(unquoteGitPath('"open'), undefined);
  });

  describe('parseFileDiffs on real diff-tree output', () => {
    useIsolatedGitEnv();
    let repo: TempRepo;
    let out: string;
    const names = ['na me.txt', 'x b/y b.txt', 'tab\tname.txt', 'quo"te.txt', 'back\\slash.txt', 'ünïcödé/ß.txt'];
    before(() => {
      repo = TempRepo.create();
      repo.write('plain.txt', 'a\nb\nc\nd\ne\n');
      repo.write('old.txt', 'o1\no2\n');
      repo.write('noeol.txt', 'x\ny');
      repo.write('bin.dat', Buffer.from([0, 1, 2, 3]));
      repo.write('looks.txt', '-- a/fake\nkeep\n');
      repo.commitAll('parent');
      repo.write('plain.txt', 'A\nb\nc\nd\ne\nf\ng\n');
      repo.remove('old.txt');
      repo.write('noeol.txt', 'x\nz');
      repo.write('bin.dat', Buffer.from([0, 9, 9, 9]));
      repo.write('looks.txt', '@@ -1 +1 @@\nkeep\ndiff --git a/z b/z\n');
      for (const n of names) repo.write(n, 'one\ntwo\n');
      repo.commitAll('child', () =>
        repo.git(['update-index', '--add', '--cacheinfo', '160000,1111111111111111111111111111111111111111,sub']),
      );
      out = repo.git([
        '-c',
        'core.quotepath=off',
        'diff-tree',
        '--patch',
        '--no-commit-id',
        '-r',
        '--no-renames',
        '--no-ext-diff',
        '--no-color',
        '--unified=0',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        'HEAD',
      ]);
    });
    after(() => repo.dispose());

    it('splits per file with exact paths, statuses and counts', () => {
      const files = parseFileDiffs(out);
      const byPath = new Map(files.map((f) => [f.path, f]));
      const paths = repo.git(['diff-tree', '-z', '--no-commit-id', '--name-only', '-r', 'HEAD']).split('\0').filter(Boolean);
      assert.deepEqual(
        files.map((f) => f.path),
        paths,
      );
      for (const n of names) {
        const f = byPath.get(n);
        assert.ok(f, n);
        assert.equal(f.status, 'added');
        assert.deepEqual(f.hunks, [{ oldStart: 0, oldCount: 0, newStart: 1, newCount: 2 }]);
        assert.equal(f.oldPath, n);
      }
      assert.deepEqual(byPath.get('plain.txt')?.hunks, [
        { oldStart: 1, oldCount: 1, newStart: 1, newCount: 1 },
        { oldStart: 5, oldCount: 0, newStart: 6, newCount: 2 },
      ]);
      assert.deepEqual([byPath.get('plain.txt')?.added, byPath.get('plain.txt')?.deleted], [3, 1]);
      const old = byPath.get('old.txt');
      assert.equal(old?.status, 'deleted');
      assert.deepEqual(old?.hunks, [{ oldStart: 1, oldCount: 2, newStart: 0, newCount: 0 }]);
      assert.deepEqual(byPath.get('looks.txt')?.hunks, [
        { oldStart: 1, oldCount: 1, newStart: 1, newCount: 1 },
        { oldStart: 2, oldCount: 0, newStart: 3, newCount: 1 },
      ]);
    });

    it('flags binary files, gitlinks and missing final newlines', () => {
      const byPath = new Map(parseFileDiffs(out).map((f) => [f.path, f]));
      const bin = byPath.get('bin.dat');
      assert.equal(bin?.binary, true);
      assert.deepEqual(bin?.hunks, []);
      const sub = byPath.get('sub');
      assert.equal(sub?.submodule, true);
      assert.equal(sub?.status, 'added');
      const noeol = byPath.get('noeol.txt');
      assert.deepEqual(noeol?.hunks, [{ oldStart: 2, oldCount: 1, newStart: 2, newCount: 1 }]);
      assert.equal(noeol?.oldNoNewlineAtEof, true);
      assert.equal(noeol?.newNoNewlineAtEof, true);
      assert.equal(byPath.get('plain.txt')?.newNoNewlineAtEof, false);
    });
  });
});
