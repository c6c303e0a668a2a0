import { createHash } from 'node:crypto';

/**
 * How agents name their per-project directories (docs/transcripts.md §1.2, §2.1, §4.1). These
 * mappings are lossy and collide, so discovery uses them only as a fast path and confirms
 * ownership from file content.
 */

/**
 * Cursor `~/.cursor/projects/<slug>`: the absolute path without its leading separator, every run
 * of characters outside `[A-Za-z0-9]` replaced by one `-`, Windows drive letter lower-cased.
 * `/Users/ann/dev/my.app` → `Users-ann-dev-my-app`; `C:\Users\ann\proj` → `c-Users-ann-proj`.
 */
export function cursorProjectSlug(absPath: string): string {
  let p = absPath.replace(/^[\\/]+/, '');
  if (/^[A-Za-z]:/.test(p)) p = p[0].toLowerCase() + p.slice(1);
  return p.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '');
}

/** Claude long project names are cut to this many characters, then `-<hash>` is appended. */
export const claudeMaxDirNameLength = 200;

/**
 * Claude `~/.claude/projects/<enc>`: every UTF-16 code unit outside `[A-Za-z0-9]` replaced by `-`
 * (no collapsing). `/Users/ann/my.proj` → `-Users-ann-my-proj`. For paths longer than 200
 * characters the real name is the first 200 characters plus `-<hash>` (hash algorithm varies
 * between builds): `truncated` is then true and only the 200-character prefix can be compared.
 */
export function claudeProjectDirName(absPath: string): { name: string; truncated: boolean } {
  const full = absPath.replace(/[^A-Za-z0-9]/g, '-');
  return full.length > claudeMaxDirNameLength
    ? { name: full.slice(0, claudeMaxDirNameLength), truncated: true }
    : { name: full, truncated: false };
}

/**
 * Gemini `~/.gemini/tmp/<slug>` (since Feb 2026): the project root's basename lower-cased, runs
 * of characters outside `[a-z0-9]` replaced by `-`, trimmed; `project` when empty. Collisions get
 * `-1`, `-2`… appended (not computed here).
 */
export function geminiProjectSlug(absPath: string): string {
  const base =
    absPath
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? '';
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'project';
}

/** Gemini `projectHash` (and the legacy `tmp/<hash>` directory name): sha256 hex of the project root. */
export function geminiProjectHash(absPath: string): string {
  return createHash('sha256').update(absPath).digest('hex');
}
