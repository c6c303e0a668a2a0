// The fault corpus of issue #7 ("Bad input"), one `it` per corpus item. Every item runs the real
// code path — the transcript tailer with the agent parsers, discovery and the watcher over real
// files, the recorder with real git in a temporary repository, the note store — and checks that
// nothing throws, that bad records are skipped AND counted, that the good records around them
// still count, and that skip counts reach the log at info level as counts, never contents.
// The editor items (reload during a turn, two windows, untrusted workspace) are in-host tests
// (test/suite/git/*.test.ts); two windows: two workbench windows of one code-server on the same repository
// in test/suite/windows/twoWindows.test.ts, and two recorder processes in test/unit/recorder/twoWindows.test.ts.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeNote } from '../../src/core/notes/noteCodec';
import { claudeProjectDirName } from '../../src/core/transcripts/projectSlugs';
import { GitError, GitRunner } from '../../src/node/git/gitRunner';
import { NoteStore } from '../../src/node/notes/noteStore';
import { RepositoryRecorder } from '../../src/node/recorder/repositoryRecorder';
import { MemoryOffsetStore } from '../../src/node/transcripts/offsetStore';
import { type TailedEvent, TranscriptTailer, type TailerOptions } from '../../src/node/transcripts/transcriptTailer';
import { TranscriptWatcher } from '../../src/node/transcripts/transcriptWatcher';
import { useIsolatedGitEnv } from '../helpers/tempRepo';
import { collectingLogger, Harness, type LogLine } from './recorder/recorderHarness';
import { jsonl, makeTempDir, waitFor, writeFile } from './transcripts/tempFiles';

const SID = '7e1f0c2a-5b3d-4c8e-9f6a-1b2c3d4e5f60';

/** Claude Code records (the real adapter parses them). */
const claude = {
  user(uuid: string, text: string, cwd = '/r', at = '2026-10-05T07:14:02.000Z'): object {
    return { type: 'user', uuid, sessionId: SID, timestamp: at, cwd, message: { role: 'user', content: text } };
  },
  write(uuid: string, toolUseId: string, file: string, content: string, cwd: string, at: string): object {
    return {
      type: 'assistant',
      uuid,
      sessionId: SID,
      timestamp: at,
      cwd,
      message: {
        id: `msg_${uuid}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: toolUseId, name: 'Write', input: { file_path: file, content } }],
      },
    };
  },
  result(uuid: string, toolUseId: string, cwd: string, at: string): object {
    return {
      type: 'user',
      uuid,
      sessionId: SID,
      timestamp: at,
      cwd,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'File written' }] },
    };
  },
};

function prompts(events: readonly TailedEvent[]): string[] {
  return events.flatMap((e) => (e.event.kind === 'prompt' ? [e.event.text] : []));
}

/** The info lines that report skipped input: counts only, never a record's text. */
function assertSkipLogged(log: readonly LogLine[], pattern: RegExp, secrets: readonly string[]): void {
  const hits = log.filter((l) => l.level === 'info' && pattern.test(l.text));
  assert.ok(hits.length > 0, `no info line matching ${pattern}: ${JSON.stringify(log.map((l) => `${l.level} ${l.text}`))}`);
  for (const l of log) for (const s of secrets) assert.ok(!l.text.includes(s), `log leaks content "${s}": ${l.text}`);
}

describe('fault corpus (issue #7): bad input is skipped and counted, good input still counts', function () {
  this.timeout(120_000);
  useIsolatedGitEnv();

  // ── transcripts ─────────────────────────────────────────────────────────────────────────────
  describe('transcripts', () => {
    let tmp: ReturnType<typeof makeTempDir>;
    let tailers: TranscriptTailer[];
    let log: LogLine[];
    beforeEach(() => {
      tmp = makeTempDir('fault');
      tailers = [];
      log = [];
    });
    afterEach(() => {
      for (const t of tailers) t.dispose();
      tmp.cleanup();
    });

    function tailer(file: string, extra: Partial<TailerOptions> = {}): { t: TranscriptTailer; events: TailedEvent[] } {
      const events: TailedEvent[] = [];
      const t = new TranscriptTailer({
        agent: 'claude',
        filePath: file,
        onEvents: (b) => events.push(...b),
        useFsWatch: false,
        pollIntervalMs: 0,
        log: collectingLogger(log),
        ...extra,
      });
      tailers.push(t);
      return { t, events };
    }

    it('a non-JSON line', async () => {
      const file = writeFile(
        path.join(tmp.dir, `${SID}.jsonl`),
        `${jsonl([claude.user('u1', 'first')])}this is {not json at all\n${jsonl([claude.user('u2', 'second')])}`,
      );
      const { t, events } = tailer(file);
      await t.start();
      assert.deepEqual(prompts(events), ['first', 'second']);
      assert.equal(t.parserStats.skipped.invalidJson, 1);
      assert.equal(t.skippedRecords, 1);
      assertSkipLogged(log, /skipped 1 unusable record\(s\) \(so far: 1 not JSON/, ['not json at all', 'first', 'second']);
    });

    it('a truncated final line, then completed', async () => {
      const second = JSON.stringify(claude.user('u2', 'second'));
      const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([claude.user('u1', 'first')]) + second.slice(0, 37));
      const { t, events } = tailer(file);
      await t.start();
      assert.deepEqual(prompts(events), ['first']);
      assert.ok(t.bufferedBytes > 0, 'the partial line is held, not parsed');
      fs.appendFileSync(file, `${second.slice(37)}\n${jsonl([claude.user('u3', 'third')])}`);
      await t.readNow();
      assert.deepEqual(prompts(events), ['first', 'second', 'third']);
      assert.equal(t.skippedRecords, 0, 'a line completed later is not a bad record');
      assert.equal(new Set(events.map((e) => e.key)).size, events.length);
    });

    it('a 20 MB single line', async () => {
      const huge = JSON.stringify(claude.user('u2', 'x'.repeat(20 * 1024 * 1024)));
      const file = writeFile(
        path.join(tmp.dir, `${SID}.jsonl`),
        `${jsonl([claude.user('u1', 'before')])}${huge}\n${jsonl([claude.user('u3', 'after')])}`,
      );
      const { t, events } = tailer(file);
      await t.start();
      assert.deepEqual(prompts(events), ['before', 'after']);
      assert.equal(t.stats.longLinesSkipped, 1);
      assert.equal(t.skippedRecords, 1);
      assert.equal(t.stats.bytesRead, fs.statSync(file).size);
      assert.ok(t.bufferedBytes <= 8 * 1024 * 1024, 'never buffers more than the line cap');
      assertSkipLogged(log, /skipped 1 unusable record\(s\) \(.*1 too long/, ['xxxxxxxx', 'before']);
    });

    it('invalid UTF-8', async () => {
      const inRecord = Buffer.from(JSON.stringify(claude.user('u2', 'bad-XX-bytes')));
      const i = inRecord.indexOf('XX');
      inRecord[i] = 0xff;
      inRecord[i + 1] = 0xc3;
      const garbage = Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0x0a]);
      const file = writeFile(
        path.join(tmp.dir, `${SID}.jsonl`),
        Buffer.concat([
          Buffer.from(jsonl([claude.user('u1', 'first')])),
          inRecord,
          Buffer.from('\n'),
          garbage,
          Buffer.from(jsonl([claude.user('u3', 'last')])),
        ]),
      );
      const { t, events } = tailer(file);
      await t.start();
      assert.deepEqual(prompts(events), ['first', 'bad-\ufffd\ufffd-bytes', 'last'], 'bad bytes inside a string become U+FFFD');
      assert.equal(t.parserStats.skipped.invalidJson, 1, 'a line of undecodable bytes is one bad record');
      assertSkipLogged(log, /skipped 1 unusable record/, ['bad-']);
    });

    it('NUL bytes', async () => {
      const file = writeFile(
        path.join(tmp.dir, `${SID}.jsonl`),
        Buffer.concat([
          Buffer.from(jsonl([claude.user('u1', 'first')])),
          Buffer.from([0, 0, 0, 0, 10, 0, 0]),
          Buffer.from(jsonl([claude.user('u2', 'after nul')])),
        ]),
      );
      const { t, events } = tailer(file);
      await t.start();
      assert.deepEqual(prompts(events), ['first', 'after nul']);
      assert.equal(t.stats.nulBytesRemoved, 6);
      assert.equal(t.skippedRecords, 0, 'NUL padding (a crash while preallocating) is removed, not a record');
      // NUL bytes inside a line break that line only
      fs.appendFileSync(file, Buffer.concat([Buffer.from('{"type":"us\0er"}\n'), Buffer.from(jsonl([claude.user('u3', 'third')]))]));
      await t.readNow();
      assert.deepEqual(prompts(events), ['first', 'after nul', 'third']);
    });

    it('the file truncated to zero and rewritten', async () => {
      const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([claude.user('u1', 'one'), claude.user('u2', 'two')]));
      const { t, events } = tailer(file, { offsetStore: new MemoryOffsetStore() });
      await t.start();
      const firstKeys = new Set(events.map((e) => e.key));
      fs.truncateSync(file, 0);
      await t.readNow();
      fs.writeFileSync(file, `${jsonl([claude.user('u1', 'one')])}garbage after the rewrite\n${jsonl([claude.user('u3', 'three')])}`);
      await t.readNow();
      assert.equal(t.stats.truncations + t.stats.replacements >= 1, true);
      const after = events.filter((e) => !firstKeys.has(e.key));
      assert.deepEqual(prompts(after), ['three'], 're-read events keep their keys, so only the new prompt is new');
      assert.equal(t.parserStats.skipped.invalidJson, 1);
      assertSkipLogged(log, /skipped 1 unusable record/, ['garbage after']);
    });

    it('the file deleted while tailing', async () => {
      const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), `${jsonl([claude.user('u1', 'one')])}oops\n`);
      const store = new MemoryOffsetStore();
      let gone = 0;
      const { t, events } = tailer(file, { useFsWatch: true, pollIntervalMs: 50, offsetStore: store, onGone: () => gone++ });
      await t.start();
      fs.rmSync(file);
      await waitFor(() => gone === 1, 3000, 'onGone');
      assert.equal(t.stopped, true);
      assert.equal(await t.readNow(), 0, 'reading a stopped tailer is a no-op, not an error');
      assert.equal(store.size, 0, 'its offset is forgotten');
      assert.deepEqual(prompts(events), ['one']);
      assert.equal(t.skippedRecords, 1);
    });

    it('a directory with permission denied (real EACCES: discovery runs as an unprivileged user)', async function () {
      // Root ignores mode bits, so as root the scan runs in a child process with uid/gid 65534
      // (nobody): the directory is chmod 000 and the kernel really refuses the readdir.
      const home = path.join(tmp.dir, 'home');
      const repo = path.join(tmp.dir, 'work', 'proj');
      fs.mkdirSync(path.join(repo, 'sub'), { recursive: true });
      const projects = path.join(home, '.claude', 'projects');
      const now = Date.now();
      const good = writeFile(
        path.join(projects, claudeProjectDirName(repo).name, `${SID}.jsonl`),
        `${jsonl([claude.user('u1', 'fine', repo)])}not json\n`,
        now,
      );
      const lockedDir = path.join(projects, claudeProjectDirName(path.join(repo, 'sub')).name);
      writeFile(
        path.join(lockedDir, 'aaaaaaaa-0000-4000-8000-000000000002.jsonl'),
        jsonl([claude.user('u1', 'secret project', path.join(repo, 'sub'))]),
        now,
      );
      fs.chmodSync(lockedDir, 0o000);
      fs.chmodSync(tmp.dir, 0o755);
      const script = `
        const { TranscriptWatcher } = require(${JSON.stringify(path.resolve(__dirname, '../../src/node/transcripts/transcriptWatcher.js'))});
        const lines = [];
        const at = (level) => (m) => lines.push({ level, text: String(m) });
        const log = { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
        const w = new TranscriptWatcher({ repo: { root: ${JSON.stringify(repo)} }, discovery: { homeDir: ${JSON.stringify(home)}, env: {}, enabledAgents: ['claude'], caseInsensitive: false },
          rescanIntervalMs: 0, useFsWatch: false, pollIntervalMs: 0, log });
        w.start().then(() => { process.stdout.write(JSON.stringify({ uid: process.getuid(), stats: w.lastDiscovery.stats, tailed: w.tailedFiles, lines })); w.dispose(); });`;
      const asRoot = process.getuid?.() === 0;
      const r = spawnSync(process.execPath, ['-e', script], {
        encoding: 'utf8',
        timeout: 30_000,
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { uid: number; stats: Record<string, number>; tailed: string[]; lines: LogLine[] };
      assert.notEqual(out.uid, 0, 'the scan ran without root privileges');
      assert.equal(out.stats.permissionDenied, 1);
      assert.deepEqual(out.tailed, [good], 'the readable project is still found and tailed');
      assertSkipLogged(out.lines, /transcript discovery skipped: 1 unreadable \(permission denied\)/, ['secret project']);
      assertSkipLogged(out.lines, /skipped 1 unusable record/, ['not json', 'fine']);
    });

    it('10,000 sessions in the agent directory', async () => {
      const home = path.join(tmp.dir, 'home');
      const repo = path.join(tmp.dir, 'work', 'proj');
      fs.mkdirSync(repo, { recursive: true });
      const dir = path.join(home, '.claude', 'projects', claudeProjectDirName(repo).name);
      fs.mkdirSync(dir, { recursive: true });
      const now = Date.now();
      const old = (now - 30 * 86_400_000) / 1000;
      const body = jsonl([claude.user('u1', 'old session', repo)]);
      for (let i = 0; i < 10_000; i++) {
        const f = path.join(dir, `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000.jsonl`);
        if (i % 1000 === 0) {
          // ten live sessions, each with one bad line between good ones
          fs.writeFileSync(f, `${jsonl([claude.user('u1', `live ${i}`, repo)])}{broken\n${jsonl([claude.user('u2', `more ${i}`, repo)])}`);
          fs.utimesSync(f, (now - i) / 1000, (now - i) / 1000);
        } else {
          fs.writeFileSync(f, body);
          fs.utimesSync(f, old, old);
        }
      }
      const events: TailedEvent[] = [];
      const w = new TranscriptWatcher({
        repo: { root: repo },
        discovery: { homeDir: home, env: {}, enabledAgents: ['claude'], caseInsensitive: false },
        rescanIntervalMs: 0,
        useFsWatch: false,
        pollIntervalMs: 0,
        log: collectingLogger(log),
      });
      w.onEvents((b) => events.push(...b));
      const started = Date.now();
      try {
        await w.start();
      } finally {
        w.dispose();
      }
      const ms = Date.now() - started;
      assert.equal(w.lastDiscovery?.stats.filesStatted, 10_000);
      assert.equal(w.lastDiscovery?.stats.tooOld, 9_990);
      assert.equal(w.lastDiscovery?.transcripts.length, 10);
      assert.equal(prompts(events).length, 20, 'two good prompts in each live session');
      assert.equal(w.counters.get('tailer.skippedRecords'), 10, 'one bad line per live session, each counted');
      assert.equal(log.filter((l) => l.level === 'info' && /skipped 1 unusable record/.test(l.text)).length, 10);
      assert.ok(ms < 20_000, `first scan + tailing took ${ms} ms`);
    });

    describe('records into the recorder (tailer → recorder → git)', () => {
      let h: Harness | undefined;
      afterEach(async () => {
        await h?.dispose();
        h = undefined;
      });

      /** Tails `records` (written as a real transcript) and hands the events to the recorder as the host does. */
      async function feed(records: (object | string)[]): Promise<TailedEvent[]> {
        const file = writeFile(
          path.join(tmp.dir, 'transcripts', `${SID}.jsonl`),
          records.map((r) => (typeof r === 'string' ? `${r}\n` : `${JSON.stringify(r)}\n`)).join(''),
        );
        const events: TailedEvent[] = [];
        const { t } = tailer(file, { onEvents: (b) => events.push(...b) });
        await t.start();
        await h!.recorder.onAgentEvents(
          events.map((e) => ({ event: e.event, key: e.key, transcriptPath: e.source.filePath, fileTimeMs: e.source.fileTimeMs })),
        );
        return events;
      }
      const at = (ms: number) => new Date(h!.clock.now() + ms).toISOString();

      it('records with absolute paths outside the repository', async () => {
        h = await Harness.create({ 'app.ts': 'export const a = 1;\n' }, { log: collectingLogger(log) });
        const cwd = h.repo.dir;
        const inside = 'export const a = 1;\nexport const b = 2;\n';
        await h.writeFile('app.ts', inside);
        const events = await feed([
          claude.user('u1', 'add b, and also touch files elsewhere', cwd, at(0)),
          claude.write('a1', 'toolu_out1', '/etc/agentnote-outside.conf', 'x=1\n', cwd, at(100)),
          claude.result('r1', 'toolu_out1', cwd, at(200)),
          claude.write('a2', 'toolu_out2', path.join(path.dirname(cwd), 'sibling', 'x.ts'), 'y\n', cwd, at(300)),
          claude.result('r2', 'toolu_out2', cwd, at(400)),
          claude.write('a3', 'toolu_in', path.join(cwd, 'app.ts'), inside, cwd, at(500)),
          claude.result('r3', 'toolu_in', cwd, at(600)),
        ]);
        assert.equal(events.filter((e) => e.event.kind === 'edit').length, 3);
        await h.tick();
        assert.equal(h.recorder.counters.get('recorder.editsOutsideRepo'), 2);
        h.advance(3000);
        const sha = await h.commitAll('feat: b');
        const outcome = await h.recorder.recordCommit(sha);
        assert.equal(outcome.kind, 'written');
        const note = await h.note(sha);
        assert.deepEqual(
          note.files.map((f) => [f.path, f.by_ai]),
          [['app.ts', true]],
        );
        assert.equal(JSON.stringify(note).includes('agentnote-outside'), false);
        assertSkipLogged(log, /transcript records ignored: 2 of \d+ \(so far: 2 edit\(s\) outside the repository/, [
          'agentnote-outside',
          'add b',
        ]);
      });

      it('records referencing binary files', async () => {
        h = await Harness.create({ 'app.ts': 'export const a = 1;\n', 'logo.png': '' }, { log: collectingLogger(log) });
        const cwd = h.repo.dir;
        const png = Buffer.from([
          0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 1, 2, 3, 0xff, 0xfe,
        ]);
        await h.repo.write('logo.png', png);
        const text = 'export const a = 1;\nexport const c = 3;\n';
        await h.writeFile('app.ts', text);
        await feed([
          claude.user('u1', 'regenerate the logo and add c', cwd, at(0)),
          claude.write('a1', 'toolu_png', path.join(cwd, 'logo.png'), png.toString('latin1'), cwd, at(100)),
          claude.result('r1', 'toolu_png', cwd, at(200)),
          claude.write('a2', 'toolu_ts', path.join(cwd, 'app.ts'), text, cwd, at(300)),
          claude.result('r2', 'toolu_ts', cwd, at(400)),
        ]);
        await h.tick();
        h.advance(3000);
        const sha = await h.commitAll('feat: logo and c');
        const outcome = await h.recorder.recordCommit(sha);
        assert.equal(outcome.kind, 'written');
        const note = await h.note(sha);
        const byPath = new Map(note.files.map((f) => [f.path, f] as const));
        assert.equal(byPath.get('app.ts')?.by_ai, true);
        assert.ok(byPath.has('logo.png'), 'the binary file is listed');
        assert.equal(byPath.get('logo.png')?.ai_ranges, undefined, 'a binary file has no line ranges');
        assert.ok(note.attribution.lines === undefined || note.attribution.lines.total_added >= 1);
      });
    });
  });

  // ── git ─────────────────────────────────────────────────────────────────────────────────────
  describe('git', () => {
    let h: Harness | undefined;
    let log: LogLine[];
    beforeEach(() => {
      log = [];
    });
    afterEach(async () => {
      await h?.dispose();
      h = undefined;
    });

    /** An agent session writes `content` to `file` (disk transition + Write record). */
    async function aiWrites(file: string, content: string, prompt = `write ${file}`): Promise<void> {
      const s = h!.session('claude', SID, 'claude-sonnet-4-5');
      await s.start();
      h!.advance(1000);
      await s.prompt(prompt);
      h!.advance(500);
      await h!.change(file, content, 'disk');
      h!.advance(100);
      await s.edit(file, { tool: 'Write', toolUseId: `toolu_${file.replace(/\W/g, '_')}`, contents: content });
      await h!.tick();
      h!.advance(3000);
    }

    it('a repository without commits', async () => {
      h = await Harness.create({}, { log: collectingLogger(log) });
      assert.equal((await h.repo.gitResult(['rev-parse', '--verify', '-q', 'HEAD'])).code, 1, 'no commit yet');
      assert.deepEqual(await h.recorder.uncommittedAi('a.ts', 'x\n'), [], 'no HEAD: nothing uncommitted yet, no throw');
      const unborn = await h.recorder.recordCommit('HEAD');
      assert.equal(unborn.kind, 'failed', 'an unborn HEAD is reported, not thrown');
      await aiWrites('a.ts', 'export const first = true;\n');
      const sha = await h.commitAll('feat: first commit');
      const outcome = await h.recorder.recordCommit(sha);
      assert.equal(outcome.kind, 'written', 'the root commit gets its note');
      assert.deepEqual(
        (await h.note(sha)).files.map((f) => [f.path, f.by_ai]),
        [['a.ts', true]],
      );
    });

    it('a detached HEAD', async () => {
      h = await Harness.create({ 'a.ts': 'one\n' });
      await h.repo.git(['checkout', '-q', '--detach']);
      await aiWrites('a.ts', 'one\ntwo\n');
      const sha = await h.commitAll('feat: on a detached head');
      assert.equal((await h.repo.gitResult(['symbolic-ref', '-q', 'HEAD'])).code, 1, 'HEAD is detached');
      assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
      assert.equal((await h.note(sha)).files[0].by_ai, true);
    });

    it('a shallow clone', async () => {
      // a full history elsewhere, fetched into the harness repository with --depth 1
      const src = await Harness.create({ 'a.ts': 'v1\n' });
      try {
        await src.writeFile('a.ts', 'v1\nv2\n');
        await src.commitAll('two');
        await src.writeFile('a.ts', 'v1\nv2\nv3\n');
        await src.commitAll('three');
        h = await Harness.create({});
        await h.repo.git(['fetch', '-q', '--depth', '1', `file://${src.repo.dir}`, 'main']);
        await h.repo.git(['reset', '-q', '--hard', 'FETCH_HEAD']);
        await h.writeFile('a.ts', 'v1\nv2\nv3\n');
        assert.equal((await h.repo.git(['rev-parse', '--is-shallow-repository'])).trim(), 'true');
        await h.reopen();
        await aiWrites('a.ts', 'v1\nv2\nv3\nv4 by ai\n');
        const sha = await h.commitAll('feat: v4');
        assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
        const note = await h.note(sha);
        assert.equal(note.attribution.method, 'line');
        assert.deepEqual(
          note.files[0].ai_ranges?.map((r) => [r.start, r.end]),
          [[4, 4]],
        );
        // the shallow boundary commit (its parent is missing) is handled, not thrown
        const boundary = (await h.repo.git(['rev-parse', 'HEAD~1'])).trim();
        assert.notEqual((await h.recorder.recordCommit(boundary)).kind, 'failed');
      } finally {
        await src.dispose();
      }
    });

    it('binary and huge files in a commit', async () => {
      h = await Harness.create({ 'a.ts': 'a\n' });
      await h.repo.write('blob.bin', Buffer.from([0, 1, 2, 3, 0xff, 0, 0x10, 0x80]));
      const huge = Array.from({ length: 120_000 }, (_, i) => `line ${i} ${'y'.repeat(40)}`).join('\n') + '\n';
      assert.ok(huge.length > 5 * 1024 * 1024, 'bigger than the diff cap');
      await h.repo.write('data/huge.txt', huge);
      await aiWrites('a.ts', 'a\nb by ai\n');
      const started = Date.now();
      const sha = await h.commitAll('feat: with binary and huge files');
      const outcome = await h.recorder.recordCommit(sha);
      assert.equal(outcome.kind, 'written');
      assert.ok(Date.now() - started < 30_000);
      const note = await h.note(sha);
      const byPath = new Map(note.files.map((f) => [f.path, f] as const));
      assert.equal(byPath.get('a.ts')?.by_ai, true);
      assert.equal(byPath.get('blob.bin')?.by_ai, false);
      assert.equal(byPath.get('data/huge.txt')?.by_ai, false);
    });

    it('a file renamed in the commit', async () => {
      h = await Harness.create({ 'old/name.ts': 'export const x = 1;\n' });
      await h.repo.git(['mv', 'old/name.ts', 'new-name.ts']);
      await h.writeFile('new-name.ts', 'export const x = 1;\n');
      await aiWrites('new-name.ts', 'export const x = 1;\nexport const y = 2;\n');
      const sha = await h.commitAll('refactor: rename and extend');
      assert.match(await h.repo.git(['show', '--name-status', '-M', '--format=', sha]), /^R\d+\told\/name\.ts\tnew-name\.ts$/m);
      assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
      const note = await h.note(sha);
      const renamed = note.files.find((f) => f.path === 'new-name.ts');
      assert.equal(renamed?.by_ai, true);
      assert.deepEqual(
        renamed?.ai_ranges?.map((r) => [r.start, r.end]),
        [[2, 2]],
      );
    });

    it('a submodule', async () => {
      h = await Harness.create({ 'a.ts': 'a\n' });
      const sub = path.join(h.repo.dir, 'vendor', 'lib');
      fs.mkdirSync(sub, { recursive: true });
      await h.repo.git(['init', '-q', '--initial-branch=main', sub]);
      fs.writeFileSync(path.join(sub, 'lib.c'), 'int x;\n');
      await h.repo.git(['-C', sub, 'add', '-A']);
      await h.repo.git(['-C', sub, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'lib']);
      await aiWrites('a.ts', 'a\nb by ai\n');
      const sha = await h.commitAll('feat: vendor lib as a submodule');
      assert.match(await h.repo.git(['ls-tree', sha, 'vendor/lib']), /^160000 commit /, 'the commit holds a gitlink');
      assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
      const byPath = new Map((await h.note(sha)).files.map((f) => [f.path, f] as const));
      assert.equal(byPath.get('a.ts')?.by_ai, true);
      assert.equal(byPath.get('vendor/lib')?.by_ai ?? false, false);
    });

    it('core.hooksPath set', async () => {
      h = await Harness.create({ 'a.ts': 'a\n' });
      const hooks = path.join(h.repo.dir, 'team-hooks');
      fs.mkdirSync(hooks);
      const marker = path.join(h.repo.dir, '..', 'hook-ran');
      fs.writeFileSync(path.join(hooks, 'post-commit'), `#!/bin/sh\necho post-commit >> "${marker}"\n`, { mode: 0o755 });
      await h.repo.git(['config', 'core.hooksPath', 'team-hooks']);
      await aiWrites('a.ts', 'a\nb by ai\n');
      const sha = await h.commitAll('feat: with team hooks', 0, ['a.ts']);
      assert.equal(fs.readFileSync(marker, 'utf8'), 'post-commit\n', 'the team hook ran for the commit');
      assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
      assert.equal((await h.note(sha)).files[0].by_ai, true);
    });

    it('the notes ref locked by another writer', async () => {
      h = await Harness.create({ 'a.ts': 'a\n' }, { log: collectingLogger(log) });
      await aiWrites('a.ts', 'a\nb by ai\n');
      const sha = await h.commitAll('feat: b');
      const lock = path.join(h.repo.dir, '.git', 'refs', 'notes', 'agentnote.lock');
      fs.mkdirSync(path.dirname(lock), { recursive: true });
      // held for the whole retry budget: the write fails, is reported, and loses nothing
      fs.writeFileSync(lock, '');
      const failed = await h.recorder.recordCommit(sha);
      assert.equal(failed.kind, 'failed');
      assert.match(failed.kind === 'failed' ? failed.reason : '', /locked/);
      assert.ok(log.some((l) => l.level === 'warn' && l.text.includes(`recording the note of ${sha.slice(0, 8)} failed`)));
      assert.equal(await h.noteText(sha), undefined);
      // released while a later attempt retries: written, with the same content
      const retry = h.recorder.recordCommit(sha);
      setTimeout(() => fs.rmSync(lock, { force: true }), 100);
      assert.equal((await retry).kind, 'written');
      assert.equal((await h.note(sha)).files[0].by_ai, true);
    });

    it('git missing from PATH', async () => {
      const tmp = makeTempDir('nogit');
      const saved = process.env.PATH;
      try {
        process.env.PATH = path.join(tmp.dir, 'empty-bin');
        const runner = new GitRunner(tmp.dir, { timeoutMs: 5_000 });
        const started = Date.now();
        await assert.rejects(
          RepositoryRecorder.open({ root: tmp.dir, git: runner, log: collectingLogger(log) }),
          (e: unknown) => e instanceof GitError && e.reason === 'notFound',
        );
        await assert.rejects(new NoteStore(runner).read('HEAD'), (e: unknown) => e instanceof GitError && e.reason === 'notFound');
        assert.ok(Date.now() - started < 5_000, 'fails at once instead of hanging');
      } finally {
        process.env.PATH = saved;
        tmp.cleanup();
      }
    });
  });

  // ── notes ───────────────────────────────────────────────────────────────────────────────────
  describe('notes', () => {
    let h: Harness | undefined;
    let log: LogLine[];
    beforeEach(() => {
      log = [];
    });
    afterEach(async () => {
      await h?.dispose();
      h = undefined;
    });

    /** A commit by the AI, recorded; returns its sha. */
    let sessions = 0;
    async function recordedAiCommit(file: string, content: string): Promise<string> {
      // a new session each time (a new transcript: its record keys start again at 0)
      const s = h!.session('claude', `${SID.slice(0, -2)}${String(++sessions).padStart(2, '0')}`, 'claude-sonnet-4-5');
      await s.start();
      h!.advance(1000);
      await s.prompt(`write ${file}`);
      h!.advance(500);
      await h!.change(file, content, 'disk');
      await s.edit(file, { tool: 'Write', toolUseId: `toolu_${file.replace(/\W/g, '_')}`, contents: content });
      await h!.tick();
      h!.advance(3000);
      const sha = await h!.commitAll(`feat: ${file}`);
      return sha;
    }

    for (const [name, text, reason] of [
      ['malformed JSON', '{"v": 1, "agent": "claude", "interactions": [{"prompt": "cut off', 'not JSON'],
      ['a text note from another tool', 'Reviewed-by: Ann <ann@example.com>\nTested-by: CI', 'text note from another tool'],
    ] as const) {
      it(name, async () => {
        h = await Harness.create({ 'a.ts': 'a\n' }, { log: collectingLogger(log) });
        const first = await recordedAiCommit('a.ts', 'a\nb\n');
        // another tool put its note on the commit before we recorded it
        await h.repo.git(['notes', '--ref=agentnote', 'add', '-m', text, first]);
        assert.deepEqual(await h.recorder.recordCommit(first), { kind: 'exists' }, 'a foreign note is never overwritten');
        assert.equal((await h.noteText(first))?.trim(), text.trim());
        const store = new NoteStore(h.runner, { log: collectingLogger(log) });
        const d = await store.read(first);
        assert.equal(d?.kind, 'invalid');
        assert.equal(d?.kind === 'invalid' && d.reason, reason);
        assert.equal(h.runner.counters.get('notes.invalid'), 1);
        assertSkipLogged(log, new RegExp(`is not a usable Agent Note: ${reason}`), ['Reviewed-by', 'cut off']);
        // the good notes around it still count
        const second = await recordedAiCommit('c.ts', 'c\n');
        assert.equal((await h.recorder.recordCommit(second)).kind, 'written');
        assert.equal((await store.read(second))?.kind, 'valid');
        assert.equal((await store.listNotedCommits()).size, 2);
      });
    }

    it('a 1 MB note (over the read limit of issue #14: "note too large", never loaded)', async () => {
      h = await Harness.create({ 'a.ts': 'a\n' });
      const first = await recordedAiCommit('a.ts', 'a\nb\n');
      assert.equal((await h.recorder.recordCommit(first)).kind, 'written');
      const big = await h.note(first);
      big.interactions[0].response = `${'lorem ipsum dolor sit amet '.repeat(40_000)}end`;
      const second = await recordedAiCommit('c.ts', 'c\n');
      const roomy = new NoteStore(h.runner, { limits: { maxBytes: 8 * 1024 * 1024 } });
      assert.equal(await roomy.write(second, big), 'written');
      const raw = await roomy.readRaw(second);
      assert.ok(raw !== undefined && Buffer.byteLength(raw) > 1024 * 1024);
      assert.ok(raw === encodeNote(big), 'stored byte for byte');
      const d = await roomy.read(second);
      assert.equal(d?.kind, 'valid');
      assert.equal(d?.kind === 'valid' && d.note.interactions[0].response?.endsWith('end'), true);
      // with the default limits it is too large: skipped with its size, the blob is not read
      const store = new NoteStore(h.runner);
      const tooLarge = await store.read(second);
      assert.equal(tooLarge?.kind === 'invalid' && tooLarge.violation?.kind, 'tooLarge');
      assert.match(
        tooLarge?.kind === 'invalid' ? tooLarge.reason : '',
        /^note too large \(1,0\d\d,\d{3} bytes; the limit is 1,048,576 bytes\)$/,
      );
      assert.equal(await store.readRaw(second), undefined);
      // the recorder keeps that note and the big one does not disturb reading the other
      assert.deepEqual(await h.recorder.recordCommit(second), { kind: 'exists' });
      assert.equal((await store.read(first))?.kind, 'valid');
    });
  });
});
