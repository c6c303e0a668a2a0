import * as assert from 'node:assert/strict';
import type { DiffHunk } from '../../../src/core/attribution/diffHunks';
import { attributeLines, mergeRanges, type EditPairDiff } from '../../../src/core/attribution/lineAttribution';

const h = (newStart: number, newCount: number, oldStart = 0, oldCount = 0): DiffHunk => ({ oldStart, oldCount, newStart, newCount });
const pair = (pairId: string, interactionKey: string, diff2: DiffHunk[], diff3: DiffHunk[]): EditPairDiff => ({
  pairId,
  interactionKey,
  agent: 'claude',
  preBlob: `${pairId}-pre`,
  postBlob: `${pairId}-post`,
  diff2,
  diff3,
});

describe('attributeLines (3-diff core)', () => {
  it('AI = diff1-added ∩ ∪(diff2 \\ diff3); other added lines are human', () => {
    const r = attributeLines([h(3, 2)], [pair('p1', 't1', [h(3, 2)], [h(4, 1)])]);
    assert.deepEqual([r.totalAdded, r.deleted, r.aiAdded], [2, 0, 1]);
    assert.deepEqual(r.addedLines, [3, 4]);
    assert.deepEqual(r.aiLines, [3]);
    assert.deepEqual(r.ranges, [{ start: 3, end: 3, interactionKey: 't1' }]);
    assert.deepEqual(r.contributingPairIds, ['p1']);
  });

  it('never attributes lines outside diff1 (lines the commit did not add)', () => {
    // diff2 reaches line 1, which the parent already had: only line 5 is a committed addition.
    const r = attributeLines([h(5, 1)], [pair('p1', 't1', [h(1, 1), h(5, 1)], [])]);
    assert.deepEqual(r.aiLines, [5]);
    assert.equal(r.aiAdded, 1);
  });

  it('counts deletions but never attributes them', () => {
    const r = attributeLines([h(2, 0, 3, 4)], [pair('p1', 't1', [h(2, 0, 3, 4)], [])]);
    assert.deepEqual([r.totalAdded, r.deleted, r.aiAdded], [0, 4, 0]);
    assert.deepEqual(r.contributingPairIds, []);
  });

  it('the latest pair owns a line several pairs claim; every claiming pair contributes', () => {
    const r = attributeLines(
      [h(1, 4)],
      [pair('p1', 't1', [h(1, 3)], []), pair('p2', 't2', [h(2, 1)], []), pair('p3', 't1', [h(4, 1)], [h(4, 1)])],
    );
    assert.deepEqual(r.owners, ['t1', 't2', 't1']);
    assert.deepEqual(r.ranges, [
      { start: 1, end: 1, interactionKey: 't1' },
      { start: 2, end: 2, interactionKey: 't2' },
      { start: 3, end: 3, interactionKey: 't1' },
    ]);
    assert.deepEqual(r.contributingPairIds, ['p1', 'p2']);
    assert.deepEqual(r.contributingInteractionKeys, ['t1', 't2']);
    assert.equal(r.aiAdded, 3);
  });

  it('claimAllAdded makes every added line AI, keeping pair owners where they exist', () => {
    const r = attributeLines([h(1, 3)], [pair('p1', 't2', [h(2, 1)], [])], { claimAllAdded: { interactionKey: null } });
    assert.equal(r.aiAdded, 3);
    assert.deepEqual(r.ranges, [
      { start: 1, end: 1, interactionKey: null },
      { start: 2, end: 2, interactionKey: 't2' },
      { start: 3, end: 3, interactionKey: null },
    ]);
    const keyed = attributeLines([h(1, 2)], [], { claimAllAdded: { interactionKey: 't9' } });
    assert.deepEqual(keyed.ranges, [{ start: 1, end: 2, interactionKey: 't9' }]);
    assert.deepEqual(keyed.contributingInteractionKeys, ['t9']);
  });

  it('no pairs ⇒ every added line is human', () => {
    const r = attributeLines([h(1, 2), h(7, 1)], []);
    assert.deepEqual([r.totalAdded, r.aiAdded, r.ranges.length], [3, 0, 0]);
  });

  it('mergeRanges joins contiguous lines of one owner only', () => {
    assert.deepEqual(mergeRanges([1, 2, 3, 5, 6, 7], ['a', 'a', 'b', 'b', 'b', null]), [
      { start: 1, end: 2, interactionKey: 'a' },
      { start: 3, end: 3, interactionKey: 'b' },
      { start: 5, end: 6, interactionKey: 'b' },
      { start: 7, end: 7, interactionKey: null },
    ]);
    assert.deepEqual(mergeRanges([], []), []);
  });
});
