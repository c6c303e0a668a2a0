/**
 * Where an edit starts: the first line (1-based) at which the text after the edit differs from
 * the text before it, for "Reveal Line" in the Timeline. A prefix scan, not a diff: it only needs
 * the first difference. Returns 1 for identical texts or a change on the first line.
 */
export function firstChangedLine(before: string, after: string): number {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i + 1;
  // identical, or one text is a prefix of the other: the change starts after the shorter one
  return a.length === b.length ? 1 : n + 1;
}
