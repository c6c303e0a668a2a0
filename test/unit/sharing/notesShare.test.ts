import * as assert from 'node:assert/strict';
import { nullLogger } from '../../../src/core/ports';
import { configureNotesFetch } from '../../../src/node/sharing/fetchConfig';
import { shareNotes } from '../../../src/node/sharing/notesShare';
import { NotesSharingCoordinator, type SharingPushMode } from '../../../src/node/sharing/notesSharingCoordinator';
import { sharingOps } from '../../../src/node/sharing/sharingOps';
import { syncNotes } from '../../../src/node/sharing/notesSync';
import { aNote, type Clones, expectLine, noteLines, objectsContaining, twoClones, writeNote } from '../../helpers/sharingFixture';
import { type TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

const now = Date.parse('2026-03-02T00:00:00.000Z');

/** A coordinator whose "worker" runs the same operations in this thread (the worker itself is tested in sharingWorker.test.ts). */
async function coordinatorFor(repo: TempRepo, mode: { push: SharingPushMode } = { push: 'withBranches' }) {
  const commonDir = (await repo.git(['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  const ops = sharingOps(nullLogger);
  const c = new NotesSharingCoordinator({
    repo: { cwd: repo.dir, commonDir },
    git: repo.runner(),
    worker: { run: (op, r, args) => (ops[op] as (a: unknown, b: unknown) => Promise<never>)(r, args) },
    pushMode: () => mode.push,
    fetchEnabled: () => true,
    debounceMs: 0,
  });
  await c.start();
  return c;
}

describe('notes push: only what the user shared', function () {
  this.timeout(90_000);
  useIsolatedGitEnv();
  let k: Clones;
  beforeEach(async () => {
    k = await twoClones();
  });
  afterEach(() => k.remove());

  const token = 'LOCAL-ONLY-PROMPT-7f3a9c';
  const remoteHas = async (t: string) => [
    ...(await objectsContaining(k.remote, 'refs/notes/agentnote', t)),
    ...(await objectsContaining(k.remote, '--all', t)),
  ];

  it("a local-only branch's note never reaches the remote: not on open, checkout, pull, fetch or a push of another branch; its own push brings it", async () => {
    const a = k.a;
    // main has a noted commit to share; a local-only branch has a noted commit with a secret prompt
    const m1 = await a.commit({ 'm.txt': 'm1\n' }, 'main work');
    await writeNote(a, m1, aNote('main prompt'));
    await a.git(['checkout', '-q', '-b', 'local-only']);
    const f1 = await a.commit({ 'f.txt': 'secret\n' }, 'local work');
    await writeNote(a, f1, aNote(token));
    await a.git(['checkout', '-q', 'main']);
    // the local notes history now holds the token in an older notes commit too
    await writeNote(a, k.c1, aNote('main prompt, first commit'));

    const c = await coordinatorFor(a); // open
    await c.checkNow();
    assert.deepEqual(await noteLines(k.remote), [], 'open pushes nothing');

    await a.git(['checkout', '-q', 'local-only']);
    await c.checkNow();
    await a.git(['checkout', '-q', 'main']);
    await c.checkNow();
    // another clone moves main on the remote; A pulls and fetches
    await k.b.commit({ 'b.txt': 'b\n' }, 'B work');
    await k.b.git(['push', '-q', 'origin', 'main']);
    await a.git(['pull', '-q', '--no-rebase', '--no-edit']);
    await c.checkNow();
    await a.git(['fetch', '-q']);
    await c.checkNow();
    assert.deepEqual(await noteLines(k.remote), [], 'checkout, pull and fetch push nothing');
    assert.equal(c.stats.shares, 0);

    // the user pushes main (a terminal `git push`)
    await a.git(['push', '-q', 'origin', 'main']);
    await c.checkNow();
    assert.equal(c.lastShare?.result.status, 'pushed');
    assert.deepEqual(
      await noteLines(k.remote),
      [expectLine(k.c1, aNote('main prompt, first commit')), expectLine(m1, aNote('main prompt'))].sort(),
    );
    assert.deepEqual(await remoteHas(token), [], 'the token is in no object the remote has');
    const parents = (await k.remote.git(['log', '--format=%P', 'refs/notes/agentnote'])).trim();
    assert.equal(parents, '', 'the first notes commit on the remote has no parent: never our local notes history');

    // pushing yet another branch still does not carry it
    await a.git(['checkout', '-q', '-b', 'other', 'main']);
    const o1 = await a.commit({ 'o.txt': 'o\n' }, 'other work');
    await writeNote(a, o1, aNote('other prompt'));
    await a.git(['push', '-q', 'origin', 'other']);
    await c.checkNow();
    assert.equal(c.lastShare?.result.status, 'pushed');
    assert.deepEqual(await remoteHas(token), []);
    assert.ok((await noteLines(k.remote)).includes(expectLine(o1, aNote('other prompt'))));

    // now the user pushes that branch: its note arrives
    await a.git(['push', '-q', 'origin', 'local-only']);
    await c.checkNow();
    assert.ok((await noteLines(k.remote)).includes(expectLine(f1, aNote(token))));
    assert.notDeepEqual(await remoteHas(token), []);
    // and the remote's notes history is a single line of its own commits
    const history = (await k.remote.git(['log', '--format=%H %P', 'refs/notes/agentnote'])).trim().split('\n');
    assert.equal(history.length, 3);
    assert.ok(
      history.every((l) => l.split(' ').length <= 2),
      'no merge commit (no local history) on the remote',
    );
    c.dispose();
  });

  it('with agentNote.sharing.push = off a push shares nothing; the setting is read when the push happens', async () => {
    const mode = { push: 'off' as SharingPushMode };
    const m1 = await k.a.commit({ 'm.txt': 'm\n' }, 'main work');
    await writeNote(k.a, m1, aNote('main prompt'));
    const c = await coordinatorFor(k.a, mode);
    await k.a.git(['push', '-q', 'origin', 'main']);
    await c.checkNow();
    assert.equal(c.stats.sharesSkippedOff, 1);
    assert.deepEqual(await noteLines(k.remote), []);
    mode.push = 'withBranches';
    const m2 = await k.a.commit({ 'm.txt': 'm2\n' }, 'more');
    await writeNote(k.a, m2, aNote('second'));
    await k.a.git(['push', '-q', 'origin', 'main']);
    await c.checkNow();
    assert.deepEqual(await noteLines(k.remote), [expectLine(m1, aNote('main prompt')), expectLine(m2, aNote('second'))].sort());
    c.dispose();
  });

  it('a rejected notes push merges the other side and retries without losing either', async () => {
    await configureNotesFetch(k.b.runner(), 'origin', true);
    const ca = await k.a.commit({ 'x.txt': 'a\n' }, 'A work');
    await k.a.git(['push', '-q', 'origin', 'main']);
    await k.b.git(['pull', '-q']);
    await writeNote(k.a, ca, aNote('A note'));
    await writeNote(k.b, k.c1, aNote('B note'));
    let attempts = 0;
    const r = await shareNotes(k.a.runner(), 'origin', {
      now,
      beforePush: async (attempt) => {
        attempts = attempt;
        // B shares right between A's look at the remote and A's push
        if (attempt === 1) assert.equal((await shareNotes(k.b.runner(), 'origin', { now })).status, 'pushed');
      },
    });
    assert.equal(attempts, 2);
    assert.ok(r.status === 'pushed' && r.attempts === 2);
    const expected = [expectLine(k.c1, aNote('B note')), expectLine(ca, aNote('A note'))].sort();
    assert.deepEqual(await noteLines(k.remote), expected);
    assert.deepEqual(await noteLines(k.a), expected);
    await k.b.git(['fetch', '-q']);
    await syncNotes(k.b.runner(), { now });
    assert.deepEqual(await noteLines(k.b), expected);
  });

  it('shares nothing for commits the remote does not have, and fails cleanly for an unreachable remote', async () => {
    const c2 = await k.a.commit({ 'u.txt': 'u\n' }, 'unpushed');
    await writeNote(k.a, c2, aNote(token));
    assert.deepEqual(await shareNotes(k.a.runner(), 'origin'), { status: 'upToDate', withheld: 1 });
    assert.deepEqual(await remoteHas(token), []);
    await k.a.git(['remote', 'add', 'gone', '/nonexistent/agentnote-remote.git']);
    assert.equal((await shareNotes(k.a.runner(), 'gone')).status, 'failed');
    assert.equal((await shareNotes(k.a.runner(), '--upload-pack=touch /tmp/x')).status, 'failed');
  });
});
