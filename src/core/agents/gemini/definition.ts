import type { AgentDefinition } from '../registry/agentDefinition';
import { GeminiParser } from './parser';
import { geminiEditTools } from './tools';
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
  editTools: geminiEditTools,
  editsArrive: 'disk',
};
