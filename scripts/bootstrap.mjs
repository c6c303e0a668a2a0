// Installs what `npm test` and `npm run demo` need, the first time they run, with one line of progress
// per step instead of npm's output (that goes to a log file, whose tail is shown only on failure).
// Node built-ins only: it runs right after `git clone`, before any dependency is installed.
//
//   node scripts/bootstrap.mjs [extension] [harness] [browser]   install what is missing (default: extension)
//   node scripts/bootstrap.mjs --check [harness] [browser]        say what is there and what would be installed
//
// - extension: the extension's own dependencies (`npm ci` in the project root; nothing native).
// - harness:   test/harness (code-server 4.100.3, playwright-core, @vscode/test-electron; its own lockfile).
//              code-server compiles native modules, so a C++ compiler, make and python3 are checked
//              first; Debian's ripgrep stands in for @vscode/ripgrep's GitHub download; code-server's
//              `kerberos` (proxy authentication only) is optional: when it cannot be built, the
//              install goes on without it.
// - browser:   a Chromium for the in-host and e2e runners (playwright-core drives it).
// Missing system packages are installed with apt-get when running as root on Debian (CI); elsewhere
// the script says in one line what to install. AGENT_NOTE_NO_APT=1 turns the apt-get installs off.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  statSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  copyFileSync,
  realpathSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const HARNESS_DIR = join(ROOT, 'test', 'harness');
const STAMP = join(HARNESS_DIR, 'node_modules', '.agent-note-harness.json');

/** @vscode/ripgrep version inside code-server's lib/vscode → its release tag (lib/postinstall.js `VERSION`). */
/** @type {Record<string, string | undefined>} */
const RIPGREP_RELEASES = { '1.15.11': 'v13.0.0-10' };

const say = (/** @type {string} */ m) => console.log(`agent-note: ${m}`);

class BootstrapError extends Error {}
/** A one-line, actionable failure (printed without a stack trace). */
/**
 * @param {string} m
 * @returns {never}
 */
const fail = (m) => {
  throw new BootstrapError(m);
};

/** An executable on PATH (or an absolute path that exists), else undefined. */
/**
 * @param {string} name
 * @param {string} [path]
 */
export function which(name, path = process.env.PATH ?? '') {
  if (name.includes('/')) return existsSync(name) ? name : undefined;
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) {
        accessSync(p, constants.X_OK);
        return p;
      }
    } catch {
      /* not there */
    }
  }
  return undefined;
}

/** The Chromium the browser runners use: $CHROMIUM_PATH, else the first Chromium/Chrome on PATH. */
export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  for (const n of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    const p = which(n, env.PATH);
    if (p) return p;
  }
  return undefined;
}

function canApt(env = process.env) {
  return env.AGENT_NOTE_NO_APT !== '1' && process.getuid?.() === 0 && !!which('apt-get', env.PATH) && !!which('dpkg', env.PATH);
}

let aptUpdated = false;
/**
 * @param {string[]} packages
 * @param {string} why
 */
function aptInstall(packages, why) {
  say(`installing ${packages.join(', ')} with apt-get (${why})…`);
  const log = logFile('apt');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    runLogged('apt-get', ['update', '-q'], { env, log, what: 'apt-get update' });
    aptUpdated = true;
  }
  runLogged('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], {
    env,
    log,
    what: `apt-get install ${packages.join(' ')}`,
  });
}

/** @param {string} name */
function logFile(name) {
  const dir = join(tmpdir(), 'agent-note-bootstrap');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.log`);
}

/** Runs a command with its output appended to `log`; on failure, one line plus the log's tail. */
/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, log: string, what: string }} opts
 */
function runLogged(cmd, args, { cwd = ROOT, env = process.env, log, what }) {
  writeFileSync(log, `\n$ ${cmd} ${args.join(' ')}  (in ${cwd})\n`, { flag: 'a' });
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  writeFileSync(log, Buffer.concat([r.stdout ?? Buffer.alloc(0), r.stderr ?? Buffer.alloc(0)]), { flag: 'a' });
  if (r.error) fail(`${what} could not start: ${r.error.message}`);
  if (r.status !== 0) {
    const tail = readFileSync(log, 'utf8').trimEnd().split('\n').slice(-25).join('\n');
    console.error(tail);
    fail(`${what} failed (exit ${r.status}); the full output is in ${log}`);
  }
  return r;
}

/**
 * @param {string} p
 * @returns {any} parsed JSON, untyped (lockfiles, package.json)
 */
function readJson(p) {
  return JSON.parse(readFileSync(p, 'utf8'));
}

/** @param {string} p */
function sha256(p) {
  return createHash('sha256').update(readFileSync(p)).digest('hex').slice(0, 16);
}

/** Packages of `dir`'s lockfile that are missing or at another version in its node_modules. */
/** @param {string} dir */
function missingPackages(dir) {
  const lock = readJson(join(dir, 'package-lock.json'));
  const top = lock.packages[''] ?? {};
  const names = Object.keys({ ...top.dependencies, ...top.devDependencies });
  /** @type {string[]} */
  const missing = [];
  for (const n of names) {
    const entry = lock.packages[`node_modules/${n}`];
    const installed = join(dir, 'node_modules', n, 'package.json');
    if (!existsSync(installed)) missing.push(n);
    else if (entry?.version && !entry.link && readJson(installed).version !== entry.version) missing.push(n);
  }
  return missing;
}

function checkGit() {
  if (!which('git')) fail('git is not installed: install git (e.g. `apt-get install git`, `brew install git`) and run again.');
}

/** @param {boolean} forHarness */
function checkNode(forHarness) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) fail(`Node ${process.versions.node} is too old: Agent Note needs Node 20 or newer (e.g. \`nvm install 20\`).`);
  if (forHarness && major !== 20)
    fail(
      `the test harness (code-server 4.100.3) needs Node 20, this is Node ${process.versions.node}: run it with Node 20 (e.g. \`nvm use 20\`).`,
    );
}

/** The extension's own dependencies (`npm ci` in the project root). */
export function ensureExtension({ check = false } = {}) {
  checkGit();
  checkNode(false);
  const missing = missingPackages(ROOT);
  if (missing.length === 0) return 'ready';
  if (check) return `would run npm ci (missing: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})`;
  const nm = join(ROOT, 'node_modules');
  if (existsSync(nm) && lstatSync(nm).isSymbolicLink())
    fail(
      `node_modules is a link to ${realpathSync(nm)}, which lacks ${missing.join(', ')}: install there, or remove the link and run again.`,
    );
  const t0 = Date.now();
  say("installing the extension's dependencies (npm ci, nothing native; about half a minute the first time)…");
  runLogged('npm', ['ci', '--no-audit', '--no-fund'], { log: logFile('npm-ci'), what: 'npm ci' });
  say(`extension dependencies installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return 'installed';
}

/** What the harness install needs from the system, and how to get it. */
function harnessPrerequisites(env = process.env) {
  const needs = [];
  const cxx = which('g++', env.PATH) || which('c++', env.PATH) || which('clang++', env.PATH);
  if (!cxx || !which('make', env.PATH)) needs.push({ apt: 'build-essential', tool: 'a C++ compiler and make' });
  if (!which('python3', env.PATH)) needs.push({ apt: 'python3', tool: 'python3' });
  if (!which('rg', env.PATH)) needs.push({ apt: 'ripgrep', tool: 'ripgrep (rg)' });
  if (!which('tar', env.PATH)) needs.push({ apt: 'tar', tool: 'tar' });
  return needs;
}

/** Node's own headers next to the running node (node-gyp would otherwise download them). */
function nodeHeadersDir() {
  const prefix = resolve(dirname(process.execPath), '..');
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? prefix : undefined;
}

function harnessReady() {
  const lockHash = sha256(join(HARNESS_DIR, 'package-lock.json'));
  if (existsSync(STAMP)) {
    const s = readJson(STAMP);
    if (s.lockHash === lockHash && s.node === process.versions.node.split('.')[0] && missingPackages(HARNESS_DIR).length === 0) return true;
  }
  // a harness installed by other means (e.g. a shared node_modules above test/harness): accept it
  // when code-server's own install finished and every package is at the locked version
  if (!existsSync(join(HARNESS_DIR, 'node_modules'))) {
    try {
      const lock = readJson(join(HARNESS_DIR, 'package-lock.json'));
      for (const n of ['code-server', 'playwright-core', '@vscode/test-electron']) {
        const p = resolvePackage(n);
        if (!p || readJson(join(p, 'package.json')).version !== lock.packages[`node_modules/${n}`].version) return false;
      }
      const codeServer = resolvePackage('code-server');
      return codeServer !== undefined && existsSync(join(codeServer, 'lib', 'vscode', 'node_modules.asar'));
    } catch {
      return false;
    }
  }
  return false;
}

/** Directory of package `name` as Node resolves it from test/harness (walking up the tree). */
/** @param {string} name */
export function resolvePackage(name) {
  for (let dir = HARNESS_DIR; ; dir = dirname(dir)) {
    const p = join(dir, 'node_modules', name);
    if (existsSync(join(p, 'package.json'))) return p;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Seeds @vscode/ripgrep's download cache with Debian's rg, so its postinstall does not call GitHub. */
/** @param {string} log */
function seedRipgrepCache(log) {
  const shrinkwrap = join(HARNESS_DIR, 'node_modules', 'code-server', 'lib', 'vscode', 'npm-shrinkwrap.json');
  const version = readJson(shrinkwrap).packages['node_modules/@vscode/ripgrep']?.version;
  const release = RIPGREP_RELEASES[version];
  const rg = which('rg');
  /** @type {Partial<Record<NodeJS.Architecture, string>>} */
  const archNames = { x64: 'x86_64', arm64: 'aarch64' };
  const arch = archNames[process.arch];
  if (!release || !rg || process.platform !== 'linux' || !arch) {
    writeFileSync(log, `\nripgrep cache not seeded (ripgrep ${version}, rg ${rg}, ${process.platform}/${process.arch})\n`, { flag: 'a' });
    return;
  }
  const cache = join(process.env.TMPDIR || '/tmp', `vscode-ripgrep-cache-${version}`);
  const asset = join(cache, `ripgrep-${release}-${arch}-unknown-linux-musl.tar.gz`);
  if (existsSync(asset)) return;
  mkdirSync(cache, { recursive: true });
  const stage = mkdtempSync(join(tmpdir(), 'an-rg-'));
  try {
    copyFileSync(rg, join(stage, 'rg'));
    runLogged('chmod', ['755', join(stage, 'rg')], { log, what: 'chmod rg' });
    runLogged('tar', ['czf', asset, '-C', stage, 'rg'], { log, what: 'packing rg for @vscode/ripgrep' });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * code-server's VS Code needs `kerberos` only for Kerberos proxy authentication, but lists it as a
 * plain dependency, so a machine without the Kerberos headers fails the whole install. Marked
 * optional here (package.json and npm-shrinkwrap.json of lib/vscode), npm drops it when its build
 * fails and installs everything else.
 */
function makeKerberosOptional() {
  const dir = join(HARNESS_DIR, 'node_modules', 'code-server', 'lib', 'vscode');
  const pkgPath = join(dir, 'package.json');
  const pkg = readJson(pkgPath);
  if (pkg.dependencies?.kerberos) {
    pkg.optionalDependencies = { ...pkg.optionalDependencies, kerberos: pkg.dependencies.kerberos };
    delete pkg.dependencies.kerberos;
    writeFileSync(pkgPath, JSON.stringify(pkg, null, 2) + '\n');
  }
  const swPath = join(dir, 'npm-shrinkwrap.json');
  const sw = readJson(swPath);
  const top = sw.packages[''];
  if (top.dependencies?.kerberos) {
    top.optionalDependencies = { ...top.optionalDependencies, kerberos: top.dependencies.kerberos };
    delete top.dependencies.kerberos;
  }
  if (sw.packages['node_modules/kerberos']) sw.packages['node_modules/kerberos'].optional = true;
  writeFileSync(swPath, JSON.stringify(sw, null, 2) + '\n');
}

/** test/harness: code-server (a real VS Code 1.100 server), playwright-core, @vscode/test-electron. */
export function ensureHarness({ check = false } = {}) {
  checkGit();
  checkNode(true);
  if (harnessReady()) return 'ready';
  const needs = harnessPrerequisites();
  if (check) return `would install test/harness${needs.length ? ` after ${needs.map((n) => n.apt).join(', ')}` : ''}`;
  if (needs.length) {
    if (canApt())
      aptInstall(
        needs.map((n) => n.apt),
        'the test harness compiles code-server’s native modules',
      );
    else
      fail(
        `the test harness (code-server) needs ${needs.map((n) => n.tool).join(', ')}: install them first (Debian/Ubuntu: \`sudo apt-get install ${needs.map((n) => n.apt).join(' ')}\`).`,
      );
  }
  const t0 = Date.now();
  say('installing the test harness (code-server 4.100.3, playwright-core; compiles native modules, 1–2 minutes the first time)…');
  const log = logFile('harness');
  writeFileSync(log, '');
  rmSync(STAMP, { force: true });
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    npm_config_yes: 'true',
    npm_config_unsafe_perm: 'true',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const headers = nodeHeadersDir();
  if (headers) env.npm_config_nodedir = headers;
  // 1. packages only: no install script may run before kerberos is marked optional
  runLogged('npm', ['ci', '--ignore-scripts'], { cwd: HARNESS_DIR, env, log, what: 'npm ci in test/harness' });
  makeKerberosOptional();
  seedRipgrepCache(log);
  // 2. the install scripts: argon2's build, code-server's postinstall (its own npm install of VS Code's modules)
  runLogged('npm', ['rebuild', '--foreground-scripts'], { cwd: HARNESS_DIR, env, log, what: 'building the test harness (npm rebuild)' });
  // 3. it must start (with HOME in a temp dir: code-server writes its config there on every start)
  const home = mkdtempSync(join(tmpdir(), 'an-cs-check-'));
  try {
    const entry = join(HARNESS_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
    const r = runLogged(process.execPath, [entry, '--version'], {
      cwd: home,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd') },
      log,
      what: 'code-server --version',
    });
    if (!String(r.stdout).includes('4.100.3')) fail(`code-server did not report its version; see ${log}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const kerberos = existsSync(join(HARNESS_DIR, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules', 'kerberos', 'build'));
  writeFileSync(
    STAMP,
    JSON.stringify(
      { lockHash: sha256(join(HARNESS_DIR, 'package-lock.json')), node: process.versions.node.split('.')[0], kerberos },
      null,
      2,
    ),
  );
  say(
    `test harness installed in ${((Date.now() - t0) / 1000).toFixed(0)} s${kerberos ? '' : ' (without the optional kerberos module: no Kerberos proxy authentication inside code-server)'}`,
  );
  return 'installed';
}

/** A Chromium for the browser runners. */
export function ensureBrowser({ check = false, env = process.env } = {}) {
  const found = findChromium(env);
  if (found) return 'ready';
  if (env.CHROMIUM_PATH) fail(`CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist.`);
  if (check) return canApt(env) ? 'would install chromium with apt-get' : 'missing: install Chromium or set CHROMIUM_PATH';
  if (canApt(env)) {
    aptInstall(['chromium'], 'the in-host and browser tests drive a real workbench in Chromium');
    if (findChromium(env)) return 'installed';
  }
  fail(
    'the browser tests need Chromium: install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chrome/Chromium binary.',
  );
}

/** @typedef {'extension' | 'harness' | 'browser'} Step */
/** @param {string} s @returns {s is Step} */
const isStep = (s) => ['extension', 'harness', 'browser'].includes(s);

/**
 * Runs the named steps; exits with one line (no stack trace) when one cannot be done.
 * @param {Step[]} steps
 * @param {{ check?: boolean }} [opts]
 */
export function bootstrap(steps, { check = false } = {}) {
  const all = { extension: ensureExtension, harness: ensureHarness, browser: ensureBrowser };
  /** @type {Partial<Record<Step, string | undefined>>} */
  const results = {};
  try {
    for (const s of steps) results[s] = all[s]({ check });
  } catch (e) {
    if (!(e instanceof BootstrapError)) throw e;
    console.error(`agent-note: ${e.message}`);
    process.exit(1);
  }
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const steps = args.filter((a) => !a.startsWith('--'));
  const unknown = steps.filter((s) => !isStep(s));
  if (unknown.length) {
    console.error(`agent-note: unknown step ${unknown.join(', ')} (steps: extension, harness, browser; --check)`);
    process.exit(2);
  }
  const results = bootstrap(steps.length ? steps.filter(isStep) : ['extension'], { check });
  if (check) for (const [k, v] of Object.entries(results)) say(`${k}: ${v}`);
}
