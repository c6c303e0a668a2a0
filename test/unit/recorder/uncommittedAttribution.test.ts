// AI lines of uncommitted text (src/node/recorder/uncommittedAttribution.ts) from journal pairs.
import * as assert from 'node:assert/strict';
import { Counters, nullLogger } from '../../../src/core/ports';
import { BlobStore } from '../../../src/node/git/blobStore';
import { SessionJournal, type JournalSession } from '../../../src/node/journal/sessionJournal';
import { JournalGeneration } from '../../../src/node/recorder/recorderUtil';
import { UncommittedAttribution } from '../../../src/node/recorder/uncommittedAttribution';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { FakeClock, T0, TestRepo } from './recorderHarness';

const SID = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';

describe('UncommittedAttribution', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let repo: TestRepo;
  let blobs: BlobStore;
  let js: JournalSession;
  let generation: JournalGeneration;
  let counters: Counters;
  let uncommitted: UncommittedAttribution;

  beforeEach(async () => {
    repo = await TestRepo.create();
    await repo.write('a.ts', 'a\n');
    await repo.git(['add', '-A']);
    await repo.git(['commit', '-q', '--no-verify', '-m', 'init']);
    const git = repo.runner();
    blobs = new BlobStore(git);
    const journal = await SessionJournal.forRepository(git, { clock: new FakeClock(T0) });
    const s = journal.session(SID);
    assert.ok(s);
    js = s;
    generation = new JournalGeneration();
    counters = new Counters();
    uncommitted = new UncommittedAttribution({ git, log: nullLogger, counters, blobs, journal, generation });
  });
  afterEach(async () => {
    blobs.dispose();
    await repo.remove();
  });

  const store = async (content: string) => (await repo.git(['hash-object', '-w', '--stdin'], { input: content })).trim();
  /** An agent edit of `file` from `before` to `after` in turn `turn` of the session. */
  const pair = async (turn: number, prompt: string, file: string, before: string, after: string): Promise<void> => {
    const r = await js.recordPrompt({ prompt, agent: 'claude' });
    assert.equal(r.turn, turn);
    const id = `tu-${turn}-${file}`;
    await js.appendPreBlob({ event: 'pre_blob', turn, prompt_id: r.promptId, file, blob: await store(before), tool_use_id: id });
    await js.appendChange({
      event: 'file_change',
      timestamp: new Date(T0 + turn * 1000).toISOString(),
      tool: 'Edit',
      file,
      session_id: SID,
      turn,
      prompt_id: r.promptId,
      blob: await store(after),
      change_id: null,
      edit_added: null,
      edit_deleted: null,
      tool_use_id: id,
    });
  };

  it('the agent-written lines of the current text, with their interaction, agent and prompt', async () => {
    await pair(1, 'Add b', 'a.ts', 'a\n', 'a\nb\n');
    assert.deepEqual(await uncommitted.ranges('a.ts', 'a\nb\nmine\n'), [
      { start: 2, end: 2, interactionKey: `claude:${SID}:1`, agent: 'claude', prompt: 'Add b' },
    ]);
    // a file without agent edits, text over the size limit: nothing
    assert.deepEqual(await uncommitted.ranges('other.ts', 'x\n'), []);
    assert.deepEqual(await uncommitted.ranges('a.ts', 'x'.repeat(2 * 1024 * 1024 + 1)), []);
    assert.equal(counters.get('recorder.uncommittedFailures'), 0);
  });

  it('the journal is re-read when the recorder wrote to it (generation), not for every question', async () => {
    await pair(1, 'Add b', 'a.ts', 'a\n', 'a\nb\n');
    assert.equal((await uncommitted.ranges('a.ts', 'a\nb\n')).length, 1);
    await pair(2, 'New file', 'n.ts', '', 'n\n');
    // within 5 s and no generation change: the cached pair index does not know n.ts yet
    assert.deepEqual(await uncommitted.ranges('n.ts', 'n\n'), []);
    generation.bump();
    assert.deepEqual(await uncommitted.ranges('n.ts', 'n\n'), [
      { start: 1, end: 1, interactionKey: `claude:${SID}:2`, agent: 'claude', prompt: 'New file' },
    ]);
  });
});
