import * as assert from 'node:assert/strict';
import { encodeNote } from '../../../src/core/notes/noteCodec';
import {
  cliNotesFetchRefspec,
  configureNotesFetch,
  legacyNotesFetchRefspec,
  notesFetchRefspec,
} from '../../../src/node/sharing/fetchConfig';
import { lastLocalNotesRef, remoteTrackingNotesRef } from '../../../src/node/sharing/notesGit';
import { mergeNotesInto } from '../../../src/node/sharing/notesMerge';
import { shareNotes } from '../../../src/node/sharing/notesShare';
import { syncNotes } from '../../../src/node/sharing/notesSync';
import { supersededNotesKey } from '../../../src/node/sharing/noteConflict';
import { aNote, type Clones, expectLine, noteLines, twoClones, writeNote } from '../../helpers/sharingFixture';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';

const now = Date.parse('2026-03-02T00:00:00.000Z');

describe('notes fetch, merge and repair (two clones through a bare remote)', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let k: Clones;
  beforeEach(async () => {
    k = await twoClones();
  });
  afterEach(() => k.remove());

  const fetchRefspecs = async (repo: Clones['a']) => (await repo.git(['config', '--get-all', 'remote.origin.fetch'])).trim().split('\n');

  describe('fetch refspecs', () => {
    it('git fetch and git pull exit 0 against a remote without any notes ref, also after the old refspec', async () => {
      // the old, exact refspec breaks every plain fetch while the remote has no notes
      await k.b.git(['config', '--add', 'remote.origin.fetch', legacyNotesFetchRefspec]);
      const broken = await k.b.gitResult(['fetch']);
      assert.equal(broken.code, 128);
      assert.match(broken.stderr, /couldn't find remote ref refs\/notes\/agentnote/);

      const change = await configureNotesFetch(k.b.runner(), 'origin', true);
      assert.deepEqual(change, { remote: 'origin', removed: [legacyNotesFetchRefspec], added: [notesFetchRefspec('origin')] });
      assert.deepEqual(await fetchRefspecs(k.b), [
        '+refs/heads/*:refs/remotes/origin/*',
        '+refs/notes/agentnote*:refs/notes/remotes/origin/agentnote*',
      ]);
      assert.deepEqual(await configureNotesFetch(k.b.runner(), 'origin', true), { remote: 'origin', removed: [], added: [] }, 'idempotent');

      for (const args of [['fetch'], ['pull'], ['pull', '--rebase'], ['fetch', '--prune'], ['fetch', 'origin']]) {
        const r = await k.b.gitResult(args);
        assert.equal(r.code, 0, `git ${args.join(' ')}: ${r.stderr}`);
      }
      // and once the remote has notes, only the tracking ref receives them
      await writeNote(k.a, k.c1, aNote('from A'));
      assert.equal((await shareNotes(k.a.runner(), 'origin')).status, 'pushed');
      assert.equal((await k.b.gitResult(['pull'])).code, 0);
      assert.deepEqual(await noteLines(k.b), [], 'the fetch itself never writes refs/notes/agentnote');
      assert.deepEqual(await noteLines(k.b, remoteTrackingNotesRef('origin')), [expectLine(k.c1, aNote('from A'))]);
    });

    it("leaves the CLI's glob and other values alone, and removes only ours when turned off", async () => {
      await k.a.git(['config', '--add', 'remote.origin.fetch', cliNotesFetchRefspec]);
      await configureNotesFetch(k.a.runner(), 'origin', true);
      assert.deepEqual(await fetchRefspecs(k.a), [
        '+refs/heads/*:refs/remotes/origin/*',
        cliNotesFetchRefspec,
        notesFetchRefspec('origin'),
      ]);
      const off = await configureNotesFetch(k.a.runner(), 'origin', false);
      assert.deepEqual(off?.removed, [notesFetchRefspec('origin')]);
      assert.deepEqual(await fetchRefspecs(k.a), ['+refs/heads/*:refs/remotes/origin/*', cliNotesFetchRefspec]);
      assert.equal(await configureNotesFetch(k.a.runner(), 'nope', true), undefined);
      await assert.rejects(configureNotesFetch(k.a.runner(), '--upload-pack=evil', true));
    });
  });

  describe('merge of fetched notes', () => {
    it('a fetch brings notes that a sync merges; both sides end line-exact', async () => {
      await configureNotesFetch(k.b.runner(), 'origin', true);
      const c2 = await k.b.commit({ 'b.txt': 'b\n' }, 'B only, unpushed');
      await writeNote(k.b, c2, aNote('B local'));
      await writeNote(k.a, k.c1, aNote('from A'));
      await shareNotes(k.a.runner(), 'origin');
      await k.b.git(['fetch', '-q']);
      const r = await syncNotes(k.b.runner(), { now });
      assert.equal(r.changed, true);
      assert.deepEqual(r.merged, [{ from: remoteTrackingNotesRef('origin'), status: 'merged', conflicts: 0 }]);
      assert.deepEqual(await noteLines(k.b), [expectLine(k.c1, aNote('from A')), expectLine(c2, aNote('B local'))].sort());
      assert.equal((await syncNotes(k.b.runner(), { now })).changed, false, 'a second sync is a no-op');
      assert.equal((await k.b.git(['rev-parse', lastLocalNotesRef])).trim(), (await k.b.git(['rev-parse', 'refs/notes/agentnote'])).trim());
    });

    it('concurrent notes on both sides merge: nothing dropped, the same bytes on both sides', async () => {
      await configureNotesFetch(k.a.runner(), 'origin', true);
      await configureNotesFetch(k.b.runner(), 'origin', true);
      const ca = await k.a.commit({ 'x.txt': 'a\n' }, 'A work');
      await k.a.git(['push', '-q', 'origin', 'main']);
      await k.b.git(['pull', '-q']);
      const cb = await k.b.commit({ 'y.txt': 'b\n' }, 'B work');
      await k.b.git(['push', '-q', 'origin', 'main']);
      await k.a.git(['pull', '-q']);
      // each side has notes of its own, and both noted c1 differently
      const a1 = aNote('A on c1', '2026-03-01T10:00:00.000Z');
      const b1 = aNote('B on c1', '2026-03-01T11:00:00.000Z', { agent: 'cursor' });
      await writeNote(k.a, k.c1, a1);
      await writeNote(k.a, ca, aNote('A on ca'));
      await writeNote(k.b, k.c1, b1);
      await writeNote(k.b, cb, aNote('B on cb'));
      assert.equal((await shareNotes(k.a.runner(), 'origin', { now })).status, 'pushed');
      const rb = await shareNotes(k.b.runner(), 'origin', { now });
      assert.equal(rb.status, 'pushed');
      await k.a.git(['fetch', '-q']);
      await syncNotes(k.a.runner(), { now });
      const resolved = encodeNote({ ...b1, [supersededNotesKey]: [JSON.parse(encodeNote(a1))] });
      const expected = [expectLine(k.c1, resolved), expectLine(ca, aNote('A on ca')), expectLine(cb, aNote('B on cb'))].sort();
      assert.deepEqual(await noteLines(k.a), expected);
      assert.deepEqual(await noteLines(k.b), expected);
      assert.deepEqual(await noteLines(k.remote), expected);
    });

    it('unusable fetched notes are skipped with a reason, never thrown', async () => {
      const local = aNote('valid local note');
      await writeNote(k.b, k.c1, local);
      await writeNote(k.a, k.c1, `${'['.repeat(5000)}${']'.repeat(5000)}\n`);
      await k.a.git(['push', '-q', 'origin', 'refs/notes/agentnote']);
      await k.b.git(['fetch', '-q', 'origin', `+refs/notes/agentnote:${remoteTrackingNotesRef('origin')}`]);
      const r = await syncNotes(k.b.runner(), { now });
      assert.deepEqual(r.skipped, [{ commit: k.c1, reason: 'note nested too deeply (more than 32 levels)' }]);
      const lines = await noteLines(k.b);
      assert.equal(lines.length, 1);
      assert.ok(lines[0].startsWith(`${k.c1}\t${encodeNote(local).slice(0, -3)}`), 'the valid note stays the note');
    });
  });

  describe('forced refspecs that are not ours', () => {
    for (const how of ['fetch', 'pull'] as const) {
      it(`unpushed local notes survive git ${how} with the CLI's forced refspec, and without it`, async () => {
        await configureNotesFetch(k.b.runner(), 'origin', true);
        const c2 = await k.b.commit({ 'b.txt': 'b\n' }, 'B only');
        await writeNote(k.b, c2, aNote('B unpushed'));
        await syncNotes(k.b.runner(), { now }); // the extension saw B's note (last-local)
        await writeNote(k.a, k.c1, aNote('A shared'));
        await shareNotes(k.a.runner(), 'origin');

        // without the CLI's refspec: the fetch leaves refs/notes/agentnote alone
        assert.equal((await k.b.gitResult([how, '-q'])).code, 0);
        assert.deepEqual(await noteLines(k.b), [expectLine(c2, aNote('B unpushed'))]);
        await syncNotes(k.b.runner(), { now });
        const both = [expectLine(k.c1, aNote('A shared')), expectLine(c2, aNote('B unpushed'))].sort();
        assert.deepEqual(await noteLines(k.b), both);

        // with it: the fetch replaces B's notes ref with the remote's, the sync merges B's back
        const c3 = await k.b.commit({ 'c.txt': 'c\n' }, 'B only, again');
        await writeNote(k.b, c3, aNote('B unpushed too'));
        await writeNote(k.a, k.c1, aNote('A shared, updated', '2026-03-01T12:00:00.000Z'));
        await shareNotes(k.a.runner(), 'origin');
        await k.b.git(['config', '--add', 'remote.origin.fetch', cliNotesFetchRefspec]);
        assert.equal((await k.b.gitResult([how, '-q'])).code, 0);
        assert.deepEqual(
          await noteLines(k.b),
          [expectLine(k.c1, aNote('A shared, updated', '2026-03-01T12:00:00.000Z'))],
          'replaced by the forced fetch',
        );
        const r = await syncNotes(k.b.runner(), { now });
        assert.ok(r.repaired >= 1);
        const all = [
          expectLine(k.c1, aNote('A shared, updated', '2026-03-01T12:00:00.000Z')),
          expectLine(c2, aNote('B unpushed')),
          expectLine(c3, aNote('B unpushed too')),
        ].sort();
        assert.deepEqual(await noteLines(k.b), all);
        // B pushes its branch: its notes follow; A fetches: all three sides line for line the same
        await k.b.git(['push', '-q', 'origin', 'main']);
        assert.equal((await shareNotes(k.b.runner(), 'origin', { now })).status, 'pushed');
        await configureNotesFetch(k.a.runner(), 'origin', true);
        assert.equal((await k.a.gitResult([how, '-q'])).code, 0);
        await syncNotes(k.a.runner(), { now });
        assert.deepEqual(await noteLines(k.remote), all);
        assert.deepEqual(await noteLines(k.a), all);
        assert.deepEqual(await noteLines(k.b), all);
      });
    }

    it('a note written after the last sync is found in the reflog; a notes ref deleted by fetch --prune is restored', async () => {
      await k.b.git(['config', '--add', 'remote.origin.fetch', cliNotesFetchRefspec]);
      const c2 = await k.b.commit({ 'b.txt': 'b\n' }, 'B only');
      await writeNote(k.b, c2, aNote('never synced'));
      await writeNote(k.a, k.c1, aNote('A shared'));
      await k.a.git(['push', '-q', 'origin', 'refs/notes/agentnote']);
      await k.b.git(['fetch', '-q']);
      await syncNotes(k.b.runner(), { now });
      assert.deepEqual(await noteLines(k.b), [expectLine(k.c1, aNote('A shared')), expectLine(c2, aNote('never synced'))].sort());

      // the remote loses its notes; a pruning fetch then deletes ours (and its reflog)
      await k.remote.git(['update-ref', '-d', 'refs/notes/agentnote']);
      await k.b.git(['fetch', '-q', '--prune']);
      assert.deepEqual(await noteLines(k.b), []);
      await syncNotes(k.b.runner(), { now });
      assert.deepEqual(await noteLines(k.b), [expectLine(k.c1, aNote('A shared')), expectLine(c2, aNote('never synced'))].sort());
    });

    it('a repair merge keeps every note of the earlier history; a fetched ref cannot undo a local deletion', async () => {
      const c2 = await k.b.commit({ 'b.txt': 'b\n' }, 'second');
      await writeNote(k.b, k.c1, aNote('X'));
      const base = (await k.b.git(['rev-parse', 'refs/notes/agentnote'])).trim();
      await writeNote(k.b, c2, aNote('Y'));
      const earlier = (await k.b.git(['rev-parse', 'refs/notes/agentnote'])).trim(); // X and Y
      // another history from the same base that removed X
      await k.b.git(['update-ref', 'refs/notes/agentnote', base]);
      await k.b.git(['notes', '--ref=agentnote', 'remove', k.c1]);
      const withoutX = (await k.b.git(['rev-parse', 'refs/notes/agentnote'])).trim();

      // fetched-ref merge: the local deletion of X stands, Y arrives
      await mergeNotesInto(k.b.runner(), earlier, { keepLocalDeletions: true, now });
      assert.deepEqual(await noteLines(k.b), [expectLine(c2, aNote('Y'))]);
      // repair merge: nothing of the earlier history is lost
      await k.b.git(['update-ref', 'refs/notes/agentnote', withoutX]);
      const r = await mergeNotesInto(k.b.runner(), earlier, { now });
      assert.equal(r.status, 'merged');
      assert.deepEqual(await noteLines(k.b), [expectLine(k.c1, aNote('X')), expectLine(c2, aNote('Y'))].sort());
      const parents = (await k.b.git(['log', '-1', '--format=%P', 'refs/notes/agentnote'])).trim().split(' ');
      assert.deepEqual(parents, [withoutX, earlier], 'one merge commit keeps both histories');
    });
  });
});
