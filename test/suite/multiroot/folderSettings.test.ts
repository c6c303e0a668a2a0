import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, waitFor } from '../helpers/host';
import { git } from '../helpers/agents';

/**
 * A multi-root workspace (scripts/integration-scenarios.mjs `multiroot`): two repositories whose
 * folder settings differ. Resource-scoped settings are read with each repository's URI, and a
 * change in one folder applies to that repository only, without a reload.
 */
const folder = (name: string) => {
  const f = vscode.workspace.workspaceFolders?.find((x) => x.name === name);
  assert.ok(f, `workspace folder ${name}`);
  return f;
};
const fetchSpecs = (root: string) => {
  try {
    return git(root, 'config', '--get-all', 'remote.origin.fetch');
  } catch {
    return '';
  }
};
const rewriteRef = (root: string) => {
  try {
    return git(root, 'config', '--get-all', 'notes.rewriteRef');
  } catch {
    return '';
  }
};
const oldSession = (root: string, n: string) => path.join(root, '.git', 'agentnote', 'sessions', `0b0c5a1e-5d1a-4c3e-9f00-00000000000${n}`);

describe('multi-root workspace: per-folder settings', function () {
  this.timeout(90_000);
  let alpha: string;
  let beta: string;

  before(async () => {
    const api = await agentNote();
    alpha = folder('alpha').uri.fsPath;
    beta = folder('beta').uri.fsPath;
    await waitFor(() => (api.repositories().length === 2 ? true : undefined), 30_000, 'both repositories');
    await api.idle();
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration('agentNote', folder('beta').uri)
      .update('notes.fetchWithBranch', false, vscode.ConfigurationTarget.WorkspaceFolder);
  });

  it('each repository reads its own folder settings', async () => {
    const api = await agentNote();
    const a = api.settings(alpha)!;
    const b = api.settings(beta)!;
    assert.equal(a.keepOnRewrite, false);
    assert.equal(a.journalRetentionDays, 3);
    assert.equal(a.fetchWithBranch, true);
    assert.equal(b.keepOnRewrite, true);
    assert.equal(b.journalRetentionDays, 14);
    assert.equal(b.fetchWithBranch, false);
  });

  it('acts on them: notes refspec and rewriteRef only where the folder wants them, retention per folder', async () => {
    await waitFor(() => (/refs\/notes\/agentnote/.test(fetchSpecs(alpha)) ? true : undefined), 10_000, 'alpha fetches notes');
    await waitFor(() => (/refs\/notes\/agentnote/.test(rewriteRef(beta)) ? true : undefined), 10_000, 'beta keeps notes on rewrite');
    assert.doesNotMatch(fetchSpecs(beta), /refs\/notes/, 'beta: notes.fetchWithBranch is false in its folder settings');
    assert.doesNotMatch(rewriteRef(alpha), /agentnote/, 'alpha: notes.keepOnRewrite is false in its folder settings');
    // a session last active 5 days ago: gone where the journal is kept 3 days, kept where it is kept 14
    assert.equal(fs.existsSync(oldSession(alpha, '1')), false, 'alpha removed its 5-day-old session (3 days)');
    assert.equal(fs.existsSync(oldSession(beta, '2')), true, 'beta kept its 5-day-old session (14 days)');
  });

  it('a change in one folder applies to that repository at once, and only to it', async () => {
    const api = await agentNote();
    await vscode.workspace
      .getConfiguration('agentNote', folder('beta').uri)
      .update('notes.fetchWithBranch', true, vscode.ConfigurationTarget.WorkspaceFolder);
    await api.idle();
    assert.equal(api.settings(beta)?.fetchWithBranch, true);
    await waitFor(() => (/refs\/notes\/agentnote/.test(fetchSpecs(beta)) ? true : undefined), 10_000, 'beta fetches notes now');
    assert.equal(api.settings(alpha)?.journalRetentionDays, 3, 'alpha keeps its own values');
    assert.equal(api.settings(alpha)?.keepOnRewrite, false);
    await vscode.workspace
      .getConfiguration('agentNote', folder('alpha').uri)
      .update('journal.retentionDays', 10, vscode.ConfigurationTarget.WorkspaceFolder);
    await api.idle();
    assert.equal(api.settings(alpha)?.journalRetentionDays, 10);
    assert.equal(api.settings(beta)?.journalRetentionDays, 14, 'beta unaffected');
    await vscode.workspace
      .getConfiguration('agentNote', folder('alpha').uri)
      .update('journal.retentionDays', 3, vscode.ConfigurationTarget.WorkspaceFolder);
  });
});
