import type { AgentDefinition } from '../registry/agentDefinition';
import { CodexParser } from './parser';
import { codexPathInfo } from './pathInfo';

/** Codex CLI and Codex Desktop: docs/transcripts.md §3. */
export const codexAgent: AgentDefinition<'codex'> = {
  id: 'codex',
  displayName: 'Codex',
  codicon: 'terminal',
  settingKey: 'agents.codex.enabled',
  store: { kind: 'agentHome', dirName: '.codex', envVar: 'CODEX_HOME', envNames: 'home', sessionsDir: 'sessions', layout: 'codexSessions' },
  pathInfo: codexPathInfo,
  createParser: (ctx) => new CodexParser(ctx),
  editTools: [
    { name: 'apply_patch', shape: 'patch', args: ['input', 'patch'] },
    // the legacy form: a shell call whose argv is ["apply_patch", "<patch>"]
    { name: 'shell', shape: 'patch', args: ['command[1]'] },
  ],
  editsArrive: 'disk',
};
