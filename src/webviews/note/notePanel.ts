/**
 * The Show Note panel (`agentNote.note`): one WebviewPanel reused for every commit. Thin glue
 * between `vscode` and {@link NoteController}; the lead registers the command.
 */
import * as vscode from 'vscode';
import { nullLogger, type Counters, type Logger } from '../../core/ports';
import { noteMarkdownDefaultStrings, type NoteMarkdownStringKey } from '../../core/report/noteMarkdown';
import { localizeStrings, webviewPanelOptions, wirePanel } from '../webviewPanelHost';
import { NoteController, type NoteActions } from './noteController';
import { noteDefaultStrings, type NoteViewInput } from './protocol';

/** Actions of the panel; clipboard and copy feedback default to VS Code's. */
export type NotePanelActions = Partial<NoteActions>;

/** The Show Note labels in the UI language (the English defaults are the l10n message keys). */
export function localizedNoteStrings(): Record<string, string> {
  return localizeStrings(noteDefaultStrings);
}

/** The "Copy as Markdown" labels in the UI language. */
export function localizedNoteMarkdownStrings(): Record<NoteMarkdownStringKey, string> {
  return localizeStrings(noteMarkdownDefaultStrings);
}

export class NotePanel implements vscode.Disposable {
  static readonly viewType = 'agentNote.note';
  private static current: NotePanel | undefined;

  private readonly controller: NoteController;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  static get currentPanel(): NotePanel | undefined {
    return NotePanel.current;
  }

  /**
   * Show a commit's note, reusing the open panel. `input.strings` may be empty: the localized
   * labels are filled in here.
   */
  static show(
    extensionUri: vscode.Uri,
    input: NoteViewInput,
    actions: NotePanelActions = {},
    log: Logger = nullLogger,
    counters?: Counters,
  ): NotePanel {
    const full = { ...input, strings: { ...localizedNoteStrings(), ...input.strings } };
    const existing = NotePanel.current;
    if (existing) {
      existing.panel.title = NotePanel.title(input);
      void existing.controller.setInput(full);
      existing.panel.reveal(undefined, false);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      NotePanel.viewType,
      NotePanel.title(input),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      webviewPanelOptions(extensionUri),
    );
    return new NotePanel(panel, extensionUri, full, actions, log, counters);
  }

  private static title(input: NoteViewInput): string {
    return vscode.l10n.t('Agent Note: {0}', input.commit.short);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    input: NoteViewInput,
    actions: NotePanelActions,
    private readonly log: Logger,
    counters?: Counters,
  ) {
    NotePanel.current = this;
    this.controller = new NoteController(
      panel.webview,
      input,
      {
        writeClipboard: (text) => vscode.env.clipboard.writeText(text),
        onCopied: (what) =>
          void vscode.window.setStatusBarMessage(
            what === 'json' ? vscode.l10n.t('Agent Note JSON copied') : vscode.l10n.t('Agent Note copied as Markdown'),
            3000,
          ),
        onActionError: () => void vscode.window.showErrorMessage(vscode.l10n.t('Agent Note: the action failed. See the log for details.')),
        ...actions,
      },
      log,
      { markdownStrings: localizedNoteMarkdownStrings(), counters },
    );
    this.disposables.push(
      ...wirePanel(
        panel,
        extensionUri,
        this.controller,
        'note',
        { title: vscode.l10n.t(noteDefaultStrings.title), loading: vscode.l10n.t(noteDefaultStrings.loading) },
        () => this.dispose(),
      ),
    );
  }

  /** The commit shown. */
  get input(): NoteViewInput {
    return this.controller.input;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (NotePanel.current === this) NotePanel.current = undefined;
    this.controller.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.log.debug('note panel closed');
  }
}
