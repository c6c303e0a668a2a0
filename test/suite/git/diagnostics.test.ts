import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, readyRepository, waitFor } from '../helpers/host';
import { ClaudeSession } from '../helpers/agents';

interface Status {
  trusted: boolean;
  repositories: { root: string; branch?: string; notedCommits?: number; sessions: number }[];
  agents: { agent: string; enabled: boolean; found: boolean; tailed: number; sessions: number }[];
}

/** Show Status (what the walkthrough points to) and Report Issue, in a real extension host. */
describe('diagnostics: Show Status and Report Issue', function () {
  this.timeout(90_000);
  let root: string;
  const marker = `PLANTED-PROMPT-${Date.now().toString(36)}`;
  const secret = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';

  before(async () => {
    root = await readyRepository();
    const api = await agentNote();
    const c = new ClaudeSession(root);
    c.prompt(`${marker}: rename the helper, the token is ${secret}`);
    c.respond(`PLANTED-RESPONSE for ${marker}: done.`);
    await waitFor(() => api.sessions(root).find((s) => s.id === c.id && s.prompts.length === 1), 15_000, 'planted session');
  });

  /** Closes the untitled report documents without a save prompt. */
  async function closeReports(): Promise<void> {
    for (const d of vscode.workspace.textDocuments.filter((x) => x.isUntitled)) {
      await vscode.window.showTextDocument(d);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  }

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await closeReports();
  });

  it('Show Status reports the repository and, per agent, whether its transcripts were found', async () => {
    const status = (await vscode.commands.executeCommand<Status>('agentNote.showStatus'))!;
    assert.equal(status.trusted, true);
    const repo = status.repositories.find((r) => r.root === root);
    assert.ok(repo, 'the workspace repository is listed');
    assert.equal(repo.branch, 'main');
    assert.equal(typeof repo.notedCommits, 'number');
    const claude = status.agents.find((a) => a.agent === 'claude')!;
    assert.equal(claude.enabled, true);
    assert.equal(claude.found, true, '~/.claude/projects of the test HOME exists');
    assert.ok(claude.tailed >= 1 && claude.sessions >= 1);
    const gemini = status.agents.find((a) => a.agent === 'gemini')!;
    assert.equal(gemini.found, false, 'no Gemini CLI home in the test HOME');
  });

  it('Report Issue opens a report with versions, OS, agents and counters — and no prompt, secret or outside path', async () => {
    // a real warning that names a path outside the repository: a tailed transcript turns into a directory
    const api = await agentNote();
    const broken = new ClaudeSession(root);
    broken.prompt('a session whose transcript breaks');
    await waitFor(() => api.sessions(root).find((s) => s.id === broken.id), 15_000, 'second session');
    fs.rmSync(broken.file);
    fs.mkdirSync(broken.file);
    fs.writeFileSync(path.join(broken.file, 'x'), 'x');
    let report = '';
    for (let i = 0; i < 20 && !/reading <path> failed/.test(report); i++) {
      await new Promise((r) => setTimeout(r, 1000));
      await closeReports();
      report = (await vscode.commands.executeCommand<string>('agentNote.reportIssue'))!;
    }
    assert.match(report, /warn \[repo:[^\]]+\] reading <path> failed: /, 'the read error, with the outside path replaced');
    const doc = await waitFor(
      () => vscode.workspace.textDocuments.find((d) => d.isUntitled && d.languageId === 'markdown' && d.getText() === report),
      10_000,
      'report document',
    );
    assert.ok(doc);
    assert.match(report, /agentnote\.agent-note 0\.\d+\.\d+/);
    assert.match(
      report,
      new RegExp(`\\| Editor \\| ${vscode.env.appName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${vscode.version.replace(/\./g, '\\.')}`),
    );
    assert.match(report, new RegExp(`\\| OS \\| ${os.platform()} `));
    assert.match(report, /\| git \| \d+\.\d+/);
    assert.match(report, /\| claude \| yes \| yes \(default\) \| [1-9]\d* \|/);
    assert.match(report, /Work done: .*`git\.calls` \d+/);
    assert.match(report, /Skipped and failed work: .*`tailer\.readErrors` [1-9]/);
    for (const bad of [marker, 'PLANTED-RESPONSE', secret, os.homedir(), root])
      assert.ok(!report.includes(bad), `the report must not contain ${bad === secret ? 'the secret' : bad}`);
    // no absolute path of this machine at all
    assert.doesNotMatch(report, /(^|[\s'"(])\/(tmp|home|root|usr|work)\//m);
  });
});
