import * as assert from 'node:assert/strict';
import {
  collectSelectionSignals,
  extractDiffIdentifiers,
  hasCjkOrHangul,
  hasInlineCodeOrPathShape,
  hasListOrChecklistShape,
  hasMultiLineInstruction,
  hasSubstantivePromptShape,
  IdentifierMatcher,
  isHardExcludedPrompt,
  isQuotedHistory,
  isShortSelectionPrompt,
  sortSignals,
  tokenizeSelectionText,
  tokenizeSubject,
  type SignalCandidate,
} from '../../../src/core/notes/selectionSignals';
import { sig } from './helpers';

describe('selectionSignals', () => {
  describe('tokenizers', () => {
    it('splits selection text on camelCase and separators and keeps path-like tokens with their parts', () => {
      assert.deepEqual(
        [...tokenizeSelectionText('Fix parseLimit in src/routes.ts, a GET /todos bug!')],
        ['fix', 'parse', 'limit', 'in', 'src/routes.ts', 'src', 'routes', 'get', '/todos', 'todos', 'bug'],
      );
    });

    it('keeps non-Latin letters as tokens (Spanish, CJK)', () => {
      assert.deepEqual([...tokenizeSelectionText('Añade una función')], ['añade', 'una', 'función']);
      assert.deepEqual([...tokenizeSelectionText('請在 src/wind.ts 新增')], ['請在', 'src/wind.ts', 'src', 'wind', '新增']);
    });

    it('tokenizes subjects for contexts without generic words and short tokens', () => {
      assert.deepEqual(tokenizeSubject('feat: add Cart class with line items'), ['feat', 'cart', 'class', 'with', 'line', 'items']);
      assert.deepEqual(tokenizeSubject('fix(api): update the JSON todo parser, fix parser'), ['api', 'the', 'parser']);
      assert.deepEqual(tokenizeSubject('feat: paginate GET /todos with a cursor'), ['feat', 'paginate', 'get', 'todos', 'with', 'cursor']);
    });
  });

  describe('extractDiffIdentifiers', () => {
    it('finds camelCase, PascalCase, snake_case and ALL_CAPS identifiers but not generic acronyms', () => {
      const ids = extractDiffIdentifiers(
        [
          '@@ -1,2 +1,3 @@ export class TodoStore {',
          '+const isQuoted = parse_limit(MAX_TITLE_LENGTH);',
          '+const payload = JSON.parse(input); // TODO: HTTP and YAML',
          '+const out = toYAML(payload), CDN = 1, Id = 2, a_b = 3;',
        ].join('\n'),
      );
      assert.deepEqual([...ids], ['TodoStore', 'isQuoted', 'toYAML', 'parse_limit', 'MAX_TITLE_LENGTH', 'CDN']);
    });

    it('matches identifiers word-bounded and case-sensitively, also with $', () => {
      const m = new IdentifierMatcher(['nextCursor', 'MAX_LEN', 'a$bC']);
      assert.equal(m.any('returns { items, nextCursor }'), true);
      assert.equal(m.any('returns nextCursors'), false);
      assert.equal(m.any('NEXTCURSOR'), false);
      assert.equal(m.count('nextCursor, MAX_LEN and nextCursor again, x a$bC y'), 3);
      assert.equal(m.count('MAX_LENGTH'), 0);
    });

    it('agrees with a word-bounded RegExp on generated texts', () => {
      const ids = ['fooBar', 'FOO_BAR', 'foo_bar', 'x$yZ', '$aB', 'aB$'];
      const m = new IdentifierMatcher(ids);
      const parts = ['fooBar', 'FOO_BAR', 'foo_bar', 'x$yZ', '$aB', 'aB$', ' ', '.', '_', 'a', '$', '-', 'é', '1'];
      let seed = 7;
      const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
      for (let n = 0; n < 500; n++) {
        let text = '';
        for (let k = next() % 8; k >= 0; k--) text += parts[next() % parts.length];
        const expected = ids.filter((id) => new RegExp(`\\b${id.replace(/\$/g, '\\$')}\\b`).test(text)).length;
        assert.equal(m.count(text), expected, JSON.stringify(text));
        assert.equal(m.any(text), expected > 0, JSON.stringify(text));
      }
    });
  });

  describe('shape predicates', () => {
    it('detects CJK and Hangul', () => {
      assert.equal(hasCjkOrHangul('請在'), true);
      assert.equal(hasCjkOrHangul('ひらがな'), true);
      assert.equal(hasCjkOrHangul('한국어'), true);
      assert.equal(hasCjkOrHangul('Añade °C «»'), false);
    });

    it('scores substantive prompts without keyword lists', () => {
      assert.equal(hasSubstantivePromptShape('one two three four five six seven'), true);
      assert.equal(hasSubstantivePromptShape('one two three four five six'), false);
      assert.equal(hasSubstantivePromptShape('is this one ok?'), true);
      assert.equal(hasSubstantivePromptShape('is this ok?'), false);
      assert.equal(hasSubstantivePromptShape('できれば出したいだけど。。'), true);
      assert.equal(hasSubstantivePromptShape('自己レビュー'), false);
      assert.equal(hasSubstantivePromptShape('Sounds good, go ahead.'), false);
      assert.equal(hasSubstantivePromptShape('   '), false);
    });

    it('recognises list, multi-line and inline code/path shapes', () => {
      assert.equal(hasListOrChecklistShape('check:\n- a\n- b'), true);
      assert.equal(hasListOrChecklistShape('2. step'), true);
      assert.equal(hasListOrChecklistShape('-flag'), false);
      assert.equal(hasMultiLineInstruction('a\n\n b'), true);
      assert.equal(hasMultiLineInstruction('a\n   \n'), false);
      assert.equal(hasInlineCodeOrPathShape('use `x`'), true);
      assert.equal(hasInlineCodeOrPathShape('see ./a'), true);
      assert.equal(hasInlineCodeOrPathShape('GET /todos'), true);
      assert.equal(hasInlineCodeOrPathShape('pass --city'), true);
      assert.equal(hasInlineCodeOrPathShape('and/or'), true);
      assert.equal(hasInlineCodeOrPathShape('plain words only'), false);
    });

    it('uses one short-prompt boundary (120 chars, 12 words)', () => {
      assert.equal(isShortSelectionPrompt('one two three four five six seven eight nine ten eleven twelve'), true);
      assert.equal(isShortSelectionPrompt('one two three four five six seven eight nine ten eleven twelve thirteen'), false);
      assert.equal(isShortSelectionPrompt('x'.repeat(121)), false);
      assert.equal(isShortSelectionPrompt(''), true);
    });
  });

  describe('quoted history', () => {
    it('detects the emoji labels of copied notes', () => {
      assert.equal(isQuotedHistory('earlier:\n🧑 Prompt: do it\n🤖 Response: done'), true);
      assert.equal(isQuotedHistory('🧑 Prompt: only half'), false);
    });

    it('detects Prompt:/Response: labels only in long prompts', () => {
      const body = 'Prompt: add a flag\nResponse: added the flag\n';
      assert.equal(isQuotedHistory(body), false);
      assert.equal(isQuotedHistory(body + 'x'.repeat(300 - body.length)), false);
      assert.equal(isQuotedHistory(body + 'x'.repeat(301 - body.length)), true);
    });

    it('detects long prompts with at least 8 indented lines', () => {
      const lines = Array.from({ length: 8 }, (_, i) => `   quoted line ${i} ${'y'.repeat(60)}`);
      const text = `Why this?\n${lines.join('\n')}`;
      assert.ok(text.length > 500);
      assert.equal(isQuotedHistory(text), true);
      assert.equal(isQuotedHistory(`Why this?\n${lines.slice(0, 7).join('\n')}\n${'z'.repeat(100)}`), false);
    });

    it('hard-excludes quoted and tiny prompts unless primary', () => {
      assert.equal(isHardExcludedPrompt('c', false), true);
      assert.equal(isHardExcludedPrompt(' c ', false), true);
      assert.equal(isHardExcludedPrompt('ok', false), false);
      assert.equal(isHardExcludedPrompt('c', true), false);
    });
  });

  describe('collectSelectionSignals', () => {
    const base: SignalCandidate = { prompt: '', response: null, source: 'window', beforeCommitBoundary: false, adjacentNonExcluded: false };

    it('emits every signal in canonical order', () => {
      const s = sig('fix(record): score prompt selection', ['packages/cli/src/core/record.ts'], '+const analyzePromptSelection = 1;');
      assert.deepEqual(
        collectSelectionSignals(
          {
            ...base,
            prompt: 'Update packages/cli/src/core/record.ts and analyzePromptSelection',
            adjacentNonExcluded: true,
          },
          s,
        ),
        [
          'exact_commit_path',
          'commit_file_basename',
          'diff_identifier',
          'commit_subject_overlap',
          'inline_code_or_path_shape',
          'substantive_prompt_shape',
          'between_non_excluded_prompts',
        ],
      );
      assert.deepEqual(
        collectSelectionSignals(
          {
            prompt: '- first\n- second',
            response: 'Changed record.ts; see analyzePromptSelection',
            source: 'primary',
            beforeCommitBoundary: true,
            adjacentNonExcluded: true,
          },
          s,
        ),
        [
          'primary_edit_turn',
          'response_basename_or_identifier',
          'list_or_checklist_shape',
          'multi_line_instruction',
          'before_commit_boundary',
          'between_non_excluded_prompts',
        ],
      );
    });

    it('treats a basename-only prompt as weak evidence', () => {
      const s = sig('docs: update readme', ['docs/README.md']);
      assert.deepEqual(
        collectSelectionSignals({ ...base, prompt: 'README.md', source: 'tail', beforeCommitBoundary: true, adjacentNonExcluded: true }, s),
        ['commit_file_basename', 'commit_subject_overlap', 'before_commit_boundary', 'between_non_excluded_prompts'],
      );
    });

    it('does not mark long prompts as bridges', () => {
      const s = sig('fix: tune prompt selection', ['a.ts']);
      const signals = collectSelectionSignals(
        { ...base, prompt: 'one two three four five six seven eight nine ten eleven twelve thirteen', adjacentNonExcluded: true },
        s,
      );
      assert.deepEqual(signals, ['substantive_prompt_shape']);
    });

    it('sorts and dedupes stored signals, dropping unknown names', () => {
      assert.deepEqual(sortSignals(['before_commit_boundary', 'bogus', 'primary_edit_turn', 'before_commit_boundary']), [
        'primary_edit_turn',
        'before_commit_boundary',
      ]);
    });
  });
});
