import type { EditEvent } from '../model/agentEvents';

/**
 * Does the content transition `before → after` of one file show the effect of the agent edit?
 * Evidence, strongest first: the record's resulting content, full new contents, a patch whose
 * added/removed lines appear on the right sides, or an old/new string replacement. Line endings
 * are normalized (a CRLF file edited through an LF tool record still matches).
 */
export function transitionMatchesEdit(edit: EditEvent, before: string, after: string): boolean {
  if (edit.failed) return false;
  if (before === after) return false;
  const b = normalizeEol(before);
  const a = normalizeEol(after);
  if (edit.deleted) return a.length === 0 && b.length > 0;
  if (edit.resultContent !== undefined) {
    if (sameText(a, normalizeEol(edit.resultContent))) return true;
  }
  if (edit.contents !== undefined) return sameText(a, normalizeEol(edit.contents));
  if (edit.newString !== undefined) {
    const n = normalizeEol(edit.newString);
    const o = normalizeEol(edit.oldString ?? '');
    if (n.length > 0 && !a.includes(n)) return false;
    if (o.length > 0 && !b.includes(o)) return false;
    if (n.length === 0) return o.length > 0 && countOf(a, o) < countOf(b, o);
    // the new text must have appeared (more occurrences than before), unless the old text vanished
    return countOf(a, n) > countOf(b, n) || (o.length > 0 && countOf(a, o) < countOf(b, o));
  }
  if (edit.movedFrom !== undefined && b.length === 0) {
    // the destination of a move (Codex/Cursor `*** Move to:`): the file appeared at this path; the
    // patch's removed lines were in the old file, so only its added lines can be checked here
    if (a.length === 0) return false;
    const afterLines = new Set(a.split('\n'));
    return patchLines(edit.patch ?? '').added.every((l) => l.trim().length === 0 || afterLines.has(l));
  }
  if (edit.patch !== undefined) return patchMatches(edit.patch, b, a);
  if (edit.originalContent !== undefined) return sameText(b, normalizeEol(edit.originalContent));
  return false;
}

/** Added/removed body lines of a unified diff or Codex patch ("+x"/"-x", headers skipped). */
export function patchLines(patch: string): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  for (const line of normalizeEol(patch).split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('***') || line.startsWith('@@')) continue;
    if (line.startsWith('+')) added.push(line.slice(1));
    else if (line.startsWith('-')) removed.push(line.slice(1));
  }
  return { added, removed };
}

function patchMatches(patch: string, before: string, after: string): boolean {
  const { added, removed } = patchLines(patch);
  if (added.length === 0 && removed.length === 0) return false;
  const afterLines = new Set(after.split('\n'));
  const beforeLines = new Set(before.split('\n'));
  const meaningfulAdded = added.filter((l) => l.trim().length > 0);
  const meaningfulRemoved = removed.filter((l) => l.trim().length > 0);
  if (!meaningfulAdded.every((l) => afterLines.has(l))) return false;
  if (!meaningfulRemoved.every((l) => beforeLines.has(l))) return false;
  return meaningfulAdded.length > 0 ? meaningfulAdded.some((l) => !beforeLines.has(l)) || countLines(after) !== countLines(before) : true;
}

/** Every line break of `text` is CRLF (and there is at least one). */
export function crlfOnly(text: string): boolean {
  return text.includes('\r\n') && !/(?:^|[^\r])\n/.test(text);
}

export function normalizeEol(s: string): string {
  return s.indexOf('\r') === -1 ? s : s.replace(/\r\n?/g, '\n');
}

function sameText(a: string, b: string): boolean {
  return a === b || a.replace(/\n+$/, '') === b.replace(/\n+$/, '');
}

function countOf(haystack: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
