import type { CommittedPairLine } from '../../core/model/journal';
import { isObjectId } from '../../core/git/objectId';
import type { Clock, Logger } from '../../core/ports';
import { countRedactionMarkers } from '../../core/redaction/redactor';
import type { GitRunner } from '../git/gitRunner';
import type { NoteStore } from '../notes/noteStore';
import type { CaptureStore, CommitLogRecord } from './captureStore';
import type { RecordOutcome } from './recordOutcome';

/** The commit an amend replaced: whether it has a note, and what our capture log says it consumed. */
export interface AmendedCommit {
  sha: string;
  hasNote: boolean;
  log: CommitLogRecord | undefined;
}

export interface RewriteHandlerDeps {
  git: GitRunner;
  log: Logger;
  clock: Clock;
  notes: NoteStore;
  store: CaptureStore;
}

/**
 * Commits that replace recorded ones: an amend (its note recomputed, or copied when the tree did
 * not change), and a commit that takes over the pairs and prompts of a recorded commit it
 * replaced without saying so (an amend not reported as such, "Undo Last Commit" then a new commit):
 * the consumption lines of the replaced commits are treated as never written.
 */
export class RewriteHandler {
  constructor(private readonly d: RewriteHandlerDeps) {}

  /** The amended commit (`amendedFrom` resolved to its full id by `resolve`). */
  async amended(amendedFrom: string, resolve: (rev: string) => Promise<string>): Promise<AmendedCommit> {
    const sha = await resolve(amendedFrom);
    return { sha, hasNote: await this.d.notes.has(sha), log: await this.d.store.findCommit(sha) };
  }

  /** An amend without content change (same tree as the amended commit, which has a note). */
  async unchangedAmend(old: AmendedCommit, tree: string): Promise<boolean> {
    return old.hasNote && (await this.treeOf(old.sha)) === tree;
  }

  /**
   * The consumption lines, per session id, of the earlier recorded commits this commit takes
   * over (see the class comment): excluded when the journal is read for this commit.
   */
  async excludedLines(
    sha: string,
    parents: readonly string[],
    files: ReadonlySet<string>,
    amended: CommitLogRecord | undefined,
  ): Promise<Map<string, CommittedPairLine[]>> {
    const exclude = new Map<string, CommittedPairLine[]>();
    for (const r of await this.replacedCommits(sha, parents, files, amended)) {
      for (const [id, lines] of Object.entries(r.sessions)) exclude.set(id, [...(exclude.get(id) ?? []), ...lines]);
    }
    return exclude;
  }

  /**
   * Earlier recorded commits whose pairs and prompts this commit takes over: the amended commit,
   * and any recorded commit touching these files with the same parents that is not this commit —
   * it was replaced (amend not reported as such, "Undo Last Commit" then a new commit).
   */
  async replacedCommits(
    sha: string,
    parents: readonly string[],
    files: ReadonlySet<string>,
    amended: CommitLogRecord | undefined,
  ): Promise<CommitLogRecord[]> {
    const out = amended ? [amended] : [];
    const candidates = (await this.d.store.recentCommits(50)).filter(
      (r) =>
        r.sha !== sha &&
        r.sha !== amended?.sha &&
        Object.values(r.sessions).some((lines) => lines.some((l) => l.file !== null && files.has(l.file))),
    );
    if (candidates.length === 0) return out;
    // shas from our capture log (a file on disk): only full object ids reach git
    const shas = [...new Set(candidates.map((r) => r.sha))].filter(isObjectId);
    if (shas.length === 0) return out;
    const listed = await this.d.git.tryRun(['rev-list', '--no-walk', '--parents', '--end-of-options', ...shas], {
      okExitCodes: [],
    });
    const same = new Set<string>();
    for (const line of listed?.split('\n') ?? []) {
      const [c, ...ps] = line.trim().split(' ');
      if (c && ps.join(' ') === parents.join(' ')) same.add(c);
    }
    for (const r of candidates) if (same.has(r.sha)) out.push(r);
    if (out.length > (amended ? 1 : 0)) this.d.log.debug(`commit ${sha.slice(0, 8)} replaces ${out.length} recorded commit(s)`);
    return out;
  }

  /** Amend without content change: the same note blob on the new commit. */
  async copyNote(from: string, to: string, oldLog: CommitLogRecord | undefined): Promise<RecordOutcome> {
    const { notes } = this.d;
    const r = await notes.copy(from, to, { overwrite: true });
    if (r === 'missing') return { kind: 'human-only' };
    await this.d.store.appendCommit({ sha: to, time: this.d.clock.now(), copiedFrom: from, sessions: oldLog?.sessions ?? {} });
    const raw = (await notes.readRaw(to)) ?? '';
    const d = await notes.read(to);
    const a = d?.kind === 'valid' ? d.note.attribution : undefined;
    this.d.log.info(`note of ${from.slice(0, 8)} copied to amended ${to.slice(0, 8)}`);
    return {
      kind: 'written',
      noteBytes: Buffer.byteLength(raw, 'utf8'),
      aiRatio: a?.ai_ratio ?? 0,
      method: a?.method ?? 'none',
      redactions: countRedactionMarkers(raw),
    };
  }

  private async treeOf(sha: string): Promise<string | undefined> {
    if (!isObjectId(sha)) return undefined;
    return (await this.d.git.tryRun(['rev-parse', '--verify', '-q', `${sha}^{tree}`], { okExitCodes: [] }))?.trim();
  }
}
