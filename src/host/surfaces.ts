import * as vscode from 'vscode';
import type { Services } from './services';
import { NoteHoverProvider } from './hover/noteHoverProvider';
import { BlamePrefetcher } from './hover/blamePrefetcher';
import { NoteCodeLensProvider } from './codeLens/noteCodeLensProvider';
import { SessionStatusBar } from './statusBar/sessionStatusBar';
import type { RepositoryService } from './repositoryService';

/**
 * Owns the editor surfaces and their switches: when a setting turns a surface off, its provider
 * and listeners are disposed; turning it on registers them again.
 */
export class Surfaces implements vscode.Disposable {
  private hover: vscode.Disposable | undefined;
  private prefetcher: BlamePrefetcher | undefined;
  private codeLens: { provider: NoteCodeLensProvider; registration: vscode.Disposable } | undefined;
  statusBar: SessionStatusBar | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly repoListeners = new Map<RepositoryService, vscode.Disposable>();

  constructor(private readonly services: Services) {
    this.apply();
    this.disposables.push(
      services.onDidChangeConfig(() => this.apply()),
      services.registry.onDidOpen((r) => this.watch(r)),
      services.registry.onDidClose((r) => {
        this.repoListeners.get(r)?.dispose();
        this.repoListeners.delete(r);
        this.statusBar?.update();
      }),
    );
    for (const r of services.registry.all) this.watch(r);
  }

  get codeLensProvider(): NoteCodeLensProvider | undefined {
    return this.codeLens?.provider;
  }

  private watch(repo: RepositoryService): void {
    this.apply(); // the status bar is created with the first repository
    this.repoListeners.set(
      repo,
      vscode.Disposable.from(
        repo.onDidChangeNotes(() => this.codeLens?.provider.refresh()),
        repo.onDidMoveHead(() => {
          this.codeLens?.provider.refresh();
          this.prefetcher?.refresh();
        }),
        repo.onDidChangeSessions(() => this.statusBar?.scheduleUpdate()),
      ),
    );
    this.statusBar?.update();
  }

  private apply(): void {
    const c = this.services.config;
    const log = this.services.log.child('surfaces');
    if (c.hoversEnabled && !this.hover) {
      this.hover = vscode.languages.registerHoverProvider({ scheme: 'file' }, new NoteHoverProvider(this.services.registry, log));
      this.prefetcher = new BlamePrefetcher(this.services.registry);
    }
    if (!c.hoversEnabled && this.hover) {
      this.hover.dispose();
      this.hover = undefined;
      this.prefetcher?.dispose();
      this.prefetcher = undefined;
    }
    if (c.codeLensEnabled && !this.codeLens) {
      const provider = new NoteCodeLensProvider(this.services.registry, log);
      this.codeLens = {
        provider,
        registration: vscode.Disposable.from(vscode.languages.registerCodeLensProvider({ scheme: 'file' }, provider), provider),
      };
    }
    if (!c.codeLensEnabled && this.codeLens) {
      this.codeLens.registration.dispose();
      this.codeLens = undefined;
    }
    // hidden outside repositories: created when the first one opens (nothing to do during activation)
    if (c.statusBarEnabled && !this.statusBar && this.services.registry.all.length > 0)
      this.statusBar = new SessionStatusBar(this.services.registry);
    if (!c.statusBarEnabled && this.statusBar) {
      this.statusBar.dispose();
      this.statusBar = undefined;
    }
  }

  dispose(): void {
    this.hover?.dispose();
    this.prefetcher?.dispose();
    this.codeLens?.registration.dispose();
    this.statusBar?.dispose();
    for (const d of this.repoListeners.values()) d.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
