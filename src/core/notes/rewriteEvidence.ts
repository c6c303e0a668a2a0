import { isObjectId, objectIdSource } from '../git/objectId';

/**
 * What git leaves behind about a history rewrite without any hook of ours (issue #18), read from
 * the HEAD reflog, commit messages and the notes git copied. Pure: the caller runs git.
 *
 * - A rebase (`git rebase`, `-i`, `--autosquash`, `git pull --rebase`) writes reflog entries
 *   `rebase (pick): …`, `rebase (squash): …`, `pull --rebase (pick): …` (older git: `rebase -i
 *   (pick)`) for each commit it makes; with `notes.rewriteRef` git copies each old note to its new
 *   commit (the same blob), and a squash gets the old notes concatenated (`A\n\nB`).
 * - `git cherry-pick -x` writes `(cherry picked from commit <id>)` into the message.
 * - `git merge --squash` leaves `Squashed commit of the following:` and `commit <id>` lines in the
 *   message git proposes (kept unless the person edits them away).
 * - `git reset --soft|--mixed <base>` + `git commit` leaves `commit: …`, `reset: moving to …` and
 *   the entry HEAD was on before, in that order (newest first). The changes may be committed in
 *   parts: a run of up to `maxResetRun` plain commits right after the reset all re-commit them.
 */

/** At most this many plain commits right after a reset count as re-committing what it left. */
export const maxResetRun = 10;

export type ReflogRewriteKind = 'rebase' | 'cherry-pick' | 'commit';

/** One HEAD reflog entry (newest first as `git log -g` prints them). */
export interface ReflogEntry {
  sha: string;
  op: string;
}

/** A commit some rewrite made, found in the reflog. */
export interface RewriteCandidate {
  kind: ReflogRewriteKind;
  sha: string;
  /**
   * For a commit of a run of plain commits right after a reset: the commit HEAD was reset to, the
   * one it was on before, and the commit right before this one in the run (`base` for the first).
   */
  reset?: { base: string; before: string; previous: string };
}

export interface ReflogRewrites {
  /** Candidates, oldest first, each commit once. */
  candidates: RewriteCandidate[];
  /** Every commit a rebase made in the window (also intermediate squash steps). */
  rebaseProducts: Set<string>;
}

const rebaseStep = /^(?:rebase|pull\b[^()]*?)(?: -i| --interactive)? \((?:pick|squash|fixup|reword|edit|continue|finish)\)/;

/** Parses `git log -g --format=%H%x09%gs HEAD` output. Lines that do not parse are ignored. */
export function parseReflog(text: string): ReflogEntry[] {
  const out: ReflogEntry[] = [];
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const sha = line.slice(0, tab).toLowerCase();
    if (isObjectId(sha)) out.push({ sha, op: line.slice(tab + 1) });
  }
  return out;
}

/** The commits the reflog (newest first) shows as made by a rebase, a cherry-pick or a commit. */
export function reflogRewrites(entries: readonly ReflogEntry[]): ReflogRewrites {
  const rebaseProducts = new Set<string>();
  const byCommit = new Map<string, RewriteCandidate>();
  const order: string[] = [];
  // oldest first, so a commit seen twice keeps its first (making) entry
  for (let i = entries.length - 1; i >= 0; i--) {
    const { sha, op } = entries[i];
    let c: RewriteCandidate | undefined;
    if (rebaseStep.test(op)) {
      rebaseProducts.add(sha);
      c = { kind: 'rebase', sha };
    } else if (/^cherry-pick\b/.test(op)) c = { kind: 'cherry-pick', sha };
    else if (/^commit:/.test(op)) {
      // a plain commit (amends are the CommitRecorder's): a merge --squash or a recommit after a reset
      c = { kind: 'commit', sha };
      // the run of plain commits back to a reset (this one included), at most maxResetRun long
      let j = i + 1;
      while (j < entries.length && j - i < maxResetRun && /^commit:/.test(entries[j].op)) j++;
      const reset = entries[j];
      const before = entries[j + 1];
      if (reset && before && /^reset: moving to /.test(reset.op)) {
        c.reset = { base: reset.sha, before: before.sha, previous: entries[i + 1].sha };
      }
    }
    if (!c || byCommit.has(sha)) continue;
    byCommit.set(sha, c);
    order.push(sha);
  }
  return { candidates: order.map((s) => byCommit.get(s)!), rebaseProducts };
}

/** The commits named by `(cherry picked from commit <id>)` lines of a message, in order. */
export function cherryPickedFrom(message: string): string[] {
  const out: string[] = [];
  for (const m of message.matchAll(new RegExp(`^\\(cherry picked from commit (${objectIdSource})\\)\\s*$`, 'gim'))) {
    const sha = m[1].toLowerCase();
    if (!out.includes(sha)) out.push(sha);
  }
  return out;
}

/**
 * The commits listed by the message `git merge --squash` proposes (`Squashed commit of the
 * following:` then `commit <id>` lines, newest first), oldest first; [] for any other message.
 */
export function squashedFrom(message: string): string[] {
  const at = message.indexOf('Squashed commit of the following:');
  if (at < 0) return [];
  const out: string[] = [];
  for (const m of message.slice(at).matchAll(new RegExp(`^commit (${objectIdSource})\\s*$`, 'gim'))) {
    const sha = m[1].toLowerCase();
    if (!out.includes(sha)) out.push(sha);
  }
  return out.reverse();
}

/**
 * The notes a concatenated note was made of (`notes.rewriteMode=concatenate`: each note's text,
 * trailing newline dropped, joined with a blank line), each with its trailing newline back, so
 * that each part is byte for byte the blob git copied. A JSON note never contains a blank line.
 * Returns [] when the text is not several parts.
 */
export function concatenatedParts(text: string): string[] {
  const parts = text.split('\n\n');
  if (parts.length < 2) return [];
  return parts.map((p, i) => (i < parts.length - 1 || !p.endsWith('\n') ? `${p}\n` : p));
}
