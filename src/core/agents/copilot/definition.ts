import type { AgentDefinition } from '../registry/agentDefinition';
import { CopilotParser } from './parser';
import { copilotPathInfo } from './pathInfo';
import { copilotEditTools } from './tools';

/** GitHub Copilot Chat, agent and edit modes (VS Code's chat sessions): docs/transcripts.md §11. */
export const copilotAgent: AgentDefinition<'copilot'> = {
  id: 'copilot',
  displayName: 'GitHub Copilot',
  codicon: 'copilot',
  settingKey: 'agents.copilot.enabled',
  store: { kind: 'workspaceStorage', dirName: 'chatSessions', layout: 'copilotChatSessions' },
  pathInfo: copilotPathInfo,
  createParser: (ctx) => new CopilotParser(ctx),
  editTools: copilotEditTools,
  // Copilot applies its edits to the editor's documents (workspace edits): only a captured editor
  // change that shows a tool call's text makes AI lines; an edit the person undoes or rejects is
  // not AI
  editsArrive: 'editor',
};
