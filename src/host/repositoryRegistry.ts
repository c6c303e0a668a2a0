import * as vscode from 'vscode';
import type { Repository } from '../@types/git';
import type { Logger } from '../core/ports';
import type { GitExtensionAdapter } from './git/gitExtension';
import type { AgentNoteConfig } from './config';
import { RepositoryService } from './repositoryService';
import type { EditorStorage } from '../core/agents/registry/editorUserDirs';

/** Open repositories → per-repository services (multi-root aware), released when a repository closes. */
export class RepositoryRegistry implements vscode.Disposable {
  /** Keyed by root path (the git API's repository objects are per-access wrappers). */
  private readonly services = new Map<string, RepositoryService>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly openEmitter = new vscode.EventEmitter<RepositoryService>();
  private readonly closeEmitter = new vscode.EventEmitter<RepositoryService>();
  readonly onDidOpen = this.openEmitter.event;
  readonly onDidClose = this.closeEmitter.event;

  constructor(
    private readonly git: GitExtensionAdapter,
    private readonly log: Logger,
    private readonly makeLogger: (component: string) => Logger,
    /** Settings for a repository: resource-scoped ones are read with its root URI (multi-root workspaces). */
    private readonly getConfig: (scope: vscode.Uri) => AgentNoteConfig,
    /** The running editor's storage folders, for agents that live in an editor. */
    private readonly editorStorage: EditorStorage = {},
  ) {
    this.disposables.push(
      this.openEmitter,
      this.closeEmitter,
      git.onDidOpenRepository((r) => this.add(r)),
      git.onDidCloseRepository((r) => this.remove(r)),
    );
  }

  get all(): RepositoryService[] {
    return [...this.services.values()];
  }

  /** The repository containing `uri` (deepest root wins for nested repositories). */
  forUri(uri: vscode.Uri): RepositoryService | undefined {
    if (uri.scheme !== 'file') return undefined;
    const p = uri.fsPath;
    let best: RepositoryService | undefined;
    for (const s of this.services.values()) {
      if (p === s.root || p.startsWith(s.root.endsWith('/') ? s.root : `${s.root}/`)) {
        if (!best || s.root.length > best.root.length) best = s;
      }
    }
    return best;
  }

  /** The repository of the active editor, else the only/first one. */
  current(): RepositoryService | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return (uri && this.forUri(uri)) ?? this.all[0];
  }

  /**
   * Lifecycle test: starts a second, private service on the repository at `root` and disposes it
   * as start-up step `step` begins (an await point; past the last step: right after start-up).
   * Resolves with the number of steps start-up took and what was still running after dispose().
   */
  async probeStartupDispose(root: string, step: number): Promise<{ steps: number; left: string[] } | undefined> {
    const repo = this.services.get(root)?.repository;
    if (!repo) return undefined;
    const service: RepositoryService = new RepositoryService(
      repo,
      this.makeLogger('lifecycle-probe'),
      this.git.gitPath,
      this.getConfig(repo.rootUri),
      {
        onStartStep: (n) => {
          if (n === step) service.dispose();
        },
        editorStorage: this.editorStorage,
      },
    );
    await service.start();
    if (service.startSteps <= step) service.dispose(); // past the last step: an ordinary dispose after start-up
    // a step that ignored the dispose would start its work now: give it a moment to show up
    await new Promise((r) => setTimeout(r, 50));
    return { steps: service.startSteps, left: service.leftAfterDispose() };
  }

  private add(repo: Repository): void {
    if (this.services.has(repo.rootUri.fsPath)) return;
    const service = new RepositoryService(
      repo,
      this.makeLogger(`repo:${repo.rootUri.fsPath.split('/').pop()}`),
      this.git.gitPath,
      this.getConfig(repo.rootUri),
      { editorStorage: this.editorStorage },
    );
    this.services.set(service.root, service);
    this.log.info(`repository opened: ${service.root} (HEAD ${service.headCommit?.slice(0, 7) ?? 'none'})`);
    void service.start();
    this.openEmitter.fire(service);
  }

  private remove(repo: Repository): void {
    const service = this.services.get(repo.rootUri.fsPath);
    if (!service) return;
    this.services.delete(service.root);
    this.log.info(`repository closed: ${service.root}`);
    this.closeEmitter.fire(service);
    service.dispose();
  }

  dispose(): void {
    for (const s of this.services.values()) s.dispose();
    this.services.clear();
    for (const d of this.disposables.reverse()) d.dispose();
  }
}
