/**
 * Protocol of the Show Note webview: the note snapshot the host sends, the UI state the webview
 * persists, and the typed message descriptors. No `vscode` import: bundled into the browser app.
 */
import type { AgentNoteV1 } from '../../core/notes/noteTypes';
import type { NoteCommitInfo } from '../../core/report/noteMarkdown';
import { IpcCommand, IpcNotification, IpcRequest } from '../protocol';

/** What the host shows: one commit and its note, or why the note could not be read. */
export interface NoteViewInput {
  commit: NoteCommitInfo;
  /** The parsed note (absent when the commit has none or it is invalid). */
  note?: AgentNoteV1;
  /** Set when the note exists but is not a usable Agent Note (e.g. "not JSON"). */
  invalidReason?: string;
  /** The note text as stored (shown escaped for an invalid note; copied by "Copy JSON"). */
  raw?: string;
  /** Secrets replaced while the note was written, when known; shown when > 0. */
  redactions?: number;
  /** Localized labels (host: vscode.l10n.t); missing keys fall back to {@link noteDefaultStrings}. */
  strings: Record<string, string>;
}

/** Full snapshot sent to the webview: the input plus what the host can do for it. */
export interface NoteViewState extends NoteViewInput {
  capabilities: {
    /** Files can be opened from the note. */
    openFile: boolean;
    /** "Open in Timeline" is available. */
    openInTimeline: boolean;
  };
}

/** The only state the webview persists: where it was scrolled, for which commit. */
export interface NoteUiState {
  v: 1;
  sha: string | null;
  scrollTop: number;
}

/** English defaults of every UI label; `{0}` is a placeholder. */
export const noteDefaultStrings = {
  title: 'Agent Note',
  loading: 'Loading…',
  author: 'Author',
  date: 'Date',
  agent: 'Agent',
  model: 'Model',
  session: 'Session',
  recorded: 'Recorded',
  derivedFrom: 'Derived from',
  derivedFromHint: 'A squash or rebase merge made this commit: its AI lines were found in these noted commits.',
  aiRatio: '{0}% AI',
  aiRatioLabel: 'AI Ratio',
  method: 'by {0}',
  lines: '{0} of {1} added lines by AI',
  deleted: '{0} deleted',
  redactedOne: '1 secret redacted',
  redactedMany: '{0} secrets redacted',
  copyJson: 'Copy JSON',
  copyMarkdown: 'Copy as Markdown',
  openInTimeline: 'Open in Timeline',
  prompts: 'Prompts ({0})',
  prompt: 'Prompt {0}',
  context: 'Context',
  response: 'Response',
  noResponse: 'No response recorded.',
  filesTouched: 'Files touched',
  tools: 'Tools',
  selection: 'Selection',
  signals: 'Signals',
  level: 'Relevance',
  levelHigh: 'high',
  levelMedium: 'medium',
  levelLow: 'low',
  noPrompts: 'No prompts were recorded for this commit.',
  files: 'Files ({0})',
  file: 'File',
  by: 'By',
  ai: 'AI',
  human: 'Human',
  generated: 'Generated',
  excluded: 'Excluded',
  aiLines: 'AI lines',
  promptRef: 'prompt {0}',
  yes: 'yes',
  noFiles: 'No files.',
  noNote: 'This commit has no Agent Note.',
  invalidTitle: 'This Agent Note could not be read',
  invalidReason: 'Reason: {0}',
  rawNote: 'Stored note text',
} as const;

export type NoteStringKey = keyof typeof noteDefaultStrings;

/** webview → host: the app is ready; the reply is the full snapshot. */
export const NoteReadyRequest = new IpcRequest<void, NoteViewState>('note/ready');
/** host → webview: another commit (or a refreshed note) is shown; a complete snapshot. */
export const DidChangeNoteNotification = new IpcNotification<NoteViewState>('note/didChange');
/** webview → host: copy the note JSON (the stored text when known) to the clipboard. */
export const CopyJsonCommand = new IpcCommand<void>('note/copyJson');
/** webview → host: copy the note as Markdown to the clipboard. */
export const CopyMarkdownCommand = new IpcCommand<void>('note/copyMarkdown');
/** webview → host: open a file of the note (repository-relative path). */
export const OpenNoteFileCommand = new IpcCommand<{ path: string }>('note/openFile');
/** webview → host: show this commit in the Timeline. */
export const OpenInTimelineCommand = new IpcCommand<void>('note/openInTimeline');
