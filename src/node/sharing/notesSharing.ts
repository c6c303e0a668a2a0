/**
 * Sharing Agent Note git notes with remotes, and keeping them across rewrites
 * (docs/note-format.md §1.1 and §6). The parts:
 *
 * - fetchConfig.ts: the glob fetch refspec into `refs/notes/remotes/<remote>/agentnote` (a plain
 *   fetch never fails because of us and never touches local notes), migration of the old one.
 * - notesSync.ts: merges fetched notes into the local ref (notesMerge.ts: JSON-aware, nothing
 *   dropped) and repairs forced updates by refspecs that are not ours.
 * - pushDetector.ts + notesShare.ts: after a real push, only the notes of commits on that remote,
 *   as a notes commit on top of the remote's own (never the local notes history).
 * - notesSharingCoordinator.ts: the policy per repository; sharingWorkerClient.ts runs the work
 *   in a worker thread.
 * - Here: configureRewrite()/carryNote() — notes survive amend and rebase.
 */
import type { GitRunner } from '../git/gitRunner';
import { writeConfig } from '../git/gitConfig';
import { agentNoteRef, type NoteCopyResult, type NoteStore } from '../notes/noteStore';

export { remoteTrackingNotesRef } from './notesGit';
export { cliNotesFetchRefspec, legacyNotesFetchRefspec, notesFetchRefspec } from './fetchConfig';

async function configValues(git: GitRunner, key: string): Promise<string[]> {
  const out = await git.run(['config', '--get-all', key], { okExitCodes: [1] });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * Makes amend and rebase carry our notes: appends `refs/notes/agentnote` to the multi-valued
 * `notes.rewriteRef` (other values are kept; an existing glob covering it counts as present) and
 * sets `notes.rewrite.amend` / `notes.rewrite.rebase` to true. Returns the keys it changed.
 * `notes.rewriteMode` is left alone (it applies to every rewritten notes ref); with its default
 * `concatenate`, squashing two noted commits yields a note our reader reports as
 * "several notes concatenated".
 */
export async function configureRewrite(git: GitRunner, ref = agentNoteRef): Promise<string[]> {
  const changed: string[] = [];
  const refs = await configValues(git, 'notes.rewriteRef');
  const covered = refs.some((r) => r === ref || (r.endsWith('*') && ref.startsWith(r.slice(0, -1))));
  if (!covered) {
    await writeConfig(git, ['--add', 'notes.rewriteRef', ref]);
    changed.push('notes.rewriteRef');
  }
  for (const key of ['notes.rewrite.amend', 'notes.rewrite.rebase']) {
    const v = await configValues(git, key);
    if (v.length !== 1 || v[0].toLowerCase() !== 'true') {
      await writeConfig(git, ['--replace-all', key, 'true']);
      changed.push(key);
    }
  }
  return changed;
}

/** Copies the note of a rewritten commit to its replacement (never overwrites). */
export function carryNote(store: NoteStore, oldSha: string, newSha: string): Promise<NoteCopyResult> {
  return store.copy(oldSha, newSha);
}
