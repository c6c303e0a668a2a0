/**
 * The session Timeline as one editor WebviewPanel (`agentNote.timeline`). Thin glue between
 * `vscode` and {@link TimelineController}; the lead registers the command and the serializer.
 */
import * as vscode from 'vscode';
import type { Counters, Logger } from '../../core/ports';
import { localizeStrings, webviewPanelOptions, wirePanel } from '../webviewPanelHost';
import { timelineDefaultStrings, type TimelineFocus } from './protocol';
import { TimelineController, type TimelineDataSource } from './timelineController';

/** The Timeline labels in the UI language (the English defaults are the l10n message keys). */
export function localizedTimelineStrings(): Record<string, string> {
  return localizeStrings(timelineDefaultStrings);
}

export class TimelinePanel implements vscode.Disposable {
  static readonly viewType = 'agentNote.timeline';
  private static current: TimelinePanel | undefined;

  private readonly controller: TimelineController;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  /** The open panel, if any. */
  static get currentPanel(): TimelinePanel | undefined {
    return TimelinePanel.current;
  }

  /**
   * Create or reveal the single Timeline panel. `focus` (or `dataSource.focus`) selects a commit
   * or filters to a session, for "Open in Timeline".
   */
  static show(
    extensionUri: vscode.Uri,
    dataSource: TimelineDataSource,
    log: Logger,
    focus?: TimelineFocus,
    counters?: Counters,
  ): TimelinePanel {
    const target = focus ?? dataSource.focus;
    const existing = TimelinePanel.current;
    if (existing) {
      existing.controller.setDataSource(dataSource);
      existing.panel.reveal();
      if (target) void existing.controller.focus(target);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      TimelinePanel.viewType,
      vscode.l10n.t(timelineDefaultStrings.title),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      webviewPanelOptions(extensionUri),
    );
    const created = new TimelinePanel(panel, extensionUri, dataSource, log, counters);
    if (target) void created.controller.focus(target);
    return created;
  }

  /** Restore a panel VS Code kept across a reload (used by {@link registerTimelineSerializer}). */
  static revive(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    dataSource: TimelineDataSource,
    log: Logger,
    counters?: Counters,
  ): TimelinePanel {
    TimelinePanel.current?.dispose();
    panel.webview.options = webviewPanelOptions(extensionUri);
    return new TimelinePanel(panel, extensionUri, dataSource, log, counters);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    dataSource: TimelineDataSource,
    private readonly log: Logger,
    counters?: Counters,
  ) {
    TimelinePanel.current = this;
    panel.title = vscode.l10n.t(timelineDefaultStrings.title);
    this.controller = new TimelineController(panel.webview, dataSource, log, {
      strings: localizedTimelineStrings(),
      counters,
      onActionError: () =>
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Note: the timeline action failed. See the log for details.')),
    });
    this.disposables.push(
      ...wirePanel(
        panel,
        extensionUri,
        this.controller,
        'timeline',
        { title: vscode.l10n.t(timelineDefaultStrings.title), loading: vscode.l10n.t(timelineDefaultStrings.loading) },
        () => this.dispose(),
      ),
    );
  }

  /** Handle a raw message as if the webview had sent it (validated like any other; tests). */
  handleMessage(raw: unknown): Promise<void> {
    return this.controller.handleMessage(raw);
  }

  /** Select a commit and/or filter to a session in the open panel. */
  focus(focus: TimelineFocus): void {
    this.panel.reveal();
    void this.controller.focus(focus);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (TimelinePanel.current === this) TimelinePanel.current = undefined;
    this.controller.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.log.debug('timeline panel closed');
  }
}

/**
 * Restore the Timeline after a window reload (`registerWebviewPanelSerializer`). `dataSource` may
 * be a function, for sources created after activation; returning undefined closes the panel.
 * Note: `activationEvents` should include `onWebviewPanel:agentNote.timeline` for restores to be fast.
 */
export function registerTimelineSerializer(
  context: { readonly extensionUri: vscode.Uri; readonly subscriptions: { dispose(): unknown }[] },
  dataSource: TimelineDataSource | (() => TimelineDataSource | undefined),
  log: Logger,
  counters?: Counters,
): vscode.Disposable {
  const disposable = vscode.window.registerWebviewPanelSerializer(TimelinePanel.viewType, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, _state: unknown): Promise<void> {
      // The webview restores its own UI state through getState(); the host only supplies data.
      const source = typeof dataSource === 'function' ? dataSource() : dataSource;
      if (!source) {
        panel.dispose();
        return;
      }
      TimelinePanel.revive(panel, context.extensionUri, source, log, counters);
    },
  });
  context.subscriptions.push(disposable);
  return disposable;
}
