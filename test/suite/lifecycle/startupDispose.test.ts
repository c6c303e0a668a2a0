import * as assert from 'node:assert/strict';
import { agentNote, readyRepository } from '../helpers/host';
import { ClaudeSession } from '../helpers/agents';

/**
 * Issue #17 part 6: a repository closed (or the window reloaded) while Agent Note is still starting
 * must not leave anything running. A private service on the workspace repository (with a remote,
 * notes and a Claude session to tail) is disposed at every await point of its start-up in turn,
 * and once after it; each time nothing may be left: no tick timer, transcript watcher, offset
 * store, recorder, edit tracker, sharing or file watcher.
 */
describe('lifecycle: dispose at every await point of start-up', function () {
  this.timeout(180_000);
  let root: string;

  before(async () => {
    root = await readyRepository();
    const c = new ClaudeSession(root);
    c.prompt('LIFECYCLE-PROMPT: a session for the probe to tail');
    c.respond('done');
  });

  it('starts nothing after dispose(), whichever step it comes at', async () => {
    const api = await agentNote();
    const full = await api.probeStartupDispose(root, Number.MAX_SAFE_INTEGER);
    assert.ok(full, 'the probe knows the repository');
    assert.deepEqual(full.left, [], 'an ordinary dispose after start-up leaves nothing');
    // recorder open, git dirs, offset store, transcript discovery at least
    assert.ok(full.steps >= 4, `start-up has its await points (${full.steps})`);
    for (let step = 0; step <= full.steps; step++) {
      const r = await api.probeStartupDispose(root, step);
      assert.ok(r);
      assert.deepEqual(r.left, [], `disposed at step ${step} of ${full.steps}: nothing left running`);
      if (step < full.steps) assert.equal(r.steps, step + 1, `disposed at step ${step}: no later step began`);
    }
  });
});
