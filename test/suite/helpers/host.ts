import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentNoteApi } from '../../../src/extension';

export const extensionId = 'agentnote.agent-note';

export async function waitFor<T>(fn: () => T | undefined | Promise<T | undefined>, ms = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The activated extension's API (activation itself is onStartupFinished, not forced by the test). */
export async function agentNote(): Promise<AgentNoteApi> {
  const ext = await waitFor(() => vscode.extensions.getExtension<AgentNoteApi>(extensionId), 20_000, 'extension');
  await waitFor(() => ext.isActive || undefined, 30_000, 'activation');
  assert.ok(ext.exports, 'activate() returns the API');
  await ext.exports.ready;
  return ext.exports;
}

export function workspaceRoot(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'a workspace folder is open');
  return f.uri.fsPath;
}

/** The workspace repository's root, once the extension registered it and finished starting. */
export async function readyRepository(): Promise<string> {
  const api = await agentNote();
  const root = workspaceRoot();
  await waitFor(() => api.repositories().find((r) => r.root === root), 30_000, 'repository');
  await api.idle();
  return root;
}

/** Waits until the extension saw HEAD of `root` at `sha` and finished recording it. */
export async function recorded(root: string, sha: string, ms = 20_000): Promise<void> {
  const api = await agentNote();
  await waitFor(() => api.repositories().find((r) => r.root === root && r.head === sha), ms, 'HEAD seen');
  await api.idle();
}
