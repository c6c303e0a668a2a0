// Cross-check against notes written by the Agent Note CLI v1.0.8 (test/fixtures/peer-repos). Where a
// note says every added line was AI, pre = parent blob and post = committed blob per AI file is an
// exact reconstruction of the evidence, so analyzeCommit must reproduce the note's numbers and files[].
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { noteFiles } from '../../../src/core/attribution/commitAttribution';
import { analyzeCommit, CommitDiffs, type EditPairInput } from '../../../src/node/attribution/commitDiffs';
import { GitRunner } from '../../../src/node/git/gitRunner';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { peerReposDir, TempRepo, useIsolatedGitEnv } from './fixtureRepo';

interface Bundle {
  repo: TempRepo;
  runner: GitRunner;
  shaOf(subject: string): string;
  note(sha: string): AgentNoteV1;
  /** One pair per AI file of the note: pre = parent blob, post = committed blob. */
  wholeFilePairs(sha: string, note: AgentNoteV1): Promise<EditPairInput[]>;
}

function openBundle(name: string): Bundle {
  const repo = TempRepo.fromBundle(path.join(peerReposDir, `${name}.bundle`));
  const runner = new GitRunner(repo.dir);
  const subjects = new Map(
    repo
      .git(['log', '--format=%H %s'])
      .trim()
      .split('\n')
      .map((l) => [l.slice(41), l.slice(0, 40)] as const),
  );
  return {
    repo,
    runner,
    shaOf: (subject) => subjects.get(subject) ?? assert.fail(`no commit ${subject}`),
    note: (sha) => JSON.parse(repo.git(['notes', '--ref=agentnote', 'show', sha])) as AgentNoteV1,
    async wholeFilePairs(sha, note) {
      const blobs = await new CommitDiffs(runner).commitBlobs(sha);
      return note.files
        .filter((f) => f.by_ai)
        .map((f, i) => {
          const b = blobs.find((x) => x.path === f.path) ?? assert.fail(f.path);
          return {
            file: f.path,
            preBlob: b.parentBlob,
            postBlob: b.committedBlob,
            interactionKey: 'turn',
            agent: note.agent ?? 'claude',
            timestamp: i,
          };
        });
    },
  };
}

describe('peer bundles (Agent Note CLI v1.0.8 notes)', () => {
  useIsolatedGitEnv();
  const open: Bundle[] = [];
  after(() => open.forEach((b) => b.repo.dispose()));
  const bundle = (name: string): Bundle => {
    const b = openBundle(name);
    open.push(b);
    return b;
  };

  const allAi: [string, string][] = [
    ['todo-api', 'feat: add Todo model and in-memory store'],
    ['todo-api', 'feat: paginate GET /todos with a cursor'],
    ['todo-api', 'refactor: drop the unused completeAll helper'],
    ['shop-cart', 'refactor: move tax rules into src/tax.ts'],
    ['weather-cli', 'feat: fetch forecasts from Open-Meteo'],
    ['weather-cli', 'feat: add unit conversion helpers'],
    ['weather-cli', 'feat: format temperatures with one decimal'],
    ['weather-cli', 'feat: show the Beaufort wind force'],
    ['todo-api', 'build: add OpenAPI spec, generated types and dist build'],
  ];
  const cache = new Map<string, Bundle>();
  for (const [name, subject] of allAi) {
    it(`${name} "${subject}": same attribution and files[] as the CLI note`, async () => {
      if (!cache.has(name)) cache.set(name, bundle(name));
      const b = cache.get(name) as Bundle;
      const sha = b.shaOf(subject);
      const note = b.note(sha);
      const result = await analyzeCommit(b.runner, sha, await b.wholeFilePairs(sha, note));
      assert.deepEqual(result.attribution, note.attribution);
      assert.deepEqual(
        noteFiles(result, () => 0, { ranges: false }),
        note.files,
      );
      assert.equal(result.summary, 'cli');
      assert.deepEqual(result.degraded, []);
    });
  }

  it('todo-api "feat: add Todo model…" is 88/88/1 at 100%, with ranges covering every added line', async () => {
    const b = cache.get('todo-api') ?? bundle('todo-api');
    const sha = b.shaOf('feat: add Todo model and in-memory store');
    const result = await analyzeCommit(b.runner, sha, await b.wholeFilePairs(sha, b.note(sha)));
    assert.deepEqual(result.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 88, total_added: 88, deleted: 1 } });
    assert.deepEqual(
      result.files.map((f) => [f.path, f.lines?.total_added, f.ranges.map((r) => `${r.start}-${r.end}`)]),
      [
        ['src/index.ts', 6, ['2-2', '7-11']],
        ['src/routes.ts', 27, ['1-27']],
        ['src/store.ts', 47, ['1-47']],
        ['src/todo.ts', 8, ['1-8']],
      ],
    );
  });

  it('shop-cart "feat: support percentage discount codes": a stale Cursor post blob ⇒ file level 67%, as the CLI', async () => {
    const b = bundle('shop-cart');
    const sha = b.shaOf('feat: support percentage discount codes');
    const note = b.note(sha);
    const pairs = (await b.wholeFilePairs(sha, note)).map((p) => ({
      file: p.file,
      postBlob: p.postBlob,
      interactionKey: 'turn',
      agent: 'cursor',
      timestamp: p.timestamp,
    }));
    // The human changed src/discount.ts after Cursor's last edit: its last post blob is not the committed one.
    const discount = pairs.find((p) => p.file === 'src/discount.ts') ?? assert.fail();
    discount.postBlob = b.repo.hashObject('Cursor version of src/discount.ts\n');
    const result = await analyzeCommit(b.runner, sha, pairs);
    assert.deepEqual(result.attribution, note.attribution);
    assert.deepEqual(
      noteFiles(result, () => 0, { ranges: false }),
      note.files,
    );
    assert.equal(result.summary, 'commitFallback');

    // Deliberate difference: the Codex commit the CLI kept at file level (no pre-blobs) becomes
    // line-level with our post-match evidence: 29 AI lines of 31 (the human's package.json lines).
    const codexSha = b.shaOf('test: cover cart totals and discounts');
    const codexNote = b.note(codexSha);
    assert.deepEqual(codexNote.attribution, { ai_ratio: 50, method: 'file' });
    const codexPairs = (await b.wholeFilePairs(codexSha, codexNote)).map((p) => ({
      file: p.file,
      postBlob: p.postBlob,
      interactionKey: 'turn',
      agent: 'codex',
      timestamp: 0,
    }));
    const ours = await analyzeCommit(b.runner, codexSha, codexPairs);
    assert.equal(ours.summary, 'perFile');
    assert.deepEqual(ours.attribution, { ai_ratio: 94, method: 'line', lines: { ai_added: 29, total_added: 31, deleted: 1 } });
    assert.deepEqual(
      noteFiles(ours, () => 0, { ranges: false }),
      codexNote.files,
    );
  });
});
