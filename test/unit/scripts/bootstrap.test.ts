import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

// scripts/bootstrap.mjs runs before any dependency is installed; here its detection is checked with
// PATHs that lack (or have) the tools, so a machine without Chromium gets the install or the message.
interface Bootstrap {
  which(name: string, path?: string): string | undefined;
  findChromium(env?: Record<string, string | undefined>): string | undefined;
  ensureBrowser(opts: { check: boolean; env: Record<string, string | undefined> }): string;
}
const load = (): Promise<Bootstrap> => import(pathToFileURL(path.resolve('scripts/bootstrap.mjs')).href) as Promise<Bootstrap>;

describe('scripts/bootstrap.mjs (what npm test and npm run demo install)', () => {
  let dir: string;
  const exe = (name: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    return p;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'an-bootstrap-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds no Chromium on a PATH without one, and says what to install', async () => {
    const b = await load();
    const env = { PATH: dir, AGENT_NOTE_NO_APT: '1' };
    assert.equal(b.findChromium(env), undefined);
    assert.match(b.ensureBrowser({ check: true, env }), /install Chromium or set CHROMIUM_PATH/);
  });

  it('would install Chromium with apt-get when running as root on Debian', async function () {
    if (process.getuid?.() !== 0) this.skip();
    const b = await load();
    for (const tool of ['apt-get', 'dpkg']) exe(tool);
    assert.equal(b.ensureBrowser({ check: true, env: { PATH: dir } }), 'would install chromium with apt-get');
    assert.match(b.ensureBrowser({ check: true, env: { PATH: dir, AGENT_NOTE_NO_APT: '1' } }), /install Chromium/);
  });

  it('finds chromium, chromium-browser or Chrome on PATH, and CHROMIUM_PATH first', async () => {
    const b = await load();
    const chrome = exe('google-chrome');
    assert.equal(b.findChromium({ PATH: dir }), chrome);
    const chromium = exe('chromium');
    assert.equal(b.findChromium({ PATH: dir }), chromium);
    assert.equal(b.findChromium({ PATH: dir, CHROMIUM_PATH: chrome }), chrome);
    assert.equal(b.findChromium({ PATH: dir, CHROMIUM_PATH: path.join(dir, 'nope') }), undefined);
    assert.equal(b.ensureBrowser({ check: true, env: { PATH: dir } }), 'ready');
  });

  it('which() skips directories and files that are not executable', async () => {
    const b = await load();
    fs.mkdirSync(path.join(dir, 'rg'));
    fs.writeFileSync(path.join(dir, 'make'), 'x', { mode: 0o644 });
    assert.equal(b.which('rg', dir), undefined);
    assert.equal(b.which('make', dir), undefined);
    assert.equal(b.which('git', `${dir}${path.delimiter}${path.dirname(exe('git'))}`), path.join(dir, 'git'));
  });
});
