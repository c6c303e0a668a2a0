import type { TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';

/** `.aider.chat.history.md` in the work tree: appended Markdown; sessions are sections of it (docs/transcripts.md §10.1). */
export function aiderPathInfo(_filePath: string): TranscriptPathInfo {
  return { sidechain: false, format: 'txt' };
}
