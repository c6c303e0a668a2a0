import * as assert from 'node:assert/strict';
import { parseDiffHunks, type DiffHunk } from '../../../src/core/attribution/diffHunks';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { mapUnchangedLine, rewriteNote } from '../../../src/core/notes/rewriteNote';
import { pinnedDiffArgs } from '../../../src/node/git/gitRunner';
import { TempRepo, useIsolatedGitEnv } from '../attribution/fixtureRepo';

const clock = { now: () => Date.UTC(2026, 0, 2) };

function sourceNote(
  path: string,
  ranges: { start: number; end: number; interaction: number | null }[],
  prompts = ['add the helper'],
): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: 's-1',
    timestamp: '2026-01-01T00:00:00.000Z',
    model: 'm',
    interactions: prompts.map((p) => ({ prompt: p, response: 'done', files_touched: [path, 'gone.txt'] })),
    files: [{ path, by_ai: true, ai_ranges: ranges }],
    attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } },
  };
}

function lines(...xs: string[]): string {
  return xs.map((x) => `${x}\n`).join('');
}

describe('rewriteNote: notes recomputed for a rewritten commit', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TempRepo;
  beforeEach(() => {
    repo = TempRepo.create('an-rewrite-');
  });
  afterEach(() => repo.dispose());

  const diff1 = (sha: string, path: string): DiffHunk[] =>
    parseDiffHunks(
      repo.git(['diff-tree', '--patch', '--root', '--no-commit-id', '-r', '--no-renames', ...pinnedDiffArgs, sha, '--', path]),
    );
  const between = (a: string, b: string, path: string): DiffHunk[] =>
    parseDiffHunks(repo.git(['diff', ...pinnedDiffArgs, '--no-renames', a, b, '--', path]));

  it('maps unchanged old lines through -U0 hunks and drops changed ones', () => {
    const hunks = [
      { oldStart: 0, oldCount: 0, newStart: 1, newCount: 2 },
      { oldStart: 3, oldCount: 1, newStart: 5, newCount: 1 },
      { oldStart: 5, oldCount: 2, newStart: 6, newCount: 0 },
    ];
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map((l) => mapUnchangedLine(hunks, l)),
      [3, 4, undefined, 6, undefined, undefined, 7],
    );
  });

  it('rebase onto a main that inserted lines above: ai_ranges follow the new line numbers', () => {
    repo.write('a.txt', lines('one', 'two'));
    repo.commitAll('base');
    repo.git(['checkout', '-q', '-b', 'feature']);
    repo.write('a.txt', lines('one', 'two', 'ai 1', 'ai 2', 'human 3'));
    const old = repo.commitAll('feature');
    repo.git(['checkout', '-q', 'main']);
    repo.write('a.txt', lines('top 1', 'top 2', 'one', 'two'));
    repo.commitAll('main inserts above');
    repo.git(['checkout', '-q', 'feature']);
    repo.git(['rebase', '-q', 'main']);
    const rebased = repo.head();
    assert.notEqual(rebased, old);
    const note = rewriteNote({
      sources: [{ note: sourceNote('a.txt', [{ start: 3, end: 4, interaction: 0 }]) }],
      files: [{ path: 'a.txt', diff1: diff1(rebased, 'a.txt'), fromSource: [between(old, rebased, 'a.txt')] }],
      clock,
    });
    assert.ok(note);
    assert.deepEqual(note.files, [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 5, end: 6, interaction: 0 }] }]);
    assert.deepEqual(note.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } });
    assert.equal(note.timestamp, '2026-01-02T00:00:00.000Z');
    // files_touched restricted to the new commit's files
    assert.deepEqual(note.interactions, [{ prompt: 'add the helper', response: 'done', files_touched: ['a.txt'] }]);
  });

  it("a conflict resolved by the person inside the AI hunk: the resolved lines are the person's", () => {
    repo.write('a.txt', lines('one', 'two'));
    repo.commitAll('base');
    repo.git(['checkout', '-q', '-b', 'feature']);
    repo.write('a.txt', lines('one', 'two', 'ai 1', 'ai 2', 'ai 3'));
    const old = repo.commitAll('feature');
    repo.git(['checkout', '-q', 'main']);
    repo.write('a.txt', lines('one', 'two', 'main 3'));
    repo.commitAll('main appends');
    repo.git(['checkout', '-q', 'feature']);
    assert.throws(() => repo.git(['rebase', '-q', 'main']));
    // the person resolves: keeps main's line, rewrites "ai 2", keeps the other AI lines
    repo.write('a.txt', lines('one', 'two', 'main 3', 'ai 1', 'AI 2 fixed by hand', 'ai 3'));
    repo.git(['add', 'a.txt']);
    repo.git(['-c', 'core.editor=true', 'rebase', '--continue']);
    const rebased = repo.head();
    const note = rewriteNote({
      sources: [{ note: sourceNote('a.txt', [{ start: 3, end: 5, interaction: 0 }]) }],
      files: [{ path: 'a.txt', diff1: diff1(rebased, 'a.txt'), fromSource: [between(old, rebased, 'a.txt')] }],
      clock,
    });
    assert.ok(note);
    assert.deepEqual(note.files[0].ai_ranges, [
      { start: 4, end: 4, interaction: 0 },
      { start: 6, end: 6, interaction: 0 },
    ]);
    assert.deepEqual(note.attribution.lines, { ai_added: 2, total_added: 3, deleted: 0 });
  });

  it('two commits squashed into one: the union of their interactions and ranges', () => {
    repo.write('a.txt', lines('one'));
    repo.commitAll('base');
    repo.write('a.txt', lines('one', 'ai A1', 'ai A2'));
    const first = repo.commitAll('first');
    repo.write('a.txt', lines('one', 'ai A1', 'ai A2', 'human', 'ai B1'));
    const second = repo.commitAll('second');
    repo.git(['reset', '-q', '--soft', 'HEAD~2']);
    const squashed = repo.commitAll('squashed');
    const a = sourceNote('a.txt', [{ start: 2, end: 3, interaction: 0 }], ['prompt A']);
    const b = sourceNote('a.txt', [{ start: 5, end: 5, interaction: 0 }], ['prompt B']);
    b.session_id = 's-2';
    const note = rewriteNote({
      sources: [{ note: a }, { note: b }],
      files: [
        {
          path: 'a.txt',
          diff1: diff1(squashed, 'a.txt'),
          fromSource: [between(first, squashed, 'a.txt'), between(second, squashed, 'a.txt')],
        },
      ],
      clock,
    });
    assert.ok(note);
    assert.deepEqual(
      note.interactions.map((i) => i.prompt),
      ['prompt A', 'prompt B'],
    );
    assert.deepEqual(note.files[0].ai_ranges, [
      { start: 2, end: 3, interaction: 0 },
      { start: 5, end: 5, interaction: 1 },
    ]);
    assert.equal(note.session_id, 's-1');
    assert.deepEqual(note.attribution, { ai_ratio: 75, method: 'line', lines: { ai_added: 3, total_added: 4, deleted: 0 } });
  });

  it("amend with new changes: the lines the person changed lose their claim, the new lines are the person's", () => {
    repo.write('a.txt', lines('one'));
    repo.commitAll('base');
    repo.write('a.txt', lines('one', 'ai 1', 'ai 2'));
    const old = repo.commitAll('ai');
    repo.write('a.txt', lines('one', 'ai 1', 'changed 2', 'new 3'));
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--amend', '--no-edit']);
    const amended = repo.head();
    const note = rewriteNote({
      sources: [{ note: sourceNote('a.txt', [{ start: 2, end: 3, interaction: 0 }]) }],
      files: [{ path: 'a.txt', diff1: diff1(amended, 'a.txt'), fromSource: [between(old, amended, 'a.txt')] }],
      clock,
    });
    assert.ok(note);
    assert.deepEqual(note.files[0].ai_ranges, [{ start: 2, end: 2, interaction: 0 }]);
    assert.deepEqual(note.attribution, { ai_ratio: 33, method: 'line', lines: { ai_added: 1, total_added: 3, deleted: 0 } });
  });

  it('never claims a line the source did not claim, and writes nothing when no AI line survives', () => {
    repo.write('a.txt', lines('one'));
    repo.commitAll('base');
    repo.write('a.txt', lines('one', 'ai 1'));
    const old = repo.commitAll('ai');
    repo.write('a.txt', lines('one', 'rewritten'));
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--amend', '--no-edit']);
    const amended = repo.head();
    const input = {
      files: [{ path: 'a.txt', diff1: diff1(amended, 'a.txt'), fromSource: [between(old, amended, 'a.txt')] }],
      clock,
    };
    assert.equal(rewriteNote({ ...input, sources: [{ note: sourceNote('a.txt', [{ start: 2, end: 2, interaction: 0 }]) }] }), undefined);
    // a source without line counts (file-level note) gives no line claim at all
    const fileLevel = sourceNote('a.txt', [{ start: 2, end: 2, interaction: 0 }]);
    delete fileLevel.attribution.lines;
    fileLevel.attribution.method = 'file';
    const unchanged = { files: [{ path: 'a.txt', diff1: diff1(old, 'a.txt'), fromSource: [[]] }], clock };
    assert.equal(rewriteNote({ ...unchanged, sources: [{ note: fileLevel }] }), undefined);
  });
});
