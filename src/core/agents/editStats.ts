/**
 * Line counts for edit records (added/removed lines), computed from what the record carries:
 * unified diffs, Claude structuredPatch hunks, old/new strings or full contents.
 */

/** Number of lines of a text ("a\nb\n" and "a\nb" are 2 lines, "" is 0). */
export function lineCount(text: string): number {
  if (!text) return 0;
  let n = 0;
  let i = -1;
  while ((i = text.indexOf('\n', i + 1)) !== -1) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** Added/removed counts of a unified diff (headers `---`/`+++`, hunk headers and context skipped). */
export function unifiedDiffStats(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ') || line.startsWith('--- ') || line === '+++' || line === '---') continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/** Added/removed counts of Claude `structuredPatch` hunks (`lines: [" ctx", "-old", "+new"]`). */
export function structuredPatchStats(hunks: readonly unknown[]): { added: number; removed: number } | undefined {
  let added = 0;
  let removed = 0;
  let any = false;
  for (const h of hunks) {
    const lines = (h as { lines?: unknown })?.lines;
    if (!Array.isArray(lines)) continue;
    any = true;
    for (const l of lines) {
      if (typeof l !== 'string') continue;
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  return any ? { added, removed } : undefined;
}

/**
 * Line counts of a string replacement or of a whole-text change: lines of old/new after dropping
 * the lines both share at the start and the end (a one-word change inside a line counts as
 * 1 removed, 1 added; CRLF and LF compare equal). Exact for one contiguous change, an upper bound
 * for several separated ones — for display counts only; attribution always diffs with git.
 */
export function replacementStats(oldText: string, newText: string): { added: number; removed: number } {
  if (oldText === newText) return { added: 0, removed: 0 };
  const a = statLines(oldText);
  const b = statLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { added: endB - start, removed: endA - start };
}

/** Lines of a text (CRLF/CR normalized); a final newline does not start another line. */
function statLines(text: string): string[] {
  if (text.length === 0) return [];
  const normalized = text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
  return normalized.replace(/\n$/, '').split('\n');
}
