import { clineTaskPathInfo } from '../cline/pathInfo';
import type { AgentDefinition } from '../registry/agentDefinition';
import { RooParser } from './parser';
import { rooEditTools } from './tools';

/** Roo Code (VS Code extension `rooveterinaryinc.roo-cline`): docs/transcripts.md §8. */
export const rooAgent: AgentDefinition<'roo'> = {
  id: 'roo',
  displayName: 'Roo Code',
  codicon: 'rocket',
  settingKey: 'agents.roo.enabled',
  store: {
    kind: 'editorExtension',
    extensionIds: ['rooveterinaryinc.roo-cline'],
    sessionsDir: 'tasks',
    sessionFile: 'api_conversation_history.json',
    customStoragePathSetting: 'roo-cline.customStoragePath',
    layout: 'clineTasks',
  },
  pathInfo: clineTaskPathInfo,
  createParser: (ctx) => new RooParser(ctx),
  editTools: rooEditTools,
  editsArrive: 'editor',
};
