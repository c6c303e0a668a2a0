// Long file: the per-repository pipeline is still wired here (issue #17 part 1 moves it to src/node).
import * as vscode from 'vscode';
import * as os from 'node:os';
import { access } from 'node:fs/promises';
import * as path from 'node:path';
import type { Repository } from '../@types/git';
import type { Logger } from '../core/ports';
import { agentIds, type AgentId } from '../core/model/agentEvents';
import { createRedactor } from '../core/redaction/redactor';
import { GitRunner } from '../node/git/gitRunner';
import { BlobStore } from '../node/git/blobStore';
import { NoteStore } from '../node/notes/noteStore';
import { BlameService } from '../node/blame/blameService';
import { LineNoteLookup } from '../node/lookup/lineNoteLookup';
import { JsonOffsetStore } from '../node/transcripts/jsonOffsetStore';
import { TranscriptWatcher } from '../node/transcripts/transcriptWatcher';
import { RepositoryRecorder, type RecordOutcome } from '../node/recorder/repositoryRecorder';
import { configureRewrite } from '../node/sharing/notesSharing';
import { NotesSharingCoordinator } from '../node/sharing/notesSharingCoordinator';
import { SharingWorkerClient } from '../node/sharing/sharingWorkerClient';
import { configSection, readSharingPush, type AgentNoteConfig } from './config';
import { EditTracker } from './capture/editTracker';
import { Lifetime, LifetimeEnded } from '../node/util/lifetime';
import { systemClock } from '../core/ports';

export interface HeadMove {
  previous: string | undefined;
  current: string;
  branch: string | undefined;
}

/**
 * Everything Agent Note does for one git repository. Created only for repositories reported by
 * the git extension (never for plain folders); disposed when the repository closes.
 * Construction is cheap; `start()` does the I/O (journal, transcripts, watchers) in the background.
 */
export class RepositoryService implements vscode.Disposable {
  readonly root: string;
  readonly git: GitRunner;
  /**
   * Git for background work — recording notes, hashing captured edits, HEAD time — at a lower CPU
   * priority than the editor's and the user's git (a commit must never wait for us).
   */
  readonly backgroundGit: GitRunner;
  /** Blob reads (one `cat-file --batch` for hover, capture and recorder); writes through backgroundGit. */
  readonly blobs: BlobStore;
  readonly notes: NoteStore;
  readonly blame: BlameService;
  readonly lookup: LineNoteLookup;
  recorder: RepositoryRecorder | undefined;
  private watcher: TranscriptWatcher | undefined;
  private watcherEvents: { dispose(): void } | undefined;
  /** Restarts of the transcript watcher after a settings change, one at a time. */
  private transcriptsRestart: Promise<void> = Promise.resolve();
  private gitDirs: { agentDir: string; commonDir: string } | undefined;
  private redactor: ReturnType<typeof createRedactor> | undefined;
  private tracker: EditTracker | undefined;
  private offsets: JsonOffsetStore | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly headEmitter = new vscode.EventEmitter<HeadMove>();
  private readonly notesEmitter = new vscode.EventEmitter<void>();
  private readonly sessionsEmitter = new vscode.EventEmitter<void>();
  private head: string | undefined;
  private tickTimer: NodeJS.Timeout | undefined;
  private recording: Promise<unknown> = Promise.resolve();
  private disposed = false;
  /** Start-up steps: nothing starts after dispose(), whichever await it happens at. */
  private readonly life: Lifetime;
  private started: Promise<void> | undefined;
  /** Notes fetched, merged, repaired and shared after real pushes (src/node/sharing). */
  sharing: NotesSharingCoordinator | undefined;
  /** `<git-dir>/index.lock`: present while a git command (e.g. the user's commit) updates the index. */
  private indexLock: string | undefined;
  private ticking = false;

  /** HEAD moved (commit, amend, checkout, reset, rebase, pull…), from any source. */
  readonly onDidMoveHead = this.headEmitter.event;
  /** refs/notes/agentnote changed (we wrote a note, a fetch brought notes, another tool wrote one). */
  readonly onDidChangeNotes = this.notesEmitter.event;
  /** Agent sessions changed (new prompt, edit, response, idle). */
  readonly onDidChangeSessions = this.sessionsEmitter.event;

  constructor(
    readonly repository: Repository,
    readonly log: Logger,
    gitPath: string | undefined,
    private config: AgentNoteConfig,
    options: { onStartStep?: (step: number) => void } = {},
  ) {
    this.life = new Lifetime(options.onStartStep);
    this.root = repository.rootUri.fsPath;
    this.git = new GitRunner(this.root, { gitPath, log });
    this.backgroundGit = this.git.background();
    this.blobs = new BlobStore(this.git, { log, writeGit: this.backgroundGit });
    this.notes = new NoteStore(this.git, { blobs: this.blobs, log, trustCacheUntilInvalidated: true });
    this.blame = new BlameService(this.git);
    this.lookup = new LineNoteLookup(this.blame, this.notes);
    this.head = repository.state.HEAD?.commit;
    this.disposables.push(
      this.headEmitter,
      this.notesEmitter,
      this.sessionsEmitter,
      repository.state.onDidChange(() => this.onStateChange()),
    );
  }

  /** Commit time (epoch ms) of HEAD, once known. */
  headTime: number | undefined;

  /** Change-handler timing of the edit tracker (benchmark). */
  get trackerStats(): { calls: number; totalMs: number; maxMs: number; medianMs: number } | undefined {
    return this.tracker ? { ...this.tracker.handlerStats, medianMs: this.tracker.handlerMedianMs } : undefined;
  }

  private async refreshHeadTime(): Promise<void> {
    const out = await this.backgroundGit.tryRun(['log', '-1', '--format=%ct', 'HEAD']);
    this.headTime = out ? Number(out.trim()) * 1000 : undefined;
  }

  get headCommit(): string | undefined {
    return this.head;
  }

  get branch(): string | undefined {
    return this.repository.state.HEAD?.name;
  }

  /** Starts capture, transcript tailing and note recording (idempotent). */
  start(): Promise<void> {
    this.started ??= this.doStart().catch((e) => {
      if (!(e instanceof LifetimeEnded)) this.log.error(`start failed: ${e instanceof Error ? e.message : String(e)}`);
    });
    return this.started;
  }

  private async doStart(): Promise<void> {
    const t0 = systemClock.now();
    void this.refreshHeadTime();
    // read at every use: a change of agentNote.redaction.extraPatterns applies to the next prompt
    this.redactor = createRedactor({ extraPatterns: this.config.redactionExtraPatterns, logger: this.log });
    const recorder = await this.life.step(
      RepositoryRecorder.open({
        root: this.root,
        git: this.backgroundGit,
        log: this.log,
        blobs: this.blobs,
        notes: this.notes,
        redact: (text) => {
          const r = (this.redactor ?? createRedactor()).redact(text);
          return { text: r.text, count: r.count };
        },
        journalRetentionDays: this.config.journalRetentionDays,
      }),
      (r) => r.dispose(),
    );
    this.recorder = recorder;
    this.disposables.push(
      toDisposable(
        recorder.onDidRecord((e) => {
          if (e.outcome.kind === 'written') this.notesChanged();
        }),
      ),
      toDisposable(recorder.sessions.onDidChange(() => this.sessionsEmitter.fire())),
    );
    this.tracker = new EditTracker(this, (t) => recorder.onTransition(t), this.log);
    this.disposables.push(this.tracker);
    const [agentDir, commonDir, indexLock] = (
      await this.life.step(
        this.git.run(['rev-parse', '--path-format=absolute', '--git-path', 'agentnote', '--git-common-dir', '--git-path', 'index.lock']),
      )
    )
      .trim()
      .split('\n');
    this.indexLock = indexLock;
    this.gitDirs = { agentDir, commonDir };
    this.startSharing(commonDir);
    this.watchNotesRef(commonDir);
    await this.startTranscripts(recorder, agentDir, commonDir);
    this.life.check();
    // the tick's blob writes wait while git holds the index (a commit, a checkout, an add)
    this.tickTimer = setInterval(() => {
      if (this.ticking) return;
      this.ticking = true;
      void (async () => {
        if (!(await this.gitBusy())) await recorder.tick();
      })()
        .catch((e) => this.log.debug(`tick failed: ${String(e)}`))
        .finally(() => (this.ticking = false));
    }, 1000);
    void this.configureSharing();
    this.sessionsEmitter.fire();
    this.log.info(`capture started in ${systemClock.now() - t0} ms (${this.watcher?.tailedFiles.length ?? 0} transcripts tailed)`);
  }

  private async startTranscripts(recorder: RepositoryRecorder, agentDir: string, commonDir: string): Promise<void> {
    const enabled = agentIds.filter((a: AgentId) => this.config.agents[a]);
    this.life.check();
    if (enabled.length === 0) return;
    this.offsets ??= await this.life.step(JsonOffsetStore.open(path.join(agentDir, 'transcript-offsets.json'), { log: this.log }), (o) =>
      o.dispose(),
    );
    const watcher = new TranscriptWatcher({
      repo: { root: this.root, gitCommonDir: commonDir },
      discovery: {
        homeDir: os.homedir(),
        env: process.env,
        enabledAgents: enabled,
        extraRoots: this.config.extraTranscriptRoots,
        log: this.log,
      },
      offsetStore: this.offsets,
      log: this.log,
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
        const recorder = this.recorder;
        if (!recorder || !this.gitDirs || this.disposed) return; // not started yet: start() reads the new settings
        this.watcherEvents?.dispose();
        this.watcher?.dispose();
        this.watcher = undefined;
        this.watcherEvents = undefined;
        await this.startTranscripts(recorder, this.gitDirs.agentDir, this.gitDirs.commonDir);
        this.sessionsEmitter.fire();
        const on = agentIds.filter((a) => this.config.agents[a]);
        const tailed = (this.watcher as TranscriptWatcher | undefined)?.tailedFiles.length ?? 0;
        this.log.info(`agents now read: ${on.join(', ') || 'none'} (${tailed} transcripts tailed)`);
      })
      .catch((e) => {
        if (!(e instanceof LifetimeEnded))
          this.log.warn(`restarting the transcript watcher failed: ${e instanceof Error ? e.message : String(e)}`);
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
    const t = this.tracker?.counters;
    return {
      ...this.git.counters.snapshot(),
      ...this.watcher?.counters.snapshot(),
      ...this.recorder?.counters.snapshot(),
      ...(t ? { 'capture.reloads': t.reloads, 'capture.adopted': t.adopted } : {}),
    };
  }

  /**
   * Re-reads notes when refs/notes/agentnote moves (fetch, another tool, the CLI); tells sharing
   * about notes refs (a fetch into a tracking ref) and remote-tracking reflogs (a push).
   */
  private watchNotesRef(commonDir: string): void {
    const base = vscode.Uri.file(commonDir);
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '{refs/notes/agentnote,packed-refs}'));
    const changed = () => {
      this.notesChanged();
      this.sharing?.poke();
    };
    const s = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '{refs/notes/remotes/**,logs/refs/remotes/**}'));
    const poke = () => this.sharing?.poke();
    this.disposables.push(w, w.onDidChange(changed), w.onDidCreate(changed), w.onDidDelete(changed));
    this.disposables.push(s, s.onDidChange(poke), s.onDidCreate(poke), s.onDidDelete(poke));
  }

  /** The sharing policy lives in src/node/sharing; here it only gets events and settings (read when used). */
  private startSharing(commonDir: string): void {
    const scope = this.repository.rootUri;
    const sharing = new NotesSharingCoordinator({
      repo: { cwd: this.root, gitPath: this.git.gitPath, commonDir },
      git: this.backgroundGit,
      worker: sharingWorker(),
      log: this.log,
      pushMode: () => readSharingPush(scope),
      remoteNames: () => this.repository.state.remotes.map((r) => r.name),
      fetchEnabled: () => vscode.workspace.getConfiguration(configSection, scope).get<boolean>('notes.fetchWithBranch', true),
      beforeShare: () => this.idle(),
      onNotesChanged: () => this.notesChanged(),
    });
    this.sharing = sharing;
    this.disposables.push(toDisposable(sharing));
  }

  notesChanged(): void {
    this.notes.invalidate();
    this.notesEmitter.fire();
  }

  /** Rewrite settings, then sharing (one after the other: both write .git/config). */
  private async configureSharing(): Promise<void> {
    try {
      if (this.config.keepOnRewrite) await configureRewrite(this.git);
    } catch (e) {
      this.log.warn(`notes rewrite configuration failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (this.disposed) return;
    await this.sharing?.start();
  }

  private onStateChange(): void {
    const current = this.repository.state.HEAD?.commit;
    this.sharing?.poke();
    if (!current || current === this.head) return;
    const previous = this.head;
    this.head = current;
    this.blame.clear();
    const move = { previous, current, branch: this.repository.state.HEAD?.name };
    this.headEmitter.fire(move);
    // record only once the commit (or whatever moved HEAD) is over: a short pause, then no index.lock
    this.recording = this.recording
      .then(() => this.afterGitQuiet())
      .then(() => {
        void this.refreshHeadTime();
        return this.recordHead(move);
      });
  }

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
    await sleep(headSettleMs);
    const until = systemClock.now() + maxGitBusyWaitMs;
    while (!this.disposed && systemClock.now() < until && (await this.gitBusy())) await sleep(50);
  }

  /** Records the note for the commit HEAD moved to (after the commit, never during it). */
  private async recordHead(move: HeadMove): Promise<RecordOutcome | undefined> {
    await this.start();
    const recorder = this.recorder;
    if (!recorder || this.disposed) return undefined;
    try {
      await this.tracker?.settle();
      await recorder.tick();
      await recorder.settle();
      const outcome = await recorder.recordCommit(move.current);
      this.log.info(`commit ${move.current.slice(0, 7)}: ${outcome.kind}${'reason' in outcome ? ` (${outcome.reason})` : ''}`);
      if (outcome.kind === 'written') this.notesChanged();
      // an agent that commits right after editing may be faster than its transcript flush: while a
      // session is active, look again a little later (a human-only result consumed nothing)
      if (outcome.kind === 'human-only' && this.hasActiveSession()) this.scheduleRetry(move.current, [3000, 10_000]);
      return outcome;
    } catch (e) {
      this.log.warn(`recording ${move.current.slice(0, 7)} failed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
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
      return this.recordHead({ previous: undefined, current: sha, branch: this.repository.state.HEAD?.name });
    });
    this.recording = run.catch(() => undefined);
    return run;
  }

  private readonly retryTimers = new Set<NodeJS.Timeout>();

  private scheduleRetry(sha: string, delays: number[]): void {
    const [delay, ...rest] = delays;
    if (delay === undefined) return;
    const timer = setTimeout(() => {
      this.recording = this.recording
        .then(async () => {
          const recorder = this.recorder;
          if (!recorder || this.disposed || this.head !== sha) return;
          await this.tracker?.settle();
          await recorder.tick();
          const outcome = await recorder.recordCommit(sha);
          if (outcome.kind === 'written') {
            this.log.info(`commit ${sha.slice(0, 7)}: written on a later look`);
            this.notesChanged();
          } else if (outcome.kind === 'human-only') this.scheduleRetry(sha, rest);
        })
        .catch((e) => this.log.warn(`later look at ${sha.slice(0, 7)} failed: ${String(e)}`));
      this.retryTimers.delete(timer);
    }, delay);
    this.retryTimers.add(timer);
  }

  private hasActiveSession(): boolean {
    return (this.recorder?.sessions.list() ?? []).some((x) => x.active);
  }

  /** Waits until recording triggered by HEAD moves so far has finished (tests, commands). */
  async idle(): Promise<void> {
    await this.start();
    await this.recording;
  }

  /** The settings in effect for this repository (resource-scoped ones read with its URI). */
  get settings(): Readonly<AgentNoteConfig> {
    return this.config;
  }

  /**
   * A setting changed: everything that depends on it follows without a reload (agents and extra
   * roots restart the transcript watcher, redaction patterns apply to the next prompt, retention is
   * applied at once, sharing configuration is checked again). Resolves when applied.
   */
  async updateConfig(config: AgentNoteConfig): Promise<void> {
    const prev = this.config;
    this.config = config;
    const changed = <K extends keyof AgentNoteConfig>(k: K) => JSON.stringify(prev[k]) !== JSON.stringify(config[k]);
    const work: Promise<unknown>[] = [];
    if (changed('redactionExtraPatterns') && this.redactor)
      this.redactor = createRedactor({ extraPatterns: config.redactionExtraPatterns, logger: this.log });
    if (changed('agents') || changed('extraTranscriptRoots')) work.push(this.restartTranscripts());
    if (changed('journalRetentionDays') && this.recorder) work.push(this.recorder.setJournalRetentionDays(config.journalRetentionDays));
    if (changed('keepOnRewrite') && config.keepOnRewrite) work.push(this.configureSharing());
    // sharing reads its settings (with this folder's scope) itself: a few `git config` reads
    if (this.sharing) work.push(this.sharing.configure());
    await Promise.all(work);
  }

  dispose(): void {
    this.disposed = true;
    this.life.end();
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = undefined;
    for (const t of this.retryTimers) clearTimeout(t);
    this.watcherEvents?.dispose();
    this.watcher?.dispose();
    this.watcherEvents = this.watcher = undefined;
    void this.offsets?.dispose();
    this.offsets = undefined;
    this.blobs.dispose();
    void this.recorder?.dispose();
    this.recorder = undefined;
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
    this.tracker = this.sharing = undefined;
  }

  /**
   * What is still running after dispose() (lifecycle tests): a timer, watcher, recorder, tracker,
   * sharing or disposable created after dispose() shows up here. Empty while not disposed too.
   */
  leftAfterDispose(): string[] {
    if (!this.disposed) return [];
    const left: string[] = [];
    if (this.tickTimer) left.push('tick timer');
    if (this.watcher || this.watcherEvents) left.push('transcript watcher');
    if (this.offsets) left.push('offset store');
    if (this.recorder) left.push('recorder');
    if (this.tracker) left.push('edit tracker');
    if (this.sharing) left.push('sharing');
    if (this.disposables.length) left.push(`${this.disposables.length} disposables`);
    if (this.life.live) left.push(`${this.life.live} owned resources`);
    return left;
  }

  /** Start-up steps (awaits) begun so far (lifecycle tests). */
  get startSteps(): number {
    return this.life.stepCount;
  }
}

/** Pause between a HEAD move and recording its note (a commit's last writes, hooks, the git extension's own status). */
const headSettleMs = 150;
/** Longest wait for git to release index.lock before recording anyway. */
const maxGitBusyWaitMs = 10_000;

let worker: SharingWorkerClient | undefined;
/** One sharing worker thread for the extension host (it stops itself when idle). */
function sharingWorker(): SharingWorkerClient {
  worker ??= new SharingWorkerClient();
  return worker;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function toDisposable(d: { dispose(): void }): vscode.Disposable {
  return new vscode.Disposable(() => d.dispose());
}
