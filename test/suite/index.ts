// Test entry point loaded INSIDE the extension host (the `extensionTestsPath` contract of
// @vscode/test-electron: export run(): Promise<void>). Works unchanged with code-server
// (URL payload) and with @vscode/test-electron on machines that can download VS Code.
import Mocha from 'mocha';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: 'spec',
    grep: process.env.VSH_TEST_GREP || undefined,
  });
  const suites = (process.env.VSH_SUITE || 'git').split(',');
  for (const suite of suites) {
    const dir = path.join(__dirname, suite);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.test.js'))
      .sort())
      mocha.addFile(path.join(dir, f));
  }
  const resultsFile = process.env.VSH_TEST_RESULTS || path.join(__dirname, '..', '..', 'test-results.json');
  const results: { title: string; state: string; durationMs?: number; error?: string }[] = [];
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const summary = {
          passed: results.filter((r) => r.state === 'passed').length,
          failed: results.filter((r) => r.state === 'failed').length,
          pending: results.filter((r) => r.state === 'pending').length,
          tests: results,
          env: { pid: process.pid, node: process.version, vscodeAppName: safeAppName() },
        };
        fs.writeFileSync(resultsFile, JSON.stringify(summary, null, 2));
        if (failures > 0) reject(new Error(`${failures} tests failed.`));
        else resolve();
      });
      runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }));
      runner.on('fail', (t, err) => results.push({ title: t.fullTitle(), state: 'failed', error: String((err as Error)?.stack || err) }));
      runner.on('pending', (t) => results.push({ title: t.fullTitle(), state: 'pending' }));
    } catch (err) {
      reject(err);
    }
  });
}

function safeAppName(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vscode = require('vscode');
    return `${vscode.env.appName} ${vscode.version}`;
  } catch {
    return 'unknown';
  }
}
