import type { EditToolSpec } from '../registry/agentDefinition';

/** Cline's file-editing tools (docs/transcripts.md §7.2); its parser reads exactly these. */
export const clineEditTools: readonly EditToolSpec[] = [
  { name: 'write_to_file', shape: 'write', args: ['absolutePath', 'path', 'content'] },
  { name: 'replace_in_file', shape: 'replace', args: ['absolutePath', 'path', 'diff'] },
  { name: 'new_rule', shape: 'write', args: ['path', 'content'] },
  { name: 'apply_patch', shape: 'patch', args: ['input', 'patch'] },
  { name: 'editor', shape: 'replace', args: ['path', 'old_text', 'new_text', 'insert_line'] },
];
