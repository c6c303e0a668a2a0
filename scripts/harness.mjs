// Shared helpers for the in-host and e2e runners and the demo: git fixtures, code-server lifecycle
// (a real VS Code 1.100 server with the built-in git extension), headless Debian Chromium through
// playwright-core. Everything runs offline, with HOME/XDG_* isolated in a temp dir.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import net from 'node:net';
import { HARNESS_DIR, findChromium } from './bootstrap.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// the harness packages live in test/harness (own package.json and lockfile; scripts/bootstrap.mjs installs them)
// (resolved when first used, so that importing this module never fails before the install)
export const harnessRequire = createRequire(join(HARNESS_DIR, 'package.json'));
let codeServerEntry;
function codeServer() {
  try {
    codeServerEntry ??= join(dirname(harnessRequire.resolve('code-server/package.json')), 'out/node/entry.js');
  } catch {
    throw new Error('the test harness is not installed: run `node scripts/bootstrap.mjs harness` (npm test and npm run demo do)');
  }
  return codeServerEntry;
}
const t0 = Date.now();
/** @param {...unknown} a */
export const log = (...a) => console.log(`[harness +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

/** @param {string} prefix */
export function tempDir(prefix) {
  return mkdtempSync(join(process.env.VSH_TMP || tmpdir(), prefix));
}

/**
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} [env]
 */
export function gitIn(dir, env = {}) {
  return /** @param {...string} args */ (...args) =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=Ann Dev',
        '-c',
        'user.email=ann@example.com',
        '-c',
        'init.defaultBranch=main',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      {
        cwd: dir,
        stdio: 'pipe',
        encoding: 'utf8',
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', ...env },
      },
    );
}

/** A throwaway git repo on branch main with one commit. */
/** @param {string} dir */
export function makeGitFixture(dir) {
  mkdirSync(dir, { recursive: true });
  const git = gitIn(dir);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# fixture\n');
  git('add', '.');
  git('commit', '-q', '-m', 'initial');
  return dir;
}

export async function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const p = /** @type {import('node:net').AddressInfo} */ (s.address()).port;
      s.close(() => res(p));
    });
  });
}

export const SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.autofetch': false,
  'git.openRepositoryInParentFolders': 'never',
  'chat.disableAIFeatures': true,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
};

/** Runs code-server's CLI synchronously (e.g. --install-extension). */
/**
 * @param {string[]} args
 * @param {{ userDataDir: string, extensionsDir: string, env?: NodeJS.ProcessEnv }} dirs
 */
export function codeServerCli(args, { userDataDir, extensionsDir, env }) {
  return execFileSync(process.execPath, [codeServer(), '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, ...args], {
    encoding: 'utf8',
    stdio: 'pipe',
    env: { ...process.env, ...env },
  });
}

/** Keeps code-server/Chromium (and the extension under test) from touching the real home directory. */
/** @param {string} base */
export function isolatedEnv(base) {
  const home = join(base, 'home');
  for (const d of ['config', 'data', 'cache', 'state', 'run']) mkdirSync(join(home, d), { recursive: true, mode: 0o700 });
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_RUNTIME_DIR: join(home, 'run'),
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

/**
 * @param {string} base
 * @param {Record<string, unknown>} [extraSettings]
 */
export function prepareDirs(base, extraSettings = {}) {
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...SETTINGS, ...extraSettings }, null, 2));
  const env = { ...isolatedEnv(base), EXTENSIONS_GALLERY: '{}' };
  // git identity for commits made inside the editor (SCM view, terminals, tests)
  writeFileSync(
    join(env.HOME, '.gitconfig'),
    '[user]\n\tname = Ann Dev\n\temail = ann@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n',
  );
  return { userDataDir, extensionsDir, env, home: env.HOME };
}

/**
 * Starts code-server on 127.0.0.1:<free port> (or `port`), resolves when /healthz answers.
 * @param {{
 *   userDataDir: string, extensionsDir: string, env?: Record<string, string>, extraEnv?: Record<string, string>,
 *   logFile?: string, port?: number,
 * }} opts
 */
export async function startCodeServer({ userDataDir, extensionsDir, env = {}, extraEnv = {}, logFile, port: wantedPort }) {
  const port = wantedPort || (await freePort());
  const args = [
    codeServer(),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--log',
    process.env.VSH_CS_LOG || 'info',
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group so the whole tree can be killed
  });
  let output = '';
  /** @param {Buffer} d */
  const onData = (d) => {
    output += d;
    if (process.env.VSH_VERBOSE) process.stdout.write(`[code-server] ${d}`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited early (${child.exitCode}):\n${output}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      // not listening yet: try again until the deadline
    }
    if (Date.now() > deadline) throw new Error(`code-server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    url,
    child,
    output: () => output,
    async stop() {
      if (logFile) writeFileSync(logFile, output);
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      } catch {
        // the process group is already gone
      }
      await /** @type {Promise<void>} */ (
        new Promise((r) => {
          if (child.exitCode !== null) r();
          else {
            child.once('exit', () => r());
            setTimeout(r, 5000);
          }
        })
      );
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // it exited after SIGTERM: nothing left to kill
      }
    },
  };
}

/** Headless Debian Chromium; playwright gives it a fresh temporary profile per launch. */
/** @param {string} base */
export async function launchChromium(base) {
  const { chromium } = harnessRequire('playwright-core');
  return chromium.launch({
    executablePath: findChromium() ?? '/usr/bin/chromium',
    headless: true,
    env: { ...process.env, ...isolatedEnv(base) },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** @param {string} dir */
export function cleanup(dir) {
  if (!process.env.VSH_KEEP) rmSync(dir, { recursive: true, force: true });
}
