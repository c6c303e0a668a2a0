import { decodeNoteWithinLimits, encodeNote, type NoteReadLimitsInput } from '../../core/notes/noteCodec';
import type { AgentNoteV1 } from '../../core/notes/noteTypes';
import { systemClock } from '../../core/ports';

/**
 * Extra top-level key (ours, additive; the CLI ignores unknown keys) holding the notes that lost
 * a sharing conflict, so nothing is lost: an array of complete v1 note objects, or
 * `{ "invalid_note": "<raw text>" }` for a losing note that was not valid JSON/v1, or
 * `{ "invalid_note_omitted": { "characters"|"bytes": n, "reason": "…", "blob"?: "<id>" } }` when
 * that text was too large to keep inline (the note itself stays in the notes history: a merge
 * commit keeps both sides as parents).
 */
export const supersededNotesKey = 'superseded_notes';

/** A note that was not read at all (too large): only what git told about it. */
export interface OmittedNote {
  omitted: { blob?: string; bytes: number; reason: string };
}

export type ConflictSide = string | OmittedNote;

export interface ConflictOptions {
  /** Time of the merge (epoch ms, default now). */
  now?: number;
  /** A `timestamp` later than `now` + this (default 10 min) cannot win: it ranks like a missing one. */
  futureToleranceMs?: number;
  /** Most entries kept in `superseded_notes` (default 8): the most recent by the same bounded rule. */
  maxSuperseded?: number;
  /** Longest invalid note text kept inline in `superseded_notes` (default 16 KiB), else a summary. */
  maxInvalidChars?: number;
  /** Read limits for both notes (see decodeNoteWithinLimits). */
  limits?: NoteReadLimitsInput;
}

export interface ConflictResolution {
  text: string;
  /** Why a side was not used as a note (invalid, too large…), one entry per such side. */
  skipped: string[];
  /** Superseded entries left out because of `maxSuperseded`. */
  droppedSuperseded: number;
}

type JsonObject = Record<string, unknown>;

const defaults = { futureToleranceMs: 10 * 60_000, maxSuperseded: 8, maxInvalidChars: 16 * 1024 };

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The bounded rank of a note's `timestamp`: missing, unparsable and future times are -Infinity. */
function boundedTime(value: unknown, latest: number): number {
  if (!isObject(value) || typeof value.timestamp !== 'string') return Number.NEGATIVE_INFINITY;
  const t = Date.parse(value.timestamp);
  return Number.isFinite(t) && t <= latest ? t : Number.NEGATIVE_INFINITY;
}

function withoutSuperseded<T extends JsonObject>(note: T): T {
  const copy = { ...note } as JsonObject;
  delete copy[supersededNotesKey];
  return copy as T;
}

/** The superseded entries of a note, nested lists lifted one level (and stripped), non-objects left out. */
function supersededOf(note: JsonObject): JsonObject[] {
  const v = note[supersededNotesKey];
  if (!Array.isArray(v)) return [];
  const out: JsonObject[] = [];
  for (const entry of v) {
    if (!isObject(entry)) continue;
    const nested = entry[supersededNotesKey];
    if (Array.isArray(nested)) for (const n of nested) if (isObject(n)) out.push(withoutSuperseded(n));
    out.push(withoutSuperseded(entry));
  }
  return out;
}

function safeEncode(v: JsonObject): string {
  try {
    return Array.isArray(v.interactions) ? encodeNote(v as AgentNoteV1) : JSON.stringify(v);
  } catch {
    return JSON.stringify({ unencodable: true });
  }
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Resolves two different notes for the same commit (a notes merge conflict between clones)
 * without losing either, deterministically and symmetrically — resolve(a, b) === resolve(b, a),
 * so two clones that resolve the same conflict produce the same bytes and their notes refs converge:
 * - the note with the later `timestamp` (record time) wins and stays the note's content. The rule
 *   is bounded: a timestamp later than the merge time (+ `futureToleranceMs`) ranks like a missing
 *   one, so a note dated in the future cannot win; on a tie the one whose canonical encoding
 *   sorts last wins;
 * - the loser (and anything either side had already superseded) is kept under
 *   `superseded_notes`, deduplicated, at most `maxSuperseded` entries (the most recent by the
 *   same rule), sorted by canonical encoding;
 * - a valid note always beats an invalid or unread one (kept as `{invalid_note}` or, when large,
 *   `{invalid_note_omitted}`); of two unusable notes the text that sorts last is kept.
 * Both notes are read with limits (decodeNoteWithinLimits); nothing here throws.
 */
export function resolveNoteConflictDetailed(a: ConflictSide, b: ConflictSide, opts: ConflictOptions = {}): ConflictResolution {
  const o = { ...defaults, ...opts };
  const latest = (opts.now ?? systemClock.now()) + o.futureToleranceMs;
  const decode = (side: ConflictSide) =>
    typeof side === 'string' ? decodeNoteWithinLimits(side, opts.limits) : ({ kind: 'omitted', omitted: side.omitted } as const);
  const da = decode(a);
  const db = decode(b);
  const skipped: string[] = [];
  const unusable = (d: typeof da): JsonObject => {
    if (d.kind === 'omitted') {
      skipped.push(d.omitted.reason);
      return { invalid_note_omitted: { ...d.omitted } };
    }
    if (d.kind === 'invalid' && d.violation?.kind === 'tooLarge') {
      // over the read limit: never loaded, so only its size and the reason are kept
      skipped.push(d.reason);
      return { invalid_note_omitted: { bytes: d.violation.size, reason: d.reason } };
    }
    if (d.kind === 'invalid') {
      skipped.push(d.reason);
      return d.raw.length <= o.maxInvalidChars
        ? { invalid_note: d.raw }
        : { invalid_note_omitted: { characters: d.raw.length, reason: d.reason } };
    }
    return {};
  };
  if (da.kind !== 'valid' && db.kind !== 'valid') {
    unusable(da);
    unusable(db);
    // neither is Agent Note data: keep one text as it is (the other stays in the notes history)
    const ta = typeof a === 'string' ? a : '';
    const tb = typeof b === 'string' ? b : '';
    return { text: ta >= tb ? ta : tb, skipped, droppedSuperseded: 0 };
  }
  if (da.kind !== 'valid' || db.kind !== 'valid') {
    const good = (da.kind === 'valid' ? da : db) as Extract<typeof da, { kind: 'valid' }>;
    const bad = da.kind === 'valid' ? db : da;
    return encodeWith(good.note, [...supersededOf(good.note), unusable(bad)], latest, o.maxSuperseded, skipped);
  }
  const na = withoutSuperseded(da.note);
  const nb = withoutSuperseded(db.note);
  const ca = safeEncode(na);
  const cb = safeEncode(nb);
  const pool = [...supersededOf(da.note), ...supersededOf(db.note)];
  if (ca === cb) return encodeWith(na, pool, latest, o.maxSuperseded, skipped);
  const ta = boundedTime(na, latest);
  const tb = boundedTime(nb, latest);
  const aWins = ta !== tb ? ta > tb : ca > cb;
  const [winner, loser] = aWins ? [na, nb] : [nb, na];
  return encodeWith(winner, [...pool, loser], latest, o.maxSuperseded, skipped);
}

/** resolveNoteConflictDetailed(a, b, opts).text */
export function resolveNoteConflict(a: ConflictSide, b: ConflictSide, opts: ConflictOptions = {}): string {
  return resolveNoteConflictDetailed(a, b, opts).text;
}

function encodeWith(winner: AgentNoteV1, superseded: JsonObject[], latest: number, max: number, skipped: string[]): ConflictResolution {
  const base = withoutSuperseded(winner as JsonObject);
  const winnerText = safeEncode(base);
  const unique = new Map<string, JsonObject>();
  for (const s of superseded) {
    const key = safeEncode(s);
    if (key !== winnerText) unique.set(key, s);
  }
  // the most recent `max` (bounded time, then canonical order), written in canonical order
  const newerFirst = ([kx, x]: [string, JsonObject], [ky, y]: [string, JsonObject]): number => {
    const tx = boundedTime(x, latest);
    const ty = boundedTime(y, latest);
    return tx === ty ? compare(ky, kx) : ty > tx ? 1 : -1;
  };
  const kept = [...unique.entries()]
    .sort(newerFirst)
    .slice(0, Math.max(0, max))
    .sort(([x], [y]) => compare(x, y));
  const droppedSuperseded = unique.size - kept.length;
  if (kept.length === 0) return { text: encodeNote(base as AgentNoteV1), skipped, droppedSuperseded };
  const text = encodeNote({ ...base, [supersededNotesKey]: kept.map(([, v]) => v) } as unknown as AgentNoteV1);
  return { text, skipped, droppedSuperseded };
}
