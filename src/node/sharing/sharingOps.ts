/**
 * The sharing operations that run in the sharing worker thread (sharingWorker.ts), as plain
 * functions of serializable arguments, so that the worker, the in-thread fallback and the tests
 * run exactly the same code.
 */
import type { Logger } from '../../core/ports';
import { GitRunner } from '../git/gitRunner';
import { deriveNotes, type DeriveResult } from '../recorder/derivedNotes';
import { mergeNotesInto, type MergeResult } from './notesMerge';
import { shareNotes, type ShareResult } from './notesShare';
import { syncNotes, type SyncResult } from './notesSync';

export interface RepoRef {
  cwd: string;
  gitPath?: string;
  /** Absolute git common dir (for the notes reflog). */
  commonDir?: string;
}

export interface SharingOps {
  sync(repo: RepoRef, args: { now?: number }): Promise<SyncResult>;
  share(repo: RepoRef, args: { remote: string; now?: number; timeoutMs?: number }): Promise<ShareResult>;
  merge(repo: RepoRef, args: { incoming: string; keepLocalDeletions?: boolean; now?: number; label?: string }): Promise<MergeResult>;
  /** Derived notes for new commits of a squash or rebase merge (recorder/derivedNotes.ts). */
  derive(repo: RepoRef, args: { now?: number }): Promise<DeriveResult>;
}

export type SharingOp = keyof SharingOps;

/** Sharing runs at background CPU priority: it never competes with the user's own git. */
function runner(repo: RepoRef, log: Logger): GitRunner {
  return new GitRunner(repo.cwd, { gitPath: repo.gitPath, log, niceness: 10 });
}

export function sharingOps(log: Logger): SharingOps {
  return {
    sync: (repo, args) => syncNotes(runner(repo, log), { log, commonDir: repo.commonDir, now: args.now }),
    share: (repo, args) => shareNotes(runner(repo, log), args.remote, { log, now: args.now, timeoutMs: args.timeoutMs }),
    merge: (repo, args) =>
      mergeNotesInto(runner(repo, log), args.incoming, {
        log,
        keepLocalDeletions: args.keepLocalDeletions,
        now: args.now,
        label: args.label,
      }),
    derive: (repo, args) => {
      if (!repo.commonDir) return Promise.reject(new Error('derive needs the git common dir'));
      return deriveNotes(runner(repo, log), { log, commonDir: repo.commonDir, now: args.now });
    },
  };
}
