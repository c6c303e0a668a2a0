/**
 * HTML shell and Content-Security-Policy of our webviews (docs/webviews.md §6). No `vscode`
 * import, so the exact markup and CSP are unit-tested; the panels pass in `webview.cspSource`
 * and `asWebviewUri` results.
 */
import { randomBytes } from 'node:crypto';

/** A fresh CSP nonce: 16 random bytes, base64. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The CSP: nothing by default; our bundle and nonce'd elements only. No unsafe-inline/eval, no connect-src. */
export function buildCsp(cspSource: string, nonce: string): string {
  return (
    [
      `default-src 'none'`,
      `img-src ${cspSource} data:`,
      `style-src ${cspSource} 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      `font-src ${cspSource}`,
    ].join('; ') + ';'
  );
}

function escapeAttr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

export interface WebviewHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** From {@link createNonce}; a new one per HTML render. */
  nonce: string;
  /** `asWebviewUri(dist/webviews/<view>.js)` as a string. */
  scriptUri: string;
  /** `asWebviewUri(dist/webviews/<view>.css)` as a string. */
  styleUri: string;
  /** Document title (localized). */
  title: string;
  /** BCP 47 language of the UI (`vscode.env.language`). */
  lang: string;
  /** Shown until the app has painted (localized "Loading…"). */
  loadingText: string;
}

/** The complete HTML document of a webview; every interpolated value is escaped. */
export function buildWebviewHtml(o: WebviewHtmlOptions): string {
  const nonce = escapeAttr(o.nonce);
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeAttr(o.lang)}">`,
    '<head>',
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(buildCsp(o.cspSource, o.nonce))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<link rel="stylesheet" href="${escapeAttr(o.styleUri)}" nonce="${nonce}">`,
    `<title>${escapeAttr(o.title)}</title>`,
    '</head>',
    '<body>',
    `<div id="app"><p class="loading" role="status" aria-busy="true">${escapeAttr(o.loadingText)}</p></div>`,
    `<script nonce="${nonce}" src="${escapeAttr(o.scriptUri)}"></script>`,
    '</body>',
    '</html>',
  ].join('\n');
}
