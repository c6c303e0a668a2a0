// `npm run test:sessions`: the randomized interleaved-session test of issue #15 over many seeds, in
// a real extension host (the `interleaved` scenario, its randomized suite only). Defaults: seeds
// 1-50, 40 steps each; override with AGENTNOTE_SEEDS ("7" or "1-50" or "3,9") and AGENTNOTE_STEPS.
// The summary (commits exact, line precision, line recall, prompts right, hovers right) is printed
// by the suite and written to test-results/sessions.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bootstrap.mjs';

mkdirSync(join(ROOT, 'test-results'), { recursive: true });
const report = join(ROOT, 'test-results', 'sessions.json');
const env = {
  ...process.env,
  VSH_SCENARIO: 'interleaved',
  VSH_TEST_GREP: 'randomized',
  AGENTNOTE_SEEDS: process.env.AGENTNOTE_SEEDS || '1-50',
  AGENTNOTE_STEPS: process.env.AGENTNOTE_STEPS || '40',
  AGENTNOTE_REPORT: report,
  VSH_TEST_TIMEOUT_MS: process.env.VSH_TEST_TIMEOUT_MS || String(6 * 3600_000),
};
console.log(`test:sessions: seeds ${env.AGENTNOTE_SEEDS}, ${env.AGENTNOTE_STEPS} steps each`);
const r = spawnSync(process.execPath, ['scripts/run-integration.mjs'], { cwd: ROOT, env, stdio: 'inherit' });
if (existsSync(report)) {
  const s = JSON.parse(readFileSync(report, 'utf8'));
  console.log(s.summary);
  for (const f of s.failures.slice(0, 20)) console.log(`  ${f}`);
}
process.exit(r.status ?? 1);
