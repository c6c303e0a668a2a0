// `npm run demo`: after `npm run package`, creates a demo repository (with sample agent sessions
// once the pipeline records them) under a temp dir with an isolated HOME, installs the packaged
// extension into code-server and serves a real editor on 127.0.0.1. Ctrl-C stops and cleans up.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, log, tempDir, prepareDirs, startCodeServer, codeServerCli, cleanup } from './harness.mjs';
import { createDemoRepository } from './demo-repo.mjs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const vsix = join(ROOT, `dist/agent-note-${pkg.version}.vsix`);
const base = tempDir('agent-note-demo-');
const dirs = prepareDirs(base, { 'workbench.colorTheme': process.env.DEMO_THEME || 'Default Dark Modern' });
const workspace = await createDemoRepository({ base, home: dirs.home });
log(codeServerCli(['--install-extension', vsix], dirs).trim().split('\n').pop());
const port = Number(process.env.PORT || 0) || undefined;
const cs = await startCodeServer({ ...dirs, port, logFile: join(base, 'code-server.log') });
const url = `${cs.url}/?folder=${encodeURIComponent(workspace)}`;
console.log(
  `\nAgent Note demo is running:\n\n  ${url}\n\nDemo repository: ${workspace}\nIsolated HOME:   ${dirs.home}\nPress Ctrl-C to stop (the temp dir is removed).\n`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cs.stop();
  cleanup(base);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
if (process.env.DEMO_EXIT_AFTER_MS) setTimeout(stop, Number(process.env.DEMO_EXIT_AFTER_MS));
