import type { EditToolSpec } from '../registry/agentDefinition';

/** The file-editing tools Gemini CLI writes into its transcripts (its parser reads exactly these). */
export const geminiEditTools: readonly EditToolSpec[] = [
  { name: 'replace', shape: 'replace', args: ['file_path', 'old_string', 'new_string', 'allow_multiple'] },
  { name: 'edit', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
  { name: 'smart_edit', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
  { name: 'write_file', shape: 'write', args: ['file_path', 'content'] },
];
