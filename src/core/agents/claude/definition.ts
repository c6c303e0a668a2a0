import type { AgentDefinition } from '../registry/agentDefinition';
import { ClaudeParser } from './parser';
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
  editTools: [
    { name: 'Edit', shape: 'replace', args: ['file_path', 'old_string', 'new_string', 'replace_all'] },
    { name: 'MultiEdit', shape: 'replace', args: ['file_path', 'edits[].old_string', 'edits[].new_string'] },
    { name: 'Write', shape: 'write', args: ['file_path', 'content'] },
    { name: 'NotebookEdit', shape: 'notebook', args: ['notebook_path', 'new_source'] },
  ],
  editsArrive: 'disk',
};
