import * as path from 'node:path';
import type { ContentTransition, EditCaptureOptions } from '../../core/capture/editCapture';
import type { AgentEvent } from '../../core/model/agentEvents';
import type { RedactFn } from '../../core/notes/noteBuilder';
import { type Clock, Counters, type Logger, systemClock } from '../../core/ports';
import { SessionModel } from '../../core/session/sessionModel';
import { BlobStore } from '../git/blobStore';
import type { GitRunner } from '../git/gitRunner';
import { SessionJournal } from '../journal/sessionJournal';
import { NoteStore } from '../notes/noteStore';
import { tightenPrivateTree } from '../util/privateFiles';
import { AppliedKeys } from './appliedKeys';
import { CaptureSink } from './captureSink';
import { CaptureStore } from './captureStore';
import { CommitRecorder } from './commitRecorder';
import { RewriteRecorder } from './rewriteRecorder';
import { aiTimelineRecord, EditTimeline, unclaimedTimelineRecord, type TimelineEditRecord } from './editTimeline';
import type { LiveSessions } from './liveSession';
import type { RecordOutcome } from './recordOutcome';
import { errorText, JournalGeneration } from './recorderUtil';
import { reloadSessions } from './sessionReload';
import { TranscriptRecorder } from './transcriptRecorder';
import { UncommittedAttribution, type UncommittedAiRange } from './uncommittedAttribution';

export type { RecordOutcome } from './recordOutcome';
export type { TimelineEditRecord } from './editTimeline';
export type { UncommittedAiRange } from './uncommittedAttribution';

export interface RepositoryRecorderOptions {
  /** Work tree root. */
  root: string;
  git: GitRunner;
  log: Logger;
  clock?: Clock;
  /**
   * Applied to prompt and response text before it is written into the session journal (the
   * files a note is built from) and again to prompts, responses and contexts of the note. The
   * note's redaction count is the number of markers in its text, so secrets redacted at journal
   * time still count.
   */
  redact?: RedactFn;
  /** Journal retention (setting `agentNote.journal.retentionDays`); default 14. */
  journalRetentionDays?: number;
  /** EditCapture tuning (tests). */
  capture?: EditCaptureOptions;
  /**
   * Agent edits read from a transcript whose record time is older than this (ms) are kept in the
   * session model but not matched to file changes: a transcript read for the first time would
   * otherwise turn all its history into unconsumed edits. Default 30 minutes.
   */
  maxClaimAgeMs?: number;
  /** A pair captured more than this (ms) after a commit's committer time cannot be in it. Default 2 s. */
  commitTimeSkewMs?: number;
  /** Share the host's blob reader and note store (one `cat-file` process and one notes cache per repository); otherwise the recorder makes and owns its own. */
  blobs?: BlobStore;
  notes?: NoteStore;
}

const dayMs = 24 * 3600 * 1000;

/**
 * The recording pipeline of one repository (issue "Edit capture, line attribution and a note on
 * every commit", node side): a facade over its parts, which share one serial queue, so events,
 * ticks and commits never interleave.
 * - TranscriptRecorder (transcriptRecorder.ts): transcript events → SessionModel (UI) and the
 *   CLI-compatible session journal; agent edit records → claims. On open, sessionReload.ts
 *   rebuilds the model from the journal.
 * - CaptureSink (captureSink.ts): claims and host-observed transitions → EditCapture → journal
 *   pairs (pre/post blobs) or the capture log, and the EditTimeline (editTimeline.ts).
 * - CommitRecorder (commitRecorder.ts): recordCommit — CommitWatcher (which HEAD moves need a
 *   note), RewriteHandler (amends, replaced commits), the pure note composer
 *   (src/core/notes/noteComposer.ts), NoteStore, consumption lines.
 * - UncommittedAttribution (uncommittedAttribution.ts): AI lines of uncommitted text.
 * - RewriteRecorder (rewriteRecorder.ts): notes of rebased commits, from the post-rewrite queue.
 * - here: opening, the queue, record listeners and the journal retention.
 *
 * The host must: feed onAgentEvents (tailer batches) and onTransition (editor/disk tracker), call
 * tick() about every second, and before recordCommit flush its own tracker, then call settle()
 * (recordCommit settles as well). Logs never contain prompts, responses or file contents.
 */
export class RepositoryRecorder {
  readonly sessions: SessionModel;
  readonly counters: Counters;
  private readonly clock: Clock;
  private readonly log: Logger;
  private ttlMs: number;
  private readonly blobs: BlobStore;
  private readonly ownsBlobs: boolean;
  private readonly live: LiveSessions = new Map();
  private readonly timeline = new EditTimeline();
  private readonly transcripts: TranscriptRecorder;
  private readonly captured: CaptureSink;
  private readonly commits: CommitRecorder;
  private readonly rewrites: RewriteRecorder;
  private readonly uncommitted: UncommittedAttribution;
  private readonly listeners = new Set<(e: { sha: string; outcome: RecordOutcome }) => void>();
  private chain: Promise<unknown> = Promise.resolve();
  private lastCleanup = 0;
  private disposed = false;

  private constructor(
    opts: RepositoryRecorderOptions,
    private readonly journal: SessionJournal,
    private readonly store: CaptureStore,
    private readonly keys: AppliedKeys,
    counters: Counters,
  ) {
    this.log = opts.log;
    this.clock = opts.clock ?? systemClock;
    this.ttlMs = Math.max(1, opts.journalRetentionDays ?? 14) * dayMs;
    this.counters = counters;
    this.sessions = new SessionModel({ clock: this.clock });
    this.ownsBlobs = !opts.blobs;
    this.blobs = opts.blobs ?? new BlobStore(opts.git, { log: opts.log });
    const notes = opts.notes ?? new NoteStore(opts.git, { log: opts.log, blobs: this.blobs });
    const generation = new JournalGeneration();
    const shared = { git: opts.git, log: opts.log, counters, generation };
    this.captured = new CaptureSink({
      ...shared,
      blobs: this.blobs,
      store,
      timeline: this.timeline,
      live: this.live,
      ...(opts.capture ? { capture: opts.capture } : {}),
    });
    this.transcripts = new TranscriptRecorder({
      ...shared,
      root: opts.root,
      journal,
      sessions: this.sessions,
      keys,
      live: this.live,
      claims: this.captured,
      clock: this.clock,
      ...(opts.redact ? { redact: opts.redact } : {}),
      maxClaimAgeMs: opts.maxClaimAgeMs ?? 30 * 60_000,
    });
    this.commits = new CommitRecorder({
      ...shared,
      root: opts.root,
      clock: this.clock,
      ...(opts.redact ? { redact: opts.redact } : {}),
      commitTimeSkewMs: opts.commitTimeSkewMs ?? 2_000,
      journal,
      notes,
      store,
      timeline: this.timeline,
      settle: () => this.settleNow(),
    });
    this.uncommitted = new UncommittedAttribution({ ...shared, blobs: this.blobs, journal });
    this.rewrites = new RewriteRecorder({ ...shared, root: opts.root, journalRoot: journal.root, clock: this.clock, notes });
  }

  /**
   * Opens the recorder of the repository at `root`: applies the journal retention, rebuilds the
   * session model and the timeline from the journal. Rejects only when git cannot locate the
   * repository's git directory.
   */
  static async open(opts: RepositoryRecorderOptions): Promise<RepositoryRecorder> {
    const counters = new Counters();
    const clock = opts.clock ?? systemClock;
    const ttlMs = Math.max(1, opts.journalRetentionDays ?? 14) * dayMs;
    const journal = await SessionJournal.forRepository(opts.git, { clock, log: opts.log, counters, ttlMs });
    // files 0600, folders 0700: a tree written by an older version is tightened once
    const tightened = await tightenPrivateTree(journal.root);
    if (tightened > 0) opts.log?.info(`made ${tightened} file(s)/folder(s) under agentnote/ private (0600/0700)`);
    const store = new CaptureStore(path.join(journal.root, 'capture'), { log: opts.log, counters });
    const keys = await AppliedKeys.load(store.keysFile, { log: opts.log, counters });
    const recorder = new RepositoryRecorder(opts, journal, store, keys, counters);
    await recorder.cleanup(clock.now());
    await recorder.rebuild(opts.root);
    return recorder;
  }

  /** Called after every recordCommit with its outcome (written, exists, human-only, skipped, failed); returns a disposable. */
  onDidRecord(listener: (e: { sha: string; outcome: RecordOutcome }) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** A batch of transcript events (in transcript order) from the tailer. */
  onAgentEvents(batch: readonly { event: AgentEvent; key: string; transcriptPath?: string; fileTimeMs?: number }[]): Promise<void> {
    if (batch.length === 0 || this.disposed) return Promise.resolve();
    return this.enqueue(() => this.transcripts.applyBatch(batch));
  }

  /** A content change the host observed (buffer or disk). Cheap: classification happens in tick(). */
  onTransition(t: ContentTransition): void {
    if (this.disposed) return;
    this.captured.addTransition(t);
  }

  /** Processes EditCapture outputs (hashing blobs in one batch); runs the daily retention. Call about every second. */
  tick(now = this.clock.now()): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.sessions.refreshActivity();
    return this.enqueue(async () => {
      await this.captured.flush(now);
      if (now - this.lastCleanup >= dayMs) await this.cleanup(now);
    });
  }

  /**
   * Changes the journal retention (setting `agentNote.journal.retentionDays`) and applies it at once,
   * queued behind the work in progress: a shorter period removes what is now too old without a reload.
   */
  setJournalRetentionDays(days: number): Promise<void> {
    const ttlMs = Math.max(1, days) * dayMs;
    if (this.disposed || ttlMs === this.ttlMs) return Promise.resolve();
    this.ttlMs = ttlMs;
    return this.enqueue(() => this.cleanup(this.clock.now()));
  }

  /** Resolves pending claims now and writes everything pending (journal, blobs, keys). */
  settle(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    return this.enqueue(() => this.settleNow());
  }

  /** Records the note of `sha` (see CommitRecorder). Never throws. */
  recordCommit(sha: string, opts: { amendedFrom?: string } = {}): Promise<RecordOutcome> {
    return this.enqueue(async () => {
      const outcome = await this.commits.record(sha, opts);
      this.fire(sha, outcome);
      return outcome;
    }).catch((e: unknown) => ({ kind: 'failed' as const, reason: errorText(e) }));
  }

  /** A rebased commit waits for git's note copy (the pipeline's tick looks again). */
  get rewritesWaiting(): boolean {
    return this.rewrites.waitingForCopy;
  }

  /**
   * Recomputes the notes of rewritten commits (RewriteRecorder: the post-rewrite hook's queue, the
   * HEAD reflog and git's note copies), queued like a commit; cheap when nothing changed. Never throws.
   */
  recordRewrites(): Promise<number> {
    if (this.disposed) return Promise.resolve(0);
    return this.enqueue(async () => {
      const results = await this.rewrites.process((r) =>
        this.fire(r.target, r.outcome.kind === 'removed' ? { kind: 'human-only' } : r.outcome),
      );
      return results.length;
    }).catch(() => 0);
  }

  /**
   * Which lines of the current (possibly unsaved) text of `rel` were written by an agent and not
   * committed yet, with the interaction that wrote them (a range only known to be AI — an edit
   * without pre-blob — is given to the file's latest edit). Cached per file, text, HEAD blob and
   * journal state. Returns [] on any failure.
   */
  async uncommittedAi(rel: string, currentText: string): Promise<UncommittedAiRange[]> {
    if (this.disposed) return [];
    return this.uncommitted.ranges(rel, currentText);
  }

  /** AI, human and other edits within the retention period, oldest first (newest last). A new array; the records are frozen. */
  timelineEdits(): TimelineEditRecord[] {
    return this.timeline.since(this.clock.now() - this.ttlMs);
  }

  /** Finishes queued work and stops the blob reader. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.enqueue(() => this.keys.save()).catch(() => undefined);
    this.disposed = true;
    this.listeners.clear();
    if (this.ownsBlobs) this.blobs.dispose();
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    if (this.disposed) return Promise.reject(new Error('recorder disposed'));
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private fire(sha: string, outcome: RecordOutcome): void {
    for (const l of [...this.listeners]) {
      try {
        l({ sha, outcome });
      } catch (e) {
        this.log.warn(`record listener failed: ${errorText(e)}`);
      }
    }
  }

  private async settleNow(): Promise<void> {
    await this.captured.flush(this.clock.now(), true);
    await this.keys.save();
  }

  /** Journal retention: old sessions (also out of the model), capture log lines and timeline records. */
  private async cleanup(now: number): Promise<void> {
    this.lastCleanup = now;
    try {
      const r = await this.journal.cleanup({ ttlMs: this.ttlMs, now });
      for (const id of r.removedSessions) this.transcripts.forget(id);
      await this.store.prune(now - this.ttlMs);
      this.timeline.prune(now - this.ttlMs);
    } catch (e) {
      this.log.warn(`journal retention failed: ${errorText(e)}`);
    }
  }

  /** Session model, live sessions and timeline from the journal (a reload keeps earlier turns). */
  private async rebuild(root: string): Promise<void> {
    const ai: TimelineEditRecord[] = [];
    for (const { live, pairs } of await reloadSessions(this.journal, this.sessions, { root, counters: this.counters, log: this.log })) {
      this.live.set(`${live.agent}:${live.id}`, live);
      for (const r of pairs) {
        this.captured.rememberPairedClaim(r.claimKey);
        ai.push(aiTimelineRecord(r, live.agent, live.id));
      }
    }
    const unclaimed = (await this.store.readEdits()).map(unclaimedTimelineRecord);
    this.timeline.reset([...unclaimed, ...ai]);
    this.log.info(`recorder: ${this.sessions.list().length} session(s), ${this.timeline.size} edit(s) reloaded`);
  }
}
