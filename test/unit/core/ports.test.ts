import * as assert from 'node:assert/strict';
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
