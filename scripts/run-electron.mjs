// The same in-host suites through @vscode/test-electron, for machines that can download VS Code
// (it fetches a VS Code build at run time, so it cannot run offline and is not part of CI).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ROOT, tempDir, cleanup, harnessRequire } from './harness.mjs';
import { scenarios } from './integration-scenarios.mjs';

const { runTests } = harnessRequire('@vscode/test-electron');
let exitCode = 0;
for (const scenario of scenarios) {
  const base = tempDir(`an-electron-${scenario.name}-`);
  const workspace = await scenario.setup({ base, home: process.env.HOME ?? homedir() });
  try {
    await runTests({
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: join(ROOT, 'out/test/suite/index.js'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: {
        VSH_SUITE: scenario.suite,
        VSH_TEST_RESULTS: join(base, 'results.json'),
        VSH_FIXTURE_BASE: base,
        ...(scenario.env ?? {}),
      },
    });
    console.log(`[${scenario.name}] passed`);
  } catch (e) {
    console.error(`[${scenario.name}] failed: ${e}`);
    exitCode = 1;
  } finally {
    cleanup(base);
  }
}
process.exit(exitCode);
