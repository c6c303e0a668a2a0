// `npm test` step "demo": runs the README's first command, `npm run demo`, as a user would on a
// fresh clone (CI runs it on one), and checks what it promises: it builds and packages the
// extension, creates the demo repository with its sample sessions and notes, serves the editor
// on it, and on Ctrl-C stops and removes its temp dir. No browser is opened (DEMO_EXIT_AFTER_MS
// implies --no-open; it is also the safety net that ends the demo if this script dies).
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ROOT } from './bootstrap.mjs';

/** @type {boolean[]} */
const results = [];
/**
 * @param {string} name
 * @param {boolean} ok
 * @param {string} [detail]
 */
const check = (name, ok, detail = '') => {
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'FAILED'} [demo] ${name}${ok || !detail ? '' : `: ${detail}`}`);
};

const child = spawn('npm', ['run', '-s', 'demo'], {
  cwd: ROOT,
  env: { ...process.env, DEMO_EXIT_AFTER_MS: '240000', BROWSER: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let out = '';
let err = '';
child.stdout.on('data', (d) => (out += d.toString('utf8')));
child.stderr.on('data', (d) => (err += d.toString('utf8')));
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

const deadline = Date.now() + 200_000;
let url;
let repo;
while (Date.now() < deadline) {
  url = /\n\s+(https?:\/\/\S+\?folder=\S+)/.exec(out)?.[1];
  repo = /Demo repository: (.+)/.exec(out)?.[1]?.trim();
  if (url && repo) break;
  if (child.exitCode !== null) break;
  await new Promise((r) => setTimeout(r, 250));
}
check('npm run demo prints the editor URL and the demo repository', !!(url && repo), `${out.slice(-800)}\n${err.slice(-800)}`);

if (url && repo) {
  try {
    const res = await fetch(url, { redirect: 'follow' });
    const body = await res.text();
    check('the editor answers on that URL with its workbench', res.ok && /workbench/i.test(body), `HTTP ${res.status}`);
  } catch (e) {
    check('the editor answers on that URL with its workbench', false, String(e));
  }
  const git = /** @param {...string} a */ (...a) => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8' });
  const noted = git('notes', '--ref=agentnote', 'list').trim().split('\n').filter(Boolean).length;
  const commits = Number(git('rev-list', '--count', 'HEAD').trim());
  check(`the demo repository has noted commits (${noted} of ${commits})`, noted >= 3 && commits > noted, `${noted} notes`);
  const home = /Isolated HOME:\s+(.+)/.exec(out)?.[1]?.trim();
  const sessions = home && existsSync(home) ? readdirSync(home, { recursive: true }).filter((f) => /\.jsonl?$/.test(String(f))) : [];
  check(`sample agent sessions are in the isolated HOME (${sessions.length} files)`, sessions.length >= 4, `HOME ${home}`);
}

/** @param {NodeJS.Signals} signal sent to the demo's whole process group */
const signalDemo = (signal) => {
  if (child.pid === undefined) throw new Error('the demo process has no pid: it did not start');
  process.kill(-child.pid, signal);
};
// Ctrl-C: the demo stops the editor and removes its temp dir
signalDemo('SIGINT');
const { code, signal } = await Promise.race([exited, new Promise((r) => setTimeout(() => r({ code: 'timeout' }), 30_000))]);
check('Ctrl-C stops the demo cleanly', code === 0 || signal === 'SIGINT', `exit ${code} ${signal ?? ''}`);
if (repo) check('its temp dir is removed', !existsSync(dirname(repo)) || !existsSync(repo), repo);
if (code === 'timeout') signalDemo('SIGKILL');

const passed = results.filter(Boolean).length;
console.log(`demo: ${passed} passed, ${results.length - passed} failed`);
process.exit(results.every(Boolean) ? 0 : 1);
