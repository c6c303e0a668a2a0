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
      ['claude', 'cursor', 'codex', 'gemini', 'copilot'],
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
  });
});
