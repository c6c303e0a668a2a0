import type { AgentDefinition } from '../registry/agentDefinition';
import { ClineParser } from './parser';
import { clineTaskPathInfo } from './pathInfo';
import { clineEditTools } from './tools';

/** Cline (VS Code extension `saoudrizwan.claude-dev`): docs/transcripts.md §7. */
export const clineAgent: AgentDefinition<'cline'> = {
  id: 'cline',
  displayName: 'Cline',
  codicon: 'hubot',
  settingKey: 'agents.cline.enabled',
  store: {
    kind: 'editorExtension',
    extensionIds: ['saoudrizwan.claude-dev'],
    sessionsDir: 'tasks',
    sessionFile: 'api_conversation_history.json',
    layout: 'clineTasks',
  },
  pathInfo: clineTaskPathInfo,
  createParser: (ctx) => new ClineParser(ctx),
  editTools: clineEditTools,
  editsArrive: 'editor',
};
