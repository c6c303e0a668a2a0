/**
 * Host-side wiring shared by the webview panels (Show Note, Timeline): panel options, localized
 * labels, the strict-CSP HTML, and message/visibility forwarding to the panel's controller.
 */
import * as vscode from 'vscode';
import { buildWebviewHtml, createNonce } from './webviewHtml';

/** What a panel controller handles (NoteController, TimelineController). */
export interface PanelController {
  handleMessage(raw: unknown): unknown;
  setVisible(visible: boolean): unknown;
}

/** Options of every panel: scripts on, UI state only persisted (data is refetched on ready), our assets only. */
export function webviewPanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableFindWidget: true,
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webviews'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/** A labels object in the UI language (the English defaults are the l10n message keys). */
export function localizeStrings<K extends string>(defaults: Readonly<Record<K, string>>): Record<K, string> {
  return Object.fromEntries(Object.entries<string>(defaults).map(([k, v]) => [k, vscode.l10n.t(v)])) as Record<K, string>;
}

/**
 * Points the panel at its app bundle (`dist/webviews/<app>.js/.css`) and forwards messages and
 * visibility to the controller. Returns the listeners to dispose with the panel.
 */
export function wirePanel(
  panel: vscode.WebviewPanel,
  extensionUri: vscode.Uri,
  controller: PanelController,
  app: string,
  labels: { title: string; loading: string },
  onDispose: () => void,
): vscode.Disposable[] {
  const webview = panel.webview;
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  const disposables = [
    webview.onDidReceiveMessage((raw: unknown) => void controller.handleMessage(raw)),
    panel.onDidChangeViewState((e) => void controller.setVisible(e.webviewPanel.visible)),
    panel.onDidDispose(onDispose),
  ];
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webviews', name)).toString();
  webview.html = buildWebviewHtml({
    cspSource: webview.cspSource,
    nonce: createNonce(),
    scriptUri: asset(`${app}.js`),
    styleUri: asset(`${app}.css`),
    title: labels.title,
    lang: vscode.env.language,
    loadingText: labels.loading,
  });
  void controller.setVisible(panel.visible);
  return disposables;
}
