import * as assert from 'node:assert/strict';
import type { Logger } from '../../../src/core/ports';
import { createRedactor, redactionMarker } from '../../../src/core/redaction/redactor';

// Fake secrets are assembled at run time (prefix + generated body) so no whole token is in the source.
let seed = 42;
function body(n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += alphabet[seed % alphabet.length];
  }
  return out;
}
const ghToken = (): string => 'ghp' + '_' + body(36);
const hex = '0123456789abcdef';

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return { lines, trace: push('trace'), debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

describe('createRedactor', () => {
  const redactor = createRedactor();

  it('replaces a secret by [REDACTED:<id>] and counts it', () => {
    const token = ghToken();
    const out = redactor.redact(`use ${token} for the API`);
    assert.equal(out.text, 'use [REDACTED:github-token] for the API');
    assert.equal(out.count, 1);
    assert.deepEqual(out.byId, { 'github-token': 1 });
    assert.equal(redactionMarker('jwt'), '[REDACTED:jwt]');
  });

  it('returns the same text and zero counts when nothing matches', () => {
    const text = 'const total = items.reduce((n, i) => n + i.price, 0);';
    const out = redactor.redact(text);
    assert.equal(out.text, text);
    assert.equal(out.count, 0);
    assert.deepEqual(out.byId, {});
    assert.deepEqual(redactor.redact(''), { text: '', count: 0, byId: {} });
  });

  it('keeps key names, URL parts and surrounding code readable', () => {
    const pw = body(14) + '9';
    const cases: [string, string][] = [
      [
        `DATABASE_URL=postgres://app:${pw}@db.internal:5432/app`,
        'DATABASE_URL=postgres://app:[REDACTED:connection-string-password]@db.internal:5432/app',
      ],
      [`"password": "${pw}",`, '"password": "[REDACTED:dotenv-secret]",'],
      [`export API_TOKEN='${pw}'`, "export API_TOKEN='[REDACTED:dotenv-secret]'"],
      [`Authorization: Bearer ${body(40)}`, 'Authorization: Bearer [REDACTED:bearer-token]'],
      [`mysql --password=${pw} app`, 'mysql --password=[REDACTED:cli-secret-argument] app'],
    ];
    for (const [input, expected] of cases) assert.equal(redactor.redact(input).text, expected);
  });

  it('leaves placeholders, references and empty values alone', () => {
    for (const text of [
      'token = getToken()',
      'API_KEY = process.env.API_KEY',
      "password: ''",
      'API_KEY=<your-key>',
      'SECRET=${SECRET}',
      'PASSWORD=changeme',
      'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'password: userPassword',
      'postgres://app:${DB_PASSWORD}@db/app',
      // documentation fillers in a credential format (joined here so no scanner sees a webhook URL)
      'https://hooks.slack.com/services/' + 'T00000000/B00000000/' + 'X'.repeat(24),
      'STRIPE_SECRET_KEY=sk_test_' + 'X'.repeat(24),
    ]) {
      assert.equal(redactor.redact(text).text, text, text);
    }
  });

  it('is idempotent and never touches existing markers', () => {
    const text = `a ${ghToken()} b\nPASSWORD=${body(12)}1\n[REDACTED] and [REDACTED:custom-1] stay`;
    const once = redactor.redact(text);
    assert.equal(once.count, 2);
    assert.ok(once.text.endsWith('[REDACTED] and [REDACTED:custom-1] stay'));
    const twice = redactor.redact(once.text);
    assert.equal(twice.text, once.text);
    assert.equal(twice.count, 0);
  });

  it('merges a partly overlapping credential match into one marker, so nothing leaks', () => {
    const pw = body(10) + 'Lx7';
    const r = createRedactor({ extraPatterns: ['Lx7@db\\.internal'] });
    const out = r.redact(`postgres://app:${pw}@db.internal/app`);
    assert.equal(out.text, 'postgres://app:[REDACTED:connection-string-password]/app');
    assert.deepEqual(out.byId, { 'connection-string-password': 1 });
  });

  it('drops a heuristic match that only overhangs a credential match (keeps URL context)', () => {
    const key = 'AIza' + body(35);
    const out = redactor.redact(`https://maps.example.com/api/js?key=${key}&callback=initMap`);
    assert.equal(out.text, 'https://maps.example.com/api/js?key=[REDACTED:google-api-key]&callback=initMap');
  });

  it('redacts a whole private key block, also inside a JSON string, keeping the JSON valid', () => {
    const pem = `-----BEGIN RSA ${'PRIVATE'} KEY-----\nMIIEowIBAAKCAQEA${body(48)}\n${body(64)}\n-----END RSA ${'PRIVATE'} KEY-----`;
    assert.equal(redactor.redact(`key:\n${pem}\nend`).text, 'key:\n[REDACTED:private-key-block]\nend');
    const line = JSON.stringify({ type: 'tool_result', content: `cat key.pem\n${pem}\n`, other: 'x' });
    const out = redactor.redact(line);
    assert.deepEqual(JSON.parse(out.text), { type: 'tool_result', content: 'cat key.pem\n[REDACTED:private-key-block]\n', other: 'x' });
    const truncated = JSON.stringify({ content: `-----BEGIN ${'PRIVATE'} KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF${body(40)}`, next: 1 });
    assert.deepEqual(JSON.parse(redactor.redact(truncated).text), { content: '[REDACTED:private-key-block]', next: 1 });
  });

  it('ignores a bare key header without key material', () => {
    const text = `const HEADER = '-----BEGIN ${'PRIVATE'} KEY-----';`;
    assert.equal(redactor.redact(text).text, text);
  });

  it('lists its pattern ids in priority order (credential formats, then heuristics)', () => {
    const ids = redactor.patternIds;
    assert.ok(ids.length >= 30);
    assert.equal(ids[ids.length - 1], 'generic-high-entropy-assigned');
    assert.ok(ids.indexOf('github-token') < ids.indexOf('dotenv-secret'));
    assert.deepEqual(redactor.errors, []);
  });

  it('can switch built-in patterns off', () => {
    const r = createRedactor({ disabledIds: ['dotenv-secret'] });
    const text = `PASSWORD=${body(12)}1`;
    assert.equal(r.redact(text).text, text);
    assert.ok(!r.patternIds.includes('dotenv-secret'));
    const pw = 'Xk9#' + body(8);
    assert.equal(r.redactDeep({ password: pw }).value.password, pw);
  });
});

describe('custom patterns', () => {
  it('gets ids custom-<n> by position and redacts the named group `secret` or the whole match', () => {
    const r = createRedactor({ extraPatterns: ['ACME-[0-9]{6}', 'internal_id=(?<secret>[a-z]{8})', '/corp-token-[a-z0-9]+/i'] });
    assert.equal(
      r.redact('ticket ACME-123456, internal_id=abcdefgh, CORP-TOKEN-x1y2').text,
      'ticket [REDACTED:custom-1], internal_id=[REDACTED:custom-2], [REDACTED:custom-3]',
    );
    assert.deepEqual(r.redact('ACME-000001 ACME-000002').byId, { 'custom-1': 2 });
  });

  it('reports invalid patterns (keeping later ids stable) and warns without throwing', () => {
    const log = recordingLogger();
    const r = createRedactor({
      extraPatterns: ['(unclosed', '', 'a*', '(\\w+)+x', '/ok/gz', 42 as unknown as string, 'ZZ-[0-9]{4}'],
      logger: log,
    });
    assert.deepEqual(
      r.errors.map((e) => [e.id, e.reason]),
      [
        ['custom-1', 'invalidSyntax'],
        ['custom-2', 'empty'],
        ['custom-3', 'matchesEmpty'],
        ['custom-4', 'nestedQuantifier'],
        ['custom-5', 'invalidFlags'],
        ['custom-6', 'notAString'],
      ],
    );
    assert.equal(r.redact('code ZZ-1234').text, 'code [REDACTED:custom-7]');
    assert.equal(log.lines.length, 6);
    assert.ok(log.lines.every((l) => l.startsWith('warn [Redaction] ignoring custom pattern custom-')));
  });

  it('skips zero-length matches of lookaround-only patterns', () => {
    const r = createRedactor({ extraPatterns: ['(?=abc)'] });
    assert.deepEqual(r.redact('xxabcxx'), { text: 'xxabcxx', count: 0, byId: {} });
  });
});

describe('redactDeep', () => {
  const redactor = createRedactor();

  it('redacts every string of a JSON-ish value into a copy, keeping structure and other types', () => {
    const token = ghToken();
    const input = {
      event: 'prompt',
      turn: 3,
      ok: true,
      none: null,
      prompt: `deploy with ${token}`,
      nested: { list: ['plain', `Bearer ${body(40)}`, 7], deeper: [{ text: 'hi' }] },
    };
    const snapshot = JSON.stringify(input);
    const out = redactor.redactDeep(input);
    assert.deepEqual(out.value, {
      event: 'prompt',
      turn: 3,
      ok: true,
      none: null,
      prompt: 'deploy with [REDACTED:github-token]',
      nested: { list: ['plain', 'Bearer [REDACTED:bearer-token]', 7], deeper: [{ text: 'hi' }] },
    });
    assert.equal(out.count, 2);
    assert.deepEqual(out.byId, { 'github-token': 1, 'bearer-token': 1 });
    assert.equal(JSON.stringify(input), snapshot, 'input mutated');
  });

  it('uses the field name as context: a secret-named field with a secret-looking value is redacted whole', () => {
    const out = redactor.redactDeep({
      env: { DB_PASSWORD: 'Xk9#' + body(8), API_TOKEN: body(24) + '7', PORT: '5432', HOME: '/home/ann' },
      password: '',
    });
    assert.deepEqual(out.value, {
      env: { DB_PASSWORD: '[REDACTED:dotenv-secret]', API_TOKEN: '[REDACTED:dotenv-secret]', PORT: '5432', HOME: '/home/ann' },
      password: '',
    });
    assert.deepEqual(out.byId, { 'dotenv-secret': 2 });
  });

  it('leaves journal-like records without secrets unchanged', () => {
    const line = {
      event: 'file_change',
      timestamp: '2026-03-01T12:34:56.789Z',
      tool: 'Edit',
      file: 'src/auth.ts',
      session_id: '3b241101-e2bb-4255-8caf-4136c566a962',
      turn: 2,
      prompt_id: '0b3f2c1e-7d4a-4e8b-9c2d-1a5f6e7b8c9d',
      blob: body(40, hex),
      change_id: null,
      edit_added: 4,
      edit_deleted: 1,
      tool_use_id: 'toolu_01' + body(22),
    };
    const out = redactor.redactDeep(line);
    assert.deepEqual(out.value, line);
    assert.equal(out.count, 0);
  });

  it('copes with cycles, shared references and non-plain objects', () => {
    const shared = { note: `key ${ghToken()}` };
    const cyclic: Record<string, unknown> = { a: shared, b: shared, when: new Date(0) };
    cyclic.self = cyclic;
    const out = redactor.redactDeep(cyclic);
    const v = out.value as Record<string, unknown>;
    assert.equal((v.a as { note: string }).note, 'key [REDACTED:github-token]');
    assert.equal(v.a, v.b);
    assert.equal(v.self, v);
    assert.ok(v.when instanceof Date);
    assert.equal(out.count, 1);
    assert.deepEqual(redactor.redactDeep('PASSWORD=' + body(12) + '1').value, 'PASSWORD=[REDACTED:dotenv-secret]');
    assert.equal(redactor.redactDeep(12).value, 12);
  });
});

describe('multi-line and encoded secrets (issue #14 part 6)', () => {
  const redactor = createRedactor();
  const token = ['ghp', '_', 'R8x2LmQ7vZp4KdW9sTn3YbHc6JfGa1Ue5Xo0'].join('');

  it('a token that ends a line keeps the next line intact', () => {
    const out = redactor.redact(`export GITHUB_TOKEN=${token}\nThanks for the help`);
    assert.equal(out.text, 'export GITHUB_TOKEN=[REDACTED:github-token]\nThanks for the help');
    const assign = redactor.redact(`A=${token}\nSLACK_BOT_TOKEN=none`);
    assert.equal(assign.text, 'A=[REDACTED:github-token]\nSLACK_BOT_TOKEN=none');
  });

  it('a wrapped token is redacted across the break, with quote prefixes and JSON-escaped breaks', () => {
    assert.equal(redactor.redact(`> ${token.slice(0, 19)}\n> ${token.slice(19)} done`).text, '> [REDACTED:github-token] done');
    assert.equal(redactor.redact(`"${token.slice(0, 10)}\\n${token.slice(10)}"`).text, '"[REDACTED:github-token]"');
  });

  it('URL-encoded text is redacted where the decoded secret is; base64 runs that hide one go whole', () => {
    const q = `next=${encodeURIComponent(`Authorization: Bearer ${token}`)}&a=1`;
    assert.equal(redactor.redact(q).text, 'next=Authorization%3A%20Bearer%20[REDACTED:github-token]&a=1');
    const b64 = Buffer.from(`TOKEN=${token}`).toString('base64');
    assert.equal(redactor.redact(`echo ${b64} | base64 -d`).text, 'echo [REDACTED:github-token] | base64 -d');
  });

  it('leaves encoded text without secrets alone', () => {
    for (const text of [
      `img: data:image/png;base64,${Buffer.from(Array.from({ length: 96 }, (_, i) => (i * 37) % 256)).toString('base64')}`,
      `https://example.com/search?q=${encodeURIComponent('how do I rotate a key?')}&page=2`,
      `greeting: ${Buffer.from('Hello, world! This is plain text.').toString('base64')}`,
      'src/core/redaction/encodedForms.ts and AbstractSingletonProxyFactoryBean',
    ])
      assert.equal(redactor.redact(text).text, text);
  });
});
