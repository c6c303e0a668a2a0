import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { createRedactor } from '../../../src/core/redaction/redactor';
import { secretPatterns } from '../../../src/core/redaction/secretPatterns';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures/redaction');

/** secrets.json: each entry is text parts and secrets; a secret is stored split in parts (joined here). */
const secretPart = z.object({ id: z.string(), secret: z.array(z.string()).min(2) });
const corpusSchema = z.object({
  comment: z.string(),
  entries: z.array(z.object({ name: z.string(), parts: z.array(z.union([z.string(), secretPart])).min(1) })),
});

interface Case {
  name: string;
  input: string;
  expected: string;
  secrets: { id: string; value: string }[];
}

function loadCorpus(): Case[] {
  const parsed = corpusSchema.safeParse(JSON.parse(readFileSync(path.join(fixtures, 'secrets.json'), 'utf8')));
  if (!parsed.success) throw new Error(`secrets.json is malformed: ${parsed.error.message}`);
  return parsed.data.entries.map((e) => {
    let input = '';
    let expected = '';
    const secrets: Case['secrets'] = [];
    for (const p of e.parts) {
      if (typeof p === 'string') {
        input += p;
        expected += p;
      } else {
        const value = p.secret.join('');
        input += value;
        expected += `[REDACTED:${p.id}]`;
        secrets.push({ id: p.id, value });
      }
    }
    return { name: e.name, input, expected, secrets };
  });
}

function loadBenign(): string[] {
  return readFileSync(path.join(fixtures, 'benign.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0 && !l.startsWith('# '));
}

describe('redaction corpus', () => {
  const corpus = loadCorpus();
  const redactor = createRedactor();

  it('has at least 60 fake secrets covering every built-in pattern', () => {
    const secrets = corpus.flatMap((c) => c.secrets);
    assert.ok(secrets.length >= 60, `only ${secrets.length} secrets`);
    const covered = new Set(secrets.map((s) => s.id));
    const uncovered = secretPatterns.map((p) => p.id).filter((id) => !covered.has(id));
    assert.deepEqual(uncovered, []);
    for (const s of secrets)
      assert.ok(
        secretPatterns.some((p) => p.id === s.id),
        `unknown id ${s.id}`,
      );
  });

  it('never stores a whole secret literally in the fixture file', () => {
    const raw = readFileSync(path.join(fixtures, 'secrets.json'), 'utf8');
    for (const c of corpus)
      for (const s of c.secrets) assert.ok(!raw.includes(JSON.stringify(s.value).slice(1, -1)), `${c.name}: ${s.id} is stored unsplit`);
  });

  describe('every secret is gone, replaced by its marker, context kept', () => {
    for (const c of corpus) {
      it(c.name, () => {
        const out = redactor.redact(c.input);
        for (const s of c.secrets) {
          assert.ok(!out.text.includes(s.value), `pattern ${s.id} let its secret through in "${c.name}"`);
        }
        assert.equal(out.text, c.expected, `pattern(s) ${c.secrets.map((s) => s.id).join(', ')} in "${c.name}"`);
        assert.equal(out.count, c.secrets.length);
        const byId: Record<string, number> = {};
        for (const s of c.secrets) byId[s.id] = (byId[s.id] ?? 0) + 1;
        assert.deepEqual(out.byId, byId);
        assert.equal(redactor.redact(out.text).text, out.text, 'not idempotent');
        assert.equal(redactor.redact(out.text).count, 0);
      });
    }
  });

  it('redacts the whole corpus as one text too (secrets next to each other)', () => {
    const input = corpus.map((c) => c.input).join('\n');
    const out = redactor.redact(input);
    assert.equal(out.text, corpus.map((c) => c.expected).join('\n'));
    assert.equal(
      out.count,
      corpus.reduce((n, c) => n + c.secrets.length, 0),
    );
  });

  it('keeps benign lines: false positives at most 1% of the benign corpus', () => {
    const lines = loadBenign();
    assert.ok(lines.length >= 200, `only ${lines.length} benign lines`);
    const changed = lines.filter((l) => redactor.redact(l).text !== l);
    console.log(
      `      benign corpus: ${changed.length} of ${lines.length} lines changed (${((changed.length / lines.length) * 100).toFixed(2)}%)`,
    );
    for (const l of changed) console.log(`        false positive: ${redactor.redact(l).text}`);
    assert.ok(changed.length <= Math.floor(lines.length * 0.01), `${changed.length} false positives`);
    const whole = redactor.redact(lines.join('\n'));
    assert.equal(
      whole.count,
      lines.reduce((n, l) => n + redactor.redact(l).count, 0),
    );
    for (const l of lines) assert.equal(redactor.redact(redactor.redact(l).text).text, redactor.redact(l).text);
  });
});
