// Notes of rebased commits (src/node/recorder/rewriteRecorder.ts, issue #18): our post-rewrite hook
// queues git's old → new pairs, git's notes.rewriteRef copies the stale note, and the recorder
// replaces it with the note of the new commit's own diff. Real repositories, real rebases.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRewriteQueue } from '../../../src/core/notes/rewriteQueue';
import { cherryPickedFrom, concatenatedParts, parseReflog, reflogRewrites, squashedFrom } from '../../../src/core/notes/rewriteEvidence';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { Counters, nullLogger } from '../../../src/core/ports';
import { installHooks } from '../../../src/node/hooks/gitHooks';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { RewriteRecorder } from '../../../src/node/recorder/rewriteRecorder';
import { configureRewrite } from '../../../src/node/sharing/notesSharing';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { FakeClock, Harness, T0, TestRepo } from './recorderHarness';

const sid = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';
const oid = (c: string) => c.repeat(40);

/** A line-level note of a commit that added `total` lines, `ranges` of them by the AI in `file`. */
function aiNote(file: string, ranges: [number, number, number][], total: number, prompts: string[]): AgentNoteV1 {
  const ai = ranges.reduce((n, [s, e]) => n + e - s + 1, 0);
  return {
    v: 1,
    agent: 'claude',
    session_id: sid,
    timestamp: '2026-05-01T10:00:00.000Z',
    model: 'claude-sonnet-4',
    interactions: prompts.map((p) => ({ prompt: p, response: null, files_touched: [file] })),
    files: [{ path: file, by_ai: true, ai_ranges: ranges.map(([start, end, interaction]) => ({ start, end, interaction })) }],
    attribution: { ai_ratio: Math.round((ai / total) * 100), method: 'line', lines: { ai_added: ai, total_added: total, deleted: 0 } },
  };
}

describe('parseRewriteQueue', () => {
  it('groups pairs by new commit in order, keeps squash sources in order and skips malformed lines', () => {
    const q = parseRewriteQueue(
      [
        `rebase ${oid('a')} ${oid('1')}`,
        `rebase ${oid('b')} ${oid('2')}`,
        `rebase ${oid('c')} ${oid('2')}`,
        `amend ${oid('d')} ${oid('3')}`,
        `rebase ${oid('e')} ${oid('e')}`,
        `rebase ${oid('a')}`,
        `push ${oid('a')} ${oid('1')}`,
        `rebase --exec ${oid('1')}`,
        `rebase ${oid('a').slice(0, 39)} ${oid('1')}`,
        '',
      ].join('\n'),
    );
    assert.deepEqual(q.groups, [
      { kind: 'rebase', target: oid('1'), sources: [oid('a')] },
      { kind: 'rebase', target: oid('2'), sources: [oid('b'), oid('c')] },
      { kind: 'amend', target: oid('3'), sources: [oid('d')] },
    ]);
    assert.equal(q.skipped, 4);
  });
});

describe('RewriteRecorder (real rebases through the post-rewrite hook)', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  let notes: NoteStore;
  let counters: Counters;
  let rewrites: RewriteRecorder;

  beforeEach(async () => {
    repo = await TestRepo.create();
    const git = repo.runner();
    notes = new NoteStore(git);
    counters = new Counters();
    const journalRoot = path.join(repo.dir, '.git', 'agentnote');
    fs.mkdirSync(journalRoot, { recursive: true });
    const report = await installHooks(git);
    assert.equal(report.results['post-rewrite'], 'installed');
    await configureRewrite(git);
    rewrites = new RewriteRecorder({ root: repo.dir, journalRoot, git, log: nullLogger, clock: new FakeClock(T0), counters, notes });
  });
  afterEach(async () => {
    await repo.remove();
  });

  const commit = async (file: string, content: string, msg = `c ${file}`): Promise<string> => {
    await repo.write(file, content);
    await repo.git(['add', '-A']);
    await repo.git(['commit', '-q', '-m', msg]);
    return repo.head();
  };
  const noteOf = async (rev: string): Promise<AgentNoteV1 | undefined> => {
    const d = await notes.read((await repo.git(['rev-parse', rev])).trim());
    return d?.kind === 'valid' ? d.note : undefined;
  };
  const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i + 1}`).join('\n') + '\n';
  const queue = () => path.join(repo.dir, '.git', 'agentnote', 'rewritten');

  it('a rebase onto a main that inserted lines above the AI lines: ranges move with the lines, counts are the new diff', async () => {
    await commit('a.txt', lines(10, 'base'));
    await repo.git(['checkout', '-q', '-b', 'feature']);
    // the feature commit appends 4 lines after line 10; lines 11–13 are the AI's
    const f = await commit('a.txt', lines(10, 'base') + 'ai1\nai2\nai3\nmine\n');
    await notes.write(f, aiNote('a.txt', [[11, 13, 0]], 4, ['add the three ai lines']));
    await repo.git(['checkout', '-q', 'main']);
    await commit('a.txt', 'top1\ntop2\n' + lines(10, 'base'), 'main inserts two lines at the top');
    await repo.git(['checkout', '-q', 'feature']);
    await repo.git(['rebase', '-q', 'main']);
    // git copied the stale note; the hook queued the pair
    assert.ok(fs.existsSync(queue()), 'the post-rewrite hook queued the rebase');
    assert.deepEqual((await noteOf('HEAD'))?.files[0].ai_ranges, [{ start: 11, end: 13, interaction: 0 }]);

    const results = await rewrites.process();
    assert.equal(results.length, 1);
    const n = await noteOf('HEAD');
    assert.ok(n);
    assert.deepEqual(n.files, [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 13, end: 15, interaction: 0 }] }]);
    assert.deepEqual(n.attribution, { ai_ratio: 75, method: 'line', lines: { ai_added: 3, total_added: 4, deleted: 0 } });
    assert.equal(n.interactions[0].prompt, 'add the three ai lines');
    assert.equal(fs.existsSync(queue()), false, 'the queue is consumed');
    assert.equal(counters.get('rewrite.notesWritten'), 1);
    // nothing left: a second run does nothing
    assert.deepEqual(await rewrites.process(), []);
  });

  it('an interactive rebase that squashes two AI commits and fixes up a human one: one note with the union of prompts and ranges', async () => {
    await commit('a.txt', lines(3, 'base'));
    await repo.git(['checkout', '-q', '-b', 'feature']);
    const c1 = await commit('a.txt', lines(3, 'base') + 'first-ai\n', 'one');
    await notes.write(c1, aiNote('a.txt', [[4, 4, 0]], 1, ['prompt one']));
    const c2 = await commit('b.txt', 'second-ai-1\nsecond-ai-2\n', 'two');
    await notes.write(c2, aiNote('b.txt', [[1, 2, 0]], 2, ['prompt two']));
    await commit('a.txt', lines(3, 'base') + 'first-ai\nhuman\n', 'three');
    // pick one, squash two, fixup three
    const editor = `sed -i -e '2s/^pick/squash/' -e '3s/^pick/fixup/'`;
    await repo.git(['rebase', '-q', '-i', 'main'], { env: { GIT_SEQUENCE_EDITOR: editor, GIT_EDITOR: 'true' } });
    assert.equal((await repo.git(['rev-list', '--count', 'main..HEAD'])).trim(), '1');
    await rewrites.process();
    const n = await noteOf('HEAD');
    assert.ok(n);
    assert.deepEqual(
      n.interactions.map((i) => i.prompt),
      ['prompt one', 'prompt two'],
    );
    assert.deepEqual(n.files, [
      { path: 'a.txt', by_ai: true, ai_ranges: [{ start: 4, end: 4, interaction: 0 }] },
      { path: 'b.txt', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 1 }] },
    ]);
    assert.deepEqual(n.attribution.lines, { ai_added: 3, total_added: 4, deleted: 0 });
    assert.equal(n.attribution.ai_ratio, 75);
  });

  it('a line the person changed during the rebase (conflict resolution) loses its AI claim; no line left removes the copied note', async () => {
    await commit('a.txt', 'x\n');
    await repo.git(['checkout', '-q', '-b', 'feature']);
    const f = await commit('a.txt', 'x\nai-one\nai-two\n');
    await notes.write(f, aiNote('a.txt', [[2, 3, 0]], 2, ['two lines']));
    const g = await commit('b.txt', 'only-ai\n');
    await notes.write(g, aiNote('b.txt', [[1, 1, 0]], 1, ['b']));
    await repo.git(['checkout', '-q', 'main']);
    await commit('a.txt', 'x\nmain-line\n');
    await commit('b.txt', 'main-b\n');
    await repo.git(['checkout', '-q', 'feature']);
    const r = await repo.gitResult(['rebase', 'main'], { env: { GIT_EDITOR: 'true' } });
    assert.notEqual(r.code, 0, 'the rebase stops on the conflict');
    // the person keeps ai-one, rewrites ai-two and drops main-line
    await repo.write('a.txt', 'x\nai-one\nperson-two\n');
    await repo.git(['add', 'a.txt']);
    const r2 = await repo.gitResult(['rebase', '--continue'], { env: { GIT_EDITOR: 'true' } });
    assert.notEqual(r2.code, 0, 'b.txt conflicts too');
    await repo.write('b.txt', 'main-b\n');
    await repo.git(['add', 'b.txt']);
    await repo.gitResult(['rebase', '--continue'], { env: { GIT_EDITOR: 'true' } });
    await rewrites.process();
    const top = await noteOf('HEAD');
    const a = (await repo.git(['log', '--format=%H', '-n', '1', '--', 'a.txt'])).trim();
    const na = await noteOf(a);
    assert.ok(na);
    // diff of the new commit: -main-line +ai-one +person-two; only ai-one keeps the claim
    assert.deepEqual(na.files, [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] }]);
    assert.deepEqual(na.attribution.lines, { ai_added: 1, total_added: 2, deleted: 1 });
    // b's commit became empty or took main's line: no AI line, no note (or no commit at all)
    if ((await repo.git(['rev-parse', 'HEAD'])).trim() !== a) assert.equal(top, undefined);
  });

  it('rewrites queued while no editor ran are caught up later, and an amend pair is left to the commit recorder', async () => {
    await commit('a.txt', 'base\n');
    await repo.git(['checkout', '-q', '-b', 'feature']);
    const f = await commit('a.txt', 'base\nai\n');
    await notes.write(f, aiNote('a.txt', [[2, 2, 0]], 1, ['p']));
    await repo.git(['commit', '-q', '--amend', '-m', 'amended']);
    await repo.git(['checkout', '-q', 'main']);
    await commit('z.txt', 'z\n');
    await repo.git(['checkout', '-q', 'feature']);
    await repo.git(['rebase', '-q', 'main']);
    const text = fs.readFileSync(queue(), 'utf8');
    assert.match(text, /^amend /m);
    assert.match(text, /^rebase /m);
    // an earlier run was interrupted after taking the queue: the taken file is processed too
    fs.renameSync(queue(), `${queue()}.1-abcd.taking`);
    const results = await rewrites.process();
    assert.equal(results.length, 1);
    assert.equal(results[0].target, (await repo.git(['rev-parse', 'HEAD'])).trim());
    assert.deepEqual((await noteOf('HEAD'))?.files[0].ai_ranges, [{ start: 2, end: 2, interaction: 0 }]);
    assert.deepEqual(
      fs.readdirSync(path.join(repo.dir, '.git', 'agentnote')).filter((n) => n.startsWith('rewritten')),
      [],
    );
  });

  it('hostile queue lines are skipped and counted, and never reach git as options', async () => {
    fs.writeFileSync(queue(), `rebase --output=/tmp/x ${oid('1')}\nrebase ${oid('a')} ${oid('b')}\n`);
    const results = await rewrites.process();
    assert.deepEqual(results, []);
    assert.equal(counters.get('rewrite.queueLinesSkipped'), 1);
    assert.equal(fs.existsSync(queue()), false);
  });
});

describe('RepositoryRecorder: a rebase of a commit the recorder noted', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  it('the rebased commit gets the note of its own diff; recording HEAD afterwards keeps it', async () => {
    h = await Harness.create({ 'a.ts': 'one\ntwo\n' });
    const git = h.repo.runner();
    await installHooks(git);
    await configureRewrite(git);
    await h.repo.git(['checkout', '-q', '-b', 'feature']);
    const s = h.session('claude', sid, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Add three and four');
    h.advance(500);
    await h.change('a.ts', 'one\ntwo\nthree\nfour\n', 'disk');
    await s.edit('a.ts', { tool: 'Edit', toolUseId: 'toolu_1', oldString: 'two\n', newString: 'two\nthree\nfour\n' });
    h.advance(2000);
    await h.tick();
    const f = await h.commitAll('feat: three and four');
    assert.equal((await h.recorder.recordCommit(f)).kind, 'written');
    assert.deepEqual((await h.note(f)).files[0].ai_ranges, [{ start: 3, end: 4, interaction: 0 }]);

    await h.repo.git(['checkout', '-q', 'main']);
    await h.writeFile('a.ts', 'zero\none\ntwo\n');
    const m = await h.commitAll('main: zero on top');
    await h.recorder.recordCommit(m);
    await h.repo.git(['checkout', '-q', 'feature']);
    await h.repo.git(['rebase', '-q', 'main']);
    const rebased = await h.repo.head();
    assert.notEqual(rebased, f);

    assert.equal(await h.recorder.recordRewrites(), 1);
    const n = await h.note(rebased);
    assert.deepEqual(n.files, [{ path: 'a.ts', by_ai: true, ai_ranges: [{ start: 4, end: 5, interaction: 0 }] }]);
    assert.deepEqual(n.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } });
    assert.equal(n.interactions[0].prompt, 'Add three and four');
    const text = await h.noteText(rebased);
    await h.recorder.recordCommit(rebased);
    assert.equal(await h.noteText(rebased), text, 'recording the rebased HEAD leaves its recomputed note alone');
    // the original keeps its own note
    assert.deepEqual((await h.note(f)).files[0].ai_ranges, [{ start: 3, end: 4, interaction: 0 }]);
  });
});

describe('rewrite evidence without our hook (reflog, messages, git note copies)', () => {
  it('parses the reflog: rebase steps of every flavour, cherry-picks, commits after a reset; amends and merges are not candidates', () => {
    const e = (c: string, op: string) => `${oid(c)}\t${op}`;
    const entries = parseReflog(
      [
        e('9', 'commit: after reset'),
        e('8', 'reset: moving to HEAD~2'),
        e('7', 'cherry-pick: picked'),
        e('6', 'pull --rebase origin main (finish): returning to refs/heads/main'),
        e('6', 'pull --rebase origin main (pick): local'),
        e('5', 'rebase -i (squash): two'),
        e('4', 'rebase (fixup): one'),
        e('3', 'rebase (start): checkout main'),
        e('2', 'commit (amend): amended'),
        e('1', 'commit (merge): Merge branch x'),
        'garbage line',
        `--output=/tmp/x\trebase (pick): hostile`,
      ].join('\n'),
    );
    const r = reflogRewrites(entries);
    assert.deepEqual(r.candidates, [
      { kind: 'rebase', sha: oid('4') },
      { kind: 'rebase', sha: oid('5') },
      { kind: 'rebase', sha: oid('6') },
      { kind: 'cherry-pick', sha: oid('7') },
      { kind: 'commit', sha: oid('9'), reset: { base: oid('8'), before: oid('7'), previous: oid('8') } },
    ]);
    assert.deepEqual([...r.rebaseProducts].sort(), [oid('4'), oid('5'), oid('6')]);
  });

  it('a run of plain commits after a reset: each names the reset and its previous commit; the run stops at 10', () => {
    const e = (c: string, op: string) => `${oid(c)}\t${op}`;
    const run = (n: number) => Array.from({ length: n }, (_, k) => e((n - k).toString(16), `commit: part ${n - k}`));
    const three = reflogRewrites(parseReflog([...run(3), e('a', 'reset: moving to HEAD~2'), e('b', 'commit: before')].join('\n')));
    assert.deepEqual(
      three.candidates.filter((c) => c.reset).map((c) => [c.sha, c.reset]),
      [
        [oid('1'), { base: oid('a'), before: oid('b'), previous: oid('a') }],
        [oid('2'), { base: oid('a'), before: oid('b'), previous: oid('1') }],
        [oid('3'), { base: oid('a'), before: oid('b'), previous: oid('2') }],
      ],
    );
    // the 11th commit after the reset is an ordinary commit again
    const long = reflogRewrites(parseReflog([...run(11), e('c', 'reset: moving to HEAD~1'), e('d', 'commit: before')].join('\n')));
    assert.equal(long.candidates.filter((c) => c.reset).length, 10);
    assert.equal(long.candidates.find((c) => c.sha === oid('b'))?.reset, undefined);
    // an amend in between ends the run
    const amended = reflogRewrites(
      parseReflog(
        [e('2', 'commit: after'), e('1', 'commit (amend): x'), e('a', 'reset: moving to HEAD~1'), e('b', 'commit: b')].join('\n'),
      ),
    );
    assert.equal(amended.candidates.find((c) => c.sha === oid('2'))?.reset, undefined);
  });

  it('reads cherry-pick -x and merge --squash messages, and splits concatenated notes into the blobs git copied', () => {
    assert.deepEqual(cherryPickedFrom(`fix\n\n(cherry picked from commit ${oid('A')})\n`), [oid('a')]);
    assert.deepEqual(cherryPickedFrom(`fix\n\nsee (cherry picked from commit ${oid('a')}) inline\n`), []);
    const squash = `Squashed commit of the following:\n\ncommit ${oid('b')}\nAuthor: x\n\n    two\n\ncommit ${oid('a')}\nAuthor: x\n\n    one\n`;
    assert.deepEqual(squashedFrom(squash), [oid('a'), oid('b')]);
    assert.deepEqual(squashedFrom(`commit ${oid('a')}\n`), [], 'only under the squash heading');
    assert.deepEqual(concatenatedParts('{\n  "v": 1\n}\n\n{\n  "v": 2\n}\n'), ['{\n  "v": 1\n}\n', '{\n  "v": 2\n}\n']);
    assert.deepEqual(concatenatedParts('{\n  "v": 1\n}\n'), []);
  });
});

describe('RewriteRecorder without our hook (zero setup: notes.rewriteRef and the reflog)', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  let notes: NoteStore;
  let counters: Counters;
  let rewrites: RewriteRecorder;

  beforeEach(async () => {
    repo = await TestRepo.create();
    const git = repo.runner();
    notes = new NoteStore(git);
    counters = new Counters();
    const journalRoot = path.join(repo.dir, '.git', 'agentnote');
    fs.mkdirSync(journalRoot, { recursive: true });
    await configureRewrite(git);
    rewrites = new RewriteRecorder({
      root: repo.dir,
      journalRoot,
      git,
      log: nullLogger,
      clock: new FakeClock(T0 + 3600_000),
      counters,
      notes,
    });
  });
  afterEach(async () => {
    await repo.remove();
  });

  let tick = 0;
  const commit = async (file: string, content: string, msg = `c ${file}`): Promise<string> => {
    await repo.write(file, content);
    await repo.git(['add', '-A']);
    // distinct committer times, so "the oldest" is well defined
    const date = `${1_780_000_000 + ++tick * 60} +0000`;
    await repo.git(['commit', '-q', '-m', msg], { env: { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date } });
    return repo.head();
  };
  const noteOf = async (rev: string): Promise<AgentNoteV1 | undefined> => {
    const d = await notes.read((await repo.git(['rev-parse', rev])).trim());
    return d?.kind === 'valid' ? d.note : undefined;
  };
  const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i + 1}`).join('\n') + '\n';
  const later = { GIT_COMMITTER_DATE: '1790000000 +0000' };

  it('a plain rebase: the copied note is recomputed for the new diff, once', async () => {
    await commit('a.txt', lines(10, 'base'));
    await repo.git(['checkout', '-q', '-b', 'feature']);
    const f = await commit('a.txt', lines(10, 'base') + 'ai1\nai2\nai3\nmine\n');
    await notes.write(f, aiNote('a.txt', [[11, 13, 0]], 4, ['add the three ai lines']));
    await repo.git(['checkout', '-q', 'main']);
    await commit('a.txt', 'top1\ntop2\n' + lines(10, 'base'));
    await repo.git(['checkout', '-q', 'feature']);
    await repo.git(['rebase', '-q', 'main'], { env: later });
    assert.equal(await notes.noteBlob('HEAD'), await notes.noteBlob(f), 'git copied the note');
    const results = await rewrites.process();
    assert.deepEqual(
      results.map((r) => r.outcome.kind),
      ['written'],
    );
    const n = await noteOf('HEAD');
    assert.deepEqual(n?.files[0].ai_ranges, [{ start: 13, end: 15, interaction: 0 }]);
    assert.deepEqual(n?.attribution.lines, { ai_added: 3, total_added: 4, deleted: 0 });
    assert.deepEqual(await rewrites.process(), [], 'nothing twice');
    // a new recorder (an editor restart) finds nothing to do either: the note is the commit's own now
    const again = new RewriteRecorder({
      root: repo.dir,
      journalRoot: path.join(repo.dir, '.git', 'agentnote'),
      git: repo.runner(),
      log: nullLogger,
      clock: new FakeClock(T0),
      counters,
      notes: new NoteStore(repo.runner()),
    });
    assert.deepEqual(await again.process(), []);
  });

  it('a notes listing older than the ref (the host trusts its cache until its watcher sees the ref move): the look reads the ref and finds git’s copy at once', async () => {
    const trusting = new NoteStore(repo.runner(), { trustCacheUntilInvalidated: true });
    const rec = new RewriteRecorder({
      root: repo.dir,
      journalRoot: path.join(repo.dir, '.git', 'agentnote'),
      git: repo.runner(),
      log: nullLogger,
      clock: new FakeClock(T0 + 3600_000),
      counters,
      notes: trusting,
    });
    await commit('a.txt', lines(3, 'base'));
    await repo.git(['checkout', '-q', '-b', 'feature']);
    const f = await commit('a.txt', lines(3, 'base') + 'ai\n');
    await trusting.write(f, aiNote('a.txt', [[4, 4, 0]], 1, ['p']));
    await repo.git(['checkout', '-q', 'main']);
    await commit('a.txt', 'top\n' + lines(3, 'base'));
    await repo.git(['checkout', '-q', 'feature']);
    assert.ok((await trusting.listNotedCommits()).has(f)); // cached before git copies the note
    await repo.git(['rebase', '-q', 'main'], { env: later });
    const rebased = await repo.head();
    assert.equal((await trusting.listNotedCommits()).has(rebased), false, 'the trusted listing is older than the ref');
    // no invalidate(): the watcher that would drop the cache has not fired (late, or never)
    const results = await rec.process();
    assert.equal(results.length, 1);
    assert.ok((await trusting.listNotedCommits()).has(rebased), 'the shared listing is the new one now');
    const d = await trusting.read('HEAD');
    assert.deepEqual(d?.kind === 'valid' ? d.note.files[0].ai_ranges : undefined, [{ start: 5, end: 5, interaction: 0 }]);
  });

  it('an interactive squash: git concatenated the notes; the new note is the union, and a line deleted and written again by a later commit is not claimed', async () => {
    await commit('a.txt', lines(3, 'base'));
    await repo.git(['checkout', '-q', '-b', 'feature']);
    const c1 = await commit('a.txt', lines(3, 'base') + 'ai-line\nai-keep\n', 'one');
    await notes.write(c1, aiNote('a.txt', [[4, 5, 0]], 2, ['prompt one']));
    // the person deletes ai-line and types the very same text again in the next commit
    await commit('a.txt', lines(3, 'base') + 'ai-keep\n', 'two');
    await commit('a.txt', lines(3, 'base') + 'ai-line\nai-keep\n', 'three');
    const c4 = await commit('b.txt', 'b-ai\n', 'four');
    await notes.write(c4, aiNote('b.txt', [[1, 1, 0]], 1, ['prompt four']));
    const editor = `sed -i -e '2,4s/^pick/squash/'`;
    await repo.git(['rebase', '-q', '-i', 'main'], { env: { ...later, GIT_SEQUENCE_EDITOR: editor, GIT_EDITOR: 'true' } });
    assert.equal((await repo.git(['rev-list', '--count', 'main..HEAD'])).trim(), '1');
    assert.equal((await notes.read('HEAD'))?.kind, 'invalid', 'git concatenated the two notes');
    await rewrites.process();
    const n = await noteOf('HEAD');
    assert.ok(n);
    assert.deepEqual(
      n.interactions.map((i) => i.prompt),
      ['prompt one', 'prompt four'],
    );
    assert.deepEqual(n.files, [
      { path: 'a.txt', by_ai: true, ai_ranges: [{ start: 5, end: 5, interaction: 0 }] },
      { path: 'b.txt', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 1 }] },
    ]);
    assert.deepEqual(n.attribution.lines, { ai_added: 2, total_added: 3, deleted: 0 });
  });

  it('a rebase stopped on a conflict: nothing until it finishes, then the resolved line is the person’s', async () => {
    await commit('a.txt', 'x\n');
    await repo.git(['checkout', '-q', '-b', 'feature']);
    const f = await commit('a.txt', 'x\nai-one\nai-two\n');
    await notes.write(f, aiNote('a.txt', [[2, 3, 0]], 2, ['two lines']));
    await repo.git(['checkout', '-q', 'main']);
    await commit('a.txt', 'x\nmain-line\n');
    await repo.git(['checkout', '-q', 'feature']);
    assert.notEqual((await repo.gitResult(['rebase', 'main'], { env: later })).code, 0);
    assert.deepEqual(await rewrites.process(), []);
    await repo.write('a.txt', 'x\nai-one\nperson-two\n');
    await repo.git(['add', 'a.txt']);
    await repo.gitResult(['rebase', '--continue'], { env: { ...later, GIT_EDITOR: 'true' } });
    const results = await rewrites.process();
    assert.equal(results.length, 1);
    const n = await noteOf('HEAD');
    assert.deepEqual(n?.files, [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] }]);
    assert.deepEqual(n?.attribution.lines, { ai_added: 1, total_added: 2, deleted: 1 });
  });

  it('cherry-pick -x, a plain cherry-pick range onto shifted lines: each pick gets the note of its own diff; an unrelated look-alike commit none', async () => {
    await commit('a.txt', lines(5, 'base'));
    await repo.git(['checkout', '-q', '-b', 'topic']);
    const t = await commit('t.txt', 'ai-t1\nai-t2\nperson-t\n');
    await notes.write(t, aiNote('t.txt', [[1, 2, 0]], 3, ['write t']));
    const u = await commit('a.txt', lines(5, 'base') + 'ai-u\n', 'append u');
    await notes.write(u, aiNote('a.txt', [[6, 6, 0]], 1, ['write u']));
    const v = await commit('a.txt', lines(5, 'base') + 'ai-u\nai-v\n', 'append v');
    await notes.write(v, aiNote('a.txt', [[7, 7, 0]], 1, ['write v']));
    await repo.git(['checkout', '-q', 'main']);
    await commit('a.txt', 'new-top\n' + lines(5, 'base'));
    await repo.git(['cherry-pick', '-x', t], { env: later });
    const picked = await repo.head();
    // a range without -x: git keeps author, author date and subject
    await repo.git(['cherry-pick', `${t}..${v}`], { env: later });
    const [pu, pv] = (await repo.git(['rev-list', '--reverse', '-n', '2', 'HEAD'])).trim().split('\n');
    // the person writes the same line on another branch, with a message of their own
    await repo.git(['checkout', '-q', '-b', 'other', 'main~3']);
    await commit('a.txt', lines(5, 'base') + 'ai-u\n', 'append u by hand');
    const lookalike = await repo.head();
    const results = await rewrites.process();
    assert.deepEqual(
      results.map((r) => r.target),
      [picked, pu, pv],
    );
    assert.deepEqual((await noteOf(picked))?.files, [{ path: 't.txt', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] }]);
    assert.equal((await noteOf(picked))?.attribution.ai_ratio, 67);
    const nu = await noteOf(pu);
    assert.deepEqual(nu?.files, [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 7, end: 7, interaction: 0 }] }]);
    assert.equal(nu?.interactions[0].prompt, 'write u');
    assert.deepEqual((await noteOf(pv))?.files, [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 8, end: 8, interaction: 0 }] }]);
    assert.equal(await noteOf(lookalike), undefined);
  });

  it('merge --squash with the message git proposes, and reset --soft + commit: one note with the union', async () => {
    await commit('a.txt', 'base\n');
    await repo.git(['checkout', '-q', '-b', 'topic']);
    const one = await commit('a.txt', 'base\nai-a\n', 'one');
    await notes.write(one, aiNote('a.txt', [[2, 2, 0]], 1, ['p one']));
    const two = await commit('b.txt', 'ai-b\nperson-b\n', 'two');
    await notes.write(two, aiNote('b.txt', [[1, 1, 0]], 2, ['p two']));
    await repo.git(['checkout', '-q', 'main']);
    await repo.git(['merge', '-q', '--squash', 'topic']);
    await repo.git(['commit', '-q', '--no-edit'], { env: later });
    const squashed = await repo.head();
    await repo.git(['checkout', '-q', 'topic']);
    await repo.git(['reset', '-q', '--soft', 'HEAD~2']);
    await repo.git(['commit', '-q', '-m', 'recommitted'], { env: later });
    const recommitted = await repo.head();
    const results = await rewrites.process();
    assert.deepEqual(results.map((r) => r.target).sort(), [squashed, recommitted].sort());
    for (const c of [squashed, recommitted]) {
      const n = await noteOf(c);
      assert.ok(n, c);
      assert.deepEqual(
        n.interactions.map((i) => i.prompt),
        ['p one', 'p two'],
      );
      assert.deepEqual(n.files, [
        { path: 'a.txt', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] },
        { path: 'b.txt', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 1 }] },
      ]);
      assert.deepEqual(n.attribution.lines, { ai_added: 2, total_added: 3, deleted: 0 });
    }
  });

  it('reset --mixed, then the changes committed in parts: each commit of the run gets the AI lines of its own diff', async () => {
    await commit('a.txt', 'base\n');
    const one = await commit('a.txt', 'base\nai-a\n', 'one');
    await notes.write(one, aiNote('a.txt', [[2, 2, 0]], 1, ['p one']));
    const two = await commit('b.txt', 'ai-b\nperson-b\n', 'two');
    await notes.write(two, aiNote('b.txt', [[1, 1, 0]], 2, ['p two']));
    await repo.git(['reset', '-q', '--mixed', 'HEAD~2']);
    await repo.git(['add', 'b.txt']);
    await repo.git(['commit', '-q', '-m', 'b first'], { env: later });
    const first = await repo.head();
    await repo.git(['add', 'a.txt']);
    await repo.git(['commit', '-q', '-m', 'then a'], { env: later });
    const second = await repo.head();
    // a person's commit later in the run re-adds nothing of the sources: no claim
    await repo.write('c.txt', 'ai-a\n');
    await repo.git(['add', 'c.txt']);
    await repo.git(['commit', '-q', '-m', 'own'], { env: later });
    const third = await repo.head();
    await rewrites.process();
    const n1 = await noteOf(first);
    assert.ok(n1, 'the first commit of the run has a note');
    assert.deepEqual(n1.files, [{ path: 'b.txt', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 1 }] }]);
    assert.deepEqual(n1.attribution.lines, { ai_added: 1, total_added: 2, deleted: 0 });
    const n2 = await noteOf(second);
    assert.ok(n2, 'the second commit of the run has a note');
    assert.deepEqual(n2.files, [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] }]);
    assert.deepEqual(n2.attribution.lines, { ai_added: 1, total_added: 1, deleted: 0 });
    assert.equal(await noteOf(third), undefined, 'a new file with an identical line is not a recommit');
  });
});
