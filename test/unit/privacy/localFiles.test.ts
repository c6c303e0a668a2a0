// Local files keep secrets to themselves (issue #14 part 6): everything under <git-dir>/agentnote/
// is 0600 (folders 0700), and transcript-offsets.json holds offsets and hashes, never bytes of a
// transcript.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JsonOffsetStore } from '../../../src/node/transcripts/jsonOffsetStore';
import { parsePrint, printOf } from '../../../src/node/transcripts/offsetStore';
import { TranscriptTailer, type TailedEvent } from '../../../src/node/transcripts/transcriptTailer';
import { tightenPrivateTree } from '../../../src/node/util/privateFiles';
import { lineFixtures } from '../agents/fixtureSupport';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { Harness } from '../recorder/recorderHarness';
import { makeTempDir, writeFile } from '../transcripts/tempFiles';

const posix = process.platform !== 'win32';

function walk(dir: string): { p: string; dir: boolean }[] {
  const out: { p: string; dir: boolean }[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push({ p, dir: true }, ...walk(p));
    else out.push({ p, dir: false });
  }
  return out;
}

/** Every run of 16+ printable characters of `bytes` (a transcript's text fragments). */
function fragments(bytes: Uint8Array): string[] {
  const text = Buffer.from(bytes).toString('utf8');
  return [...new Set(text.match(/[^\s"{}[\],:]{16,}/g) ?? [])];
}

describe('local files keep secrets to themselves', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();

  describe('transcript-offsets.json: offsets and hashes only', () => {
    let tmp: ReturnType<typeof makeTempDir>;
    beforeEach(() => (tmp = makeTempDir('offsets-privacy')));
    afterEach(() => tmp.cleanup());

    for (const f of lineFixtures()) {
      it(`${f.agent}/${f.formatVersion}/${f.name}: saved at every line, the file holds no text of the transcript`, async () => {
        const lines = Buffer.from(f.bytes).toString('utf8').split('\n');
        const name = path.basename(f.expected.ctx.filePath);
        const file = path.join(tmp.dir, name);
        const storeFile = path.join(tmp.dir, 'agentnote', 'transcript-offsets.json');
        const store = await JsonOffsetStore.open(storeFile, { debounceMs: 1 });
        const events: TailedEvent[] = [];
        const ctx = f.expected.ctx;
        const t = new TranscriptTailer({
          agent: f.agent,
          filePath: file,
          offsetStore: store,
          onEvents: (batch) => void events.push(...batch),
          useFsWatch: false,
          pollIntervalMs: 0,
          ...(ctx.cwdHint ? { cwdHint: ctx.cwdHint } : {}),
          ...(ctx.sessionIdHint ? { sessionIdHint: ctx.sessionIdHint } : {}),
          ...(ctx.sidechain ? { sidechain: ctx.sidechain } : {}),
        });
        try {
          writeFile(file, '');
          await t.start();
          for (let i = 0; i < lines.length; i += Math.max(1, Math.floor(lines.length / 8))) {
            fs.appendFileSync(file, lines.slice(i, i + Math.max(1, Math.floor(lines.length / 8))).join('\n') + '\n');
            await t.readNow();
            await store.flush();
            const saved = fs.readFileSync(storeFile, 'utf8');
            const entry = JSON.parse(saved).files[file];
            // kept on purpose: the session's metadata (id, working folder, model name) and ids
            const ps = (entry.parserState ?? {}) as { sessionId?: string; cwd?: string; model?: string };
            const meta = [ps.sessionId, ps.cwd, ps.model, file].filter((x): x is string => typeof x === 'string');
            for (const frag of fragments(f.bytes)) {
              if (meta.some((m) => m.includes(frag)) || /^[0-9a-f-]{16,}$/i.test(frag) || /^(toolu|call|msg|req)_[A-Za-z0-9]+$/.test(frag))
                continue;
              assert.ok(!saved.includes(frag), `offsets file holds ${JSON.stringify(frag)}`);
            }
            assert.match(entry.fingerprint, /^sha256:\d+:[0-9a-f]{64}$/);
            if (entry.tailFingerprint !== undefined) assert.match(entry.tailFingerprint, /^sha256:\d+:[0-9a-f]{64}$/);
          }
          if (posix) {
            assert.equal(fs.statSync(storeFile).mode & 0o777, 0o600);
            assert.equal(fs.statSync(path.dirname(storeFile)).mode & 0o777, 0o700);
          }
        } finally {
          t.dispose();
        }
      });
    }

    it('an offsets file of an older version (base64 bytes, parser text) is rewritten with hashes; the resume still works', async () => {
      const file = path.join(tmp.dir, 'a.jsonl');
      const head = Buffer.from('{"type":"user","secret":"sk-this-is-transcript-text"}\n');
      writeFile(file, head);
      const storeFile = path.join(tmp.dir, 'transcript-offsets.json');
      const legacy = {
        offset: head.length,
        size: head.length,
        ino: String(fs.statSync(file).ino),
        dev: String(fs.statSync(file).dev),
        fingerprint: head.subarray(0, 64).toString('base64'),
        tailFingerprint: head.subarray(head.length - 64).toString('base64'),
        mtimeMs: 1,
        parserState: { v: 1, prompts: 1, agentState: { messages: [['m1', ['the text of a response']]] } },
        updatedAt: 1,
      };
      fs.writeFileSync(storeFile, JSON.stringify({ version: 1, files: { [file]: legacy } }));
      const store = await JsonOffsetStore.open(storeFile, { debounceMs: 1 });
      const e = store.get(file)!;
      assert.equal(e.fingerprint, printOf(head.subarray(0, 64)));
      assert.equal(e.tailFingerprint, printOf(head.subarray(head.length - 64)));
      assert.deepEqual(e.parserState, { v: 1, prompts: 1 });
      assert.equal(store.counters.get('offsets.migratedEntries'), 1);
      await store.flush();
      const text = fs.readFileSync(storeFile, 'utf8');
      assert.ok(!text.includes(legacy.fingerprint) && !text.includes('text of a response'), text);
      // the legacy form is still understood by the check
      assert.equal(parsePrint(legacy.fingerprint)!.matches(head.subarray(0, 64)), true);
      assert.equal(parsePrint('sha256:bogus'), undefined);
    });
  });

  describe('file modes under <git-dir>/agentnote/', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.dispose();
      h = undefined;
    });

    (posix ? it : it.skip)('journal, capture and key files are 0600 and folders 0700, whatever the umask', async () => {
      const old = process.umask(0o000);
      try {
        h = await Harness.create({ 'a.ts': 'export {};\n' });
        const s = h.session('claude', '5b7d3c1e-2a4f-4e6b-8c9d-0e1f2a3b4c5d', 'claude-opus-4-6');
        await s.start();
        h.advance(1000);
        await s.prompt('Add the answer constant to a.ts');
        h.advance(500);
        const after = 'export {};\nexport const answer = 42;\n';
        await h.change('a.ts', after, 'disk');
        h.advance(100);
        await s.edit('a.ts', { tool: 'Write', toolUseId: 'toolu_1', contents: after });
        h.advance(500);
        await s.respond('Added it.');
        await h.tick();
        h.advance(3000);
        const sha = await h.commitAll('feat: answer');
        assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
        await h.tick();
      } finally {
        process.umask(old);
      }
      const root = path.join(h.repo.dir, '.git', 'agentnote');
      const all = walk(root);
      assert.ok(all.filter((e) => !e.dir).length >= 4, all.map((e) => e.p).join('\n'));
      assert.equal(fs.statSync(root).mode & 0o777, 0o700);
      for (const e of all) assert.equal(fs.statSync(e.p).mode & 0o777, e.dir ? 0o700 : 0o600, path.relative(root, e.p));
    });

    (posix ? it : it.skip)('a tree left by an older version is tightened when the repository opens', async () => {
      h = await Harness.create({ 'a.ts': 'export {};\n' });
      const root = path.join(h.repo.dir, '.git', 'agentnote');
      fs.mkdirSync(path.join(root, 'sessions', 'old'), { recursive: true, mode: 0o755 });
      fs.chmodSync(root, 0o755);
      fs.chmodSync(path.join(root, 'sessions'), 0o755);
      fs.chmodSync(path.join(root, 'sessions', 'old'), 0o777);
      fs.writeFileSync(path.join(root, 'sessions', 'old', 'prompts.jsonl'), '{}\n', { mode: 0o644 });
      fs.chmodSync(path.join(root, 'sessions', 'old', 'prompts.jsonl'), 0o644);
      await h.reopen();
      for (const e of walk(root)) assert.equal(fs.statSync(e.p).mode & 0o777, e.dir ? 0o700 : 0o600, path.relative(root, e.p));
      assert.equal(await tightenPrivateTree(root), 0, 'nothing left to change');
    });
  });
});
