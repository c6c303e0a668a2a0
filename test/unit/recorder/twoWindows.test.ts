// Two editor windows on one repository = two extension hosts = two recorders in two processes,
// tailing the same transcript, seeing the same file change and recording the same commit at the
// same moment. This runs exactly that with two real node processes (the in-host harness opens one
// workbench per code-server and runs the suite in it; a second window would run the suite twice).
// Expected: one note commit, every journal line intact, the prompt and the edit journaled once.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeNote } from '../../../src/core/notes/noteCodec';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { TestRepo } from './recorderHarness';

const SID = '3c9e2b1a-7d4f-4a6e-8b5c-9d0e1f2a3b4c';
const out = path.resolve(__dirname, '../../../src');

/** One "window": opens a recorder, tails the transcript, sees the file change, waits for `go`, records HEAD. */
const windowScript = `
const fs = require('node:fs');
const { RepositoryRecorder } = require(${JSON.stringify(path.join(out, 'node/recorder/repositoryRecorder.js'))});
const { GitRunner } = require(${JSON.stringify(path.join(out, 'node/git/gitRunner.js'))});
const { TranscriptTailer } = require(${JSON.stringify(path.join(out, 'node/transcripts/transcriptTailer.js'))});
const [root, transcript, go, before, after] = process.argv.slice(1);
const quiet = () => {};
const log = { trace: quiet, debug: quiet, info: quiet, warn: (m) => process.stderr.write('warn ' + m + '\\n'), error: (m) => process.stderr.write('error ' + m + '\\n') };
(async () => {
  const git = new GitRunner(root);
  const rec = await RepositoryRecorder.open({ root, git, log });
  rec.onTransition({ id: 'w' + process.pid, file: 'app.ts', time: Date.now(), before, after, source: 'disk' });
  const pending = [];
  const t = new TranscriptTailer({ agent: 'claude', filePath: transcript, useFsWatch: false, pollIntervalMs: 0,
    onEvents: (b) => pending.push(rec.onAgentEvents(b.map((e) => ({ event: e.event, key: e.key, transcriptPath: e.source.filePath, fileTimeMs: e.source.fileTimeMs })))) });
  await t.start();
  t.dispose();
  await Promise.all(pending);
  await rec.settle();
  process.stdout.write('ready\\n');
  while (!fs.existsSync(go)) await new Promise((r) => setTimeout(r, 5));
  const sha = (await git.run(['rev-parse', 'HEAD'])).trim();
  const outcome = await rec.recordCommit(sha);
  const counters = rec.counters.snapshot();
  await rec.dispose();
  process.stdout.write(JSON.stringify({ outcome, counters }) + '\\n');
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;

interface WindowResult {
  outcome: { kind: string };
  counters: Record<string, number>;
}

function startWindow(args: string[]): { ready: Promise<void>; done: Promise<WindowResult> } {
  const child = spawn(process.execPath, ['-e', windowScript, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (onReady = r));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
    if (stdout.includes('ready\n')) onReady();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const done = new Promise<WindowResult>((resolve, reject) => {
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`window exited ${code}: ${stderr}`));
      const last = stdout.trim().split('\n').pop() ?? '';
      resolve(JSON.parse(last) as WindowResult);
    });
  });
  return { ready, done };
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('two windows on one repository (two recorder processes)', function () {
  this.timeout(120_000);
  useIsolatedGitEnv();

  for (let round = 1; round <= 3; round++) {
    it(`one note, an intact journal, the prompt and the edit journaled once (round ${round})`, async () => {
      const repo = await TestRepo.create();
      try {
        const before = 'export const a = 1;\n';
        const after = 'export const a = 1;\nexport const b = 2;\n';
        await repo.write('app.ts', before);
        await repo.git(['add', '-A']);
        await repo.git(['commit', '-q', '-m', 'initial']);
        await repo.write('app.ts', after);
        const now = Date.now();
        const at = (ms: number) => new Date(now - 5000 + ms).toISOString();
        const cwd = repo.dir;
        const transcript = path.join(path.dirname(repo.dir), 'transcripts', `${SID}.jsonl`);
        fs.mkdirSync(path.dirname(transcript), { recursive: true });
        const records = [
          { type: 'user', uuid: 'u1', sessionId: SID, timestamp: at(0), cwd, message: { role: 'user', content: 'add b to app.ts' } },
          {
            type: 'assistant',
            uuid: 'a1',
            sessionId: SID,
            timestamp: at(100),
            cwd,
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-5',
              content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: path.join(cwd, 'app.ts'), content: after } }],
            },
          },
          {
            type: 'user',
            uuid: 'r1',
            sessionId: SID,
            timestamp: at(200),
            cwd,
            message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
          },
          {
            type: 'assistant',
            uuid: 'a2',
            sessionId: SID,
            timestamp: at(300),
            cwd,
            message: {
              id: 'msg_2',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-5',
              content: [{ type: 'text', text: 'Added b.' }],
            },
          },
        ];
        fs.writeFileSync(transcript, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
        const go = path.join(path.dirname(repo.dir), 'go');
        const args = [repo.dir, transcript, go, before, after];
        const w1 = startWindow(args);
        const w2 = startWindow(args);
        await Promise.all([w1.ready, w2.ready]);
        // the commit from a terminal; then both windows see HEAD move at the same moment
        await repo.git(['add', '-A']);
        await repo.git(['commit', '-q', '-m', 'feat: b']);
        const sha = await repo.head();
        fs.writeFileSync(go, '');
        const results = await Promise.all([w1.done, w2.done]);
        // seen once in CI (a note without its interaction, round 3 of 3): on a failure, the journal,
        // the note and both windows' outcomes and counters are printed, so the next one can be read
        const dump = async () => {
          const journalDir = path.join(repo.dir, '.git', 'agentnote');
          const files = filesUnder(journalDir).filter((x) => /\.(jsonl|json)$|turn$/.test(x));
          const parts = files.map((f) => `--- ${path.relative(journalDir, f)}\n${fs.readFileSync(f, 'utf8')}`);
          const noteText = (await repo.gitResult(['notes', '--ref=agentnote', 'show', sha])).stdout;
          return `windows: ${JSON.stringify(results)}\n--- note\n${noteText}\n${parts.join('\n')}`;
        };
        try {
          await checkRound(results, sha);
        } catch (e) {
          process.stderr.write(
            `two windows, round ${round}, failed; state:\n${await dump().catch((d: unknown) => `(state not read: ${String(d)})`)}\n`,
          );
          throw e;
        }
      } finally {
        await repo.remove();
      }

      async function checkRound(results: WindowResult[], sha: string): Promise<void> {
        assert.deepEqual(results.map((r) => r.outcome.kind).sort(), ['exists', 'written']);
        const noteCommits = (await repo.git(['log', '--format=%H', 'refs/notes/agentnote'])).trim().split('\n').filter(Boolean);
        assert.equal(noteCommits.length, 1, 'exactly one note commit');
        const note = decodeNote(await repo.git(['notes', '--ref=agentnote', 'show', sha]));
        assert.equal(note.kind, 'valid');
        if (note.kind === 'valid') {
          assert.equal(note.note.interactions.length, 1);
          assert.equal(note.note.interactions[0].prompt, 'add b to app.ts');
          assert.deepEqual(
            note.note.files.map((f) => [f.path, f.by_ai]),
            [['app.ts', true]],
          );
        }

        const journal = path.join(repo.dir, '.git', 'agentnote');
        const lines = (rel: string) => {
          const f = path.join(journal, 'sessions', SID, rel);
          return fs.existsSync(f)
            ? fs
                .readFileSync(f, 'utf8')
                .split('\n')
                .filter((l) => l.trim())
            : [];
        };
        for (const f of filesUnder(journal).filter((x) => x.endsWith('.jsonl'))) {
          for (const l of fs.readFileSync(f, 'utf8').split('\n'))
            if (l.trim()) assert.doesNotThrow(() => JSON.parse(l), `${path.relative(journal, f)}: ${l.slice(0, 80)}`);
        }
        const promptLines = fs
          .readdirSync(path.join(journal, 'sessions', SID))
          .filter((n) => /^prompts(-[0-9a-z]+)?\.jsonl$/.test(n))
          .flatMap((n) => lines(n));
        assert.equal(promptLines.length, 1, 'the prompt is journaled once');
        assert.equal(
          lines('turn').length === 0 ? fs.readFileSync(path.join(journal, 'sessions', SID, 'turn'), 'utf8') : lines('turn')[0],
          '1',
        );
        assert.equal(lines('ext/prompts.jsonl').length, 1);
        assert.equal(lines('changes.jsonl').length, 1, 'the edit is journaled once');
        assert.equal(lines('ext/pairs.jsonl').length, 1);
        const consumed = lines('committed_pairs.jsonl');
        assert.equal(new Set(consumed).size, consumed.length, 'no consumption line twice');
        assert.ok(!fs.existsSync(path.join(journal, 'sessions', SID, 'ext', 'journal.lock')), 'no lock left behind');
      }
    });
  }
});
