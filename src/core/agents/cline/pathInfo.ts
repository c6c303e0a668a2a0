import { pathParts, type TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';

/**
 * The Cline family's task folders: `tasks/<taskId>/api_conversation_history.json`, a whole JSON
 * document; the folder's name is the task (session) id (docs/transcripts.md §7.1).
 */
export function clineTaskPathInfo(filePath: string): TranscriptPathInfo {
  const { parent } = pathParts(filePath);
  return parent ? { sessionId: parent, sidechain: false, format: 'json' } : { sidechain: false, format: 'json' };
}
