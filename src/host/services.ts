import * as vscode from 'vscode';
import * as path from 'node:path';
import { HostLogger } from './log';
import { readConfig, configSection, migrateSettings, type AgentNoteConfig } from './config';
import { GitExtensionAdapter } from './git/gitExtension';
import { RepositoryRegistry } from './repositoryRegistry';
import { contextKeys } from './constants';
import type { EditorStorage } from '../core/agents/registry/editorUserDirs';
import { agentDefinitions } from '../core/agents/registry/registry';

/**
 * Composition root: builds the services (constructors do no I/O), owns their disposables and
 * disposes them in reverse creation order.
 */
export class Services implements vscode.Disposable {
  readonly log: HostLogger;
  readonly git: GitExtensionAdapter;
  readonly registry: RepositoryRegistry;
  /**
   * The running editor's storage folders and the editor agents' own storage settings; one object
   * shared down to discovery, updated in place when such a setting changes (read at the next scan).
   */
  readonly editorStorage: EditorStorage;
  config: AgentNoteConfig;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly configEmitter = new vscode.EventEmitter<AgentNoteConfig>();
  readonly onDidChangeConfig = this.configEmitter.event;
  /** Resolves when the last settings change has been applied to every repository (tests, API). */
  configApplied: Promise<void> = Promise.resolve();
  /** Resolves once the git extension is wired up (or known to be unavailable). */
  readonly ready: Promise<void>;

  constructor(readonly context: vscode.ExtensionContext) {
    this.editorStorage = editorStorageOf(context);
    this.log = this.own(new HostLogger());
    this.config = readConfig();
    this.git = this.own(new GitExtensionAdapter(this.log.child('git')));
    this.registry = this.own(
      new RepositoryRegistry(
        this.git,
        this.log.child('registry'),
        (c) => this.log.child(c),
        (scope) => readConfig(scope),
        this.editorStorage,
      ),
    );
    this.own(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (storageSettings().some((k) => e.affectsConfiguration(k))) this.editorStorage.customStoragePaths = customStoragePaths();
      }),
    );
    this.own(this.configEmitter);
    this.own(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(configSection)) return;
        this.config = readConfig();
        // each repository with its own scope: a folder's settings apply to the repositories in it
        const applied = this.registry.all
          .filter((r) => e.affectsConfiguration(configSection, r.repository.rootUri))
          .map((r) => r.updateConfig(readConfig(r.repository.rootUri)));
        this.configApplied = Promise.all(applied).then(() => undefined);
        this.configEmitter.fire(this.config);
      }),
    );
    const updateContext = () => void vscode.commands.executeCommand('setContext', contextKeys.hasRepository, this.registry.all.length > 0);
    this.own(this.registry.onDidOpen(updateContext));
    this.own(this.registry.onDidClose(updateContext));
    void migrateSettings(this.log, vscode.workspace.workspaceFolders?.map((f) => f.uri) ?? []).then(() => {
      this.config = readConfig();
    });
    this.ready = this.startWhenTrusted();
  }

  /**
   * Starts after activate() has returned (activation only registers). Heavy work starts only in a
   * trusted workspace: git runs repository-controlled programs (hooks, fsmonitor, filters), so in an
   * untrusted workspace Agent Note captures nothing.
   */
  private async startWhenTrusted(): Promise<void> {
    // after activate() returns: wiring up the git extension creates the repository services
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!vscode.workspace.isTrusted) {
      this.log.info('workspace is not trusted: Agent Note stays idle until it is');
      await new Promise<void>((resolve) => this.own(vscode.workspace.onDidGrantWorkspaceTrust(() => resolve())));
    }
    await this.git.start();
  }

  own<T extends vscode.Disposable>(d: T): T {
    this.disposables.push(d);
    return d;
  }

  dispose(): void {
    for (const d of this.disposables.reverse()) {
      try {
        d.dispose();
      } catch {
        /* disposing must not throw */
      }
    }
  }
}

/**
 * The running editor's storage folders from the extension context: `<User>` is the grandparent of
 * `globalStorage/<extension id>`, the window's `workspaceStorage/<id>` the parent of its storage
 * folder (none in an empty window). Only file URIs count (a remote or web host has none of ours).
 */
function editorStorageOf(context: vscode.ExtensionContext): EditorStorage {
  const dirOf = (uri: vscode.Uri | undefined) => (uri?.scheme === 'file' ? path.dirname(uri.fsPath) : undefined);
  const globalDir = dirOf(context.globalStorageUri);
  return {
    userDir: globalDir !== undefined ? path.dirname(globalDir) : undefined,
    workspaceStorageDir: dirOf(context.storageUri),
    customStoragePaths: customStoragePaths(),
  };
}

/** The editor agents' own settings that move their storage (`roo-cline.customStoragePath`). */
function storageSettings(): string[] {
  return agentDefinitions.flatMap((d) =>
    d.store.kind === 'editorExtension' && d.store.customStoragePathSetting ? [d.store.customStoragePathSetting] : [],
  );
}

/** Their current values (user or workspace scope; empty values left out). */
function customStoragePaths(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of storageSettings()) {
    const dot = key.lastIndexOf('.');
    const value = vscode.workspace.getConfiguration(key.slice(0, dot)).get<unknown>(key.slice(dot + 1));
    if (typeof value === 'string' && value.trim()) out[key] = value.trim();
  }
  return out;
}
