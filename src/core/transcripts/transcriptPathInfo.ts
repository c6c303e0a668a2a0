import type { AgentId } from '../model/agentEvents';

/** What a transcript's path says about it (docs/transcripts.md §1.2, §2.1, §3.1, §4.1). */
export interface TranscriptPathInfo {
  /** Session id from the file/directory name (the parent session for subagent files). */
  sessionId?: string;
  /** A subagent/sidechain transcript. */
  sidechain: boolean;
  /** `txt`: Cursor legacy flat text; `json`: Gemini legacy whole-file record; else JSONL. */
  format: 'jsonl' | 'txt' | 'json';
}

const uuidTail = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Derives the session id and subagent flag from a transcript path:
 * Cursor `agent-transcripts/<id>/<id>.jsonl`, `agent-transcripts/<id>.{jsonl,txt}`,
 * `<id>/subagents/<sub>.jsonl`; Claude `<enc>/<uuid>.jsonl`, `<enc>/<uuid>/subagents/agent-<a>.jsonl`,
 * `<enc>/agent-<a>.jsonl`; Codex `rollout-…-<uuid>.jsonl`; Gemini `chats/<parent>/<id>.jsonl`.
 */
export function transcriptPathInfo(agent: AgentId, filePath: string): TranscriptPathInfo {
  const parts = filePath.split(/[\\/]+/).filter((p) => p.length > 0);
  const name = parts[parts.length - 1] ?? '';
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const parent = parts[parts.length - 2];
  const grand = parts[parts.length - 3];
  const format: TranscriptPathInfo['format'] = ext === 'txt' ? 'txt' : ext === 'json' ? 'json' : 'jsonl';
  switch (agent) {
    case 'cursor':
      if (parent === 'subagents' && grand) return { sessionId: grand, sidechain: true, format };
      return { sessionId: stem || undefined, sidechain: false, format };
    case 'claude':
      if (parent === 'subagents' && grand) return { sessionId: grand, sidechain: true, format };
      if (stem.startsWith('agent-')) return { sidechain: true, format };
      return { sessionId: stem || undefined, sidechain: false, format };
    case 'codex': {
      const m = uuidTail.exec(stem);
      return { sessionId: m ? m[1] : stem || undefined, sidechain: false, format };
    }
    case 'gemini':
      if (grand === 'chats' && parent && parent !== 'chats') return { sessionId: parent, sidechain: true, format };
      return { sidechain: false, format };
  }
}
