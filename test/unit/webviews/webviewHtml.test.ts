import * as assert from 'node:assert/strict';
import { buildCsp, buildWebviewHtml, createNonce } from '../../../src/webviews/webviewHtml';

const cspSource = 'https://*.vscode-cdn.net';
const nonce = 'bm9uY2Vub25jZW5vbmNlMTI=';

describe('webview HTML and CSP', () => {
  it('builds the exact CSP of docs/webviews.md §6', () => {
    assert.equal(
      buildCsp(cspSource, nonce),
      `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}'; font-src ${cspSource};`,
    );
  });

  it('never allows inline or eval code, nor network connections', () => {
    const html = buildWebviewHtml({
      cspSource,
      nonce,
      scriptUri: 'https://x/timeline.js',
      styleUri: 'https://x/timeline.css',
      title: 'Agent Timeline',
      lang: 'en',
      loadingText: 'Loading…',
    });
    assert.ok(!html.includes('unsafe-inline'));
    assert.ok(!html.includes('unsafe-eval'));
    assert.ok(!html.includes('connect-src'));
    assert.ok(!/style="/.test(html), 'no inline style attributes');
    assert.match(
      html,
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src https:\/\/\*\.vscode-cdn\.net data:; style-src https:\/\/\*\.vscode-cdn\.net &#39;nonce-bm9uY2Vub25jZW5vbmNlMTI=&#39;; script-src &#39;nonce-bm9uY2Vub25jZW5vbmNlMTI=&#39;; font-src https:\/\/\*\.vscode-cdn\.net;">/,
    );
    assert.ok(html.includes(`<script nonce="${nonce}" src="https://x/timeline.js"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" href="https://x/timeline.css" nonce="${nonce}">`));
    assert.equal((html.match(/<script/g) ?? []).length, 1, 'exactly one (nonce’d) script');
  });

  it('escapes every interpolated value', () => {
    const html = buildWebviewHtml({
      cspSource,
      nonce,
      scriptUri: 'https://x/a.js?"><script>',
      styleUri: 'https://x/a.css',
      title: '<script>alert(1)</script>',
      lang: 'en"><x',
      loadingText: '<img src=x onerror=alert(1)>',
    });
    assert.ok(!html.includes('<script>alert(1)'));
    assert.ok(html.includes('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>'));
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(html.includes('src="https://x/a.js?&quot;&gt;&lt;script&gt;"'));
    assert.ok(html.includes('<html lang="en&quot;&gt;&lt;x">'));
  });

  it('makes 16-byte base64 nonces, different every time', () => {
    const a = createNonce();
    const b = createNonce();
    assert.match(a, /^[A-Za-z0-9+/]{22}==$/);
    assert.equal(Buffer.from(a, 'base64').length, 16);
    assert.notEqual(a, b);
  });
});
