/**
 * Line shapes of the session journal under `<git-dir>/agentnote/sessions/<id>/`, compatible with
 * the Agent Note CLI (docs/note-format.md §2.1). Key order matters: JSON.stringify
 * writes keys in insertion order, so build these objects in the order declared here.
 */

export interface PromptLine {
  event: 'prompt';
  timestamp: string;
  prompt: string;
  prompt_id: string;
  turn: number;
}

export interface ChangeLine {
  event: 'file_change';
  timestamp: string;
  tool: string;
  /** repo-relative path, forward slashes */
  file: string;
  session_id: string;
  turn: number;
  prompt_id: string | null;
  /** blob id of the file after the edit */
  blob: string;
  change_id: string | null;
  edit_added: number | null;
  edit_deleted: number | null;
  tool_use_id: string | null;
}

export interface PreBlobLine {
  event: 'pre_blob';
  turn: number;
  prompt_id: string | null;
  file: string;
  /** blob id of the file before the edit */
  blob: string;
  tool_use_id: string | null;
}

export type EventLine =
  | { event: 'session_start'; session_id: string; timestamp: string; agent: string; model: string | null }
  | { event: 'prompt'; session_id: string; timestamp: string; prompt_id: string; turn: number; model: string | null }
  | { event: 'response'; session_id: string; timestamp: string; turn: number; response: string | null }
  | { event: 'stop'; session_id: string; timestamp: string; turn: number; response: string | null };

export interface CommittedPairLine {
  turn: number;
  prompt_id?: string | null;
  file: string | null;
  prompt_scope?: 'window' | 'tail';
  change_id: string | null;
  tool_use_id: string | null;
}

/** The well-known empty blob id. */
export const emptyBlobId = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
