import { pathParts, type TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';

/**
 * GitHub Copilot Chat: `workspaceStorage/<id>/chatSessions/<sessionId>.json` (one whole JSON
 * document, VS Code < 1.109) or `<sessionId>.jsonl` (a mutation log, VS Code ≥ 1.109); the file
 * name is the session id (docs/transcripts.md §11.1). No subagent files: a subagent's calls are in
 * the same request.
 */
export function copilotPathInfo(filePath: string): TranscriptPathInfo {
  const { stem, format } = pathParts(filePath);
  return { sessionId: stem || undefined, sidechain: false, format };
}
