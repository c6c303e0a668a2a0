import * as assert from 'node:assert/strict';
import { addBounded } from '../../../src/core/collections';

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
