// Runs the mocha suites in out/test/suite INSIDE code-server's real (node) extension host, the way
// @vscode/test-web / test-electron do it: the workbench is opened with a `payload` that sets
// extensionDevelopmentPath + extensionTestsPath; when run() settles, the workbench calls
// window.codeAutomationExit(code). One code-server + one page per scenario (workspace fixture).
// Prints a plain `N passed, N failed` line; exits non-zero on any failure.
import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, log, tempDir, prepareDirs, startCodeServer, launchChromium, cleanup } from './harness.mjs';
import { scenarios } from './integration-scenarios.mjs';

const testsEntry = join(ROOT, 'out/test/suite/index.js');
if (!existsSync(testsEntry) || !existsSync(join(ROOT, 'dist/extension.js'))) {
  console.error('build first: node esbuild.mjs');
  process.exit(2);
}
const timeoutMs = Number(process.env.VSH_TEST_TIMEOUT_MS || 600_000);
const only = process.env.VSH_SCENARIO ? process.env.VSH_SCENARIO.split(',') : undefined;

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const scenario of scenarios) {
  if (only && !only.includes(scenario.name)) continue;
  const base = tempDir(`an-it-${scenario.name}-`);
  const dirs = prepareDirs(base, scenario.settings ?? {});
  const workspace = await scenario.setup({ base, home: dirs.home });
  const resultsFile = join(base, 'results.json');
  // a folder, or a multi-root workspace (.code-workspace file)
  const target = `${workspace.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(workspace)}`;
  log(`[${scenario.name}] starting code-server`);
  const cs = await startCodeServer({
    ...dirs,
    extraEnv: { VSH_TEST_RESULTS: resultsFile, VSH_SUITE: scenario.suite, VSH_FIXTURE_BASE: base, ...(scenario.env ?? {}) },
    logFile: join(base, 'code-server.log'),
  });
  const browser = await launchChromium(base);
  let code = 1;
  try {
    const remote = (/** @type {string} */ p) => `vscode-remote://127.0.0.1:${cs.port}${p}`;
    if (scenario.secondWindow) {
      // another window on the same folder, with Agent Note from this checkout but no test suite
      const other = await browser.newPage();
      const otherPayload = [
        ['extensionDevelopmentPath', remote(ROOT)],
        ['skipWelcome', 'true'],
        ['skipReleaseNotes', 'true'],
      ];
      await other.goto(`${cs.url}/?${target}&payload=${encodeURIComponent(JSON.stringify(otherPayload))}`);
    }
    const page = await browser.newPage();
    const payload = [
      ['extensionDevelopmentPath', remote(ROOT)],
      ['extensionTestsPath', remote(testsEntry)],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    const done = new Promise((resolveDone) => {
      void page.exposeFunction('codeAutomationExit', (/** @type {number} */ c) => resolveDone(c));
    });
    page.on('console', (/** @type {{ type(): string, text(): string }} */ m) => {
      if (process.env.VSH_VERBOSE) console.log(`[browser:${m.type()}] ${m.text()}`);
    });
    page.on('pageerror', (/** @type {Error} */ e) => console.log(`[pageerror] ${e}`));
    const url = `${cs.url}/?${target}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url);
    const timer = new Promise((r) => setTimeout(() => r('timeout'), timeoutMs));
    const result = await Promise.race([done, timer]);
    if (result === 'timeout') {
      mkdirSync(join(ROOT, 'test-results'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-results', `timeout-${scenario.name}.png`) }).catch(() => {});
      console.error(`[${scenario.name}] timed out after ${timeoutMs} ms; code-server log:\n${cs.output().slice(-5000)}`);
    } else {
      code = result;
    }
  } finally {
    await browser.close();
    await cs.stop();
  }
  if (existsSync(resultsFile)) {
    const r = JSON.parse(readFileSync(resultsFile, 'utf8'));
    for (const t of r.tests)
      console.log(
        `${t.state === 'passed' ? 'ok  ' : t.state.toUpperCase()} [${scenario.name}] ${t.title}${t.durationMs != null ? ` (${t.durationMs} ms)` : ''}${t.error ? `\n${t.error}` : ''}`,
      );
    console.log(`[${scenario.name}] host: ${r.env.vscodeAppName}, node ${r.env.node}: ${r.passed} passed, ${r.failed} failed`);
    passed += r.passed;
    failed += r.failed;
    if (r.failed > 0 || r.passed === 0) code = code || 1;
  } else {
    console.error(`[${scenario.name}] no results file written by the extension host`);
    failed += 1;
    code = code || 1;
  }
  if (code !== 0) {
    exitCode = 1;
    console.error(`[${scenario.name}] extension host exit ${code}; temp dir kept at ${base}`);
  } else cleanup(base);
}
console.log(`integration: ${passed} passed, ${failed} failed`);
process.exit(exitCode || (passed === 0 ? 1 : 0));
