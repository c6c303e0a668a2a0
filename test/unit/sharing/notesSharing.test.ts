import * as assert from 'node:assert/strict';
import { decodeNote, encodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { resolveNoteConflict, supersededNotesKey } from '../../../src/node/sharing/noteConflict';
import {
  carryNote,
  cliNotesFetchRefspec,
  configureRewrite,
  ensureFetchRefspec,
  fetchNotes,
  notesFetchRefspec,
  pushNotes,
  remoteTrackingNotesRef,
} from '../../../src/node/sharing/notesSharing';
import { TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

function note(prompt: string, timestamp: string, extra: Partial<AgentNoteV1> = {}): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: 'sess-1',
    timestamp,
    model: null,
    interactions: [{ prompt, response: null }],
    files: [{ path: 'a.txt', by_ai: true }],
    attribution: { ai_ratio: 100, method: 'file' },
    ...extra,
  };
}

describe('resolveNoteConflict', () => {
  const older = encodeNote(note('older', '2026-03-01T10:00:00.000Z'));
  const newer = encodeNote(note('newer', '2026-03-01T11:00:00.000Z'));

  it('keeps the later note and the other under superseded_notes, symmetrically', () => {
    const r1 = resolveNoteConflict(older, newer);
    const r2 = resolveNoteConflict(newer, older);
    assert.equal(r1, r2);
    const d = decodeNote(r1);
    assert.equal(d.kind, 'valid');
    if (d.kind !== 'valid') return;
    assert.equal(d.note.interactions[0].prompt, 'newer');
    assert.deepEqual(d.note[supersededNotesKey], [JSON.parse(older)]);
    assert.equal(r1, encodeNote({ ...note('newer', '2026-03-01T11:00:00.000Z'), [supersededNotesKey]: [JSON.parse(older)] }));
  });

  it('breaks timestamp ties deterministically and merges earlier superseded lists without duplicates', () => {
    const x = encodeNote(note('x', '2026-03-01T10:00:00.000Z'));
    const y = encodeNote(note('y', '2026-03-01T10:00:00.000Z'));
    assert.equal(resolveNoteConflict(x, y), resolveNoteConflict(y, x));
    const first = resolveNoteConflict(older, newer);
    const third = encodeNote(note('third', '2026-03-01T12:00:00.000Z'));
    const merged = resolveNoteConflict(first, third);
    assert.equal(merged, resolveNoteConflict(third, first));
    const d = decodeNote(merged);
    assert.ok(d.kind === 'valid');
    assert.equal(d.note.interactions[0].prompt, 'third');
    const sup = d.note[supersededNotesKey] as AgentNoteV1[];
    assert.deepEqual(sup.map((n) => n.interactions[0].prompt).sort(), ['newer', 'older']);
    assert.equal(resolveNoteConflict(merged, first), merged, 'resolving again changes nothing');
    assert.equal(resolveNoteConflict(older, older), older);
  });

  it('prefers a valid note and keeps the invalid text', () => {
    const r = decodeNote(resolveNoteConflict('Reviewed-by: x\n', older));
    assert.ok(r.kind === 'valid');
    assert.deepEqual(r.note[supersededNotesKey], [{ invalid_note: 'Reviewed-by: x\n' }]);
    assert.equal(resolveNoteConflict('a\n', 'b\n'), 'b\n');
  });
});

describe('notesSharing', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();

  let remote: TempRepo;
  let a: TempRepo;
  let b: TempRepo;
  let c1: string;

  beforeEach(async () => {
    remote = await TempRepo.create({ bare: true });
    a = await TempRepo.create();
    c1 = await a.commit({ 'a.txt': 'one\n' }, 'first');
    await a.git(['remote', 'add', 'origin', remote.dir]);
    await a.git(['push', '-q', 'origin', 'main']);
    b = await TempRepo.clone(remote.dir);
  });
  afterEach(async () => {
    await Promise.all([remote.remove(), a.remove(), b.remove()]);
  });

  const notesOf = async (repo: TempRepo) =>
    (await repo.git(['notes', '--ref=agentnote', 'list'])).trim().split('\n').filter(Boolean).sort();

  describe('ensureFetchRefspec', () => {
    it('adds our refspec once and touches nothing else', async () => {
      const before = await b.git(['config', '--local', '--list']);
      assert.equal(await ensureFetchRefspec(b.runner(), 'origin'), 'added');
      assert.equal(await ensureFetchRefspec(b.runner(), 'origin'), 'present');
      const after = await b.git(['config', '--local', '--list']);
      assert.deepEqual(
        after.split('\n').filter((l) => !before.split('\n').includes(l)),
        [`remote.origin.fetch=${notesFetchRefspec}`],
      );
      assert.deepEqual((await b.git(['config', '--get-all', 'remote.origin.fetch'])).trim().split('\n'), [
        '+refs/heads/*:refs/remotes/origin/*',
        notesFetchRefspec,
      ]);
      assert.equal(await ensureFetchRefspec(b.runner(), 'nope'), 'noRemote');
    });

    it("treats the CLI's glob refspec as present", async () => {
      await a.git(['config', '--add', 'remote.origin.fetch', cliNotesFetchRefspec]);
      assert.equal(await ensureFetchRefspec(a.runner(), 'origin'), 'present');
      assert.deepEqual((await a.git(['config', '--get-all', 'remote.origin.fetch'])).trim().split('\n'), [
        '+refs/heads/*:refs/remotes/origin/*',
        cliNotesFetchRefspec,
      ]);
    });
  });

  describe('fetch and push', () => {
    it('pushes notes and fetches them into another clone without losing local-only notes', async () => {
      assert.deepEqual(await pushNotes(a.runner(), 'origin'), { status: 'nothingToPush' });
      assert.deepEqual(await fetchNotes(b.runner(), 'origin'), { status: 'noRemoteNotes' });

      const storeA = new NoteStore(a.runner());
      await storeA.write(c1, note('from A', '2026-03-01T10:00:00.000Z'));
      assert.deepEqual(await pushNotes(a.runner(), 'origin'), { status: 'pushed', mergedRemote: false, conflicts: [] });
      assert.equal(
        (await remote.git(['rev-parse', 'refs/notes/agentnote'])).trim(),
        (await a.git(['rev-parse', 'refs/notes/agentnote'])).trim(),
      );
      assert.deepEqual(await pushNotes(a.runner(), 'origin'), { status: 'upToDate', mergedRemote: false, conflicts: [] });

      // B has a note of its own that was never pushed, and the forced refspec configured.
      await ensureFetchRefspec(b.runner(), 'origin');
      const c2 = await b.commit({ 'b.txt': 'b\n' }, 'second (B only)');
      const storeB = new NoteStore(b.runner());
      await storeB.write(c2, note('from B', '2026-03-01T10:30:00.000Z'));
      const r = await fetchNotes(b.runner(), 'origin', { store: storeB });
      assert.deepEqual(r, { status: 'fetched', merge: 'merged', conflicts: [], trackingRef: 'refs/notes/remotes/origin/agentnote' });
      assert.equal((await storeB.read(c1))?.kind, 'valid');
      assert.equal(await storeB.readRaw(c1), encodeNote(note('from A', '2026-03-01T10:00:00.000Z')));
      assert.equal(await storeB.readRaw(c2), encodeNote(note('from B', '2026-03-01T10:30:00.000Z')));
      // B's notes history now contains A's: the push fast-forwards.
      assert.deepEqual(await pushNotes(b.runner(), 'origin'), { status: 'pushed', mergedRemote: false, conflicts: [] });
      const fetchedByA = await fetchNotes(a.runner(), 'origin');
      assert.equal(fetchedByA.status === 'fetched' && fetchedByA.merge, 'fastForward');
      assert.deepEqual(await notesOf(a), await notesOf(b));
    });

    it('resolves conflicting pushes of the same commit without losing either note', async () => {
      const storeA = new NoteStore(a.runner());
      const storeB = new NoteStore(b.runner());
      const fromA = note('A recorded it', '2026-03-01T10:00:00.000Z');
      const fromB = note('B recorded it later', '2026-03-01T11:00:00.000Z', { agent: 'cursor' });
      await storeA.write(c1, fromA);
      const c2 = await b.commit({ 'b.txt': 'b\n' }, 'second');
      await b.git(['push', '-q', 'origin', 'main']);
      await storeB.write(c1, fromB);
      await storeB.write(c2, note('B only', '2026-03-01T11:05:00.000Z'));
      assert.equal((await pushNotes(a.runner(), 'origin')).status, 'pushed');

      const r = await pushNotes(b.runner(), 'origin', { store: storeB });
      assert.deepEqual(r, { status: 'pushed', mergedRemote: true, conflicts: [c1] });
      const expected = encodeNote({ ...fromB, [supersededNotesKey]: [JSON.parse(encodeNote(fromA))] });
      assert.equal(await storeB.readRaw(c1), expected);
      assert.equal(await storeB.readRaw(c2), encodeNote(note('B only', '2026-03-01T11:05:00.000Z')));
      // The remote holds the merge; A converges on the same notes.
      const fa = await fetchNotes(a.runner(), 'origin', { store: storeA });
      assert.equal(fa.status === 'fetched' && fa.merge, 'fastForward');
      assert.equal(await storeA.readRaw(c1), expected);
      assert.deepEqual(await notesOf(a), await notesOf(b));
      const parents = (await remote.git(['log', '-1', '--format=%P', 'refs/notes/agentnote'])).trim().split(' ');
      assert.equal(parents.length, 2, 'a real merge commit keeps both histories');
    });

    it('survives malformed and huge notes on either side: merged without throwing, nothing loaded over the limit (issue #14)', async () => {
      const storeA = new NoteStore(a.runner());
      const storeB = new NoteStore(b.runner());
      const c2 = await a.commit({ 'b.txt': 'b\n' }, 'second');
      const c3 = await a.commit({ 'c.txt': 'c\n' }, 'third');
      await a.git(['push', '-q', 'origin', 'main']);
      await b.git(['pull', '-q', 'origin', 'main']);
      const deep = encodeNote(note('deep', '2026-03-01T10:00:00.000Z')).replace(
        '"prompt": "deep",',
        `"prompt": "deep", "x": ${'['.repeat(3000)}${']'.repeat(3000)},`,
      );
      const huge = encodeNote(note(`huge ${'x'.repeat(2 * 1024 * 1024)}`, '2026-03-01T10:00:00.000Z'));
      // A: a deep note on c1, a huge one on c2, a normal one on c3; B: normal notes on all three
      await storeA.writeText(c1, deep);
      await storeA.writeText(c2, huge);
      await storeA.write(c3, note('A on c3', '2026-03-01T10:00:00.000Z'));
      for (const c of [c1, c2, c3]) await storeB.write(c, note(`B on ${c.slice(0, 7)}`, '2026-03-01T11:00:00.000Z'));
      assert.equal((await pushNotes(a.runner(), 'origin')).status, 'pushed');
      const r = await pushNotes(b.runner(), 'origin', { store: storeB });
      assert.equal(r.status, 'pushed', JSON.stringify(r));
      // the deep note is an invalid one: B's valid note wins, the deep text is kept under superseded_notes
      const d1 = await storeB.read(c1);
      assert.equal(d1?.kind, 'valid');
      // the huge note is never loaded: B keeps its own, A's stays in the notes history of the merge
      assert.equal(await storeB.readRaw(c2), encodeNote(note(`B on ${c2.slice(0, 7)}`, '2026-03-01T11:00:00.000Z')));
      const history = await b.git(['log', '--format=%H', 'refs/notes/agentnote']);
      assert.ok(history.trim().split('\n').length >= 3);
      // the ordinary conflict is resolved as always
      const d3 = await storeB.read(c3);
      assert.equal(d3?.kind === 'valid' && d3.note.interactions[0].prompt, `B on ${c3.slice(0, 7)}`);
      assert.ok(d3?.kind === 'valid' && Array.isArray(d3.note[supersededNotesKey]));
    });

    it('reports an unreachable remote as failed without throwing', async () => {
      await a.git(['remote', 'add', 'gone', '/nonexistent/agentnote-remote.git']);
      await new NoteStore(a.runner()).write(c1, note('x', '2026-03-01T10:00:00.000Z'));
      assert.equal((await pushNotes(a.runner(), 'gone')).status, 'failed');
      assert.equal((await fetchNotes(a.runner(), 'gone')).status, 'failed');
    });

    it('names tracking refs safely for any remote spelling', () => {
      assert.equal(remoteTrackingNotesRef('origin'), 'refs/notes/remotes/origin/agentnote');
      assert.match(
        remoteTrackingNotesRef('https://example.com/x.git'),
        /^refs\/notes\/remotes\/https_example_com_x_git-[0-9a-f]{8}\/agentnote$/,
      );
    });
  });

  describe('rewrites', () => {
    it('configures notes.rewriteRef next to existing values, idempotently', async () => {
      await a.git(['config', '--add', 'notes.rewriteRef', 'refs/notes/commits']);
      assert.deepEqual(await configureRewrite(a.runner()), ['notes.rewriteRef', 'notes.rewrite.amend', 'notes.rewrite.rebase']);
      assert.deepEqual(await configureRewrite(a.runner()), []);
      assert.deepEqual((await a.git(['config', '--get-all', 'notes.rewriteRef'])).trim().split('\n'), [
        'refs/notes/commits',
        'refs/notes/agentnote',
      ]);
      assert.equal((await a.git(['config', 'notes.rewrite.amend'])).trim(), 'true');
      assert.equal((await a.git(['config', 'notes.rewrite.rebase'])).trim(), 'true');
    });

    it('keeps notes through amend and rebase once configured', async () => {
      const store = new NoteStore(a.runner());
      const n = note('amend me', '2026-03-01T10:00:00.000Z');
      await store.write(c1, n);
      // Without the configuration git drops the note on amend.
      await a.git(['commit', '-q', '--amend', '-m', 'first (amended, unconfigured)']);
      assert.equal(await store.has('HEAD'), false);
      assert.equal(await carryNote(store, c1, await a.head()), 'written', 'carryNote repairs it');
      assert.equal(await carryNote(store, c1, await a.head()), 'exists');

      await configureRewrite(a.runner());
      await a.git(['commit', '-q', '--amend', '-m', 'first (amended again)']);
      assert.equal(await store.readRaw('HEAD'), encodeNote(n));

      await a.git(['checkout', '-q', '-b', 'feature']);
      const f1 = await a.commit({ 'f.txt': 'feature\n' }, 'feature work');
      const fn = note('feature prompt', '2026-03-01T10:05:00.000Z');
      await store.write(f1, fn);
      await a.git(['checkout', '-q', 'main']);
      await a.commit({ 'm.txt': 'main\n' }, 'main moves on');
      await a.git(['checkout', '-q', 'feature']);
      await a.git(['rebase', '-q', 'main']);
      const rebased = await a.head();
      assert.notEqual(rebased, f1);
      assert.equal(await store.readRaw(rebased), encodeNote(fn));
    });
  });
});
