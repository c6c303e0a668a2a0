import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentNote, readyRepository, waitFor } from '../helpers/host';
import { CursorSession } from '../helpers/agents';

/**
 * Live transcript tailing in a real extension host (issue #4): HOME is a temp dir, the test writes
 * a Cursor agent transcript (~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl) the way
 * Cursor does, and reads the session model through the extension's API.
 */
describe('tailing agent transcripts', function () {
  this.timeout(90_000);
  let root: string;

  before(async () => {
    root = await readyRepository();
  });

  it('sees a new Cursor session, then an appended prompt and edit within a second; ignores another project', async () => {
    const api = await agentNote();
    const session = (id: string) => api.sessions(root).find((x) => x.agent === 'cursor' && x.id === id);

    // another project's transcript, created first: it must never show up in this repository
    const other = new CursorSession(path.join(os.tmpdir(), 'another-cursor-project'));
    other.prompt('this belongs to another project');
    other.write('elsewhere.ts', 'export const elsewhere = 1;\n');

    const c = new CursorSession(root);
    c.prompt('Start a changelog');
    const tNew = Date.now();
    // the session and its first prompt (journaled one event after the other: wait for both)
    await waitFor(
      () => (session(c.id)?.prompts.includes('Start a changelog') ? true : undefined),
      15_000,
      'new cursor session with its first prompt',
    );
    const newMs = Date.now() - tNew;
    // a new session is found by a directory event (rescan debounced 500 ms), not the 30 s periodic rescan
    assert.ok(newMs <= 2000, `new session seen after ${newMs} ms`);
    assert.deepEqual(session(c.id)?.prompts, ['Start a changelog']);

    c.prompt('Create CHANGES.md with a title');
    const t0 = Date.now();
    await waitFor(() => (session(c.id)?.prompts.includes('Create CHANGES.md with a title') ? true : undefined), 5000, 'cursor prompt');
    const promptMs = Date.now() - t0;
    assert.ok(promptMs <= 1000, `appended prompt seen after ${promptMs} ms`);

    c.write('CHANGES.md', '# Changes\n');
    const t1 = Date.now();
    await waitFor(() => (session(c.id)?.files.includes('CHANGES.md') ? true : undefined), 5000, 'cursor edit');
    const editMs = Date.now() - t1;
    assert.ok(editMs <= 1000, `appended edit seen after ${editMs} ms`);

    const s = session(c.id)!;
    assert.deepEqual(s.prompts, ['Start a changelog', 'Create CHANGES.md with a title']);
    assert.deepEqual(s.files, ['CHANGES.md']);
    assert.equal(s.active, true);
    // the other project's session was written before ours and had every chance to be read
    assert.equal(
      api.sessions(root).find((x) => x.id === other.id),
      undefined,
      'other project ignored',
    );
    assert.ok(
      api.sessions(root).every((x) => !x.files.some((f) => f.includes('elsewhere.ts'))),
      'no file of the other project',
    );
  });

  it('sees a Cursor session whose directory existed before its first record without waiting for the periodic rescan', async () => {
    const api = await agentNote();
    // Cursor creates agent-transcripts/<id>/ and writes <id>.jsonl into it a moment later: the
    // rescan that the new directory triggers finds no transcript yet
    const c = new CursorSession(root);
    await new Promise((r) => setTimeout(r, 2000));
    c.prompt('Add a LICENSE file');
    const t0 = Date.now();
    await waitFor(
      () => api.sessions(root).find((x) => x.id === c.id && x.prompts.includes('Add a LICENSE file')),
      10_000,
      'late first record',
    );
    const ms = Date.now() - t0;
    // found through the watch on the session directory (500 ms debounce), not the 30 s periodic rescan
    assert.ok(ms <= 2000, `first record of a pre-created session directory seen after ${ms} ms`);
  });
});
