// Long file: the per-repository pipeline's start-up steps, inputs and events are one lifecycle; its parts (recorder, capture, transcripts, sharing) live in their own modules.
import { access, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { ContentTransition } from '../../core/capture/editCapture';
import { agentIds, type AgentId } from '../../core/model/agentEvents';
import { type Logger, systemClock } from '../../core/ports';
import { createRedactor } from '../../core/redaction/redactor';
import { BlobStore } from '../git/blobStore';
import { GitRunner } from '../git/gitRunner';
import { NoteStore } from '../notes/noteStore';
import { RepositoryRecorder, type RecordOutcome } from '../recorder/repositoryRecorder';
import { configureRewrite } from '../sharing/notesSharing';
import { NotesSharingCoordinator, type CoordinatorOptions, type SharingPushMode } from '../sharing/notesSharingCoordinator';
import { SharingWorkerClient } from '../sharing/sharingWorkerClient';
import { JsonOffsetStore } from '../transcripts/jsonOffsetStore';
import { TranscriptWatcher, type TranscriptWatcherOptions } from '../transcripts/transcriptWatcher';
import { Emitter, type Subscription } from '../util/emitter';
import { Lifetime, LifetimeEnded } from '../util/lifetime';
import type { EditorStorage } from '../../core/agents/registry/editorUserDirs';

export interface HeadMove {
  previous: string | undefined;
  current: string;
  branch: string | undefined;
}

/** The settings the pipeline follows (a snapshot; {@link RepositoryPipeline.updateSettings} applies a new one). */
export interface PipelineSettings {
  agents: Record<AgentId, boolean>;
  extraTranscriptRoots: string[];
  /** agentNote.notes.fetchWithBranch */
  fetchWithBranch: boolean;
  /** agentNote.sharing.push */
  sharingPush: SharingPushMode;
  keepOnRewrite: boolean;
  journalRetentionDays: number;
  redactionExtraPatterns: string[];
}

/** The editor/disk capture the host runs for the pipeline (the host's EditTracker). */
export interface PipelineCapture {
  /** Emits every transition observed so far (called before a commit is recorded). */
  settle(): Promise<void>;
  dispose(): void;
}

export interface RepositoryPipelineOptions<C extends PipelineCapture> {
  /** Work tree root. */
  root: string;
  gitPath?: string;
  log: Logger;
  settings: Readonly<PipelineSettings>;
  /** HEAD when the pipeline is created (later moves come through {@link RepositoryPipeline.headMoved}). */
  head?: string;
  /** Starts the capture of edits; its transitions go to `emit`. Called once during start-up, disposed with the pipeline. */
  startCapture(emit: (t: ContentTransition) => void, git: { root: string; git: GitRunner; blobs: BlobStore }): C;
  /**
   * Watches the git common dir (the host: VS Code file watchers) and calls notesRefChanged() and
   * remoteRefsChanged(). Called once during start-up; the result is disposed with the pipeline.
   */
  watchGitDir?(commonDir: string): Subscription;
  /** The configured remote names without a git process (the host: the git extension's state). */
  remoteNames?(): readonly string[];
  /** Home and environment the agents' transcripts are discovered in. */
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The running editor's storage folders (agents that live in an editor: Copilot Chat, Cline, …). */
  editorStorage?: EditorStorage;
  /** Transcript watcher tuning (tests). */
  transcriptTuning?: Pick<TranscriptWatcherOptions, 'rescanIntervalMs' | 'rescanDebounceMs' | 'pollIntervalMs' | 'debounceMs'>;
  /** Default: one sharing worker thread per process. */
  sharingWorker?: CoordinatorOptions['worker'];
  sharingDebounceMs?: number;
  /** Capture tick (default 1 s). */
  tickIntervalMs?: number;
  /** Pause between a HEAD move and recording its note (default 150 ms). */
  headSettleMs?: number;
  /** A test seam: runs as start-up step `n` begins (see {@link Lifetime}). */
  onStartStep?: (step: number) => void;
}

/** Ticks in a row that look again for a rebased commit's copied note (see lookAgainForRewrites). */
const maxRewriteLooks = 20;

/**
 * The recording pipeline of one repository: edits in (the capture the host starts), transcripts in
 * (tailed here), HEAD moves in, notes out. Owns the git runners, blob and note stores, the recorder,
 * the transcript watcher and its offsets, notes sharing, the capture tick and HEAD-move recording.
 * One event per change: `onDidChangeNotes` fires once per move of the notes ref's tip, whoever moved
 * it (our note, a fetch, a merge, another tool), however many signals reported it.
 * Construction is cheap; `start()` does the I/O; nothing starts after `dispose()`.
 */
export class RepositoryPipeline<C extends PipelineCapture = PipelineCapture> {
  readonly root: string;
  readonly git: GitRunner;
  /** Git for background work (recording, hashing captured edits, HEAD time) at a lower CPU priority than the user's. */
  readonly backgroundGit: GitRunner;
  /** Blob reads (one `cat-file --batch` for hover, capture and recorder); writes through backgroundGit. */
  readonly blobs: BlobStore;
  readonly notes: NoteStore;
  private readonly log: Logger;
  private settings: Readonly<PipelineSettings>;
  private recorderValue: RepositoryRecorder | undefined;
  private captureValue: C | undefined;
  private sharingValue: NotesSharingCoordinator | undefined;
  private watcher: TranscriptWatcher | undefined;
  private watcherEvents: Subscription | undefined;
  private offsets: JsonOffsetStore | undefined;
  private gitDirWatch: Subscription | undefined;
  private readonly subscriptions: Subscription[] = [];
  /** Restarts of the transcript watcher after a settings change, one at a time. */
  private transcriptsRestart: Promise<void> = Promise.resolve();
  private gitDirs: { agentDir: string; commonDir: string } | undefined;
  /** `<git-dir>/index.lock`: present while a git command (e.g. the user's commit) updates the index. */
  private indexLock: string | undefined;
  private redactor: ReturnType<typeof createRedactor>;
  private head: string | undefined;
  private tickTimer: NodeJS.Timeout | undefined;
  private ticking = false;
  private recording: Promise<unknown> = Promise.resolve();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  /** The notes ref's tip as last announced (`null`: no notes ref); undefined until start-up read it. */
  private notesTip: string | null | undefined;
  private notesCheck: Promise<void> = Promise.resolve();
  private notesCheckQueued = false;
  private rewritesScheduled = false;
  /** Ticks in a row that looked for a rebased commit's note copy (see lookAgainForRewrites). */
  private rewriteLooks = 0;
  private disposed = false;
  /** Start-up steps: nothing starts after dispose(), whichever await it happens at. */
  private readonly life: Lifetime;
  private started: Promise<void> | undefined;
  private readonly listenerFailed = (e: unknown) => this.opts.log.warn(`pipeline listener failed: ${errorText(e)}`);
  private readonly notesEmitter = new Emitter<void>(this.listenerFailed);
  private readonly sessionsEmitter = new Emitter<void>(this.listenerFailed);
  private readonly headEmitter = new Emitter<HeadMove>(this.listenerFailed);

  /** refs/notes/agentnote moved (we wrote a note, a fetch or merge brought notes, another tool wrote one): once per move. */
  readonly onDidChangeNotes = this.notesEmitter.event;
  /** Agent sessions changed (started, new prompt, edit, response, idle, agents turned on or off). */
  readonly onDidChangeSessions = this.sessionsEmitter.event;
  /** HEAD moved (commit, amend, checkout, reset, rebase, pull…), from any source; fired before its note is recorded. */
  readonly onDidMoveHead = this.headEmitter.event;
  /** Commit time (epoch ms) of HEAD, once known. */
  headTime: number | undefined;

  constructor(private readonly opts: RepositoryPipelineOptions<C>) {
    this.root = opts.root;
    this.log = opts.log;
    this.settings = opts.settings;
    this.head = opts.head;
    this.life = new Lifetime(opts.onStartStep);
    this.git = new GitRunner(this.root, { gitPath: opts.gitPath, log: opts.log });
    this.backgroundGit = this.git.background();
    this.blobs = new BlobStore(this.git, { log: opts.log, writeGit: this.backgroundGit });
    this.notes = new NoteStore(this.git, { blobs: this.blobs, log: opts.log, trustCacheUntilInvalidated: true });
    this.redactor = this.makeRedactor();
  }

  /** The recorder, once start-up opened it. */
  get recorder(): RepositoryRecorder | undefined {
    return this.recorderValue;
  }

  /** The capture the host started, once start-up started it. */
  get capture(): C | undefined {
    return this.captureValue;
  }

  /** Notes fetched, merged, repaired and shared after real pushes (src/node/sharing). */
  get sharing(): NotesSharingCoordinator | undefined {
    return this.sharingValue;
  }

  get headCommit(): string | undefined {
    return this.head;
  }

  /** Starts capture, transcript tailing, sharing and note recording (idempotent). */
  start(): Promise<void> {
    this.started ??= this.doStart().catch((e) => {
      if (!(e instanceof LifetimeEnded)) this.log.error(`start failed: ${errorText(e)}`);
    });
    return this.started;
  }

  private async doStart(): Promise<void> {
    const t0 = systemClock.now();
    void this.refreshHeadTime();
    const recorder = await this.life.step(
      RepositoryRecorder.open({
        root: this.root,
        git: this.backgroundGit,
        log: this.log,
        blobs: this.blobs,
        notes: this.notes,
        // read at every use: a change of agentNote.redaction.extraPatterns applies to the next prompt
        redact: (text) => {
          const r = this.redactor.redact(text);
          return { text: r.text, count: r.count };
        },
        journalRetentionDays: this.settings.journalRetentionDays,
      }),
      (r) => r.dispose(),
    );
    this.recorderValue = recorder;
    this.subscriptions.push(
      // whatever the outcome, the tip tells whether the notes moved (a written note, an amend's copy)
      recorder.onDidRecord(() => this.notesRefChanged()),
      recorder.sessions.onDidChange(() => this.sessionsEmitter.fire()),
    );
    this.captureValue = this.opts.startCapture((t) => recorder.onTransition(t), { root: this.root, git: this.git, blobs: this.blobs });
    const [agentDir, commonDir, indexLock] = (
      await this.life.step(
        this.git.run(['rev-parse', '--path-format=absolute', '--git-path', 'agentnote', '--git-common-dir', '--git-path', 'index.lock']),
      )
    )
      .trim()
      .split('\n');
    this.indexLock = indexLock;
    this.gitDirs = { agentDir, commonDir };
    this.notesTip = await this.life.step(
      this.readNotesTip().catch((e) => {
        this.log.warn(`reading the notes ref failed: ${errorText(e)}`);
        return null;
      }),
    );
    this.startSharing(commonDir);
    this.gitDirWatch = this.opts.watchGitDir?.(commonDir);
    await this.startTranscripts(recorder, agentDir, commonDir);
    this.life.check();
    // the tick's blob writes wait while git holds the index (a commit, a checkout, an add)
    this.tickTimer = setInterval(() => {
      if (this.ticking) return;
      this.ticking = true;
      void (async () => {
        if (await this.gitBusy()) return;
        await recorder.tick();
        this.lookAgainForRewrites(recorder);
      })()
        .catch((e) => this.log.debug(`tick failed: ${String(e)}`))
        .finally(() => (this.ticking = false));
    }, this.opts.tickIntervalMs ?? 1000);
    void this.configureSharing();
    // rewrites done while no editor was open (a rebase in a terminal): caught up now
    this.recording = this.recording.then(() => this.recordRewrites()).catch(() => undefined);
    this.sessionsEmitter.fire();
    this.log.info(`capture started in ${systemClock.now() - t0} ms (${this.watcher?.tailedFiles.length ?? 0} transcripts tailed)`);
  }

  private makeRedactor(): ReturnType<typeof createRedactor> {
    return createRedactor({ extraPatterns: this.settings.redactionExtraPatterns, logger: this.log });
  }

  private async refreshHeadTime(): Promise<void> {
    const out = await this.backgroundGit.tryRun(['log', '-1', '--format=%ct', 'HEAD']);
    this.headTime = out ? Number(out.trim()) * 1000 : undefined;
  }

  private async startTranscripts(recorder: RepositoryRecorder, agentDir: string, commonDir: string): Promise<void> {
    const enabled = agentIds.filter((a: AgentId) => this.settings.agents[a]);
    this.life.check();
    if (enabled.length === 0) return;
    this.offsets ??= await this.life.step(JsonOffsetStore.open(path.join(agentDir, 'transcript-offsets.json'), { log: this.log }), (o) =>
      o.dispose(),
    );
    const watcher = new TranscriptWatcher({
      repo: { root: this.root, gitCommonDir: commonDir },
      discovery: {
        homeDir: this.opts.homeDir,
        env: this.opts.env,
        editorStorage: this.opts.editorStorage,
        enabledAgents: enabled,
        extraRoots: this.settings.extraTranscriptRoots,
        log: this.log,
      },
      offsetStore: this.offsets,
      log: this.log,
      ...this.opts.transcriptTuning,
    });
    this.watcher = watcher;
    // returning the promise holds the tailer back until the recorder took the batch (memory stays flat during a catch-up)
    this.watcherEvents = watcher.onEvents((batch) =>
      recorder
        .onAgentEvents(
          batch.map((e) => ({ event: e.event, key: e.key, transcriptPath: e.source.filePath, fileTimeMs: e.source.fileTimeMs })),
        )
        .catch((e) => this.log.warn(`transcript events failed: ${String(e)}`)),
    );
    // a dispose() while discovery runs disposes this.watcher; the step then stops the start-up
    await this.life.step(watcher.start());
  }

  /**
   * Stops every tailer and discovers again with the current agents and extra roots (a setting
   * changed): a disabled agent's transcripts stop being read at once, an enabled one's are read
   * from where Agent Note left them (the stored offsets), as after a reload.
   */
  private restartTranscripts(): Promise<void> {
    this.transcriptsRestart = this.transcriptsRestart
      .then(async () => {
        const recorder = this.recorderValue;
        if (!recorder || !this.gitDirs || this.disposed) return; // not started yet: start() reads the new settings
        this.watcherEvents?.dispose();
        this.watcher?.dispose();
        this.watcher = undefined;
        this.watcherEvents = undefined;
        await this.startTranscripts(recorder, this.gitDirs.agentDir, this.gitDirs.commonDir);
        this.sessionsEmitter.fire();
        const on = agentIds.filter((a) => this.settings.agents[a]);
        const tailed = (this.watcher as TranscriptWatcher | undefined)?.tailedFiles.length ?? 0;
        this.log.info(`agents now read: ${on.join(', ') || 'none'} (${tailed} transcripts tailed)`);
      })
      .catch((e) => {
        if (!(e instanceof LifetimeEnded)) this.log.warn(`restarting the transcript watcher failed: ${errorText(e)}`);
      });
    return this.transcriptsRestart;
  }

  /** Transcripts tailed now, per agent (Show Status, Report Issue). */
  tailedTranscripts(): Partial<Record<AgentId, number>> {
    const byAgent: Partial<Record<AgentId, number>> = {};
    for (const t of this.watcher?.lastDiscovery?.transcripts ?? []) {
      if (this.watcher?.tailedFiles.includes(t.filePath)) byAgent[t.agent] = (byAgent[t.agent] ?? 0) + 1;
    }
    return byAgent;
  }

  /** Counters of this repository's work (git, transcripts, journal, recorder): numbers only. */
  counters(): Record<string, number> {
    return { ...this.git.counters.snapshot(), ...this.watcher?.counters.snapshot(), ...this.recorderValue?.counters.snapshot() };
  }

  // ── inputs ──

  /**
   * refs/notes/agentnote or packed-refs may have changed (a file watcher, a fetch): the tip is read
   * again and `onDidChangeNotes` fires when it moved. Sharing hears of it too.
   */
  notesRefChanged(): void {
    this.checkNotesTip();
    this.sharingValue?.poke();
  }

  /** A remote-tracking ref or notes tracking ref changed (a push, a fetch): sharing looks. */
  remoteRefsChanged(): void {
    this.sharingValue?.poke();
  }

  /** Something in the repository changed (the git extension's state: index, refs, remotes). */
  repositoryChanged(): void {
    this.sharingValue?.poke();
  }

  /**
   * Commits may have been rewritten: the post-rewrite hook queued pairs (the host's watcher on
   * `agentnote/rewritten`) or git copied notes (the notes ref moved). Their notes are recomputed for
   * their own diffs once git is quiet, queued with the recording (calls coalesce).
   */
  rewritesQueued(): void {
    if (this.disposed || this.rewritesScheduled) return;
    this.rewritesScheduled = true;
    this.recording = this.recording
      .then(() => this.afterGitQuiet())
      .then(() => {
        this.rewritesScheduled = false;
        return this.recordRewrites();
      })
      .catch((e) => {
        this.rewritesScheduled = false;
        this.log.warn(`recomputing rewritten notes failed: ${errorText(e)}`);
      });
  }

  private async recordRewrites(): Promise<void> {
    await this.start();
    if (this.disposed || !this.recorderValue) return;
    const n = await this.recorderValue.recordRewrites();
    if (n > 0) this.log.info(`${n} rewritten commit(s): notes recomputed for their own diffs`);
  }

  /**
   * A rebased commit waits for git's copy of its note, which comes when the rebase finishes and is
   * announced by the notes ref's file watcher. That event can come late or not at all (a busy
   * machine, a network file system), so while a commit waits, the tick looks again (the look reads
   * the notes ref itself): at most `maxRewriteLooks` ticks in a row (a rebase stopped on a conflict
   * for longer is looked at again when HEAD moves).
   */
  private lookAgainForRewrites(recorder: RepositoryRecorder): void {
    if (!recorder.rewritesWaiting) {
      this.rewriteLooks = 0;
      return;
    }
    if (this.rewriteLooks >= maxRewriteLooks) return;
    this.rewriteLooks++;
    this.rewritesQueued();
  }

  /** HEAD is now at `current` (a no-op when it did not move); its note is recorded once git is quiet. */
  headMoved(current: string | undefined, branch: string | undefined): void {
    if (!current || current === this.head || this.disposed) return;
    const move: HeadMove = { previous: this.head, current, branch };
    this.head = current;
    this.headEmitter.fire(move);
    // record only once the commit (or whatever moved HEAD) is over: a short pause, then no index.lock
    this.recording = this.recording
      .then(() => this.afterGitQuiet())
      .then(async () => {
        void this.refreshHeadTime();
        await this.recordHead(move.current);
        // after the commit's own note (a cherry-pick's, say), so a rewrite's note can build on it
        await this.recordRewrites();
      });
  }

  /**
   * Records `rev` (default HEAD) again exactly as a HEAD move does, queued behind the recording in
   * progress. Idempotent: an existing note is kept (tests and the API; a window reload does the same).
   */
  recordAgain(rev = 'HEAD'): Promise<RecordOutcome | undefined> {
    const run = this.recording.then(async () => {
      const sha = (
        await this.git.tryRun(['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`], { okExitCodes: [] })
      )?.trim();
      if (!sha) return undefined;
      return this.recordHead(sha);
    });
    this.recording = run.catch(() => undefined);
    return run;
  }

  /** Waits until recording triggered by HEAD moves so far has finished (tests, commands). */
  async idle(): Promise<void> {
    await this.start();
    await this.recording;
  }

  /**
   * Settings changed: everything that depends on them follows without a reload (agents and extra
   * roots restart the transcript watcher, redaction patterns apply to the next prompt, retention is
   * applied at once, sharing configuration is checked again). Resolves when applied.
   */
  async updateSettings(settings: Readonly<PipelineSettings>): Promise<void> {
    const prev = this.settings;
    this.settings = settings;
    const changed = <K extends keyof PipelineSettings>(k: K) => JSON.stringify(prev[k]) !== JSON.stringify(settings[k]);
    const work: Promise<unknown>[] = [];
    if (changed('redactionExtraPatterns')) this.redactor = this.makeRedactor();
    if (changed('agents') || changed('extraTranscriptRoots')) work.push(this.restartTranscripts());
    if (changed('journalRetentionDays') && this.recorderValue)
      work.push(this.recorderValue.setJournalRetentionDays(settings.journalRetentionDays));
    if (changed('keepOnRewrite') && settings.keepOnRewrite) work.push(this.configureSharing());
    // fetch refspecs and the hook's switch follow the sharing settings: a few `git config` reads
    if (this.sharingValue) work.push(this.sharingValue.configure());
    await Promise.all(work);
  }

  // ── notes ──

  /** Reads the tip again (queued; a burst of signals is one read) and announces a move. */
  private checkNotesTip(): void {
    if (this.notesCheckQueued) return;
    this.notesCheckQueued = true;
    this.notesCheck = this.notesCheck
      .then(async () => {
        this.notesCheckQueued = false;
        if (this.disposed || this.notesTip === undefined) return; // start-up reads the first tip
        const tip = await this.readNotesTip();
        if (this.disposed || tip === this.notesTip) return;
        this.notesTip = tip;
        this.notes.invalidate();
        this.notesEmitter.fire();
        // git copies a rebase's notes when it finishes (HEAD does not move then): look for rewrites
        this.rewritesQueued();
      })
      .catch((e) => this.log.warn(`reading the notes ref failed: ${errorText(e)}`));
  }

  /**
   * The tip of refs/notes/agentnote without a git process: the loose ref, else its packed-refs line
   * (`null`: no notes ref). A reftable repository has neither file: there git tells.
   */
  private async readNotesTip(): Promise<string | null> {
    const commonDir = this.gitDirs?.commonDir;
    if (!commonDir) return null;
    const loose = await readIfExists(path.join(commonDir, ...notesRef.split('/')));
    if (loose !== undefined) return loose.trim();
    const packed = await readIfExists(path.join(commonDir, 'packed-refs'));
    const line = packed?.split('\n').find((l) => l.endsWith(` ${notesRef}`) && !l.startsWith('#') && !l.startsWith('^'));
    if (line) return line.slice(0, line.indexOf(' '));
    if (await isDirectory(path.join(commonDir, 'reftable'))) {
      const out = await this.backgroundGit.tryRun(['rev-parse', '-q', '--verify', '--end-of-options', notesRef], { okExitCodes: [] });
      return out?.trim() || null;
    }
    return null;
  }

  // ── sharing ──

  /** The sharing policy lives in src/node/sharing; here it gets events and the settings snapshot. */
  private startSharing(commonDir: string): void {
    this.sharingValue = new NotesSharingCoordinator({
      repo: { cwd: this.root, gitPath: this.git.gitPath, commonDir },
      git: this.backgroundGit,
      worker: this.opts.sharingWorker ?? sharingWorker(),
      log: this.log,
      pushMode: () => this.settings.sharingPush,
      remoteNames: this.opts.remoteNames,
      fetchEnabled: () => this.settings.fetchWithBranch,
      beforeShare: () => this.idle(),
      onNotesChanged: () => this.checkNotesTip(),
      debounceMs: this.opts.sharingDebounceMs,
    });
  }

  /** Rewrite settings, then sharing (one after the other: both write .git/config). */
  private async configureSharing(): Promise<void> {
    try {
      if (this.settings.keepOnRewrite) await configureRewrite(this.git);
    } catch (e) {
      this.log.warn(`notes rewrite configuration failed: ${errorText(e)}`);
    }
    if (this.disposed) return;
    await this.sharingValue?.start();
  }

  // ── recording ──

  /** True while git holds the index lock of this work tree. */
  private async gitBusy(): Promise<boolean> {
    if (!this.indexLock) return false;
    try {
      await access(this.indexLock);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Waits `headSettleMs` after a HEAD move, then until git has released the index lock (polled;
   * at most `maxGitBusyWaitMs`, after which a stale lock no longer holds recording back).
   */
  private async afterGitQuiet(): Promise<void> {
    await sleep(this.opts.headSettleMs ?? headSettleMs);
    const until = systemClock.now() + maxGitBusyWaitMs;
    while (!this.disposed && systemClock.now() < until && (await this.gitBusy())) await sleep(50);
  }

  /**
   * Records the note of `sha` (after the commit, never during it): the capture emits what it still
   * holds, the recorder processes it and records (recordCommit settles the recorder itself).
   */
  private async recordHead(sha: string): Promise<RecordOutcome | undefined> {
    await this.start();
    const recorder = this.recorderValue;
    if (!recorder || this.disposed) return undefined;
    try {
      await this.captureValue?.settle();
      await recorder.tick();
      const outcome = await recorder.recordCommit(sha);
      this.log.info(`commit ${sha.slice(0, 7)}: ${outcome.kind}${'reason' in outcome ? ` (${outcome.reason})` : ''}`);
      // an agent that commits right after editing may be faster than its transcript flush: while a
      // session is active, look again a little later (a human-only result consumed nothing)
      if (outcome.kind === 'human-only' && this.hasActiveSession()) this.scheduleRetry(sha, [3000, 10_000]);
      return outcome;
    } catch (e) {
      this.log.warn(`recording ${sha.slice(0, 7)} failed: ${errorText(e)}`);
      return undefined;
    }
  }

  private scheduleRetry(sha: string, delays: number[]): void {
    const [delay, ...rest] = delays;
    if (delay === undefined || this.disposed) return;
    const timer = setTimeout(() => {
      this.recording = this.recording
        .then(async () => {
          const recorder = this.recorderValue;
          if (!recorder || this.disposed || this.head !== sha) return;
          await this.captureValue?.settle();
          await recorder.tick();
          const outcome = await recorder.recordCommit(sha);
          if (outcome.kind === 'written') this.log.info(`commit ${sha.slice(0, 7)}: written on a later look`);
          else if (outcome.kind === 'human-only') this.scheduleRetry(sha, rest);
        })
        .catch((e) => this.log.warn(`later look at ${sha.slice(0, 7)} failed: ${String(e)}`));
      this.retryTimers.delete(timer);
    }, delay);
    this.retryTimers.add(timer);
  }

  private hasActiveSession(): boolean {
    return (this.recorderValue?.sessions.list() ?? []).some((x) => x.active);
  }

  // ── lifetime ──

  dispose(): void {
    this.disposed = true;
    this.life.end();
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = undefined;
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    this.watcherEvents?.dispose();
    this.watcher?.dispose();
    this.watcherEvents = this.watcher = undefined;
    void this.offsets?.dispose();
    this.offsets = undefined;
    this.gitDirWatch?.dispose();
    this.gitDirWatch = undefined;
    this.sharingValue?.dispose();
    this.sharingValue = undefined;
    this.captureValue?.dispose();
    this.captureValue = undefined;
    for (const s of this.subscriptions.splice(0).reverse()) s.dispose();
    this.blobs.dispose();
    void this.recorderValue?.dispose();
    this.recorderValue = undefined;
    this.notesEmitter.dispose();
    this.sessionsEmitter.dispose();
    this.headEmitter.dispose();
  }

  /**
   * What is still running after dispose() (lifecycle tests): a timer, watcher, recorder, capture,
   * sharing or subscription created after dispose() shows up here. Empty while not disposed too.
   */
  leftAfterDispose(): string[] {
    if (!this.disposed) return [];
    const left: string[] = [];
    if (this.tickTimer) left.push('tick timer');
    if (this.retryTimers.size) left.push(`${this.retryTimers.size} retry timers`);
    if (this.watcher || this.watcherEvents) left.push('transcript watcher');
    if (this.offsets) left.push('offset store');
    if (this.recorderValue) left.push('recorder');
    if (this.captureValue) left.push('edit capture');
    if (this.sharingValue) left.push('sharing');
    if (this.gitDirWatch) left.push('git dir watcher');
    if (this.subscriptions.length) left.push(`${this.subscriptions.length} subscriptions`);
    if (this.life.live) left.push(`${this.life.live} owned resources`);
    return left;
  }

  /** Start-up steps (awaits) begun so far (lifecycle tests). */
  get startSteps(): number {
    return this.life.stepCount;
  }
}

const notesRef = 'refs/notes/agentnote';
/** Pause between a HEAD move and recording its note (a commit's last writes, hooks, the git extension's own status). */
const headSettleMs = 150;
/** Longest wait for git to release index.lock before recording anyway. */
const maxGitBusyWaitMs = 10_000;

let worker: SharingWorkerClient | undefined;
/** One sharing worker thread for the process (it stops itself when idle). */
function sharingWorker(): SharingWorkerClient {
  worker ??= new SharingWorkerClient();
  return worker;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
