import { clineTaskPathInfo } from '../cline/pathInfo';
import type { AgentDefinition } from '../registry/agentDefinition';
import { KiloParser } from './parser';
import { kiloEditTools } from './tools';

/** Kilo Code (VS Code extension `kilocode.kilo-code`), its legacy task folders: docs/transcripts.md §9. */
export const kiloAgent: AgentDefinition<'kilo'> = {
  id: 'kilo',
  displayName: 'Kilo Code',
  codicon: 'zap',
  settingKey: 'agents.kilo.enabled',
  store: {
    kind: 'editorExtension',
    extensionIds: ['kilocode.kilo-code'],
    sessionsDir: 'tasks',
    sessionFile: 'api_conversation_history.json',
    customStoragePathSetting: 'kilo-code.customStoragePath',
    layout: 'clineTasks',
  },
  pathInfo: clineTaskPathInfo,
  createParser: (ctx) => new KiloParser(ctx),
  editTools: kiloEditTools,
  editsArrive: 'editor',
};
