import type { EditEvent } from '../model/agentEvents';
import { crlfOnly, normalizeEol, transitionMatchesEdit } from './editMatcher';

/**
 * One observed change can hold more than one author's work: the file watcher coalesces writes that
 * land within its latency (two agents editing the same file a moment apart, a person's terminal write
 * followed at once by an agent's edit). Giving the whole change to one claim then hands the other
 * author's lines to it — a wrong prompt, or a person's lines claimed as AI (issue #15).
 *
 * `isolateEffect` undoes exactly what one agent record says it did, starting from the text after the
 * change: the record's new text (Claude/Cursor/Gemini old→new string) or the added side of its patch
 * hunks (Codex `apply_patch`, unified diffs) is swapped back for its old side. The result `mid` is the
 * text just before that edit, so `mid → after` is the edit alone and `before → mid` is everyone
 * else's part. Undefined when the record cannot be undone unambiguously (its new text is not in the
 * result exactly once, a full-contents write, a replace-all) or when the undone change would not be
 * recognised as this edit — the caller then keeps its whole-change match.
 */
export function isolateEffect(edit: EditEvent, before: string, after: string): string | undefined {
  if (edit.failed || edit.deleted || before === after) return undefined;
  // a move's destination appears with the old file's text: the whole new file is the agent's
  if (edit.movedFrom !== undefined) return undefined;
  const a = normalizeEol(after);
  let mid: string | undefined;
  if (edit.newString !== undefined && !edit.replaceAll)
    mid = undoReplacement(a, normalizeEol(edit.oldString ?? ''), normalizeEol(edit.newString));
  else if (edit.patch !== undefined && edit.contents === undefined) mid = undoPatch(a, edit.patch);
  if (mid === undefined || mid === a) return undefined;
  const result = crlfOnly(after) ? mid.replace(/\n/g, '\r\n') : mid;
  if (!transitionMatchesEdit(edit, result, after)) return undefined;
  // `before` is what it was: the same text means the edit explains the whole change
  if (normalizeEol(before) === mid) return before;
  return result;
}

function undoReplacement(after: string, oldText: string, newText: string): string | undefined {
  if (newText.length === 0) return undefined; // a deletion cannot be located in the result
  const at = after.indexOf(newText);
  if (at === -1 || after.indexOf(newText, at + 1) !== -1) return undefined;
  return after.slice(0, at) + oldText + after.slice(at + newText.length);
}

interface Hunk {
  oldLines: string[];
  newLines: string[];
}

/** Hunks of a Codex patch section or a unified diff: context ' ', removed '-', added '+'. */
function patchHunks(patch: string): Hunk[] | undefined {
  const hunks: Hunk[] = [];
  let cur: Hunk | undefined;
  let seenHunk = false;
  for (const line of normalizeEol(patch).split('\n')) {
    if (line.startsWith('***')) continue; // Codex section headers and `*** End of File`
    if (!seenHunk && (line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('diff ') || line.startsWith('index ')))
      continue;
    if (line.startsWith('@@')) {
      seenHunk = true;
      if (cur && (cur.oldLines.length || cur.newLines.length)) hunks.push(cur);
      cur = { oldLines: [], newLines: [] };
      continue;
    }
    if (line.startsWith('\\')) continue; // "\ No newline at end of file"
    cur ??= { oldLines: [], newLines: [] };
    if (line.startsWith('+')) cur.newLines.push(line.slice(1));
    else if (line.startsWith('-')) cur.oldLines.push(line.slice(1));
    else {
      const text = line.startsWith(' ') ? line.slice(1) : line;
      cur.oldLines.push(text);
      cur.newLines.push(text);
    }
  }
  if (cur && (cur.oldLines.length || cur.newLines.length)) hunks.push(cur);
  // a trailing empty context line is the patch text's final newline, not a line of the file
  for (const h of hunks) {
    while (h.oldLines.length && h.newLines.length && h.oldLines[h.oldLines.length - 1] === '' && h.newLines[h.newLines.length - 1] === '') {
      h.oldLines.pop();
      h.newLines.pop();
    }
  }
  const useful = hunks.filter((h) => h.oldLines.join('\n') !== h.newLines.join('\n'));
  return useful.length ? useful : undefined;
}

/** Reverse-applies the patch to `after` (each hunk's new side found exactly once, in order). */
function undoPatch(after: string, patch: string): string | undefined {
  const hunks = patchHunks(patch);
  if (!hunks) return undefined;
  const trailing = after.endsWith('\n');
  const lines = (trailing ? after.slice(0, -1) : after).split('\n');
  const out: string[] = [];
  let pos = 0;
  for (const h of hunks) {
    if (h.newLines.length === 0) return undefined; // a pure deletion without context cannot be placed
    const at = findOnce(lines, h.newLines, pos);
    if (at === undefined) return undefined;
    out.push(...lines.slice(pos, at), ...h.oldLines);
    pos = at + h.newLines.length;
  }
  out.push(...lines.slice(pos));
  const text = out.join('\n');
  return trailing && out.length > 0 ? `${text}\n` : text;
}

function findOnce(lines: readonly string[], block: readonly string[], from: number): number | undefined {
  let found: number | undefined;
  for (let i = from; i + block.length <= lines.length; i++) {
    let ok = true;
    for (let j = 0; j < block.length && ok; j++) ok = lines[i + j] === block[j];
    if (!ok) continue;
    if (found !== undefined) return undefined;
    found = i;
  }
  return found;
}
