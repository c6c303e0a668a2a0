import type { EditToolSpec } from '../registry/agentDefinition';

/**
 * The file-editing tools of GitHub Copilot Chat's agent and edit modes, as the model calls them
 * (`result.metadata.toolCallRounds[].toolCalls[].name`, arguments a JSON string): the names are
 * `ToolName` of microsoft/vscode-copilot-chat `src/extension/tools/common/toolNames.ts`. The parser
 * reads exactly these (docs/transcripts.md §11).
 */
export const copilotEditTools: readonly EditToolSpec[] = [
  { name: 'replace_string_in_file', shape: 'replace', args: ['filePath', 'oldString', 'newString'] },
  {
    name: 'multi_replace_string_in_file',
    shape: 'replace',
    args: ['replacements[].filePath', 'replacements[].oldString', 'replacements[].newString'],
  },
  { name: 'create_file', shape: 'write', args: ['filePath', 'content'] },
  { name: 'apply_patch', shape: 'patch', args: ['input'] },
  // `code` is a sketch with `...existing code...` markers, never the final text: the parser claims
  // only the text the editor applied (the request's `textEditGroup` response parts)
  { name: 'insert_edit_into_file', shape: 'replace', args: ['filePath', 'code'] },
];
