/**
 * Byte-exact encode/decode of Agent Note schema v1 git notes (docs/note-format.md §1).
 *
 * The CLI stores `JSON.stringify(entry, null, 2)` + one `\n` (git's stripspace adds it). Our
 * encoder reproduces those bytes with the documented key order at every level; keys unknown to
 * us are written after the known keys, in their original order. Decoding never throws.
 */
import {
  checkNoteLimits,
  defaultNoteReadLimits,
  type NoteLimitViolation,
  type NoteReadLimits,
  utf8Length,
  violationReason,
} from './noteLimits';
import { normalizeContexts, parseAgentNote, type NoteLegacyForm } from './noteSchema';
import type { AgentNoteV1, NoteContext } from './noteTypes';

export type DecodedNote =
  | {
      kind: 'valid';
      note: AgentNoteV1;
      /** Which legacy form was converted: `context` (old interaction key) or `flat` (pre-v1). */
      legacy: NoteLegacyForm;
      /** The note text as read. */
      raw: string;
      /** Malformed optional fields that were dropped while reading (empty for CLI-written notes). */
      issues: string[];
    }
  | {
      kind: 'invalid';
      /** Short, human readable, e.g. "not JSON", "missing interactions array", "note too large (31.5 MB; …)". */
      reason: string;
      /** The note text as read; empty for a note over the size limit (it is never loaded). */
      raw: string;
      /** Set when a read limit (noteLimits.ts) was passed: the note was not parsed. */
      violation?: NoteLimitViolation;
    };

const topKeys = ['v', 'agent', 'session_id', 'timestamp', 'model', 'interactions', 'files', 'attribution', 'derived_from'];
const interactionKeys = ['prompt', 'response', 'contexts', 'files_touched', 'selection', 'tools'];
const fileKeys = ['path', 'by_ai', 'generated', 'ai_ratio_excluded', 'ai_ranges', 'ai_line_hashes'];
const attributionKeys = ['ai_ratio', 'method', 'lines'];
const linesKeys = ['ai_added', 'total_added', 'deleted'];
const contextKeys = ['kind', 'source', 'text'];
const selectionKeys = ['schema', 'source', 'signals'];
const aiRangeKeys = ['start', 'end', 'interaction'];

type JsonObject = Record<string, unknown>;
type Transform = (key: string, value: unknown) => unknown;

function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A copy of `obj` with `known` keys first (in that order, skipping undefined), then every other
 * own key in its original order. `skip` keys are left out entirely.
 */
function ordered(obj: JsonObject, known: readonly string[], transform?: Transform, skip: readonly string[] = []): JsonObject {
  const out: JsonObject = {};
  const put = (k: string, v: unknown) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const k of known) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
    const v = transform ? transform(k, obj[k]) : obj[k];
    if (v !== undefined) put(k, v);
  }
  for (const k of Object.keys(obj)) {
    if (known.includes(k) || skip.includes(k)) continue;
    if (obj[k] !== undefined) put(k, obj[k]);
  }
  return out;
}

const orderEach = (arr: unknown, keys: readonly string[], transform?: Transform): unknown =>
  Array.isArray(arr) ? arr.map((el) => (isPlainObject(el) ? ordered(el, keys, transform) : el)) : arr;

function encodeInteraction(it: JsonObject): JsonObject {
  // The writer never emits the legacy `context` key: it is folded into contexts[] (§1.3), and
  // contexts are trimmed/deduplicated like the CLI's buildEntry does.
  const legacy = typeof it.context === 'string' ? it.context : undefined;
  const contexts = Array.isArray(it.contexts)
    ? (it.contexts as unknown[]).filter((c): c is NoteContext => isPlainObject(c) && typeof c.text === 'string')
    : [];
  const normalized = normalizeContexts(legacy, contexts).map((c) => ordered(c as unknown as JsonObject, contextKeys));
  const src: JsonObject = { ...it, contexts: normalized.length > 0 ? normalized : undefined };
  return ordered(
    src,
    interactionKeys,
    (k, v) => {
      if (k === 'files_touched') return Array.isArray(v) && v.length === 0 ? undefined : v;
      if (k === 'selection') return isPlainObject(v) ? ordered(v, selectionKeys) : v;
      return v;
    },
    ['context'],
  );
}

/**
 * Serializes a note exactly like the Agent Note CLI stores it: 2-space pretty JSON in the
 * documented key order, unknown keys after the known ones, one trailing newline.
 * Empty `contexts` / `files_touched` are omitted (the CLI never writes them empty).
 */
export function encodeNote(note: AgentNoteV1): string {
  const top = ordered(note, topKeys, (k, v) => {
    switch (k) {
      case 'interactions':
        return Array.isArray(v) ? v.map((it) => (isPlainObject(it) ? encodeInteraction(it) : it)) : v;
      case 'files':
        return Array.isArray(v)
          ? v.map((f) => (isPlainObject(f) ? ordered(f, fileKeys, (fk, fv) => (fk === 'ai_ranges' ? orderEach(fv, aiRangeKeys) : fv)) : f))
          : v;
      case 'attribution':
        return isPlainObject(v)
          ? ordered(v, attributionKeys, (ak, av) => (ak === 'lines' && isPlainObject(av) ? ordered(av, linesKeys) : av))
          : v;
      default:
        return v;
    }
  });
  return `${JSON.stringify(top, null, 2)}\n`;
}

/** Finds where the first top-level JSON value of `text` ends (index after it), or -1. */
function endOfFirstValue(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

function classifyUnparsable(trimmed: string): string {
  if (!/^[[{]/.test(trimmed)) return 'text note from another tool';
  const end = endOfFirstValue(trimmed);
  if (end > 0 && end < trimmed.length && /^\s*[[{]/.test(trimmed.slice(end))) {
    try {
      JSON.parse(trimmed.slice(0, end));
      // e.g. notes.rewriteMode=concatenate after a squash: "{…}\n\n{…}".
      return 'several notes concatenated';
    } catch {
      /* fall through */
    }
  }
  return 'not JSON';
}

/** The invalid result for a note that is not even read (its size is known from git). */
export function tooLargeNote(size: number, limits: Pick<NoteReadLimits, 'maxBytes'> = defaultNoteReadLimits): DecodedNote {
  const violation: NoteLimitViolation = { kind: 'tooLarge', size, limit: limits.maxBytes };
  return { kind: 'invalid', reason: violationReason(violation), raw: '', violation };
}

/**
 * Decodes a note's text under read limits (noteLimits.ts: size, nesting depth, number of values;
 * checked before JSON.parse). Never throws: anything unusable is `{kind:'invalid', reason}`.
 * Like the CLI, surrounding whitespace is ignored; a UTF-8 BOM is tolerated.
 */
export function decodeNote(text: string, limits: NoteReadLimits = defaultNoteReadLimits): DecodedNote {
  try {
    const violation = checkNoteLimits(text, limits);
    if (violation)
      return { kind: 'invalid', reason: violationReason(violation), raw: violation.kind === 'tooLarge' ? '' : text, violation };
    return decodeWithinLimits(text);
  } catch (e) {
    // a last resort: nothing above should throw on any input
    return { kind: 'invalid', reason: `unreadable note (${e instanceof Error ? e.name : 'error'})`, raw: '' };
  }
}

function decodeWithinLimits(text: string): DecodedNote {
  const raw = text;
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return { kind: 'invalid', reason: 'empty note', raw };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { kind: 'invalid', reason: classifyUnparsable(trimmed), raw };
  }
  const r = parseAgentNote(value);
  if (!r.ok) return { kind: 'invalid', reason: r.reason, raw };
  return { kind: 'valid', note: r.note, legacy: r.legacy, raw, issues: r.issues };
}

export type SafeDecodeResult =
  | { ok: true; note: AgentNoteV1; legacy: NoteLegacyForm; issues: string[]; raw: string }
  | {
      ok: false;
      /** Why the note cannot be used ("note too large (…)", "not JSON", "missing files array"…). */
      reason: string;
      /** Size of the input in UTF-8 bytes. */
      size: number;
      violation?: NoteLimitViolation;
    };

/**
 * The simple entry point for any code that handles a note from outside (sharing, merge, push):
 * bytes or text in, a usable note or a reason out. Bytes over `limits.maxBytes` are not even
 * decoded to a string. Never throws.
 */
export function decodeNoteSafely(input: string | Uint8Array, limits: NoteReadLimits = defaultNoteReadLimits): SafeDecodeResult {
  let text: string;
  let size: number;
  if (typeof input === 'string') {
    text = input;
    size = -1;
  } else {
    size = input.byteLength;
    if (size > limits.maxBytes) {
      const d = tooLargeNote(size, limits);
      return { ok: false, reason: d.kind === 'invalid' ? d.reason : '', size, violation: d.kind === 'invalid' ? d.violation : undefined };
    }
    text = new TextDecoder('utf-8', { fatal: false }).decode(input);
  }
  const d = decodeNote(text, limits);
  if (d.kind === 'valid') return { ok: true, note: d.note, legacy: d.legacy, issues: d.issues, raw: d.raw };
  if (size < 0) size = d.violation?.kind === 'tooLarge' ? d.violation.size : utf8Length(text);
  return { ok: false, reason: d.reason, size, ...(d.violation ? { violation: d.violation } : {}) };
}

/** Limits as `decodeNoteWithinLimits` takes them: any of the read limits, and `maxChars` (UTF-16 units, a lower bound of the UTF-8 size). */
export type NoteReadLimitsInput = Partial<NoteReadLimits> & { maxChars?: number };

/**
 * decodeNote for notes from other clones and tools (merge, push), with the read limits of
 * noteLimits.ts (defaults, or those given). Kept for the sharing code's contract; same as
 * `decodeNote(text, limits)`. Never throws.
 */
export function decodeNoteWithinLimits(text: string, limits: NoteReadLimitsInput = {}): DecodedNote {
  const { maxChars, ...rest } = limits;
  return decodeNote(text, { ...defaultNoteReadLimits, ...(maxChars !== undefined ? { maxBytes: maxChars } : {}), ...rest });
}

export type { NoteReadLimits } from './noteLimits';
