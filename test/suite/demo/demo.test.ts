import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, waitFor, workspaceRoot } from '../helpers/host';

/** The demo repository (notes written by the pipeline, a live Claude session with an uncommitted edit). */
describe('demo repository', function () {
  this.timeout(90_000);

  it('status bar shows the live Claude session', async () => {
    const api = await agentNote();
    const text = await waitFor(() => (/Claude Code/.test(api.statusBarText()) ? api.statusBarText() : undefined), 30_000, 'status bar');
    assert.match(text, /Claude Code · \d+ prompts? · \d+ files?/);
  });

  it('hover on an uncommitted AI line names the live prompt', async () => {
    const api = await agentNote();
    await api.idle();
    const uri = vscode.Uri.file(path.join(workspaceRoot(), 'src/cart.ts'));
    const doc = await vscode.workspace.openTextDocument(uri);
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('total(code?: string)'));
    assert.ok(line >= 0);
    const text = await waitFor(
      async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          uri,
          new vscode.Position(line, 4),
        );
        const t = (hovers ?? [])
          .flatMap((h) => h.contents)
          .map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))
          .join('\n');
        return t.includes('Agent Note') ? t : undefined;
      },
      30_000,
      'uncommitted hover',
    );
    assert.match(text, /uncommitted/);
    assert.match(text, /Add a total\\\(\\\) to Cart/);
  });

  it('the hover on a committed AI line says which prompt wrote it', async () => {
    const uri = vscode.Uri.file(path.join(workspaceRoot(), 'src/discount.ts'));
    const hovers = await waitFor(
      async () => {
        const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(8, 4));
        const t = (h ?? [])
          .flatMap((x) => x.contents)
          .map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))
          .join('\n');
        return t.includes('Agent Note') ? t : undefined;
      },
      30_000,
      'committed hover',
    );
    assert.match(hovers, /100%/);
    assert.match(hovers, /written by the AI — prompt 1/);
  });

  it('Show Timeline returns sessions of all four agents', async () => {
    const state = await vscode.commands.executeCommand<{ sessions: { agent: string }[]; entries: { kind: string }[] }>(
      'agentNote.showTimeline',
    );
    assert.deepEqual([...new Set(state.sessions.map((s) => s.agent))].sort(), ['claude', 'codex', 'cursor', 'gemini']);
    assert.ok(state.entries.some((e) => e.kind === 'commit'));
    assert.ok(state.entries.some((e) => e.kind === 'edit'));
  });
});
