/** Entry point of dist/dashboard.js (esbuild.mjs): the dashboard CLI (cli.ts) for CI jobs, no editor needed. */
import { defaultAssetDir, runDashboardCli } from './cli';

void runDashboardCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  cwd: process.cwd(),
  assetDir: defaultAssetDir(__dirname),
}).then((code) => {
  process.exitCode = code;
});
