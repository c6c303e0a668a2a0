// Derived notes (src/node/recorder/derivedNotes.ts, src/core/notes/derivedNote.ts, issue #18 part 2):
// a hosting service squashes or rebases a noted feature branch into main with another message and
// committer and deletes the branch; the clone that pulls main, and a fresh clone that fetched only
// main and the notes, find the AI lines again from the notes' line hashes. Real repositories, a
// bare remote on disk, three clones.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { alignInOrder, derivedNote } from '../../../src/core/notes/derivedNote';
import { isDistinctiveLine, lineHash, withLineHashes } from '../../../src/core/notes/lineHashes';
import { decodeNote, encodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { nullLogger } from '../../../src/core/ports';
import { GitRunner, pinnedDiffArgs } from '../../../src/node/git/gitRunner';
import { addedTexts } from '../../../src/node/recorder/commitRecorder';
import { deriveNotes, forgetDerivationMemory } from '../../../src/node/recorder/derivedNotes';
import { TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

const base = ['// app', 'export interface Item {', '  price: number;', '  qty: number;', '}'];
const aiBlock = [
  'export function total(items: Item[]): number {',
  '  let sum = 0;',
  '  for (const i of items) sum += i.price;',
  '  return sum;',
  '}',
];
const humanLine = '// end of totals';
const fixedLine = '  for (const i of items) sum += i.price * i.qty;';
const file = (lines: string[]) => `${lines.join('\n')}\n`;

/** The note our recorder writes for commit `sha`: AI lines `ranges` of `path`, with line hashes from the commit's patch. */
async function recordNote(
  repo: TempRepo,
  sha: string,
  p: string,
  ranges: [number, number][],
  total: number,
  prompt: string,
  opts: { hashes?: boolean } = {},
) {
  const ai = ranges.reduce((n, [s, e]) => n + e - s + 1, 0);
  const note: AgentNoteV1 = {
    v: 1,
    agent: 'claude',
    session_id: '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f',
    timestamp: '2026-12-01T10:00:00.000Z',
    model: 'claude-sonnet-4',
    interactions: [{ prompt, response: 'Added total().', files_touched: [p] }],
    files: [{ path: p, by_ai: true, ai_ranges: ranges.map(([start, end]) => ({ start, end, interaction: 0 })) }],
    attribution: { ai_ratio: Math.round((ai / total) * 100), method: 'line', lines: { ai_added: ai, total_added: total, deleted: 0 } },
  };
  const patch = await repo.git(['show', '--format=', '--patch', ...pinnedDiffArgs, sha]);
  const hashed = opts.hashes === false ? note : withLineHashes(note, addedTexts(patch));
  const tmp = path.join(os.tmpdir(), `an-note-${process.pid}-${sha.slice(0, 8)}.json`);
  fs.writeFileSync(tmp, encodeNote(hashed).trimEnd());
  await repo.git(['notes', '--ref=agentnote', 'add', '-F', tmp, sha]);
  fs.rmSync(tmp);
  return hashed;
}

async function noteOf(repo: TempRepo, sha: string): Promise<AgentNoteV1 | undefined> {
  const r = await repo.gitResult(['notes', '--ref=agentnote', 'show', sha]);
  if (r.code !== 0) return undefined;
  const d = decodeNote(r.stdout);
  assert.equal(d.kind, 'valid');
  return d.kind === 'valid' ? d.note : undefined;
}

/** A runner that keeps the input of every `cat-file --batch` (the note blobs read). */
class SpyRunner extends GitRunner {
  batchInputs: string[] = [];
  override async runBuffer(args: string[], opts: Parameters<GitRunner['runBuffer']>[1] = {}): Promise<Buffer> {
    if (args[0] === 'cat-file' && args[1] === '--batch' && typeof opts.input === 'string') this.batchInputs.push(opts.input);
    return super.runBuffer(args, opts);
  }
}

const derive = (repo: TempRepo, git: GitRunner = new GitRunner(repo.dir)) =>
  deriveNotes(git, {
    log: nullLogger,
    commonDir: path.join(repo.dir, '.git'),
    now: Date.parse('2026-12-07T08:00:00Z'),
  });

const hosting = {
  GIT_COMMITTER_NAME: 'GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.com',
  GIT_AUTHOR_NAME: 'Ann Dev',
  GIT_AUTHOR_EMAIL: 'ann@example.com',
};

describe('derived notes after a hosting service squash or rebase merge', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let remote: TempRepo;
  let first: TempRepo;
  let hostingClone: TempRepo;
  const cleanup: TempRepo[] = [];
  let aSha = '';

  beforeEach(async () => {
    remote = await TempRepo.create({ bare: true });
    first = await TempRepo.clone(remote.dir);
    await first.commit({ 'src/app.ts': file(base) }, 'chore: items');
    await first.git(['push', '-q', 'origin', 'main']);
    // the feature branch: the AI writes total() (lines 6–10), the person adds a comment line; then
    // the person changes one of the AI lines and adds a README line in a second commit
    await first.git(['checkout', '-q', '-b', 'feature']);
    aSha = await first.commit({ 'src/app.ts': file([...base, ...aiBlock, humanLine]) }, 'feat: total');
    await recordNote(first, aSha, 'src/app.ts', [[6, 10]], 6, 'Add a total() over the items\nwith a loop');
    const fixed = [...aiBlock];
    fixed[2] = fixedLine;
    await first.commit(
      { 'src/app.ts': file([...base, ...fixed, humanLine]), 'README.md': 'Totals now count quantities.\n' },
      'fix: count qty',
    );
    await first.git(['push', '-q', 'origin', 'feature', 'refs/notes/agentnote']);
    await first.git(['checkout', '-q', 'main']);
    // meanwhile main inserted two lines at the top
    hostingClone = await TempRepo.clone(remote.dir);
    await hostingClone.commit({ 'src/app.ts': file(['// Copyright 2026', '// SPDX-License-Identifier: MIT', ...base]) }, 'chore: header');
    await hostingClone.git(['push', '-q', 'origin', 'main']);
    cleanup.push(remote, first, hostingClone);
  });

  afterEach(async () => {
    for (const r of cleanup.splice(0)) await r.remove();
  });

  it('a squash merge: the clone that pulls main and a fresh clone of main with the notes get the same derived note', async () => {
    await hostingClone.git(['fetch', '-q', 'origin']);
    await hostingClone.git(['merge', '--squash', 'origin/feature']);
    await hostingClone.git(['commit', '-q', '-m', 'Add totals (#12)'], { env: hosting });
    const squash = await hostingClone.head();
    await hostingClone.git(['push', '-q', 'origin', 'main']);
    await hostingClone.git(['push', '-q', 'origin', '--delete', 'feature']);

    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    assert.equal(await first.head(), squash);
    const r1 = await derive(first);
    assert.deepEqual(r1.derived, [squash]);
    const n1 = await noteOf(first, squash);
    assert.ok(n1);
    // squash adds app.ts lines 8–13 (the block moved down by the header) and one README line;
    // the AI lines the person kept are 8, 9, 11, 12 (line 10 is the person's fix, 13 the comment)
    assert.deepEqual(n1.derived_from, [aSha]);
    const app = n1.files.find((f) => f.path === 'src/app.ts');
    assert.deepEqual(app?.ai_ranges, [
      { start: 8, end: 9, interaction: 0 },
      { start: 11, end: 12, interaction: 0 },
    ]);
    assert.equal(app?.by_ai, true);
    assert.deepEqual(app?.ai_line_hashes, [aiBlock[0], aiBlock[1], aiBlock[3], aiBlock[4]].map(lineHash));
    assert.deepEqual(
      n1.files.find((f) => f.path === 'README.md'),
      { path: 'README.md', by_ai: false },
    );
    assert.deepEqual(n1.attribution, { ai_ratio: 57, method: 'line', lines: { ai_added: 4, total_added: 7, deleted: 0 } });
    assert.equal(n1.interactions[0].prompt, 'Add a total() over the items\nwith a loop');
    // the header commit has no source: no note; a second look derives nothing again
    assert.equal(await noteOf(first, (await first.git(['rev-parse', `${squash}~1`])).trim()), undefined);
    assert.deepEqual((await derive(first)).derived, []);

    // a fresh clone of main only, with the notes: the feature commits are not even there
    // (a file:// URL: a plain path would hard-link the remote's whole object store)
    const third = await TempRepo.clone(`file://${remote.dir}`);
    cleanup.push(third);
    // the extension looks before the notes arrive (nothing to match), then a fetch brings them
    assert.deepEqual((await derive(third)).derived, []);
    forgetDerivationMemory(); // and the editor restarts: the waiting commit is in the state file
    await third.git(['fetch', '-q', 'origin', 'refs/notes/agentnote:refs/notes/agentnote']);
    assert.notEqual((await third.gitResult(['cat-file', '-e', aSha])).code, 0, 'the feature commit is not in this clone');
    const r3 = await derive(third);
    assert.deepEqual(r3.derived, [squash]);
    const n3 = await noteOf(third, squash);
    assert.deepEqual({ ...n3, timestamp: '' }, { ...n1, timestamp: '' });
  });

  it('a rebase merge: the rebased AI commit gets its note with the shifted lines, the rebased human commit none', async () => {
    await hostingClone.git(['fetch', '-q', 'origin']);
    await hostingClone.git(['checkout', '-q', '-b', 'pr', 'origin/feature']);
    await hostingClone.git(['rebase', '-q', 'main'], { env: hosting });
    await hostingClone.git(['push', '-q', 'origin', 'pr:main']);
    await hostingClone.git(['push', '-q', 'origin', '--delete', 'feature']);
    const [fixCopy, aCopy] = (await hostingClone.git(['rev-list', '-2', 'pr'])).trim().split('\n');

    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    const r = await derive(first);
    assert.deepEqual(r.derived, [aCopy]);
    const n = await noteOf(first, aCopy);
    assert.ok(n);
    assert.deepEqual(n.derived_from, [aSha]);
    assert.deepEqual(n.files, [
      { path: 'src/app.ts', by_ai: true, ai_ranges: [{ start: 8, end: 12, interaction: 0 }], ai_line_hashes: aiBlock.map(lineHash) },
    ]);
    assert.deepEqual(n.attribution, { ai_ratio: 83, method: 'line', lines: { ai_added: 5, total_added: 6, deleted: 0 } });
    assert.equal(await noteOf(first, fixCopy), undefined);
  });

  it("a note without line hashes (older, or the Agent Note CLI's) is a source where its commit is here, and only there", async () => {
    // the feature's note as the CLI writes it: ai_ranges, no ai_line_hashes
    await first.git(['notes', '--ref=agentnote', 'remove', aSha]);
    await recordNote(first, aSha, 'src/app.ts', [[6, 10]], 6, 'Add a total() over the items', { hashes: false });
    await first.git(['push', '-q', '-f', 'origin', 'refs/notes/agentnote']);
    await hostingClone.git(['fetch', '-q', 'origin']);
    await hostingClone.git(['merge', '--squash', 'origin/feature']);
    await hostingClone.git(['commit', '-q', '-m', 'Add totals (#12)'], { env: hosting });
    const squash = await hostingClone.head();
    await hostingClone.git(['push', '-q', 'origin', 'main']);
    await hostingClone.git(['push', '-q', 'origin', '--delete', 'feature']);

    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    assert.deepEqual((await derive(first)).derived, [squash]);
    const n = await noteOf(first, squash);
    assert.deepEqual(n?.derived_from, [aSha]);
    const app = n?.files.find((f) => f.path === 'src/app.ts');
    // hashed from the feature commit's own diff: the kept AI lines, the person's fix left out
    assert.deepEqual(app?.ai_ranges, [
      { start: 8, end: 9, interaction: 0 },
      { start: 11, end: 12, interaction: 0 },
    ]);
    assert.deepEqual(app?.ai_line_hashes, [aiBlock[0], aiBlock[1], aiBlock[3], aiBlock[4]].map(lineHash));

    // a fresh clone of main has the note but not the feature commit: nothing to hash, a gap
    const third = await TempRepo.clone(`file://${remote.dir}`);
    cleanup.push(third);
    await third.git(['fetch', '-q', 'origin', 'refs/notes/agentnote:refs/notes/agentnote']);
    assert.deepEqual((await derive(third)).derived, []);
    assert.equal(await noteOf(third, squash), undefined);
  });

  it('the sources follow the notes: only new notes are read, a removed note is no source, a note added back is', async () => {
    const git = new SpyRunner(first.dir);
    // a first look (an unrelated commit on main) reads every note once
    await hostingClone.commit({ 'docs/a.md': 'About totals and items.\n' }, 'docs: a');
    await hostingClone.git(['push', '-q', 'origin', 'main']);
    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    await derive(first, git);
    const noteBlob = (await first.git(['rev-parse', `refs/notes/agentnote:${aSha}`])).trim();
    assert.ok(
      git.batchInputs.some((i) => i.includes(noteBlob)),
      'the first look read the note',
    );

    // the note is removed, then the squash arrives: no source, no claim
    const noteText = await first.git(['notes', '--ref=agentnote', 'show', aSha]);
    await first.git(['notes', '--ref=agentnote', 'remove', aSha]);
    await hostingClone.git(['fetch', '-q', 'origin']);
    await hostingClone.git(['merge', '--squash', 'origin/feature']);
    await hostingClone.git(['commit', '-q', '-m', 'Add totals (#12)'], { env: hosting });
    const squash = await hostingClone.head();
    await hostingClone.git(['push', '-q', 'origin', 'main']);
    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    git.batchInputs = [];
    assert.deepEqual((await derive(first, git)).derived, []);
    assert.equal(await noteOf(first, squash), undefined);
    assert.deepEqual(git.batchInputs, [], 'no note blob read again');

    // an unrelated note is added: read alone; then the source's note comes back: the pending squash gets its note
    await first.git(['notes', '--ref=agentnote', 'add', '-m', '{"v":1}', (await first.git(['rev-parse', 'HEAD~2'])).trim()]);
    git.batchInputs = [];
    assert.deepEqual((await derive(first, git)).derived, []);
    assert.equal(git.batchInputs.join('').trim().split('\n').length, 1, 'only the new note read');
    const tmp = path.join(os.tmpdir(), `an-back-${process.pid}.json`);
    fs.writeFileSync(tmp, noteText);
    await first.git(['notes', '--ref=agentnote', 'add', '-F', tmp, aSha]);
    fs.rmSync(tmp);
    git.batchInputs = [];
    assert.deepEqual((await derive(first, git)).derived, [squash]);
    assert.deepEqual(
      git.batchInputs.map((i) => i.trim()),
      [noteBlob],
      'only the note added back is read',
    );
    assert.deepEqual((await noteOf(first, squash))?.derived_from, [aSha]);
  });

  it('a rebase merge whose branch stays on the server: its rebased copies get their notes', async () => {
    await hostingClone.git(['fetch', '-q', 'origin']);
    await hostingClone.git(['checkout', '-q', '-b', 'pr', 'origin/feature']);
    await hostingClone.git(['rebase', '-q', 'main'], { env: hosting });
    await hostingClone.git(['push', '-q', 'origin', 'pr:main']);
    const aCopy = (await hostingClone.git(['rev-parse', 'pr~1'])).trim();
    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    await first.git(['fetch', '-q', 'origin']); // origin/feature is still there, with the sources on it
    assert.deepEqual((await derive(first)).derived, [aCopy]);
    assert.deepEqual((await noteOf(first, aCopy))?.derived_from, [aSha]);
  });

  it('a noted commit in the new commit’s own history is no source (a revert re-applied on main)', async () => {
    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    const lines = [
      'export function discount(total: number): number {',
      '  const rate = total > 100 ? 0.1 : 0;',
      '  return total * (1 - rate);',
      '}',
    ];
    const c = await first.commit({ 'src/discount.ts': file(lines) }, 'feat: discount');
    await recordNote(first, c, 'src/discount.ts', [[1, 4]], 4, 'Add a discount');
    await first.git(['push', '-q', 'origin', 'main', 'refs/notes/agentnote']);
    await hostingClone.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    await hostingClone.git(['revert', '--no-edit', 'HEAD'], { env: hosting });
    await hostingClone.git(['revert', '--no-edit', 'HEAD'], { env: hosting });
    const reapplied = await hostingClone.head();
    await hostingClone.git(['push', '-q', 'origin', 'main']);
    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    const r = await derive(first);
    assert.ok(r.looked >= 2, 'the two reverts were looked at');
    assert.deepEqual(r.derived, [], 'the noted commit is in their history: not a source');
    assert.equal(await noteOf(first, reapplied), undefined);
  });

  it('an unrelated commit that happens to contain one identical line gets no claim', async () => {
    // it arrives like a squash would: made elsewhere, pushed, pulled
    await hostingClone.commit(
      {
        'src/other.ts': file([
          'export function count(xs: number[]): number {',
          '  let sum = 0;',
          '  for (const x of xs) sum += 1;',
          '  return xs.length;',
          '}',
        ]),
      },
      'feat: count',
    );
    const other = await hostingClone.head();
    await hostingClone.git(['push', '-q', 'origin', 'main']);
    await first.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    const r = await derive(first);
    assert.ok(r.unnoted >= 1, 'the commit was looked at');
    assert.equal(r.derived.length, 0);
    assert.equal(await noteOf(first, other), undefined);
  });
});

describe('derivedNote rule (pure)', () => {
  const clock = { now: () => Date.parse('2026-12-07T08:00:00Z') };
  const src = (lines: string[], ranges: [number, number][]): AgentNoteV1 =>
    withLineHashes(
      {
        v: 1,
        agent: 'codex',
        session_id: 's',
        timestamp: '2026-12-01T10:00:00.000Z',
        model: null,
        interactions: [{ prompt: 'p', response: null }],
        files: [{ path: 'a.ts', by_ai: true, ai_ranges: ranges.map(([start, end]) => ({ start, end, interaction: 0 })) }],
        attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: lines.length, total_added: lines.length, deleted: 0 } },
      },
      new Map([['a.ts', new Map(lines.map((t, i) => [i + 1, t]))]]),
    );
  const target = (lines: string[]) => ({
    path: 'a.ts',
    diff1: [{ oldStart: 0, oldCount: 0, newStart: 1, newCount: lines.length }],
    added: new Map(lines.map((t, i) => [i + 1, t])),
  });

  it('common lines alone (braces, return;) never make a source', () => {
    const s = src(['}', '  return;', '});', 'const value = compute();'], [[1, 4]]);
    const r = derivedNote({
      sources: [{ commit: 'a'.repeat(40), note: s }],
      files: [target(['}', '  return;', '});', 'const value = compute();'])],
      clock,
    });
    assert.equal(r.note, undefined, 'one distinctive line is not enough');
    assert.equal(r.matches[0].qualified, false);
    assert.equal(isDistinctiveLine('  return;'), false);
  });

  it('lines out of order are not matched in order; less than half matched is no source', () => {
    const lines = ['const alpha = 1;', 'const beta = 2;', 'const gamma = 3;', 'const delta = 4;', 'const epsilon = 5;'];
    const s = src(lines, [[1, 5]]);
    const reversed = [...lines].reverse();
    const r = derivedNote({ sources: [{ commit: 'b'.repeat(40), note: s }], files: [target(reversed)], clock });
    assert.equal(r.matches[0].matched, 1);
    assert.equal(r.note, undefined);
  });

  it('a later source owns a line both match, and a hash list that does not line up is ignored', () => {
    const lines = ['const alpha = 1;', 'const beta = 2;', 'const gamma = 3;'];
    const older = src(lines, [[1, 3]]);
    const newer = { ...src(lines, [[1, 3]]), timestamp: '2026-12-02T10:00:00.000Z', interactions: [{ prompt: 'q', response: null }] };
    const r = derivedNote({
      sources: [
        { commit: 'c'.repeat(40), note: older },
        { commit: 'd'.repeat(40), note: newer },
      ],
      files: [target(lines)],
      clock,
    });
    assert.deepEqual(r.note?.derived_from, ['d'.repeat(40)]);
    assert.equal(r.note?.interactions[r.note.files[0].ai_ranges![0].interaction!].prompt, 'q');
    const broken = { ...older, files: [{ ...older.files[0], ai_line_hashes: older.files[0].ai_line_hashes!.slice(1) }] };
    assert.equal(derivedNote({ sources: [{ commit: 'e'.repeat(40), note: broken }], files: [target(lines)], clock }).note, undefined);
  });

  it('alignInOrder takes the trivial lines between and next to matched ones only', () => {
    const t = (text: string, line: number) => ({ line, hash: lineHash(text), distinctive: isDistinctiveLine(text) });
    const srcLines = ['}', 'const alpha = 1;', '}', 'const beta = 2;', '}'];
    const tgt = [t('}', 1), t('}', 5), t('const alpha = 1;', 6), t('}', 7), t('const beta = 2;', 8), t('}', 9), t('}', 20)];
    assert.deepEqual(alignInOrder(srcLines.map(lineHash), tgt), [1, 2, 3, 4, 5]);
  });
});
