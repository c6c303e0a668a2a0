import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TranscriptDiscovery, type DiscoveryOptions } from '../../../src/node/transcripts/transcriptDiscovery';
import { TranscriptTailer } from '../../../src/node/transcripts/transcriptTailer';
import { MemoryOffsetStore } from '../../../src/node/transcripts/offsetStore';
import type { AgentEvent } from '../../../src/core/model/agentEvents';
import { makeTempDir, writeFile } from './tempFiles';

const NOW = Date.parse('2026-10-05T12:00:00.000Z');

const task = (cwd: string, text = 'do it') =>
  JSON.stringify([
    {
      role: 'user',
      content: [
        { type: 'text', text: `<task>\n${text}\n</task>` },
        { type: 'text', text: `<environment_details>\n# Current Working Directory (${cwd}) Files\na.ts\n</environment_details>` },
      ],
    },
  ]);

describe('discovery of Cline-family task folders and the Aider history (docs/transcripts.md §6.7, §7.1, §10.1)', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let home: string;
  let user: string;
  let repo: string;
  beforeEach(() => {
    tmp = makeTempDir('editor-discovery');
    home = path.join(tmp.dir, 'home');
    user = path.join(tmp.dir, 'editor', 'User');
    repo = path.join(tmp.dir, 'work', 'proj');
    fs.mkdirSync(path.join(repo, 'sub'), { recursive: true });
  });
  afterEach(() => tmp.cleanup());

  const discover = (extra: Partial<DiscoveryOptions> = {}) =>
    new TranscriptDiscovery(
      { root: repo },
      {
        homeDir: home,
        env: {},
        platform: 'linux',
        editorStorage: { userDir: user },
        clock: { now: () => NOW },
        caseInsensitive: false,
        ...extra,
      },
    ).scan();
  const tasks = (u: string, ext: string) => path.join(u, 'globalStorage', ext, 'tasks');

  it('keeps tasks whose working directory is the repository or inside it, from every editor folder and a moved Roo storage', async () => {
    const mine = writeFile(
      path.join(tasks(user, 'saoudrizwan.claude-dev'), '1769064454592', 'api_conversation_history.json'),
      task(repo),
      NOW,
    );
    const sub = writeFile(
      path.join(tasks(user, 'saoudrizwan.claude-dev'), '1769064454593', 'api_conversation_history.json'),
      task(path.join(repo, 'sub')),
      NOW,
    );
    writeFile(
      path.join(tasks(user, 'saoudrizwan.claude-dev'), '1769064454594', 'api_conversation_history.json'),
      task(path.join(tmp.dir, 'work', 'other')),
      NOW,
    );
    writeFile(
      path.join(tasks(user, 'saoudrizwan.claude-dev'), '1769064454595', 'api_conversation_history.json'),
      task(repo),
      NOW - 30 * 86_400_000,
    );
    // a parent folder (multi-folder workspace): owned only when a path inside the repository shows up
    const parentHit = writeFile(
      path.join(tasks(user, 'saoudrizwan.claude-dev'), '1769064454596', 'api_conversation_history.json'),
      task(path.join(tmp.dir, 'work'), `edit ${path.join(repo, 'a.ts')}`),
      NOW,
    );
    writeFile(
      path.join(tasks(user, 'saoudrizwan.claude-dev'), '1769064454597', 'api_conversation_history.json'),
      task(path.join(tmp.dir, 'work')),
      NOW,
    );
    const codium = path.join(home, '.config', 'VSCodium', 'User');
    const kilo = writeFile(path.join(tasks(codium, 'kilocode.kilo-code'), 'k1', 'api_conversation_history.json'), task(repo), NOW);
    const rooStore = path.join(tmp.dir, 'roo-store');
    const roo = writeFile(
      path.join(rooStore, 'tasks', '6f1c0a4e-0000-4000-8000-000000000001', 'api_conversation_history.json'),
      task(repo),
      NOW,
    );
    fs.mkdirSync(path.join(rooStore, 'tasks', '6f1c0a4e-0000-4000-8000-000000000002'), { recursive: true });
    const r = await discover({ editorStorage: { userDir: user, customStoragePaths: { 'roo-cline.customStoragePath': rooStore } } });
    assert.deepEqual(
      r.transcripts.map((t) => [t.agent, t.filePath, t.sessionIdHint, t.format]).sort(),
      [
        ['cline', mine, '1769064454592', 'json'],
        ['cline', sub, '1769064454593', 'json'],
        ['cline', parentHit, '1769064454596', 'json'],
        ['kilo', kilo, 'k1', 'json'],
        ['roo', roo, '6f1c0a4e-0000-4000-8000-000000000001', 'json'],
      ].sort(),
    );
    assert.equal(r.transcripts.find((t) => t.filePath === mine)?.cwdHint, repo);
    // watched: the storage folders that exist, and a new task folder still waiting for its history
    assert.ok(r.watchDirs.includes(tasks(user, 'saoudrizwan.claude-dev')));
    assert.ok(r.watchDirs.includes(path.join(rooStore, 'tasks', '6f1c0a4e-0000-4000-8000-000000000002')));
    assert.ok(!r.watchDirs.some((d) => d.includes('Code - Insiders')), 'editor folders that do not exist are not watched');
  });

  it('watches an installed extension without tasks, does not follow a symlinked task out of its storage', async () => {
    fs.mkdirSync(path.join(user, 'globalStorage', 'saoudrizwan.claude-dev'), { recursive: true });
    let r = await discover({ enabledAgents: ['cline'] });
    assert.deepEqual(r.watchDirs, [path.join(user, 'globalStorage', 'saoudrizwan.claude-dev')]);
    const outside = writeFile(path.join(tmp.dir, 'elsewhere', '1', 'api_conversation_history.json'), task(repo), NOW);
    fs.mkdirSync(tasks(user, 'saoudrizwan.claude-dev'));
    fs.symlinkSync(path.dirname(outside), path.join(tasks(user, 'saoudrizwan.claude-dev'), '1'));
    r = await discover({ enabledAgents: ['cline'] });
    assert.deepEqual(r.transcripts, []);
    assert.equal(r.stats.symlinkEscapes, 1);
  });

  it('finds the Aider history at the work tree root, also when it appears after the first scan', async () => {
    const d = new TranscriptDiscovery(
      { root: repo },
      { homeDir: home, env: {}, enabledAgents: ['aider'], clock: { now: () => NOW }, caseInsensitive: false },
    );
    let r = await d.scan();
    assert.deepEqual(r.transcripts, []);
    assert.deepEqual(r.watchDirs, [repo]);
    const file = writeFile(path.join(repo, '.aider.chat.history.md'), '\n# aider chat started at 2026-10-05 12:00:00\n', NOW);
    r = await d.scan();
    assert.deepEqual(
      r.transcripts.map((t) => [t.agent, t.filePath, t.cwdHint, t.format]),
      [['aider', file, repo, 'txt']],
    );
    // one that leads out of the repository is not read
    fs.rmSync(file);
    const outside = writeFile(path.join(tmp.dir, 'other.md'), '# aider chat started at 2026-10-05 12:00:00\n', NOW);
    fs.symlinkSync(outside, file);
    r = await new TranscriptDiscovery(
      { root: repo },
      { homeDir: home, env: {}, enabledAgents: ['aider'], clock: { now: () => NOW } },
    ).scan();
    assert.deepEqual(r.transcripts, []);
    assert.equal(r.stats.symlinkEscapes, 1);
  });

  it('tails a task history rewritten in place: only the events of each change, none again after a restart', async () => {
    const file = path.join(user, 'globalStorage', 'saoudrizwan.claude-dev', 'tasks', '1700000000000', 'api_conversation_history.json');
    const msgs: unknown[] = JSON.parse(task(repo, 'Add b')) as unknown[];
    writeFile(file, JSON.stringify(msgs));
    const got: AgentEvent[] = [];
    const offsetStore = new MemoryOffsetStore();
    const tailer = (into: AgentEvent[]) =>
      new TranscriptTailer({
        agent: 'cline',
        filePath: file,
        offsetStore,
        onEvents: (events) => void into.push(...events.map((e) => e.event)),
        useFsWatch: false,
        pollIntervalMs: 0,
      });
    const t = tailer(got);
    await t.start();
    assert.deepEqual(
      got.filter((e) => e.kind === 'prompt').map((e) => (e as { text: string }).text),
      ['Add b'],
    );
    msgs.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'tu1', name: 'write_to_file', input: { absolutePath: path.join(repo, 'b.ts'), content: 'b\n' } }],
    });
    msgs.push({
      role: 'user',
      content: [
        { type: 'text', text: `[write_to_file for '${path.join(repo, 'b.ts')}'] Result:\nThe content was successfully saved to b.ts.` },
      ],
    });
    fs.writeFileSync(file, JSON.stringify(msgs));
    fs.utimesSync(file, new Date(NOW), new Date(NOW + 5000));
    got.length = 0;
    await t.readNow();
    assert.deepEqual(
      got.map((e) => e.kind),
      ['edit'],
    );
    got.length = 0;
    await t.readNow();
    assert.deepEqual(got, []);
    t.dispose();
    const again: AgentEvent[] = [];
    const t2 = tailer(again);
    await t2.start();
    assert.deepEqual(
      again.filter((e) => e.kind !== 'session'),
      [],
    );
    t2.dispose();
  });
});
