/**
 * Agent edits whose work was thrown away before a commit (undo, `git checkout -- file`, a manual
 * delete of the AI's lines): such an edit must not make the commit's file `by_ai`. The Agent Note
 * CLI marks every commit file with an unconsumed change entry as AI (docs/note-format.md §3.1), so a
 * reverted, never committed AI edit turns a later human-only commit of that file into a note with
 * 0 % — we do better and leave it out.
 *
 * Rule, per edit E of a file (pre-blob P, post-blob Q), over the states the file was observed in
 * after E (any origin, chronological, up to the commit):
 * - E is **reverted** when the file returns to P or to the commit parent's version of the file
 *   (the AI's work is entirely gone, also for a chain of edits thrown away at once);
 * - it is **restored** again when the file later returns to Q or to any state seen between E and
 *   the revert (redo, `git stash` + `git stash pop`, switching branches back and forth).
 * An edit without a post-blob, or whose post-blob equals a revert target (an edit that itself
 * restored the old content), is never reverted.
 */

export interface RevertibleEdit {
  id: string;
  /** Repo-relative path. */
  file: string;
  /** Epoch ms. */
  time: number;
  preBlob?: string;
  postBlob?: string;
}

/** A content state of a file observed at `time` (the result of any edit: human, other or AI). */
export interface FileState {
  file: string;
  time: number;
  blob: string;
}

/**
 * Ids of the edits that are reverted by the rule above. `parentBlobs` maps a commit file to its
 * blob in the commit's parent (the empty blob for a new file). States at the edit's own time or
 * earlier are ignored (ties keep the edit).
 */
export function revertedEdits(
  edits: readonly RevertibleEdit[],
  states: readonly FileState[],
  parentBlobs: ReadonlyMap<string, string>,
): Set<string> {
  const byFile = new Map<string, FileState[]>();
  for (const s of states) {
    const list = byFile.get(s.file) ?? [];
    list.push(s);
    byFile.set(s.file, list);
  }
  for (const list of byFile.values()) list.sort((a, b) => a.time - b.time);

  const out = new Set<string>();
  for (const e of edits) {
    if (e.postBlob === undefined) continue;
    const targets = new Set([e.preBlob, parentBlobs.get(e.file)].filter((b): b is string => b !== undefined && b !== e.postBlob));
    if (targets.size === 0) continue;
    const alive = new Set([e.postBlob]);
    let reverted = false;
    for (const s of byFile.get(e.file) ?? []) {
      if (s.time <= e.time) continue;
      if (reverted) {
        if (alive.has(s.blob)) reverted = false;
      } else if (targets.has(s.blob)) reverted = true;
      else alive.add(s.blob);
    }
    if (reverted) out.add(e.id);
  }
  return out;
}
