import * as assert from 'node:assert/strict';
import {
  attributionInputFrom,
  buildNote,
  resolveSessionModel,
  type NoteBuildInput,
  type SessionPrompts,
} from '../../../src/core/notes/noteBuilder';
import type { PromptCandidate } from '../../../src/core/notes/promptWindow';
import { noConsumed, primary, row } from './helpers';

const clock = { now: () => Date.parse('2026-05-01T10:00:00.123Z') };
const commit = { subject: 'feat: add greeting', files: ['src/a.ts', 'src/b.ts', 'README.md'], patch: '+export function sayHello() {}\n' };

function session(agent: string, sessionId: string, rows: PromptCandidate[], extra: Partial<SessionPrompts> = {}): SessionPrompts {
  return {
    agent,
    sessionId,
    model: `${agent}-model`,
    rows: rows.map((r) => ({ ...r, agent, sessionId, key: `${agent}:${sessionId}:${r.turn}` })),
    consumed: noConsumed,
    upperTurn: Math.max(0, ...rows.map((r) => r.turn)),
    ...extra,
  };
}

const files = [
  { path: 'README.md', by_ai: false },
  { path: 'src/a.ts', by_ai: true },
  { path: 'src/b.ts', by_ai: true },
];
const attribution = { ai_ratio: 80, method: 'line' as const, lines: { ai_added: 8, total_added: 10, deleted: 0 } };

function input(sessions: SessionPrompts[], extra: Partial<NoteBuildInput> = {}): NoteBuildInput {
  return { commit, sessions, attribution: { files, attribution }, clock, ...extra };
}

describe('noteBuilder', () => {
  it('builds a single-prompt note with the CLI key order and a null response', () => {
    const built = buildNote(
      input([
        session('claude', 'c1', [
          primary(1, 'Add sayHello to src/a.ts', ['src/a.ts', 'src/a.ts', 'other.ts'], { tools: ['Write', 'Edit', 'Write'] }),
        ]),
      ]),
    );
    assert.ok(built);
    assert.equal(
      JSON.stringify(built.note, null, 2),
      JSON.stringify(
        {
          v: 1,
          agent: 'claude',
          session_id: 'c1',
          timestamp: '2026-05-01T10:00:00.123Z',
          model: 'claude-model',
          interactions: [
            {
              prompt: 'Add sayHello to src/a.ts',
              response: null,
              files_touched: ['src/a.ts'],
              selection: {
                schema: 1,
                source: 'primary',
                signals: [
                  'primary_edit_turn',
                  'exact_commit_path',
                  'commit_file_basename',
                  'diff_identifier',
                  'commit_subject_overlap',
                  'inline_code_or_path_shape',
                  'before_commit_boundary',
                ],
              },
              tools: ['Write', 'Edit'],
            },
          ],
          files,
          attribution,
        },
        null,
        2,
      ),
    );
    assert.deepEqual(built.interactionKeys, ['claude:c1:1']);
    assert.deepEqual(built.markers, [{ key: 'claude:c1:1', sessionId: 'c1', turn: 1, promptId: 'p1', scope: 'window' }]);
  });

  it('attaches a reference context from the previous, unselected turn', () => {
    const rows = [
      row(1, 'How would sayHello work?', { response: 'sayHello would live in src/a.ts.\n\nUnrelated musings.' }),
      primary(2, 'ok do it', ['src/a.ts'], { response: 'Done.' }),
    ];
    const built = buildNote(input([session('claude', 'c1', rows, { consumed: { maxConsumedTurn: 1, tailPromptIds: new Set() } })]));
    assert.ok(built);
    assert.deepEqual(
      built.note.interactions.map((i) => [i.prompt, i.contexts]),
      [['ok do it', [{ kind: 'reference', source: 'previous_response', text: 'sayHello would live in src/a.ts.' }]]],
    );
  });

  it('keeps a question as window context and gives "go ahead" a scope context only when the response qualifies', () => {
    const cart = {
      subject: 'feat: add Cart class with line items',
      files: ['src/cart.ts', 'src/index.ts'],
      patch: '+export class Cart {\n+  addItem(item: LineItem) {}\n',
    };
    const files2 = [
      { path: 'src/cart.ts', by_ai: true },
      { path: 'src/index.ts', by_ai: true },
    ];
    const build = (response: string) =>
      buildNote({
        commit: cart,
        sessions: [
          session('claude', 'c1', [
            row(
              1,
              'How would you model line items for a shopping cart? Prices are in cents and I will write the money helper myself. No code yet.',
              {
                response: 'A `Cart` in src/cart.ts keeps `LineItem` entries keyed by sku.',
              },
            ),
            primary(2, 'Sounds good, go ahead.', ['src/cart.ts', 'src/index.ts'], { response, tools: ['Write', 'Edit'] }),
          ]),
        ],
        attribution: { files: files2, attribution: { ai_ratio: 100, method: 'line' } },
        clock,
      });
    const good = build('Added the Cart class with `addItem` for line items. I will write the tests in a follow-up.');
    assert.deepEqual(
      good?.note.interactions.map((i) => [i.prompt.slice(0, 12), i.selection?.source, i.contexts]),
      [
        ['How would yo', 'window', undefined],
        [
          'Sounds good,',
          'primary',
          [{ kind: 'scope', source: 'current_response', text: 'Added the Cart class with `addItem` for line items.' }],
        ],
      ],
    );
    const vague = build('Done, everything is in place now.');
    assert.deepEqual(
      vague?.note.interactions.map((i) => i.contexts),
      [undefined, undefined],
    );
  });

  it('merges sessions chronologically and chooses the agent owning most AI lines', () => {
    const claude = session('claude', 'c1', [
      primary(1, 'write src/a.ts', ['src/a.ts'], { timestamp: '2026-05-01T09:00:00Z', response: 'Wrote src/a.ts.' }),
      row(2, 'thanks, looks right', { timestamp: '2026-05-01T09:30:00Z' }),
    ]);
    const cursor = session(
      'cursor',
      'k1',
      [primary(1, 'write src/b.ts', ['src/b.ts'], { timestamp: '2026-05-01T09:10:00Z', tools: ['afterFileEdit'] })],
      {
        modelEvents: [
          { sessionStart: false, model: 'gpt-5' },
          { sessionStart: true, model: 'composer-1' },
        ],
      },
    );
    const ranged = {
      files: [
        files[0],
        {
          ...files[1],
          ai_ranges: [
            { start: 1, end: 3, interactionKey: 'claude:c1:1' },
            { start: 5, end: 5, interactionKey: 'claude:c1:9' },
          ],
        },
        {
          ...files[2],
          ai_ranges: [
            { start: 1, end: 4, interaction: 0 },
            { start: 7, end: 7, interaction: null },
          ],
        },
      ],
      attribution,
      interactionKeys: ['cursor:k1:1'],
    };
    const built = buildNote({ ...input([claude, cursor]), attribution: ranged });
    assert.ok(built);
    assert.deepEqual(built.interactionKeys, ['claude:c1:1', 'cursor:k1:1', 'claude:c1:2']);
    assert.deepEqual(
      built.note.interactions.map((i) => [
        i.prompt,
        i.selection?.source,
        i.selection?.signals.includes('between_non_excluded_prompts'),
        i.tools,
      ]),
      [
        ['write src/a.ts', 'primary', true, ['Edit']],
        ['write src/b.ts', 'primary', true, ['afterFileEdit']],
        ['thanks, looks right', 'tail', true, undefined],
      ],
    );
    // cursor 5 lines (4 + the unknown-key range is ignored), claude 3 lines.
    assert.deepEqual([built.note.agent, built.note.session_id, built.note.model], ['cursor', 'k1', 'composer-1']);
    assert.deepEqual(
      built.note.files.map((f) => f.ai_ranges),
      [
        undefined,
        [
          { start: 1, end: 3, interaction: 0 },
          { start: 5, end: 5, interaction: null },
        ],
        [
          { start: 1, end: 4, interaction: 1 },
          { start: 7, end: 7, interaction: null },
        ],
      ],
    );
    assert.deepEqual(Object.keys(built.note.files[1]), ['path', 'by_ai', 'ai_ranges']);
  });

  it('takes the commit attribution result shape and merges ranges that end up with the same interaction', () => {
    const result = {
      files: [
        { path: 'README.md', byAi: false, generated: false, ignored: true, ranges: [] },
        {
          path: 'src/a.ts',
          byAi: true,
          generated: false,
          ignored: false,
          ranges: [
            { start: 5, end: 6, interactionKey: 'claude:c1:1' },
            { start: 1, end: 2, interactionKey: 'claude:c1:7' },
            { start: 3, end: 4, interactionKey: null },
            { start: 7, end: 7, interactionKey: 'claude:c1:1' },
          ],
        },
        { path: 'src/b.ts', byAi: false, generated: true, ignored: false, ranges: [] },
      ],
      attribution,
    };
    const built = buildNote({
      ...input([session('claude', 'c1', [primary(1, 'write src/a.ts', ['src/a.ts'])])]),
      attribution: attributionInputFrom(result),
    });
    assert.deepEqual(built?.note.files, [
      { path: 'README.md', by_ai: false, ai_ratio_excluded: true },
      {
        path: 'src/a.ts',
        by_ai: true,
        ai_ranges: [
          { start: 1, end: 4, interaction: null },
          { start: 5, end: 7, interaction: 0 },
        ],
      },
      { path: 'src/b.ts', by_ai: false, generated: true },
    ]);
  });

  it('breaks agent ties by the latest interaction and falls back to AI files without line data', () => {
    const claude = session('claude', 'c1', [primary(1, 'write src/a.ts', ['src/a.ts'], { timestamp: '2026-05-01T09:20:00Z' })]);
    const gemini = session('gemini', 'g1', [primary(1, 'write src/b.ts', ['src/b.ts'], { timestamp: '2026-05-01T09:10:00Z' })]);
    const tie = buildNote(input([claude, gemini]));
    assert.deepEqual([tie?.note.agent, tie?.note.session_id], ['claude', 'c1']);

    const geminiTwoFiles = session('gemini', 'g1', [
      primary(1, 'write both', ['src/a.ts', 'src/b.ts'], { timestamp: '2026-05-01T09:10:00Z' }),
    ]);
    const byFiles = buildNote(input([claude, geminiTwoFiles]));
    assert.deepEqual([byFiles?.note.agent, byFiles?.note.session_id, byFiles?.note.model], ['gemini', 'g1', 'gemini-model']);

    const lines = {
      files: [
        files[0],
        { ...files[1], ai_ranges: [{ start: 1, end: 2, interactionKey: 'claude:c1:1' }] },
        { ...files[2], ai_ranges: [{ start: 1, end: 2, interactionKey: 'gemini:g1:1' }] },
      ],
      attribution,
    };
    const tieLines = buildNote({ ...input([claude, geminiTwoFiles]), attribution: lines });
    assert.equal(tieLines?.note.agent, 'claude');
  });

  it('picks the heaviest session of the winning agent', () => {
    const a = session('claude', 'c1', [primary(1, 'write src/a.ts', ['src/a.ts'], { timestamp: '2026-05-01T09:00:00Z' })]);
    const b = session('claude', 'c2', [
      primary(1, 'write src/b.ts and README', ['src/b.ts', 'src/a.ts'], { timestamp: '2026-05-01T08:00:00Z' }),
    ]);
    const built = buildNote(input([a, b]));
    assert.deepEqual([built?.note.agent, built?.note.session_id], ['claude', 'c2']);
  });

  it('redacts prompts, responses and contexts and reports the count', () => {
    const redact = (text: string) => {
      const parts = text.split('sk-123');
      return { text: parts.join('[REDACTED:openai-key]'), count: parts.length - 1 };
    };
    const rows = [
      primary(1, 'use key sk-123 in sayHello', ['src/a.ts'], {
        response: 'Added `sayHello` to src/a.ts with sk-123. Add more feat greeting later.',
      }),
      primary(2, 'go on', ['src/b.ts'], { response: 'Added `sayHello` greeting feat in src/b.ts using sk-123.' }),
    ];
    const built = buildNote(input([session('claude', 'c1', rows)], { redact }));
    assert.ok(built);
    const text = JSON.stringify(built.note);
    assert.equal(text.includes('sk-123'), false);
    assert.deepEqual(built.note.interactions[1].contexts, [
      { kind: 'scope', source: 'current_response', text: 'Added `sayHello` greeting feat in src/b.ts using [REDACTED:openai-key].' },
    ]);
    // prompt 1, response 1, response 2, context 2
    assert.equal(built.redactions, 4);
  });

  it('skips per docs/note-format.md §3.8: no interactions and no AI file, or strict mode without AI file', () => {
    const humanFiles = { files: files.map((f) => ({ ...f, by_ai: false })), attribution: { ai_ratio: 0, method: 'line' as const } };
    assert.equal(buildNote({ ...input([session('claude', 'c1', [row(1, 'just talk')])]), attribution: humanFiles }), undefined);
    const withPrompt = session('claude', 'c1', [primary(1, 'write src/a.ts', ['src/a.ts'])]);
    assert.ok(buildNote({ ...input([withPrompt]), attribution: humanFiles }));
    assert.equal(buildNote({ ...input([withPrompt], { requireAiFileEvidence: true }), attribution: humanFiles }), undefined);
    assert.equal(buildNote(input([])), undefined);
    // AI files but no selectable prompt: a note with empty interactions.
    const empty = buildNote(input([session('claude', 'c1', [row(1, 'just talk')])]));
    assert.deepEqual([empty?.note.interactions, empty?.note.agent], [[], 'claude']);
  });

  it('uses direct rows as given, without selection or contexts, keeping tools null', () => {
    const rows = [
      row(2, 'second', { response: 'Touched src/b.ts and sayHello.', filesTouched: ['src/b.ts'], tools: null }),
      row(1, 'first', { filesTouched: ['src/a.ts'], tools: [] }),
    ];
    const built = buildNote(input([session('codex', 'x1', rows, { mode: 'direct' })]));
    assert.deepEqual(built?.note.interactions, [
      { prompt: 'second', response: 'Touched src/b.ts and sayHello.', files_touched: ['src/b.ts'], tools: null },
      { prompt: 'first', response: null, files_touched: ['src/a.ts'] },
    ]);
    assert.deepEqual(built?.markers, []);
  });

  it('caps a multi-session note at 24 interactions keeping every primary', () => {
    const mk = (agent: string, offsetMin: number) =>
      Array.from({ length: 15 }, (_, i) => {
        const timestamp = new Date(Date.parse('2026-05-01T08:00:00Z') + (offsetMin + i * 2) * 60_000).toISOString();
        const prompt = `step ${i + 1} of ${agent} for src/a.ts`;
        return i === 0 ? primary(i + 1, prompt, ['src/a.ts'], { timestamp }) : row(i + 1, prompt, { timestamp });
      });
    const a = session('claude', 'c1', mk('claude', 0));
    const b = session('cursor', 'k1', mk('cursor', 1));
    const built = buildNote(input([a, b]));
    assert.ok(built);
    assert.equal(built.note.interactions.length, 24);
    assert.deepEqual(built.interactionKeys.slice(0, 3), ['claude:c1:1', 'cursor:k1:1', 'claude:c1:5']);
    assert.equal(built.interactionKeys.at(-1), 'cursor:k1:15');
    assert.equal(built.markers.length, 30);
  });

  it('resolves the model from session_start first, then any event, then the fallback', () => {
    assert.equal(
      resolveSessionModel([
        { sessionStart: false, model: 'a' },
        { sessionStart: true, model: null },
        { sessionStart: true, model: 'b' },
      ]),
      'b',
    );
    assert.equal(resolveSessionModel([{ sessionStart: true }, { sessionStart: false, model: 'a' }], 'z'), 'a');
    assert.equal(resolveSessionModel([], 'z'), 'z');
    assert.equal(resolveSessionModel(undefined, ''), null);
  });

  it('keeps Spanish and CJK prompts intact', () => {
    const rows = [primary(1, 'Añade sayHello en src/a.ts «ya» °C', ['src/a.ts'], { response: '請在 src/a.ts 新增。' })];
    const built = buildNote(input([session('claude', 'c1', rows)]));
    assert.equal(built?.note.interactions[0].prompt, 'Añade sayHello en src/a.ts «ya» °C');
    assert.equal(built?.note.interactions[0].response, '請在 src/a.ts 新增。');
  });
});
