import * as assert from 'node:assert/strict';
import { assessAssignment, classifyKeyName, isPlaceholderValue, isWordy, keyWords } from '../../../src/core/redaction/assessAssignment';
import { hasNestedQuantifier } from '../../../src/core/redaction/customPatterns';
import { secretPatterns } from '../../../src/core/redaction/secretPatterns';
import { shannonEntropy } from '../../../src/core/redaction/shannonEntropy';

describe('secretPatterns', () => {
  it('has at least 30 uniquely named patterns with global regexes', () => {
    const ids = secretPatterns.map((p) => p.id);
    assert.ok(ids.length >= 30, `${ids.length} patterns`);
    assert.equal(new Set(ids).size, ids.length);
    for (const p of secretPatterns) {
      assert.match(p.id, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      assert.ok(p.regex.global, `${p.id} is not global`);
      assert.ok(p.description.length > 10);
      for (const k of p.keywords ?? []) assert.equal(k, k.toLowerCase(), `${p.id} keyword ${k}`);
    }
  });

  it('includes the required credential families', () => {
    const ids = new Set(secretPatterns.map((p) => p.id));
    for (const id of [
      'aws-access-key-id',
      'aws-secret-access-key',
      'github-token',
      'gitlab-token',
      'slack-token',
      'slack-webhook',
      'stripe-key',
      'openai-key',
      'anthropic-key',
      'google-api-key',
      'gcp-service-account',
      'azure-storage-key',
      'twilio-api-key',
      'sendgrid-api-key',
      'mailgun-api-key',
      'npm-token',
      'pypi-token',
      'discord-token',
      'discord-webhook',
      'telegram-bot-token',
      'heroku-api-key',
      'digitalocean-token',
      'shopify-token',
      'jwt',
      'private-key-block',
      'connection-string-password',
      'basic-auth-url',
      'bearer-token',
      'dotenv-secret',
      'generic-high-entropy-assigned',
    ]) {
      assert.ok(ids.has(id), id);
    }
  });

  it('has no nested unbounded quantifiers (catastrophic backtracking shape)', () => {
    for (const p of secretPatterns) assert.equal(hasNestedQuantifier(p.regex.source), false, p.id);
  });

  it('puts the context heuristics after every credential format', () => {
    const firstHeuristic = secretPatterns.findIndex((p) => p.heuristic);
    assert.ok(firstHeuristic > 0);
    assert.ok(secretPatterns.slice(firstHeuristic).every((p) => p.heuristic));
    assert.deepEqual(
      secretPatterns.filter((p) => p.heuristic).map((p) => p.id),
      ['cli-secret-argument', 'dotenv-secret', 'markup-secret-element', 'prose-secret', 'generic-high-entropy-assigned'],
    );
  });
});

describe('shannonEntropy', () => {
  it('computes bits per character', () => {
    assert.equal(shannonEntropy(''), 0);
    assert.equal(shannonEntropy('aaaa'), 0);
    assert.equal(shannonEntropy('abab'), 1);
    assert.equal(shannonEntropy('abcd'), 2);
    assert.equal(shannonEntropy('0123456789abcdef'), 4);
  });
});

describe('assignment heuristics', () => {
  it('splits key names into words', () => {
    assert.deepEqual(keyWords('X-API-Key'), ['x', 'api', 'key']);
    assert.deepEqual(keyWords('dbPassword'), ['db', 'password']);
    assert.deepEqual(keyWords('OAuth2Token'), ['o', 'auth2', 'token']);
    assert.deepEqual(keyWords('spring.datasource.password'), ['spring', 'datasource', 'password']);
  });

  it('classifies key names', () => {
    const cases: [string, string][] = [
      ['DB_PASSWORD', 'password'],
      ['PGPASSWORD', 'password'],
      ['client_secret', 'password'],
      ['pass', 'password'],
      ['GITHUB_TOKEN', 'token'],
      ['apiKey', 'token'],
      ['SECRET_KEY', 'token'],
      ['secret_key_base', 'token'],
      ['auth', 'token'],
      ['STRIPE_KEY', 'weak'],
      ['key', 'weak'],
      ['publicKey', 'none'],
      ['STRIPE_PUBLISHABLE_KEY', 'none'],
      ['monkey', 'none'],
      ['bypass', 'none'],
      ['tokens', 'none'],
      ['passwordHint', 'none'],
      ['TOKEN_EXPIRY', 'none'],
      ['tokenizer', 'none'],
      ['keyPath', 'none'],
    ];
    for (const [key, strength] of cases) assert.equal(classifyKeyName(key), strength, key);
  });

  it('recognises placeholders', () => {
    for (const v of [
      'changeme',
      '<your-api-key>',
      '${API_KEY}',
      '$API_KEY',
      '{{ vault_pw }}',
      'process.env.X',
      'xxxxxxxx',
      '********',
      'your_token_here',
      'password123',
      '[REDACTED:jwt]',
    ]) {
      assert.equal(isPlaceholderValue(v), true, v);
    }
    for (const v of ['Xk9#mP2vLqRt', 'hunter2x', 'c0rrect-h0rse']) assert.equal(isPlaceholderValue(v), false, v);
  });

  it('tells identifiers from random tokens', () => {
    assert.equal(isWordy('enableExperimentalTimelineView2'), true);
    assert.equal(isWordy('__ES6-PROMISIFY--CUSTOM-ARGUMENTS__'), true);
    assert.equal(isWordy('K7mP2xQ9vL4nR8tW3yZ6bC1dF5gH0jA'), false);
  });

  it('decides per key strength and style', () => {
    const quoted = { quoted: true, style: 'code' } as const;
    const code = { quoted: false, style: 'code' } as const;
    const dotenv = { quoted: false, style: 'dotenv' } as const;
    assert.equal(assessAssignment('password', 'hunter2x', quoted), true);
    assert.equal(assessAssignment('password', 'hunter2x', code), true);
    assert.equal(assessAssignment('password', 'userPassword', code), false);
    assert.equal(assessAssignment('password', 'supersecretvalue', code), false);
    assert.equal(assessAssignment('DB_PASSWORD', 'supersecretvalue', dotenv), true);
    assert.equal(assessAssignment('credentials', 'same-origin', quoted), false);
    assert.equal(assessAssignment('MSI_SECRET', 'MSI_SECRET', quoted), false);
    assert.equal(assessAssignment('GOOGLE_APPLICATION_CREDENTIALS', '/var/run/key.json', dotenv), false);
    assert.equal(assessAssignment('DATABASE_PASSWORD', 'https://x', dotenv), false);
    assert.equal(assessAssignment('token', 'abc123', quoted), false);
    assert.equal(assessAssignment('token', 'q8Zr2Lk5Vn7Xc1Bm4Ht6', quoted), true);
    assert.equal(assessAssignment('cacheKey', 'user-profile-settings', quoted), false);
    assert.equal(assessAssignment('STRIPE_KEY', 'q8Zr2Lk5Vn7Xc1Bm4Ht6Pw', dotenv), true);
    assert.equal(assessAssignment('objectKey', 'd41d8cd98f00b204e9800998ecf8427e', quoted), false);
    assert.equal(assessAssignment('AZURE_OPENAI_KEY', 'd41d8cd98f00b204e9800998ecf8427e', dotenv), true);
    assert.equal(assessAssignment('FEATURE_FLAG_KEY', 'enableExperimentalTimelineView2', dotenv), false);
    assert.equal(assessAssignment('API_KEY', 'correcthorsebattery2staple', dotenv), true);
    assert.equal(assessAssignment('PASS_DEPTH', '0x0B96', code), false);
    assert.equal(assessAssignment('timeout', 'q8Zr2Lk5Vn7Xc1Bm4Ht6', quoted), false);
  });
});

describe('hasNestedQuantifier', () => {
  it('flags repeated groups that contain * or +', () => {
    for (const src of ['(a+)+', '(\\w*)*', '(?:x+y)+', '((a+))*', '(a+){2,}', '(a*)+?']) assert.equal(hasNestedQuantifier(src), true, src);
    for (const src of ['a+b+', '(ab)+', '(a+)?', '(a|b)*', '[(a+)]+', '\\(a+\\)+', '(a{1,5}){1,3}', 'x{2}'])
      assert.equal(hasNestedQuantifier(src), false, src);
  });
});
