import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createRedactor } from '../../../src/core/redaction/redactor';

// Sanity guards only (generous bounds, shared CI machines): real numbers belong to a benchmark.
const fixtures = path.resolve(__dirname, '../../../../test/fixtures/redaction');
const MB = 1 << 20;
const fill = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

function timed(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

describe('redaction performance', () => {
  const redactor = createRedactor();

  it('redacts 1 MB of mixed code, prose and secrets quickly', () => {
    const benign = readFileSync(path.join(fixtures, 'benign.txt'), 'utf8');
    const secretsLine = `export GITHUB_TOKEN=ghp${'_'}${fill('a1B2c3D4e5', 36)}\nDATABASE_URL=postgres://app:${'Zq8mW2'}pLx7vR@db/app\n`;
    const text = fill(benign + secretsLine, MB);
    let count = 0;
    const ms = timed(() => {
      count = redactor.redact(text).count;
    });
    const again = timed(() => redactor.redact(text));
    console.log(`      1 MB mixed text: ${ms.toFixed(0)} ms (first call), ${again.toFixed(0)} ms (warm), ${count} redactions`);
    assert.ok(count > 100);
    assert.ok(ms < 2000, `${ms} ms`);
  });

  it('stays linear on adversarial input (no catastrophic backtracking)', () => {
    const size = 256 * 1024;
    const cases: Record<string, string> = {
      'one letter': fill('a', size),
      'assignment chain': fill('a=a', size),
      'secret key chain': fill('password=x', size),
      'open quotes': fill('token = "', size),
      'key headers without end': fill(`-----BEGIN ${'PRIVATE'} KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n`, size),
      'urls without @': fill('postgres://user:', size),
      'digits and colons': fill('1234567:AA', size),
      hex: fill('0123456789abcdef', size),
      'keyword soup': fill('sk- ghp_ xoxb- AIza eyJ key= token= secret: Bearer Authorization: curl -u ', size),
    };
    for (const [name, text] of Object.entries(cases)) {
      const ms = timed(() => redactor.redact(text));
      assert.ok(ms < 2000, `${name}: ${ms.toFixed(0)} ms for 256 KiB`);
    }
  });
});
