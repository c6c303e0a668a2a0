/**
 * Resource-shaped Timeline data (sessions, prompts, edits, commits) as the host sends it to the
 * Timeline webview. Pure types, shared by the timeline model (./timelineModel.ts) and the webview
 * protocol (src/webviews/timeline/protocol.ts).
 */

/** One agent session (a transcript) of the repository. */
export interface TimelineSession {
  /** Unique key of the session in this state (e.g. `claude:<sessionId>`). */
  key: string;
  /** Agent name as written in notes (`claude`, `codex`, …); see {@link TimelineState.agents}. */
  agent: string;
  sessionId: string;
  model: string | null;
  /** ISO-8601. */
  startedAt: string;
  /** ISO-8601. */
  lastActivityAt: string;
  /** The agent is still working in this session (recent activity). */
  active: boolean;
}

interface TimelineEntryBase {
  /** Unique id of the entry in this state; the selection and expansion refer to it. */
  id: string;
  /** ISO-8601 time of the entry on the time axis. */
  time: string;
}

/** A prompt the user sent to an agent. Text is untrusted and always escaped by the app. */
export interface TimelinePromptEntry extends TimelineEntryBase {
  kind: 'prompt';
  sessionKey: string;
  turn: number;
  /** First non-empty line of the prompt (shown collapsed). */
  firstLine: string;
  /** Full prompt text (shown expanded, line breaks preserved). */
  text: string;
  /** Excerpt of the agent's response, if known. */
  response: string | null;
}

/** One file edit, by an agent (`ai`) or by the user (`human`). */
export interface TimelineEditEntry extends TimelineEntryBase {
  kind: 'edit';
  /** Session the edit belongs to; null for a human edit outside any session. */
  sessionKey: string | null;
  turn: number | null;
  /** Repository-relative path, forward slashes. */
  file: string;
  added: number;
  removed: number;
  origin: 'ai' | 'human';
  /** Before/after blobs were captured, so the host can open a diff. */
  hasBlobs: boolean;
}

/** A commit of the current branch, with its Agent Note summary when it has one. */
export interface TimelineCommitEntry extends TimelineEntryBase {
  kind: 'commit';
  sha: string;
  short: string;
  subject: string;
  /** 0–100, or null without a note. */
  aiRatio: number | null;
  method: 'line' | 'file' | 'none' | null;
  agent: string | null;
  /** The commit has an Agent Note. */
  noted: boolean;
  /** Why the commit's note could not be used (invalid, too large), when it has one. */
  noteError?: string;
  /** Session of the note (`session_id` matched to a known session), if any. */
  sessionKey?: string | null;
  /** Paths of the commit, for the file filter. */
  files?: string[];
  /** Local branches the commit is on, as far as the host knows (the current branch for its history). */
  branches?: string[];
}

export type TimelineEntry = TimelinePromptEntry | TimelineEditEntry | TimelineCommitEntry;
