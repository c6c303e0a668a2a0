// The editor surfaces in a real workbench (packaged .vsix, headless Chromium), on the demo repository
// whose notes were written by the recording pipeline: status bar, hover, CodeLens, Show Note and the
// timeline (including keyboard-only navigation), in a dark and a light theme.
import assert from 'node:assert/strict';
import { createDemoRepository } from '../../scripts/demo-repo.mjs';
import { openWorkbench, runCommand, shot } from './workbench.mjs';

const themes = [
  ['dark', 'Default Dark Modern'],
  ['light', 'Default Light Modern'],
];

/** The content frame of the (last opened) webview panel. */
function webview(page) {
  return page.frameLocator('iframe.webview.ready >> nth=-1').frameLocator('#active-frame');
}

/** Waits until some webview frame shows `selector` containing `text` (panels open side by side). */
async function inSomeWebview(page, selector, text, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    for (const f of page.frames()) {
      const n = await f
        .locator(selector, { hasText: text })
        .count()
        .catch(() => 0);
      if (n > 0) return f;
    }
    if (Date.now() > deadline) throw new Error(`no webview shows ${selector} with ${text}`);
    await page.waitForTimeout(250);
  }
}

async function openFile(page, rel) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(rel);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: rel.split('/').pop() })
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-lines').first().waitFor();
}

async function goToLine(page, line) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
}

for (const [name, theme] of themes) {
  describe(`editor surfaces on the demo repository (${name} theme)`, function () {
    let wb;

    before(async function () {
      wb = await openWorkbench({ theme, setup: ({ base, home }) => createDemoRepository({ base, home }) });
    });

    after(async function () {
      await wb?.close();
    });

    it('status bar shows the live agent session', async function () {
      const item = wb.page.locator('#workbench\\.parts\\.statusbar .statusbar-item', {
        hasText: /Claude Code · \d+ prompts? · \d+ files?/,
      });
      await item.first().waitFor({ timeout: 60_000 });
      await shot(wb.page, `surfaces-${name}-statusbar`);
    });

    it('hover on an AI line shows the prompt and the AI Ratio', async function () {
      await openFile(wb.page, 'src/discount.ts');
      await goToLine(wb.page, 9);
      const hover = wb.page.locator('.monaco-hover', { hasText: 'Agent Note' });
      for (let i = 0; i < 20 && !(await hover.isVisible()); i++) {
        await runCommand(wb.page, 'Show or Focus Hover');
        await wb.page.waitForTimeout(500);
      }
      await hover.first().waitFor({ timeout: 30_000 });
      const text = await hover.first().innerText();
      assert.match(text, /100%/);
      assert.match(text, /Add percentage discount codes/);
      assert.match(text, /written by the AI/);
      await shot(wb.page, `surfaces-${name}-hover`);
      await wb.page.keyboard.press('Escape');
    });

    it('CodeLens shows N% AI above the noted block', async function () {
      await openFile(wb.page, 'src/cart.ts');
      const lens = wb.page.locator('.codelens-decoration', { hasText: /93% AI · 1 prompt/ });
      await lens.first().waitFor({ timeout: 30_000 });
      await shot(wb.page, `surfaces-${name}-codelens`);
    });

    it('Show Note renders the whole note in a webview', async function () {
      await openFile(wb.page, 'test/cart.test.ts');
      await goToLine(wb.page, 3);
      await runCommand(wb.page, 'Agent Note: Show Note');
      const frame = webview(wb.page);
      await frame.locator('.prompt', { hasText: 'Write node:test tests' }).first().waitFor({ timeout: 30_000 });
      assert.match(await frame.locator('body').innerText(), /100%/);
      await shot(wb.page, `surfaces-${name}-show-note`);
    });

    it('the timeline lists sessions, prompts, edits and commits and works with the keyboard only', async function () {
      await runCommand(wb.page, 'Agent Note: Show Timeline');
      const frame = webview(wb.page);
      const list = frame.locator('[role="listbox"]');
      await list.waitFor({ timeout: 30_000 });
      await frame
        .locator('[role="option"]', { hasText: 'refactor: format money with Intl.NumberFormat' })
        .first()
        .waitFor({ timeout: 30_000 });
      const body = await frame.locator('body').innerText();
      assert.match(body, /Add a Cart class/);
      assert.match(body, /feat: percentage discount codes/);
      await shot(wb.page, `surfaces-${name}-timeline`);
      if (name !== 'dark') return;
      // keyboard only: "/" focuses the filter, type, Escape back, arrows move, Enter opens the note
      await frame.locator('[role="option"][tabindex="0"]').focus();
      await wb.page.keyboard.press('/');
      await wb.page.keyboard.type('Intl.NumberFormat');
      await frame.locator('[role="option"]', { hasText: 'refactor: format money' }).first().waitFor();
      // Tab from the filter box until the keyboard focus is in the list (roving tabindex: one stop)
      let inList = false;
      for (let i = 0; i < 12 && !inList; i++) {
        await wb.page.keyboard.press('Tab');
        inList = (await frame.locator('[role="option"]:focus').count()) > 0;
      }
      assert.ok(inList, 'Tab reaches the timeline list');
      await wb.page.keyboard.press('Home');
      let found = false;
      for (let i = 0; i < 10 && !found; i++) {
        const active = await frame.locator('[role="option"]:focus').innerText();
        if (/refactor: format money/.test(active)) found = true;
        else await wb.page.keyboard.press('ArrowDown');
      }
      assert.ok(found, 'reached the commit row with the arrow keys');
      await shot(wb.page, `surfaces-${name}-timeline-keyboard`);
      await wb.page.keyboard.press('Enter');
      await inSomeWebview(wb.page, '.prompt', 'formatCents');
      await shot(wb.page, `surfaces-${name}-timeline-keyboard-note`);
    });
  });
}
