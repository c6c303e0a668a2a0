// The contract between the transcript tailer and each agent's parser (types only, no parser imports:
// the parsers import this module, the factory in transcriptParser.ts imports the parsers).
import type { AgentEvent, AgentId } from '../model/agentEvents';

/** What the tailer knows about a transcript file before reading it. */
export interface TranscriptContext {
  /** Absolute path of the transcript file. */
  filePath: string;
  /** Session id taken from the file name / directory (used when records carry none). */
  sessionIdHint?: string;
  /** Working directory of the session when known from discovery (Cursor workspace, Gemini project root). */
  cwdHint?: string;
  /**
   * The file is a subagent/sidechain transcript (Cursor/Claude `subagents/`, Gemini `chats/<parent>/`):
   * its "prompts" are the parent's task text, so prompts and responses are not emitted; edits,
   * tools and commits are, under the parent session id.
   */
  sidechain?: boolean;
}

/** Why a line produced no record. */
export type SkipReason = 'invalidJson' | 'schemaMismatch' | 'unknownType';

export interface ParserStats {
  /** Lines/records accepted (known record types, including those that produce no event). */
  records: number;
  /** Events emitted. */
  events: number;
  /** Lines skipped, by reason (counted, never thrown). */
  skipped: Record<SkipReason, number>;
}

/** Minimal parser state persisted next to a saved offset, so a resumed tailer keeps session metadata and dedupe state. */
export interface ParserState {
  v: 1;
  sessionId?: string;
  cwd?: string;
  model?: string;
  /** Prompts emitted so far (the next prompt starts turn `prompts + 1`). */
  prompts: number;
  /** The file turned out to be a subagent transcript (from its content). */
  sidechain?: boolean;
  /** Agent-specific dedupe state (small, JSON-serializable). */
  agentState?: unknown;
}

/** A streaming parser for one transcript file of one agent. */
export interface TranscriptParser {
  readonly agent: AgentId;
  readonly ctx: TranscriptContext;
  readonly stats: ParserStats;
  /**
   * `lines`: append-only JSONL (or Cursor `.txt`), fed line by line through push();
   * `wholeFile`: rewritten as a whole (Gemini legacy `.json`), re-parsed with parseWholeFile().
   */
  readonly mode: 'lines' | 'wholeFile';
  /** Takes ONE raw line (without its newline) and returns the normalized events it completes. */
  push(line: string): AgentEvent[];
  /**
   * Whole-file formats: parses the complete current text and returns only events for records that
   * are new or changed since the previous call (keyed by message id). Line formats: pushes every line.
   */
  parseWholeFile(text: string): AgentEvent[];
  /** End of the currently available input: emits text held back by stateful formats (Cursor `.txt`). */
  flush(): AgentEvent[];
  /** Forgets everything (the file is re-read from byte 0). Stats are kept. */
  reset(): void;
  /** State to persist with the byte offset of the last line pushed. */
  saveState(): ParserState;
  /**
   * True while the parser holds transcript text that {@link saveState} does not save (a tool call
   * waiting for its result, a message or block still growing): a resume from this point can miss
   * the events that need it (a gap), never produce a different claim.
   */
  inFlightText(): boolean;
  /**
   * Restores a persisted state (validated; invalid state is ignored) and returns a session event
   * announcing the resumed session (with `priorTurns`), or [] when nothing was restored.
   */
  restoreState(state: unknown): AgentEvent[];
}
