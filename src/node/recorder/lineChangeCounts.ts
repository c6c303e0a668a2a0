/**
 * Lines added / removed between two texts, cheaply: the common leading and trailing lines are
 * skipped and what is left on each side counts as removed / added. Exact for one contiguous change
 * (typing, an agent's string replacement, a whole-file write), an upper bound for several
 * separated changes. Used for timeline counts only — attribution always diffs with git.
 */
export function lineChangeCounts(before: string, after: string): { added: number; removed: number } {
  if (before === after) return { added: 0, removed: 0 };
  const a = splitLines(before);
  const b = splitLines(after);
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
function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const normalized = text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
  const lines = normalized.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
