import * as vscode from 'vscode';
import type { API, GitExtension, Repository } from '../../@types/git';
import type { Logger } from '../../core/ports';

/**
 * The single adapter over the built-in git extension (vscode.git, API v1): waits for it to
 * activate and initialize, follows enablement changes, and re-emits repositories opening and
 * closing. When git is disabled or missing, nothing is emitted and the extension stays idle.
 */
export class GitExtensionAdapter implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private apiDisposables: vscode.Disposable[] = [];
  private readonly openEmitter = new vscode.EventEmitter<Repository>();
  private readonly closeEmitter = new vscode.EventEmitter<Repository>();
  /** Keyed by root path: the git API hands out a new wrapper object on every access. */
  private readonly known = new Map<string, Repository>();
  private api: API | undefined;
  private disposed = false;

  /** A repository became available (emitted once per repository, also for ones open before start). */
  readonly onDidOpenRepository = this.openEmitter.event;
  readonly onDidCloseRepository = this.closeEmitter.event;

  constructor(private readonly log: Logger) {
    this.disposables.push(this.openEmitter, this.closeEmitter);
  }

  /** The git binary the built-in extension uses (so we run the same git), once known. */
  get gitPath(): string | undefined {
    return this.api?.git.path;
  }

  get repositories(): readonly Repository[] {
    return [...this.known.values()];
  }

  /** Starts listening. Resolves when the git extension is wired up (or found unavailable). */
  async start(): Promise<void> {
    const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
    if (!ext) {
      this.log.warn('the built-in git extension (vscode.git) is not available; Agent Note stays idle');
      return;
    }
    let exports: GitExtension;
    try {
      exports = ext.isActive ? ext.exports : await ext.activate();
    } catch (e) {
      this.log.warn(`the built-in git extension failed to activate: ${String(e)}`);
      return;
    }
    if (this.disposed) return;
    this.disposables.push(exports.onDidChangeEnablement((enabled) => this.onEnablement(exports, enabled)));
    this.onEnablement(exports, exports.enabled);
  }

  private onEnablement(exports: GitExtension, enabled: boolean): void {
    for (const d of this.apiDisposables) d.dispose();
    this.apiDisposables = [];
    if (!enabled) {
      this.log.info('git is disabled (git.enabled = false); Agent Note stays idle');
      for (const repo of [...this.known.values()]) this.close(repo);
      this.api = undefined;
      return;
    }
    let api: API;
    try {
      api = exports.getAPI(1);
    } catch (e) {
      this.log.warn(`git API unavailable: ${String(e)}`);
      return;
    }
    this.api = api;
    this.apiDisposables.push(
      api.onDidOpenRepository((r) => this.open(r)),
      api.onDidCloseRepository((r) => this.close(r)),
    );
    const sync = () => {
      for (const r of api.repositories) this.open(r);
    };
    if (api.state === 'initialized') sync();
    this.apiDisposables.push(
      api.onDidChangeState((s) => {
        if (s === 'initialized') sync();
      }),
    );
  }

  private open(repo: Repository): void {
    const key = repo.rootUri.fsPath;
    if (this.known.has(key) || this.disposed) return;
    this.known.set(key, repo);
    this.openEmitter.fire(repo);
  }

  private close(repo: Repository): void {
    const key = repo.rootUri.fsPath;
    const known = this.known.get(key);
    if (!known) return;
    this.known.delete(key);
    this.closeEmitter.fire(known);
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.apiDisposables) d.dispose();
    for (const d of this.disposables) d.dispose();
    this.known.clear();
  }
}
