import * as vscode from 'vscode';
import type { AgentId } from '../core/model/agentEvents';

/** Typed snapshot of the `agentNote.*` settings; services receive a snapshot, never read globals. */
export interface AgentNoteConfig {
  agents: Record<AgentId, boolean>;
  extraTranscriptRoots: string[];
  hoversEnabled: boolean;
  codeLensEnabled: boolean;
  statusBarEnabled: boolean;
  fetchWithBranch: boolean;
  pushAfterPush: boolean;
  keepOnRewrite: boolean;
  journalRetentionDays: number;
  redactionExtraPatterns: string[];
}

export const configSection = 'agentNote';

export function readConfig(scope?: vscode.Uri): AgentNoteConfig {
  const c = vscode.workspace.getConfiguration(configSection, scope);
  return {
    agents: {
      claude: c.get<boolean>('agents.claudeCode.enabled', true),
      cursor: c.get<boolean>('agents.cursor.enabled', true),
      codex: c.get<boolean>('agents.codex.enabled', true),
      gemini: c.get<boolean>('agents.gemini.enabled', true),
    },
    extraTranscriptRoots: c.get<string[]>('transcripts.extraRoots', []),
    hoversEnabled: c.get<boolean>('hovers.enabled', true),
    codeLensEnabled: c.get<boolean>('codeLens.enabled', true),
    statusBarEnabled: c.get<boolean>('statusBar.enabled', true),
    fetchWithBranch: c.get<boolean>('notes.fetchWithBranch', true),
    pushAfterPush: c.get<boolean>('notes.pushAfterPush', true),
    keepOnRewrite: c.get<boolean>('notes.keepOnRewrite', true),
    journalRetentionDays: c.get<number>('journal.retentionDays', 14),
    redactionExtraPatterns: c.get<string[]>('redaction.extraPatterns', []),
  };
}
