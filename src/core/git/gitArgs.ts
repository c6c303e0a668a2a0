/**
 * Validation of values that reach a git argument (issue #14 part 7). Everything read from a
 * transcript, the journal, a note or a command argument is untrusted: an object id must be a full
 * hex id, any other revision or path is passed after `--end-of-options` / `--` by the caller and
 * must still not be empty or carry control characters. Object ids: `objectId.ts`; repository
 * paths: `repoPath.ts`. Pure.
 */

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
