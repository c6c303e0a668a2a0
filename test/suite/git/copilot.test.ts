import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, readyRepository, recorded, waitFor } from '../helpers/host';
import { commitAll, noteOf, waitForNote } from '../helpers/agents';
import { agentReplaceLines, showFile, sleep, typeAt } from '../helpers/editor';
import { CopilotSession } from '../helpers/copilot';

/**
 * GitHub Copilot Chat, agent mode, end to end in a real editor host (issue #19): the test writes the
 * chat session file into this window's `workspaceStorage/<id>/chatSessions/` (the parent of the
 * extension's storage folder, from the extension's API) the way VS Code does, applies Copilot's edit
 * the way Copilot does (a WorkspaceEdit through the editor), commits from a terminal and reads the
 * note.
 */
describe('GitHub Copilot Chat (agent mode)', function () {
  this.timeout(90_000);
  let root: string;
  let chatSessions: string;

  before(async () => {
    root = await readyRepository();
    const ws = (await agentNote()).editorStorage().workspaceStorageDir;
    assert.ok(ws, 'this window has a workspace storage folder');
    chatSessions = path.join(ws, 'chatSessions');
  });

  const copilotSession = async (id: string, what: (s: { prompts: string[]; files: string[] }) => boolean, label: string) => {
    const api = await agentNote();
    return waitFor(() => api.sessions(root).find((x) => x.agent === 'copilot' && x.id === id && what(x)), 15_000, label);
  };

  it('a replace_string_in_file edit applied through the editor (1.109 .jsonl log) is Copilot’s, with its prompt and line ranges', async () => {
    const abs = path.join(root, 'totals.ts');
    fs.writeFileSync(abs, 'export const a = 1;\nexport const b = 2;\n');
    await recorded(root, commitAll(root, 'chore: totals.ts'));
    const s = new CopilotSession(chatSessions, 'jsonl');
    s.prompt('Set b to 3 and add c');
    await copilotSession(s.id, (x) => x.prompts.includes('Set b to 3 and add c'), 'the Copilot session and its prompt');
    // Copilot applies its edit to the document, then VS Code writes the tool call into the log
    const editor = await showFile(abs);
    await agentReplaceLines(editor.document, 1, 1, ['export const b = 3;', 'export const c = 4;']);
    await sleep(300);
    s.finish(
      [
        { name: 'read_file', args: { filePath: abs, startLine: 1, endLine: 2 } },
        {
          name: 'replace_string_in_file',
          args: { filePath: abs, oldString: 'export const b = 2;', newString: 'export const b = 3;\nexport const c = 4;' },
        },
      ],
      'b is 3 now, and c is 4.',
    );
    await copilotSession(s.id, (x) => x.files.includes('totals.ts'), 'the Copilot edit');
    const sha = commitAll(root, 'feat: b and c');
    const note = await waitForNote(root, sha);
    assert.equal(note.agent, 'copilot');
    assert.equal(note.model, 'gpt-4.1');
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 1 } });
    const prompts = note.interactions.map((i) => i.prompt);
    assert.deepEqual(prompts, ['Set b to 3 and add c']);
    assert.equal(note.interactions[0].response, 'b is 3 now, and c is 4.');
    const f = note.files.find((x) => x.path === 'totals.ts');
    assert.ok(f, 'totals.ts in the note');
    assert.equal(f.by_ai, true);
    assert.deepEqual(f.ai_ranges, [{ start: 2, end: 3, interaction: 0 }]);
  });

  it('an edit the person undoes before committing (.json session of VS Code < 1.109) is not AI: no note for the person’s commit', async () => {
    const abs = path.join(root, 'undone.ts');
    fs.writeFileSync(abs, 'export const x = 1;\n');
    await recorded(root, commitAll(root, 'chore: undone.ts'));
    const s = new CopilotSession(chatSessions, 'json');
    s.prompt('Rename x to total');
    await copilotSession(s.id, (x) => x.prompts.includes('Rename x to total'), 'the Copilot session and its prompt');
    const editor = await showFile(abs);
    await agentReplaceLines(editor.document, 0, 0, ['export const total = 1;']);
    await sleep(300);
    s.finish(
      [{ name: 'replace_string_in_file', args: { filePath: abs, oldString: 'export const x = 1;', newString: 'export const total = 1;' } }],
      'Renamed x to total.',
    );
    await copilotSession(s.id, (x) => x.files.includes('undone.ts'), 'the Copilot edit');
    // the person undoes Copilot's edit in the editor, then writes a line of their own
    await vscode.window.showTextDocument(editor.document, { preview: false, preserveFocus: false });
    await vscode.commands.executeCommand('undo');
    await waitFor(() => (editor.document.getText() === 'export const x = 1;\n' ? true : undefined), 5000, 'undo applied');
    await typeAt(editor, 1, 0, 'export const y = 2;\n');
    assert.ok(await editor.document.save());
    const sha = commitAll(root, 'feat: y');
    await recorded(root, sha);
    // a human-only commit gets no note (looked at again while a session is active: wait for that too)
    await sleep(3500);
    await (await agentNote()).idle();
    assert.equal(noteOf(root, sha), undefined, 'no AI claim for an undone Copilot edit');
  });
});
