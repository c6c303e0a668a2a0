import type { EditToolSpec } from '../registry/agentDefinition';

/**
 * Aider's edits, by the edit format of its `Model:` line (docs/transcripts.md §10.2): SEARCH/REPLACE
 * blocks (`diff`, `diff-fenced`, as `search_replace`) and whole files (`whole`). Aider has no tool
 * calls; these names are ours.
 */
export const aiderEditTools: readonly EditToolSpec[] = [
  { name: 'search_replace', shape: 'replace', args: ['file', 'search', 'replace'] },
  { name: 'whole', shape: 'write', args: ['file', 'content'] },
];
