import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, readyRepository, recorded, waitFor } from '../helpers/host';
import { AiderHistory, ClineTask, commitAll as commitIn, waitForNote } from '../helpers/agents';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Cline (a task folder in the editor's own `globalStorage`, its edit applied through the editor as
 * its diff view does) and Aider (its chat history in the repository, its edit written on disk), end
 * to end in a real extension host: the commit gets a note with the right agent, prompt and lines.
 */
describe('editor and repository agents: Cline and Aider', function () {
  this.timeout(90_000);
  let root: string;
  let userDir: string;

  before(async () => {
    root = await readyRepository();
    const api = await agentNote();
    userDir = api.editorStorage().userDir!;
    // the folder the extension read from its context is the editor's real `<User>` folder
    assert.ok(fs.existsSync(path.join(userDir, 'settings.json')), `${userDir} is the editor's User folder`);
    fs.appendFileSync(path.join(root, '.gitignore'), '.aider*\n');
  });

  const abs = (rel: string) => path.join(root, rel);

  async function setupCommit(files: Record<string, string>, message: string): Promise<void> {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
      fs.writeFileSync(abs(rel), text);
    }
    await recorded(root, commitIn(root, message));
  }

  async function editSeen(agent: string, id: string | undefined, file: string): Promise<void> {
    const api = await agentNote();
    await waitFor(
      () => api.sessions(root).find((s) => s.agent === agent && (id === undefined || s.id === id) && s.files.includes(file)),
      15_000,
      `${agent} edit of ${file}`,
    );
  }

  /** Applies a replacement through the editor and saves, as Cline's diff view does. */
  async function editorReplace(rel: string, line: number, text: string): Promise<string> {
    const uri = vscode.Uri.file(abs(rel));
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(line, 0, line, doc.lineAt(line).text.length), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await doc.save();
    return doc.getText();
  }

  it('a Cline task in globalStorage with a replace_in_file applied through the editor gives a note for cline with its prompt and lines', async () => {
    await setupCommit({ 'cline/greet.ts': 'export function greet(name: string) {\n  return name;\n}\n' }, 'chore: greet.ts');
    const api = await agentNote();
    const task = new ClineTask(root, userDir);
    task.task('Make greet say hello');
    await waitFor(
      () => api.sessions(root).find((s) => s.agent === 'cline' && s.id === task.id && s.prompts.includes('Make greet say hello')),
      40_000,
      'cline task',
    );
    const saved = await editorReplace('cline/greet.ts', 1, '  return `hello ${name}`;');
    await sleep(300);
    task.replaceInFile('cline/greet.ts', '  return name;\n', '  return `hello ${name}`;\n', saved);
    task.complete('greet now says hello.');
    await editSeen('cline', task.id, 'cline/greet.ts');
    await sleep(1500);
    const sha = commitIn(root, 'feat: greet says hello');
    const note = (await waitForNote(root, sha)) as Awaited<ReturnType<typeof waitForNote>> & { session_id: string; model: string };
    assert.equal(note.agent, 'cline');
    assert.equal(note.session_id, task.id);
    assert.equal(note.model, 'claude-sonnet-4-5-20250929');
    assert.equal(note.interactions[0].prompt, 'Make greet say hello');
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 1 } });
    assert.deepEqual(note.files, [{ path: 'cline/greet.ts', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] }]);
  });

  it('an Aider history in the repository with a SEARCH/REPLACE block written on disk gives a note for aider with line ranges', async () => {
    await setupCommit({ 'aider/calc.py': 'def add(a, b):\n    return a + b\n' }, 'chore: calc.py');
    const history = new AiderHistory(root);
    history.prompt('Add a sub function to aider/calc.py');
    history.searchReplace('aider/calc.py', '    return a + b\n', '    return a + b\n\n\ndef sub(a, b):\n    return a - b\n');
    await editSeen('aider', undefined, 'aider/calc.py');
    await sleep(1500);
    const sha = commitIn(root, 'feat: sub');
    const note = await waitForNote(root, sha);
    assert.equal(note.agent, 'aider');
    assert.equal(note.interactions[note.interactions.length - 1].prompt, 'Add a sub function to aider/calc.py');
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 4, total_added: 4, deleted: 0 } });
    assert.deepEqual(note.files, [
      { path: 'aider/calc.py', by_ai: true, ai_ranges: [{ start: 3, end: 6, interaction: note.interactions.length - 1 }] },
    ]);
  });

  it('one commit with a Cline edit through the editor and an Aider edit on disk: both interactions, each file its agent’s lines', async () => {
    await setupCommit({ 'duo2/hello.ts': "export const who = 'world';\n", 'duo2/util.py': 'X = 1\n' }, 'chore: duo2');
    const task = new ClineTask(root, userDir);
    task.task('Greet everyone in duo2/hello.ts');
    const history = new AiderHistory(root);
    history.prompt('Add Y and Z to duo2/util.py');
    const saved = await editorReplace('duo2/hello.ts', 0, "export const who = 'everyone';");
    await sleep(300);
    task.replaceInFile('duo2/hello.ts', "export const who = 'world';\n", "export const who = 'everyone';\n", saved);
    history.searchReplace('duo2/util.py', 'X = 1\n', 'X = 1\nY = 2\nZ = 3\n');
    await editSeen('cline', task.id, 'duo2/hello.ts');
    await editSeen('aider', undefined, 'duo2/util.py');
    await sleep(1500);
    const sha = commitIn(root, 'feat: duo2');
    const note = await waitForNote(root, sha);
    // the agent of most AI lines names the note (Aider 2, Cline 1); both prompts are interactions
    assert.equal(note.agent, 'aider');
    const byPrompt = new Map(note.interactions.map((i, index) => [i.prompt, index]));
    const helloIx = byPrompt.get('Greet everyone in duo2/hello.ts');
    const utilIx = byPrompt.get('Add Y and Z to duo2/util.py');
    assert.ok(helloIx !== undefined && utilIx !== undefined, [...byPrompt.keys()].join(' | '));
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 3, total_added: 3, deleted: 1 } });
    assert.deepEqual(note.files, [
      { path: 'duo2/hello.ts', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: helloIx }] },
      { path: 'duo2/util.py', by_ai: true, ai_ranges: [{ start: 2, end: 3, interaction: utilIx }] },
    ]);
  });
});

/**
 * Roo Code: a task folder in the editor's `globalStorage/rooveterinaryinc.roo-cline/tasks/` with
 * native tool calls and `tool_result` blocks, its `apply_diff` applied through the editor. (Its
 * `roo-cline.customStoragePath` is covered by unit tests: a setting no installed extension declares
 * cannot be written through the API, and code-server does not pick up a settings file edited
 * behind its back.)
 */
describe('editor agents: Roo Code', function () {
  this.timeout(120_000);
  let root: string;

  before(async () => {
    root = await readyRepository();
  });

  it('reads a Roo task from globalStorage and notes its apply_diff edit made through the editor', async () => {
    const api = await agentNote();
    const userDir = api.editorStorage().userDir!;
    const store = path.join(userDir, 'globalStorage', 'rooveterinaryinc.roo-cline');
    const rel = 'roo/list.ts';
    fs.mkdirSync(path.join(root, 'roo'), { recursive: true });
    fs.writeFileSync(path.join(root, rel), 'export const items = [1, 2];\n');
    await recorded(root, commitIn(root, 'chore: roo list'));
    const id = '6f1c0a4e-0000-4000-8000-' + String(Date.now()).slice(-12);
    const dir = path.join(store, 'tasks', id);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'api_conversation_history.json');
    const env = `<environment_details>\n# Current Time\n${new Date().toISOString()}\n\n# Current Workspace Directory (${root}) Files\nroo/list.ts\n</environment_details>`;
    const msgs: unknown[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<task>\nAdd 3 to the items\n</task>' },
          { type: 'text', text: env },
        ],
        ts: Date.now(),
      },
    ];
    fs.writeFileSync(file, JSON.stringify(msgs));
    await waitFor(() => api.sessions(root).find((s) => s.agent === 'roo' && s.id === id), 60_000, 'roo task');
    const uri = vscode.Uri.file(path.join(root, rel));
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, 0, doc.lineAt(0).text.length), 'export const items = [1, 2, 3];');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await doc.save();
    await sleep(300);
    msgs.push({
      role: 'assistant',
      ts: Date.now(),
      content: [
        { type: 'text', text: 'Adding 3.' },
        {
          type: 'tool_use',
          id: 'call_roo_1',
          name: 'apply_diff',
          input: {
            path: rel,
            diff: '<<<<<<< SEARCH\n:start_line:1\n-------\nexport const items = [1, 2];\n=======\nexport const items = [1, 2, 3];\n>>>>>>> REPLACE',
          },
        },
      ],
    });
    msgs.push({
      role: 'user',
      ts: Date.now(),
      content: [
        { type: 'tool_result', tool_use_id: 'call_roo_1', content: [{ type: 'text', text: `{"path":"${rel}","operation":"modified"}` }] },
      ],
    });
    fs.writeFileSync(file, JSON.stringify(msgs));
    await waitFor(() => api.sessions(root).find((s) => s.agent === 'roo' && s.id === id && s.files.includes(rel)), 15_000, 'roo edit');
    await sleep(1500);
    const sha = commitIn(root, 'feat: three items');
    const note = await waitForNote(root, sha);
    assert.equal(note.agent, 'roo');
    assert.equal(note.interactions[0].prompt, 'Add 3 to the items');
    assert.deepEqual(note.files, [{ path: rel, by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 0 }] }]);
  });
});
