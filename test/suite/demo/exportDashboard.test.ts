import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, workspaceRoot } from '../helpers/host';

/** "Agent Note: Export Dashboard…" in a real host, on the demo repository (notes written by the pipeline). */
describe('Export Dashboard command', function () {
  this.timeout(90_000);

  it('writes the dashboard of the current branch with the notes of its commits', async () => {
    const api = await agentNote();
    await api.idle();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'an-dash-host-'));
    try {
      const r = await vscode.commands.executeCommand<{ index: string; commits: number; noted: number } | undefined>(
        'agentNote.exportDashboard',
        { folder, quiet: true },
      );
      assert.ok(r, 'the command returned what it wrote');
      assert.equal(r.index, path.join(folder, 'index.html'));
      for (const f of ['index.html', 'dashboard-data.js', 'dashboard.js', 'dashboard.css'])
        assert.ok(fs.existsSync(path.join(folder, f)), f);
      const git = (...args: string[]) => execFileSync('git', args, { cwd: workspaceRoot(), encoding: 'utf8' }).trim();
      const onHead = new Set(git('rev-list', 'HEAD').split('\n'));
      const noted = git('notes', '--ref=agentnote', 'list')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ')[1])
        .filter((c) => onHead.has(c));
      assert.equal(r.commits, onHead.size);
      assert.equal(r.noted, noted.length);
      assert.ok(r.noted > 0, 'the demo has notes');
      const text = fs.readFileSync(path.join(folder, 'dashboard-data.js'), 'utf8');
      const data = JSON.parse(text.slice(text.indexOf('= ') + 2, text.lastIndexOf(';'))) as {
        strings: Record<string, string>;
        commits: { sha: string; noted: boolean }[];
      };
      assert.deepEqual(
        data.commits
          .filter((c) => c.noted)
          .map((c) => c.sha)
          .sort(),
        [...noted].sort(),
      );
      assert.equal(data.strings.title, 'Agent Note Dashboard', 'localized labels are written (English host)');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
