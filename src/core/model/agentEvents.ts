/**
 * Normalized events produced by the per-agent transcript adapters (src/core/agents/*).
 * Everything downstream (session model, edit capture, note recorder, status bar, timeline)
 * consumes these and never a raw transcript record.
 */

import type { AgentId } from '../agents/registry/agentIds';

/** Agent names exactly as written in notes: the registry's ids (src/core/agents/registry/agentIds.ts). */
export { agentIds, isAgentId, type AgentId } from '../agents/registry/agentIds';

interface EventBase {
  agent: AgentId;
  sessionId: string;
  /** ISO-8601 time from the record when it has one. */
  timestamp?: string;
}

/** Session metadata: seen once or more per transcript (cwd/model may change per turn). */
export interface SessionEvent extends EventBase {
  kind: 'session';
  cwd?: string;
  model?: string;
  /**
   * Set when a tailer resumed mid-file from a saved offset: the number of prompts (turns) that
   * came before the resume point, so the consumer numbers the next turn after them.
   */
  priorTurns?: number;
}

/** A prompt the user typed (sanitized; injected/system text removed). Starts a new turn. */
export interface PromptEvent extends EventBase {
  kind: 'prompt';
  text: string;
  /** Stable id of the record when the format has one (dedupe of re-appended records). */
  recordId?: string;
  model?: string;
  /**
   * Not typed: a plan the user accepted (Claude's "Implement the following plan:" record), sent as
   * the turn's prompt. It starts a turn like a prompt and is shown as a plan.
   */
  plan?: true;
}

/** Assistant text. Consecutive response events of one turn are concatenated by the consumer. */
export interface ResponseEvent extends EventBase {
  kind: 'response';
  text: string;
  /** Events with the same mergeKey replace each other's text instead of appending (upserts). */
  mergeKey?: string;
  model?: string;
}

/** One file edit made by the agent's tool. */
export interface EditEvent extends EventBase {
  kind: 'edit';
  /** Absolute path (normalized, forward slashes on POSIX) — relative paths resolved against cwd. */
  file: string;
  tool: string;
  toolUseId?: string;
  /** String replacement (Claude Edit, Cursor StrReplace, Gemini replace). */
  oldString?: string;
  newString?: string;
  replaceAll?: boolean;
  /** Full new contents (Write, write_file). */
  contents?: string;
  /** Unified diff or Codex patch text for this file. */
  patch?: string;
  /** File content before / after the edit when the record carries it. */
  originalContent?: string;
  resultContent?: string;
  /** The file was deleted by the tool. */
  deleted?: boolean;
  /** Rename: the old absolute path. */
  movedFrom?: string;
  /** The tool failed or was rejected: nothing changed on disk. */
  failed?: boolean;
  /** Lines added/deleted by this edit, when computable from the record. */
  added?: number;
  removed?: number;
  model?: string;
}

/** The agent ran a `git commit` (shell tool). */
export interface CommitCommandEvent extends EventBase {
  kind: 'commit';
  command: string;
}

/** Non-edit tool use (for `tools[]` and the timeline). */
export interface ToolEvent extends EventBase {
  kind: 'tool';
  tool: string;
  toolUseId?: string;
  /** true when the tool may have changed files (shell mutation, etc.). */
  mutating?: boolean;
}

/** The transcript removed records from `recordId` on (Gemini $rewindTo, Codex rollback). */
export interface RewindEvent extends EventBase {
  kind: 'rewind';
  toRecordId?: string;
  turns?: number;
}

export type AgentEvent = SessionEvent | PromptEvent | ResponseEvent | EditEvent | CommitCommandEvent | ToolEvent | RewindEvent;
