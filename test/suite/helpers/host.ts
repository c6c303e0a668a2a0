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
