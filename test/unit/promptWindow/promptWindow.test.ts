import * as assert from 'node:assert/strict';
import {
  capRows,
  consumedStateFromMarkers,
  markerToCommittedPairLine,
  resolvePrimaryTurns,
  scorePromptFileRefs,
  scorePromptShape,
  scorePromptTextOverlap,
  selectPromptWindow,
  selectTranscriptPrimaryTurns,
  type PromptCandidate,
  type PromptWindowInput,
  type TranscriptEditRow,
} from '../../../src/core/notes/promptWindow';
import { noConsumed, primary, row, sig } from './helpers';

function run(
  rows: PromptCandidate[],
  upperTurn: number,
  commit = sig('fix: update target', ['target.ts']),
  extra: Partial<PromptWindowInput> = {},
) {
  return selectPromptWindow({ rows, consumed: noConsumed, upperTurn, commit, ...extra });
}
const prompts = (r: ReturnType<typeof run>): string[] => r.selected.map((s) => s.row.prompt);
const consumed = (maxConsumedTurn: number, tails: string[] = []) => ({ maxConsumedTurn, tailPromptIds: new Set(tails) });

describe('promptWindow', () => {
  describe('metrics', () => {
    it('scores shape from length, newlines, code, paths, flags and lists', () => {
      assert.equal(scorePromptShape(''), 0);
      assert.equal(scorePromptShape('continue'), 2);
      assert.equal(scorePromptShape('x'.repeat(200)), 24);
      assert.equal(scorePromptShape('a\nb\nc\nd\ne'), 2 + 30);
      assert.equal(scorePromptShape('run `npm test` on src/a.ts with --watch'), 9 + 18 + 16 + 14);
      assert.equal(scorePromptShape('todo:\n- one'), 2 + 10 + 20);
    });

    it('scores file references: exact path, ≥4-char segments and basename, case-insensitive', () => {
      assert.equal(scorePromptFileRefs('fix SRC/Routes.ts', ['src/routes.ts']), 80 + 5 + 20);
      assert.equal(scorePromptFileRefs('the routes module', ['src/routes.ts']), 5);
      assert.equal(scorePromptFileRefs('src only', ['src/routes.ts']), 0);
      assert.equal(scorePromptFileRefs('packages and index', ['packages/pr-report/src/index.ts', 'b.md']), 10);
    });

    it('scores text overlap with subject and paths (+4 path-like, +1 word)', () => {
      const s = sig('refactor(repo): split pr report and dashboard logic', ['packages/pr-report/src/index.ts']);
      assert.equal(scorePromptTextOverlap('review the previous PR one last time', s), 1);
      // the path itself (+4) and its parts packages, report, src, index (+1 each)
      assert.equal(scorePromptTextOverlap('see packages/pr-report/src/index.ts for the report', s), 4 + 1 + 1 + 1 + 1);
    });
  });

  describe('single primary prompt', () => {
    it('selects it with its signals and records one window marker', () => {
      const r = run([primary(1, 'Update target.ts to export a flag', ['target.ts'], { response: 'Updated target.ts.' })], 1);
      assert.deepEqual(
        r.selected.map((s) => [s.row.key, s.source, s.beforeCommitBoundary, s.selection]),
        [
          [
            'claude:s1:1',
            'primary',
            true,
            {
              schema: 1,
              source: 'primary',
              signals: [
                'primary_edit_turn',
                'exact_commit_path',
                'commit_file_basename',
                'response_exact_commit_path',
                'response_basename_or_identifier',
                'commit_subject_overlap',
                'substantive_prompt_shape',
                'before_commit_boundary',
              ],
            },
          ],
        ],
      );
      assert.deepEqual(r.markers, [{ key: 'claude:s1:1', sessionId: 's1', turn: 1, promptId: 'p1', scope: 'window' }]);
      assert.deepEqual(markerToCommittedPairLine(r.markers[0]), {
        turn: 1,
        prompt_id: 'p1',
        file: null,
        prompt_scope: 'window',
        change_id: null,
        tool_use_id: null,
      });
    });

    it('uses the newest known turn when the current turn is unknown', () => {
      const r = run([primary(1, 'update target.ts', ['target.ts']), row(2, 'create the PR')], 0);
      assert.equal(r.upperTurn, 2);
      assert.deepEqual(
        r.selected.map((x) => [x.row.turn, x.source, x.beforeCommitBoundary]),
        [
          [1, 'primary', false],
          [2, 'tail', true],
        ],
      );
    });

    it('selects nothing without a primary row', () => {
      const r = run([row(1, 'just chatting about target.ts')], 1);
      assert.deepEqual(r.selected, []);
      assert.deepEqual(r.markers, []);
    });
  });

  describe('window policy', () => {
    it('keeps a question-only turn before a short primary "go ahead"', () => {
      const s = sig('feat: add Cart class with line items', ['src/cart.ts', 'src/index.ts']);
      const r = run(
        [
          row(1, 'How should line items for a cart be modelled? Do not write code yet.', {
            response: 'A Cart in src/cart.ts holding LineItem values.',
          }),
          primary(2, 'Sounds good, go ahead.', ['src/cart.ts']),
        ],
        2,
        s,
      );
      assert.deepEqual(
        r.selected.map((x) => [x.row.turn, x.source, x.selection?.signals]),
        [
          [
            1,
            'window',
            ['response_exact_commit_path', 'response_basename_or_identifier', 'commit_subject_overlap', 'substantive_prompt_shape'],
          ],
          [2, 'primary', ['primary_edit_turn', 'before_commit_boundary', 'between_non_excluded_prompts']],
        ],
      );
    });

    it('trims stale leading chatter before the first anchor', () => {
      const rows = [
        row(356, 'review the previous PR one last time'),
        row(357, 'was that branch pushed?'),
        row(358, 'the merge is done, switch back to main'),
        row(359, 'do you remember the packages redesign discussion?'),
        row(360, 'cut a branch and start the work'),
        row(361, 'do not keep backward compatibility; remove obsolete paths'),
        row(362, 'c'),
        primary(
          363,
          'after implementation, check:\n- no missing implementation\n- CLI agents still work\n- docs, README, CLAUDE.md, AGENTS.md, and website locales are updated',
          ['packages/pr-report/src/index.ts'],
        ),
      ];
      const r = selectPromptWindow({
        rows,
        consumed: consumed(355),
        upperTurn: 363,
        commit: sig('refactor(repo): split pr report and dashboard logic', ['packages/pr-report/src/index.ts']),
      });
      assert.deepEqual(
        r.selected.map((x) => x.row.turn),
        [359, 360, 361, 363],
      );
      assert.deepEqual(
        r.rows.map((x) => [x.turn, x.outcome]),
        [
          [356, 'beforeAnchor'],
          [357, 'beforeAnchor'],
          [358, 'beforeAnchor'],
          [359, 'selected'],
          [360, 'selected'],
          [361, 'selected'],
          [362, 'filtered'],
          [363, 'selected'],
        ],
      );
      // Every row of the bounded window is consumed, selected or not.
      assert.deepEqual(
        r.markers.map((m) => m.turn),
        [356, 357, 358, 359, 360, 361, 362, 363],
      );
    });

    it('keeps up to two weak leading rows as soft context', () => {
      const rows = [row(1, 'hi there'), row(2, 'one more thing'), primary(3, 'update target.ts', ['target.ts'])];
      assert.deepEqual(prompts(run(rows, 3)), ['hi there', 'one more thing', 'update target.ts']);
    });

    it('drops quoted prompt history and starts after it', () => {
      const rows = [
        row(
          366,
          'In the current PR, the first prompt was\n\n🧑 Prompt: old split prompt\n\n🤖 Response: old response\n  with quoted lines\n\nWhy was it not selected?',
        ),
        row(368, 'For now, review the PR scope later'),
        row(369, '@.github/workflows/agentnote-dashboard.yml\n\nWhy is this much larger than the report workflow?'),
        row(370, 'fix it'),
        primary(371, 'improve it', ['.github/workflows/agentnote-dashboard.yml']),
      ];
      const r = selectPromptWindow({
        rows,
        consumed: consumed(365),
        upperTurn: 371,
        commit: sig('fix(workflow): hide dashboard package paths', ['.github/workflows/agentnote-dashboard.yml']),
      });
      assert.deepEqual(
        r.selected.map((x) => x.row.turn),
        [369, 370, 371],
      );
      assert.deepEqual(
        r.rows.slice(0, 2).map((x) => [x.turn, x.quoted, x.outcome]),
        [
          [366, true, 'hardTrimmed'],
          [368, false, 'beforeAnchor'],
        ],
      );
    });

    it('keeps a quoted-looking primary prompt', () => {
      const review = [
        'Validation result: 15/16 passed.',
        '',
        ...Array.from({ length: 10 }, (_, i) => `  R${i} ${'detail '.repeat(8)}`),
        '',
        'Update record.test.ts.',
      ].join('\n');
      const r = run([primary(548, review, ['record.test.ts'])], 548, sig('test: cover prompt selection', ['record.test.ts']), {
        consumed: consumed(547),
      });
      assert.deepEqual(
        r.selected.map((x) => [x.row.turn, x.source]),
        [[548, 'primary']],
      );
      assert.equal(r.rows[0].quoted, true);
    });

    it('marks bridge prompts only next to a non-excluded prompt', () => {
      const r = run([row(1, 'c'), row(2, 'continue'), primary(3, 'update target.ts', ['target.ts'])], 3);
      assert.deepEqual(prompts(r), ['continue', 'update target.ts']);
      assert.deepEqual(r.selected[0].selection?.signals, ['between_non_excluded_prompts']);
    });

    it('does not let stale prompts before the consumed turn leak into the window', () => {
      const rows = [
        primary(1, 'rewrite target.ts completely', ['target.ts'], { isPrimary: false, hasEdits: false }),
        row(2, 'also explain target.ts'),
        row(3, 'thanks'),
        row(4, 'now make the flag configurable'),
        primary(5, 'go', ['target.ts']),
      ];
      const r = run(rows, 5, undefined, { consumed: consumed(3) });
      assert.deepEqual(prompts(r), ['now make the flag configurable', 'go']);
      assert.deepEqual(
        r.rows.map((x) => x.turn),
        [4, 5],
      );
      assert.deepEqual(
        r.markers.map((m) => m.turn),
        [4, 5],
      );
    });

    it('keeps an out-of-window primary (its lines are in this commit) also when the window explains the commit (issue #15)', () => {
      const s = sig('feat: split commit', ['a.ts', 'b.ts']);
      const old = primary(2, 'write a.ts and b.ts', ['a.ts']);
      const explained = run([old, row(3, 'hmm'), primary(4, 'now finish b.ts', ['b.ts'])], 4, s, { consumed: consumed(2) });
      // the CLI drops turn 2 here, and a.ts's lines then point at no interaction
      assert.deepEqual(
        explained.selected.map((x) => [x.row.turn, x.source]),
        [
          [2, 'primary'],
          [4, 'primary'],
        ],
      );
      assert.deepEqual(
        explained.rows.map((x) => [x.turn, x.outcome]),
        [
          [2, 'selected'],
          [3, 'staleLeading'],
          [4, 'selected'],
        ],
      );
      const carried = run([old, row(3, 'ok'), row(4, 'y')], 4, s, { consumed: consumed(2) });
      assert.deepEqual(
        carried.selected.map((x) => [x.row.turn, x.source]),
        [[2, 'primary']],
      );
    });

    it('trims stale leading rows after a stale primary until the current task starts', () => {
      const s = sig('feat: parser', ['p.ts']);
      const r = run(
        [
          primary(1, 'write p.ts', ['p.ts']),
          row(2, 'unrelated small talk about lunch'),
          row(3, 'implement the parser now:\n- numbers\n- strings'),
          primary(4, 'ok', ['p.ts']),
        ],
        4,
        s,
        { consumed: consumed(1) },
      );
      assert.deepEqual(
        r.rows.map((x) => [x.turn, x.outcome]),
        [
          [1, 'selected'],
          [2, 'staleLeading'],
          [3, 'selected'],
          [4, 'selected'],
        ],
      );
    });
  });

  describe('tail rows', () => {
    it('records tail markers and keeps only anchored or boundary tails', () => {
      const r = run(
        [
          primary(1, 'update target.ts', ['target.ts']),
          row(2, 'explain target.ts change'),
          row(3, 'nice weather today'),
          row(4, 'create the PR'),
        ],
        4,
        sig('fix: target tail context', ['target.ts']),
      );
      assert.deepEqual(
        r.selected.map((x) => [x.row.turn, x.source, x.beforeCommitBoundary]),
        [
          [1, 'primary', false],
          [2, 'tail', false],
          [4, 'tail', true],
        ],
      );
      assert.deepEqual(
        r.markers.map((m) => [m.turn, m.scope]),
        [
          [1, 'window'],
          [2, 'tail'],
          [3, 'tail'],
          [4, 'tail'],
        ],
      );
      // Tail markers do not move the lower bound.
      assert.equal(consumedStateFromMarkers(r.markers.map(markerToCommittedPairLine)).maxConsumedTurn, 1);
    });

    it('drops unanchored tails after a non-primary edit turn', () => {
      const r = run(
        [primary(1, 'update target.ts', ['target.ts']), row(2, 'update future.ts', { hasEdits: true }), row(3, 'create the PR')],
        3,
        sig('fix: target only', ['target.ts']),
      );
      assert.deepEqual(prompts(r), ['update target.ts']);
      assert.deepEqual(
        r.rows.map((x) => [x.turn, x.nonPrimaryEdit, x.behindBarrier, x.outcome]),
        [
          [1, false, false, 'selected'],
          [2, true, false, 'filtered'],
          [3, false, true, 'filtered'],
        ],
      );
    });

    it('does not revive consumed tail prompts, nor treat them as barriers', () => {
      const s = sig('fix: target with boundary prompt', ['target.ts']);
      const r = run([primary(1, 'update target.ts', ['target.ts']), row(2, 'previous tail'), row(3, 'create the PR')], 3, s, {
        consumed: consumed(0, ['p2']),
      });
      assert.deepEqual(prompts(r), ['update target.ts', 'create the PR']);
      assert.equal(r.rows[1].consumedTail, true);
    });

    it('does not revive an old tail as leading context of a later primary', () => {
      const r = run(
        [
          row(1, 'publish scoped npm alias'),
          row(2, 'commit して PR までつくって'),
          primary(3, '自己レビュー', ['.github/workflows/release.yml']),
        ],
        3,
        sig('ci: make npm alias publish rerunnable', ['.github/workflows/release.yml']),
        { consumed: consumed(1, ['p2']) },
      );
      assert.deepEqual(prompts(r), ['自己レビュー']);
      assert.deepEqual(
        r.rows.map((x) => [x.turn, x.outcome]),
        [
          [2, 'hardTrimmed'],
          [3, 'selected'],
        ],
      );
    });

    it('lets a consumed tail prompt become primary later', () => {
      const r = run(
        [row(1, 'update first.ts'), primary(2, 'split remaining file into another commit', ['second.ts'])],
        2,
        sig('feat: add second file', ['second.ts']),
        {
          consumed: consumed(1, ['p2']),
        },
      );
      assert.deepEqual(
        r.selected.map((x) => [x.row.turn, x.source]),
        [[2, 'primary']],
      );
    });

    it('keeps a review tail whose response anchors to the commit', () => {
      const files = ['.github/workflows/release.yml', 'docs/architecture.md'];
      const r = run(
        [
          row(1, 'commit して PR までつくって'),
          primary(2, '自己レビュー', files),
          row(3, '自己レビューを5回やって', { response: '5 回自己レビューしました。release.yml と docs/architecture.md を確認しました。' }),
          row(4, 'commit push'),
        ],
        4,
        sig('ci: make npm alias publish rerunnable', files),
        { consumed: consumed(0, ['p1']) },
      );
      assert.deepEqual(
        r.selected.map((x) => [x.row.turn, x.source]),
        [
          [2, 'primary'],
          [3, 'tail'],
          [4, 'tail'],
        ],
      );
      assert.deepEqual(r.selected[1].selection?.signals, [
        'response_exact_commit_path',
        'response_basename_or_identifier',
        'substantive_prompt_shape',
        'between_non_excluded_prompts',
      ]);
    });

    it('uses windowResponse (hook-event text) for the anchor when given', () => {
      const rows = [
        primary(1, 'update target.ts', ['target.ts']),
        row(2, 'and double check it', { response: 'Checked target.ts.', windowResponse: null }),
        row(3, 'bye'),
      ];
      assert.deepEqual(prompts(run(rows, 4)), ['update target.ts']);
      rows[1] = { ...rows[1], windowResponse: undefined };
      assert.deepEqual(prompts(run(rows, 4)), ['update target.ts', 'and double check it']);
    });
  });

  describe('24-row cap', () => {
    it('keeps the first row, every primary and the newest rows', () => {
      const rows: PromptCandidate[] = [];
      for (let t = 101; t <= 140; t++) {
        rows.push(
          t === 110
            ? primary(t, 'primary implementation prompt for target.ts', ['target.ts'])
            : row(t, `context prompt ${t} for target.ts`),
        );
      }
      const r = run(rows, 140, sig('fix: trim prompt window', ['target.ts', 'tail.ts']), { consumed: consumed(100) });
      assert.deepEqual(
        r.selected.map((x) => x.row.turn),
        [101, 110, ...Array.from({ length: 22 }, (_, i) => 119 + i)],
      );
      assert.equal(r.rows.filter((x) => x.outcome === 'capped').length, 16);
      assert.equal(r.markers.length, 40);
    });

    it('capRows keeps order and every primary even beyond the cap', () => {
      const items = Array.from({ length: 30 }, (_, i) => ({ i, p: i % 2 === 1 }));
      assert.deepEqual(
        capRows(items, (x) => x.p).map((x) => x.i),
        [0, 1, 3, 5, 7, 9, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
      );
      assert.deepEqual(
        capRows(items.slice(0, 3), (x) => x.p).map((x) => x.i),
        [0, 1, 2],
      );
    });
  });

  describe('fallback mode', () => {
    it('selects prompt-only context with source fallback up to the latest prompt', () => {
      const r = run(
        [row(1, 'old'), row(2, 'make the units helper configurable'), row(3, 'and cover it with tests'), row(5, 'later')],
        3,
        sig('feat: configurable units helper', ['src/units.ts']),
        { consumed: consumed(1), mode: 'fallback' },
      );
      assert.deepEqual(
        r.selected.map((x) => [x.row.turn, x.source, x.beforeCommitBoundary]),
        [
          [2, 'fallback', false],
          [3, 'fallback', true],
        ],
      );
      assert.equal(run([row(1, 'old')], 1, undefined, { consumed: consumed(1), mode: 'fallback' }).selected.length, 0);
    });
  });

  describe('consumed state and primary turns', () => {
    it('derives the lower bound and tail ids from committed pairs, skipping bad lines', () => {
      const state = consumedStateFromMarkers([
        { turn: 2, file: 'a.ts', change_id: null, tool_use_id: 't1' },
        { turn: 3, prompt_id: 'p3', file: null, prompt_scope: 'window', change_id: null, tool_use_id: null },
        { turn: 7, prompt_id: 'p7', file: null, prompt_scope: 'tail', change_id: null, tool_use_id: null },
        { turn: 'x' },
        null,
      ]);
      assert.deepEqual(state, { maxConsumedTurn: 3, tailPromptIds: new Set(['p7']), skipped: 2 });
    });

    it('resolves primary turns: contributing, else latest per file, else none', () => {
      const fileTurns = new Map([
        [1, ['a.ts', 'b.ts']],
        [2, ['a.ts']],
        [3, ['c.ts']],
      ]);
      assert.deepEqual([...resolvePrimaryTurns([4, 0], fileTurns)], [4]);
      assert.deepEqual([...resolvePrimaryTurns([], fileTurns)].sort(), [1, 2, 3]);
      assert.deepEqual(
        [
          ...resolvePrimaryTurns(
            [],
            new Map([
              [1, ['a.ts']],
              [2, ['a.ts']],
            ]),
          ),
        ],
        [2],
      );
      assert.deepEqual([...resolvePrimaryTurns([], new Map())], []);
    });

    it('selects the newest transcript suffix whose line stats equal the commit (docs/note-format.md §3.5)', () => {
      const files = new Set(['a.ts', 'b.ts']);
      const matched: TranscriptEditRow[] = [
        { turn: 1, lineStats: { 'a.ts': { added: 5, deleted: 0 } } },
        { turn: 2, lineStats: { 'a.ts': { added: 2, deleted: 1 } } },
        { turn: 3, lineStats: { 'b.ts': { added: 4, deleted: 0 }, 'other.ts': { added: 9, deleted: 9 } } },
      ];
      const counts = new Map([
        ['a.ts', { added: 2, deleted: 1 }],
        ['b.ts', { added: 4, deleted: 0 }],
      ]);
      assert.deepEqual([...selectTranscriptPrimaryTurns(matched, counts, files)].sort(), [2, 3]);
      const noMatch = new Map([
        ['a.ts', { added: 1, deleted: 1 }],
        ['b.ts', { added: 4, deleted: 0 }],
      ]);
      assert.deepEqual([...selectTranscriptPrimaryTurns(matched, noMatch, files)].sort(), [1, 2, 3]);
      assert.deepEqual([...selectTranscriptPrimaryTurns(matched, new Map([['a.ts', { added: 2, deleted: 1 }]]), files)].sort(), [1, 2, 3]);
    });
  });
});
