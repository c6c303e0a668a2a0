import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SessionModel } from '../../../src/core/session/sessionModel';
import { claudeProjectDirName, cursorProjectSlug } from '../../../src/core/transcripts/projectSlugs';
import { MemoryOffsetStore } from '../../../src/node/transcripts/offsetStore';
import type { TailedEvent } from '../../../src/node/transcripts/transcriptTailer';
import { TranscriptWatcher, type TranscriptWatcherOptions } from '../../../src/node/transcripts/transcriptWatcher';
import { jsonl, makeTempDir, waitFor, writeFile } from './tempFiles';

describe('TranscriptWatcher', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let home: string;
  let repo: string;
  let watchers: TranscriptWatcher[];
  beforeEach(() => {
    tmp = makeTempDir('watcher');
    home = path.join(tmp.dir, 'home');
    repo = path.join(tmp.dir, 'proj');
    fs.mkdirSync(repo, { recursive: true });
    watchers = [];
  });
  afterEach(() => {
    for (const w of watchers) w.dispose();
    tmp.cleanup();
  });

  const claudeUser = (sid: string, uuid: string, text: string) => ({
    type: 'user',
    uuid,
    sessionId: sid,
    timestamp: new Date().toISOString(),
    cwd: repo,
    message: { role: 'user', content: text },
  });

  function watcher(extra: Partial<TranscriptWatcherOptions> = {}): { w: TranscriptWatcher; events: TailedEvent[] } {
    const w = new TranscriptWatcher({
      repo: { root: repo },
      discovery: { homeDir: home, env: {} },
      rescanIntervalMs: 0,
      rescanDebounceMs: 50,
      debounceMs: 20,
      pollIntervalMs: 0,
      ...extra,
    });
    watchers.push(w);
    const events: TailedEvent[] = [];
    w.onEvents((b) => events.push(...b));
    return { w, events };
  }

  const prompts = (events: TailedEvent[]) => events.flatMap((e) => (e.event.kind === 'prompt' ? [e.event.text] : []));

  it('tails existing sessions and picks up a new session and appended lines without a restart (directory events)', async () => {
    const dir = path.join(home, '.claude', 'projects', claudeProjectDirName(repo).name);
    const s1 = writeFile(
      path.join(dir, 'aaaaaaaa-0000-4000-8000-000000000001.jsonl'),
      jsonl([claudeUser('aaaaaaaa-0000-4000-8000-000000000001', 'u1', 'first')]),
    );
    const { w, events } = watcher();
    await w.start();
    assert.deepEqual(prompts(events), ['first']);
    assert.deepEqual(w.tailedFiles, [s1]);

    const s2 = path.join(dir, 'aaaaaaaa-0000-4000-8000-000000000002.jsonl');
    writeFile(s2, jsonl([claudeUser('aaaaaaaa-0000-4000-8000-000000000002', 'v1', 'second session')]));
    await waitFor(() => prompts(events).includes('second session'), 2000, 'the new session');
    fs.appendFileSync(s2, jsonl([claudeUser('aaaaaaaa-0000-4000-8000-000000000002', 'v2', 'more')]));
    await waitFor(() => prompts(events).includes('more'), 1000, 'appended line');
    assert.deepEqual([...w.tailedFiles].sort(), [s1, s2]);
    assert.deepEqual(
      events.filter((e) => e.event.kind === 'prompt').map((e) => e.source.filePath),
      [s1, s2, s2],
    );
  });

  it('does not rescan the agent directories when a tailed transcript only grows', async () => {
    const dir = path.join(home, '.claude', 'projects', claudeProjectDirName(repo).name);
    const sid = 'aaaaaaaa-0000-4000-8000-000000000003';
    const s1 = writeFile(path.join(dir, `${sid}.jsonl`), jsonl([claudeUser(sid, 'u1', 'first')]));
    const { w, events } = watcher();
    await w.start();
    const discovery = w.lastDiscovery;
    for (let i = 2; i <= 4; i++) {
      fs.appendFileSync(s1, jsonl([claudeUser(sid, `u${i}`, `turn ${i}`)]));
      await waitFor(() => prompts(events).includes(`turn ${i}`), 1000, `append ${i}`);
    }
    await new Promise((r) => setTimeout(r, 150)); // past the 50 ms rescan debounce
    assert.equal(w.lastDiscovery, discovery, 'no rescan after appends');
    assert.ok(w.counters.get('watcher.appendsIgnored') > 0);
    // a new file in the same directory still triggers one
    writeFile(
      path.join(dir, 'aaaaaaaa-0000-4000-8000-000000000004.jsonl'),
      jsonl([claudeUser('aaaaaaaa-0000-4000-8000-000000000004', 'v1', 'new')]),
    );
    await waitFor(() => prompts(events).includes('new'), 2000, 'the new session');
    assert.notEqual(w.lastDiscovery, discovery);
  });

  it('finds new sessions by periodic rescans when directory events are off, and feeds a SessionModel', async () => {
    const slug = cursorProjectSlug(repo);
    writeFile(path.join(home, '.cursor', 'projects', slug, '.workspace-trusted'), JSON.stringify({ workspacePath: repo }));
    fs.mkdirSync(path.join(home, '.cursor', 'projects', slug, 'agent-transcripts'), { recursive: true });
    const model = new SessionModel({ clock: { now: () => Date.now() } });
    const { w, events } = watcher({ useFsWatch: false, rescanIntervalMs: 150, pollIntervalMs: 100 });
    w.onEvents((b) =>
      model.applyAll(
        b.map((e) => ({ event: e.event, source: { key: e.key, transcriptPath: e.source.filePath, fileTimeMs: e.source.fileTimeMs } })),
      ),
    );
    await w.start();
    assert.equal(events.length, 0);
    const file = path.join(home, '.cursor', 'projects', slug, 'agent-transcripts', 'c9', 'c9.jsonl');
    writeFile(
      file,
      jsonl([
        { role: 'user', message: { content: [{ type: 'text', text: '<user_query>\nadd a readme\n</user_query>' }] } },
        {
          role: 'assistant',
          message: { content: [{ type: 'tool_use', name: 'Write', input: { path: path.join(repo, 'README.md'), contents: '# x\n' } }] },
        },
        // a path outside the repository is still emitted: the consumer decides what to attribute
        {
          role: 'assistant',
          message: { content: [{ type: 'tool_use', name: 'Write', input: { path: '/etc/agentnote-outside.txt', contents: 'x\n' } }] },
        },
      ]),
    );
    await waitFor(() => prompts(events).includes('add a readme'), 2000, 'the new Cursor session');
    fs.appendFileSync(file, jsonl([{ role: 'assistant', message: { content: [{ type: 'text', text: 'Added README.md.' }] } }]));
    await waitFor(() => events.some((e) => e.event.kind === 'response'), 1000, 'the response (polling)');
    const s = model.get('cursor', 'c9')!;
    assert.equal(s.cwd, repo);
    assert.deepEqual(
      s.turns.map((t) => [t.index, t.prompt, t.response, t.files]),
      [[1, 'add a readme', 'Added README.md.', [path.join(repo, 'README.md'), '/etc/agentnote-outside.txt']]],
    );
  });

  it('a Cursor session directory created before its transcript: the file is picked up by a directory event, not the periodic rescan', async () => {
    const slug = cursorProjectSlug(repo);
    const transcripts = path.join(home, '.cursor', 'projects', slug, 'agent-transcripts');
    writeFile(path.join(home, '.cursor', 'projects', slug, '.workspace-trusted'), JSON.stringify({ workspacePath: repo }));
    fs.mkdirSync(transcripts, { recursive: true });
    // periodic rescans off: only directory events can find the new session
    const { w, events } = watcher({ rescanIntervalMs: 0 });
    await w.start();
    fs.mkdirSync(path.join(transcripts, 'c7'));
    await waitFor(() => w.lastDiscovery?.watchDirs.includes(path.join(transcripts, 'c7')) ?? false, 2000, 'rescan after the new directory');
    assert.deepEqual(w.tailedFiles, []);
    const file = path.join(transcripts, 'c7', 'c7.jsonl');
    fs.writeFileSync(
      file,
      jsonl([{ role: 'user', message: { content: [{ type: 'text', text: '<user_query>\nlate first record\n</user_query>' }] } }]),
    );
    await waitFor(() => prompts(events).includes('late first record'), 2000, 'the first record of the pre-created directory');
    assert.deepEqual(w.tailedFiles, [file]);
    // once the transcript exists, its directory is no longer watched by the watcher (the tailer watches it)
    await w.rescan();
    assert.equal(w.lastDiscovery?.watchDirs.includes(path.join(transcripts, 'c7')), false);
  });

  it('stops everything on dispose', async () => {
    const dir = path.join(home, '.claude', 'projects', claudeProjectDirName(repo).name);
    const s1 = writeFile(
      path.join(dir, 'bbbbbbbb-0000-4000-8000-000000000001.jsonl'),
      jsonl([claudeUser('bbbbbbbb-0000-4000-8000-000000000001', 'u1', 'one')]),
    );
    const store = new MemoryOffsetStore();
    const { w, events } = watcher({ pollIntervalMs: 50, offsetStore: store });
    await w.start();
    w.dispose();
    fs.appendFileSync(s1, jsonl([claudeUser('bbbbbbbb-0000-4000-8000-000000000001', 'u2', 'two')]));
    writeFile(
      path.join(dir, 'bbbbbbbb-0000-4000-8000-000000000002.jsonl'),
      jsonl([claudeUser('bbbbbbbb-0000-4000-8000-000000000002', 'v1', 'new')]),
    );
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(prompts(events), ['one']);
    assert.deepEqual(w.tailedFiles, []);
    assert.equal(store.size, 1);
  });
});
