/**
 * Protocol of the session Timeline webview (docs/webviews.md): the resource-shaped state the host
 * sends, the UI state the webview persists, and the typed message descriptors.
 * No `vscode` import: bundled into the browser app.
 */
import { IpcCommand, IpcNotification, IpcRequest } from '../protocol';

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
}

export type TimelineEntry = TimelinePromptEntry | TimelineEditEntry | TimelineCommitEntry;

/** "Open in Timeline" target: select this commit and/or filter to this session. */
export interface TimelineFocus {
  sha?: string;
  sessionKey?: string;
}

/** Full snapshot sent by the host (reply to ready, and every change notification). */
/** An agent as the timeline shows it. */
export interface TimelineAgent {
  id: string;
  name: string;
}

export interface TimelineState {
  /** Display name of the repository, if known. */
  repoName?: string;
  sessions: TimelineSession[];
  entries: TimelineEntry[];
  /**
   * The known agents in display order with their names (the agent registry's); agents not listed
   * are shown by their id, after these, alphabetically.
   */
  agents?: TimelineAgent[];
  /** Localized UI labels (host: vscode.l10n.t); missing keys fall back to {@link timelineDefaultStrings}. */
  strings: Record<string, string>;
}

export interface TimelineFilters {
  /** Agents to show; empty = every agent. */
  agents: string[];
  sessionKey: string | null;
  file: string | null;
  /** Free text (case-insensitive) over prompts, responses, files and commit subjects. */
  text: string;
}

/** The only state the webview persists (`setState`): navigation and UI, never data. */
export interface TimelineUiState {
  v: 1;
  filters: TimelineFilters;
  selectedId: string | null;
  /** Ids of expanded prompt entries. */
  expanded: string[];
  scrollTop: number;
}

/** English defaults of every UI label; `{0}` is a placeholder. */
export const timelineDefaultStrings = {
  title: 'Agent Timeline',
  loading: 'Loading…',
  empty: 'No agent sessions yet. Prompts, edits and commits of Claude Code, Cursor, Codex and Gemini in this repository appear here.',
  noMatches: 'Nothing matches the current filters.',
  clearFilters: 'Clear filters',
  filterLabel: 'Filter',
  filterPlaceholder: 'Filter prompts, files and commits (press /)',
  agentsLabel: 'Agents',
  sessionLabel: 'Session',
  allSessions: 'All sessions',
  fileLabel: 'File',
  allFiles: 'All files',
  listLabel: 'Timeline, newest first',
  sessionStarted: 'Session started',
  active: 'active',
  turn: 'turn {0}',
  prompt: 'Prompt',
  response: 'Response',
  expand: 'Show full prompt',
  collapse: 'Hide full prompt',
  edit: 'Edit',
  ai: 'AI',
  human: 'Human',
  added: '{0} added',
  removed: '{0} removed',
  noDiff: 'no diff captured',
  commit: 'Commit',
  aiRatio: '{0}% AI',
  method: 'by {0}',
  noNote: 'no Agent Note',
  noteNotRead: 'note not read: {0}',
  itemCount: '{0} items',
} as const;

export type TimelineStringKey = keyof typeof timelineDefaultStrings;

/** webview → host: the app is ready; the reply is the full state. */
export const ReadyRequest = new IpcRequest<void, TimelineState>('timeline/ready');
/** host → webview: the data changed; carries a complete snapshot. */
export const DidChangeStateNotification = new IpcNotification<TimelineState>('timeline/didChangeState');
/** host → webview: "Open in Timeline" — select the commit and/or filter to the session (sent after a snapshot). */
export const DidRequestFocusNotification = new IpcNotification<TimelineFocus>('timeline/didRequestFocus');
/** webview → host: open the before/after diff of an edit entry. */
export const OpenEditDiffCommand = new IpcCommand<{ editId: string }>('timeline/openEditDiff');
/** webview → host: show the Agent Note of a commit. */
export const OpenNoteCommand = new IpcCommand<{ sha: string }>('timeline/openNote');
/** webview → host: open a repository file. */
export const OpenFileCommand = new IpcCommand<{ file: string }>('timeline/openFile');
/** webview → host: the filters changed (logged at debug level as counts only). */
export const FilterChangedCommand = new IpcCommand<TimelineFilters>('timeline/filterChanged');
/** webview → host: ask for a fresh snapshot. */
export const RefreshCommand = new IpcCommand<void>('timeline/refresh');
