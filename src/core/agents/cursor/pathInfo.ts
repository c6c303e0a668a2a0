import { pathParts, type TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';

/**
 * Cursor: `agent-transcripts/<id>/<id>.jsonl`, `agent-transcripts/<id>.{jsonl,txt}` and subagents
 * `<id>/subagents/<sub>.jsonl` (docs/transcripts.md §1.2).
 */
export function cursorPathInfo(filePath: string): TranscriptPathInfo {
  const { stem, parent, grand, format } = pathParts(filePath);
  if (parent === 'subagents' && grand) return { sessionId: grand, sidechain: true, format };
  return { sessionId: stem || undefined, sidechain: false, format };
}
