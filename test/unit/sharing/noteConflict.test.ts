import * as assert from 'node:assert/strict';
import { decodeNote, encodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { resolveNoteConflict, resolveNoteConflictDetailed, supersededNotesKey } from '../../../src/node/sharing/noteConflict';

export function note(prompt: string, timestamp: string, extra: Partial<AgentNoteV1> = {}): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: 'sess-1',
    timestamp,
    model: null,
    interactions: [{ prompt, response: null }],
    files: [{ path: 'a.txt', by_ai: true }],
    attribution: { ai_ratio: 100, method: 'file' },
    ...extra,
  };
}

const now = Date.parse('2026-03-01T12:00:00.000Z');
const opts = { now };

describe('resolveNoteConflict', () => {
  const older = encodeNote(note('older', '2026-03-01T10:00:00.000Z'));
  const newer = encodeNote(note('newer', '2026-03-01T11:00:00.000Z'));

  it('keeps the later note and the other under superseded_notes, symmetrically', () => {
    const r1 = resolveNoteConflict(older, newer, opts);
    assert.equal(r1, resolveNoteConflict(newer, older, opts));
    assert.equal(r1, encodeNote({ ...note('newer', '2026-03-01T11:00:00.000Z'), [supersededNotesKey]: [JSON.parse(older)] }));
  });

  it('breaks ties deterministically, merges earlier superseded lists without duplicates, and is idempotent', () => {
    const x = encodeNote(note('x', '2026-03-01T10:00:00.000Z'));
    const y = encodeNote(note('y', '2026-03-01T10:00:00.000Z'));
    assert.equal(resolveNoteConflict(x, y, opts), resolveNoteConflict(y, x, opts));
    const first = resolveNoteConflict(older, newer, opts);
    const third = encodeNote(note('third', '2026-03-01T11:30:00.000Z'));
    const merged = resolveNoteConflict(first, third, opts);
    assert.equal(merged, resolveNoteConflict(third, first, opts));
    const d = decodeNote(merged);
    assert.ok(d.kind === 'valid');
    assert.equal(d.note.interactions[0].prompt, 'third');
    assert.deepEqual((d.note[supersededNotesKey] as AgentNoteV1[]).map((n) => n.interactions[0].prompt).sort(), ['newer', 'older']);
    assert.equal(resolveNoteConflict(merged, first, opts), merged, 'resolving again changes nothing');
    assert.equal(resolveNoteConflict(older, older, opts), older);
  });

  it('a timestamp from the future cannot win (bounded rule)', () => {
    const future = encodeNote(note('from the future', '2099-01-01T00:00:00.000Z'));
    const r = decodeNote(resolveNoteConflict(older, future, opts));
    assert.ok(r.kind === 'valid');
    assert.equal(r.note.interactions[0].prompt, 'older', 'the plausible note wins');
    assert.equal((r.note[supersededNotesKey] as AgentNoteV1[])[0].interactions[0].prompt, 'from the future', 'and the other is kept');
    // within the tolerance (clock skew of a few minutes) the later one still wins
    const skewed = encodeNote(note('skewed', '2026-03-01T12:05:00.000Z'));
    const s = decodeNote(resolveNoteConflict(older, skewed, opts));
    assert.ok(s.kind === 'valid' && s.note.interactions[0].prompt === 'skewed');
    // an unparsable timestamp ranks like a missing one
    const bogus = encodeNote(note('bogus', 'tomorrow'));
    const b = decodeNote(resolveNoteConflict(older, bogus, opts));
    assert.ok(b.kind === 'valid' && b.note.interactions[0].prompt === 'older');
  });

  it('caps superseded_notes to the most recent entries, also against nested lists', () => {
    let acc = encodeNote(note('n0', '2026-02-01T00:00:00.000Z'));
    for (let i = 1; i <= 20; i++)
      acc = resolveNoteConflict(acc, encodeNote(note(`n${i}`, `2026-02-${String(i + 1).padStart(2, '0')}T00:00:00.000Z`)), opts);
    const d = decodeNote(acc);
    assert.ok(d.kind === 'valid');
    assert.equal(d.note.interactions[0].prompt, 'n20');
    const kept = (d.note[supersededNotesKey] as AgentNoteV1[]).map((n) => n.interactions[0].prompt);
    assert.equal(kept.length, 8);
    assert.deepEqual([...kept].sort(), ['n12', 'n13', 'n14', 'n15', 'n16', 'n17', 'n18', 'n19']);
    // a hostile note nesting superseded lists inside superseded entries does not grow past the cap
    const nested: Record<string, unknown> = { ...note('deep', '2026-01-01T00:00:00.000Z') };
    let inner: Record<string, unknown> = nested;
    for (let i = 0; i < 30; i++) {
      const child = { ...note(`level${i}`, '2026-01-01T00:00:00.000Z') } as Record<string, unknown>;
      inner[supersededNotesKey] = [child, ...Array.from({ length: 5 }, (_, k) => note(`side${i}-${k}`, '2026-01-01T00:00:00.000Z'))];
      inner = child;
    }
    const r = resolveNoteConflictDetailed(JSON.stringify(nested, null, 2), newer, { ...opts, limits: { maxDepth: 1000 } });
    const rd = decodeNote(r.text);
    assert.ok(rd.kind === 'valid');
    assert.ok((rd.note[supersededNotesKey] as unknown[]).length <= 8);
    assert.ok(r.droppedSuperseded > 0);
  });

  it('prefers a valid note, keeps small invalid text and summarizes large or unread notes, never throws', () => {
    const r = decodeNote(resolveNoteConflict('Reviewed-by: x\n', older, opts));
    assert.ok(r.kind === 'valid');
    assert.deepEqual(r.note[supersededNotesKey], [{ invalid_note: 'Reviewed-by: x\n' }]);
    assert.equal(resolveNoteConflict('a\n', 'b\n', opts), 'b\n');

    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const dr = resolveNoteConflictDetailed(deep, older, opts);
    const dd = decodeNote(dr.text);
    assert.ok(dd.kind === 'valid');
    assert.equal(dd.note.interactions[0].prompt, 'older');
    assert.deepEqual(dr.skipped, ['note nested too deeply (more than 32 levels)']);
    assert.deepEqual(dd.note[supersededNotesKey], [
      { invalid_note_omitted: { characters: 20_000, reason: 'note nested too deeply (more than 32 levels)' } },
    ]);

    const unread = resolveNoteConflictDetailed(
      { omitted: { blob: 'a'.repeat(40), bytes: 31_000_000, reason: 'note too large' } },
      newer,
      opts,
    );
    const ud = decodeNote(unread.text);
    assert.ok(ud.kind === 'valid');
    assert.deepEqual(ud.note[supersededNotesKey], [
      { invalid_note_omitted: { blob: 'a'.repeat(40), bytes: 31_000_000, reason: 'note too large' } },
    ]);
  });
});
