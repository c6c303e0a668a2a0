import { pathParts, type TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';

/**
 * Claude Code: `projects/<enc>/<uuid>.jsonl`; subagents `<enc>/<uuid>/subagents/agent-<a>.jsonl`
 * (the parent's session id) and older `<enc>/agent-<a>.jsonl` (docs/transcripts.md §2.1).
 */
export function claudePathInfo(filePath: string): TranscriptPathInfo {
  const { stem, parent, grand, format } = pathParts(filePath);
  if (parent === 'subagents' && grand) return { sessionId: grand, sidechain: true, format };
  if (stem.startsWith('agent-')) return { sidechain: true, format };
  return { sessionId: stem || undefined, sidechain: false, format };
}
