import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TranscriptDiscovery, type DiscoveryOptions } from '../../../src/node/transcripts/transcriptDiscovery';
import { codeWorkspaceFolders, fileUriPath, stripJsonComments } from '../../../src/node/transcripts/workspaceStorageFolders';
import { detectAgentHomes } from '../../../src/node/transcripts/agentDetection';
import { makeTempDir, writeFile } from './tempFiles';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Copilot Chat's sessions: `<User>/workspaceStorage/<id>/chatSessions/`, owned through `workspace.json` (docs/transcripts.md §11.1). */
describe('Copilot Chat discovery (workspaceStorage/*/chatSessions)', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let home: string;
  let repo: string;
  let user: string;
  let wsRoot: string;
  beforeEach(() => {
    tmp = makeTempDir('copilot-discovery');
    home = path.join(tmp.dir, 'home');
    repo = path.join(tmp.dir, 'work', 'proj');
    fs.mkdirSync(path.join(repo, 'sub'), { recursive: true });
    user = path.join(home, '.config', 'Code', 'User');
    wsRoot = path.join(user, 'workspaceStorage');
  });
  afterEach(() => tmp.cleanup());

  function discover(extra: Partial<DiscoveryOptions> = {}) {
    return new TranscriptDiscovery(
      { root: repo },
      {
        homeDir: home,
        env: {},
        platform: 'linux',
        enabledAgents: ['copilot'],
        clock: { now: () => NOW },
        caseInsensitive: false,
        ...extra,
      },
    ).scan();
  }
  const folderJson = (folder: string) => JSON.stringify({ folder: pathToFileURL(folder).href });
  const session = (ws: string, name: string, mtime = NOW - HOUR) =>
    writeFile(path.join(wsRoot, ws, 'chatSessions', name), '{"kind":0,"v":{"requests":[]}}\n', mtime);

  it('takes the workspaces whose folder is the repository or inside it, this window’s own, and prefers .jsonl over .json', async () => {
    writeFile(path.join(wsRoot, 'aaa', 'workspace.json'), folderJson(repo));
    const a1 = session('aaa', 's1.jsonl');
    session('aaa', 's1.json');
    const a2 = session('aaa', 's2.json');
    session('aaa', 'old.jsonl', NOW - 8 * DAY);
    writeFile(path.join(wsRoot, 'aaa', 'chatSessions', 'notes.txt'), 'x');
    writeFile(path.join(wsRoot, 'sub', 'workspace.json'), folderJson(path.join(repo, 'sub')));
    const s1 = session('sub', 'x.jsonl');
    // another project, a parent folder of the repository, a lookalike and a remote window
    writeFile(path.join(wsRoot, 'other', 'workspace.json'), folderJson(path.join(tmp.dir, 'elsewhere')));
    session('other', 'o.jsonl');
    writeFile(path.join(wsRoot, 'parent', 'workspace.json'), folderJson(path.join(tmp.dir, 'work')));
    session('parent', 'p.jsonl');
    writeFile(path.join(wsRoot, 'look', 'workspace.json'), folderJson(`${repo}-old`));
    session('look', 'l.jsonl');
    writeFile(path.join(wsRoot, 'remote', 'workspace.json'), JSON.stringify({ folder: `vscode-remote://ssh-remote+h${repo}` }));
    session('remote', 'r.jsonl');
    writeFile(path.join(wsRoot, 'broken', 'workspace.json'), '{not json');
    session('broken', 'b.jsonl');
    // this window (an empty-workspace or untitled window has no useful workspace.json): always ours
    const own = path.join(wsRoot, 'own');
    const o1 = session('own', 'mine.json');
    const r = await discover({ editorStorage: { userDir: user, workspaceStorageDir: own } });
    assert.deepEqual(r.transcripts.map((t) => t.filePath).sort(), [a1, a2, s1, o1].sort());
    const byPath = new Map(r.transcripts.map((t) => [t.filePath, t]));
    assert.deepEqual([byPath.get(a1)?.sessionIdHint, byPath.get(a1)?.format, byPath.get(a1)?.cwdHint], ['s1', 'jsonl', repo]);
    assert.equal(byPath.get(a2)?.format, 'json');
    assert.equal(byPath.get(s1)?.cwdHint, path.join(repo, 'sub'));
    assert.equal(byPath.get(o1)?.cwdHint, repo);
    assert.ok(r.watchDirs.includes(wsRoot), 'new workspaces');
    assert.ok(r.watchDirs.includes(path.join(wsRoot, 'aaa', 'chatSessions')));
    assert.ok(r.watchDirs.includes(path.join(own, 'chatSessions')));
    assert.ok(!r.watchDirs.includes(path.join(wsRoot, 'other', 'chatSessions')));
    assert.equal(r.stats.otherWorkspaces, 5);
  });

  it('watches this window’s chatSessions before its first session, and finds it on the next scan', async () => {
    const own = path.join(wsRoot, 'own');
    fs.mkdirSync(own, { recursive: true });
    const d = new TranscriptDiscovery(
      { root: repo },
      {
        homeDir: home,
        env: {},
        platform: 'linux',
        enabledAgents: ['copilot'],
        clock: { now: () => NOW },
        editorStorage: { workspaceStorageDir: own },
      },
    );
    const first = await d.scan();
    assert.deepEqual(first.transcripts, []);
    assert.ok(first.watchDirs.includes(path.join(own, 'chatSessions')));
    const s = session('own', 'new.jsonl');
    assert.deepEqual(
      (await d.scan()).transcripts.map((t) => t.filePath),
      [s],
    );
  });

  it('reads a multi-root window’s .code-workspace folders (comments, trailing commas, relative paths, URIs)', async () => {
    const wsFile = writeFile(
      path.join(tmp.dir, 'work', 'both.code-workspace'),
      `{
  // two folders
  "folders": [
    { "path": "proj" }, /* ours */
    { "uri": "${pathToFileURL(path.join(tmp.dir, 'x')).href}" },
  ],
  "settings": { "a": "// not a comment" },
}`,
    );
    writeFile(path.join(wsRoot, 'multi', 'workspace.json'), JSON.stringify({ workspace: pathToFileURL(wsFile).href }));
    const m = session('multi', 'm.jsonl');
    writeFile(
      path.join(wsRoot, 'gone', 'workspace.json'),
      JSON.stringify({ workspace: pathToFileURL(path.join(tmp.dir, 'missing.code-workspace')).href }),
    );
    session('gone', 'g.jsonl');
    const r = await discover();
    assert.deepEqual(
      r.transcripts.map((t) => [t.filePath, t.cwdHint]),
      [[m, repo]],
    );
    assert.deepEqual(codeWorkspaceFolders(fs.readFileSync(wsFile, 'utf8'), wsFile), [repo, path.join(tmp.dir, 'x')]);
    assert.equal(JSON.parse(stripJsonComments('{"a": "x // y", /* c */ "b": [1,],}')).a, 'x // y');
    assert.equal(fileUriPath('file:///c%3A/Users/a%20b'), 'C:\\Users\\a b');
    assert.equal(fileUriPath('vscode-remote://x/y'), undefined);
  });

  it('is found by Show Status only when an editor workspace has a chatSessions folder', async () => {
    const env = { XDG_CONFIG_HOME: path.join(home, '.config') };
    const copilot = async () => (await detectAgentHomes({ homeDir: home, env })).find((a) => a.agent === 'copilot')!;
    fs.mkdirSync(path.join(wsRoot, 'aaa'), { recursive: true });
    assert.equal((await copilot()).found, false);
    session('aaa', 's.jsonl');
    const found = await copilot();
    assert.equal(found.found, true);
    assert.equal(found.dirs[0].dir, wsRoot);
    assert.equal(found.source, 'editor');
  });
});
