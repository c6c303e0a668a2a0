/**
 * Validation of values that reach a git argument (issue #14 part 7). Everything read from a
 * transcript, the journal, a note or a command argument is untrusted: an object id must be a full
 * hex id, any other revision or path is passed after `--end-of-options` / `--` by the caller and
 * must still not be empty or carry control characters. Pure.
 */

/** A full object id: SHA-1 (40 hex) or SHA-256 (64 hex), lower case as git prints them. */
export const objectIdPattern = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** True for a full object id (40 or 64 lower-case hex digits). */
export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && objectIdPattern.test(value);
}

/**
 * A revision expression a user may type (`origin/main`, `HEAD~10`, `v1.2^{commit}`): not empty,
 * at most 256 characters, no whitespace or control characters, not starting with `-` (never an
 * option, even where `--end-of-options` cannot be used).
 */
// eslint-disable-next-line no-control-regex
const blankOrControl = /[\s\u0000-\u001f\u007f]/;

export function isSafeRevision(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 && !value.startsWith('-') && !blankOrControl.test(value);
}

/**
 * A repository-relative path from untrusted input: not empty, not absolute, no `..` segment, no
 * NUL, not inside `.git`. (Line breaks are legal in file names: git's `-z` and C-quoted `--stdin`
 * protocols carry them.)
 */
export function isSafeRelPath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096) return false;
  if (value.includes('\0')) return false;
  const p = value.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return false;
  const parts = p.split('/');
  if (parts.some((s) => s === '..')) return false;
  const first = parts.find((s) => s !== '' && s !== '.');
  return first !== undefined && first.toLowerCase() !== '.git';
}
