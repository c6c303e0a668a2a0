import { decodeNote, encodeNote } from '../../core/notes/noteCodec';
import type { AgentNoteV1 } from '../../core/notes/noteTypes';

/**
 * Extra top-level key (ours, additive; the CLI ignores unknown keys) holding the notes that lost
 * a sharing conflict, so nothing is lost: an array of complete v1 note objects, or
 * `{ "invalid_note": "<raw text>" }` for a losing note that was not valid JSON/v1.
 */
export const supersededNotesKey = 'superseded_notes';

type JsonObject = Record<string, unknown>;

function timeOf(note: AgentNoteV1): number {
  const t = Date.parse(note.timestamp);
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

function withoutSuperseded(note: AgentNoteV1): AgentNoteV1 {
  const copy = { ...note } as JsonObject;
  delete copy[supersededNotesKey];
  return copy as AgentNoteV1;
}

function supersededOf(note: AgentNoteV1): unknown[] {
  const v = (note as JsonObject)[supersededNotesKey];
  return Array.isArray(v) ? v : [];
}

const canonical = (v: unknown): string =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Array.isArray((v as JsonObject).interactions)
    ? encodeNote(v as AgentNoteV1)
    : JSON.stringify(v);

/**
 * Resolves two different notes for the same commit (a notes merge conflict between clones)
 * without losing either, deterministically and symmetrically — resolve(a, b) === resolve(b, a),
 * so two clones that resolve the same conflict independently produce the same bytes and their
 * notes refs converge:
 * - the note with the later `timestamp` (record time) wins and stays the note's content; on a
 *   tie the one whose canonical encoding sorts last wins;
 * - the loser (and anything either side had already superseded) is kept under
 *   `superseded_notes`, deduplicated and sorted by canonical encoding;
 * - a valid note always beats an invalid one (the invalid text is kept as `{invalid_note}`);
 *   of two invalid notes the text that sorts last is kept and the other is dropped (neither is
 *   usable Agent Note data).
 * Returns the text to store.
 */
export function resolveNoteConflict(a: string, b: string): string {
  const da = decodeNote(a);
  const db = decodeNote(b);
  if (da.kind === 'invalid' && db.kind === 'invalid') return a > b ? a : b;
  if (da.kind === 'invalid' || db.kind === 'invalid') {
    const good = da.kind === 'valid' ? da : db;
    const bad = da.kind === 'invalid' ? da : db;
    if (good.kind !== 'valid') return a;
    return encodeWith(good.note, [...supersededOf(good.note), { invalid_note: bad.raw }]);
  }
  const na = withoutSuperseded(da.note);
  const nb = withoutSuperseded(db.note);
  const ca = encodeNote(na);
  const cb = encodeNote(nb);
  const pool = [...supersededOf(da.note), ...supersededOf(db.note)];
  if (ca === cb) return encodeWith(na, pool);
  const ta = timeOf(na);
  const tb = timeOf(nb);
  const aWins = ta !== tb ? ta > tb : ca > cb;
  const [winner, loser] = aWins ? [na, nb] : [nb, na];
  return encodeWith(winner, [...pool, loser]);
}

function encodeWith(winner: AgentNoteV1, superseded: unknown[]): string {
  const winnerText = encodeNote(withoutSuperseded(winner));
  const unique = new Map<string, unknown>();
  for (const s of superseded) {
    const key = canonical(s);
    if (key !== winnerText) unique.set(key, s);
  }
  const base = withoutSuperseded(winner) as JsonObject;
  if (unique.size === 0) return encodeNote(base as AgentNoteV1);
  const sorted = [...unique.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, v]) => v);
  return encodeNote({ ...base, [supersededNotesKey]: sorted } as unknown as AgentNoteV1);
}
