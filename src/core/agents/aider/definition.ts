import type { AgentDefinition } from '../registry/agentDefinition';
import { AiderParser } from './parser';
import { aiderPathInfo } from './pathInfo';
import { aiderEditTools } from './tools';

/** Aider (a terminal agent; its chat history is a file in the repository): docs/transcripts.md §10. */
export const aiderAgent: AgentDefinition<'aider'> = {
  id: 'aider',
  displayName: 'Aider',
  codicon: 'terminal',
  settingKey: 'agents.aider.enabled',
  store: { kind: 'repositoryFile', fileName: '.aider.chat.history.md', layout: 'repositoryFile' },
  pathInfo: aiderPathInfo,
  createParser: (ctx) => new AiderParser(ctx),
  editTools: aiderEditTools,
  editsArrive: 'disk',
};
