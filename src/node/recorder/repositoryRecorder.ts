import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { attributionInputFrom, buildNote, type RedactFn } from '../../core/notes/noteBuilder';
import { encodeNote } from '../../core/notes/noteCodec';
import { noteWriteLimits } from '../../core/notes/noteLimits';
import { fitNoteForWrite } from '../../core/notes/noteSize';
import { tightenPrivateTree } from '../util/privateFiles';
import { isObjectId } from '../../core/git/objectId';
import { countRedactionMarkers } from '../../core/redaction/redactor';
import { markerToCommittedPairLine } from '../../core/notes/promptWindow';
import {
  EditCapture,
  recordContent,
  type AgentClaim,
  type CaptureOutput,
  type ContentTransition,
  type EditCaptureOptions,
} from '../../core/capture/editCapture';
import { agentIds, type AgentEvent, type AgentId, type EditEvent } from '../../core/model/agentEvents';
import type { CommittedPairLine, EventLine } from '../../core/model/journal';
import { type Clock, Counters, type Logger, systemClock } from '../../core/ports';
import { SessionModel, type SessionTurn } from '../../core/session/sessionModel';
import { revertedEdits, type FileState, type RevertibleEdit } from '../../core/attribution/revertedEdits';
import { analyzeCommit, CommitDiffs, type EditPairInput } from '../attribution/commitDiffs';
import { BlobStore, type BlobItem } from '../git/blobStore';
import type { GitRunner } from '../git/gitRunner';
import { heartbeatTtlMs, SessionJournal, type JournalSession } from '../journal/sessionJournal';
import { NoteStore } from '../notes/noteStore';
import { AppliedKeys } from './appliedKeys';
import { CaptureStore, type CommitLogRecord, type UnclaimedEditRecord } from './captureStore';
import { replacementStats } from '../../core/agents/editStats';
import { sessionRows } from './sessionRows';
import {
  canonicalLine,
  consumptionKey,
  extFiles,
  readActivity,
  readPairExt,
  readPromptExt,
  readSessionSnapshot,
  responsesByTurn,
  type ActivityRecord,
  type JournalPair,
  type PairExtRecord,
  type PromptExtRecord,
  type SessionSnapshot,
} from './sessionSnapshot';
import { workingFileAttribution } from './workingFileAttribution';
import { yieldToEventLoop } from '../util/timeSlice';
import { isInsideDir, repoRelativePath } from '../../core/git/repoPath';
import { hostPathRules } from '../util/hostPaths';

/** What recordCommit did. */
export type RecordOutcome =
  | { kind: 'written'; noteBytes: number; aiRatio: number; method: string; redactions: number }
  | { kind: 'exists' }
  | { kind: 'human-only' }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string };

/** One edit for the timeline: an agent's (`ai`), typed in the editor (`human`) or by a tool on disk (`other`). */
export interface TimelineEditRecord {
  /** The host's transition id when the change was observed, else the pair id of a record-only agent edit. */
  id: string;
  /** Epoch ms. */
  time: number;
  /** Repo-relative path. */
  file: string;
  origin: 'ai' | 'human' | 'other';
  agent?: string;
  sessionId?: string;
  turn?: number;
  interactionKey?: string;
  added?: number;
  removed?: number;
  /** Blob ids before / after (open a diff with them). */
  preBlob?: string;
  postBlob?: string;
}

/** One AI-written range of an uncommitted file (1-based, inclusive, lines of the given text). */
export interface UncommittedAiRange {
  start: number;
  end: number;
  interactionKey: string;
  agent: string;
  /** The prompt of that interaction (private: never log it). '' when the journal has no prompt for the turn. */
  prompt: string;
}

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

interface LiveSession {
  agent: AgentId;
  id: string;
  js: JournalSession;
  /** prompt_id of each journaled turn. */
  promptIds: Map<number, string>;
  /** Digest of the last response written to events.jsonl per turn (redacted, as journaled), last few turns only. */
  lastResponse: Map<number, string>;
  /** Digest of the unredacted text that produced lastResponse (skips redacting an unchanged response again). */
  lastResponseSource?: Map<number, string>;
  transcriptPath?: string;
  started: boolean;
  /** Newest record time seen (the journal heartbeat; recordPrompt writes "now", we restore this). */
  heartbeat: number;
  /** `ext/prompts.jsonl` by event key. */
  promptExt?: ExtIndex<Map<string, PromptExtRecord>>;
  /** events.jsonl already names the session's model. */
  modelJournaled?: boolean;
  /** Claim keys in `ext/pairs.jsonl`. */
  pairClaims?: ExtIndex<Set<string>>;
}

/** What we read from one of our `ext/` files, valid while the file has `size` bytes (a second window may append). */
interface ExtIndex<T> {
  size: number;
  value: T;
}

/**
 * `cached` if the ext file still has its size, else `build()` re-read: one stat per use instead of
 * reading a file that grows with every turn.
 */
async function freshExtIndex<T>(
  js: JournalSession,
  name: string,
  cached: ExtIndex<T> | undefined,
  build: () => Promise<T>,
): Promise<ExtIndex<T>> {
  const size = await js.extSize(name);
  return cached?.size === size ? cached : { size, value: await build() };
}

interface BatchContext {
  touched: Map<LiveSession, { maxTime: number }>;
  claims: AgentClaim[];
}

interface PairIndex {
  at: number;
  generation: number;
  pairs: JournalPair[];
  prompts: Map<string, string>;
}

const dayMs = 24 * 3600 * 1000;
const maxUncommittedBytes = 2 * 1024 * 1024;
const maxTimelineRecords = 20_000;
const maxRememberedClaims = 20_000;
const patchProbeBytes = 1024 * 1024;
/** Reflog operations that move HEAD to a commit that was not made here and now. */
const notNewCommitOps = /^(checkout|reset|pull|merge|rebase|clone|fetch|branch|switch)\b/;

/**
 * The recording pipeline of one repository (issue "Edit capture, line attribution and a note on
 * every commit", node side). It composes:
 * - transcript events → SessionModel (UI) and the CLI-compatible session journal
 *   (`<git-dir>/agentnote/sessions/<id>/`: agent, transcript_path, heartbeat, rotation + turn +
 *   prompt_id per prompt, events.jsonl session_start/prompt/response), so the Agent Note CLI and
 *   we read the same data. The model's turn numbers equal the journal's: before each new prompt
 *   the model's numbering is raised to the journal's `turn` (SessionModel.reserveTurns);
 *   re-read events are dropped by their tailer keys (AppliedKeys, persisted), and on open the
 *   model is rebuilt from the journal (prompts, last responses, our activity records).
 * - agent edit events → AgentClaims and host-observed ContentTransitions → EditCapture; its AI
 *   outputs become pre_blob + file_change pairs (same `tool_use_id`) in the session journal plus
 *   our `ext/pairs.jsonl` record; human/other outputs go to `<git-dir>/agentnote/capture/edits.jsonl`.
 *   Blobs are hashed in one BlobStore batch per tick.
 * - recordCommit: unconsumed pairs of the commit's files → analyzeCommit (3-diff) → buildNote
 *   (prompt window per session, redaction) → NoteStore (never overwriting, except an amend) →
 *   consumption lines and window/tail markers in each session's `committed_pairs.jsonl`.
 * All async work runs in one serial queue, so events, ticks and commits never interleave.
 *
 * The host must: feed onAgentEvents (tailer batches) and onTransition (editor/disk tracker), call
 * tick() about every second, and before recordCommit flush its own tracker, then call settle()
 * (recordCommit settles as well). Logs never contain prompts, responses or file contents.
 */
export class RepositoryRecorder {
  readonly sessions: SessionModel;
  readonly counters: Counters;
  private readonly root: string;
  private readonly roots: string[];
  private readonly git: GitRunner;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly redact: RedactFn | undefined;
  private ttlMs: number;
  private readonly maxClaimAgeMs: number;
  private readonly commitTimeSkewMs: number;
  private readonly capture: EditCapture;
  private readonly blobs: BlobStore;
  private readonly notes: NoteStore;
  private readonly live = new Map<string, LiveSession | null>();
  private pending: CaptureOutput[] = [];
  /** Blob of the file at HEAD/index when a claim without record `before` was read. */
  private readonly claimBase = new Map<string, string>();
  /** Claims that produced a journal pair (one pair per claim). */
  private readonly claimsWithPair = new Set<string>();
  private timeline: Readonly<TimelineEditRecord>[] = [];
  private readonly timelineIndex = new Map<string, Readonly<TimelineEditRecord>>();
  private readonly listeners = new Set<(e: { sha: string; outcome: RecordOutcome }) => void>();
  private chain: Promise<unknown> = Promise.resolve();
  private generation = 0;
  private pairIndexCache: PairIndex | undefined;
  private readonly uncommittedCache = new Map<string, UncommittedAiRange[]>();
  private lastCleanup = 0;
  private disposed = false;

  private constructor(
    opts: RepositoryRecorderOptions,
    private readonly journal: SessionJournal,
    private readonly store: CaptureStore,
    private readonly keys: AppliedKeys,
    counters: Counters,
  ) {
    this.root = opts.root;
    let real = opts.root;
    try {
      real = realpathSync(opts.root);
    } catch {
      /* keep the given root */
    }
    this.roots = [...new Set([opts.root, real])];
    this.git = opts.git;
    this.log = opts.log;
    this.clock = opts.clock ?? systemClock;
    this.redact = opts.redact;
    this.ttlMs = Math.max(1, opts.journalRetentionDays ?? 14) * dayMs;
    this.maxClaimAgeMs = opts.maxClaimAgeMs ?? 30 * 60_000;
    this.commitTimeSkewMs = opts.commitTimeSkewMs ?? 2_000;
    this.counters = counters;
    this.sessions = new SessionModel({ clock: this.clock });
    this.capture = new EditCapture(opts.capture);
    this.ownsBlobs = !opts.blobs;
    this.blobs = opts.blobs ?? new BlobStore(opts.git, { log: opts.log });
    this.notes = opts.notes ?? new NoteStore(opts.git, { log: opts.log, blobs: this.blobs });
  }

  private readonly ownsBlobs: boolean;

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
    await recorder.rebuild();
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
    return this.enqueue(() => this.applyBatch(batch));
  }

  /** A content change the host observed (buffer or disk). Cheap: classification happens in tick(). */
  onTransition(t: ContentTransition): void {
    if (this.disposed) return;
    this.pending.push(...this.capture.addTransition(t));
  }

  /** Processes EditCapture outputs (hashing blobs in one batch); runs the daily retention. Call about every second. */
  tick(now = this.clock.now()): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.sessions.refreshActivity();
    return this.enqueue(async () => {
      this.pending.push(...this.capture.tick(now));
      await this.processOutputs();
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

  /** Records the note of `sha` (see the class comment). Never throws. */
  recordCommit(sha: string, opts: { amendedFrom?: string } = {}): Promise<RecordOutcome> {
    return this.enqueue(async () => {
      const outcome = await this.recordCommitNow(sha, opts);
      this.fire(sha, outcome);
      return outcome;
    }).catch((e: unknown) => ({ kind: 'failed' as const, reason: errorText(e) }));
  }

  /**
   * Which lines of the current (possibly unsaved) text of `rel` were written by an agent and not
   * committed yet, with the interaction that wrote them (a range only known to be AI — an edit
   * without pre-blob — is given to the file's latest edit). Cached per file, text, HEAD blob and
   * journal state. Returns [] on any failure.
   */
  async uncommittedAi(rel: string, currentText: string): Promise<UncommittedAiRange[]> {
    if (this.disposed || currentText.length > maxUncommittedBytes) return [];
    try {
      const file = rel.replace(/\\/g, '/');
      const headBlob = (await this.git.tryRun(['rev-parse', '--verify', '-q', `HEAD:${file}`], { okExitCodes: [] }))?.trim();
      const diffs = new CommitDiffs(this.git, { log: this.log });
      const parentBlob = headBlob && isObjectId(headBlob) ? headBlob : await this.blobs.ensureEmptyBlob();
      // the pair index is re-read when we wrote to the journal, and every 5 s for other writers (the CLI's hooks)
      const index = await this.pairIndex();
      const cacheKey = [file, sha1(currentText), parentBlob, index.generation, index.at].join('\0');
      const hit = this.uncommittedCache.get(cacheKey);
      if (hit) return hit.map((r) => ({ ...r }));
      const pairs = index.pairs.filter((p) => p.file === file && p.postBlob !== undefined);
      let ranges: UncommittedAiRange[] = [];
      if (pairs.length > 0 && !(await this.blobs.refusals([{ path: file, bytes: Buffer.byteLength(currentText) }]))[0]) {
        const [currentBlob] = await this.blobs.hashContents([{ path: file, content: currentText }]);
        const attributed = await workingFileAttribution(diffs, { path: file, parentBlob, currentBlob, pairs });
        const latest = [...pairs].sort((a, b) => a.time - b.time)[pairs.length - 1];
        const agentOf = new Map(pairs.map((p) => [p.interactionKey, p.agent] as const));
        ranges = attributed.ranges.map((r) => {
          const key = r.interactionKey ?? latest.interactionKey;
          return {
            start: r.start,
            end: r.end,
            interactionKey: key,
            agent: agentOf.get(key) ?? latest.agent,
            prompt: index.prompts.get(key) ?? '',
          };
        });
      }
      if (this.uncommittedCache.size >= 200) this.uncommittedCache.delete(this.uncommittedCache.keys().next().value as string);
      this.uncommittedCache.set(cacheKey, ranges);
      return ranges.map((r) => ({ ...r }));
    } catch (e) {
      this.counters.inc('recorder.uncommittedFailures');
      this.log.debug(`uncommitted attribution failed: ${errorText(e)}`);
      return [];
    }
  }

  /** AI, human and other edits within the retention period, oldest first (newest last). A new array; the records are frozen. */
  timelineEdits(): TimelineEditRecord[] {
    const cutoff = this.clock.now() - this.ttlMs;
    return this.timeline.length > 0 && this.timeline[0].time < cutoff
      ? this.timeline.filter((e) => e.time >= cutoff)
      : this.timeline.slice();
  }

  /** Finishes queued work and stops the blob reader. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.enqueue(() => this.keys.save()).catch(() => undefined);
    this.disposed = true;
    this.listeners.clear();
    if (this.ownsBlobs) this.blobs.dispose();
  }

  // ── queue ──

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

  // ── open ──

  private async cleanup(now: number): Promise<void> {
    this.lastCleanup = now;
    try {
      const r = await this.journal.cleanup({ ttlMs: this.ttlMs, now });
      for (const id of r.removedSessions) {
        for (const a of agentIds) {
          this.live.delete(`${a}:${id}`);
          this.sessions.remove(a, id);
        }
      }
      await this.store.prune(now - this.ttlMs);
      const cutoff = now - this.ttlMs;
      if (this.timeline.some((e) => e.time < cutoff)) {
        this.timeline = this.timeline.filter((e) => e.time >= cutoff);
        this.rebuildTimelineIndex();
      }
    } catch (e) {
      this.log.warn(`journal retention failed: ${errorText(e)}`);
    }
  }

  /** Session model, live sessions and timeline from the journal (a reload keeps earlier turns). */
  private async rebuild(): Promise<void> {
    const ai: TimelineEditRecord[] = [];
    for (const id of await this.journal.listSessionIds()) {
      const js = this.journal.session(id);
      if (!js) continue;
      try {
        const agent = (await js.readAgent()) ?? 'claude';
        if (!isAgentId(agent)) continue;
        const [prompts, events, activity, promptExt, pairExt, transcriptPath] = await Promise.all([
          js.readPrompts(),
          js.readEvents(),
          readActivity(js),
          readPromptExt(js),
          readPairExt(js),
          js.readTranscriptPath(),
        ]);
        const heartbeat = (await js.readHeartbeat()) ?? 0;
        const live: LiveSession = {
          agent,
          id,
          js,
          promptIds: new Map(),
          lastResponse: responseDigests(responsesByTurn(events.entries)),
          started: true,
          heartbeat,
        };
        if (transcriptPath) live.transcriptPath = transcriptPath;
        for (const p of prompts.entries) if (p.prompt_id && !live.promptIds.has(p.turn)) live.promptIds.set(p.turn, p.prompt_id);
        this.live.set(`${agent}:${id}`, live);
        this.rebuildSession(agent, id, prompts.entries, events.entries, activity, promptExt, transcriptPath, heartbeat);
        for (const r of pairExt) {
          this.rememberPairedClaim(r.claimKey);
          ai.push(aiTimelineRecord(r, agent, id));
        }
      } catch (e) {
        this.counters.inc('recorder.rebuildFailures');
        this.log.warn(`could not reload journal session ${id.slice(0, 8)}: ${errorText(e)}`);
      }
    }
    const unclaimed = (await this.store.readEdits()).map(unclaimedTimelineRecord);
    this.timeline = [];
    this.timelineIndex.clear();
    for (const r of [...unclaimed, ...ai].sort((a, b) => a.time - b.time)) this.addTimeline(r);
    this.log.info(`recorder: ${this.sessions.list().length} session(s), ${this.timeline.length} edit(s) reloaded`);
  }

  private rebuildSession(
    agent: AgentId,
    id: string,
    prompts: readonly { turn: number; prompt: string; timestamp: string; prompt_id: string }[],
    events: readonly EventLine[],
    activity: readonly ActivityRecord[],
    promptExt: readonly PromptExtRecord[],
    transcriptPath: string | undefined,
    heartbeat: number,
  ): void {
    const models = events.map((e) => ('model' in e ? e.model : null));
    const model = models.find((m, i) => events[i].event === 'session_start' && m) ?? models.find((m) => m) ?? undefined;
    const byTurn = [...new Map(prompts.map((p) => [p.turn, p] as const)).values()]
      .filter((p) => p.turn > 0)
      .sort((a, b) => a.turn - b.turn);
    const responses = responsesByTurn(events);
    const recordIds = new Map(promptExt.filter((r) => r.recordId).map((r) => [r.turn, r.recordId as string] as const));
    const source = { ...(transcriptPath ? { transcriptPath } : {}), ...(heartbeat > 0 ? { fileTimeMs: heartbeat } : {}) };
    const base = { agent, sessionId: id };
    this.sessions.apply(
      { ...base, kind: 'session', ...(model ? { model } : {}), ...(byTurn.length > 0 ? { priorTurns: byTurn[0].turn - 1 } : {}) },
      source,
    );
    const applyActivity = (turn: number) => {
      for (const a of activity) {
        if (a.turn !== turn) continue;
        const timestamp = new Date(a.time).toISOString();
        // edits outside the repository were journaled without a path: they only count as tool use
        if (a.kind === 'tool' || !a.file) this.sessions.apply({ ...base, kind: 'tool', tool: a.tool, timestamp }, source);
        else
          this.sessions.apply(
            {
              ...base,
              kind: 'edit',
              tool: a.tool,
              file: path.join(this.root, ...a.file.split('/')),
              timestamp,
              ...(a.failed ? { failed: true } : {}),
            },
            source,
          );
      }
    };
    applyActivity(0);
    for (const p of byTurn) {
      this.sessions.reserveTurns(agent, id, p.turn - 1);
      const recordId = recordIds.get(p.turn);
      this.sessions.apply(
        { ...base, kind: 'prompt', text: p.prompt, ...(p.timestamp ? { timestamp: p.timestamp } : {}), ...(recordId ? { recordId } : {}) },
        source,
      );
      const response = responses.get(p.turn);
      if (response) this.sessions.apply({ ...base, kind: 'response', text: response, mergeKey: `journal:${p.turn}` }, source);
      applyActivity(p.turn);
    }
  }

  // ── transcript events ──

  private async applyBatch(
    batch: readonly { event: AgentEvent; key: string; transcriptPath?: string; fileTimeMs?: number }[],
  ): Promise<void> {
    const ctx: BatchContext = { touched: new Map(), claims: [] };
    const ignoredBefore =
      this.counters.get('recorder.editsOutsideRepo') +
      this.counters.get('recorder.invalidSessionIds') +
      this.counters.get('recorder.eventFailures');
    for (const item of batch) {
      if (this.keys.has(item.key)) {
        this.counters.inc('recorder.duplicateEvents');
        continue;
      }
      try {
        await this.applyEvent(item.event, item.key, item.transcriptPath, ctx, item.fileTimeMs);
      } catch (e) {
        this.counters.inc('recorder.eventFailures');
        this.log.warn(`could not journal a ${item.event.kind} event: ${errorText(e)}`);
      }
      this.keys.add(item.key);
    }
    await this.addClaims(ctx.claims);
    for (const [live, t] of ctx.touched) await this.finishSession(live, t.maxTime);
    await this.keys.save();
    const outside =
      this.counters.get('recorder.editsOutsideRepo') +
      this.counters.get('recorder.invalidSessionIds') +
      this.counters.get('recorder.eventFailures') -
      ignoredBefore;
    if (outside > 0) {
      this.log.info(
        `transcript records ignored: ${outside} of ${batch.length} (so far: ${this.counters.get('recorder.editsOutsideRepo')} edit(s) outside the repository, ${this.counters.get('recorder.invalidSessionIds')} unusable session id(s), ${this.counters.get('recorder.eventFailures')} failed)`,
      );
    }
  }

  private async applyEvent(
    event: AgentEvent,
    key: string,
    transcriptPath: string | undefined,
    ctx: BatchContext,
    fileTimeMs?: number,
  ): Promise<void> {
    const live = await this.liveSession(event, transcriptPath);
    // records without a timestamp (Cursor) take the transcript's modification time, not "now"
    const source = { key, ...(transcriptPath ? { transcriptPath } : {}), ...(fileTimeMs !== undefined ? { fileTimeMs } : {}) };
    const time = eventTime(event, fileTimeMs ?? this.clock.now());
    if (live) {
      const t = ctx.touched.get(live) ?? { maxTime: 0 };
      t.maxTime = Math.max(t.maxTime, time);
      ctx.touched.set(live, t);
    }
    if (
      live &&
      !live.modelJournaled &&
      'model' in event &&
      typeof event.model === 'string' &&
      event.model &&
      event.model !== '<synthetic>'
    ) {
      // Claude's model only appears on assistant records, after the session and its first prompt
      // were journaled without one: name it once with a session_start line, which is where the
      // CLI (and our note builder) look for the model first.
      live.modelJournaled = true;
      const known = (await live.js.readEvents()).entries.some((e) => 'model' in e && typeof e.model === 'string' && e.model);
      if (!known) {
        await live.js.appendEvent({
          event: 'session_start',
          session_id: live.id,
          timestamp: new Date(this.clock.now()).toISOString(),
          agent: live.agent,
          model: event.model,
        });
      }
    }
    switch (event.kind) {
      case 'prompt': {
        if (!live) {
          this.sessions.apply(event, source);
          return;
        }
        // locked across processes: a second window tailing the same transcript journals each prompt once
        await live.js.withLock(() => this.journalPrompt(event, key, live, source, time, transcriptPath));
        return;
      }
      case 'session': {
        this.sessions.apply(event, source);
        if (live && event.priorTurns !== undefined && event.priorTurns > 0) {
          const s = this.sessions.get(event.agent, event.sessionId);
          if (s && s.turns.every((t) => t.index === 0) && (await live.js.readTurn()) < event.priorTurns) {
            // a tailer resumed mid-transcript for a session the journal does not know (yet): number
            // the journal's next prompt after the transcript's earlier prompts, like the model
            await live.js.writeTurn(event.priorTurns);
          }
        }
        return;
      }
      case 'edit': {
        this.sessions.apply(event, source);
        if (!live) return;
        const turn = lastTurn(this.sessions.get(event.agent, event.sessionId))?.index ?? 0;
        const rel = this.relPath(event.file);
        const activity: ActivityRecord = { kind: 'edit', turn, tool: event.tool, file: rel ?? null, time };
        if (event.failed) activity.failed = true;
        await live.js.appendJsonl(extFiles.activity, activity);
        this.claimsFor(event, key, turn, time, ctx);
        return;
      }
      case 'tool': {
        this.sessions.apply(event, source);
        if (!live) return;
        const turn = lastTurn(this.sessions.get(event.agent, event.sessionId))?.index ?? 0;
        await live.js.appendJsonl(extFiles.activity, { kind: 'tool', turn, tool: event.tool, time } satisfies ActivityRecord);
        return;
      }
      default:
        this.sessions.apply(event, source);
    }
  }

  /**
   * Our prompt records of a live session by event key. Re-read only when the file's size is not
   * the one we left it at (a second window on this repository appended): one stat per prompt
   * instead of reading a file that grows with every turn.
   */
  private async promptExtIndex(live: LiveSession): Promise<ExtIndex<Map<string, PromptExtRecord>>> {
    live.promptExt = await freshExtIndex(
      live.js,
      extFiles.prompts,
      live.promptExt,
      async () => new Map((await readPromptExt(live.js)).map((r) => [r.key, r])),
    );
    return live.promptExt;
  }

  /** A prompt of a journaled session (called holding the session lock). */
  private async journalPrompt(
    event: Extract<AgentEvent, { kind: 'prompt' }>,
    key: string,
    live: LiveSession,
    source: { key: string; transcriptPath?: string; fileTimeMs?: number },
    time: number,
    transcriptPath: string | undefined,
  ): Promise<void> {
    const promptIndex = await this.promptExtIndex(live);
    const elsewhere = promptIndex.value.get(key);
    let journalTurn = elsewhere ? elsewhere.turn - 1 : await live.js.readTurn();
    const before = this.sessions.get(event.agent, event.sessionId);
    const modelTurn = lastTurn(before)?.index ?? 0;
    if (modelTurn > journalTurn && !elsewhere) {
      // the journal lost turns the model still has (session directory removed): catch up
      await live.js.writeTurn(modelTurn);
      journalTurn = modelTurn;
    }
    if (!before || before.turns.every((t) => t.index === 0)) {
      this.sessions.apply({ kind: 'session', agent: event.agent, sessionId: event.sessionId, priorTurns: journalTurn });
    } else this.sessions.reserveTurns(event.agent, event.sessionId, journalTurn);
    const last = lastTurn(this.sessions.get(event.agent, event.sessionId));
    this.sessions.apply(event, source);
    const now = lastTurn(this.sessions.get(event.agent, event.sessionId));
    if (!now || now === last || now.index <= 0) {
      this.counters.inc('recorder.promptUpserts');
      return;
    }
    if (elsewhere) {
      // another recorder (a second editor window on this repository) journaled this prompt
      live.promptIds.set(elsewhere.turn, elsewhere.promptId);
      this.counters.inc('recorder.promptsJournaledElsewhere');
      return;
    }
    const r = await live.js.recordPrompt({
      prompt: this.journalText(event.text),
      agent: live.agent,
      model: event.model ?? this.sessions.get(event.agent, event.sessionId)?.model ?? null,
      ...(transcriptPath ? { transcriptPath } : {}),
      setActive: this.clock.now() - time <= heartbeatTtlMs,
    });
    if (transcriptPath) live.transcriptPath ??= transcriptPath;
    if (r.turn !== now.index) {
      this.counters.inc('recorder.turnMismatch');
      this.log.warn(`session ${live.id.slice(0, 8)}: journal turn ${r.turn} ≠ model turn ${now.index} (another writer?)`);
    }
    live.promptIds.set(r.turn, r.promptId);
    const ext: PromptExtRecord = { key, turn: r.turn, promptId: r.promptId, time };
    if (event.recordId !== undefined) ext.recordId = event.recordId;
    await live.js.appendJsonl(extFiles.prompts, ext);
    promptIndex.value.set(key, ext);
    promptIndex.size = await live.js.extSize(extFiles.prompts);
    this.generation++;
  }

  /** The journal session of an event's session; first sight writes `agent`, `transcript_path` and session_start. */
  private async liveSession(event: AgentEvent, transcriptPath: string | undefined): Promise<LiveSession | undefined> {
    const k = `${event.agent}:${event.sessionId}`;
    let live = this.live.get(k);
    if (live === null) return undefined;
    if (!live) {
      const js = this.journal.session(event.sessionId);
      if (!js) {
        this.live.set(k, null);
        this.counters.inc('recorder.invalidSessionIds');
        return undefined;
      }
      live = { agent: event.agent, id: event.sessionId, js, promptIds: new Map(), lastResponse: new Map(), started: false, heartbeat: 0 };
      this.live.set(k, live);
    }
    if (!live.started) {
      live.started = true;
      const js = live.js;
      await js.ensureDir();
      live.heartbeat = (await js.readHeartbeat()) ?? 0;
      const existing = await js.readAgent();
      if (!existing) await js.writeAgent(live.agent);
      else if (existing !== live.agent) this.counters.inc('recorder.agentMismatch');
      if (!(await exists(path.join(js.dir, 'events.jsonl')))) {
        await js.appendEvent({
          event: 'session_start',
          session_id: live.id,
          timestamp: new Date(this.clock.now()).toISOString(),
          agent: live.agent,
          model: 'model' in event && typeof event.model === 'string' ? event.model : null,
        });
      }
      if (!live.promptIds.size)
        for (const p of (await js.readPrompts()).entries)
          if (p.prompt_id && !live.promptIds.has(p.turn)) live.promptIds.set(p.turn, p.prompt_id);
    }
    if (transcriptPath && !live.transcriptPath) {
      // the first transcript of a session is its main file; subagent files come later
      if (!(await live.js.readTranscriptPath())) await live.js.writeTranscriptPath(transcriptPath);
      live.transcriptPath = transcriptPath;
    }
    return live;
  }

  /** Claims for EditCapture from one agent edit (a move also claims the deletion of its source). */
  private claimsFor(event: EditEvent, key: string, turn: number, time: number, ctx: BatchContext): void {
    if (event.failed) return;
    const now = this.clock.now();
    if (now - Math.min(time, now) > this.maxClaimAgeMs) {
      this.counters.inc('recorder.staleEdits');
      return;
    }
    const rel = this.relPath(event.file);
    if (!rel) {
      this.counters.inc('recorder.editsOutsideRepo');
      return;
    }
    const interactionKey = `${event.agent}:${event.sessionId}:${turn}`;
    const base = { agent: event.agent, sessionId: event.sessionId, turn, interactionKey, receivedAt: now };
    ctx.claims.push({ ...base, key, file: rel, edit: event });
    if (event.movedFrom !== undefined) {
      const from = this.relPath(event.movedFrom);
      if (from && from !== rel) {
        const deletion: EditEvent = {
          kind: 'edit',
          agent: event.agent,
          sessionId: event.sessionId,
          file: event.movedFrom,
          tool: event.tool,
          deleted: true,
          ...(event.timestamp ? { timestamp: event.timestamp } : {}),
          ...(event.toolUseId ? { toolUseId: event.toolUseId } : {}),
        };
        ctx.claims.push({ ...base, key: `${key}#from`, file: from, edit: deletion });
      }
    }
  }

  /** Remembers the HEAD/index blob of claims without record `before` (their fallback pre-blob), then adds them. */
  private async addClaims(claims: readonly AgentClaim[]): Promise<void> {
    if (claims.length === 0) return;
    const needBase = claims.filter((c) => recordContent(c.edit).before === undefined);
    if (needBase.length > 0) {
      try {
        const diffs = new CommitDiffs(this.git, { log: this.log });
        const info = await diffs.objectInfo(needBase.flatMap((c) => [`:${c.file}`, `HEAD:${c.file}`]));
        const empty = await this.blobs.ensureEmptyBlob();
        for (const c of needBase) {
          const o = [info.get(`:${c.file}`), info.get(`HEAD:${c.file}`)].find((x) => x?.type === 'blob');
          this.claimBase.set(c.key, o?.id ?? empty);
        }
      } catch (e) {
        this.log.debug(`base blobs of agent edits unavailable: ${errorText(e)}`);
      }
    }
    for (const c of claims) this.pending.push(...this.capture.addClaim(c));
    this.counters.inc('recorder.claims', claims.length);
  }

  /**
   * End of a batch for one session: heartbeat = the newest record time (so a transcript read long
   * after the fact does not look like a live session to the CLI's hooks), grown responses.
   */
  private async finishSession(live: LiveSession, maxTime: number): Promise<void> {
    try {
      live.heartbeat = Math.max(live.heartbeat, Math.min(maxTime, this.clock.now()));
      if (live.heartbeat > 0) await live.js.writeHeartbeat(live.heartbeat);
      const s = this.sessions.get(live.agent, live.id);
      if (!s) return;
      const lastIndex = s.turns.length > 0 ? s.turns[s.turns.length - 1].index : 0;
      for (const t of s.turns) {
        if (t.index <= 0 || t.index < lastIndex - 2 || t.compacted) continue;
        const raw = t.response;
        if (!raw) continue;
        const sources = (live.lastResponseSource ??= new Map());
        const rawDigest = sha1(raw);
        if (sources.get(t.index) === rawDigest) continue;
        const text = this.journalText(raw);
        sources.set(t.index, rawDigest);
        const digest = sha1(text);
        if (live.lastResponse.get(t.index) === digest) continue;
        await live.js.appendEvent({
          event: 'response',
          session_id: live.id,
          timestamp: new Date(this.clock.now()).toISOString(),
          turn: t.index,
          response: text,
        });
        live.lastResponse.set(t.index, digest);
      }
      // only the last turns can still grow: forget the older ones (memory stays flat over long sessions)
      for (const m of [live.lastResponse, live.lastResponseSource])
        for (const index of m?.keys() ?? []) if (index < lastIndex - 2) m?.delete(index);
    } catch (e) {
      this.counters.inc('recorder.eventFailures');
      this.log.warn(`could not update session ${live.id.slice(0, 8)}: ${errorText(e)}`);
    }
  }

  /** Prompt or response text as the journal stores it: redacted (the journal is what notes are built from). */
  private journalText(text: string): string {
    if (!this.redact || !text) return text;
    const r = this.redact(text);
    if (r.count > 0) this.counters.inc('recorder.journalRedactions', r.count);
    return r.text;
  }

  // ── capture outputs ──

  private async settleNow(): Promise<void> {
    this.pending.push(...this.capture.tick(this.clock.now(), true));
    await this.processOutputs();
    await this.keys.save();
  }

  private async processOutputs(): Promise<void> {
    const outputs = this.pending.splice(0);
    if (outputs.length === 0) return;
    const contents: BlobItem[] = [];
    const contentIndex = new Map<string, number>();
    const content = (file: string, text: string): number => {
      const k = `${file}\0${sha1(text)}`;
      let i = contentIndex.get(k);
      if (i === undefined) {
        i = contents.length;
        contents.push({ path: file, content: text });
        contentIndex.set(k, i);
      }
      return i;
    };
    const currentFiles: string[] = [];
    type Ref = { content: number } | { file: number } | { blob: string } | undefined;
    const plans: { o: CaptureOutput; pre: Ref; post: Ref; timelineOnly: boolean }[] = [];
    for (const o of outputs) {
      if (o.kind === 'human' || o.kind === 'other') {
        plans.push({
          o,
          pre: { content: content(o.transition.file, o.transition.before) },
          post: { content: content(o.transition.file, o.transition.after) },
          timelineOnly: false,
        });
      } else if (o.kind === 'ai') {
        const timelineOnly = this.claimsWithPair.has(o.claim.key);
        plans.push({
          o,
          pre: { content: content(o.transition.file, o.transition.before) },
          post: { content: content(o.transition.file, o.transition.after) },
          timelineOnly,
        });
      } else {
        if (this.claimsWithPair.has(o.claim.key)) continue;
        let post: Ref;
        let pre: Ref;
        if (o.after === undefined) {
          // counts only: the file as it is now, no pre-blob (the evidence rule decides at commit time)
          currentFiles.push(o.claim.file);
          post = { file: currentFiles.length - 1 };
        } else {
          post = { content: content(o.claim.file, o.after) };
          if (o.before !== undefined) pre = { content: content(o.claim.file, o.before) };
          else {
            const base = this.claimBase.get(o.claim.key);
            pre = base ? { blob: base } : undefined;
          }
        }
        plans.push({ o, pre, post, timelineOnly: false });
      }
    }
    let ids: (string | undefined)[] = [];
    let fileIds: (string | undefined)[] = [];
    let empty: string;
    const refused = { content: new Set<number>(), file: new Set<number>() };
    try {
      // gitignored, symlinked and huge files never go into the object store (their edits are not captured)
      // one check (one git process) for both kinds
      const all = await this.blobs.refusals([
        ...contents.map((c) => ({ path: c.path, bytes: Buffer.byteLength(c.content) })),
        ...currentFiles.map((f) => ({ path: f })),
      ]);
      const contentRefusals = all.slice(0, contents.length);
      const fileRefusals = all.slice(contents.length);
      const reasons = new Map<string, number>();
      contentRefusals.forEach((r, i) => r && (refused.content.add(i), reasons.set(r, (reasons.get(r) ?? 0) + 1)));
      fileRefusals.forEach((r, i) => r && (refused.file.add(i), reasons.set(r, (reasons.get(r) ?? 0) + 1)));
      if (reasons.size > 0) {
        for (const [r, n] of reasons) this.counters.inc(`recorder.blobsRefused.${r}`, n);
        this.log.info(
          `not stored in the object store: ${[...reasons].map(([r, n]) => `${n} ${r}`).join(', ')} (those edits are not captured)`,
        );
      }
      const hashed = await this.blobs.hashContents(contents.filter((_, i) => !refused.content.has(i)));
      let k = 0;
      ids = contents.map((_, i) => (refused.content.has(i) ? undefined : hashed[k++]));
      const hashedFiles = await this.blobs.hashFiles(currentFiles.filter((_, i) => !refused.file.has(i)));
      k = 0;
      fileIds = currentFiles.map((_, i) => (refused.file.has(i) ? undefined : hashedFiles[k++]));
      empty = await this.blobs.ensureEmptyBlob();
    } catch (e) {
      this.counters.inc('recorder.hashFailures');
      this.log.warn(`could not store edit blobs (${outputs.length} edit(s) dropped): ${errorText(e)}`);
      return;
    }
    const isRefused = (r: Ref): boolean =>
      !!r && (('content' in r && refused.content.has(r.content)) || ('file' in r && refused.file.has(r.file)));
    const resolve = (r: Ref): string | undefined => {
      if (!r) return undefined;
      if ('content' in r) return ids[r.content];
      if ('file' in r) return fileIds[r.file] ?? empty;
      return r.blob;
    };
    const unclaimed: UnclaimedEditRecord[] = [];
    for (const p of plans) {
      if (isRefused(p.pre) || isRefused(p.post)) continue;
      const preBlob = resolve(p.pre);
      const postBlob = resolve(p.post);
      if (!postBlob) continue;
      try {
        if (p.o.kind === 'human' || p.o.kind === 'other') {
          const t = p.o.transition;
          const counts = replacementStats(t.before, t.after);
          const rec: UnclaimedEditRecord = {
            id: t.id,
            time: t.time,
            file: t.file,
            origin: p.o.kind,
            source: t.source,
            preBlob: preBlob ?? empty,
            postBlob,
            ...countsOf(counts),
          };
          unclaimed.push(rec);
          this.addTimeline(unclaimedTimelineRecord(rec));
        } else if (p.timelineOnly && p.o.kind === 'ai') {
          const t = p.o.transition;
          const c = p.o.claim;
          this.addTimeline({
            id: t.id,
            time: t.time,
            file: t.file,
            origin: 'ai',
            agent: c.agent,
            sessionId: c.sessionId,
            turn: c.turn,
            interactionKey: c.interactionKey,
            ...countsOf(replacementStats(t.before, t.after)),
            ...(preBlob ? { preBlob } : {}),
            postBlob,
          });
        } else if (p.o.kind === 'ai' || p.o.kind === 'ai-record') {
          await this.writePair(p.o, preBlob, postBlob, empty);
        }
      } catch (e) {
        this.counters.inc('recorder.journalFailures');
        this.log.warn(`could not journal a captured edit: ${errorText(e)}`);
      }
    }
    if (unclaimed.length > 0) {
      try {
        await this.store.appendEdits(unclaimed);
      } catch (e) {
        this.counters.inc('recorder.journalFailures');
        this.log.warn(`could not write the capture log: ${errorText(e)}`);
      }
    }
    this.counters.inc('recorder.outputs', outputs.length);
  }

  /** A CLI-shaped pre_blob + file_change pair (same tool_use_id) in the claim's session, plus our ext record. */
  private async writePair(
    o: Extract<CaptureOutput, { kind: 'ai' | 'ai-record' }>,
    preBlob: string | undefined,
    postBlob: string,
    emptyBlob: string,
  ): Promise<void> {
    const c = o.claim;
    const live = this.live.get(`${c.agent}:${c.sessionId}`);
    if (!live) return;
    // A second window on this repository tails the same transcript and sees the same file change:
    // the agent record (claim key) decides, under the session lock, which window journals the pair.
    await live.js.withLock(async () => {
      const claims = (live.pairClaims = await freshExtIndex(
        live.js,
        extFiles.pairs,
        live.pairClaims,
        async () => new Set((await readPairExt(live.js)).map((r) => r.claimKey)),
      ));
      if (claims.value.has(c.key)) {
        this.counters.inc('recorder.pairsJournaledElsewhere');
        this.rememberPairedClaim(c.key);
        return;
      }
      await this.writePairLocked(live, o, preBlob, postBlob, emptyBlob);
      claims.value.add(c.key);
      claims.size = await live.js.extSize(extFiles.pairs);
    });
  }

  private async writePairLocked(
    live: LiveSession,
    o: Extract<CaptureOutput, { kind: 'ai' | 'ai-record' }>,
    preBlob: string | undefined,
    postBlob: string,
    emptyBlob: string,
  ): Promise<void> {
    const c = o.claim;
    const transition = o.kind === 'ai' ? o.transition : undefined;
    const pairId = `an-${sha1(`${c.key}\0${transition?.id ?? 'record'}`).slice(0, 24)}`;
    const promptId = live.promptIds.get(c.turn) ?? null;
    const time = transition?.time ?? claimTime(c);
    const known = c.edit.added !== undefined && c.edit.removed !== undefined;
    const before = transition?.before ?? (o.kind === 'ai-record' ? (o.before ?? (preBlob === emptyBlob ? '' : undefined)) : undefined);
    const after = transition?.after ?? (o.kind === 'ai-record' ? o.after : undefined);
    const counts = known
      ? { added: c.edit.added as number, removed: c.edit.removed as number }
      : before !== undefined && after !== undefined
        ? replacementStats(before, after)
        : undefined;
    if (preBlob)
      await live.js.appendPreBlob({
        event: 'pre_blob',
        turn: c.turn,
        prompt_id: promptId,
        file: c.file,
        blob: preBlob,
        tool_use_id: pairId,
      });
    await live.js.appendChange({
      event: 'file_change',
      timestamp: new Date(time).toISOString(),
      tool: c.edit.tool,
      file: c.file,
      session_id: c.sessionId,
      turn: c.turn,
      prompt_id: promptId,
      blob: postBlob,
      change_id: null,
      edit_added: known ? (c.edit.added as number) : null,
      edit_deleted: known ? (c.edit.removed as number) : null,
      tool_use_id: pairId,
    });
    const ext: PairExtRecord = {
      pairId,
      time,
      file: c.file,
      turn: c.turn,
      interactionKey: c.interactionKey,
      claimKey: c.key,
      tool: c.edit.tool,
      postBlob,
    };
    if (transition) ext.transitionId = transition.id;
    if (counts) {
      ext.added = counts.added;
      ext.removed = counts.removed;
    }
    if (preBlob) ext.preBlob = preBlob;
    await live.js.appendJsonl(extFiles.pairs, ext);
    this.rememberPairedClaim(c.key);
    this.generation++;
    this.addTimeline(aiTimelineRecord(ext, c.agent, c.sessionId));
  }

  /** One pair per claim (a late 'ai' match after a record fallback only updates the timeline). Bounded. */
  private rememberPairedClaim(key: string): void {
    this.claimsWithPair.add(key);
    this.claimBase.delete(key);
    if (this.claimsWithPair.size > maxRememberedClaims) this.claimsWithPair.delete(this.claimsWithPair.values().next().value as string);
  }

  private addTimeline(record: TimelineEditRecord): void {
    const r = Object.freeze({ ...record });
    const prev = this.timelineIndex.get(r.id);
    if (prev) {
      // the first AI classification of a transition wins; human/other never replaces AI
      if (prev.origin === 'ai' || r.origin !== 'ai') return;
      this.timeline[this.timeline.indexOf(prev)] = r;
      this.timelineIndex.set(r.id, r);
      return;
    }
    this.timeline.push(r);
    this.timelineIndex.set(r.id, r);
    if (this.timeline.length > 1 && r.time < this.timeline[this.timeline.length - 2].time) this.timeline.sort((a, b) => a.time - b.time);
    if (this.timeline.length > maxTimelineRecords) {
      for (const gone of this.timeline.splice(0, this.timeline.length - maxTimelineRecords)) this.timelineIndex.delete(gone.id);
    }
  }

  private rebuildTimelineIndex(): void {
    this.timelineIndex.clear();
    for (const r of this.timeline) this.timelineIndex.set(r.id, r);
  }

  // ── commits ──

  private async recordCommitNow(sha: string, opts: { amendedFrom?: string }): Promise<RecordOutcome> {
    const short = sha.slice(0, 8);
    try {
      await this.settleNow();
      const diffs = new CommitDiffs(this.git, { log: this.log, worktreeRoot: this.root });
      const full = isObjectId(sha) ? sha : await diffs.resolveCommit(sha);
      // the first reads run side by side (each is one short git process); their results are used in order
      const infoRead = this.commitInfo(full);
      const entriesRead = diffs.commitBlobs(full);
      for (const p of [infoRead, entriesRead]) p.catch(() => undefined); // not awaited when the note exists
      const [reflog, hasNote] = await Promise.all([this.reflogEntry(full), this.notes.has(full)]);
      // `git commit --amend` (from anywhere) says so in the reflog, with the amended commit just before it
      const op = reflog?.op;
      const amendedFrom = opts.amendedFrom ?? (op?.startsWith('commit (amend)') ? reflog?.previous : undefined);
      const amend = amendedFrom !== undefined;
      if (hasNote) {
        // an amend found in the reflog that we already recorded (a reload, a later look) stays as it is
        if (!amend || (!opts.amendedFrom && (await this.store.findCommit(full)))) return { kind: 'exists' };
      }
      const info = await infoRead;
      if (info.parents.length > 1) return { kind: 'skipped', reason: 'merge commit' };
      if (op && notNewCommitOps.test(op)) return { kind: 'skipped', reason: `not a new commit (${op.split(/[:\s]/)[0]})` };

      let old: { sha: string; hasNote: boolean; log: CommitLogRecord | undefined } | undefined;
      if (amend) {
        const oldSha = await diffs.resolveCommit(amendedFrom as string);
        old = { sha: oldSha, hasNote: await this.notes.has(oldSha), log: await this.store.findCommit(oldSha) };
        if (old.hasNote && (await this.treeOf(oldSha)) === info.tree) return await this.copyNote(old.sha, full, old.log);
      }

      diffs.markCommit(full); // commitInfo read it as a commit (`^{commit}`)
      const commitEntries = await entriesRead;
      const fileSet = new Set(commitEntries.map((e) => e.path));
      const exclude = new Map<string, CommittedPairLine[]>();
      for (const r of await this.replacedCommits(full, info.parents, fileSet, old?.log)) {
        for (const [id, lines] of Object.entries(r.sessions)) exclude.set(id, [...(exclude.get(id) ?? []), ...lines]);
      }
      const snapshots: SessionSnapshot[] = [];
      for (const id of await this.journal.listSessionIds()) {
        const js = this.journal.session(id);
        if (!js) continue;
        snapshots.push(await readSessionSnapshot(js, { exclude: exclude.get(id) ?? [] }));
      }
      // the phases below are synchronous stretches of a few ms each for a large commit: the
      // extension host's thread gets a turn in between (yieldToEventLoop)
      await yieldToEventLoop();
      const latest = info.time + this.commitTimeSkewMs;
      // An edit that started from exactly the committed content of its file was made after this
      // commit (it belongs to a later one): never let this commit use, and consume, it.
      const committed = new Map(commitEntries.map((e) => [e.path, e.committedBlob]));
      const reverted = this.revertedPairs(snapshots, fileSet, new Map(commitEntries.map((e) => [e.path, e.parentBlob])), latest);
      const inCommit = new Map<SessionSnapshot, JournalPair[]>();
      for (const s of snapshots) {
        const pairs = s.pairs.filter(
          (p) =>
            fileSet.has(p.file) &&
            p.time <= latest &&
            !(p.preBlob !== undefined && p.preBlob === committed.get(p.file) && p.postBlob !== p.preBlob) &&
            !reverted.has(`${s.id}/${p.pairId}`),
        );
        if (pairs.length > 0) inCommit.set(s, pairs);
      }
      if (inCommit.size === 0) return old?.hasNote ? await this.copyNote(old.sha, full, old.log) : { kind: 'human-only' };

      const inputs: EditPairInput[] = [];
      const aiFiles: string[] = [];
      for (const [s, pairs] of inCommit) {
        for (const p of pairs) {
          if (p.postBlob === undefined) {
            aiFiles.push(p.file);
            continue;
          }
          const input: EditPairInput = {
            file: p.file,
            postBlob: p.postBlob,
            interactionKey: p.interactionKey,
            agent: p.agent,
            timestamp: p.time,
            pairId: `${s.id}/${p.pairId}`,
          };
          if (p.preBlob) input.preBlob = p.preBlob;
          if (p.editAdded !== undefined && p.editDeleted !== undefined) {
            input.editAdded = p.editAdded;
            input.editDeleted = p.editDeleted;
          }
          inputs.push(input);
        }
      }
      // the patch scanned for identifiers is read while the attribution runs
      const patchRead = this.commitPatch(full);
      const result = await analyzeCommit(this.git, full, inputs, { log: this.log, worktreeRoot: this.root, aiFiles, diffs });
      if (result.degraded.length > 0) {
        this.counters.inc('recorder.degradedCommits');
        this.log.info(`commit ${short}: attribution degraded (${[...new Set(result.degraded.map((d) => d.reason))].join(', ')})`);
      }
      if (!result.files.some((f) => f.byAi)) return { kind: 'human-only' };

      const sessions = [...inCommit].map(([s, pairs]) => sessionRows(s, pairs, result.contributingInteractionKeys));
      const patch = await patchRead;
      await yieldToEventLoop();
      const built = buildNote({
        commit: { subject: info.subject, files: result.files.map((f) => f.path), patch },
        sessions,
        attribution: attributionInputFrom(result),
        clock: this.clock,
        ...(this.redact ? { redact: noteRedaction(this.redact) } : {}),
        log: this.log,
      });
      if (!built) return { kind: 'human-only' };
      await yieldToEventLoop();
      // our notes stay small on purpose: long responses cut with a marker, the note under the write cap
      const fitted = fitNoteForWrite(built.note);
      if (fitted.steps.length > 0)
        this.log.info(`note for ${short} kept under ${noteWriteLimits.maxBytes.toLocaleString('en-US')} bytes: ${fitted.steps.join('; ')}`);
      if (!fitted.fits) {
        this.counters.inc('recorder.notesTooLarge');
        this.log.warn(
          `note for ${short} not written: ${fitted.bytes.toLocaleString('en-US')} bytes (${built.note.files.length} files) is over the cap of ${noteWriteLimits.maxBytes.toLocaleString('en-US')} bytes even after cutting its text`,
        );
        return { kind: 'skipped', reason: 'note over the size cap' };
      }
      built.note = fitted.note;
      const written = await this.notes.write(full, built.note, { overwrite: amend });
      if (written === 'exists') return { kind: 'exists' };

      // consumption: every pair used by this commit, then the prompt-window markers
      const appended: Record<string, CommittedPairLine[]> = {};
      for (const [s, pairs] of inCommit) {
        const seen = new Set<string>();
        const lines: CommittedPairLine[] = [];
        for (const p of pairs) {
          for (const l of p.consumeLines) {
            const k = consumptionKey(l);
            if (seen.has(k)) continue;
            seen.add(k);
            lines.push(canonicalLine(l));
          }
        }
        for (const m of built.markers) if (m.sessionId === s.id) lines.push(canonicalLine(markerToCommittedPairLine(m)));
        for (const l of lines) await s.session.appendCommittedPair(l);
        appended[s.id] = lines;
      }
      await this.store.appendCommit({ sha: full, time: this.clock.now(), sessions: appended });
      this.generation++;
      const a = built.note.attribution;
      this.log.info(
        `note written for ${short}: ${a.ai_ratio}% (${a.method}), ${built.note.interactions.length} interaction(s), ${inputs.length} edit(s), ${built.redactions} redaction(s)`,
      );
      return {
        kind: 'written',
        noteBytes: Buffer.byteLength(encodeNote(built.note), 'utf8'),
        aiRatio: a.ai_ratio,
        method: a.method,
        redactions: built.redactions,
      };
    } catch (e) {
      this.counters.inc('recorder.recordFailures');
      const reason = errorText(e);
      this.log.warn(`recording the note of ${short} failed: ${reason}`);
      return { kind: 'failed', reason };
    }
  }

  /**
   * Unconsumed agent edits of the commit's files whose work was thrown away before the commit
   * (revertedEdits: the file went back to the edit's pre-blob or the parent's version and did not
   * come back). States: every edit we observed (timeline: human, other, AI) and every journal pair,
   * up to the commit. Keys `${sessionId}/${pairId}`. They are left unconsumed.
   */
  private revertedPairs(
    snapshots: readonly SessionSnapshot[],
    files: ReadonlySet<string>,
    parentBlobs: ReadonlyMap<string, string>,
    latest: number,
  ): Set<string> {
    const edits: RevertibleEdit[] = [];
    const states: FileState[] = [];
    for (const s of snapshots) {
      for (const p of s.pairs) {
        if (!files.has(p.file) || p.time > latest) continue;
        edits.push({
          id: `${s.id}/${p.pairId}`,
          file: p.file,
          time: p.time,
          ...(p.preBlob ? { preBlob: p.preBlob } : {}),
          ...(p.postBlob ? { postBlob: p.postBlob } : {}),
        });
        if (p.postBlob) states.push({ file: p.file, time: p.time, blob: p.postBlob });
      }
    }
    if (edits.length === 0) return new Set();
    for (const r of this.timeline)
      if (r.postBlob && files.has(r.file) && r.time <= latest) states.push({ file: r.file, time: r.time, blob: r.postBlob });
    const out = revertedEdits(edits, states, parentBlobs);
    if (out.size > 0) {
      this.counters.inc('recorder.revertedEdits', out.size);
      this.log.debug(`${out.size} reverted agent edit(s) left out of the commit`);
    }
    return out;
  }

  /**
   * Earlier recorded commits whose pairs and prompts this commit takes over: the amended commit,
   * and any recorded commit touching these files with the same parents that is not this commit —
   * it was replaced (amend not reported as such, "Undo Last Commit" then a new commit).
   */
  private async replacedCommits(
    sha: string,
    parents: readonly string[],
    files: ReadonlySet<string>,
    amended: CommitLogRecord | undefined,
  ): Promise<CommitLogRecord[]> {
    const out = amended ? [amended] : [];
    const candidates = (await this.store.recentCommits(50)).filter(
      (r) =>
        r.sha !== sha &&
        r.sha !== amended?.sha &&
        Object.values(r.sessions).some((lines) => lines.some((l) => l.file !== null && files.has(l.file))),
    );
    if (candidates.length === 0) return out;
    // shas from our capture log (a file on disk): only full object ids reach git
    const shas = [...new Set(candidates.map((r) => r.sha))].filter(isObjectId);
    if (shas.length === 0) return out;
    const listed = await this.git.tryRun(['rev-list', '--no-walk', '--parents', '--end-of-options', ...shas], {
      okExitCodes: [],
    });
    const same = new Set<string>();
    for (const line of listed?.split('\n') ?? []) {
      const [c, ...ps] = line.trim().split(' ');
      if (c && ps.join(' ') === parents.join(' ')) same.add(c);
    }
    for (const r of candidates) if (same.has(r.sha)) out.push(r);
    if (out.length > (amended ? 1 : 0)) this.log.debug(`commit ${sha.slice(0, 8)} replaces ${out.length} recorded commit(s)`);
    return out;
  }

  /** Amend without content change: the same note blob on the new commit. */
  private async copyNote(from: string, to: string, oldLog: CommitLogRecord | undefined): Promise<RecordOutcome> {
    const r = await this.notes.copy(from, to, { overwrite: true });
    if (r === 'missing') return { kind: 'human-only' };
    await this.store.appendCommit({ sha: to, time: this.clock.now(), copiedFrom: from, sessions: oldLog?.sessions ?? {} });
    const raw = (await this.notes.readRaw(to)) ?? '';
    const d = await this.notes.read(to);
    const a = d?.kind === 'valid' ? d.note.attribution : undefined;
    this.log.info(`note of ${from.slice(0, 8)} copied to amended ${to.slice(0, 8)}`);
    return {
      kind: 'written',
      noteBytes: Buffer.byteLength(raw, 'utf8'),
      aiRatio: a?.ai_ratio ?? 0,
      method: a?.method ?? 'none',
      redactions: countRedactionMarkers(raw),
    };
  }

  private async commitInfo(sha: string): Promise<{ parents: string[]; time: number; tree: string; subject: string }> {
    const out = await this.git.run(['show', '-s', '--format=%P%x00%ct%x00%T%x00%s', '--end-of-options', `${sha}^{commit}`]);
    const [parents = '', ct = '0', tree = '', subject = ''] = out.replace(/\n$/, '').split('\0');
    return { parents: parents.split(' ').filter(Boolean), time: Number(ct) * 1000, tree, subject };
  }

  private async treeOf(sha: string): Promise<string | undefined> {
    if (!isObjectId(sha)) return undefined;
    return (await this.git.tryRun(['rev-parse', '--verify', '-q', `${sha}^{tree}`], { okExitCodes: [] }))?.trim();
  }

  /** The HEAD reflog subject of the newest entry for `sha` (e.g. `commit: …`, `checkout: moving …`), if any. */
  /** The newest HEAD reflog entry that moved to `sha`: its operation and the commit HEAD was on before. */
  private async reflogEntry(sha: string): Promise<{ op: string; previous: string | undefined } | undefined> {
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

  /** `git show --patch --unified=0` of the commit (only scanned for identifiers), capped. */
  private async commitPatch(sha: string): Promise<string> {
    try {
      const out = await this.git.runBuffer(
        ['show', '--format=', '--patch', '--unified=0', '--no-color', '--no-ext-diff', '--no-textconv', sha],
        {
          maxOutputBytes: patchProbeBytes,
        },
      );
      return out.toString('utf8');
    } catch {
      return '';
    }
  }

  /** Unconsumed pairs and prompt texts of every session, re-read when the journal changed (or after 5 s). */
  private async pairIndex(): Promise<PairIndex> {
    const now = systemClock.now();
    const c = this.pairIndexCache;
    if (c && c.generation === this.generation && now - c.at < 5_000) return c;
    const pairs: JournalPair[] = [];
    const prompts = new Map<string, string>();
    for (const id of await this.journal.listSessionIds()) {
      const js = this.journal.session(id);
      if (!js) continue;
      const s = await readSessionSnapshot(js);
      pairs.push(...s.pairs.filter((p) => p.postBlob !== undefined));
      for (const p of s.prompts) prompts.set(`${s.agent}:${s.id}:${p.turn}`, p.prompt);
    }
    this.pairIndexCache = { at: now, generation: this.generation, pairs, prompts };
    return this.pairIndexCache;
  }

  private relPath(abs: string): string | undefined {
    if (!abs) return undefined;
    for (const root of this.roots) {
      if (!isInsideDir(root, abs, hostPathRules)) continue;
      return repoRelativePath(root, abs, hostPathRules);
    }
    return undefined;
  }
}

/** The note-time redactor: its count is every marker in the result, also those the journal already holds. */
function noteRedaction(redact: RedactFn): RedactFn {
  return (text) => {
    const r = redact(text);
    return { text: r.text, count: countRedactionMarkers(r.text) };
  };
}

function isAgentId(v: string): v is AgentId {
  return (agentIds as readonly string[]).includes(v);
}

function lastTurn(s: { turns: readonly SessionTurn[] } | undefined): SessionTurn | undefined {
  return s && s.turns.length > 0 ? s.turns[s.turns.length - 1] : undefined;
}

function eventTime(e: AgentEvent, fallback: number): number {
  const t = e.timestamp ? Date.parse(e.timestamp) : NaN;
  return Number.isFinite(t) ? t : fallback;
}

function claimTime(c: AgentClaim): number {
  const t = c.edit.timestamp ? Date.parse(c.edit.timestamp) : NaN;
  return Number.isFinite(t) ? Math.min(t, c.receivedAt) : c.receivedAt;
}

function countsOf(c: { added: number; removed: number }): { added: number; removed: number } {
  return { added: c.added, removed: c.removed };
}

function aiTimelineRecord(r: PairExtRecord, agent: string, sessionId: string): TimelineEditRecord {
  const out: TimelineEditRecord = {
    id: r.transitionId ?? r.pairId,
    time: r.time,
    file: r.file,
    origin: 'ai',
    agent,
    sessionId,
    turn: r.turn,
    interactionKey: r.interactionKey,
    postBlob: r.postBlob,
  };
  if (r.added !== undefined) out.added = r.added;
  if (r.removed !== undefined) out.removed = r.removed;
  if (r.preBlob) out.preBlob = r.preBlob;
  return out;
}

function unclaimedTimelineRecord(r: UnclaimedEditRecord): TimelineEditRecord {
  return {
    id: r.id,
    time: r.time,
    file: r.file,
    origin: r.origin,
    added: r.added,
    removed: r.removed,
    preBlob: r.preBlob,
    postBlob: r.postBlob,
  };
}

function responseDigests(byTurn: Map<number, string>): Map<number, string> {
  return new Map([...byTurn].map(([turn, text]) => [turn, sha1(text)]));
}

function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** An error's message without stack (git stderr excerpts, fs codes — never prompt text). */
function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).slice(0, 300);
}
