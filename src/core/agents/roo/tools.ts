import type { EditToolSpec } from '../registry/agentDefinition';

/** Roo Code's file-editing tools (docs/transcripts.md §8); its parser reads exactly these. */
export const rooEditTools: readonly EditToolSpec[] = [
  { name: 'write_to_file', shape: 'write', args: ['path', 'content'] },
  { name: 'apply_diff', shape: 'replace', args: ['path', 'diff', 'operations'] },
  { name: 'search_and_replace', shape: 'replace', args: ['path', 'operations', 'search', 'replace'] },
  { name: 'search_replace', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
  { name: 'edit', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
  { name: 'edit_file', shape: 'replace', args: ['file_path', 'old_string', 'new_string', 'expected_replacements'] },
  { name: 'insert_content', shape: 'insert', args: ['path', 'line', 'content'] },
  { name: 'apply_patch', shape: 'patch', args: ['patch'] },
];
