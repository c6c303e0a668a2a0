/**
 * The fetch refspecs that make a plain `git fetch` / `git pull` bring notes, safely.
 *
 * Ours, per remote: `+refs/notes/agentnote*:refs/notes/remotes/<remote>/agentnote*`.
 * - A glob: against a remote without notes it matches nothing, and fetch still exits 0 (an exact
 *   refspec makes every fetch fail with "couldn't find remote ref").
 * - Into a per-remote tracking ref, never into refs/notes/agentnote: the fetch itself cannot
 *   replace local notes; syncNotes() merges the tracking ref into the local ref (JSON-aware).
 * - Forced, like every remote-tracking refspec: the tracking ref mirrors the remote.
 * Migration: our old exact refspec `+refs/notes/agentnote:refs/notes/agentnote` (forced, fails on
 * remotes without notes, replaces local notes) is removed from every remote. The Agent Note CLI's
 * glob `+refs/notes/agentnote*:refs/notes/agentnote*` is left alone (it is not ours); the forced
 * updates it causes are repaired by syncNotes().
 */
import { writeConfig } from '../git/gitConfig';
import type { GitRunner } from '../git/gitRunner';
import { checkRemoteName, remoteTrackingNotesRef } from './notesGit';

/** Our old refspec (also the Agent Note CLI's "legacy" one), removed on open. */
export const legacyNotesFetchRefspec = '+refs/notes/agentnote:refs/notes/agentnote';
/** The refspec `agent-note init` adds to `origin` (forced into our local ref: not ours, left alone). */
export const cliNotesFetchRefspec = '+refs/notes/agentnote*:refs/notes/agentnote*';

/** Our refspec for `remote` (see the module comment). */
export function notesFetchRefspec(remote: string): string {
  return `+refs/notes/agentnote*:${remoteTrackingNotesRef(remote)}*`;
}

export interface FetchConfigChange {
  remote: string;
  /** What changed in `remote.<name>.fetch`. */
  added: string[];
  removed: string[];
}

async function fetchRefspecs(git: GitRunner, remote: string): Promise<string[]> {
  const out = await git.run(['config', '--get-all', `remote.${remote}.fetch`], { okExitCodes: [1] });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** A value regex matching exactly `value` (for `git config --unset-all`, which works on every git version). */
function exactly(value: string): string {
  return `^${value.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`;
}

/**
 * Makes `remote.<remote>.fetch` right (module comment): removes the legacy refspec, adds ours when
 * `enabled`, removes ours when not. Touches no other value. Returns what changed (undefined for
 * a name that is not a configured remote).
 */
export async function configureNotesFetch(git: GitRunner, remote: string, enabled: boolean): Promise<FetchConfigChange | undefined> {
  checkRemoteName(remote);
  const url = await git.run(['config', '--get', `remote.${remote}.url`], { okExitCodes: [1] });
  if (!url.trim()) return undefined;
  const values = await fetchRefspecs(git, remote);
  const ours = notesFetchRefspec(remote);
  const change: FetchConfigChange = { remote, added: [], removed: [] };
  const remove = [legacyNotesFetchRefspec, ...(enabled ? [] : [ours])].filter((v) => values.includes(v));
  for (const v of remove) {
    await writeConfig(git, ['--unset-all', `remote.${remote}.fetch`, exactly(v)], [5]);
    change.removed.push(v);
  }
  if (enabled && !values.includes(ours)) {
    await writeConfig(git, ['--add', `remote.${remote}.fetch`, ours]);
    change.added.push(ours);
  }
  return change;
}

/** The configured remotes (`git remote`). */
export async function remoteNames(git: GitRunner): Promise<string[]> {
  return (await git.run(['remote'], { okExitCodes: [] }))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
