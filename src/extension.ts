import * as vscode from 'vscode';
import { Services } from './host/services';
import { registerCommands } from './host/commands/registerCommands';

/** What activate() returns: a small read-only API (used by the in-host tests and other extensions). */
export interface AgentNoteApi {
  readonly apiVersion: 1;
  /** Resolves once the git extension is wired up. */
  readonly ready: Promise<void>;
  /** Repositories Agent Note serves, with their HEAD as Agent Note last saw it. */
  repositories(): { root: string; head: string | undefined; branch: string | undefined }[];
}

export function activate(context: vscode.ExtensionContext): AgentNoteApi {
  const started = performance.now();
  const s = new Services(context);
  context.subscriptions.push(s);
  for (const d of registerCommands(s)) s.own(d);
  const api: AgentNoteApi = {
    apiVersion: 1,
    ready: s.ready,
    repositories: () => s.registry.all.map((r) => ({ root: r.root, head: r.headCommit, branch: r.branch })),
  };
  s.log.info(`activated in ${(performance.now() - started).toFixed(1)} ms (${vscode.env.appName} ${vscode.version})`);
  void s.ready.catch((e) => s.log.error(`start failed: ${String(e)}`));
  return api;
}

/** Everything is disposed through context.subscriptions. */
export function deactivate(): void {}
