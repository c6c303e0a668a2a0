// `npm run demo`: installs what is missing (scripts/bootstrap.mjs), builds and packages the extension,
// creates a demo repository whose notes the real recording pipeline wrote (with sample agent sessions
// in an isolated HOME), installs the .vsix into code-server and serves a real editor on 127.0.0.1,
// and opens it in your browser when there is a display. Ctrl-C stops it and removes the temp dir.
//
//   npm run demo                      code-server (VS Code 1.100 in the browser)
//   npm run demo -- --desktop         your VS Code (`code`) or Cursor (`cursor`), with an isolated profile
//   npm run demo -- --desktop=cursor  pick one
//   npm run demo -- --no-open         do not open a browser, only print the URL
//   PORT=8080 npm run demo            a fixed port
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap, which, ROOT } from './bootstrap.mjs';

const args = process.argv.slice(2);
const desktopArg = args.find((a) => a === '--desktop' || a.startsWith('--desktop='));
const noOpen = args.includes('--no-open') || !!process.env.DEMO_EXIT_AFTER_MS;

/** `code` or `cursor` on PATH (or the one asked for). */
function desktopEditor() {
  const wanted = desktopArg?.includes('=') ? [desktopArg.split('=')[1]] : ['code', 'cursor', 'code-insiders'];
  for (const name of wanted) {
    const p = which(name);
    if (p) return { name, path: p };
  }
  console.error(
    `agent-note: --desktop needs ${wanted.map((n) => `\`${n}\``).join(' or ')} on PATH (VS Code: "Shell Command: Install 'code' command in PATH"; Cursor: "Install 'cursor' command"); without --desktop the demo runs in code-server.`,
  );
  process.exit(1);
}

const editor = desktopArg ? desktopEditor() : undefined;
bootstrap(editor ? ['extension'] : ['extension', 'harness']);

/** @param {...string} a */
const npm = (...a) => {
  const r = spawnSync('npm', a, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
npm('run', '-s', 'package');

const { log, tempDir, prepareDirs, cleanup } = await import('./harness.mjs');
const { createDemoRepository } = await import('./demo-repo.mjs');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const vsix = join(ROOT, `dist/agent-note-${pkg.version}.vsix`);
const base = tempDir('agent-note-demo-');
const dirs = prepareDirs(base, { 'workbench.colorTheme': process.env.DEMO_THEME || 'Default Dark Modern' });
const workspace = await createDemoRepository({ base, home: dirs.home });

let stopServer = async () => {};
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await stopServer();
  cleanup(base);
  process.exit(0);
};
// for callbacks that ignore the returned promise: a failed stop still ends the process, with the error
// (as an unhandled rejection would)
const stopNow = () => {
  stop().catch((e) => {
    console.error('agent-note: stopping the demo failed:', e);
    process.exit(1);
  });
};
process.on('SIGINT', stopNow);
process.on('SIGTERM', stopNow);

if (editor) {
  // the user's own editor with a profile of its own: no settings, extensions or agent transcripts of theirs
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, ...dirs.env };
  for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_DIR', 'VSCODE_IPC_HOOK_CLI', 'ELECTRON_RUN_AS_NODE']) delete env[k];
  const profile = ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
  const install = spawnSync(editor.path, [...profile, '--install-extension', vsix, '--force'], { env, encoding: 'utf8' });
  if (install.status !== 0) {
    console.error(`agent-note: ${editor.name} --install-extension failed:\n${install.stderr || install.stdout}`);
    await stop();
  }
  spawn(editor.path, [...profile, '--new-window', '--disable-workspace-trust', workspace], {
    env,
    stdio: 'ignore',
    detached: true,
  }).unref();
  writeFileSync(join(base, 'README.txt'), `Agent Note demo profile for ${editor.name}; removed when npm run demo stops.\n`);
  console.log(
    `\nAgent Note demo opened in ${editor.name} with an isolated profile:\n\n  Demo repository: ${workspace}\n  Profile:         ${dirs.userDataDir}\n  Isolated HOME:   ${dirs.home}\n\nClose that window, then press Ctrl-C here (the temp dir is removed).\n`,
  );
} else {
  const { startCodeServer, codeServerCli } = await import('./harness.mjs');
  log(codeServerCli(['--install-extension', vsix], dirs).trim().split('\n').pop());
  const port = Number(process.env.PORT || 0) || undefined;
  const cs = await startCodeServer({ ...dirs, port, logFile: join(base, 'code-server.log') });
  stopServer = () => cs.stop();
  const url = `${cs.url}/?folder=${encodeURIComponent(workspace)}`;
  console.log(
    `\nAgent Note demo is running:\n\n  ${url}\n\nDemo repository: ${workspace}\nIsolated HOME:   ${dirs.home}\nPress Ctrl-C to stop (the temp dir is removed).\n`,
  );
  if (!noOpen) openBrowser(url);
}
if (process.env.DEMO_EXIT_AFTER_MS) setTimeout(stopNow, Number(process.env.DEMO_EXIT_AFTER_MS));

/** Opens `url` in the user's browser when there is one to open ($BROWSER, xdg-open, open). */
/** @param {string} url */
function openBrowser(url) {
  const display = process.platform === 'darwin' || process.platform === 'win32' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY;
  const opener = process.env.BROWSER || (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open');
  if (!display && !process.env.BROWSER) return;
  if (!which(opener) && !process.env.BROWSER) return;
  try {
    spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
  } catch {
    /* the URL is printed above */
  }
}
