import * as assert from 'node:assert/strict';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { inlineCode, noteToMarkdown } from '../../../src/core/report/noteMarkdown';
import { peerNote } from './peerFixtures';

const cartCommit = {
  sha: '1314a562599a38ca1e6676b8b00c9b4ed07fbbd5',
  short: '1314a56',
  subject: 'feat: add Cart class with line items',
  author: 'Ann Dev',
  date: '2026-03-16T13:36:40+00:00',
};

describe('noteToMarkdown', () => {
  it('renders the whole shop-cart "Cart class" note (window + primary prompt, scope context, mixed files)', () => {
    const note = peerNote('shop-cart', 'feat-add-cart-class-with-line-items');
    const expected = [
      '## 🧑💬🤖 Agent Note: `1314a56` feat: add Cart class with line items',
      '',
      '- **Commit:** `1314a562599a38ca1e6676b8b00c9b4ed07fbbd5`',
      '- **Author:** Ann Dev',
      '- **Date:** 2026-03-16T13:36:40+00:00',
      '- **Agent:** claude',
      '- **Model:** `claude-sonnet-4-5`',
      '- **Session:** `3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7`',
      '- **Recorded:** 2026-03-16T13:36:41.000Z',
      '',
      '**AI Ratio:** ███████░ 85% · line · 40/47 added lines by AI, 0 deleted',
      '',
      '### 💬 Prompts (2)',
      '',
      '#### 🧑 Prompt 1',
      '',
      "> How would you model line items for a shopping cart? Prices are in cents and I will write the money formatting helper myself. Don't write code yet.",
      '',
      '**🤖 Response**',
      '> I would keep prices as integer cents to avoid floating point drift. A `LineItem` would hold `sku`, `unitPrice` (cents) and `quantity`, and a `Cart` class in `src/cart.ts` would keep them in a `Map` keyed by `sku`, so adding the same product twice just bumps the quantity.',
      '> ',
      '> `subtotal()` then sums `unitPrice * quantity`. Display formatting can come from your `formatCents` helper in `src/money.ts`, so the cart itself stays purely numeric.',
      '',
      '🧭 Selection: window (response_exact_commit_path, response_basename_or_identifier, commit_subject_overlap, substantive_prompt_shape) · level low',
      '',
      '#### 🧑 Prompt 2',
      '',
      '**📝 Context** (scope)',
      '> Added `src/cart.ts` with `LineItem` and `Cart` (`addItem`, `removeItem`, `lines`, `subtotal`, `describe`) and exported them from `src/index.ts`. `describe()` imports `formatCents` from `./money.js`, which you said you would write.',
      '',
      '> Sounds good, go ahead.',
      '',
      '**🤖 Response**',
      '> Added `src/cart.ts` with `LineItem` and `Cart` (`addItem`, `removeItem`, `lines`, `subtotal`, `describe`) and exported them from `src/index.ts`. `describe()` imports `formatCents` from `./money.js`, which you said you would write.',
      '',
      '📄 Files: `src/cart.ts`, `src/index.ts`  ',
      '🔧 Tools: Write, Edit  ',
      '🧭 Selection: primary (primary_edit_turn, response_exact_commit_path, response_basename_or_identifier, before_commit_boundary, between_non_excluded_prompts) · level high',
      '',
      '### 📄 Files (3)',
      '',
      '| File | By | Flags | AI lines |',
      '|---|---|---|---|',
      '| `src/cart.ts` | 🤖 AI |  |  |',
      '| `src/index.ts` | 🤖 AI |  |  |',
      '| `src/money.ts` | 👤 Human |  |  |',
      '',
    ].join('\n');
    assert.equal(noteToMarkdown(cartCommit, note), expected);
  });

  it('flags generated and excluded files, shows file-level notes without lines and null responses', () => {
    const note = peerNote('todo-api', 'build-add-openapi-spec-generated-types-and-dist-build');
    const out = noteToMarkdown(
      {
        sha: '8d3efc61b3c32ebdd5fe128df08369737e84413d',
        short: '8d3efc6',
        subject: 'build: add OpenAPI spec, generated types and dist build',
      },
      note,
    );
    assert.ok(out.includes('| `dist/index.js` | 👤 Human | excluded from AI Ratio |  |\n'));
    assert.ok(out.includes('| `src/generated/api-types.ts` | 👤 Human | generated |  |\n'));
    assert.ok(!out.includes('**Author:**'), 'no author line without an author');

    const fileLevel = peerNote('shop-cart', 'feat-support-percentage-discount-codes');
    assert.ok(noteToMarkdown(cartCommit, fileLevel).includes('**AI Ratio:** █████░░░ 67% · file\n'));

    const paginate = peerNote('todo-api', 'feat-paginate-get-todos-with-a-cursor');
    const text = noteToMarkdown(cartCommit, paginate);
    assert.ok(
      text.includes(
        '#### 🧑 Prompt 4\n\n> Looks good, commit it.\n\n_No response recorded._\n\n🧭 Selection: tail (before_commit_boundary, between_non_excluded_prompts) · level low\n',
      ),
    );
  });

  it('lists AI line ranges with their prompt, and escapes paths and subjects', () => {
    const note: AgentNoteV1 = {
      v: 1,
      agent: 'claude',
      session_id: 's',
      timestamp: '2026-01-01T00:00:00.000Z',
      model: null,
      interactions: [{ prompt: 'line one\nline two', response: null }],
      files: [
        {
          path: 'a|b`c.ts',
          by_ai: true,
          ai_ranges: [
            { start: 1, end: 4, interaction: 0 },
            { start: 9, end: 9, interaction: null },
          ],
        },
      ],
      attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 5, total_added: 5, deleted: 0 } },
    };
    const out = noteToMarkdown({ sha: 'abc', short: 'abc', subject: 'fix: <b>x</b>\nsecond' }, note);
    assert.ok(out.startsWith('## 🧑💬🤖 Agent Note: `abc` fix: &lt;b>x&lt;/b> second\n'));
    assert.ok(out.includes('> line one\n> line two\n'));
    assert.ok(out.includes('| ``a\\|b`c.ts`` | 🤖 AI |  | 1–4 (prompt 1), 9 |\n'));
    assert.ok(!out.includes('**Model:**'));
  });

  it('lists the source commits of a derived note', () => {
    const note = { ...peerNote('todo-api', 'feat-paginate-get-todos-with-a-cursor'), derived_from: ['1'.repeat(40)] };
    const out = noteToMarkdown(cartCommit, note);
    assert.ok(out.includes(`- **Derived from (squash or rebase merge):** \`${'1'.repeat(40)}\`\n`));
    assert.ok(!noteToMarkdown(cartCommit, peerNote('todo-api', 'feat-paginate-get-todos-with-a-cursor')).includes('Derived from'));
  });

  it('uses localized labels when given', () => {
    const note = peerNote('todo-api', 'refactor-drop-the-unused-completeall-helper');
    const out = noteToMarkdown(cartCommit, note, { prompts: 'Prompts: {0}', ai: 'KI', lines: '{0} von {1}, {2} gelöscht' });
    assert.ok(out.includes('### 💬 Prompts: 1\n'));
    assert.ok(out.includes('| `src/store.ts` | 🤖 KI |'));
    assert.ok(out.includes('· file · 0 von 0, 12 gelöscht\n'));
  });
});

describe('inlineCode', () => {
  it('uses a longer fence when the value has backticks', () => {
    assert.equal(inlineCode('plain'), '`plain`');
    assert.equal(inlineCode('a`b'), '``a`b``');
    assert.equal(inlineCode('`x`'), '`` `x` ``');
    assert.equal(inlineCode('two\nlines'), '`two lines`');
  });
});
