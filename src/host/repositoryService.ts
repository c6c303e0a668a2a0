import * as vscode from 'vscode';
import * as os from 'node:os';
import type { Repository } from '../@types/git';
import type { Logger } from '../core/ports';
import type { AgentId } from '../core/model/agentEvents';
import type { GitRunner } from '../node/git/gitRunner';
import type { BlobStore } from '../node/git/blobStore';
import type { NoteStore } from '../node/notes/noteStore';
import { BlameService } from '../node/blame/blameService';
import { LineNoteLookup } from '../node/lookup/lineNoteLookup';
import type { RecordOutcome, RepositoryRecorder } from '../node/recorder/repositoryRecorder';
import type { NotesSharingCoordinator } from '../node/sharing/notesSharingCoordinator';
import { RepositoryPipeline, type HeadMove } from '../node/pipeline/repositoryPipeline';
import type { AgentNoteConfig } from './config';
import { EditTracker } from './capture/editTracker';
import type { EditorStorage } from '../core/agents/registry/editorUserDirs';

export type { HeadMove } from '../node/pipeline/repositoryPipeline';

/**
 * Agent Note for one git repository, as the editor sees it: a thin adapter around the recording
 * pipeline (`src/node/pipeline/repositoryPipeline.ts`). VS Code events (the git extension's state,
 * file watchers on the git dir, settings) become pipeline calls; the pipeline's events become
 * surface refreshes. Created only for repositories the git extension reports; disposed when the
 * repository closes.
 */
export class RepositoryService implements vscode.Disposable {
  readonly root: string;
  readonly pipeline: RepositoryPipeline<EditTracker>;
  readonly blame: BlameService;
  readonly lookup: LineNoteLookup;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly headEmitter = new vscode.EventEmitter<HeadMove>();
  private readonly notesEmitter = new vscode.EventEmitter<void>();
  private readonly sessionsEmitter = new vscode.EventEmitter<void>();
  private disposed = false;

  /** HEAD moved (commit, amend, checkout, reset, rebase, pull…), from any source. */
  readonly onDidMoveHead = this.headEmitter.event;
  /** refs/notes/agentnote moved (we wrote a note, a fetch brought notes, another tool wrote one): once per move. */
  readonly onDidChangeNotes = this.notesEmitter.event;
  /** Agent sessions changed (new prompt, edit, response, idle). */
  readonly onDidChangeSessions = this.sessionsEmitter.event;

  constructor(
    readonly repository: Repository,
    readonly log: Logger,
    gitPath: string | undefined,
    private config: AgentNoteConfig,
    options: { onStartStep?: (step: number) => void; editorStorage?: EditorStorage } = {},
  ) {
    this.root = repository.rootUri.fsPath;
    this.pipeline = new RepositoryPipeline({
      root: this.root,
      gitPath,
      log,
      settings: config,
      head: repository.state.HEAD?.commit,
      homeDir: os.homedir(),
      env: process.env,
      editorStorage: options.editorStorage,
      startCapture: (emit, repo) => new EditTracker(repo, emit, log),
      watchGitDir: (commonDir) => this.watchGitDir(commonDir),
      remoteNames: () => repository.state.remotes.map((r) => r.name),
      onStartStep: options.onStartStep,
    });
    this.blame = new BlameService(this.pipeline.git);
    this.lookup = new LineNoteLookup(this.blame, this.pipeline.notes);
    this.disposables.push(
      this.headEmitter,
      this.notesEmitter,
      this.sessionsEmitter,
      toDisposable(
        this.pipeline.onDidMoveHead((move) => {
          this.blame.clear();
          this.headEmitter.fire(move);
        }),
      ),
      toDisposable(this.pipeline.onDidChangeNotes(() => this.notesEmitter.fire())),
      toDisposable(this.pipeline.onDidChangeSessions(() => this.sessionsEmitter.fire())),
      repository.state.onDidChange(() => {
        this.pipeline.repositoryChanged();
        this.pipeline.headMoved(repository.state.HEAD?.commit, repository.state.HEAD?.name);
      }),
    );
  }

  get git(): GitRunner {
    return this.pipeline.git;
  }

  /** Git for background work at a lower CPU priority than the editor's and the user's git. */
  get backgroundGit(): GitRunner {
    return this.pipeline.backgroundGit;
  }

  get blobs(): BlobStore {
    return this.pipeline.blobs;
  }

  get notes(): NoteStore {
    return this.pipeline.notes;
  }

  get recorder(): RepositoryRecorder | undefined {
    return this.pipeline.recorder;
  }

  get sharing(): NotesSharingCoordinator | undefined {
    return this.pipeline.sharing;
  }

  get headCommit(): string | undefined {
    return this.pipeline.headCommit;
  }

  /** Commit time (epoch ms) of HEAD, once known. */
  get headTime(): number | undefined {
    return this.pipeline.headTime;
  }

  get branch(): string | undefined {
    return this.repository.state.HEAD?.name;
  }

  /** Change-handler timing of the edit tracker (benchmark). */
  get trackerStats(): { calls: number; totalMs: number; maxMs: number; medianMs: number } | undefined {
    const t = this.pipeline.capture;
    return t ? { ...t.handlerStats, medianMs: t.handlerMedianMs } : undefined;
  }

  /** Starts capture, transcript tailing and note recording (idempotent). */
  start(): Promise<void> {
    return this.pipeline.start();
  }

  /**
   * Watches refs/notes/agentnote and packed-refs (the notes ref moved: fetch, another tool, the CLI)
   * and the notes tracking refs and remote-tracking reflogs (sharing: a fetch, a push), and the
   * post-rewrite hook's queue (a rebase).
   */
  private watchGitDir(commonDir: string): vscode.Disposable {
    const base = vscode.Uri.file(commonDir);
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '{refs/notes/agentnote,packed-refs}'));
    const s = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '{refs/notes/remotes/**,logs/refs/remotes/**}'));
    // the post-rewrite hook's queue, of the main work tree and of linked ones
    const q = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '{agentnote,worktrees/*/agentnote}/rewritten'));
    const rewrites = () => this.pipeline.rewritesQueued();
    const notes = () => this.pipeline.notesRefChanged();
    const remotes = () => this.pipeline.remoteRefsChanged();
    return vscode.Disposable.from(
      w,
      w.onDidChange(notes),
      w.onDidCreate(notes),
      w.onDidDelete(notes),
      s,
      s.onDidChange(remotes),
      s.onDidCreate(remotes),
      s.onDidDelete(remotes),
      q,
      q.onDidChange(rewrites),
      q.onDidCreate(rewrites),
    );
  }

  /** Transcripts tailed now, per agent (Show Status, Report Issue). */
  tailedTranscripts(): Partial<Record<AgentId, number>> {
    return this.pipeline.tailedTranscripts();
  }

  /** Counters of this repository's work (git, transcripts, journal, recorder, capture): numbers only. */
  counters(): Record<string, number> {
    const t = this.pipeline.capture?.counters;
    return {
      ...this.pipeline.counters(),
      ...(t ? { 'capture.reloads': t.reloads, 'capture.adopted': t.adopted, 'capture.reloadTransitions': t.reloadTransitions } : {}),
    };
  }

  /** Records `rev` (default HEAD) again exactly as a HEAD move does (tests and the API). */
  recordAgain(rev = 'HEAD'): Promise<RecordOutcome | undefined> {
    return this.pipeline.recordAgain(rev);
  }

  /** Waits until recording triggered by HEAD moves so far has finished (tests, commands). */
  idle(): Promise<void> {
    return this.pipeline.idle();
  }

  /** The settings in effect for this repository (resource-scoped ones read with its URI). */
  get settings(): Readonly<AgentNoteConfig> {
    return this.config;
  }

  /** A setting changed (read with this repository's URI): the pipeline follows; resolves when applied. */
  updateConfig(config: AgentNoteConfig): Promise<void> {
    this.config = config;
    return this.pipeline.updateSettings(config);
  }

  dispose(): void {
    this.disposed = true;
    this.pipeline.dispose();
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }

  /** What is still running after dispose() (lifecycle tests); empty while not disposed too. */
  leftAfterDispose(): string[] {
    if (!this.disposed) return [];
    const left = this.pipeline.leftAfterDispose();
    if (this.disposables.length) left.push(`${this.disposables.length} disposables`);
    return left;
  }

  /** Start-up steps (awaits) begun so far (lifecycle tests). */
  get startSteps(): number {
    return this.pipeline.startSteps;
  }
}

function toDisposable(d: { dispose(): void }): vscode.Disposable {
  return new vscode.Disposable(() => d.dispose());
}
