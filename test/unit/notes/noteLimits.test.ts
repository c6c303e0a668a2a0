import * as assert from 'node:assert/strict';
import { decodeNote, decodeNoteSafely, encodeNote, tooLargeNote } from '../../../src/core/notes/noteCodec';
import {
  checkJsonShape,
  checkNoteLimits,
  defaultNoteReadLimits,
  formatBytes,
  utf8Length,
  violationReason,
} from '../../../src/core/notes/noteLimits';
import { parseAgentNote } from '../../../src/core/notes/noteSchema';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';

function note(extra: Record<string, unknown> = {}): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: 's-1',
    timestamp: '2026-01-01T00:00:00.000Z',
    model: 'claude-sonnet-4-5',
    interactions: [{ prompt: 'Add a line', response: 'Added.', tools: ['Edit'] }],
    files: [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] }],
    attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } },
    ...extra,
  } as AgentNoteV1;
}

/** A valid-looking note with `inner` (raw JSON text) as the value of an extra interaction key. */
function withRawValue(inner: string): string {
  const base = encodeNote(note());
  return base.replace('"prompt": "Add a line",', `"prompt": "Add a line", "x": ${inner},`);
}

describe('note read limits (noteLimits.ts, decodeNote)', () => {
  it('a 3,000-deep array, object or mixed nesting is invalid with a reason, never a RangeError', () => {
    const depth = 3000;
    const shapes = {
      arrays: '['.repeat(depth) + ']'.repeat(depth),
      objects: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
      mixed: '[{"a":'.repeat(depth / 2) + 'null' + '}]'.repeat(depth / 2),
      unclosed: '['.repeat(depth),
    };
    for (const [name, inner] of Object.entries(shapes)) {
      for (const text of [inner, withRawValue(inner)]) {
        const d = decodeNote(text);
        assert.equal(d.kind, 'invalid', name);
        if (d.kind !== 'invalid') continue;
        assert.equal(d.violation?.kind, 'tooDeep', name);
        assert.equal(d.reason, 'note nested too deeply (more than 32 levels)');
      }
    }
  });

  it('a ~10 KB deeply nested note (the reported crash) decodes to invalid and encodes nothing', () => {
    const text = withRawValue('['.repeat(5000) + ']'.repeat(5000));
    assert.ok(text.length > 10_000);
    assert.doesNotThrow(() => decodeNote(text));
    const safe = decodeNoteSafely(text);
    assert.equal(safe.ok, false);
    if (!safe.ok) {
      assert.equal(safe.size, Buffer.byteLength(text));
      assert.match(safe.reason, /nested too deeply/);
    }
  });

  it('nesting up to the limit is read; one level more is not', () => {
    const limits = { ...defaultNoteReadLimits, maxDepth: 8 };
    // the note itself is depth 1, interactions 2, the interaction 3: `x` adds its own levels
    const ok = withRawValue('['.repeat(5) + ']'.repeat(5));
    const deep = withRawValue('['.repeat(6) + ']'.repeat(6));
    assert.equal(decodeNote(ok, limits).kind, 'valid');
    const d = decodeNote(deep, limits);
    assert.equal(d.kind === 'invalid' && d.violation?.kind, 'tooDeep');
  });

  it('brackets, quotes and backslashes inside strings are not structure', () => {
    const tricky = JSON.stringify('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ \\" \\\\" {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{ ,,,,,,,');
    const d = decodeNote(withRawValue(tricky), { ...defaultNoteReadLimits, maxItems: 60 });
    assert.equal(d.kind, 'valid', d.kind === 'invalid' ? d.reason : '');
    assert.equal(checkJsonShape('"\\\\"[[[', { maxDepth: 2, maxItems: 10 })?.kind, 'tooDeep', 'an escaped backslash ends the string');
    assert.equal(checkJsonShape('"\\"[[[["', { maxDepth: 2, maxItems: 10 }), undefined, 'an escaped quote does not');
  });

  it('counts values: the item cap stops wide arrays and objects', () => {
    const limits = { ...defaultNoteReadLimits, maxItems: 1000 };
    const wide = withRawValue(`[${Array.from({ length: 2000 }, () => '0').join(',')}]`);
    const d = decodeNote(wide, limits);
    assert.equal(d.kind === 'invalid' && d.violation?.kind, 'tooManyItems');
    assert.equal(d.kind === 'invalid' && d.reason, 'note has too many values (more than 1,000)');
    const keys = withRawValue(`{${Array.from({ length: 600 }, (_, i) => `"k${i}":[]`).join(',')}}`);
    assert.equal(decodeNote(keys, limits).kind, 'invalid');
    assert.equal(decodeNote(withRawValue('[0,1,2]'), limits).kind, 'valid');
    // the count is close to the real number of values
    assert.equal(checkJsonShape('[1,2,3]', { maxDepth: 4, maxItems: 3 })?.kind, 'tooManyItems');
    assert.equal(checkJsonShape('[1,2,3]', { maxDepth: 4, maxItems: 4 }), undefined);
    assert.equal(checkJsonShape('[[],[],{}]', { maxDepth: 4, maxItems: 4 }), undefined);
    assert.equal(checkJsonShape('[[],[],{}]', { maxDepth: 4, maxItems: 3 })?.kind, 'tooManyItems');
    assert.equal(checkJsonShape('{"a": true, "b": [null]}', { maxDepth: 4, maxItems: 6 }), undefined, 'keys count as values');
    assert.equal(checkJsonShape('{"a": true, "b": [null]}', { maxDepth: 4, maxItems: 5 })?.kind, 'tooManyItems');
  });

  it('a 30 MB note is "note too large" with its size, and is never parsed', () => {
    const huge = withRawValue(JSON.stringify('y'.repeat(30 * 1024 * 1024)));
    const started = performance.now();
    const d = decodeNote(huge);
    const ms = performance.now() - started;
    assert.equal(d.kind, 'invalid');
    if (d.kind !== 'invalid') return;
    assert.equal(d.violation?.kind, 'tooLarge');
    assert.equal(d.violation?.kind === 'tooLarge' && d.violation.size, Buffer.byteLength(huge));
    assert.equal(d.reason, 'note too large (30.0 MiB; the limit is 1.0 MiB)');
    assert.equal(d.raw, '', 'the text is not kept');
    // one pass to count the bytes, no JSON.parse (which alone would take far longer and allocate the whole value)
    assert.ok(ms < 2000, `${ms} ms`);
    // bytes over the limit are not even decoded to a string
    const bytes = new Uint8Array(3 * 1024 * 1024);
    const safe = decodeNoteSafely(bytes);
    assert.deepEqual(safe, {
      ok: false,
      reason: 'note too large (3.0 MiB; the limit is 1.0 MiB)',
      size: 3 * 1024 * 1024,
      violation: { kind: 'tooLarge', size: 3 * 1024 * 1024, limit: 1024 * 1024 },
    });
  });

  it('sizes are UTF-8 bytes, not UTF-16 units', () => {
    assert.equal(utf8Length('aé€😀'), 1 + 2 + 3 + 4);
    assert.equal(utf8Length('\ud800'), 3, 'a lone surrogate is written as U+FFFD');
    const limits = { ...defaultNoteReadLimits, maxBytes: 30 };
    assert.equal(checkNoteLimits('€'.repeat(10), limits), undefined);
    assert.deepEqual(checkNoteLimits('€'.repeat(11), limits), { kind: 'tooLarge', size: 33, limit: 30 });
    assert.equal(formatBytes(12), '12 bytes');
    assert.equal(formatBytes(31_457_280), '30.0 MiB');
    assert.equal(
      violationReason({ kind: 'tooLarge', size: 1_048_700, limit: 1_048_576 }),
      'note too large (1,048,700 bytes; the limit is 1,048,576 bytes)',
    );
    assert.deepEqual(tooLargeNote(5_000_000), {
      kind: 'invalid',
      reason: 'note too large (4.8 MiB; the limit is 1.0 MiB)',
      raw: '',
      violation: { kind: 'tooLarge', size: 5_000_000, limit: 1024 * 1024 },
    });
  });

  it('decodeNoteSafely: bytes or text in, { ok, note } or { ok: false, reason, size } out', () => {
    const text = encodeNote(note());
    const fromText = decodeNoteSafely(text);
    const fromBytes = decodeNoteSafely(new TextEncoder().encode(text));
    assert.equal(fromText.ok && fromText.note.model, 'claude-sonnet-4-5');
    assert.deepEqual(fromBytes, fromText);
    assert.deepEqual(decodeNoteSafely('Reviewed-by: Ann'), { ok: false, reason: 'text note from another tool', size: 16 });
    assert.deepEqual(decodeNoteSafely('{"interactions": []}'), { ok: false, reason: 'missing files array', size: 20 });
  });

  it('parseAgentNote never throws, even on a value deeper than the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const value = { ...note(), interactions: [{ prompt: 'p', response: null, x: deep }] };
    const r = parseAgentNote(value);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.reason : '', /^unreadable note structure/);
  });

  it('decoding never throws on mutated notes (fuzz, fixed seed)', () => {
    const base = encodeNote(note({ superseded_notes: [note({ model: 'old' })] }));
    const pieces = [
      '[',
      ']',
      '{',
      '}',
      '"',
      '\\',
      ',',
      ':',
      'null',
      '1e999',
      '-',
      '\u0000',
      '\ud800',
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[',
      '"__proto__":',
    ];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      let text = base;
      for (let k = 0; k < 1 + rand(4); k++) {
        const at = rand(text.length);
        const op = rand(3);
        if (op === 0) text = text.slice(0, at) + pieces[rand(pieces.length)] + text.slice(at);
        else if (op === 1) text = text.slice(0, at) + text.slice(at + 1 + rand(20));
        else text = text.slice(0, at) + pieces[rand(pieces.length)].repeat(1 + rand(200)) + text.slice(at);
      }
      const d = decodeNote(text);
      assert.ok(d.kind === 'valid' || typeof d.reason === 'string');
      if (d.kind === 'valid') assert.doesNotThrow(() => encodeNote(d.note));
    }
  });
});
