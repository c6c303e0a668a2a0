// Browser end-to-end tests: the packaged .vsix installed into code-server, driven through the real
// UI in headless Debian Chromium (playwright-core). Screenshots go to test-results/.
// Prints a plain `N passed, N failed` line and exits non-zero on failure.
import Mocha from 'mocha';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

const dir = join(ROOT, 'test/e2e');
const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 180_000, grep: process.env.E2E_GREP || undefined });
for (const f of readdirSync(dir)
  .filter((f) => f.endsWith('.e2e.mjs'))
  .sort())
  mocha.addFile(join(dir, f));
await mocha.loadFilesAsync();
let passed = 0;
let failed = 0;
const runner = mocha.run((failures) => {
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exitCode = failures > 0 || passed === 0 ? 1 : 0;
});
runner.on('pass', () => passed++);
runner.on('fail', () => failed++);
