import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Counters } from '../../../src/core/ports';

describe('Counters', () => {
  it('counts and snapshots in name order', () => {
    const c = new Counters();
    c.inc('b');
    c.inc('a', 2);
    c.inc('b');
    assert.deepEqual(c.snapshot(), { a: 2, b: 2 });
    assert.equal(c.get('missing'), 0);
  });
});

describe('the clock seam (issue #17 part 3)', () => {
  it('src reads the wall clock only through systemClock (src/core/ports.ts)', () => {
    const root = path.resolve(__dirname, '../../../..');
    const files = execFileSync('git', ['ls-files', '-z', '--', 'src'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => /\.(ts|tsx)$/.test(f) && f !== 'src/core/ports.ts');
    assert.ok(files.length > 100);
    const offenders = files.flatMap((f) =>
      readFileSync(path.join(root, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bDate\.now\(\)|\bnew Date\(\)/.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(offenders, [], 'read the time through a Clock (systemClock by default)');
  });
});
