import type { EditToolSpec } from '../registry/agentDefinition';

/** The file-editing tools Claude Code writes into its transcripts (its parser reads exactly these). */
export const claudeEditTools: readonly EditToolSpec[] = [
  { name: 'Edit', shape: 'replace', args: ['file_path', 'old_string', 'new_string', 'replace_all'] },
  { name: 'MultiEdit', shape: 'replace', args: ['file_path', 'edits[].old_string', 'edits[].new_string'] },
  { name: 'Write', shape: 'write', args: ['file_path', 'content'] },
  { name: 'NotebookEdit', shape: 'notebook', args: ['notebook_path', 'new_source'] },
];
