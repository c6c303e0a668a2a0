import * as assert from 'node:assert/strict';
import { normalizeAgentPath } from '../../../src/core/agents/agentPath';
import { parseApplyPatch, patchTextOf } from '../../../src/core/agents/applyPatch';
import { lineCount, replacementStats, structuredPatchStats, unifiedDiffStats } from '../../../src/core/agents/editStats';
import { isGitCommitCommand, isMutatingShellCommand, shellCommandText } from '../../../src/core/agents/shellCommand';

describe('isGitCommitCommand', () => {
  const yes = [
    'git commit -m "x"',
    'git add -A && git commit -am wip',
    'cd sub; git commit',
    'GIT_AUTHOR_NAME=x git -C /repo -c commit.gpgsign=false commit -m y',
    '/usr/bin/git commit --no-verify -m z',
    'bash -lc "git commit -m \'from a script\'"',
    'git commit -m "$(cat <<\'EOF\'\nfeat: x\n\nbody with git log mention\nEOF\n)"',
    'echo start\ngit commit -m one',
    'sudo -u ann git commit -m s',
  ];
  const no = [
    'git commit --amend --no-edit',
    'git commit -a --amend -m x',
    'echo "git commit"',
    "echo 'run git commit later'",
    'git log --grep "git commit"',
    'grep -r "git commit" .',
    'git status # then git commit',
    'cat <<EOF > notes.md\ngit commit -m x\nEOF',
    'git commit-tree abc',
    'npm test',
  ];
  for (const c of yes) it(`accepts ${JSON.stringify(c)}`, () => assert.equal(isGitCommitCommand(c), true));
  for (const c of no) it(`rejects ${JSON.stringify(c)}`, () => assert.equal(isGitCommitCommand(c), false));
});

describe('isMutatingShellCommand', () => {
  it('flags file-changing commands and redirections', () => {
    for (const c of [
      'rm -rf dist',
      "sed -i 's/a/b/' f",
      'echo hi > out.txt',
      'echo hi >> log',
      'cat <<EOF > f\nx\nEOF',
      'npm install left-pad',
      'git checkout -- a.ts',
      'mv a b',
      'yarn',
      'perl -pi -e s/a/b/ f',
    ]) {
      assert.equal(isMutatingShellCommand(c), true, c);
    }
  });
  it('does not flag read-only commands', () => {
    for (const c of [
      'ls -la',
      'npm test',
      'git status',
      'cat a.txt',
      'grep x f 2>&1',
      'ls > /dev/null',
      'git commit -m "rm -rf"',
      'sed s/a/b/ f',
    ]) {
      assert.equal(isMutatingShellCommand(c), false, c);
    }
  });
});

describe('shellCommandText', () => {
  it('takes the script of an argv shell call and joins other argv', () => {
    assert.equal(shellCommandText(['bash', '-lc', 'git commit -m x']), 'git commit -m x');
    assert.equal(shellCommandText(['git', 'commit', '-m', 'two words']), "git commit -m 'two words'");
    assert.equal(shellCommandText('ls'), 'ls');
    assert.equal(shellCommandText(42), undefined);
  });
});

describe('parseApplyPatch', () => {
  it('parses add, update with move, delete and end-of-file markers', () => {
    const patch = [
      "apply_patch <<'EOF'",
      '*** Begin Patch',
      '*** Add File: a/new.ts',
      '+line 1',
      '+line 2',
      '*** Update File: b.ts',
      '*** Move to: c.ts',
      '@@ function x',
      ' keep',
      '-old',
      '+new',
      '+more',
      '*** End of File',
      '*** Delete File: d.ts',
      '*** End Patch',
      'EOF',
    ].join('\n');
    assert.deepEqual(parseApplyPatch(patch), [
      {
        op: 'add',
        path: 'a/new.ts',
        text: '*** Add File: a/new.ts\n+line 1\n+line 2\n',
        content: 'line 1\nline 2\n',
        added: 2,
        removed: 0,
      },
      {
        op: 'update',
        path: 'b.ts',
        moveTo: 'c.ts',
        text: '*** Update File: b.ts\n*** Move to: c.ts\n@@ function x\n keep\n-old\n+new\n+more\n*** End of File\n',
        added: 2,
        removed: 1,
      },
      { op: 'delete', path: 'd.ts', text: '*** Delete File: d.ts\n', added: 0, removed: 0 },
    ]);
  });

  it('returns [] for text without sections', () => {
    assert.deepEqual(parseApplyPatch('hello'), []);
  });

  it('finds the patch in the argument shapes of every era', () => {
    const p = '*** Begin Patch\n*** Delete File: x\n*** End Patch';
    assert.equal(patchTextOf(p), p);
    assert.equal(patchTextOf(JSON.stringify({ input: p })), p);
    assert.equal(patchTextOf({ patch: p }), p);
    assert.equal(patchTextOf({ command: ['apply_patch', p] }), p);
    assert.equal(patchTextOf({ command: 'ls' }), undefined);
  });
});

describe('normalizeAgentPath', () => {
  it('normalizes POSIX, Windows, /c:/ and file:// paths', () => {
    assert.equal(normalizeAgentPath('/home/ann/proj/./src/../a.ts'), '/home/ann/proj/a.ts');
    assert.equal(normalizeAgentPath('src/a.ts', '/home/ann/proj'), '/home/ann/proj/src/a.ts');
    assert.equal(normalizeAgentPath('e:\\work\\proj\\a.ts'), 'E:\\work\\proj\\a.ts');
    assert.equal(normalizeAgentPath('/c:/Users/ann/a.ts'), 'C:\\Users\\ann\\a.ts');
    assert.equal(normalizeAgentPath('src\\a.ts', 'C:\\proj'), 'C:\\proj\\src\\a.ts');
    assert.equal(normalizeAgentPath('file:///home/ann/my%20proj/a.ts'), '/home/ann/my proj/a.ts');
    assert.equal(normalizeAgentPath('file:///c%3A/proj/a.ts'), 'C:\\proj\\a.ts');
  });
  it('rejects empty and unresolvable relative paths', () => {
    assert.equal(normalizeAgentPath('  '), undefined);
    assert.equal(normalizeAgentPath('a.ts'), undefined);
  });
});

describe('edit statistics', () => {
  it('counts lines', () => {
    assert.equal(lineCount(''), 0);
    assert.equal(lineCount('a'), 1);
    assert.equal(lineCount('a\nb\n'), 2);
    assert.equal(lineCount('a\nb'), 2);
  });
  it('counts unified diffs without headers', () => {
    assert.deepEqual(unifiedDiffStats('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n+d\n'), { added: 2, removed: 1 });
  });
  it('counts structuredPatch hunks', () => {
    assert.deepEqual(structuredPatchStats([{ lines: ['-a', '+b', ' c', '+d'] }]), { added: 2, removed: 1 });
    assert.equal(structuredPatchStats([]), undefined);
  });
  it('counts replacements without their common leading/trailing lines', () => {
    assert.deepEqual(replacementStats('a\nb\nc', 'a\nB\nc'), { added: 1, removed: 1 });
    assert.deepEqual(replacementStats('greet(', 'welcome('), { added: 1, removed: 1 });
    assert.deepEqual(replacementStats('', 'x\ny\n'), { added: 2, removed: 0 });
    assert.deepEqual(replacementStats('a\n', 'a\nb\n'), { added: 1, removed: 0 });
  });
});
