import * as assert from 'node:assert/strict';
import { addBounded, detached, hashKey } from '../../../src/core/collections';

describe('addBounded', () => {
  it('keeps every value up to the bound, then forgets the oldest half and keeps the newest', () => {
    const s = new Set<number>();
    for (let i = 0; i < 8; i++) addBounded(s, i, 8);
    assert.deepEqual([...s], [0, 1, 2, 3, 4, 5, 6, 7]);
    addBounded(s, 8, 8);
    assert.deepEqual([...s], [5, 6, 7, 8]);
    for (let i = 9; i < 10_000; i++) addBounded(s, i, 8);
    assert.ok(s.size <= 8);
    assert.ok(s.has(9_999) && s.has(9_998));
  });
});

describe('hashKey', () => {
  it('is stable, a safe integer, and differs for keys that differ in one character or by order', () => {
    const a = hashKey('/home/ann/.claude/projects/x/0b2c.jsonl:1048576:0');
    assert.equal(a, hashKey('/home/ann/.claude/projects/x/0b2c.jsonl:1048576:0'));
    assert.ok(Number.isSafeInteger(a) && a >= 0);
    assert.notEqual(a, hashKey('/home/ann/.claude/projects/x/0b2c.jsonl:1048576:1'));
    assert.notEqual(hashKey('ab'), hashKey('ba'));
  });
  it('has no collision among 200,000 tailer-style keys', () => {
    const seen = new Set<number>();
    for (let f = 0; f < 20; f++)
      for (let o = 0; o < 10_000; o++) seen.add(hashKey(`/tmp/home/.codex/sessions/2026/12/03/rollout-${f}.jsonl:${o * 137}:${o % 3}`));
    assert.equal(seen.size, 200_000);
  });
});

describe('detached', () => {
  it('returns an equal string', () => {
    const parent = `<timestamp>x</timestamp>\n${'prompt text '.repeat(100)}`;
    const cut = parent.slice(25);
    assert.equal(detached(cut), cut);
    assert.equal(detached('short'), 'short');
    assert.equal(detached(''), '');
    assert.equal(detached('quote " and \\ and \u2028 and 😀'), 'quote " and \\ and \u2028 and 😀');
  });
});
