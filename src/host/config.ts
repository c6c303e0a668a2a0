import * as vscode from 'vscode';
import type { AgentId } from '../core/model/agentEvents';
import { agentDefinitions } from '../core/agents/registry/registry';
import type { SharingPushMode } from '../node/sharing/notesSharingCoordinator';

/** Typed snapshot of the `agentNote.*` settings; services receive a snapshot, never read globals. */
export interface AgentNoteConfig {
  agents: Record<AgentId, boolean>;
  extraTranscriptRoots: string[];
  hoversEnabled: boolean;
  codeLensEnabled: boolean;
  statusBarEnabled: boolean;
  fetchWithBranch: boolean;
  /** agentNote.sharing.push (the old agentNote.notes.pushAfterPush: false reads as `off`). */
  sharingPush: SharingPushMode;
  keepOnRewrite: boolean;
  journalRetentionDays: number;
  redactionExtraPatterns: string[];
}

export const configSection = 'agentNote';

export function readConfig(scope?: vscode.Uri): AgentNoteConfig {
  const c = vscode.workspace.getConfiguration(configSection, scope);
  return {
    agents: agentSwitches((key) => c.get<boolean>(key, true)),
    extraTranscriptRoots: c.get<string[]>('transcripts.extraRoots', []),
    hoversEnabled: c.get<boolean>('hovers.enabled', true),
    codeLensEnabled: c.get<boolean>('codeLens.enabled', true),
    statusBarEnabled: c.get<boolean>('statusBar.enabled', true),
    fetchWithBranch: c.get<boolean>('notes.fetchWithBranch', true),
    sharingPush: readSharingPush(scope),
    keepOnRewrite: c.get<boolean>('notes.keepOnRewrite', true),
    journalRetentionDays: c.get<number>('journal.retentionDays', 14),
    redactionExtraPatterns: c.get<string[]>('redaction.extraPatterns', []),
  };
}

/**
 * agentNote.sharing.push as it is now. Where only the replaced `agentNote.notes.pushAfterPush` is
 * set (in any scope), its value counts (`false` → `off`) until migrateSettings() has moved it.
 */
export function readSharingPush(scope?: vscode.Uri): SharingPushMode {
  const c = vscode.workspace.getConfiguration(configSection, scope);
  const now = c.inspect<string>('sharing.push');
  const old = c.inspect<boolean>('notes.pushAfterPush');
  // the most specific scope that sets either of them decides
  for (const key of ['workspaceFolderValue', 'workspaceValue', 'globalValue'] as const) {
    const v = now?.[key];
    if (v === 'off' || v === 'withBranches') return v;
    if (old?.[key] === false) return 'off';
    if (old?.[key] === true) return 'withBranches';
  }
  return 'withBranches';
}

/**
 * Moves settings that were replaced: `agentNote.notes.pushAfterPush` (true/false) becomes
 * `agentNote.sharing.push` (`withBranches`/`off`) in each scope where it was set (unless the new
 * setting is already set there), and is then removed from that scope. Failures (a read-only
 * settings file) are logged; readSharingPush() honours the old value meanwhile.
 */
export async function migrateSettings(
  log: { info(m: string): void; warn(m: string): void },
  folders: readonly vscode.Uri[] = [],
): Promise<void> {
  const scopes: { target: vscode.ConfigurationTarget; uri?: vscode.Uri }[] = [
    { target: vscode.ConfigurationTarget.Global },
    { target: vscode.ConfigurationTarget.Workspace },
    ...folders.map((uri) => ({ target: vscode.ConfigurationTarget.WorkspaceFolder, uri })),
  ];
  for (const { target, uri } of scopes) {
    const c = vscode.workspace.getConfiguration(configSection, uri);
    const pick = <T>(i: { globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined): T | undefined =>
      target === vscode.ConfigurationTarget.Global
        ? i?.globalValue
        : target === vscode.ConfigurationTarget.Workspace
          ? i?.workspaceValue
          : i?.workspaceFolderValue;
    const old = pick(c.inspect<boolean>('notes.pushAfterPush'));
    if (old === undefined) continue;
    try {
      if (pick(c.inspect<string>('sharing.push')) === undefined)
        await c.update('sharing.push', old === false ? 'off' : 'withBranches', target);
      await c.update('notes.pushAfterPush', undefined, target);
      log.info(`setting agentNote.notes.pushAfterPush (${String(old)}) moved to agentNote.sharing.push`);
    } catch (e) {
      log.warn(`could not move agentNote.notes.pushAfterPush: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** Each agent's on/off switch (its definition's `settingKey`, on by default). */
function agentSwitches(read: (key: string) => boolean): Record<AgentId, boolean> {
  return Object.fromEntries(agentDefinitions.map((d) => [d.id, read(d.settingKey)])) as Record<AgentId, boolean>;
}
