import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lineVerdict } from '../helpers/editor';
import { readyRepository, waitFor } from '../helpers/host';
import { git, waitForNote } from '../helpers/agents';

/**
 * Issue #18, "a third, fresh clone that fetched only main and the notes gets the same hover": the
 * workspace is a `--single-branch` clone of main, made after a hosting service squashed a noted
 * feature branch into main and deleted it (scripts/integration-scenarios.mjs,
 * makeSquashedRemoteClone). The feature commit is not in this clone; its note comes with the
 * user's next `git fetch` (through the notes refspec Agent Note adds at start), and the squash
 * commit gets its derived note from the note's line hashes alone.
 */
describe('a fresh clone of main after a hosting squash merge', function () {
  this.timeout(120_000);

  it('a plain git fetch brings the notes; the squash commit gets a derived note and the hover shows the prompt', async () => {
    const root = await readyRepository();
    const squash = git(root, 'rev-parse', 'HEAD').trim();
    assert.match(git(root, 'log', '-1', '--format=%s %cn').trim(), /^Add totals \(#7\) GitHub$/);
    assert.equal(git(root, 'notes', '--ref=agentnote', 'list').trim(), '', 'no notes in the fresh clone yet');
    // Agent Note adds its fetch refspec for the notes on start (no setup by the user)
    await waitFor(
      () => (git(root, 'config', '--get-all', 'remote.origin.fetch').includes('refs/notes/agentnote') ? true : undefined),
      20_000,
      'the notes fetch refspec',
    );
    git(root, 'fetch', '-q', 'origin');
    const n = await waitForNote(root, squash, 30_000);
    const source = git(root, 'ls-remote', 'origin', 'refs/notes/agentnote').trim().split(/\s/)[0];
    assert.ok(source, 'the remote has notes');
    const sources = (n as { derived_from?: string[] }).derived_from ?? [];
    assert.equal(sources.length, 1, 'derived from the one noted feature commit');
    const present = (() => {
      try {
        git(root, 'cat-file', '-e', `${sources[0]}^{commit}`);
        return true;
      } catch {
        return false;
      }
    })();
    assert.equal(present, false, 'the source commit is not in this clone');
    assert.deepEqual(n.files, [
      {
        path: 'src/total.ts',
        by_ai: true,
        ai_ranges: [
          { start: 2, end: 3, interaction: 0 },
          { start: 5, end: 6, interaction: 0 },
        ],
      },
    ]);
    assert.deepEqual(n.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 4, total_added: 6, deleted: 0 } });

    const file = path.join(root, 'src/total.ts');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    const hover = await lineVerdict(file, 2);
    assert.match(hover, /written by the AI/);
    assert.ok(hover.replace(/\\/g, '').includes('Add a total() over the prices, rounded to cents'), hover);
    assert.match(hover, /67%/);
    assert.match(hover, /derived from 1 commit/);
    assert.match(await lineVerdict(file, 4), /written by a person/, 'the line the person fixed on the branch');
  });
});
