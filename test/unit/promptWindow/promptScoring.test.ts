import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AgentNoteV1, NoteInteraction, SelectionSource } from '../../../src/core/notes/noteTypes';
import {
  evaluatePrompt,
  filterInteractionsByDetail,
  resolvePromptLevel,
  scorePrompt,
  visibleInteractionIndexes,
} from '../../../src/core/notes/promptScoring';
import { collectSelectionSignals } from '../../../src/core/notes/selectionSignals';
import { peerNotePath, sig } from './helpers';

/** Signals as the window would store them, then the render-time evaluation. */
function evaluate(prompt: string, source: SelectionSource, files: string[], subject: string, patch = '', boundary = false) {
  const signals = collectSelectionSignals(
    { prompt, response: null, source, beforeCommitBoundary: boundary, adjacentNonExcluded: true },
    sig(subject, files, patch),
  );
  return { signals, ...evaluatePrompt({ prompt, selection: { schema: 1, source, signals } }) };
}

describe('promptScoring', () => {
  it('scores a prompt naming the commit path and identifier as a high direct anchor', () => {
    const r = evaluate(
      'Update packages/cli/src/core/record.ts and analyzePromptSelection',
      'window',
      ['packages/cli/src/core/record.ts'],
      'fix(record): score prompt selection',
      '+analyzePromptSelection',
    );
    assert.deepEqual([r.role, r.score, r.level], ['direct_anchor', 95, 'high']);
  });

  it('scores a basename-only short tail as a medium anchored bridge', () => {
    const r = evaluate('README.md', 'tail', ['docs/README.md'], 'docs: update readme', '', true);
    assert.deepEqual([r.role, r.score, r.level], ['anchored_bridge', 65, 'medium']);
  });

  it('keeps short substantive CJK bridges at medium and short operational bridges at low', () => {
    const subject = 'fix: tune prompt selection';
    const files = ['packages/cli/src/core/record.ts'];
    assert.deepEqual(
      [evaluate('今後の汎用性、調整も考えてプロンプトのスコアリングは必要かもね', 'window', files, subject)].map((r) => [
        r.role,
        r.score,
        r.level,
      ]),
      [['bridge', 45, 'medium']],
    );
    assert.deepEqual(
      [evaluate('できれば出したいだけど。。', 'window', files, subject)].map((r) => [r.role, r.level]),
      [['bridge', 'medium']],
    );
    const op = evaluate('please commit and push now', 'window', files, subject);
    assert.deepEqual([op.signals, op.role, op.score, op.level], [['between_non_excluded_prompts'], 'bridge', 33, 'low']);
  });

  it('treats a 13-word prompt as background, not as a bridge', () => {
    const r = evaluate(
      'one two three four five six seven eight nine ten eleven twelve thirteen',
      'window',
      ['a.ts'],
      'fix: tune prompt selection',
    );
    assert.deepEqual([r.role, r.score, r.level], ['background', 27, 'low']);
  });

  it('gives legacy interactions (no selection) score 100 and primaries at least 80', () => {
    assert.deepEqual(evaluatePrompt({ prompt: 'anything' }), { role: 'primary', score: 100, level: 'high' });
    assert.deepEqual(evaluatePrompt({ prompt: 'ok', selection: { schema: 1, source: 'primary', signals: [] } }), {
      role: 'primary',
      score: 90,
      level: 'high',
    });
    assert.equal(scorePrompt('primary', []), 90);
    assert.equal(scorePrompt('primary', ['exact_commit_path', 'diff_identifier']), 100);
  });

  it('caps unanchored tails at 44 and recomputes substantive shape at render time', () => {
    assert.deepEqual(
      evaluatePrompt({
        prompt: 'Looks good, commit it.',
        selection: { schema: 1, source: 'tail', signals: ['before_commit_boundary', 'between_non_excluded_prompts'] },
      }),
      { role: 'tail', score: 44, level: 'low' },
    );
    // Stored without substantive_prompt_shape, but the prompt has 7 words: +12 and a structural anchor.
    assert.deepEqual(
      evaluatePrompt({
        prompt: 'please also commit it with a message',
        selection: { schema: 1, source: 'tail', signals: ['before_commit_boundary'] },
      }),
      { role: 'tail', score: 62, level: 'medium' },
    );
    assert.equal(resolvePromptLevel('scope', 75), 'high');
    assert.equal(resolvePromptLevel('scope', 74), 'medium');
    assert.equal(resolvePromptLevel('anchored_bridge', 44), 'low');
  });

  it('ignores unknown signal names in hand-edited notes', () => {
    const bogus = {
      prompt: 'x y',
      selection: { schema: 1, source: 'window', signals: ['nonsense', 'before_commit_boundary'] },
    } as unknown as NoteInteraction;
    assert.deepEqual(evaluatePrompt(bogus), { role: 'background', score: 20, level: 'low' });
  });

  it('compact view of the peer notes: hides the tail "commit it" and the background question', () => {
    const paginate = JSON.parse(readFileSync(peerNotePath('todo-api', 'feat-paginate-get-todos-with-a-cursor'), 'utf8')) as AgentNoteV1;
    assert.deepEqual(visibleInteractionIndexes(paginate.interactions, 'compact'), [0, 1, 2]);
    assert.deepEqual(visibleInteractionIndexes(paginate.interactions, 'full'), [0, 1, 2, 3]);
    const cart = JSON.parse(readFileSync(peerNotePath('shop-cart', 'feat-add-cart-class-with-line-items'), 'utf8')) as AgentNoteV1;
    assert.deepEqual(
      cart.interactions.map((i) => evaluatePrompt(i)),
      [
        { role: 'background', score: 30, level: 'low' },
        { role: 'primary', score: 100, level: 'high' },
      ],
    );
    assert.deepEqual(visibleInteractionIndexes(cart.interactions, 'compact'), [1]);
  });

  it('compact hides external review prompts absorbed by a later primary edit', () => {
    const review: NoteInteraction = {
      prompt: 'please review https://github.com/o/r/pull/12 and tell me what you think',
      response: 'It touches src/a.ts.',
      selection: {
        schema: 1,
        source: 'window',
        signals: [
          'response_exact_commit_path',
          'response_basename_or_identifier',
          'substantive_prompt_shape',
          'between_non_excluded_prompts',
        ],
      },
    };
    const edit: NoteInteraction = {
      prompt: 'fix it',
      response: null,
      files_touched: ['src/a.ts'],
      selection: { schema: 1, source: 'primary', signals: ['primary_edit_turn'] },
    };
    assert.equal(evaluatePrompt(review).level, 'medium');
    assert.deepEqual(filterInteractionsByDetail([review, edit], 'compact'), [edit]);
    assert.deepEqual(filterInteractionsByDetail([edit, review], 'compact'), [edit, review]);
    assert.deepEqual(filterInteractionsByDetail([{ ...review, files_touched: ['src/a.ts'] }, edit], 'compact').length, 2);
  });
});
