import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { decodeNote, encodeNote, type DecodedNote } from '../../../src/core/notes/noteCodec';
import { agentNoteV1Schema, parseAgentNote } from '../../../src/core/notes/noteSchema';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { projectRoot } from '../../helpers/tempRepo';

const peerDir = path.join(projectRoot(), 'test', 'fixtures', 'peer-repos');

function fixtureNotes(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const repo of ['shop-cart', 'todo-api', 'weather-cli']) {
    const dir = path.join(peerDir, repo, 'notes');
    for (const f of readdirSync(dir).sort()) {
      if (f.endsWith('.json')) out.push({ name: `${repo}/${f}`, text: readFileSync(path.join(dir, f), 'utf8') });
    }
  }
  return out;
}

function valid(d: DecodedNote): Extract<DecodedNote, { kind: 'valid' }> {
  if (d.kind !== 'valid') assert.fail(`expected a valid note, got invalid: ${d.reason}`);
  return d;
}

function minimal(extra: Partial<AgentNoteV1> = {}): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: 's-1',
    timestamp: '2026-01-01T00:00:00.000Z',
    model: null,
    interactions: [],
    files: [],
    attribution: { ai_ratio: 0, method: 'none' },
    ...extra,
  };
}

/** A synthetic note, byte for byte as the CLI writes it (layout: docs/note-format.md §1.7). */
const specExample = `{
  "v": 1,
  "agent": "claude",
  "session_id": "8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f",
  "timestamp": "2026-12-02T14:30:57.434Z",
  "model": "claude-opus-4-6",
  "interactions": [
    {
      "prompt": "Append a gamma line to app.txt",
      "response": "Added gamma to app.txt.",
      "files_touched": [
        "app.txt"
      ],
      "selection": {
        "schema": 1,
        "source": "primary",
        "signals": [
          "primary_edit_turn",
          "exact_commit_path"
        ]
      },
      "tools": [
        "Edit"
      ]
    }
  ],
  "files": [
    {
      "path": "app.txt",
      "by_ai": true
    }
  ],
  "attribution": {
    "ai_ratio": 50,
    "method": "line",
    "lines": {
      "ai_added": 1,
      "total_added": 2,
      "deleted": 0
    }
  }
}
`;

describe('noteCodec', () => {
  describe('peer fixtures', () => {
    const notes = fixtureNotes();

    it('finds the 14 genuine CLI notes', () => {
      assert.equal(notes.length, 14);
    });

    for (const { name, text } of notes) {
      it(`decodes and re-encodes ${name} to identical bytes`, () => {
        const d = valid(decodeNote(text));
        assert.equal(d.legacy, 'none');
        assert.deepEqual(d.issues, []);
        assert.equal(d.raw, text);
        assert.equal(encodeNote(d.note), text);
        assert.ok(agentNoteV1Schema.safeParse(d.note).success, 'canonical schema accepts the note');
      });
    }

    it('reads typed values from a fixture (Spanish/Chinese text kept raw)', () => {
      const all = notes.map((n) => valid(decodeNote(n.text)).note);
      const paginate = all.find((n) => n.interactions.length === 4)!;
      assert.equal(paginate.session_id, '2b7e4f10-3c5d-4e6f-8a9b-0c1d2e3f4a5b');
      assert.equal(paginate.interactions[2].prompt, 'continue');
      assert.equal(paginate.interactions[2].contexts?.[0].kind, 'scope');
      assert.equal(paginate.interactions[3].response, null);
      assert.deepEqual(paginate.interactions[3].selection?.signals, ['before_commit_boundary', 'between_non_excluded_prompts']);
      assert.deepEqual(paginate.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 47, total_added: 47, deleted: 3 } });
      const nonAscii = notes.filter((n) => [...n.text].some((ch) => ch.charCodeAt(0) > 0x7f));
      assert.ok(nonAscii.length >= 2, 'fixtures with raw UTF-8 prompts');
      for (const n of nonAscii) assert.ok(!n.text.includes('\\u'), `${n.name} stores non-ASCII raw`);
    });
  });

  describe('encodeNote', () => {
    it('reproduces the spec example from an object built in scrambled key order', () => {
      const note = {
        attribution: { lines: { deleted: 0, total_added: 2, ai_added: 1 }, method: 'line', ai_ratio: 50 },
        files: [{ by_ai: true, path: 'app.txt' }],
        interactions: [
          {
            tools: ['Edit'],
            selection: { signals: ['primary_edit_turn', 'exact_commit_path'], source: 'primary', schema: 1 },
            files_touched: ['app.txt'],
            response: 'Added gamma to app.txt.',
            prompt: 'Append a gamma line to app.txt',
          },
        ],
        model: 'claude-opus-4-6',
        timestamp: '2026-12-02T14:30:57.434Z',
        session_id: '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f',
        agent: 'claude',
        v: 1,
      } as unknown as AgentNoteV1;
      assert.equal(encodeNote(note), specExample);
    });

    it('puts unknown keys after the known ones, in their original order, at every level', () => {
      const note = {
        zeta: 1,
        v: 1,
        alpha: { b: 1, a: 2 },
        agent: null,
        session_id: 's',
        timestamp: 't',
        model: null,
        interactions: [
          {
            x_after: true,
            tools: null,
            prompt: 'p',
            contexts: [{ extra: 'e', text: 'ctx', source: 'current_response', kind: 'scope' }],
            response: null,
            selection: { custom: [1], signals: [], source: 'window', schema: 1 },
          },
        ],
        files: [
          {
            mine: 'm',
            ai_ranges: [{ note: 'n', interaction: null, end: 3, start: 2 }],
            ai_ratio_excluded: true,
            by_ai: false,
            generated: true,
            path: 'a',
          },
        ],
        attribution: { extra: 0, lines: { more: 1, deleted: 3, total_added: 2, ai_added: 1 }, method: 'line', ai_ratio: 50 },
      } as unknown as AgentNoteV1;
      const out = JSON.parse(encodeNote(note)) as Record<string, unknown>;
      assert.deepEqual(Object.keys(out), [
        'v',
        'agent',
        'session_id',
        'timestamp',
        'model',
        'interactions',
        'files',
        'attribution',
        'zeta',
        'alpha',
      ]);
      assert.deepEqual(Object.keys(out.alpha as object), ['b', 'a']);
      const it0 = (out.interactions as Record<string, unknown>[])[0];
      assert.deepEqual(Object.keys(it0), ['prompt', 'response', 'contexts', 'selection', 'tools', 'x_after']);
      assert.equal(it0.tools, null);
      assert.deepEqual(Object.keys((it0.contexts as object[])[0]), ['kind', 'source', 'text', 'extra']);
      assert.deepEqual(Object.keys(it0.selection as object), ['schema', 'source', 'signals', 'custom']);
      const f0 = (out.files as Record<string, unknown>[])[0];
      assert.deepEqual(Object.keys(f0), ['path', 'by_ai', 'generated', 'ai_ratio_excluded', 'ai_ranges', 'mine']);
      assert.deepEqual(Object.keys((f0.ai_ranges as object[])[0]), ['start', 'end', 'interaction', 'note']);
      const attr = out.attribution as Record<string, unknown>;
      assert.deepEqual(Object.keys(attr), ['ai_ratio', 'method', 'lines', 'extra']);
      assert.deepEqual(Object.keys(attr.lines as object), ['ai_added', 'total_added', 'deleted', 'more']);
    });

    it('writes empty arrays as [] and omits empty contexts/files_touched like the CLI', () => {
      const text = encodeNote(minimal({ interactions: [{ prompt: 'p', response: null, contexts: [], files_touched: [], tools: [] }] }));
      assert.equal(
        text,
        [
          '{',
          '  "v": 1,',
          '  "agent": "claude",',
          '  "session_id": "s-1",',
          '  "timestamp": "2026-01-01T00:00:00.000Z",',
          '  "model": null,',
          '  "interactions": [',
          '    {',
          '      "prompt": "p",',
          '      "response": null,',
          '      "tools": []',
          '    }',
          '  ],',
          '  "files": [],',
          '  "attribution": {',
          '    "ai_ratio": 0,',
          '    "method": "none"',
          '  }',
          '}',
          '',
        ].join('\n'),
      );
    });

    it('stores non-ASCII raw, escapes control characters and lone surrogates, ends with exactly one newline', () => {
      const text = encodeNote(minimal({ interactions: [{ prompt: 'añadir 測試 \u0001 tab\tnl\n \ud800', response: null }] }));
      assert.ok(text.includes('"prompt": "añadir 測試 \\u0001 tab\\tnl\\n \\ud800"'));
      assert.ok(text.endsWith('}\n') && !text.endsWith('\n\n'));
      assert.ok(!/[ \t]\n/.test(text), 'no trailing whitespace, so git stripspace keeps the bytes');
    });

    it('folds a legacy context into contexts[] and never writes `context`', () => {
      const note = minimal({
        interactions: [
          {
            prompt: 'p',
            response: 'r',
            context: '  earlier answer  ',
            contexts: [{ kind: 'scope', source: 'current_response', text: 'earlier answer' }],
          },
        ],
      });
      const out = JSON.parse(encodeNote(note)) as { interactions: Record<string, unknown>[] };
      assert.deepEqual(out.interactions[0], {
        prompt: 'p',
        response: 'r',
        contexts: [{ kind: 'reference', source: 'previous_response', text: 'earlier answer' }],
      });
    });
  });

  describe('decodeNote', () => {
    it('keeps unknown fields through a read-modify-write', () => {
      const text = encodeNote({
        ...minimal({
          interactions: [{ prompt: 'p', response: null, future_interaction_key: { k: [1, 2] } }],
          files: [{ path: 'a.ts', by_ai: true, future_file_key: 'x' }],
          attribution: { ai_ratio: 100, method: 'file', future_attr: true },
        }),
        future_top: 'kept',
      });
      const d = valid(decodeNote(text));
      assert.equal(encodeNote(d.note), text);
      d.note.files[0].ai_ranges = [{ start: 1, end: 4, interaction: 0 }];
      const again = JSON.parse(encodeNote(d.note)) as Record<string, unknown>;
      assert.equal(again.future_top, 'kept');
      assert.deepEqual((again.interactions as Record<string, unknown>[])[0].future_interaction_key, { k: [1, 2] });
      assert.deepEqual((again.files as Record<string, unknown>[])[0], {
        path: 'a.ts',
        by_ai: true,
        ai_ranges: [{ start: 1, end: 4, interaction: 0 }],
        future_file_key: 'x',
      });
      assert.equal((again.attribution as Record<string, unknown>).future_attr, true);
    });

    it('converts a legacy `context` to a leading reference context (trimmed, deduped, blank dropped)', () => {
      const text = JSON.stringify({
        ...minimal(),
        interactions: [
          {
            prompt: 'continue',
            response: null,
            context: '  The parser lives in src/parse.ts.  ',
            contexts: [
              { kind: 'scope', source: 'current_response', text: ' Scope text ' },
              { kind: 'reference', source: 'previous_response', text: 'The parser lives in src/parse.ts.' },
              { kind: 'scope', source: 'current_response', text: '   ' },
            ],
          },
          { prompt: 'blank legacy', response: null, context: '   ' },
        ],
      });
      const d = valid(decodeNote(text));
      assert.equal(d.legacy, 'context');
      assert.deepEqual(d.note.interactions[0].contexts, [
        { kind: 'reference', source: 'previous_response', text: 'The parser lives in src/parse.ts.' },
        { kind: 'scope', source: 'current_response', text: 'Scope text' },
      ]);
      assert.equal('context' in d.note.interactions[0], false);
      assert.equal('contexts' in d.note.interactions[1], false);
      assert.equal(encodeNote(d.note).includes('"context"'), false);
    });

    it('maps a pre-v1 flat note with line counts', () => {
      const d = valid(
        decodeNote(
          JSON.stringify({
            v: 1,
            session_id: 'old-1',
            timestamp: '2026-03-01T00:00:00.000Z',
            interactions: [{ prompt: 'do it', response: 'done', files_touched: ['a.ts'] }],
            files_in_commit: ['a.ts', 'b.ts'],
            files_by_ai: ['a.ts'],
            ai_ratio: 60,
            ai_added_lines: 3,
            total_added_lines: 5,
            deleted_lines: 1,
            custom: 'kept',
          }),
        ),
      );
      assert.equal(d.legacy, 'flat');
      assert.equal(
        encodeNote(d.note),
        encodeNote({
          v: 1,
          agent: null,
          session_id: 'old-1',
          timestamp: '2026-03-01T00:00:00.000Z',
          model: null,
          interactions: [{ prompt: 'do it', response: 'done', files_touched: ['a.ts'] }],
          files: [
            { path: 'a.ts', by_ai: true },
            { path: 'b.ts', by_ai: false },
          ],
          attribution: { ai_ratio: 60, method: 'line', lines: { ai_added: 3, total_added: 5, deleted: 1 } },
          custom: 'kept',
        }),
      );
    });

    it('maps flat notes with prompts[], zero added lines (none) and without lines (file)', () => {
      const none = valid(
        decodeNote(
          JSON.stringify({
            session_id: 's',
            timestamp: 't',
            prompts: ['a', 'b'],
            files_in_commit: ['x'],
            files_by_ai: ['x'],
            ai_ratio: 100,
            ai_added_lines: 0,
            total_added_lines: 0,
            deleted_lines: 4,
          }),
        ),
      );
      assert.deepEqual(none.note.interactions, [
        { prompt: 'a', response: null },
        { prompt: 'b', response: null },
      ]);
      assert.deepEqual(none.note.attribution, { ai_ratio: 0, method: 'none', lines: { ai_added: 0, total_added: 0, deleted: 4 } });
      const file = valid(
        decodeNote(JSON.stringify({ session_id: 's', timestamp: 't', prompts: [], files_in_commit: ['x', 'y', 'z'], files_by_ai: ['y'] })),
      );
      assert.deepEqual(file.note.attribution, { ai_ratio: 33, method: 'file' });
      assert.equal(file.note.files.length, 3);
    });

    const invalidCases: [string, string, string][] = [
      ['empty text', '', 'empty note'],
      ['whitespace only', ' \n\t\n', 'empty note'],
      ['a plain text note of another tool', 'Reviewed-by: Ann <ann@example.com>\n', 'text note from another tool'],
      ['broken JSON', '{"v": 1, "interactions": [', 'not JSON'],
      ['a JSON array', '[1, 2]', 'not a JSON object (array)'],
      ['JSON null', 'null', 'not a JSON object (null)'],
      ['a JSON number', '42', 'not a JSON object (number)'],
      ['an empty object', '{}', 'missing interactions array'],
      [
        'interactions not an array',
        '{"interactions": {}, "files": [], "attribution": {"ai_ratio": 0, "method": "none"}}',
        'missing interactions array',
      ],
      ['missing files', '{"interactions": [], "attribution": {"ai_ratio": 0, "method": "none"}}', 'missing files array'],
      ['missing attribution', '{"interactions": [], "files": []}', 'missing attribution'],
      ['null attribution', '{"interactions": [], "files": [], "attribution": null}', 'missing attribution'],
      ['attribution not an object', '{"interactions": [], "files": [], "attribution": "line"}', 'attribution is not an object'],
      [
        'interaction without prompt',
        '{"interactions": [{"response": "r"}], "files": [], "attribution": {"ai_ratio": 0, "method": "none"}}',
        'interactions[0].prompt: required',
      ],
      [
        'file without by_ai',
        '{"interactions": [], "files": [{"path": "a"}], "attribution": {"ai_ratio": 0, "method": "none"}}',
        'files[0].by_ai: required',
      ],
      [
        'unknown method',
        '{"interactions": [], "files": [], "attribution": {"ai_ratio": 0, "method": "mixed"}}',
        'attribution.method: unknown value "mixed"',
      ],
      ['two notes concatenated by a squash rewrite', '{"interactions": []}\n\n{"interactions": []}\n', 'several notes concatenated'],
    ];
    for (const [label, text, reason] of invalidCases) {
      it(`reports ${label} as invalid: "${reason}"`, () => {
        const d = decodeNote(text);
        assert.deepEqual(d, { kind: 'invalid', reason, raw: text });
      });
    }

    it('drops malformed optional fields with issues instead of rejecting the note', () => {
      const d = valid(
        decodeNote(
          JSON.stringify({
            ...minimal(),
            agent: 5,
            interactions: [
              { prompt: 'p', response: 3, selection: { schema: 1 }, tools: 'Edit', files_touched: ['a', 7], contexts: [{ kind: 'scope' }] },
            ],
            files: [
              {
                path: 'a',
                by_ai: true,
                generated: 'yes',
                ai_ranges: [
                  { start: 3, end: 1, interaction: null },
                  { start: 1, end: 2, interaction: 0 },
                ],
              },
            ],
            attribution: { ai_ratio: 10, method: 'file', lines: { ai_added: 'x' } },
          }),
        ),
      );
      assert.deepEqual(d.note.interactions[0], { prompt: 'p', response: null, files_touched: ['a'] });
      assert.equal(d.note.agent, null);
      assert.deepEqual(d.note.files[0], { path: 'a', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] });
      assert.deepEqual(d.note.attribution, { ai_ratio: 10, method: 'file' });
      assert.deepEqual(d.issues, [
        'agent is not a string; read as null',
        'interactions[0].response is not a string; read as null',
        'interactions[0].contexts[0].source: required; dropped',
        'interactions[0].files_touched has non-string entries; dropped them',
        'interactions[0].selection.source: required; dropped',
        'interactions[0].tools is not an array; dropped',
        'files[0].generated is not a boolean; dropped',
        'files[0].ai_ranges[0]: end is before start; dropped',
        'attribution.lines.ai_added: expected number, got string; dropped',
      ]);
    });

    it('fills missing header fields the way readers treat them', () => {
      const d = valid(decodeNote('{"interactions": [], "files": [], "attribution": {"ai_ratio": 0, "method": "none"}}'));
      assert.equal(d.note.v, 1);
      assert.equal(d.note.agent, null);
      assert.equal(d.note.model, null);
      assert.equal(d.note.session_id, '');
      assert.deepEqual(d.issues, ['missing session_id; read as ""', 'missing timestamp; read as ""']);
    });

    it('tolerates a BOM and surrounding whitespace, and does not mutate the parsed input', () => {
      const text = `\uFEFF\n${specExample}\n\n`;
      const d = valid(decodeNote(text));
      assert.equal(encodeNote(d.note), specExample);
      const input = { interactions: [{ prompt: 'p', context: 'c' }], files: [], attribution: { ai_ratio: 0, method: 'none' } };
      const snapshot = JSON.stringify(input);
      const r = parseAgentNote(input);
      assert.ok(r.ok);
      assert.equal(JSON.stringify(input), snapshot);
    });

    it('keeps a "__proto__" key as data without touching prototypes', () => {
      const d = valid(
        decodeNote('{"interactions": [], "files": [], "attribution": {"ai_ratio": 0, "method": "none"}, "__proto__": {"polluted": true}}'),
      );
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.getPrototypeOf(d.note), Object.prototype);
      assert.ok(encodeNote(d.note).includes('"__proto__": {'));
    });

    it('never throws on truncated or garbled notes', () => {
      for (const { text } of fixtureNotes().slice(0, 3)) {
        for (let cut = 0; cut < text.length; cut += 7) {
          const d = decodeNote(text.slice(0, cut));
          assert.ok(d.kind === 'invalid' || d.kind === 'valid');
        }
        const garbled = text.replace(/"by_ai": true/g, '"by_ai": "yes"');
        assert.equal(decodeNote(garbled).kind, 'invalid');
      }
    });
  });
});
