import type { AgentDefinition } from '../registry/agentDefinition';
import { GeminiParser } from './parser';
import { geminiPathInfo } from './pathInfo';

/** Gemini CLI: docs/transcripts.md §4. */
export const geminiAgent: AgentDefinition<'gemini'> = {
  id: 'gemini',
  displayName: 'Gemini',
  codicon: 'star-full',
  settingKey: 'agents.gemini.enabled',
  store: { kind: 'agentHome', dirName: '.gemini', envVar: 'GEMINI_CLI_HOME', envNames: 'parent', sessionsDir: 'tmp', layout: 'geminiTmp' },
  pathInfo: geminiPathInfo,
  createParser: (ctx) => new GeminiParser(ctx),
  editTools: [
    { name: 'replace', shape: 'replace', args: ['file_path', 'old_string', 'new_string', 'allow_multiple'] },
    { name: 'edit', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
    { name: 'smart_edit', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
    { name: 'write_file', shape: 'write', args: ['file_path', 'content'] },
  ],
  editsArrive: 'disk',
};
