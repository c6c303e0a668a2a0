import * as assert from 'node:assert/strict';
import { readText } from '../report/peerFixtures';

const sheets = ['src/webviews/apps/timeline/timeline.css', 'src/webviews/apps/note/note.css'];

describe('webview theming', () => {
  for (const sheet of sheets) {
    it(`${sheet} uses theme variables only`, () => {
      const css = readText(...sheet.split('/')).replace(/\/\*[\s\S]*?\*\//g, '');
      assert.deepEqual(css.match(/#[0-9a-fA-F]{3,8}\b/g), null, 'no hex colours');
      assert.deepEqual(css.match(/\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/g), null, 'no colour functions');
      assert.deepEqual(css.match(/:\s*(white|black|red|green|blue|gray|grey|orange|purple|yellow)\b/gi), null, 'no named colours');
      const vars = [...css.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]);
      assert.ok(vars.length > 10);
      assert.deepEqual(
        vars.filter((v) => !v.startsWith('--vscode-') && !v.startsWith('--an-')),
        [],
      );
      for (const agent of ['claude', 'cursor', 'codex', 'gemini'])
        assert.match(css, new RegExp(`\\.agent-${agent} \\{\\s*--an-agent: var\\(--vscode-charts-\\w+\\);\\s*\\}`));
      assert.ok(css.includes('body.vscode-high-contrast'), 'high-contrast rules');
      assert.ok(/color-mix\(in srgb, var\(--/.test(css), 'tints through color-mix');
    });
  }

  it('src/webviews/apps/timeline/axis.css (Timeline v2) uses theme variables only, with high-contrast borders', () => {
    const css = readText('src', 'webviews', 'apps', 'timeline', 'axis.css').replace(/\/\*[\s\S]*?\*\//g, '');
    assert.deepEqual(css.match(/#[0-9a-fA-F]{3,8}\b/g), null, 'no hex colours');
    assert.deepEqual(css.match(/\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/g), null, 'no colour functions');
    assert.deepEqual(css.match(/:\s*(white|black|red|green|blue|gray|grey|orange|purple|yellow)\b/gi), null, 'no named colours');
    const vars = [...css.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]);
    assert.deepEqual(
      vars.filter((v) => !v.startsWith('--vscode-') && !v.startsWith('--an-')),
      [],
    );
    assert.match(css, /body\.vscode-high-contrast \.mark,[\s\S]*?border: 1px solid var\(--vscode-contrastBorder\)/);
    assert.match(css, /\.mark:focus[\s\S]*?outline: 2px solid var\(--vscode-focusBorder\)/);
  });
});
