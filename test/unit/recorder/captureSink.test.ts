// Edit capture outputs → journal pairs, the capture log and the timeline
// (src/node/recorder/captureSink.ts), with a real repository, object store and journal.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentClaim, ContentTransition } from '../../../src/core/capture/editCapture';
import { Counters, nullLogger } from '../../../src/core/ports';
import { BlobStore } from '../../../src/node/git/blobStore';
import { SessionJournal } from '../../../src/node/journal/sessionJournal';
import { CaptureSink } from '../../../src/node/recorder/captureSink';
import { CaptureStore } from '../../../src/node/recorder/captureStore';
import { EditTimeline } from '../../../src/node/recorder/editTimeline';
import type { LiveSessions } from '../../../src/node/recorder/liveSession';
import { JournalGeneration } from '../../../src/node/recorder/recorderUtil';
import { readPairExt, readSessionSnapshot } from '../../../src/node/recorder/sessionSnapshot';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { T0, TestRepo } from './recorderHarness';

const SID = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';

describe('CaptureSink', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  let blobs: BlobStore;
  let store: CaptureStore;
  let journal: SessionJournal;
  let timeline: EditTimeline;
  let counters: Counters;
  let generation: JournalGeneration;
  let live: LiveSessions;
  let sink: CaptureSink;

  beforeEach(async () => {
    repo = await TestRepo.create();
    const git = repo.runner();
    blobs = new BlobStore(git);
    journal = await SessionJournal.forRepository(git);
    store = new CaptureStore(path.join(journal.root, 'capture'));
    timeline = new EditTimeline();
    counters = new Counters();
    generation = new JournalGeneration();
    live = new Map();
    sink = new CaptureSink({ git, log: nullLogger, counters, blobs, store, timeline, live, generation });
  });
  afterEach(async () => {
    blobs.dispose();
    await repo.remove();
  });

  const hash = async (content: string): Promise<string> => {
    const f = path.join(repo.dir, '.tmp-hash');
    fs.writeFileSync(f, content);
    const id = (await repo.git(['hash-object', '--', f])).trim();
    fs.rmSync(f);
    return id;
  };
  const transition = (id: string, file: string, before: string, after: string, time = T0): ContentTransition => ({
    id,
    file,
    time,
    before,
    after,
    source: 'disk',
  });
  const liveSession = async () => {
    const js = journal.session(SID);
    assert.ok(js);
    await js.ensureDir();
    live.set(`claude:${SID}`, {
      agent: 'claude',
      id: SID,
      js,
      promptIds: new Map([[1, 'p1']]),
      lastResponse: new Map(),
      started: true,
      heartbeat: 0,
    });
    return js;
  };
  const claim = (key: string, file: string, contents: string): AgentClaim => ({
    key,
    file,
    agent: 'claude',
    sessionId: SID,
    turn: 1,
    interactionKey: `claude:${SID}:1`,
    receivedAt: T0 + 100,
    edit: { kind: 'edit', agent: 'claude', sessionId: SID, file: repo.path(file), tool: 'Write', toolUseId: 'tu1', contents },
  });

  it('a change without a claim goes to the capture log and the timeline as human/other, with both blobs', async () => {
    sink.addTransition(transition('tr-1', 'a.ts', 'a\n', 'a\nb\n'));
    await sink.flush(T0 + 60_000, true);
    const [rec] = await store.readEdits();
    assert.deepEqual(
      { ...rec },
      {
        id: 'tr-1',
        time: T0,
        file: 'a.ts',
        origin: 'other',
        source: 'disk',
        preBlob: await hash('a\n'),
        postBlob: await hash('a\nb\n'),
        added: 1,
        removed: 0,
      },
    );
    assert.deepEqual(
      timeline.all().map((r) => [r.id, r.origin, r.postBlob]),
      [['tr-1', 'other', rec.postBlob]],
    );
    assert.equal(generation.value, 0);
  });

  it('a change matched by a claim becomes one CLI-shaped pair in the session, an ext record and an AI timeline entry', async () => {
    const js = await liveSession();
    sink.addTransition(transition('tr-1', 'a.ts', '', 'b\n'));
    await sink.addClaims([claim('k1', 'a.ts', 'b\n')]);
    await sink.flush(T0 + 200, true);
    const snap = await readSessionSnapshot(js);
    assert.equal(snap.pairs.length, 1);
    const [p] = snap.pairs;
    assert.match(p.pairId, /^an-[0-9a-f]{24}$/);
    assert.deepEqual([p.file, p.turn, p.promptId, p.preBlob, p.postBlob], ['a.ts', 1, 'p1', await hash(''), await hash('b\n')]);
    const [ext] = await readPairExt(js);
    assert.deepEqual([ext.pairId, ext.claimKey, ext.transitionId, ext.added, ext.removed], [p.pairId, 'k1', 'tr-1', 1, 0]);
    assert.deepEqual(
      timeline.all().map((r) => [r.id, r.origin, r.interactionKey]),
      [['tr-1', 'ai', `claude:${SID}:1`]],
    );
    assert.equal(generation.value, 1);
    assert.equal(counters.get('recorder.claims'), 1);
    // the same claim again (a re-read record): one pair per claim
    await sink.addClaims([claim('k1', 'a.ts', 'b\n')]);
    await sink.flush(T0 + 400, true);
    assert.equal((await readSessionSnapshot(js)).pairs.length, 1);
  });

  it('a claim nobody saw change is paired from the record at settle; without a live session it is dropped', async () => {
    const js = await liveSession();
    await sink.addClaims([claim('k2', 'new.ts', 'n\n')]);
    await sink.flush(T0 + 200, true);
    const [p] = (await readSessionSnapshot(js)).pairs;
    assert.deepEqual([p.file, p.preBlob, p.postBlob], ['new.ts', await hash(''), await hash('n\n')]);
    assert.equal(timeline.all()[0].id, p.pairId);
    live.clear();
    await sink.addClaims([claim('k3', 'other.ts', 'o\n')]);
    await sink.flush(T0 + 400, true);
    assert.equal((await readSessionSnapshot(js)).pairs.length, 1);
  });

  it('gitignored files never reach the object store: counted, nothing captured', async () => {
    await repo.write('.gitignore', 'secret.env\n');
    sink.addTransition(transition('tr-1', 'secret.env', '', 'TOKEN=1\n'));
    await sink.flush(T0 + 60_000, true);
    assert.equal(counters.get('recorder.blobsRefused.ignored'), 2);
    assert.deepEqual(await store.readEdits(), []);
    assert.equal(timeline.size, 0);
  });
});
