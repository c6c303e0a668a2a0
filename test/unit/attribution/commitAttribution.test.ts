import * as assert from 'node:assert/strict';
import {
  commitAttribution,
  countEditLines,
  countTextLines,
  keyedAttribution,
  noteFiles,
  type CommitFileInput,
} from '../../../src/core/attribution/commitAttribution';
import type { DiffHunk } from '../../../src/core/attribution/diffHunks';
import type { EditPairDiff } from '../../../src/core/attribution/lineAttribution';

const h = (newStart: number, newCount: number, oldStart = 0, oldCount = 0): DiffHunk => ({ oldStart, oldCount, newStart, newCount });
const pair = (key: string, diff2: DiffHunk[], diff3: DiffHunk[] = []): EditPairDiff => ({
  pairId: `${key}-pair`,
  interactionKey: key,
  agent: 'claude',
  preBlob: 'pre',
  postBlob: 'post',
  diff2,
  diff3,
});
const file = (path: string, over: Partial<CommitFileInput> = {}): CommitFileInput => ({
  path,
  byAi: false,
  generated: false,
  ignored: false,
  committedBlob: `${path}-blob`,
  diff1: [],
  pairs: [],
  edits: [],
  ...over,
});

describe('commitAttribution', () => {
  it('all AI files line-complete ⇒ the CLI result (sum over non-excluded files)', () => {
    const r = commitAttribution({
      hasEditData: true,
      files: [
        file('a.ts', {
          byAi: true,
          diff1: [h(1, 3)],
          pairs: [pair('t1', [h(1, 3)], [h(3, 1)])],
          edits: [{ interactionKey: 't1', agent: 'claude', postBlob: 'post' }],
        }),
        file('b.ts', { diff1: [h(4, 2, 4, 1)] }),
        file('gen.ts', { byAi: true, generated: true, diff1: [h(1, 50)] }),
        file('dist/x.js', { byAi: true, ignored: true, edits: [{ interactionKey: 't1', agent: 'claude', postBlob: 'other' }] }),
      ],
    });
    assert.equal(r.summary, 'cli');
    assert.deepEqual(r.attribution, { ai_ratio: 40, method: 'line', lines: { ai_added: 2, total_added: 5, deleted: 1 } });
    assert.deepEqual(
      r.files.map((f) => f.level),
      ['line', 'line', 'excluded', 'excluded'],
    );
    assert.deepEqual(r.contributingInteractionKeys, ['t1']);
  });

  it('no edit data ⇒ file level without lines (docs/note-format.md §3.2 step 3)', () => {
    const r = commitAttribution({
      hasEditData: false,
      files: [file('a.ts', { byAi: true, diff1: [h(1, 1)] }), file('b.ts', { diff1: [h(1, 1)] })],
    });
    assert.equal(r.summary, 'noLineData');
    assert.deepEqual(r.attribution, { ai_ratio: 50, method: 'file' });
    assert.deepEqual(r.contributingInteractionKeys, []);
  });

  it('an AI file without evidence ⇒ whole-commit fallback, but per-file ranges are kept', () => {
    const r = commitAttribution({
      hasEditData: true,
      files: [
        file('a.ts', {
          byAi: true,
          diff1: [h(1, 2)],
          pairs: [pair('t1', [h(1, 2)])],
          edits: [{ interactionKey: 't1', agent: 'claude', postBlob: 'a.ts-blob' }],
        }),
        file('b.ts', { byAi: true, diff1: [h(1, 2)], edits: [{ interactionKey: 't2', agent: 'cursor', postBlob: 'stale' }] }),
        file('c.ts', { diff1: [h(1, 1)] }),
      ],
    });
    assert.equal(r.summary, 'commitFallback');
    assert.deepEqual(r.attribution, { ai_ratio: 67, method: 'file' });
    assert.deepEqual(
      r.files.map((f) => f.level),
      ['line', 'unknown', 'line'],
    );
    assert.deepEqual(r.files[0].ranges, [{ start: 1, end: 2, interactionKey: 't1' }]);
    assert.deepEqual(r.contributingInteractionKeys, []);
  });

  it('a degraded eligible file (diff1 unknown) forces the fallback even when human', () => {
    const r = commitAttribution({
      hasEditData: true,
      files: [
        file('a.ts', { byAi: true, diff1: [h(1, 1)], pairs: [pair('t1', [h(1, 1)])] }),
        file('big.txt', { diff1: undefined, unavailable: 'degraded' }),
      ],
    });
    assert.equal(r.summary, 'commitFallback');
    assert.deepEqual(r.attribution, { ai_ratio: 50, method: 'file' });
  });

  it('a gitlink is skipped from line counting but stays in the file ratio set', () => {
    const r = commitAttribution({
      hasEditData: true,
      files: [
        file('a.ts', { byAi: true, diff1: [h(1, 1)], pairs: [pair('t1', [h(1, 1)])] }),
        file('sub', { diff1: undefined, unavailable: 'submodule' }),
      ],
    });
    assert.equal(r.summary, 'cli');
    assert.deepEqual(r.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    assert.equal(r.files[1].level, 'skipped');
  });

  describe('Cursor exact-count upgrade (docs/note-format.md §3.3)', () => {
    const edits = [
      { interactionKey: 't1', agent: 'cursor', postBlob: 'p1', editAdded: 2, editDeleted: 0 },
      { interactionKey: 't2', agent: 'cursor', postBlob: 'final', editAdded: 1, editDeleted: 1 },
    ];
    it('sums equal committed counts and committed = last post ⇒ every added line AI', () => {
      const r = commitAttribution({
        hasEditData: true,
        files: [file('c.ts', { byAi: true, committedBlob: 'final', diff1: [h(1, 3, 1, 1)], edits })],
      });
      assert.equal(r.files[0].basis, 'countMatch');
      assert.deepEqual(r.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 3, total_added: 3, deleted: 1 } });
      assert.deepEqual(r.files[0].ranges, [{ start: 1, end: 3, interactionKey: null }]);
      assert.deepEqual(r.contributingInteractionKeys, ['t1', 't2']);
    });
    it('takes precedence over pairs and credits only the counted edits (CLI)', () => {
      const r = commitAttribution({
        hasEditData: true,
        files: [file('c.ts', { byAi: true, committedBlob: 'final', diff1: [h(1, 3, 1, 1)], edits, pairs: [pair('t9', [h(2, 1)])] })],
      });
      assert.equal(r.files[0].lines?.ai_added, 3);
      assert.deepEqual(
        r.files[0].ranges.map((x) => x.interactionKey),
        [null, 't9', null],
      );
      assert.deepEqual(r.contributingInteractionKeys, ['t1', 't2']);
    });
    it('lines no pair claims belong to the edits without a full pair: one interaction ⇒ its lines (#15)', () => {
      // Codex replaces line 4 by three lines on disk (counts, no pre-blob), then Cursor replaces line 1
      // through the editor (a full pair): Codex's lines keep Codex's prompt instead of null
      const mixed = [
        { interactionKey: 'codex-1', agent: 'codex', postBlob: 'p1', editAdded: 3, editDeleted: 1 },
        { interactionKey: 'cursor-2', agent: 'cursor', postBlob: 'final', editAdded: 1, editDeleted: 1, pairId: 'cursor-2-pair' },
      ];
      // Cursor's pre-blob already holds Codex's lines: its diff2 adds only line 1
      const exact = commitAttribution({
        hasEditData: true,
        files: [
          file('f2.txt', {
            byAi: true,
            committedBlob: 'final',
            diff1: [h(1, 1, 1, 1), h(4, 3, 4, 1)],
            edits: mixed,
            pairs: [pair('cursor-2', [h(1, 1, 1, 1)], [])],
          }),
        ],
      });
      assert.equal(exact.files[0].basis, 'countMatch');
      assert.deepEqual(exact.files[0].ranges, [
        { start: 1, end: 1, interactionKey: 'cursor-2' },
        { start: 4, end: 6, interactionKey: 'codex-1' },
      ]);
      // two unpaired interactions ⇒ still null (no guess between them)
      const two = commitAttribution({
        hasEditData: true,
        files: [
          file('f2.txt', {
            byAi: true,
            committedBlob: 'final',
            diff1: [h(1, 1, 1, 1), h(4, 3, 4, 1)],
            edits: [
              { ...mixed[0], editAdded: 2 },
              { interactionKey: 'codex-3', agent: 'codex', postBlob: 'p3', editAdded: 1, editDeleted: 0 },
              mixed[1],
            ],
            pairs: [pair('cursor-2', [h(1, 1, 1, 1)], [])],
          }),
        ],
      });
      assert.deepEqual(
        two.files[0].ranges.map((x) => x.interactionKey),
        ['cursor-2', null],
      );
    });
    it('every edit has a full pair ⇒ no upgrade: a person’s change between two agent edits that keeps the counts stays the person’s (#15)', () => {
      // x = 1 / y = 2 written by edit 1 (lines 3–4), the person retypes line 3, edit 2 adds z (line 6):
      // edit counts 2 + 1 = committed 3 added, committed = post of edit 2 — the upgrade would claim line 3
      const claude = [
        { interactionKey: 't1', agent: 'claude', postBlob: 'p1', editAdded: 2, editDeleted: 0 },
        { interactionKey: 't1', agent: 'claude', postBlob: 'final', editAdded: 1, editDeleted: 0 },
      ];
      const pairs = [pair('t1', [h(3, 2), h(6, 1)], [h(3, 1), h(6, 1)]), { ...pair('t1', [h(6, 1)], []), pairId: 't1-pair-2' }];
      const r = commitAttribution({
        hasEditData: true,
        files: [file('conf.txt', { byAi: true, committedBlob: 'final', diff1: [h(3, 2, 2, 0), h(6, 1, 3, 0)], edits: claude, pairs })],
      });
      assert.equal(r.files[0].basis, 'pairs');
      assert.deepEqual(r.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } });
      assert.deepEqual(r.files[0].ranges, [
        { start: 4, end: 4, interactionKey: 't1' },
        { start: 6, end: 6, interactionKey: 't1' },
      ]);
    });
    it('counts match but committed ≠ last post ⇒ no upgrade; deleted count mismatch ⇒ no upgrade', () => {
      const stale = commitAttribution({
        hasEditData: true,
        files: [file('c.ts', { byAi: true, committedBlob: 'other', diff1: [h(1, 3, 1, 1)], edits })],
      });
      assert.equal(stale.summary, 'commitFallback');
      const deletedOff = commitAttribution({
        hasEditData: true,
        files: [file('c.ts', { byAi: true, committedBlob: 'final', diff1: [h(1, 3, 1, 2)], edits })],
      });
      // Still committed = post and the added sum covers the added lines: our post-match evidence applies.
      assert.equal(deletedOff.files[0].level, 'evidence');
      assert.equal(deletedOff.summary, 'perFile');
    });
  });

  describe('post-match evidence (ours)', () => {
    it('all added lines AI, owner = the only interaction', () => {
      const r = commitAttribution({
        hasEditData: true,
        files: [
          file('n.ts', {
            byAi: true,
            committedBlob: 'b',
            diff1: [h(1, 4)],
            edits: [
              { interactionKey: 't3', agent: 'codex', postBlob: 'a' },
              { interactionKey: 't3', agent: 'codex', postBlob: 'b' },
            ],
          }),
        ],
      });
      assert.equal(r.summary, 'perFile');
      assert.deepEqual(r.files[0].ranges, [{ start: 1, end: 4, interactionKey: 't3' }]);
      assert.deepEqual(r.contributingInteractionKeys, ['t3']);
    });
    it('several interactions ⇒ owner null; only the last post blob counts', () => {
      const edits = [
        { interactionKey: 't1', agent: 'codex', postBlob: 'b' },
        { interactionKey: 't2', agent: 'codex', postBlob: 'c' },
      ];
      const last = commitAttribution({
        hasEditData: true,
        files: [file('n.ts', { byAi: true, committedBlob: 'c', diff1: [h(1, 1)], edits })],
      });
      assert.deepEqual(last.files[0].ranges, [{ start: 1, end: 1, interactionKey: null }]);
      const notLast = commitAttribution({
        hasEditData: true,
        files: [file('n.ts', { byAi: true, committedBlob: 'b', diff1: [h(1, 1)], edits })],
      });
      assert.equal(notLast.files[0].level, 'unknown');
    });
    it('edit counts that cannot explain the added lines contradict the evidence', () => {
      const edits = [{ interactionKey: 't1', agent: 'cursor', postBlob: 'b', editAdded: 1, editDeleted: 0 }];
      const r = commitAttribution({
        hasEditData: true,
        files: [file('n.ts', { byAi: true, committedBlob: 'b', diff1: [h(1, 2)], edits })],
      });
      assert.equal(r.files[0].level, 'unknown');
      // An edit without counts leaves the sum open: evidence again.
      const open = commitAttribution({
        hasEditData: true,
        files: [
          file('n.ts', {
            byAi: true,
            committedBlob: 'b',
            diff1: [h(1, 2)],
            edits: [{ interactionKey: 't0', agent: 'claude', postBlob: 'x' }, ...edits],
          }),
        ],
      });
      assert.equal(open.files[0].level, 'evidence');
    });
  });

  it('noteFiles writes v1 keys in order and maps ranges to interaction indexes (re-merged)', () => {
    const r = commitAttribution({
      hasEditData: true,
      files: [
        file('a.ts', { byAi: true, diff1: [h(1, 4)], pairs: [pair('t1', [h(1, 2)]), pair('t2', [h(3, 2)])] }),
        file('g.ts', { byAi: false, generated: true, ignored: true }),
      ],
    });
    const index = (k: string | null): number | null => (k === 't1' ? 0 : k === 't2' ? 0 : null);
    const files = noteFiles(r, index);
    assert.deepEqual(files, [
      { path: 'a.ts', by_ai: true, ai_ranges: [{ start: 1, end: 4, interaction: 0 }] },
      { path: 'g.ts', by_ai: false, generated: true, ai_ratio_excluded: true },
    ]);
    assert.deepEqual(Object.keys(files[1]), ['path', 'by_ai', 'generated', 'ai_ratio_excluded']);
    assert.deepEqual(noteFiles(r, () => null)[0].ai_ranges, [{ start: 1, end: 4, interaction: null }]);
    assert.deepEqual(noteFiles(r, index, { ranges: false })[0], { path: 'a.ts', by_ai: true });
  });

  it('keyedAttribution keeps interaction keys for the note builder', () => {
    const r = commitAttribution({
      hasEditData: true,
      files: [
        file('a.ts', { byAi: true, diff1: [h(1, 2)], pairs: [pair('t1', [h(1, 1)]), pair('t2', [h(2, 1)])] }),
        file('d/x.js', { ignored: true }),
      ],
    });
    assert.deepEqual(keyedAttribution(r), {
      files: [
        {
          path: 'a.ts',
          by_ai: true,
          ai_ranges: [
            { start: 1, end: 1, interactionKey: 't1' },
            { start: 2, end: 2, interactionKey: 't2' },
          ],
        },
        { path: 'd/x.js', by_ai: false, ai_ratio_excluded: true },
      ],
      attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } },
    });
  });

  it('countTextLines / countEditLines follow the CLI rules', () => {
    assert.equal(countTextLines(''), 0);
    assert.equal(countTextLines('\n'), 1);
    assert.equal(countTextLines('\r\n'), 1);
    assert.equal(countTextLines('a'), 1);
    assert.equal(countTextLines('a\n'), 1);
    assert.equal(countTextLines('a\nb'), 2);
    assert.equal(countTextLines('a\r\nb\r\n'), 2);
    assert.equal(countTextLines('a\n\n'), 2);
    assert.equal(countTextLines('a\rb'), 1);
    assert.deepEqual(
      countEditLines([
        { oldString: '', newString: 'hello\nworld\n' },
        { oldString: 'x', newString: 'y\nz' },
      ]),
      { added: 4, deleted: 1 },
    );
    assert.equal(countEditLines([{ oldString: '', newString: '' }]), undefined);
    assert.equal(countEditLines([]), undefined);
  });
});
