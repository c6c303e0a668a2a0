import type { AgentDefinition } from '../registry/agentDefinition';
import { ClaudeParser } from './parser';
import { claudeEditTools } from './tools';
import { claudePathInfo } from './pathInfo';

/** Claude Code (CLI and its editor extensions): docs/transcripts.md §2. */
export const claudeAgent: AgentDefinition<'claude'> = {
  id: 'claude',
  displayName: 'Claude Code',
  codicon: 'sparkle',
  settingKey: 'agents.claudeCode.enabled',
  store: {
    kind: 'agentHome',
    dirName: '.claude',
    envVar: 'CLAUDE_CONFIG_DIR',
    envNames: 'home',
    sessionsDir: 'projects',
    layout: 'claudeProjects',
  },
  pathInfo: claudePathInfo,
  createParser: (ctx) => new ClaudeParser(ctx),
  editTools: claudeEditTools,
  editsArrive: 'disk',
};
