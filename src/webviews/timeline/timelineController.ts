/**
 * Host-side logic of the Timeline webview without `vscode` (unit-tested): validates inbound
 * messages, answers the ready handshake with a full snapshot, pushes change snapshots through the
 * ready/visibility gate of {@link IpcHostChannel}, and forwards user actions to the data source.
 */
import type { Counters, Logger } from '../../core/ports';
import { acceptInbound } from '../inboundMessages';
import { IpcHostChannel, type IpcTransport } from '../ipcHost';
import { DidChangeStateNotification, DidRequestFocusNotification, ReadyRequest, type TimelineFocus, type TimelineState } from './protocol';
import { parseTimelineMessage } from './timelineMessages';

/** Where the Timeline's data comes from and how its actions are carried out (implemented in src/host). */
export interface TimelineDataSource {
  /** A complete, current snapshot (strings may be empty: the panel adds the localized labels). */
  getState(): Promise<TimelineState>;
  /** Fires when anything shown may have changed; the panel then pulls a new snapshot (only when visible). */
  onDidChange(listener: () => void): { dispose(): unknown };
  openEditDiff(editId: string): unknown;
  /** Open the edit's file at its first changed line. */
  revealEdit(editId: string): unknown;
  openNote(sha: string): unknown;
  openFile(file: string): unknown;
  /** Optional "Open in Timeline" target, applied when the panel is shown with this source. */
  focus?: TimelineFocus;
}

export interface TimelineControllerOptions {
  /** Localized labels merged under the data source's own `strings`. */
  strings?: Record<string, string>;
  counters?: Counters;
  /** Called when a user action failed (the panel shows an error message). */
  onActionError?: (action: 'openEditDiff' | 'revealEdit' | 'openNote' | 'openFile', error: unknown) => void;
}

export class TimelineController {
  readonly channel: IpcHostChannel;
  private subscription: { dispose(): unknown } | undefined;
  private disposed = false;

  constructor(
    transport: IpcTransport,
    private dataSource: TimelineDataSource,
    private readonly log: Logger,
    private readonly options: TimelineControllerOptions = {},
  ) {
    this.channel = new IpcHostChannel(transport, log);
    this.subscribe();
  }

  /** Switch to another data source (e.g. another repository) and push its snapshot. */
  setDataSource(dataSource: TimelineDataSource): void {
    if (dataSource === this.dataSource) return;
    this.subscription?.dispose();
    this.dataSource = dataSource;
    this.subscribe();
    void this.pushState();
  }

  /** Ask the webview to select a commit / filter to a session (buffered until it is ready and visible). */
  async focus(focus: TimelineFocus): Promise<void> {
    if (!focus.sha && !focus.sessionKey) return;
    await this.channel.notify(DidRequestFocusNotification, { ...focus });
  }

  async setVisible(visible: boolean): Promise<void> {
    await this.channel.setVisible(visible);
  }

  /** Push a fresh snapshot (lazily: computed only when it can be posted). */
  async pushState(): Promise<void> {
    if (this.disposed) return;
    await this.channel.notify(DidChangeStateNotification, () => this.snapshot());
  }

  /** Handle one raw message from the webview. Never throws. */
  async handleMessage(raw: unknown): Promise<void> {
    const msg = acceptInbound(parseTimelineMessage, raw, 'timeline', this.log, this.options.counters);
    if (!msg || this.disposed) return;
    switch (msg.method) {
      case 'timeline/ready': {
        // Any pending snapshot is older than the one computed now; changes that arrive while it is
        // computed stay pending and are flushed by markReady.
        this.channel.dropPending(DidChangeStateNotification);
        try {
          await this.channel.reply(ReadyRequest, msg.id, await this.snapshot());
        } catch (e) {
          this.log.warn(`timeline: snapshot failed: ${e instanceof Error ? e.message : String(e)}`);
          await this.channel.replyError(ReadyRequest, msg.id, 'snapshot failed');
        }
        await this.channel.markReady();
        return;
      }
      case 'timeline/refresh':
        return this.pushState();
      case 'timeline/openEditDiff':
        return this.run('openEditDiff', () => this.dataSource.openEditDiff(msg.params.editId));
      case 'timeline/revealEdit':
        return this.run('revealEdit', () => this.dataSource.revealEdit(msg.params.editId));
      case 'timeline/openNote':
        return this.run('openNote', () => this.dataSource.openNote(msg.params.sha));
      case 'timeline/openFile':
        return this.run('openFile', () => this.dataSource.openFile(msg.params.file));
      case 'timeline/filterChanged': {
        const f = msg.params;
        // Counts only: the filter text may contain prompt words.
        this.log.debug(
          `timeline: filters agents=${f.agents.length} session=${f.sessionKey !== null} file=${f.file !== null} text=${f.text.length > 0}`,
        );
        return;
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.subscription?.dispose();
    this.channel.dispose();
  }

  private subscribe(): void {
    this.subscription = this.dataSource.onDidChange(() => void this.pushState());
  }

  private async snapshot(): Promise<TimelineState> {
    const state = await this.dataSource.getState();
    return { ...state, strings: { ...this.options.strings, ...state.strings } };
  }

  private async run(action: 'openEditDiff' | 'revealEdit' | 'openNote' | 'openFile', fn: () => unknown): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.log.error(`timeline: ${action} failed: ${e instanceof Error ? e.message : String(e)}`);
      this.options.onActionError?.(action, e);
    }
  }
}
