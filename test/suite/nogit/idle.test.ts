import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { agentNote } from '../helpers/host';

describe('a folder that is not a git repository', () => {
  it('activates quietly and serves no repository', async () => {
    const api = await agentNote();
    // give the git extension time to scan the folder
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(api.repositories(), []);
  });

  it('commands still answer with an empty state instead of failing', async () => {
    await agentNote();
    const msg = await vscode.commands.executeCommand<string>('agentNote.showNote');
    assert.match(String(msg), /open a git repository/);
  });
});
