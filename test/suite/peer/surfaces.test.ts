import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, waitFor, workspaceRoot } from '../helpers/host';

/** Hover, CodeLens, Show Note, Copy PR Report on notes written by the Agent Note CLI (todo-api bundle). */

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))
    .join('\n');
}

async function hoverAt(file: string, line: number): Promise<string> {
  const uri = vscode.Uri.file(path.join(workspaceRoot(), file));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line - 1, 2));
  return hoverText(hovers ?? []);
}

describe('surfaces on peer-written notes (todo-api)', () => {
  before(async () => {
    const api = await agentNote();
    await waitFor(() => api.repositories().find((r) => r.root === workspaceRoot()), 30_000, 'repository');
  });

  it('showing a file starts its blame, and the first hover in it answers from that blame', async () => {
    const api = await agentNote();
    const config = vscode.workspace.getConfiguration('agentNote');
    // CodeLens would blame the file too: without it, only the hover's prefetch can
    await config.update('codeLens.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      const runs = () => api.benchStats().blameRuns;
      const before = runs();
      const uri = vscode.Uri.file(path.join(workspaceRoot(), 'src/store.ts'));
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      await waitFor(() => runs() > before || undefined, 20_000, 'a blame started by showing the file');
      const started = runs();
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(14, 2));
      assert.match(hoverText(hovers ?? []), /74%/);
      assert.equal(runs(), started, 'the hover used the blame started when the file was shown');
    } finally {
      await config.update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('hover on a line of an AI commit shows the prompt and the AI Ratio', async () => {
    // src/store.ts line 15 was last changed by "feat: validate todo titles" (74%, line method)
    const text = await waitFor(
      async () => {
        const t = await hoverAt('src/store.ts', 15);
        return t.includes('Agent Note') ? t : undefined;
      },
      30_000,
      'agent note hover',
    );
    assert.match(text, /74%/);
    assert.match(text, /Reject empty or whitespace/);
    assert.match(text, /claude-opus-4-6/);
    assert.match(text, /e13b790/);
    assert.match(text, /command:agentNote\.showNote/);
    // product icons (codicons), never emoji that need an emoji font
    assert.match(text, /\[\$\(note\) Show Note\]/);
    assert.doesNotMatch(text, /[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]/u);
  });

  it('display settings apply live: hover, CodeLens and status bar switch off and on without a reload', async () => {
    const api = await agentNote();
    const config = vscode.workspace.getConfiguration('agentNote');
    const uri = vscode.Uri.file(path.join(workspaceRoot(), 'src/store.ts'));
    const lenses = async () =>
      ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? []).filter(
        (x) => x.command?.command === 'agentNote.showNote',
      ).length;
    try {
      await config.update('hovers.enabled', false, vscode.ConfigurationTarget.Global);
      await config.update('codeLens.enabled', false, vscode.ConfigurationTarget.Global);
      await config.update('statusBar.enabled', false, vscode.ConfigurationTarget.Global);
      await waitFor(async () => !(await hoverAt('src/store.ts', 15)).includes('Agent Note') || undefined, 10_000, 'hover off');
      await waitFor(async () => (await lenses()) === 0 || undefined, 10_000, 'CodeLens off');
      assert.equal(api.statusBarText(), '');
    } finally {
      await config.update('hovers.enabled', undefined, vscode.ConfigurationTarget.Global);
      await config.update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Global);
      await config.update('statusBar.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor(async () => (await hoverAt('src/store.ts', 15)).includes('Agent Note') || undefined, 20_000, 'hover on again');
    await waitFor(async () => (await lenses()) > 0 || undefined, 20_000, 'CodeLens on again');
  });

  it('hover on a line of a human-only commit adds nothing', async () => {
    // README.md was last changed by the human commit "docs: describe the REST endpoints"
    const text = await hoverAt('README.md', 1);
    assert.doesNotMatch(text, /Agent Note/);
  });

  it('CodeLens titles show N% per block of noted lines', async () => {
    const uri = vscode.Uri.file(path.join(workspaceRoot(), 'src/store.ts'));
    const lenses = await waitFor(
      async () => {
        const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
        const ours = (l ?? []).filter((x) => x.command?.command === 'agentNote.showNote');
        return ours.length ? ours : undefined;
      },
      30_000,
      'code lenses',
    );
    const titles = lenses.map((l) => l.command!.title);
    assert.ok(
      titles.some((t) => /74% AI · 1 prompt · claude-opus-4-6 · e13b790/.test(t)),
      titles.join('\n'),
    );
    assert.ok(
      titles.some((t) => /100% AI .* 07e49a7/.test(t)),
      titles.join('\n'),
    );
    // first block starts at line 1 (the store was created by 07e49a7)
    // executeCodeLensProvider lists resolved lenses in the order their resolution finished
    const first = [...lenses].sort((a, b) => a.range.start.line - b.range.start.line)[0];
    assert.equal(first.range.start.line, 0);
    assert.match(first.command!.title, /07e49a7/);
  });

  it('Show Note renders the note of a given commit', async () => {
    const root = workspaceRoot();
    const sha = (await vscode.commands.executeCommand<{ commit: { sha: string } }>('agentNote.showNote', {
      root,
      sha: 'a76d22f'.padEnd(40, '0'),
    })) as unknown;
    // an unknown sha has no note
    assert.match(String(sha), /has no note/);
    const { execFileSync } = await import('node:child_process');
    const full = execFileSync('git', ['rev-parse', 'a76d22f'], { cwd: root, encoding: 'utf8' }).trim();
    const input = await vscode.commands.executeCommand<{
      commit: { subject: string };
      note?: { interactions: unknown[]; attribution: { ai_ratio: number } };
    }>('agentNote.showNote', { root, sha: full });
    assert.equal(input.commit.subject, 'feat: paginate GET /todos with a cursor');
    assert.equal(input.note?.interactions.length, 4);
    assert.equal(input.note?.attribution.ai_ratio, 100);
  });

  it('Copy Prompt copies the prompt of a noted commit', async () => {
    const root = workspaceRoot();
    const { execFileSync } = await import('node:child_process');
    const full = execFileSync('git', ['rev-parse', 'e13b790'], { cwd: root, encoding: 'utf8' }).trim();
    const prompt = await vscode.commands.executeCommand<string>('agentNote.copyPrompt', { root, sha: full, index: 0 });
    assert.match(prompt, /^Reject empty or whitespace-only titles/);
    assert.equal(await vscode.env.clipboard.readText(), prompt);
  });

  it('Copy PR Report produces the roll-up of the range', async () => {
    const root = workspaceRoot();
    const md = await vscode.commands.executeCommand<string>('agentNote.copyPrReport', { root, base: 'HEAD~6' });
    assert.match(md, /Agent Note/);
    assert.match(md, /Total AI Ratio/);
    const json = JSON.parse(
      await vscode.commands.executeCommand<string>('agentNote.copyPrReport', { root, base: 'HEAD~6', format: 'json' }),
    );
    assert.equal(json.total_commits, 6);
    assert.equal(json.tracked_commits, 5);
  });
});
