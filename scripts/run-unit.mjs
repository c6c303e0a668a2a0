// Runs the unit tests (src/core and src/node, plain Node, real git in temp dirs) from out/test/unit.
// Prints a plain `N passed, N failed` line and exits non-zero on any failure or when nothing ran.
import Mocha from 'mocha';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve('out/test/unit');
if (!existsSync(root)) {
  console.error('build first: node esbuild.mjs');
  process.exit(2);
}
const files = [];
(function walk(dir) {
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (n.endsWith('.test.js')) files.push(p);
  }
})(root);
const filter = process.argv[2];
const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 60_000, grep: process.env.UNIT_GREP || undefined });
for (const f of files) if (!filter || f.includes(filter)) mocha.addFile(f);
let passed = 0;
let failed = 0;
const runner = mocha.run((failures) => {
  console.log(`unit: ${passed} passed, ${failed} failed`);
  process.exitCode = failures > 0 || passed === 0 ? 1 : 0;
});
runner.on('pass', () => passed++);
runner.on('fail', () => failed++);
