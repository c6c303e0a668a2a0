import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, readyRepository, recorded, waitFor } from '../helpers/host';
import { ClaudeSession, CursorSession, commitAll as commitIn, git, noteOf, waitForNote } from '../helpers/agents';

/**
 * End to end in a real extension host: agent transcripts in HOME, edits on disk and through the
 * editor, commits from a terminal (git CLI) — the extension writes the notes by itself.
 */
describe('recording notes for commits', function () {
  this.timeout(90_000);
  let root: string;

  before(async () => {
    root = await readyRepository();
  });

  const commitAll = async (message: string): Promise<string> => commitIn(root, message);

  /** A setup commit, fully recorded before the scenario goes on. */
  async function setupCommit(message: string): Promise<void> {
    await recorded(root, commitIn(root, message));
  }

  it('sees a new Claude session, then appended prompts and edits within a second; ignores another project', async () => {
    const api = await agentNote();
    const other = new ClaudeSession(path.join(os.tmpdir(), 'some-other-project'));
    other.prompt('this belongs to another project');
    const s = new ClaudeSession(root);
    s.prompt('Start a notes file');
    await waitFor(
      () => api.sessions(root).find((x) => x.id === s.id && x.prompts.includes('Start a notes file')),
      10_000,
      'new claude session with its first prompt',
    );
    s.prompt('Create notes.md with a title');
    const t0 = Date.now();
    await waitFor(
      () => api.sessions(root).find((x) => x.id === s.id && x.prompts.includes('Create notes.md with a title')),
      5000,
      'claude prompt',
    );
    const dt = Date.now() - t0;
    assert.ok(dt <= 1000, `appended prompt seen after ${dt} ms`);
    assert.equal(
      api.sessions(root).find((x) => x.id === other.id),
      undefined,
      'other project ignored',
    );
    s.write('notes.md', '# Notes\n');
    const t1 = Date.now();
    await waitFor(() => api.sessions(root).find((x) => x.id === s.id && x.files.includes('notes.md')), 5000, 'claude edit');
    assert.ok(Date.now() - t1 <= 1000, `edit seen after ${Date.now() - t1} ms`);
    s.respond('Created notes.md.');
    const sha = await commitAll('docs: add notes.md');
    const note = await waitForNote(root, sha);
    assert.equal(note.agent, 'claude');
    assert.equal(note.model, 'claude-sonnet-4-5');
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    const prompts = note.interactions.map((i) => i.prompt);
    assert.equal(prompts[prompts.length - 1], 'Create notes.md with a title');
    assert.ok(
      prompts.every((p) => ['Start a notes file', 'Create notes.md with a title'].includes(p)),
      prompts.join(' | '),
    );
    assert.equal(note.interactions[prompts.length - 1].response, 'Created notes.md.');
  });

  it('Claude edit on disk followed by human lines typed in the editor gives a partial ratio and per-line ranges', async () => {
    fs.writeFileSync(path.join(root, 'calc.ts'), 'export const a = 1;\n');
    await setupCommit('chore: calc.ts');
    const s = new ClaudeSession(root);
    s.prompt('Add b and c constants to calc.ts');
    s.edit('calc.ts', 'export const a = 1;\n', 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n');
    s.respond('Added b and c.');
    const uri = vscode.Uri.file(path.join(root, 'calc.ts'));
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    await waitFor(() => (doc.getText().includes('export const c = 3;') ? true : undefined), 10_000, 'reload from disk');
    // the user types a line at the end
    const end = new vscode.Position(doc.lineCount - 1, 0);
    editor.selection = new vscode.Selection(end, end);
    await vscode.commands.executeCommand('type', { text: 'export const d = 4;\n' });
    await doc.save();
    const sha = await commitAll('feat: more constants');
    const note = await waitForNote(root, sha);
    assert.deepEqual(note.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } });
    const f = note.files.find((x) => x.path === 'calc.ts')!;
    assert.equal(f.by_ai, true);
    assert.deepEqual(f.ai_ranges, [{ start: 2, end: 3, interaction: 0 }]);
  });

  it('Cursor edit applied through the editor is attributed to Cursor', async () => {
    fs.writeFileSync(path.join(root, 'greet.ts'), 'export function greet(name: string) {\n  return name;\n}\n');
    await setupCommit('chore: greet.ts');
    const c = new CursorSession(root);
    c.prompt('Make greet say hello');
    const uri = vscode.Uri.file(path.join(root, 'greet.ts'));
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(1, 0, 1, doc.lineAt(1).text.length), '  return `hello ${name}`;');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await doc.save();
    // Cursor flushes its transcript a moment after applying the edit
    await new Promise((r) => setTimeout(r, 700));
    c.strReplace('greet.ts', '  return name;', '  return `hello ${name}`;');
    c.respond('greet now says hello.');
    await new Promise((r) => setTimeout(r, 1500));
    const sha = await commitAll('feat: greet says hello');
    const note = await waitForNote(root, sha);
    assert.equal(note.agent, 'cursor');
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 1 } });
    assert.equal(note.interactions[0].prompt, 'Make greet say hello');
  });

  it('a human-only commit gets no note', async () => {
    fs.writeFileSync(path.join(root, 'human.txt'), 'typed by a person\n');
    const sha = await commitAll('docs: human note');
    await recorded(root, sha);
    assert.equal(noteOf(root, sha), undefined);
  });

  it('split commits of one turn each get only their own files', async () => {
    const s = new ClaudeSession(root);
    s.prompt('Create one.ts and two.ts');
    s.write('one.ts', 'export const one = 1;\n');
    s.write('two.ts', 'export const two = 2;\n');
    await new Promise((r) => setTimeout(r, 1500));
    git(root, 'add', 'one.ts');
    git(root, 'commit', '-q', '-m', 'feat: one');
    const first = git(root, 'rev-parse', 'HEAD').trim();
    const n1 = await waitForNote(root, first);
    assert.deepEqual(
      n1.files.map((f) => f.path),
      ['one.ts'],
    );
    git(root, 'add', 'two.ts');
    git(root, 'commit', '-q', '-m', 'feat: two');
    const second = git(root, 'rev-parse', 'HEAD').trim();
    const n2 = await waitForNote(root, second);
    assert.deepEqual(
      n2.files.map((f) => f.path),
      ['two.ts'],
    );
    assert.deepEqual(n2.attribution.lines, { ai_added: 1, total_added: 1, deleted: 0 });
  });

  it('amend carries the note to the new commit and recomputes it', async () => {
    const s = new ClaudeSession(root);
    s.prompt('Create amend.ts');
    s.write('amend.ts', 'export const x = 1;\n');
    await new Promise((r) => setTimeout(r, 1500));
    const first = await commitAll('feat: amend.ts');
    await waitForNote(root, first);
    fs.appendFileSync(path.join(root, 'amend.ts'), 'export const y = 2;\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--amend', '--no-edit');
    const amended = git(root, 'rev-parse', 'HEAD').trim();
    assert.notEqual(amended, first);
    const note = await waitFor(
      async () => {
        const n = noteOf(root, amended) as { attribution?: { lines?: { total_added: number } } } | undefined;
        return n?.attribution?.lines?.total_added === 2 ? n : undefined;
      },
      20_000,
      'recomputed note on the amended commit',
    );
    assert.deepEqual((note as { attribution: unknown }).attribution, {
      ai_ratio: 50,
      method: 'line',
      lines: { ai_added: 1, total_added: 2, deleted: 0 },
    });
  });
});
