import * as assert from 'node:assert/strict';
import { AgentnoteIgnore } from '../../../src/core/attribution/agentnoteIgnore';

const ignored = (text: string, paths: string[]): string[] => {
  const ig = AgentnoteIgnore.parse(text);
  return paths.filter((p) => ig.ignores(p));
};

describe('AgentnoteIgnore', () => {
  it('dist/** with !dist/keep.js excludes everything under dist but keep.js (peer observed)', () => {
    assert.deepEqual(ignored('dist/**\n!dist/keep.js\n', ['dist/bundle.js', 'dist/keep.js', 'dist/sub/x.js', 'src/dist/x.js', 'dist']), [
      'dist/bundle.js',
      'dist/sub/x.js',
    ]);
  });

  it('skips blank lines and comments, trims, splits on CRLF', () => {
    const ig = AgentnoteIgnore.parse('# comment\r\n\r\n   cli.js   \r\n!  # not a pattern\r\n!\r\n');
    assert.deepEqual(
      ig.patterns.map((p) => [p.source, p.line, p.negated]),
      [['cli.js', 3, false]],
    );
    assert.equal(ig.ignores('cli.js'), true);
    assert.equal(ig.ignores('bin/cli.js'), true);
  });

  it('unanchored patterns without a slash match any path segment and everything below it', () => {
    assert.deepEqual(ignored('vendor\n', ['vendor', 'vendor/a.js', 'lib/vendor/b.js', 'vendored/c.js', 'a/myvendor']), [
      'vendor',
      'vendor/a.js',
      'lib/vendor/b.js',
    ]);
  });

  it('a leading slash anchors; a slash inside anchors too and must match to the end', () => {
    assert.deepEqual(ignored('/build\n', ['build/x.js', 'src/build/x.js']), ['build/x.js']);
    assert.deepEqual(ignored('out/app.js\n', ['out/app.js', 'x/out/app.js', 'out/app.js.map', 'out/app.js/y']), ['out/app.js']);
  });

  it('a trailing slash makes a directory pattern (matches below it)', () => {
    assert.deepEqual(ignored('gen/out/\n', ['gen/out/a.ts', 'gen/out', 'x/gen/out/a.ts']), ['gen/out/a.ts', 'gen/out']);
    assert.deepEqual(ignored('tmp/\n', ['tmp/a', 'a/tmp/b', 'tmpx/c']), ['tmp/a', 'a/tmp/b']);
  });

  it('* stays within a segment, ** crosses segments, ? is one non-slash character', () => {
    assert.deepEqual(ignored('src/*.js\n', ['src/a.js', 'src/b/c.js', 'src/.js']), ['src/a.js', 'src/.js']);
    assert.deepEqual(ignored('src/**/snap\n', ['src/a/b/snap', 'src/snap', 'src/x/snap/y']), ['src/a/b/snap']);
    assert.deepEqual(ignored('f?.txt\n', ['f1.txt', 'f12.txt', 'f/.txt', 'd/fa.txt']), ['f1.txt', 'd/fa.txt']);
    // `**/x` contains a slash, so it is anchored and needs a directory before x (a CLI quirk we keep).
    assert.deepEqual(ignored('**/x.js\n', ['x.js', 'a/x.js', 'a/b/x.js']), ['a/x.js', 'a/b/x.js']);
  });

  it('everything else is literal: no character classes, no escapes; case-sensitive', () => {
    assert.deepEqual(ignored('[ab].js\n', ['a.js', '[ab].js']), ['[ab].js']);
    assert.deepEqual(ignored('a+b(c).js\n', ['a+b(c).js', 'aab(c).js']), ['a+b(c).js']);
    assert.deepEqual(ignored('Dist/**\n', ['dist/a.js', 'Dist/a.js']), ['Dist/a.js']);
    assert.deepEqual(ignored('x.js\n', ['xxjs']), []);
  });

  it('the last matching pattern wins', () => {
    assert.deepEqual(ignored('*.js\n!keep.js\nkeep.js\n', ['a.js', 'keep.js']), ['a.js', 'keep.js']);
    assert.deepEqual(ignored('!a.js\n*.js\n', ['a.js']), ['a.js']);
    assert.deepEqual(ignored('*.js\n!lib/**\n', ['lib/a.js', 'a.js']), ['a.js']);
  });

  it('rejects too complex patterns (length, wildcard count, *** and the literal *.*) and keeps the rest', () => {
    const text = ['dist/*.*', '*.*', 'a/***/b', `${'x'.repeat(201)}`, '*/*/*/*/*/*/*/*/*/*/*', '*/*/*/*/*/*/*/*/*/*', 'safe.js'].join('\n');
    const ig = AgentnoteIgnore.parse(text);
    assert.deepEqual(
      ig.rejected.map((r) => [r.line, r.reason]),
      [
        [1, 'overlappingWildcards'],
        [2, 'overlappingWildcards'],
        [3, 'overlappingWildcards'],
        [4, 'tooLong'],
        [5, 'tooManyWildcards'],
      ],
    );
    assert.deepEqual(
      ig.patterns.map((p) => p.line),
      [6, 7],
    );
    assert.equal(ig.ignores('dist/a.js'), false);
    assert.equal(ig.ignores('safe.js'), true);
    // 200 characters after stripping slashes is still fine.
    assert.equal(AgentnoteIgnore.parse(`/${'y'.repeat(200)}/`).patterns.length, 1);
  });

  it('normalizes backslashes in paths; empty file ignores nothing', () => {
    assert.equal(AgentnoteIgnore.parse('dist/**').ignores('dist\\a.js'), true);
    assert.equal(AgentnoteIgnore.empty.ignores('anything'), false);
    assert.equal(AgentnoteIgnore.parse('').patterns.length, 0);
  });
});
