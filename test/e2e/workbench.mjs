// Helpers shared by the e2e files: start code-server with the packaged extension installed and a
// workspace open, in headless Chromium; palette and screenshot helpers.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, log, tempDir, prepareDirs, startCodeServer, launchChromium, codeServerCli, cleanup } from '../../scripts/harness.mjs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
export const VSIX = join(ROOT, `dist/agent-note-${pkg.version}.vsix`);
export const SHOTS = process.env.AN_SCREENSHOTS || join(ROOT, 'test-results');

/** Opens a workbench on the workspace made by `setup({base, home})`. */
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
export async function runCommand(page, title) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
}

export async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}
