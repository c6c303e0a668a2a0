import { pathParts, type TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';

/**
 * Gemini CLI: `tmp/<project>/chats/session-….{json,jsonl}`; subagents `chats/<parent>/<id>.jsonl`
 * (the parent's session id). The session id itself is in the records (docs/transcripts.md §4.1).
 */
export function geminiPathInfo(filePath: string): TranscriptPathInfo {
  const { parent, grand, format } = pathParts(filePath);
  if (grand === 'chats' && parent && parent !== 'chats') return { sessionId: parent, sidechain: true, format };
  return { sidechain: false, format };
}
