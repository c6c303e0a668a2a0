import type { GitRunner } from '../git/gitRunner';
import type { NoteStore } from '../notes/noteStore';
import type { CaptureStore } from './captureStore';
import type { RecordOutcome } from './recordOutcome';
import { isObjectId } from '../../core/git/objectId';

/** Reflog operations that move HEAD to a commit that was not made here and now. */
const notNewCommitOps = /^(checkout|reset|pull|merge|rebase|clone|fetch|branch|switch)\b/;

/** What the recorder needs to know of a commit. */
export interface CommitInfo {
  parents: string[];
  /** Committer time, epoch ms. */
  time: number;
  tree: string;
  subject: string;
}

/** A HEAD move that needs a note (`record`), with the commit it amends if any, or the outcome without one. */
export type HeadMoveVerdict = { kind: 'record'; info: CommitInfo; amendedFrom?: string } | { kind: 'done'; outcome: RecordOutcome };

/**
 * Which HEAD moves need a note: a new commit made here (a commit, an amend, a cherry-pick) does;
 * a commit that already has a note does not (unless it is an amend not recorded yet), nor does a
 * merge commit, nor a commit HEAD reached by checkout, reset, pull, merge, rebase, clone, fetch,
 * branch or switch (the HEAD reflog says). `git commit --amend` from anywhere is found in the
 * reflog, with the amended commit as the entry before it.
 */
export class CommitWatcher {
  constructor(
    private readonly git: GitRunner,
    private readonly notes: NoteStore,
    private readonly store: CaptureStore,
  ) {}

  /**
   * The verdict for the commit `sha` (a full object id). `infoRead` is its commitInfo, started by
   * the caller alongside its other first reads; it is only awaited when the note does not exist.
   */
  async classify(sha: string, opts: { amendedFrom?: string }, infoRead: Promise<CommitInfo>): Promise<HeadMoveVerdict> {
    const [reflog, hasNote] = await Promise.all([this.reflogEntry(sha), this.notes.has(sha)]);
    // `git commit --amend` (from anywhere) says so in the reflog, with the amended commit just before it
    const op = reflog?.op;
    const amendedFrom = opts.amendedFrom ?? (op?.startsWith('commit (amend)') ? reflog?.previous : undefined);
    const amend = amendedFrom !== undefined;
    if (hasNote) {
      // an amend found in the reflog that we already recorded (a reload, a later look) stays as it is
      if (!amend || (!opts.amendedFrom && (await this.store.findCommit(sha)))) return { kind: 'done', outcome: { kind: 'exists' } };
    }
    const info = await infoRead;
    if (info.parents.length > 1) return { kind: 'done', outcome: { kind: 'skipped', reason: 'merge commit' } };
    if (op && notNewCommitOps.test(op))
      return { kind: 'done', outcome: { kind: 'skipped', reason: `not a new commit (${op.split(/[:\s]/)[0]})` } };
    return { kind: 'record', info, ...(amend ? { amendedFrom } : {}) };
  }

  /** Parents, committer time, tree and subject of a commit (one `git show -s`). */
  async commitInfo(sha: string): Promise<CommitInfo> {
    const out = await this.git.run(['show', '-s', '--format=%P%x00%ct%x00%T%x00%s', '--end-of-options', `${sha}^{commit}`]);
    const [parents = '', ct = '0', tree = '', subject = ''] = out.replace(/\n$/, '').split('\0');
    return { parents: parents.split(' ').filter(Boolean), time: Number(ct) * 1000, tree, subject };
  }

  /** The newest HEAD reflog entry that moved to `sha`: its operation and the commit HEAD was on before. */
  async reflogEntry(sha: string): Promise<{ op: string; previous: string | undefined } | undefined> {
    const out = await this.git.tryRun(['log', '-g', '-n', '50', '--format=%H%x09%gs', 'HEAD'], { okExitCodes: [] });
    const lines = out?.split('\n') ?? [];
    for (let i = 0; i < lines.length; i++) {
      const tab = lines[i].indexOf('\t');
      if (tab > 0 && lines[i].slice(0, tab) === sha) {
        const prev = lines[i + 1]?.split('\t')[0];
        return { op: lines[i].slice(tab + 1), previous: prev && isObjectId(prev) ? prev : undefined };
      }
    }
    return undefined;
  }
}
