// Helpers shared by the e2e files: start code-server with the packaged extension installed and a
// workspace open, in headless Chromium; palette and screenshot helpers.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, log, tempDir, prepareDirs, startCodeServer, launchChromium, codeServerCli, cleanup } from '../../scripts/harness.mjs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
export const VSIX = join(ROOT, `dist/agent-note-${pkg.version}.vsix`);
/**
 * Playwright's Page. playwright-core is installed under test/harness (by `node scripts/bootstrap.mjs harness`),
 * outside what tsc resolves from here, and reaches us untyped through `harnessRequire`.
 * @typedef {any} Page
 */
/** @typedef {{ x: number, y: number, width: number, height: number }} Box */

export const SHOTS = process.env.AN_SCREENSHOTS || join(ROOT, 'test-results');

/**
 * Opens a workbench on the workspace made by `setup({base, home})`.
 * @param {{
 *   setup: (dirs: { base: string, home: string }) => string | Promise<string>, settings?: Record<string, unknown>, theme?: string,
 * }} opts
 */
export async function openWorkbench({ setup, settings = {}, theme }) {
  assert.ok(existsSync(VSIX), `missing ${VSIX}: run npm run package`);
  mkdirSync(SHOTS, { recursive: true });
  const base = tempDir('an-e2e-');
  const dirs = prepareDirs(base, { ...(theme ? { 'workbench.colorTheme': theme } : {}), ...settings });
  const workspace = await setup({ base, home: dirs.home });
  const out = codeServerCli(['--install-extension', VSIX], dirs);
  log(`install: ${out.trim().split('\n').pop()}`);
  const cs = await startCodeServer({ ...dirs, logFile: join(base, 'code-server.log') });
  const browser = await launchChromium(base);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${cs.url}/?folder=${encodeURIComponent(workspace)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  // the git extension reports the branch in the status bar once the repository is open
  await page
    .locator('#workbench\\.parts\\.statusbar')
    .getByText(/^\s*main\*?\s*$/)
    .first()
    .waitFor({ timeout: 90_000 });
  return {
    base,
    dirs,
    workspace,
    cs,
    browser,
    page,
    async close() {
      await browser.close().catch(() => {});
      await cs.stop();
      cleanup(base);
    },
  };
}

/** Runs a command from the palette (F1), by its visible title. */
/**
 * @param {Page} page
 * @param {string} title
 */
export async function runCommand(page, title) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${title}`);
  const rows = page.locator('.quick-input-list .monaco-list-row', { hasText: title });
  await rows.first().waitFor({ timeout: 30_000 });
  // the row of exactly this command (a fuzzy match or a recently used one may be listed first)
  for (let i = 0; i < (await rows.count()); i++) {
    const label = (await rows.nth(i).getAttribute('aria-label')) ?? '';
    if (label === title || label.startsWith(`${title},`) || label.startsWith(`${title} `)) {
      await rows.nth(i).click();
      return;
    }
  }
  await page.keyboard.press('Enter');
}

/**
 * @param {Page} page
 * @param {string} name
 */
export async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** media/screenshots: the README's and the walkthrough's pictures, rewritten when AN_UPDATE_SCREENSHOTS=1. */
export const MEDIA_SHOTS = join(ROOT, 'media', 'screenshots');

/**
 * A picture of one part of the window (`box`: a locator, or a {x, y, width, height} clip), saved in
 * test-results/ (its path is returned) and, with AN_UPDATE_SCREENSHOTS=1, as media/screenshots/<name>.png.
 */
/**
 * @param {Page} page
 * @param {string} name
 * @param {Box | { boundingBox(): Promise<Box | null> }} box
 * @param {number} [pad]
 */
export async function partShot(page, name, box, pad = 8) {
  const b = 'boundingBox' in box ? await box.boundingBox() : box;
  assert.ok(b, `nothing to photograph for ${name}`);
  const vp = page.viewportSize();
  const x = Math.max(0, Math.floor(b.x - pad));
  const y = Math.max(0, Math.floor(b.y - pad));
  const clip = {
    x,
    y,
    width: Math.min(vp.width - x, Math.ceil(b.width + 2 * pad)),
    height: Math.min(vp.height - y, Math.ceil(b.height + 2 * pad)),
  };
  const file = join(SHOTS, `part-${name}.png`);
  await page.screenshot({ path: file, clip });
  if (process.env.AN_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(MEDIA_SHOTS, { recursive: true });
    await page.screenshot({ path: join(MEDIA_SHOTS, `${name}.png`), clip });
  }
  return file;
}

/** The union of several bounding boxes. */
/** @param {...(Box | null | undefined)} boxes */
export function union(...boxes) {
  const bs = boxes.filter((b) => b !== null && b !== undefined);
  const x = Math.min(...bs.map((b) => b.x));
  const y = Math.min(...bs.map((b) => b.y));
  return { x, y, width: Math.max(...bs.map((b) => b.x + b.width)) - x, height: Math.max(...bs.map((b) => b.y + b.height)) - y };
}
