import * as assert from 'node:assert/strict';
import { revertedEdits, type FileState, type RevertibleEdit } from '../../../src/core/attribution/revertedEdits';

const HEAD = 'b0'.repeat(20);
const AI1 = 'a1'.repeat(20);
const AI2 = 'a2'.repeat(20);
const HUMAN = 'c1'.repeat(20);
const OTHER = 'd1'.repeat(20);

const edit = (id: string, time: number, preBlob: string | undefined, postBlob: string | undefined, file = 'f.ts'): RevertibleEdit => ({
  id,
  file,
  time,
  ...(preBlob ? { preBlob } : {}),
  ...(postBlob ? { postBlob } : {}),
});
const state = (time: number, blob: string, file = 'f.ts'): FileState => ({ file, time, blob });
const parents = new Map([['f.ts', HEAD]]);

describe('revertedEdits', () => {
  it('an edit whose file went back to its pre-blob (= HEAD) is reverted', () => {
    const edits = [edit('e1', 10, HEAD, AI1)];
    assert.deepEqual([...revertedEdits(edits, [state(10, AI1), state(20, HEAD), state(30, HUMAN)], parents)], ['e1']);
  });

  it('no revert without a return: human changes on top keep the edit', () => {
    const edits = [edit('e1', 10, HEAD, AI1)];
    assert.deepEqual([...revertedEdits(edits, [state(10, AI1), state(20, HUMAN)], parents)], []);
  });

  it('a chain thrown away at once: back to the parent version reverts every edit of the chain', () => {
    const edits = [edit('e1', 10, HEAD, AI1), edit('e2', 20, AI1, AI2)];
    assert.deepEqual([...revertedEdits(edits, [state(10, AI1), state(20, AI2), state(30, HEAD)], parents)].sort(), ['e1', 'e2']);
    // undoing only the second edit (back to e2's pre-blob) reverts e2 alone
    assert.deepEqual([...revertedEdits(edits, [state(10, AI1), state(20, AI2), state(30, AI1)], parents)], ['e2']);
  });

  it('redo, stash + stash pop, or a branch switch back restore the edit (also with human lines in between)', () => {
    const edits = [edit('e1', 10, HEAD, AI1)];
    assert.deepEqual([...revertedEdits(edits, [state(20, HEAD), state(30, AI1)], parents)], [], 'redo');
    assert.deepEqual(
      [...revertedEdits(edits, [state(15, HUMAN), state(20, HEAD), state(30, HUMAN)], parents)],
      [],
      'stash + pop of AI + human work',
    );
    assert.deepEqual(
      [...revertedEdits(edits, [state(20, HEAD), state(25, OTHER), state(30, HEAD)], parents)],
      ['e1'],
      'OTHER never existed before the revert',
    );
    assert.deepEqual([...revertedEdits(edits, [state(20, HEAD), state(30, AI1), state(40, HEAD)], parents)], ['e1'], 'reverted again');
  });

  it('ignores states at or before the edit, states of other files, and unordered input', () => {
    const edits = [edit('e1', 10, HEAD, AI1)];
    assert.deepEqual([...revertedEdits(edits, [state(5, HEAD), state(10, HEAD), state(20, HEAD, 'g.ts')], parents)], []);
    assert.deepEqual(
      [...revertedEdits(edits, [state(30, AI1), state(20, HEAD)], parents)],
      [],
      'sorted by time: reverted at 20, restored at 30',
    );
    assert.deepEqual([...revertedEdits(edits, [state(30, HEAD), state(20, HUMAN)], parents)], ['e1']);
  });

  it('never reverts an edit without post-blob, or one whose result is the old content itself', () => {
    assert.deepEqual([...revertedEdits([edit('e1', 10, HEAD, undefined)], [state(20, HEAD)], parents)], []);
    // the AI itself restored HEAD's version (after a human change): returning to HEAD is its own result
    assert.deepEqual([...revertedEdits([edit('e1', 10, HUMAN, HEAD)], [state(20, HEAD)], parents)], []);
    // but going back to its pre-blob still reverts it
    assert.deepEqual([...revertedEdits([edit('e1', 10, HUMAN, HEAD)], [state(20, HUMAN)], parents)], ['e1']);
  });

  it('a new file deleted again (the parent has the empty blob) is reverted', () => {
    const empty = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
    const edits = [edit('n1', 10, empty, AI1, 'new.ts')];
    assert.deepEqual([...revertedEdits(edits, [state(20, empty, 'new.ts')], new Map([['new.ts', empty]]))], ['n1']);
  });
});
