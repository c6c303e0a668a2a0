import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, waitFor, workspaceRoot } from '../helpers/host';
import { buildTimelineModel, filterTimelineModel, emptyModelFilters } from '../../../src/core/timeline/timelineModel';
import type { TimelineState } from '../../../src/webviews/timeline/protocol';

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

  it('Timeline v2: one lane per session, edits linked to the commit that took them, the live edit uncommitted; its commands run', async () => {
    const api = await agentNote();
    await api.idle();
    const state = await vscode.commands.executeCommand<TimelineState>('agentNote.showTimeline');
    const model = buildTimelineModel(state);
    const sessionLanes = model.lanes.filter((l) => l.kind === 'session');
    assert.equal(sessionLanes.length, state.sessions.length, 'one lane per session');
    assert.deepEqual([...new Set(sessionLanes.map((l) => l.agent))].sort(), ['claude', 'codex', 'cursor', 'gemini']);
    assert.ok(model.lanes.some((l) => l.kind === 'commits'));
    assert.equal(state.branch, 'main');
    // time order, and a session start never after its own first prompt (the v1 list's complaint)
    for (let i = 1; i < model.marks.length; i++) assert.ok(model.marks[i - 1].t <= model.marks[i].t, `mark ${i} in time order`);
    for (const lane of model.byLane) {
      const first = model.marks[lane[0]];
      if (model.lanes[first.lane].kind === 'session') assert.equal(first.kind, 'session', 'a session lane starts with its start');
    }
    // an agent edit went into a noted commit of the demo history, and that commit lists it back
    const linked = model.marks.find((m) => m.kind === 'edit' && m.commits.length > 0);
    assert.ok(linked, 'an edit linked to its commit');
    const commit = model.marks[model.byId.get(linked.commits[0]) as number];
    assert.equal(commit.entry?.kind === 'commit' && commit.entry.noted, true);
    assert.ok(commit.files.includes(linked.files[0]));
    // the live Claude session's edit of src/cart.ts is not committed yet
    const live = model.marks.find((m) => m.kind === 'uncommitted' && m.files.includes('src/cart.ts'));
    assert.ok(live, `an uncommitted edit of src/cart.ts (${model.marks.filter((m) => m.kind === 'uncommitted').length} uncommitted)`);
    assert.equal(live.agent, 'claude');
    assert.equal(
      filterTimelineModel(model, { ...emptyModelFilters(), agents: ['codex'] }).marks.some((m) => m.agent !== 'codex'),
      false,
    );
    assert.deepEqual(
      filterTimelineModel(model, { ...emptyModelFilters(), branch: 'no-such-branch' }).marks,
      [],
      'nothing is on a branch the history does not have',
    );

    // Reveal Line on the live edit opens src/cart.ts at a line the hover calls uncommitted AI
    assert.equal(await api.timelineMessage({ id: 'wv-t1', method: 'timeline/revealEdit', params: { editId: live.id } }), true);
    const editor = await waitFor(
      () =>
        vscode.window.activeTextEditor?.document.uri.fsPath.endsWith(path.join('src', 'cart.ts'))
          ? vscode.window.activeTextEditor
          : undefined,
      15_000,
      'cart.ts revealed',
    );
    const line = editor.selection.active.line;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      editor.document.uri,
      new vscode.Position(line, 4),
    );
    const text = (hovers ?? [])
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))
      .join('\n');
    assert.match(text, /uncommitted/, `line ${line + 1} is an uncommitted AI line`);

    // Show Note of the linked commit opens the note panel; a forged message is refused
    if (commit.entry?.kind !== 'commit') throw new Error('commit mark');
    assert.equal(await api.timelineMessage({ id: 'wv-t2', method: 'timeline/openNote', params: { sha: commit.entry.sha } }), true);
    await waitFor(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('agentNote.note')) || undefined,
      15_000,
      'Show Note panel',
    );
    assert.equal(await api.timelineMessage({ id: 'wv-t3', method: 'timeline/revealEdit', params: { editId: '' } }), true);
  });
});
