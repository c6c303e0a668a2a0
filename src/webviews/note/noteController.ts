/**
 * Host-side logic of the Show Note webview without `vscode` (unit-tested): validates inbound
 * messages, answers the ready handshake, pushes a new snapshot when another commit is shown, and
 * carries out the copy / open actions.
 */
import type { Counters, Logger } from '../../core/ports';
import { noteToMarkdown, type NoteMarkdownStringKey } from '../../core/report/noteMarkdown';
import { acceptInbound } from '../inboundMessages';
import { IpcHostChannel, type IpcTransport } from '../ipcHost';
import { DidChangeNoteNotification, NoteReadyRequest, type NoteViewInput, type NoteViewState } from './protocol';
import { parseNoteMessage } from './noteMessages';

/** What the Show Note panel can do for the user (implemented in src/host; only writeClipboard is required here). */
export interface NoteActions {
  writeClipboard(text: string): PromiseLike<void> | void;
  /** Open a repository file (path as in the note). Omit to hide file links. */
  openFile?(path: string, input: NoteViewInput): unknown;
  /** Show the commit in the Timeline. Omit to hide the button. */
  openInTimeline?(sha: string): unknown;
  /** Feedback after a copy (e.g. a status bar message). */
  onCopied?(what: 'json' | 'markdown'): void;
  /** A user action failed (e.g. show an error message). */
  onActionError?(action: 'copyJson' | 'copyMarkdown' | 'openFile' | 'openInTimeline', error: unknown): void;
}

export interface NoteControllerOptions {
  /** Localized labels of "Copy as Markdown". */
  markdownStrings?: Partial<Record<NoteMarkdownStringKey, string>>;
  counters?: Counters;
}

/** The text "Copy JSON" puts on the clipboard: the stored note text when known, else pretty JSON. */
export function noteJsonText(input: NoteViewInput): string | undefined {
  if (input.raw !== undefined) return input.raw;
  return input.note ? JSON.stringify(input.note, null, 2) : undefined;
}

export class NoteController {
  readonly channel: IpcHostChannel;
  private disposed = false;

  constructor(
    transport: IpcTransport,
    private current: NoteViewInput,
    private readonly actions: NoteActions,
    private readonly log: Logger,
    private readonly options: NoteControllerOptions = {},
  ) {
    this.channel = new IpcHostChannel(transport, log);
  }

  get input(): NoteViewInput {
    return this.current;
  }

  /** Show another commit (or a refreshed note); a complete snapshot replaces any pending one. */
  async setInput(input: NoteViewInput): Promise<void> {
    this.current = input;
    await this.channel.notify(DidChangeNoteNotification, () => Promise.resolve(this.snapshot()));
  }

  async setVisible(visible: boolean): Promise<void> {
    await this.channel.setVisible(visible);
  }

  /** The Markdown "Copy as Markdown" produces, or undefined for a commit without a valid note. */
  markdownText(): string | undefined {
    const { note, commit } = this.current;
    return note && this.current.invalidReason === undefined ? noteToMarkdown(commit, note, this.options.markdownStrings) : undefined;
  }

  snapshot(): NoteViewState {
    return {
      ...this.current,
      capabilities: { openFile: !!this.actions.openFile, openInTimeline: !!this.actions.openInTimeline },
    };
  }

  /** Handle one raw message from the webview. Never throws. */
  async handleMessage(raw: unknown): Promise<void> {
    const msg = acceptInbound(parseNoteMessage, raw, 'note', this.log, this.options.counters);
    if (!msg || this.disposed) return;
    switch (msg.method) {
      case 'note/ready':
        this.channel.dropPending(DidChangeNoteNotification);
        await this.channel.reply(NoteReadyRequest, msg.id, this.snapshot());
        await this.channel.markReady();
        return;
      case 'note/copyJson':
        return this.copy('json', noteJsonText(this.current));
      case 'note/copyMarkdown':
        return this.copy('markdown', this.markdownText());
      case 'note/openFile': {
        const path = msg.params.path;
        // Only paths of this note: the webview must not become a way to open arbitrary files.
        const known =
          this.current.note?.files.some((f) => f.path === path) ||
          this.current.note?.interactions.some((it) => it.files_touched?.includes(path));
        if (!known || !this.actions.openFile) {
          this.options.counters?.inc('note.inbound.unknownFile');
          this.log.debug('note: ignored openFile for a path not in the note');
          return;
        }
        return this.run('openFile', () => this.actions.openFile?.(path, this.current));
      }
      case 'note/openInTimeline':
        if (this.actions.openInTimeline) return this.run('openInTimeline', () => this.actions.openInTimeline?.(this.current.commit.sha));
        return;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.channel.dispose();
  }

  private async copy(what: 'json' | 'markdown', text: string | undefined): Promise<void> {
    if (text === undefined) {
      this.log.debug(`note: nothing to copy as ${what}`);
      return;
    }
    await this.run(what === 'json' ? 'copyJson' : 'copyMarkdown', async () => {
      await this.actions.writeClipboard(text);
      this.actions.onCopied?.(what);
    });
  }

  private async run(action: 'copyJson' | 'copyMarkdown' | 'openFile' | 'openInTimeline', fn: () => unknown): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.log.error(`note: ${action} failed: ${e instanceof Error ? e.message : String(e)}`);
      this.actions.onActionError?.(action, e);
    }
  }
}
