// The editor surfaces in a real workbench (packaged .vsix, headless Chromium), on the demo repository
// whose notes were written by the recording pipeline: status bar, hover, CodeLens, Show Note and the
// timeline (including keyboard-only navigation), in a dark, a light and the high-contrast theme: the
// webviews use the theme's colours and the bundled codicon font (allowed by their CSP). With
// AN_UPDATE_SCREENSHOTS=1 the pictures of the README and the walkthrough (media/screenshots) are rewritten.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createDemoRepository } from '../../scripts/demo-repo.mjs';
import { openWorkbench, partShot, runCommand, shot, union } from './workbench.mjs';

/** @typedef {import('./workbench.mjs').Page} Page */
/** @typedef {any} Frame Playwright's Frame (untyped here, as Page) */

const themes = [
  ['dark', 'Default Dark Modern'],
  ['light', 'Default Light Modern'],
  ['hc', 'Default High Contrast'],
];

/** The webview frame whose document shows `selector`, once its fonts are loaded. */
/**
 * @param {Page} page
 * @param {string} selector
 * @param {number} [ms]
 */
async function frameWith(page, selector, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    for (const f of page.frames())
      if (
        (await f
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return f;
    if (Date.now() > deadline) throw new Error(`no frame shows ${selector}`);
    await page.waitForTimeout(250);
  }
}

/** The codicon font is loaded in a webview and draws its icons (not a missing-glyph box). */
/** @param {Frame} frame */
async function assertCodicons(frame) {
  const r = await frame.evaluate(async () => {
    await document.fonts.ready;
    const el = document.querySelector('.codicon');
    if (!el) return { found: false };
    const before = getComputedStyle(el, '::before');
    return {
      found: true,
      family: before.fontFamily,
      loaded: document.fonts.check('16px codicon'),
      width: el.getBoundingClientRect().width,
      glyph: before.content,
    };
  });
  assert.ok(r.found, 'an icon is shown');
  assert.match(r.family, /codicon/);
  assert.equal(r.loaded, true, 'the codicon font loaded under the webview CSP');
  assert.ok(r.width >= 10, `the icon has a width (${r.width})`);
  assert.match(r.glyph, /^"\\?.+"$/);
}

/** The body of a webview uses the theme's colours (editor background and foreground). */
/** @param {Frame} frame */
async function themeColours(frame) {
  return frame.evaluate(() => {
    const cs = getComputedStyle(document.body);
    const root = getComputedStyle(document.documentElement);
    return {
      background: cs.backgroundColor,
      color: cs.color,
      themeBackground: root.getPropertyValue('--vscode-editor-background').trim(),
      contrastBorder: root.getPropertyValue('--vscode-contrastBorder').trim(),
      kind: document.body.className,
    };
  });
}

/** The content frame of the (last opened) webview panel. */
/** @param {Page} page */
function webview(page) {
  return page.frameLocator('iframe.webview.ready >> nth=-1').frameLocator('#active-frame');
}

/** Waits until some webview frame shows `selector` containing `text` (panels open side by side). */
/**
 * @param {Page} page
 * @param {string} selector
 * @param {string | RegExp} text
 * @param {number} [ms]
 */
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

/** Presses a webview button with the keyboard (a workbench hover left over a tab can cover it for the mouse). */
async function pressButton(page, locator) {
  await locator.focus();
  await page.keyboard.press('Enter');
}

/** The timeline pictures of each theme, compared after the three runs. */
const timelineShots = {};

/**
 * Statistics of a PNG, decoded by the browser (no image library): distinct colours (quantized),
 * the share of pixels that stand out from the median luminance, and the mean colour.
 */
async function pictureStats(browser, file) {
  const data = readFileSync(file).toString('base64');
  const page = await browser.newPage(); // about:blank: no workbench CSP in the way of a data: image
  const stats = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    if (!g) throw new Error('no 2d canvas');
    g.drawImage(img, 0, 0);
    const px = g.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    const lum = [];
    let r = 0;
    let gr = 0;
    let b = 0;
    let n = 0;
    for (let i = 0; i < px.length; i += 4 * 7) {
      colours.add(((px[i] >> 4) << 8) | ((px[i + 1] >> 4) << 4) | (px[i + 2] >> 4));
      lum.push(0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2]);
      r += px[i];
      gr += px[i + 1];
      b += px[i + 2];
      n++;
    }
    const sorted = [...lum].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)];
    return {
      distinct: colours.size,
      // share of the picture that stands out from its background (text, marks, borders), in ‰
      ink: Math.round((1000 * lum.filter((v) => Math.abs(v - median) > 40).length) / lum.length),
      mean: [r / n, gr / n, b / n].map(Math.round),
    };
  }, data);
  await page.close();
  return stats;
}

/**
 * @param {Page} page
 * @param {string} rel
 */
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

/**
 * @param {Page} page
 * @param {number} line
 */
async function goToLine(page, line) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
}

for (const [name, theme] of themes) {
  describe(`editor surfaces on the demo repository (${name} theme)`, function () {
    /** @type {Awaited<ReturnType<typeof openWorkbench>>} set by `before` */
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
      assert.match(await item.first().innerHTML(), /codicon-/, 'the item shows a product icon');
      await shot(wb.page, `surfaces-${name}-statusbar`);
      await item.first().hover();
      const tip = wb.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: /Last prompt/ });
      await tip.first().waitFor({ timeout: 15_000 });
      await partShot(wb.page, `${name}-statusbar`, union(await tip.first().boundingBox(), await item.first().boundingBox()));
      await wb.page.mouse.move(700, 300);
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
      assert.ok((await hover.first().locator('.codicon-hubot').count()) > 0, 'the AI line is marked with the hubot codicon');
      assert.doesNotMatch(text, /[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]/u, 'no emoji');
      await shot(wb.page, `surfaces-${name}-hover`);
      const line = wb.page.locator('.monaco-editor .view-overlays .current-line').first();
      await partShot(wb.page, `${name}-hover`, union(await hover.first().boundingBox(), await line.boundingBox().catch(() => undefined)));
      await wb.page.keyboard.press('Escape');
    });

    it('CodeLens shows N% AI above the noted block', async function () {
      await openFile(wb.page, 'src/cart.ts');
      const lens = wb.page.locator('.codelens-decoration', { hasText: /93% AI · 1 prompt/ });
      await lens.first().waitFor({ timeout: 30_000 });
      await shot(wb.page, `surfaces-${name}-codelens`);
      const b = await lens.first().boundingBox();
      const editor = await wb.page.locator('.monaco-editor').first().boundingBox();
      await partShot(wb.page, `${name}-codelens`, { x: editor.x, y: b.y - 4, width: Math.min(760, editor.width), height: 150 });
    });

    it('Show Note renders the whole note in a webview', async function () {
      await openFile(wb.page, 'test/cart.test.ts');
      await goToLine(wb.page, 3);
      await runCommand(wb.page, 'Agent Note: Show Note');
      const frame = webview(wb.page);
      await frame.locator('.prompt', { hasText: 'Write node:test tests' }).first().waitFor({ timeout: 30_000 });
      assert.match(await frame.locator('body').innerText(), /100%/);
      const noteFrame = await frameWith(wb.page, '.interaction .codicon');
      await assertCodicons(noteFrame);
      const colours = await themeColours(noteFrame);
      assert.ok(colours.themeBackground, 'the webview gets the theme colours');
      if (name === 'hc') {
        assert.match(colours.kind, /vscode-high-contrast/);
        assert.equal(colours.background, 'rgb(0, 0, 0)', 'the high-contrast editor background');
        assert.equal(colours.color, 'rgb(255, 255, 255)', 'the high-contrast foreground');
        assert.ok(colours.contrastBorder, 'contrastBorder is defined in high contrast');
      }
      await shot(wb.page, `surfaces-${name}-show-note`);
      await partShot(wb.page, `${name}-show-note`, wb.page.locator('#workbench\\.parts\\.editor'), 0);
    });

    it('timeline v2: lanes per session on a time axis, selection details, keyboard only, themed', async function () {
      await runCommand(wb.page, 'Agent Note: Show Timeline');
      const frame = await frameWith(wb.page, '.lanes .lane-commits .mark');
      const lanes = await frame.locator('[role="listbox"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      assert.ok(
        lanes.some((l) => /^Claude Code/.test(l ?? '')),
        `a Claude Code lane (${lanes.join(' | ')})`,
      );
      assert.ok(lanes.includes('Commits'), 'the commits lane');
      assert.ok(lanes.length >= 4, `one lane per session plus commits (${lanes.length})`);
      // with the keyboard (marks close in time are merged when zoomed out; the focused one never is):
      // down to the commits lane, left to the commit, Enter selects it
      await frame.locator('.mark[tabindex="0"]').focus();
      const focused = async () => (await frame.locator('.mark:focus').getAttribute('aria-label')) ?? '';
      for (let i = 0; i < 10 && !/^Commit /.test(await focused()); i++) await wb.page.keyboard.press('ArrowDown');
      assert.match(await focused(), /^Commit /, 'ArrowDown reaches the commits lane');
      await wb.page.keyboard.press('Home');
      const seen = [];
      for (let i = 0; i < 12 && !/refactor: format money/.test(await focused()); i++) {
        seen.push(await focused());
        await wb.page.keyboard.press('ArrowRight');
      }
      assert.match(await focused(), /refactor: format money/, `Home and ArrowRight reach the commit (${seen.join(' | ')})`);
      await wb.page.keyboard.press('Enter');
      await frame.locator('#details .details-title', { hasText: 'refactor: format money' }).waitFor();
      assert.equal(await frame.locator('#details [data-action="showNote"]').count(), 1, 'Show Note offered for a noted commit');
      assert.ok((await frame.locator('#details [data-select]').count()) > 0, 'the edits that went into the commit are listed');
      const tlFrame = frame;
      await assertCodicons(tlFrame); // the zoom buttons' product icons
      const colours = await themeColours(tlFrame);
      assert.ok(colours.themeBackground, 'the timeline gets the theme colours');
      if (name === 'hc') {
        assert.match(colours.kind, /vscode-high-contrast/);
        const border = await tlFrame.evaluate(() => {
          const mark = document.querySelector('.mark:not(.kind-uncommitted)');
          return mark ? getComputedStyle(mark).borderTopColor : '';
        });
        assert.notEqual(border, 'rgba(0, 0, 0, 0)', 'high contrast: marks carry the contrast border');
      }
      await shot(wb.page, `surfaces-${name}-timeline`);
      const file = await partShot(wb.page, `${name}-timeline`, wb.page.locator('#workbench\\.parts\\.editor'), 0);
      timelineShots[name] = await pictureStats(wb.browser, file);
      const st = timelineShots[name];
      assert.ok(st.distinct >= 8, `the picture is not blank (${st.distinct} distinct colours)`);
      assert.ok(st.ink >= 15, `the picture is more than its background (${st.ink} ‰ of it stands out)`);
      if (name !== 'dark') return;
      // keyboard only: Tab reaches the lanes (one stop, on the focused mark), + and − zoom, N shows the note
      await frame.locator('[data-view="axis"]').focus();
      let inLanes = false;
      for (let i = 0; i < 30 && !inLanes; i++) {
        await wb.page.keyboard.press('Tab');
        inLanes = (await frame.locator('.mark:focus').count()) > 0;
      }
      assert.ok(inLanes, 'Tab reaches the timeline lanes');
      assert.match(await focused(), /refactor: format money/, 'the focus stayed on the commit');
      await wb.page.keyboard.press('+');
      await wb.page.keyboard.press('-');
      assert.match(await focused(), /refactor: format money/, 'zooming keeps the focus');
      await shot(wb.page, `surfaces-${name}-timeline-keyboard`);
      await wb.page.keyboard.press('n');
      await inSomeWebview(wb.page, '.prompt', 'formatCents');
      await shot(wb.page, `surfaces-${name}-timeline-keyboard-note`);
    });

    it('the timeline list view lists sessions, prompts, edits and commits and works with the keyboard only', async function () {
      await runCommand(wb.page, 'Agent Note: Show Timeline');
      const frame = await frameWith(wb.page, '[data-view="list"]');
      await pressButton(wb.page, frame.locator('[data-view="list"]'));
      const list = frame.locator('.list-container [role="listbox"]');
      await list.waitFor({ timeout: 30_000 });
      await frame
        .locator('[role="option"]', { hasText: 'refactor: format money with Intl.NumberFormat' })
        .first()
        .waitFor({ timeout: 30_000 });
      const body = await frame.locator('body').innerText();
      assert.match(body, /Add a Cart class/);
      assert.match(body, /feat: percentage discount codes/);
      await shot(wb.page, `surfaces-${name}-timeline-list`);
      if (name !== 'dark') {
        await pressButton(wb.page, frame.locator('[data-view="axis"]'));
        return;
      }
      // keyboard only: "/" focuses the filter, type, Escape back, arrows move, Enter opens the note
      await frame.locator('.list-container [role="option"][tabindex="0"]').focus();
      await wb.page.keyboard.press('/');
      await wb.page.keyboard.type('Intl.NumberFormat');
      await frame.locator('[role="option"]', { hasText: 'refactor: format money' }).first().waitFor();
      // Tab from the filter box until the keyboard focus is in the list (roving tabindex: one stop)
      let inList = false;
      for (let i = 0; i < 12 && !inList; i++) {
        await wb.page.keyboard.press('Tab');
        inList = (await frame.locator('.list-container [role="option"]:focus').count()) > 0;
      }
      assert.ok(inList, 'Tab reaches the timeline list');
      await wb.page.keyboard.press('Home');
      let found = false;
      for (let i = 0; i < 10 && !found; i++) {
        const active = await frame.locator('.list-container [role="option"]:focus').innerText();
        if (/refactor: format money/.test(active)) found = true;
        else await wb.page.keyboard.press('ArrowDown');
      }
      assert.ok(found, 'reached the commit row with the arrow keys');
      await wb.page.keyboard.press('Enter');
      await inSomeWebview(wb.page, '.prompt', 'formatCents');
      await runCommand(wb.page, 'Agent Note: Show Timeline');
      await pressButton(wb.page, (await frameWith(wb.page, '[data-view="axis"]')).locator('[data-view="axis"]'));
    });

    if (name === 'dark')
      it('the walkthrough shows its steps, and its buttons show what was found and the timeline', async function () {
        const openWalkthrough = async () => {
          await runCommand(wb.page, 'Welcome: Open Walkthrough...');
          const input = wb.page.locator('.quick-input-widget input');
          await input.fill('Get Started with Agent Note');
          await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with Agent Note' }).first().waitFor();
          await wb.page.keyboard.press('Enter');
        };
        await openWalkthrough();
        const step = (/** @type {string} */ title) => wb.page.locator('.getting-started-step', { hasText: title }).first();
        await step('Open a git repository').waitFor({ timeout: 30_000 });
        for (const title of ['See what Agent Note found', 'Commit and get your first note', 'Where to look', 'Sharing and privacy'])
          await step(title).waitFor();
        await step('See what Agent Note found').click();
        await wb.page.locator('.getting-started-step.expanded', { hasText: 'Show Status' }).first().waitFor();
        await shot(wb.page, 'surfaces-dark-walkthrough');
        await partShot(wb.page, 'dark-walkthrough', wb.page.locator('#workbench\\.parts\\.editor'), 0);
        // the step's button: what Agent Note found, as a quick pick
        await wb.page.locator('.getting-started-step.expanded').getByText('Show Status', { exact: true }).first().click();
        const pick = wb.page.locator('.quick-input-widget');
        await pick.locator('.monaco-list-row', { hasText: 'Claude Code' }).first().waitFor({ timeout: 30_000 });
        const text = await pick.innerText();
        assert.match(text, /demo-shop/);
        assert.match(text, /Claude Code[\s\S]*transcripts in this workspace/);
        assert.match(text, /noted commits/);
        await partShot(wb.page, 'dark-status', pick);
        await wb.page.keyboard.press('Escape');
        // the next step's button opens the timeline
        await step('Where to look').click();
        await wb.page.locator('.getting-started-step.expanded').getByText('Show Timeline', { exact: true }).first().click();
        await inSomeWebview(wb.page, '.lane-label', 'Commits');
      });
  });
}

describe('timeline v2 pictures differ per theme', function () {
  it('the dark, light and high-contrast pictures are not the same picture', function () {
    const names = Object.keys(timelineShots);
    if (names.length < 3) this.skip(); // a narrowed run (E2E_GREP) took fewer themes
    const dist = (a, b) => Math.hypot(...a.mean.map((v, i) => v - b.mean[i]));
    assert.ok(dist(timelineShots.dark, timelineShots.light) > 60, 'dark and light differ');
    assert.ok(dist(timelineShots.light, timelineShots.hc) > 60, 'light and high contrast differ');
    assert.notDeepEqual(timelineShots.dark, timelineShots.hc, 'dark and high contrast differ');
  });
});
