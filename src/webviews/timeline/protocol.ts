/**
 * Protocol of the session Timeline webview (docs/webviews.md): the resource-shaped state the host
 * sends, the UI state the webview persists, and the typed message descriptors.
 * No `vscode` import: bundled into the browser app.
 */
import { IpcCommand, IpcNotification, IpcRequest } from '../protocol';

export type {
  TimelineSession,
  TimelinePromptEntry,
  TimelineEditEntry,
  TimelineCommitEntry,
  TimelineEntry,
} from '../../core/timeline/timelineTypes';
import type { TimelineEntry, TimelineSession } from '../../core/timeline/timelineTypes';

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
  /** Current branch of the repository (its uncommitted work counts as on it), if known. */
  branch?: string;
  /** ISO time of HEAD's commit: an edit after it that no commit took is shown as uncommitted. */
  headTime?: string;
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
  /** Timeline v2 (the time axis); absent in state persisted by older versions. */
  axis?: TimelineAxisUiState;
}

/** The persisted UI state of the time-axis view (Timeline v2). */
export interface TimelineAxisUiState {
  /** `axis`: lanes on a time axis (default); `list`: the flat list. */
  view: 'axis' | 'list';
  /** Current branch filter, or null for every branch. */
  branch: string | null;
  /** Date range filter, `YYYY-MM-DD` in the viewer's zone, inclusive; null = open. */
  from: string | null;
  to: string | null;
  /** The selected mark (details shown) and the keyboard-focused mark. */
  selectedId: string | null;
  focusId: string | null;
  /** Visible window in epoch ms, or null to fit everything. */
  window: { start: number; end: number } | null;
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
  viewLabel: 'View',
  viewAxis: 'Time axis',
  viewList: 'List',
  branchLabel: 'Branch',
  allBranches: 'All branches',
  fromLabel: 'From',
  toLabel: 'To',
  zoomIn: 'Zoom in (+)',
  zoomOut: 'Zoom out (−)',
  zoomFit: 'Show everything (0)',
  lanesLabel: 'Timeline lanes: arrows move between marks, Enter selects, + and − zoom, Shift+arrows pan',
  axisLabel: 'Time axis',
  humanLane: 'Your edits',
  commitLane: 'Commits',
  sessionStart: 'Session started',
  uncommitted: 'Not committed yet',
  merged: '{0} marks, zoom in to separate',
  details: 'Selection',
  noSelection: 'Select a mark to see its prompt, files and commit.',
  files: 'Files',
  committedIn: 'Went into',
  notCommitted: 'not committed yet',
  commitUnknown: 'commit not known',
  showNote: 'Show Note',
  openDiff: 'Open Diff',
  revealLine: 'Reveal Line',
  openFile: 'Open File',
  ledTo: 'Edits of this prompt',
  commitEdits: 'Edits in this commit',
  markCount: '{0} marks in {1} lanes',
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
/** webview → host: open the file of an edit at its first changed line (the current text's AI lines when uncommitted). */
export const RevealEditCommand = new IpcCommand<{ editId: string }>('timeline/revealEdit');
/** webview → host: open a repository file. */
export const OpenFileCommand = new IpcCommand<{ file: string }>('timeline/openFile');
/** webview → host: the filters changed (logged at debug level as counts only). */
export const FilterChangedCommand = new IpcCommand<TimelineFilters>('timeline/filterChanged');
/** webview → host: ask for a fresh snapshot. */
export const RefreshCommand = new IpcCommand<void>('timeline/refresh');
