import type { EditToolSpec } from '../registry/agentDefinition';

/** Kilo Code's file-editing tools in its legacy task folders (docs/transcripts.md §9), a Roo Code fork's set. */
export const kiloEditTools: readonly EditToolSpec[] = [
  { name: 'write_to_file', shape: 'write', args: ['path', 'content'] },
  { name: 'apply_diff', shape: 'replace', args: ['path', 'diff', 'operations'] },
  { name: 'search_and_replace', shape: 'replace', args: ['path', 'operations', 'search', 'replace'] },
  { name: 'search_replace', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
  { name: 'edit_file', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
  { name: 'insert_content', shape: 'insert', args: ['path', 'line', 'content'] },
  { name: 'apply_patch', shape: 'patch', args: ['patch'] },
];
