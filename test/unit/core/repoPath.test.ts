import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isInGitDir, isInsideDir, isSafeRelPath, pathRulesFor, repoRelativePath, toPosixPath } from '../../../src/core/git/repoPath';

const root = path.resolve(__dirname, '../../../..');
const linux = pathRulesFor('linux');
const mac = pathRulesFor('darwin');
const win = pathRulesFor('win32');

describe('repository paths: one home (issue #17 part 3)', () => {
  it('platform rules: case is ignored on macOS and Windows only', () => {
    assert.deepEqual(linux, { flavor: 'posix', caseInsensitive: false });
    assert.deepEqual(mac, { flavor: 'posix', caseInsensitive: true });
    assert.deepEqual(win, { flavor: 'win32', caseInsensitive: true });
  });

  it('repo-relative POSIX path inside the work tree; nothing outside, the root itself or .git', () => {
    assert.equal(repoRelativePath('/w/proj', '/w/proj/src/a.ts', linux), 'src/a.ts');
    assert.equal(repoRelativePath('/w/proj/', '/w/proj/src/../b.ts', linux), 'b.ts');
    for (const outside of ['/w/proj', '/w/proj2/a.ts', '/w/a.ts', 'src/a.ts', '/w/proj/.git/config', '/w/proj/.git'])
      assert.equal(repoRelativePath('/w/proj', outside, linux), undefined, outside);
    assert.equal(repoRelativePath('/w/proj', '/w/proj/.github/x.yml', linux), '.github/x.yml');
    assert.equal(repoRelativePath('/w/proj', '/w/proj/a/.git/b', linux), 'a/.git/b', 'only the top-level .git is the git dir');
  });

  it('case: Linux tells /W/Proj from /w/proj; macOS and Windows do not, and keep the file name as spelled', () => {
    assert.equal(repoRelativePath('/Users/ann/proj', '/Users/Ann/Proj/Src/A.ts', linux), undefined);
    assert.equal(repoRelativePath('/Users/ann/proj', '/Users/Ann/Proj/Src/A.ts', mac), 'Src/A.ts');
    assert.equal(repoRelativePath('/Users/ann/proj', '/Users/ann/proj/.GIT/config', mac), undefined);
    assert.equal(repoRelativePath('/w/proj', '/w/proj/.GIT/config', linux), '.GIT/config');
    assert.equal(repoRelativePath('C:\\Users\\Ann\\proj', 'c:\\users\\ann\\PROJ\\src\\a.ts', win), 'src/a.ts');
    assert.equal(repoRelativePath('C:\\w\\proj', 'C:/w/proj/src/a.ts', win), 'src/a.ts', 'forward slashes on Windows');
    assert.equal(repoRelativePath('C:\\w\\proj', 'D:\\w\\proj\\a.ts', win), undefined);
    assert.equal(repoRelativePath('C:\\w\\proj', 'C:\\w\\project\\a.ts', win), undefined);
  });

  it('inside a folder: the folder itself counts', () => {
    assert.ok(isInsideDir('/a/b', '/a/b', linux));
    assert.ok(isInsideDir('/a/b', '/a/b/c/d', linux));
    assert.equal(isInsideDir('/a/b', '/a/bc', linux), false);
    assert.equal(isInsideDir('/a/b', 'b/c', linux), false);
    assert.ok(isInsideDir('/A/B', '/a/b/c', mac));
    assert.equal(isInsideDir('/', '/x', linux), true);
  });

  it('git spelling and the .git folder', () => {
    assert.equal(toPosixPath('.\\src\\a.ts'), 'src/a.ts');
    assert.equal(toPosixPath('././a'), 'a');
    assert.ok(isInGitDir('.git/hooks/x') && isInGitDir('.git'));
    assert.equal(isInGitDir('.gitignore'), false);
    assert.equal(isInGitDir('.Git/x'), false);
    assert.ok(isInGitDir('.Git/x', mac));
  });

  it('untrusted relative paths', () => {
    for (const ok of ['a.ts', 'src/a b.ts', 'line\nbreak.txt', './x', '.github/ci.yml']) assert.ok(isSafeRelPath(ok), ok);
    for (const bad of ['', '/etc/passwd', 'C:\\x', 'c:x', '../x', 'a/../../x', 'a\0b', '.git/config', '.GIT/hooks', 'x'.repeat(4097), 7])
      assert.equal(isSafeRelPath(bad), false, String(bad));
  });

  it('no other copy of the "relative path inside a folder" idiom in src', () => {
    const allowed: Record<string, string> = {
      'src/core/git/repoPath.ts': 'the home',
      'src/node/sharing/pushDetector.ts': 'ref names from files under .git/refs/remotes, not a work-tree path',
    };
    const files = execFileSync('git', ['ls-files', '-z', '--', 'src'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f.endsWith('.ts') && !(f in allowed));
    const offenders = files.filter((f) =>
      /\bpath\.relative\(|\brelative\([^)]*\)\.startsWith\('\.\.'\)/.test(readFileSync(path.join(root, f), 'utf8')),
    );
    assert.deepEqual(offenders, [], 'use src/core/git/repoPath.ts');
  });
});
