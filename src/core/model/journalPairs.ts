import type { CommittedPairLine, EventLine, PromptLine } from './journal';

/**
 * The paired view of a session journal that notes are composed from (pure data; read from the
 * CLI-shaped files by src/node/recorder/sessionSnapshot.ts).
 */

/** One unconsumed agent edit of a file. */
export interface JournalPair {
  /** `tool_use_id`, else `change:<change_id>`, else `fifo:<turn>:<file>:<n>`. */
  pairId: string;
  sessionId: string;
  agent: string;
  turn: number;
  promptId: string | null;
  /** Repo-relative path. */
  file: string;
  /** Blob before the edit; undefined ⇒ evidence only. */
  preBlob?: string;
  /** Blob after the edit; undefined ⇒ a pre-blob without its change (AI-touched file, no content). */
  postBlob?: string;
  tool: string;
  /** Epoch ms (our capture time, else the change line's timestamp, else 0). */
  time: number;
  editAdded?: number;
  editDeleted?: number;
  /** `${agent}:${sessionId}:${turn}` */
  interactionKey: string;
  /** `committed_pairs.jsonl` lines that consume this pair's entries. */
  consumeLines: CommittedPairLine[];
}

/** What a note is composed from for one session directory of the journal. */
export interface JournalSessionData {
  id: string;
  /** `agent` file; `claude` for legacy sessions without one (like the CLI). */
  agent: string;
  /** Current turn (`turn` file). */
  turn: number;
  /** One prompt line per turn (the first), ascending. */
  prompts: PromptLine[];
  events: EventLine[];
  /** `committed_pairs.jsonl` lines (minus the excluded ones). */
  committed: CommittedPairLine[];
  /** Unconsumed pairs in journal order. */
  pairs: JournalPair[];
  /** Edit tools per turn (change lines, then our activity records), first-seen order. */
  toolsByTurn: Map<number, string[]>;
}

/** The CLI's consumption key of a journal entry or `committed_pairs.jsonl` line. */
export function consumptionKey(l: { turn: number; file: string | null; change_id?: string | null; tool_use_id: string | null }): string {
  if (l.change_id) return `change:${l.change_id}`;
  if (l.tool_use_id) return `id:${l.tool_use_id}`;
  return `${l.turn}:${l.file}`;
}

/** Last stored response of each turn: `response` events win over `stop` events (like the CLI). */
export function responsesByTurn(events: readonly EventLine[]): Map<number, string> {
  const response = new Map<number, string>();
  const stop = new Map<number, string>();
  for (const e of events) {
    if (e.event === 'response' && typeof e.response === 'string') response.set(e.turn, e.response);
    else if (e.event === 'stop' && typeof e.response === 'string' && e.response.trim()) stop.set(e.turn, e.response);
  }
  for (const [t, r] of stop) if (!response.has(t)) response.set(t, r);
  return response;
}

/** A committed_pairs line without undefined keys, in the CLI's shape (for comparisons and storage). */
export function canonicalLine(l: CommittedPairLine): CommittedPairLine {
  const out: CommittedPairLine = { turn: l.turn, file: l.file ?? null, change_id: l.change_id ?? null, tool_use_id: l.tool_use_id ?? null };
  if (l.prompt_id !== undefined) out.prompt_id = l.prompt_id;
  if (l.prompt_scope !== undefined) out.prompt_scope = l.prompt_scope;
  return out;
}
