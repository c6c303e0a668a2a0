import type { AgentDefinition } from '../registry/agentDefinition';
import { CursorParser } from './parser';
import { cursorPathInfo } from './pathInfo';

/** Cursor's agent (the editor's agent transcripts, also read from other editors): docs/transcripts.md §1. */
export const cursorAgent: AgentDefinition<'cursor'> = {
  id: 'cursor',
  displayName: 'Cursor',
  codicon: 'edit',
  settingKey: 'agents.cursor.enabled',
  store: { kind: 'agentHome', dirName: '.cursor', sessionsDir: 'projects', layout: 'cursorProjects' },
  pathInfo: cursorPathInfo,
  createParser: (ctx) => new CursorParser(ctx),
  editTools: [
    { name: 'StrReplace', shape: 'replace', args: ['path', 'old_string', 'new_string', 'replace_all'] },
    { name: 'search_replace', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
    { name: 'edit_file_v2_search_replace', shape: 'replace', args: ['relativeWorkspacePath', 'oldString', 'newString'] },
    { name: 'Edit', shape: 'replace', args: ['file_path', 'old_string', 'new_string'] },
    { name: 'MultiEdit', shape: 'replace', args: ['file_path', 'edits[].old_string', 'edits[].new_string'] },
    { name: 'Write', shape: 'write', args: ['path', 'contents'] },
    { name: 'write_file', shape: 'write', args: ['file_path', 'content'] },
    { name: 'ApplyPatch', shape: 'patch', args: ['patch'] },
    { name: 'apply_patch', shape: 'patch', args: ['patch'] },
    { name: 'edit_file_v2_apply_patch', shape: 'patch', args: ['patch'] },
    { name: 'Delete', shape: 'delete', args: ['path'] },
    { name: 'delete_file', shape: 'delete', args: ['target_file'] },
  ],
  // Cursor's agent writes through its own editor, but other editors (and this one's watcher) see
  // the files change on disk; the transcript's tool calls decide authorship
  editsArrive: 'disk',
};
