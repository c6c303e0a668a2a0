import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { agentNote, waitFor, workspaceRoot, extensionId } from '../helpers/host';

describe('activation in a git workspace', () => {
  it('activates on startup without being asked (onStartupFinished)', async () => {
    const api = await agentNote();
    assert.equal(api.apiVersion, 1);
    const ext = vscode.extensions.getExtension(extensionId)!;
    const events: string[] = ext.packageJSON.activationEvents;
    assert.ok(events.includes('onStartupFinished'));
    assert.ok(!events.includes('*'), 'never "*"');
  });

  it('registers Show Note and Show Timeline', async () => {
    await agentNote();
    const all = await vscode.commands.getCommands(true);
    for (const id of ['agentNote.showNote', 'agentNote.showTimeline']) assert.ok(all.includes(id), `${id} registered`);
  });

  it('the Git API adapter sees the opened repository and its HEAD', async () => {
    const api = await agentNote();
    const root = workspaceRoot();
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const repo = await waitFor(() => api.repositories().find((r) => r.root === root), 30_000, 'repository');
    assert.equal(repo.head, head);
    assert.equal(repo.branch, 'main');
  });

  it('follows HEAD when a commit is made from outside the editor', async () => {
    const api = await agentNote();
    const root = workspaceRoot();
    execFileSync(
      'git',
      ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'empty from a terminal'],
      { cwd: root },
    );
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    await waitFor(() => api.repositories().find((r) => r.root === root && r.head === head), 30_000, 'HEAD update');
  });
});
