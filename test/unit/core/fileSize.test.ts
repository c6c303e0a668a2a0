import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../../..');
/** Lines above which a source file needs a written reason (issue #17: "no file over about 500 lines without a reason"). */
const limit = 500;

describe('source file size (issue #17 part 2)', () => {
  it(`every file in src over ${limit} lines says at its top why it is long`, () => {
    const files = execFileSync('git', ['ls-files', '-z', '--', 'src'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => /\.(ts|tsx|css)$/.test(f));
    const unexplained = files.filter((f) => {
      const lines = readFileSync(path.join(root, f), 'utf8').split('\n');
      return lines.length > limit && !/^(?:\/\/|\/\*\*?| \*) Long file: \S/.test(lines[0]);
    });
    assert.deepEqual(unexplained, [], 'split the file, or start it with a "// Long file: <reason>." line');
  });
});
