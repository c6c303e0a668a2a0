import { pathParts, type TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';

const uuidTail = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Codex: `sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl` (docs/transcripts.md §3.1). */
export function codexPathInfo(filePath: string): TranscriptPathInfo {
  const { stem, format } = pathParts(filePath);
  const m = uuidTail.exec(stem);
  return { sessionId: m ? m[1] : stem || undefined, sidechain: false, format };
}
