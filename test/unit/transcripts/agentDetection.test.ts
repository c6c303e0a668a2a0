import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { detectAgentHomes } from '../../../src/node/transcripts/agentDetection';

describe('detectAgentHomes (Show Status, Report Issue)', () => {
  let home: string;
  beforeEach(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), 'an-detect-'))));
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('says which agents have a transcript directory, from the home, the environment or an extra root', async () => {
    fs.mkdirSync(path.join(home, '.claude', 'projects'), { recursive: true });
    const codexHome = path.join(home, 'codex-home');
    fs.mkdirSync(path.join(codexHome, 'sessions'), { recursive: true });
    const extra = path.join(home, 'synced');
    fs.mkdirSync(path.join(extra, 'tmp'), { recursive: true });
    fs.writeFileSync(path.join(home, '.cursor'), 'a file, not a directory');
    const r = await detectAgentHomes({ homeDir: home, env: { CODEX_HOME: codexHome }, extraRoots: [extra] });
    const by = Object.fromEntries(r.map((x) => [x.agent, x]));
    assert.deepEqual(
      r.map((x) => x.agent),
      ['claude', 'cursor', 'codex', 'gemini', 'copilot', 'cline', 'roo', 'kilo', 'aider'],
    );
    assert.equal(by.copilot.found, false, 'no editor workspace with chat sessions in this home');
    assert.equal(by.claude.found, true);
    assert.equal(by.claude.source, 'default');
    assert.equal(by.cursor.found, false);
    assert.equal(by.codex.found, true);
    assert.equal(by.codex.source, 'env');
    assert.equal(by.gemini.found, true);
    assert.equal(by.gemini.source, 'extra');
    assert.equal(by.gemini.dirs[0].dir, path.join(extra, 'tmp'));
    assert.equal(by.gemini.dirs[0].exists, true);
    assert.equal(by.cline.found, false);
    assert.equal(by.aider.found, false);
  });

  it('finds editor agents in any editor user folder or their moved storage, and Aider by its file in a repository', async () => {
    const user = path.join(home, 'this-editor', 'User');
    fs.mkdirSync(path.join(user, 'globalStorage', 'saoudrizwan.claude-dev', 'tasks'), { recursive: true });
    fs.mkdirSync(path.join(home, '.config', 'VSCodium', 'User', 'globalStorage', 'kilocode.kilo-code', 'tasks'), { recursive: true });
    const roo = path.join(home, 'roo-store');
    fs.mkdirSync(path.join(roo, 'tasks'), { recursive: true });
    const repo = path.join(home, 'repo');
    fs.mkdirSync(repo);
    fs.writeFileSync(path.join(repo, '.aider.chat.history.md'), '# aider chat started at 2026-12-07 10:00:00\n');
    const r = await detectAgentHomes({
      homeDir: home,
      env: {},
      platform: 'linux',
      editorStorage: { userDir: user, customStoragePaths: { 'roo-cline.customStoragePath': roo } },
      repoRoots: [repo, path.join(home, 'no-aider')],
    });
    const by = Object.fromEntries(r.map((x) => [x.agent, x]));
    assert.deepEqual([by.cline.found, by.cline.source], [true, 'editor']);
    assert.equal(by.cline.dirs[0].dir, path.join(user, 'globalStorage', 'saoudrizwan.claude-dev', 'tasks'));
    // only existing folders and the running editor's are listed, not every flavour's
    assert.ok(by.cline.dirs.length <= 2, JSON.stringify(by.cline.dirs));
    assert.deepEqual([by.roo.found, by.roo.source], [true, 'setting']);
    assert.deepEqual([by.kilo.found, by.kilo.source], [true, 'editor']);
    assert.deepEqual([by.aider.found, by.aider.source, by.aider.dirs[0].dir], [true, 'repository', repo]);
  });
});
