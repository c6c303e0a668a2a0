// `npm test`: installs what is missing (scripts/bootstrap.mjs: the extension's dependencies, the
// test harness, a Chromium), then build, static checks, unit → in-host integration → package and
// its Marketplace / Open VSX checks → browser e2e → `npm run demo` itself (scripts/demo-smoke.mjs). Every runner prints its own `N passed, N failed`
// line; this script prints the time of each step and exits non-zero if any step failed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap, ROOT } from './bootstrap.mjs';

const t0 = Date.now();
bootstrap(['extension', 'harness', 'browser']);
const installed = Date.now();
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
/** @type {(...a: string[]) => [string, string[]]} */
const node = (...a) => [process.execPath, a];
/** @type {(...a: string[]) => [string, string[]]} */
const npm = (...a) => ['npm', a];
/** @type {[name: string, command: [string, string[]]][]} */
const steps = [
  ['build', node('esbuild.mjs')],
  ['typecheck', npm('run', '-s', 'typecheck')],
  ['lint', npm('run', '-s', 'lint')],
  ['cycles', npm('run', '-s', 'cycles')],
  ['format', npm('run', '-s', 'format:check')],
  ['unit', node('scripts/run-unit.mjs')],
  ['integration', node('scripts/run-integration.mjs')],
  ['package', npm('run', '-s', 'package')],
  ['vsix', node('scripts/check-vsix.mjs', `dist/agent-note-${version}.vsix`)],
  ['e2e', node('scripts/run-e2e.mjs')],
  ['demo', node('scripts/demo-smoke.mjs')],
];
const failed = [];
const times = [];
for (const [name, [cmd, args]] of steps) {
  console.log(`::: ${name}`);
  const s = Date.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  times.push(`${name} ${((Date.now() - s) / 1000).toFixed(0)} s`);
  if (r.status !== 0) failed.push(name);
}
console.log(
  `npm test: install ${((installed - t0) / 1000).toFixed(0)} s, ${times.join(', ')}; ${((Date.now() - t0) / 1000).toFixed(0)} s in all`,
);
if (failed.length) {
  console.log(`npm test: failed steps: ${failed.join(' ')}`);
  process.exit(1);
}
console.log('npm test: all steps passed');
