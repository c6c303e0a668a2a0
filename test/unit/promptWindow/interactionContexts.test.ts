import * as assert from 'node:assert/strict';
import {
  composeContexts,
  countLiteralHits,
  normalizeInteractionContexts,
  selectReferenceContext,
  selectScopeContext,
  splitParagraphs,
  splitScopeSentences,
  toReferenceContext,
  type RankedContext,
} from '../../../src/core/notes/interactionContexts';
import { sig } from './helpers';

const recordSig = sig(
  'preserve primary rows',
  ['packages/cli/src/core/record.ts'],
  '+const isQuotedPromptHistory = true;\n+const PROMPT_WINDOW_LIMIT = 2;\n',
);
const ref = (prompt: string, previousResponse: string | null, previousTurnSelected = false) =>
  selectReferenceContext({ prompt, previousResponse, previousTurnSelected }, recordSig);

describe('interactionContexts', () => {
  describe('splitting', () => {
    it('splits paragraphs on blank lines but not inside code fences', () => {
      assert.deepEqual(splitParagraphs('one\ntwo  \n\n\n```ts\na\n\nb\n```\n\nthree\n'), ['one\ntwo', '```ts\na\n\nb\n```', 'three']);
    });

    it('splits scope sentences, keeping file dots, backticks and CJK punctuation', () => {
      assert.deepEqual(splitScopeSentences('Added `a. b` to src/cart.ts today. Done! Really? 好。了'), [
        'Added `a. b` to src/cart.ts today.',
        'Added `a. b` to src/cart.ts today. Done!',
        'Done!',
        'Done! Really?',
        'Really?',
        'Really? 好。',
        '好。',
      ]);
    });

    it('keeps a sentence end that is followed closely by a dotted name (peer heuristic)', () => {
      assert.deepEqual(splitScopeSentences('It works. See src/index.ts for details.'), ['It works. See src/index.ts for details.']);
    });

    it('strips list and quote markers and reads only the first 10 lines', () => {
      const lines = ['- First item', '> quoted', '2) second', ...Array.from({ length: 10 }, (_, i) => `line${i}`)];
      assert.deepEqual(splitScopeSentences(lines.join('\n')), ['First item quoted second line0 line1 line2 line3 line4 line5 line6']);
    });
  });

  describe('reference context', () => {
    it('attaches the paragraph anchored by a committed path', () => {
      assert.equal(
        ref(
          '本当にこの修正で改善できるのか',
          '原因は packages/cli/src/core/record.ts の window trimming です。\n\nThis second paragraph is unrelated.',
        ),
        '原因は packages/cli/src/core/record.ts の window trimming です。',
      );
    });

    it('attaches the paragraph anchored by a diff identifier', () => {
      assert.equal(
        ref('does this approach still hold?', 'The failure comes from isQuotedPromptHistory removing a primary row.'),
        'The failure comes from isQuotedPromptHistory removing a primary row.',
      );
    });

    it('needs a path, basename or identifier: subject words and go-ahead wording are not enough', () => {
      assert.equal(ref('continue', 'This should preserve primary rows in the prompt window.'), undefined);
      assert.equal(ref('yes, do it', 'Ready to continue with the next implementation step.'), undefined);
      assert.equal(ref('continue', null), undefined);
    });

    it('is skipped when the prompt is anchored itself or the previous turn is in the note', () => {
      assert.equal(ref('fix record.ts', 'record.ts contains the relevant code.'), undefined);
      assert.equal(ref('still risky', 'The isQuotedPromptHistory change.', true), undefined);
    });

    it('rejects noise, headings, intros, broken fences and local absolute paths', () => {
      assert.equal(
        ref('continue', 'working tree is clean after touching record.ts\n\nrecord.ts still contains the selector.'),
        'record.ts still contains the selector.',
      );
      assert.equal(ref('continue', 'CI passed for record.ts'), undefined);
      assert.equal(ref('continue', '## record.ts changes'), undefined);
      assert.equal(ref('continue', 'These files changed in record.ts:'), undefined);
      assert.equal(ref('continue', '```ts\nconst v = isQuotedPromptHistory(p);\n\nNo other anchor.'), undefined);
      assert.equal(ref('continue', 'The issue is in /home/ann/project/packages/cli/src/core/record.ts.'), undefined);
    });

    it('ranks exact paths over basenames over identifiers and keeps the top two in original order', () => {
      assert.equal(
        ref(
          'continue',
          'The function isQuotedPromptHistory is related.\n\nThe basename record.ts is more concrete.\n\nThe exact path packages/cli/src/core/record.ts is best.',
        ),
        'The basename record.ts is more concrete.\n\nThe exact path packages/cli/src/core/record.ts is best.',
      );
    });

    it('uses subject tokens only as a tie-breaker', () => {
      assert.equal(
        ref('continue', 'record.ts has generic details.\n\nrecord.ts should preserve primary rows.\n\nrecord.ts has another paragraph.'),
        'record.ts has generic details.\n\nrecord.ts should preserve primary rows.',
      );
    });

    it('drops paragraphs that do not fit into 900 characters instead of truncating them', () => {
      const long = `record.ts ${'x'.repeat(880)}`;
      const short = 'The exact path packages/cli/src/core/record.ts matters.';
      assert.equal(ref('continue', `${long}\n\n${short}`), long);
      assert.equal(ref('continue', `${short}\n\n${long}`), short);
      assert.equal(ref('continue', `record.ts ${'y'.repeat(900)}`), undefined);
    });
  });

  describe('scope context', () => {
    const scope = (prompt: string, response: string | null, s = recordSig) => selectScopeContext({ prompt, response }, s);

    it('attaches an identifier tied to a subject token', () => {
      const s = sig('feat: markdown renderer', ['src/render.ts'], '+function renderMarkdownInto() {}\n');
      assert.deepEqual(scope('これが最後かな', 'I will implement the markdown renderer with renderMarkdownInto.', s), {
        kind: 'scope',
        source: 'current_response',
        text: 'I will implement the markdown renderer with renderMarkdownInto.',
        // 2 × one identifier + 2 × scoped title (markdown, renderer)
        rank: 4,
      });
    });

    it('rejects identifiers alone, a file path alone and a PR reference alone', () => {
      const s = sig('feat: scoped contexts', ['packages/cli/src/core/record.ts'], '+selectInteractionContext(InteractionContext)\n');
      assert.equal(
        scope('review five times', 'The third pass checks selectInteractionContext and InteractionContext migration.', s),
        undefined,
      );
      assert.equal(scope('c', 'I will update packages/cli/src/core/record.ts.'), undefined);
      assert.equal(scope('y', 'This branch needs a commit before PR #29 can show the report.'), undefined);
      assert.equal(scope('yes, do it', 'Ready to continue with the next implementation step.'), undefined);
    });

    it('accepts a PR reference with a scoped title', () => {
      const s = sig('fix(dashboard): preserve truncated diff', ['src/a.ts']);
      assert.equal(
        scope('ブランチ切って作業開始', '作業順どおり、まずは PR 1 の Dashboard の欠落表示から着手します。', s)?.text,
        '作業順どおり、まずは PR 1 の Dashboard の欠落表示から着手します。',
      );
    });

    it('ignores details after the first four sentences', () => {
      const s = sig('docs: prompt context', ['docs/knowledge/prompt-context.md']);
      assert.equal(
        scope(
          'review five times',
          'I will review the design from five angles. The first pass checks compatibility. The second pass checks rendering. The third pass checks selection. A later detail mentions #36 and docs/knowledge/prompt-context.md.',
          s,
        ),
        undefined,
      );
    });

    it('only serves short prompts without their own anchor', () => {
      const s = sig('feat: markdown renderer', ['src/render.ts'], '+renderMarkdownInto\n');
      const response = 'I will implement the markdown renderer with renderMarkdownInto.';
      assert.equal(scope('x '.repeat(61), response, s), undefined);
      assert.equal(scope('a\nb\nc\nd', response, s), undefined);
      assert.equal(scope('use renderMarkdownInto', response, s), undefined);
      assert.equal(scope('ok', null, s), undefined);
    });

    it('picks the best-scoring sentence window', () => {
      const s = sig('feat: paginate GET /todos with a cursor', ['src/routes.ts', 'src/store.ts'], '+parseLimit nextCursor\n');
      const got = scope(
        'continue',
        'Finished the todos pagination. `parseLimit` clamps `limit` and `nextCursor` is null on the last page. I also added tests.',
        s,
      );
      assert.deepEqual(got && [got.text, got.rank], [
        'Finished the todos pagination. `parseLimit` clamps `limit` and `nextCursor` is null on the last page.',
        4,
      ]);
    });
  });

  describe('composition', () => {
    const scopeCtx = (text: string, rank: number): RankedContext => ({ kind: 'scope', source: 'current_response', text, rank });

    it('puts reference before scope, trims and dedupes', () => {
      assert.deepEqual(composeContexts([scopeCtx(' same ', 5), toReferenceContext('  ref  '), scopeCtx('same', 9), undefined]), [
        { kind: 'reference', source: 'previous_response', text: 'ref' },
        { kind: 'scope', source: 'current_response', text: 'same' },
      ]);
      assert.deepEqual(composeContexts([toReferenceContext('  '), toReferenceContext(undefined)]), []);
    });

    it('keeps the block within 900 characters by rank, dropping rather than truncating', () => {
      const reference = toReferenceContext('r'.repeat(500));
      // 500 + 2 + 398 = 900 fits exactly.
      assert.deepEqual(
        composeContexts([reference, scopeCtx('s'.repeat(398), 2)]).map((c) => [c.kind, c.text.length]),
        [
          ['reference', 500],
          ['scope', 398],
        ],
      );
      // One more char: the higher-ranked scope (4 > 3) survives.
      assert.deepEqual(
        composeContexts([reference, scopeCtx('s'.repeat(399), 4)]).map((c) => [c.kind, c.text.length]),
        [['scope', 399]],
      );
      // Equal rank: reference first.
      assert.deepEqual(
        composeContexts([reference, scopeCtx('s'.repeat(399), 3)]).map((c) => c.kind),
        ['reference'],
      );
      assert.deepEqual(composeContexts([scopeCtx('s'.repeat(901), 9)]), []);
    });
  });

  describe('legacy context', () => {
    it('converts `context` to a leading reference, trims, drops blanks and duplicates', () => {
      assert.deepEqual(
        normalizeInteractionContexts({
          context: '  old text ',
          contexts: [
            { kind: 'scope', source: 'current_response', text: 'old text' },
            { kind: 'scope', source: 'current_response', text: '  ' },
            { kind: 'scope', source: 'current_response', text: ' new ' },
            { kind: 'bogus', source: 'current_response', text: 'x' },
            'junk',
          ],
        }),
        [
          { kind: 'reference', source: 'previous_response', text: 'old text' },
          { kind: 'scope', source: 'current_response', text: 'new' },
        ],
      );
      assert.deepEqual(normalizeInteractionContexts({}), []);
      assert.deepEqual(normalizeInteractionContexts({ context: '   ' }), []);
    });
  });

  describe('countLiteralHits', () => {
    it('counts whole path-like tokens case-insensitively, also among a thousand literals and for non-ASCII names', () => {
      const files = Array.from({ length: 1000 }, (_, i) => `src/mod${i}.ts`);
      files.push('docs/Überblick.md');
      assert.equal(countLiteralHits('Please fix SRC/MOD7.ts and src/mod42.ts, not src/mod7.tsx', files), 2);
      assert.equal(countLiteralHits('see docs/überblick.md', files), 1);
      assert.equal(countLiteralHits('mysrc/mod1.ts is a different file', files), 0);
      assert.equal(countLiteralHits('nothing here', files), 0);
    });
  });
});
