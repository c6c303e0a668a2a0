/**
 * Limits under which an untrusted git note is read (issue #14 part 3). Notes come from remotes and
 * other tools: a note is parsed only when it is at most `maxBytes` long, nests at most `maxDepth`
 * arrays/objects and holds at most `maxItems` values in all. The shape is checked by one linear
 * scan of the text before `JSON.parse`, so a note that breaks a limit costs no parse, no recursion
 * and no object graph. Pure.
 *
 * Why these numbers: the Agent Note CLI cannot write a note above ~128 KiB on Linux (argv limit,
 * docs/note-format.md §1.1) and our writer caps its notes at {@link noteWriteLimits}.maxBytes; a
 * v1 note nests 5 levels (note → interactions → [i] → selection → signals), 7 inside
 * `superseded_notes`; a 10,000-file commit is ~40,000 values.
 */

export interface NoteReadLimits {
  /** Largest note (UTF-8 bytes) that is parsed at all; larger ones are "note too large". */
  maxBytes: number;
  /** Deepest nesting of arrays/objects (the top-level object is depth 1). */
  maxDepth: number;
  /** Most JSON values (every object, array, string, number, literal) in the note. */
  maxItems: number;
}

export const defaultNoteReadLimits: Readonly<NoteReadLimits> = Object.freeze({
  maxBytes: 1024 * 1024,
  maxDepth: 32,
  maxItems: 200_000,
});

/** Limits of the notes we write ourselves (noteSize.ts); well inside the read limits. */
export const noteWriteLimits = Object.freeze({
  /** Total encoded size of a note we write. */
  maxBytes: 256 * 1024,
  /** A response longer than this (characters) is cut, with {@link truncationMarker}. */
  maxResponseChars: 8_000,
  /** When the note is still too large: every prompt, response and context is cut to this. */
  squeezedTextChars: 2_000,
});

/** What a cut text ends with: `…[cut by Agent Note: 12,345 more characters]`. */
export function truncationMarker(omittedChars: number): string {
  return `…[cut by Agent Note: ${omittedChars.toLocaleString('en-US')} more characters]`;
}

export type NoteLimitViolation =
  | { kind: 'tooLarge'; size: number; limit: number }
  | { kind: 'tooDeep'; limit: number }
  | { kind: 'tooManyItems'; limit: number };

/** "28.6 MiB", "820.0 KiB", "12 bytes" (binary units, one decimal). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(n / (1024 * 1024 * 1024)).toFixed(2)} GiB`;
}

/** Short reason for a violation, shown on every surface ("note too large (28.6 MiB; the limit is 1.0 MiB)"). */
export function violationReason(v: NoteLimitViolation): string {
  switch (v.kind) {
    case 'tooLarge': {
      let size = formatBytes(v.size);
      let limit = formatBytes(v.limit);
      if (size === limit) {
        size = `${v.size.toLocaleString('en-US')} bytes`;
        limit = `${v.limit.toLocaleString('en-US')} bytes`;
      }
      return `note too large (${size}; the limit is ${limit})`;
    }
    case 'tooDeep':
      return `note nested too deeply (more than ${v.limit} levels)`;
    case 'tooManyItems':
      return `note has too many values (more than ${v.limit.toLocaleString('en-US')})`;
  }
}

/** UTF-8 byte length of a string, without allocating (lone surrogates count 3, as TextEncoder writes U+FFFD). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** The size check alone; cheap for strings far below the limit. */
export function checkNoteSize(
  text: string,
  limits: Pick<NoteReadLimits, 'maxBytes'> = defaultNoteReadLimits,
): NoteLimitViolation | undefined {
  if (text.length * 3 <= limits.maxBytes) return undefined; // fits even if every unit took 3 bytes
  const size = utf8Length(text);
  return size > limits.maxBytes ? { kind: 'tooLarge', size, limit: limits.maxBytes } : undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * One pass over JSON text: the deepest nesting and the number of values (every object, array,
 * string — keys included — number and literal), stopping as soon as a limit is passed. It does not
 * validate the JSON (JSON.parse does, afterwards); on malformed text the counts are an estimate
 * that never under-counts nesting. Strings are skipped with indexOf, so long prompts cost little.
 */
export function checkJsonShape(
  text: string,
  limits: Pick<NoteReadLimits, 'maxDepth' | 'maxItems'> = defaultNoteReadLimits,
): NoteLimitViolation | undefined {
  let depth = 0;
  let items = 0;
  let inToken = false; // inside a number or literal
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // to the closing quote: one preceded by an even run of backslashes
      let j = i + 1;
      for (;;) {
        j = text.indexOf('"', j);
        if (j < 0) return undefined; // unterminated: JSON.parse rejects it
        let k = j - 1;
        while (k > i && text.charCodeAt(k) === BACKSLASH) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j++;
      }
      i = j;
      items++;
      inToken = false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limits.maxDepth) return { kind: 'tooDeep', limit: limits.maxDepth };
      items++;
      inToken = false;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth > 0) depth--;
      inToken = false;
    } else if (c <= 0x20 || c === COMMA || c === COLON) {
      inToken = false;
    } else if (!inToken) {
      inToken = true;
      items++;
    }
    if (items > limits.maxItems) return { kind: 'tooManyItems', limit: limits.maxItems };
  }
  return undefined;
}

/** Every limit: size first (cheapest), then the shape scan. */
export function checkNoteLimits(text: string, limits: NoteReadLimits = defaultNoteReadLimits): NoteLimitViolation | undefined {
  return checkNoteSize(text, limits) ?? checkJsonShape(text, limits);
}
