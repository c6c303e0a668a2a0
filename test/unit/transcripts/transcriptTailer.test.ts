import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentEvent } from '../../../src/core/model/agentEvents';
import { JsonOffsetStore } from '../../../src/node/transcripts/jsonOffsetStore';
import { MemoryOffsetStore, printOf } from '../../../src/node/transcripts/offsetStore';
import { type TailedEvent, TranscriptTailer, type TailerOptions } from '../../../src/node/transcripts/transcriptTailer';
import { fixturesRoot, lineFixtures } from '../agents/fixtureSupport';
import { jsonl, makeTempDir, waitFor, writeFile } from './tempFiles';

const SID = '0d3c7a10-1111-4222-8333-444455556666';

function user(uuid: string, text: string): object {
  return { type: 'user', uuid, sessionId: SID, timestamp: '2026-10-05T07:14:02.000Z', cwd: '/r', message: { role: 'user', content: text } };
}

function prompts(events: TailedEvent[]): string[] {
  return events.flatMap((e) => (e.event.kind === 'prompt' ? [e.event.text] : []));
}

describe('TranscriptTailer', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let tailers: TranscriptTailer[];
  beforeEach(() => {
    tmp = makeTempDir('tailer');
    tailers = [];
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
      ...extra,
    });
    tailers.push(t);
    return { t, events };
  }

  it('waits for a slow consumer before reading on: one batch in flight during a catch-up, nothing lost', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl(Array.from({ length: 5000 }, (_, i) => user(`u${i}`, `prompt ${i}`))));
    let inFlight = 0;
    let maxInFlight = 0;
    let calls = 0;
    const got: string[] = [];
    const t = new TranscriptTailer({
      agent: 'claude',
      filePath: file,
      chunkSize: 16 * 1024,
      useFsWatch: false,
      pollIntervalMs: 0,
      onEvents: async (b) => {
        calls++;
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        got.push(...prompts(b));
        inFlight--;
      },
    });
    tailers.push(t);
    await t.start();
    assert.ok(calls >= 5, `${calls} batches`);
    assert.equal(maxInFlight, 1);
    assert.equal(got.length, 5000);
    assert.equal(got[4999], 'prompt 4999');
  });

  it('watches from the start: a line appended while the first batch is still being consumed is read at once, not at the next poll', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'first')]));
    let release!: () => void;
    const consumed = new Promise<void>((r) => (release = r));
    const got: string[] = [];
    let first = true;
    const t = new TranscriptTailer({
      agent: 'claude',
      filePath: file,
      useFsWatch: true,
      debounceMs: 20,
      pollIntervalMs: 60_000,
      onEvents: async (b) => {
        if (first) {
          first = false;
          await consumed;
        }
        got.push(...prompts(b));
      },
    });
    tailers.push(t);
    const started = t.start();
    await new Promise((r) => setTimeout(r, 50));
    fs.appendFileSync(file, `${JSON.stringify(user('u2', 'second'))}\n`);
    await new Promise((r) => setTimeout(r, 100));
    release();
    await started;
    await waitFor(() => got.includes('second'), 1000, 'the appended prompt');
    assert.deepEqual(got, ['first', 'second']);
  });

  it('reads appended lines only, waits for a partial last line, and keys events by file + line offset + index', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one')]));
    const { t, events } = tailer(file);
    await t.start();
    assert.deepEqual(
      events.map((e) => [e.event.kind, e.key]),
      [
        ['session', `${file}:0:0`],
        ['prompt', `${file}:0:1`],
      ],
    );
    const second = JSON.stringify(user('u2', 'two'));
    const firstLen = fs.statSync(file).size;
    fs.appendFileSync(file, second.slice(0, 20));
    await t.readNow();
    assert.equal(events.length, 2);
    fs.appendFileSync(file, second.slice(20) + '\n');
    await t.readNow();
    assert.deepEqual(prompts(events), ['one', 'two']);
    assert.equal(events[2].key, `${file}:${firstLen}:0`);
    const { fileTimeMs, ...source } = events[2].source;
    assert.deepEqual(source, { agent: 'claude', filePath: file, offset: firstLen, index: 0 });
    assert.ok(Math.abs(fileTimeMs - fs.statSync(file).mtimeMs) < 0.01);
  });

  it('streams every fixture in random-sized appends to exactly the expected events', async () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return 1 + (seed % n);
    };
    for (const f of lineFixtures()) {
      const file = path.join(tmp.dir, f.agent, f.formatVersion, path.basename(f.expected.ctx.filePath));
      writeFile(file, '');
      const events: TailedEvent[] = [];
      const t = new TranscriptTailer({
        agent: f.agent,
        filePath: file,
        sessionIdHint: undefined,
        cwdHint: f.expected.ctx.cwdHint,
        onEvents: (b) => events.push(...b),
        useFsWatch: false,
        pollIntervalMs: 0,
        chunkSize: 97,
      });
      tailers.push(t);
      await t.start();
      for (let at = 0; at < f.bytes.length; ) {
        const n = Math.min(rnd(400), f.bytes.length - at);
        fs.appendFileSync(file, f.bytes.subarray(at, at + n));
        at += n;
        await t.readNow();
      }
      const got = events.map((e) => e.event);
      if (f.formatVersion === 'txt-2025') {
        // the legacy text format releases held-back text at the end of each read, so segments can
        // be cut differently; the merged responses and everything else are the same
        assert.deepEqual(
          got.filter((e) => e.kind !== 'response'),
          f.expected.events.filter((e) => e.kind !== 'response'),
        );
      } else {
        assert.deepEqual(got, f.expected.events, `${f.agent}/${f.formatVersion}/${f.name}`);
      }
      assert.equal(new Set(events.map((e) => e.key)).size, events.length, 'keys are unique');
    }
  });

  it('treats CRLF files like LF files', async () => {
    const f = lineFixtures().find((x) => x.agent === 'codex' && x.formatVersion === '2026-custom-tool')!;
    const file = writeFile(
      path.join(tmp.dir, path.basename(f.expected.ctx.filePath)),
      Buffer.from(f.bytes).toString('utf8').replace(/\n/g, '\r\n'),
    );
    const { t, events } = tailer(file, { agent: 'codex' });
    await t.start();
    assert.deepEqual(
      events.map((e) => e.event),
      f.expected.events,
    );
  });

  it('re-reads from 0 after truncation and rewrite, with keys that let a consumer drop what it saw', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one'), user('u2', 'two'), user('u3', 'three')]));
    const { t, events } = tailer(file);
    await t.start();
    const firstKeys = events.map((e) => e.key);
    fs.truncateSync(file, 0);
    fs.appendFileSync(file, jsonl([user('u1', 'one')]));
    await t.readNow();
    assert.equal(t.stats.truncations, 1);
    assert.equal(t.stats.resets, 1);
    const reread = events.slice(firstKeys.length);
    assert.deepEqual(prompts(reread), ['one']);
    assert.deepEqual(
      reread.map((e) => e.key),
      firstKeys.slice(0, 2),
    );
    fs.appendFileSync(file, jsonl([user('u4', 'four')]));
    await t.readNow();
    assert.deepEqual(prompts(events.slice(firstKeys.length + 2)), ['four']);
  });

  it('detects a replaced file (rotation: new inode) and re-reads it from 0', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one')]));
    const { t, events } = tailer(file);
    await t.start();
    fs.renameSync(file, file + '.old');
    writeFile(file, jsonl([user('n1', 'rotated one'), user('n2', 'rotated two')]));
    await t.readNow();
    assert.equal(t.stats.replacements, 1);
    assert.deepEqual(prompts(events), ['one', 'rotated one', 'rotated two']);
  });

  it('detects an in-place rewrite with a different head', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one'), user('u2', 'two')]));
    const { t, events } = tailer(file);
    await t.start();
    fs.writeFileSync(file, jsonl([user('x1', 'REWRITTEN'), user('u2', 'two'), user('u3', 'three')]));
    await t.readNow();
    assert.equal(t.stats.replacements, 1);
    assert.deepEqual(prompts(events), ['one', 'two', 'REWRITTEN', 'two', 'three']);
  });

  it('detects an in-place rewrite that kept the head but changed the bytes just read (edited last message)', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one'), user('u2', 'original two')]));
    const { t, events } = tailer(file);
    await t.start();
    fs.writeFileSync(file, jsonl([user('u1', 'one'), user('u2', 'editedd two')]) + jsonl([user('u3', 'three')]));
    await t.readNow();
    assert.equal(t.stats.replacements, 1);
    assert.deepEqual(prompts(events), ['one', 'original two', 'one', 'editedd two', 'three']);
  });

  it('skips a 20 MB single line without keeping it in memory and parses the lines after it', async function () {
    this.timeout(20_000);
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'before')]));
    const { t, events } = tailer(file);
    await t.start();
    const huge = JSON.stringify(user('big', 'x'.repeat(20 * 1024 * 1024)));
    fs.appendFileSync(file, huge.slice(0, 10 * 1024 * 1024));
    await t.readNow();
    assert.ok(t.bufferedBytes <= 8 * 1024 * 1024, `buffered ${t.bufferedBytes}`);
    fs.appendFileSync(file, huge.slice(10 * 1024 * 1024) + '\n' + jsonl([user('u3', 'after')]));
    await t.readNow();
    assert.equal(t.bufferedBytes, 0);
    assert.equal(t.stats.longLinesSkipped, 1);
    assert.deepEqual(prompts(events), ['before', 'after']);
    assert.equal(t.stats.bytesRead, fs.statSync(file).size);
  });

  it('counts a non-JSON line, decodes invalid UTF-8 with replacement characters and tolerates NUL bytes', async () => {
    const file = path.join(tmp.dir, `${SID}.jsonl`);
    const good = JSON.stringify(user('u1', 'caf\u00e9'));
    const withBad = Buffer.from(JSON.stringify(user('u2', 'bad-XX-bytes')));
    const i = withBad.indexOf('XX');
    withBad[i] = 0xff;
    withBad[i + 1] = 0xc3;
    writeFile(
      file,
      Buffer.concat([
        Buffer.from(good + '\n'),
        Buffer.from('this is not json\n'),
        withBad,
        Buffer.from('\n'),
        Buffer.from([0, 0, 0, 0, 10]),
        Buffer.from([0, 0]),
        Buffer.from(JSON.stringify(user('u3', 'after nul')) + '\n'),
      ]),
    );
    const { t, events } = tailer(file);
    await t.start();
    assert.deepEqual(prompts(events), ['café', 'bad-\ufffd\ufffd-bytes', 'after nul']);
    assert.equal(t.parserStats.skipped.invalidJson, 1);
    assert.equal(t.stats.nulBytesRemoved, 6);
  });

  it('stops quietly when the file is deleted while tailing', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one')]));
    const store = new MemoryOffsetStore();
    let gone = 0;
    const { t } = tailer(file, { useFsWatch: true, pollIntervalMs: 50, offsetStore: store, onGone: () => gone++ });
    await t.start();
    assert.equal(store.size, 1);
    fs.rmSync(file);
    await waitFor(() => gone === 1, 2000, 'onGone');
    assert.equal(t.stopped, true);
    assert.equal(store.size, 0);
    assert.equal(await t.readNow(), 0);
  });

  for (const mode of ['fs.watch', 'polling'] as const) {
    it(`picks up appended lines within 1 s (${mode})`, async () => {
      const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one')]));
      const { t, events } =
        mode === 'fs.watch'
          ? tailer(file, { useFsWatch: true, pollIntervalMs: 0 })
          : tailer(file, { useFsWatch: false, pollIntervalMs: 200 });
      await t.start();
      for (const text of ['two', 'three']) {
        fs.appendFileSync(file, jsonl([user(`u-${text}`, text)]));
        const ms = await waitFor(() => prompts(events).includes(text), 1000, `${text} via ${mode}`);
        assert.ok(ms < 1000);
      }
      assert.equal(t.stats.watchErrors, 0);
    });
  }

  it('persists offsets and parser state, and resumes after a restart without re-reading', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one'), user('u2', 'two')]));
    const storeFile = path.join(tmp.dir, 'state', 'offsets.json');
    const store1 = await JsonOffsetStore.open(storeFile, { debounceMs: 10 });
    const a = tailer(file, { offsetStore: store1 });
    await a.t.start();
    assert.deepEqual(prompts(a.events), ['one', 'two']);
    a.t.dispose();
    await store1.flush();
    assert.deepEqual(fs.readdirSync(path.dirname(storeFile)), ['offsets.json']);

    fs.appendFileSync(file, jsonl([user('u3', 'three')]));
    const store2 = await JsonOffsetStore.open(storeFile);
    const b = tailer(file, { offsetStore: store2 });
    await b.t.start();
    assert.equal(b.t.stats.resumedFromOffset, true);
    assert.deepEqual(
      b.events.map((e) => e.event),
      [
        { kind: 'session', agent: 'claude', sessionId: SID, priorTurns: 2, cwd: '/r' },
        { kind: 'prompt', agent: 'claude', sessionId: SID, timestamp: '2026-10-05T07:14:02.000Z', text: 'three', recordId: 'u3' },
      ] satisfies AgentEvent[],
    );
    assert.equal(b.t.stats.bytesRead, fs.statSync(file).size - store1.get(file)!.offset);
  });

  it('ignores a saved offset that no longer matches the file (replaced while not running)', async () => {
    const file = writeFile(path.join(tmp.dir, `${SID}.jsonl`), jsonl([user('u1', 'one'), user('u2', 'two')]));
    const store = new MemoryOffsetStore();
    const a = tailer(file, { offsetStore: store });
    await a.t.start();
    a.t.dispose();
    fs.rmSync(file);
    writeFile(file, jsonl([user('v1', 'new one'), user('v2', 'new two'), user('v3', 'new three')]));
    const b = tailer(file, { offsetStore: store });
    await b.t.start();
    assert.equal(b.t.stats.resumedFromOffset, false);
    assert.deepEqual(prompts(b.events), ['new one', 'new two', 'new three']);
  });

  it('tails a Copilot Chat .jsonl mutation log: appended entries, a half-written line, the compacted (shorter) rewrite, a restart', async () => {
    const file = path.join(tmp.dir, 'workspaceStorage', 'abc', 'chatSessions', 'c0ffee00-1111-4222-8333-444455556666.jsonl');
    const store = new MemoryOffsetStore();
    const req = (id: string, text: string, withResult: boolean) => ({
      requestId: id,
      timestamp: Date.parse('2026-12-07T10:00:00.000Z'),
      message: { text },
      modelId: 'copilot/gpt-4.1',
      response: [{ value: `done: ${text}` }],
      ...(withResult
        ? {
            result: {
              metadata: {
                toolCallRounds: [
                  {
                    toolCalls: [
                      { id: `call-${id}`, name: 'create_file', arguments: JSON.stringify({ filePath: `/repo/${id}.ts`, content: 'x\n' }) },
                    ],
                  },
                ],
              },
            },
          }
        : {}),
    });
    const line = (e: unknown) => JSON.stringify(e) + '\n';
    writeFile(file, line({ kind: 0, v: { version: 3, sessionId: 'c0ffee00', requests: [req('r1', 'first', true)] } }));
    const { t, events } = tailer(file, { agent: 'copilot', offsetStore: store });
    await t.start();
    const kinds = () =>
      events
        .map((e) => e.event.kind)
        .filter((k) => k !== 'session')
        .join(',');
    assert.equal(kinds(), 'prompt,edit,response');
    assert.ok(events.every((e) => e.event.sessionId === 'c0ffee00'));
    // a second request pushed, then its result set; a half-written entry waits for the rest
    fs.appendFileSync(file, line({ kind: 2, k: ['requests'], v: [req('r2', 'second', false)] }) + '{"kind":1,"k":["requests",1,"res');
    await t.readNow();
    assert.equal(kinds(), 'prompt,edit,response,prompt');
    const r2 = req('r2', 'second', true);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\{"kind":1,"k":\["requests",1,"res$/, ''));
    fs.appendFileSync(file, line({ kind: 1, k: ['requests', 1, 'result'], v: r2.result }));
    await t.readNow();
    assert.equal(kinds(), 'prompt,edit,response,prompt,edit,response');
    // VS Code compacts the log: one kind-0 line with the same state, shorter than the log
    const before = fs.statSync(file).size;
    fs.writeFileSync(file, line({ kind: 0, v: { version: 3, sessionId: 'c0ffee00', requests: [req('r1', 'first', true), r2] } }));
    assert.ok(fs.statSync(file).size < before);
    await t.readNow();
    assert.equal(kinds(), 'prompt,edit,response,prompt,edit,response', 'nothing twice after the compaction');
    t.dispose();
    const again = tailer(file, { agent: 'copilot', offsetStore: store });
    await again.t.start();
    assert.deepEqual(
      again.events.map((e) => e.event.kind),
      ['session'],
    );
  });

  it('re-parses a legacy Gemini .json file on change and emits only new or changed records', async () => {
    const dir = path.join(fixturesRoot, 'gemini', 'json-legacy');
    const file = path.join(tmp.dir, 'chats', 'session-2026-01-10T09-00-3c9e1f2a.json');
    const store = new MemoryOffsetStore();
    const write = (name: string) => writeFile(file, fs.readFileSync(path.join(dir, name)));
    write('session.v1.json');
    const { t, events } = tailer(file, { agent: 'gemini', cwdHint: '/repo', offsetStore: store });
    await t.start();
    const kinds = () => events.map((e) => e.event.kind).join(',');
    assert.equal(kinds(), 'session,prompt,session,response');
    write('session.v2.json');
    await t.readNow();
    assert.equal(kinds(), 'session,prompt,session,response,edit,response');
    write('session.v4-partial.json');
    await t.readNow();
    write('session.v3.json');
    await t.readNow();
    assert.equal(kinds(), 'session,prompt,session,response,edit,response,rewind,prompt');
    assert.ok(events.every((e) => e.key.startsWith(`${file}#`)));
    t.dispose();

    // restart: the parser state comes back, nothing is emitted again except the session announcement
    const again = tailer(file, { agent: 'gemini', cwdHint: '/repo', offsetStore: store });
    await again.t.start();
    assert.deepEqual(
      again.events.map((e) => e.event.kind),
      ['session'],
    );
  });
});

describe('JsonOffsetStore', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => (tmp = makeTempDir('offsets')));
  afterEach(() => tmp.cleanup());

  const entry = (offset: number, updatedAt: number) => ({
    offset,
    size: offset,
    ino: '1',
    dev: '2',
    fingerprint: printOf(Buffer.from([0])),
    mtimeMs: 1,
    updatedAt,
  });

  it('starts empty on a missing or invalid file and drops invalid entries', async () => {
    const file = path.join(tmp.dir, 'o.json');
    assert.equal((await JsonOffsetStore.open(file)).size, 0);
    fs.writeFileSync(file, '{not json');
    const bad = await JsonOffsetStore.open(file);
    assert.equal(bad.size, 0);
    assert.equal(bad.counters.get('offsets.invalidFile'), 1);
    fs.writeFileSync(file, JSON.stringify({ version: 1, files: { '/a': entry(5, 1), '/b': { offset: -1 } } }));
    const partial = await JsonOffsetStore.open(file);
    assert.deepEqual(partial.get('/a'), entry(5, 1));
    assert.equal(partial.get('/b'), undefined);
    assert.equal(partial.counters.get('offsets.invalidEntries'), 1);
  });

  it('debounces writes, writes atomically and keeps the newest entries', async () => {
    const file = path.join(tmp.dir, 'nested', 'o.json');
    const s = await JsonOffsetStore.open(file, { debounceMs: 30, maxEntries: 2 });
    s.set('/a', entry(1, 1));
    s.set('/b', entry(2, 2));
    s.set('/c', entry(3, 3));
    assert.equal(fs.existsSync(file), false);
    await waitFor(() => fs.existsSync(file), 2000, 'debounced write');
    await s.flush();
    assert.equal(s.counters.get('offsets.writes'), 1);
    const back = await JsonOffsetStore.open(file);
    assert.deepEqual([back.get('/a'), back.get('/b')?.offset, back.get('/c')?.offset], [undefined, 2, 3]);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['o.json']);
    s.delete('/b');
    s.dispose();
    assert.equal((await JsonOffsetStore.open(file)).get('/b'), undefined);
  });
});
