import type { AgentId } from '../../core/model/agentEvents';
import type { JournalSession } from '../journal/sessionJournal';
import type { PromptExtRecord } from './sessionSnapshot';

/** A journal session the recorder writes to (made on first sight of its transcript, or reloaded from the journal). */
export interface LiveSession {
  agent: AgentId;
  id: string;
  js: JournalSession;
  /** prompt_id of each journaled turn. */
  promptIds: Map<number, string>;
  /** Digest of the last response written to events.jsonl per turn (redacted, as journaled), last few turns only. */
  lastResponse: Map<number, string>;
  /** Digest of the unredacted text that produced lastResponse (skips redacting an unchanged response again). */
  lastResponseSource?: Map<number, string>;
  transcriptPath?: string;
  started: boolean;
  /** Newest record time seen (the journal heartbeat; recordPrompt writes "now", we restore this). */
  heartbeat: number;
  /** `ext/prompts.jsonl` by event key. */
  promptExt?: ExtIndex<Map<string, PromptExtRecord>>;
  /** events.jsonl already names the session's model. */
  modelJournaled?: boolean;
  /** Claim keys in `ext/pairs.jsonl`. */
  pairClaims?: ExtIndex<Set<string>>;
}

/** What we read from one of our `ext/` files, valid while the file has `size` bytes (a second window may append). */
export interface ExtIndex<T> {
  size: number;
  value: T;
}

/**
 * `cached` if the ext file still has its size, else `build()` re-read: one stat per use instead of
 * reading a file that grows with every turn.
 */
export async function freshExtIndex<T>(
  js: JournalSession,
  name: string,
  cached: ExtIndex<T> | undefined,
  build: () => Promise<T>,
): Promise<ExtIndex<T>> {
  const size = await js.extSize(name);
  return cached?.size === size ? cached : { size, value: await build() };
}

/** Live sessions by `${agent}:${sessionId}`; null marks a session id the journal cannot hold. */
export type LiveSessions = Map<string, LiveSession | null>;
