/**
 * Git object ids, the one home for their shape (issue #17 part 3): a repository uses SHA-1 (40 hex
 * digits) or SHA-256 (64). Every place that checks, parses or links an object id uses this module;
 * `test/unit/core/objectIdHome.test.ts` fails when an object-id regex appears anywhere else. Pure.
 */

/** Hex lengths of a full object id: SHA-1 and SHA-256. */
export const objectIdLengths = [40, 64] as const;

/**
 * Regex source of one full object id as git prints it (lower case), for composing line patterns
 * (`^(${objectIdSource}) (\d+)`). Only 40 or 64 digits; never 41–63.
 */
export const objectIdSource = '[0-9a-f]{40}(?:[0-9a-f]{24})?';

/** A whole string that is one full object id. */
export const objectIdPattern = new RegExp(`^(?:${objectIdSource})$`);

/** True for a full object id (40 or 64 lower-case hex digits); narrows an unknown value to a string. */
export function isObjectId(value: string): boolean;
export function isObjectId(value: unknown): value is string;
export function isObjectId(value: unknown): boolean {
  return typeof value === 'string' && objectIdPattern.test(value);
}

/** A full or abbreviated id as a person or a webview may send it: 4–64 hex digits, either case. */
const abbreviatedPattern = /^[0-9a-f]{4,64}$/i;

/** True for a full or abbreviated object id (4–64 hex digits, either case), e.g. from a link or a message. */
export function isAbbreviatedObjectId(value: string): boolean;
export function isAbbreviatedObjectId(value: unknown): value is string;
export function isAbbreviatedObjectId(value: unknown): boolean {
  return typeof value === 'string' && abbreviatedPattern.test(value);
}

/** The hash of a repository by the length of one of its full object ids; undefined for anything else. */
export function objectFormatOf(id: string): 'sha1' | 'sha256' | undefined {
  if (!isObjectId(id)) return undefined;
  return id.length === 64 ? 'sha256' : 'sha1';
}

/**
 * The all-zero id (40 or 64 zeros): git's "no object", e.g. what blame reports for lines that are
 * not committed yet, in either hash.
 */
export function isNullObjectId(value: string): boolean {
  return (value.length === 40 || value.length === 64) && /^0+$/.test(value);
}
