// Renders media/icon.svg to the 128×128 PNG the Marketplace and Open VSX show (media/icon.png), with
// the harness's headless Chromium: node scripts/render-icon.mjs (after node scripts/bootstrap.mjs harness browser).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, launchChromium, tempDir, cleanup } from './harness.mjs';

const svg = readFileSync(join(ROOT, 'media', 'icon.svg'), 'utf8');
const base = tempDir('an-icon-');
const browser = await launchChromium(base);
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(ROOT, 'media', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
  cleanup(base);
}
console.log('wrote media/icon.png');
