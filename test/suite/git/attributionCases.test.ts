import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { agentNote, readyRepository, recorded, waitFor } from '../helpers/host';
import { hoverText, lineVerdict } from '../helpers/editor';
import { ClaudeSession, CodexSession, CursorSession, commitAll as commitIn, git, noteOf, waitForNote } from '../helpers/agents';

/**
 * The attribution cases of issue #5 that recording.test.ts does not cover, each end to end in a
 * real extension host: agent transcripts in the (temp) HOME, edits on disk, through the editor or
 * by other processes, commits from a terminal (git CLI); the extension writes the notes by itself.
 * Every test sets up its own files with a fully recorded setup commit, so the tests are independent.
 * Expected numbers follow docs/note-format.md §3–4 and the node-level cases in
 * test/unit/recorder/repositoryRecorder.test.ts.
 */
describe('attribution cases (issue #5)', function () {
  this.timeout(120_000);
  let root: string;

  before(async () => {
    root = await readyRepository();
  });

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const abs = (rel: string) => path.join(root, rel);
  const write = (rel: string, content: string) => {
    fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
    fs.writeFileSync(abs(rel), content);
  };
  const commitAll = async (message: string): Promise<string> => commitIn(root, message);

  /** A setup commit, fully recorded before the scenario goes on. */
  async function setupCommit(files: Record<string, string>, message: string): Promise<string> {
    for (const [rel, content] of Object.entries(files)) write(rel, content);
    const sha = commitIn(root, message);
    await recorded(root, sha);
    return sha;
  }

  /** Until the session model has the agent's edit of `rel` (the transcript was read). */
  async function editSeen(sessionId: string, rel: string): Promise<void> {
    const api = await agentNote();
    await waitFor(() => api.sessions(root).find((x) => x.id === sessionId && x.files.includes(rel)), 10_000, `edit of ${rel} seen`);
  }

  it('a formatter run after an AI edit: the lines it rewrote are human, the untouched AI lines stay AI', async () => {
    await setupCommit({ 'fmt/greet.ts': 'export {};\n' }, 'chore: fmt/greet.ts');
    const s = new ClaudeSession(root);
    s.prompt('Add a greet function to fmt/greet.ts');
    s.edit('fmt/greet.ts', 'export {};\n', 'export {};\nexport const greet = (n: string) => {\n    return "hi " + n;\n};\n');
    s.respond('Added greet.');
    await editSeen(s.id, 'fmt/greet.ts');
    await sleep(1500);
    // prettier from a terminal: 2-space indent, single quotes — only line 3 changes
    write('fmt/greet.ts', "export {};\nexport const greet = (n: string) => {\n  return 'hi ' + n;\n};\n");
    await sleep(1500);
    const sha = await commitAll('feat: greet');
    const note = await waitForNote(root, sha);
    // §3.2: AI positions = diff(pre→committed) \ diff(post→committed). The formatter's rewrite of
    // line 3 makes it differ from the AI's post-edit text, so it is in diff3 and counts as human
    // (whitespace/quote-only changes are changes, §3.2 step 8); lines 2 and 4 are the AI's as
    // written. §3.4: ai_ratio = round(2 / 3 * 100) = 67. §4.1: the primary turn is the edit's.
    assert.deepEqual(note.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } });
    assert.deepEqual(note.files, [
      {
        path: 'fmt/greet.ts',
        by_ai: true,
        ai_ranges: [
          { start: 2, end: 2, interaction: 0 },
          { start: 4, end: 4, interaction: 0 },
        ],
      },
    ]);
    assert.deepEqual(
      note.interactions.map((i) => [i.prompt, i.response]),
      [['Add a greet function to fmt/greet.ts', 'Added greet.']],
    );
    assert.equal(note.agent, 'claude');
  });

  it('cross-turn commit: a new prompt typed before the commit; the commit still gets the previous turn’s work and prompt', async () => {
    await setupCommit({ 'cross/README.md': '# cross\n' }, 'chore: cross');
    const s = new ClaudeSession(root);
    s.prompt('Write the parser in cross/parse.ts');
    s.write('cross/parse.ts', 'export function parse(s: string) {\n  return s.split(",");\n}\n');
    s.respond('Wrote cross/parse.ts.');
    await editSeen(s.id, 'cross/parse.ts');
    await sleep(1000);
    // turn 2 starts before anything is committed
    s.prompt('thanks, now run the tests');
    const api = await agentNote();
    await waitFor(() => api.sessions(root).find((x) => x.id === s.id && x.prompts.length === 2), 10_000, 'turn 2');
    await sleep(1000);
    const sha = await commitAll('feat: parser');
    const note = await waitForNote(root, sha);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 3, total_added: 3, deleted: 0 } });
    assert.deepEqual(note.files, [{ path: 'cross/parse.ts', by_ai: true, ai_ranges: [{ start: 1, end: 3, interaction: 0 }] }]);
    // docs/note-format.md §4.1: the turn that wrote the lines is primary; the new prompt is the window's boundary (tail) row
    assert.deepEqual(
      note.interactions.map((i) => [i.prompt, i.response, (i as { selection?: { source: string } }).selection?.source]),
      [
        ['Write the parser in cross/parse.ts', 'Wrote cross/parse.ts.', 'primary'],
        ['thanks, now run the tests', null, 'tail'],
      ],
    );
  });

  it('rebase from a terminal: each rebased commit gets the note of its own diff; the hover follows the shifted AI line', async () => {
    const base = await setupCommit({ 'rebase/base.txt': 'base\n' }, 'chore: rebase base');
    // git copies the notes first (notes.rewriteRef, set up at start); the extension then recomputes them
    assert.ok(git(root, 'config', '--get-all', 'notes.rewriteRef').split('\n').includes('refs/notes/agentnote'));
    const s = new ClaudeSession(root);
    const shas: string[] = [];
    const steps: [string, string, string][] = [
      ['Create rebase/one.ts', 'rebase/one.ts', 'export const one = 1;\n'],
      ['Append a line to rebase/base.txt', 'rebase/base.txt', 'base\nai wrote this\n'],
    ];
    for (const [prompt, rel, content] of steps) {
      s.prompt(prompt);
      s.write(rel, content);
      await editSeen(s.id, rel);
      await sleep(1500);
      const sha = await commitAll(`feat: ${path.basename(rel)}`);
      await waitForNote(root, sha);
      await recorded(root, sha);
      shas.push(sha);
    }
    const before = shas.map((sha) => noteOf(root, sha) as { files: unknown; timestamp: string });
    assert.deepEqual(before[1].files, [{ path: 'rebase/base.txt', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] }]);
    // a new base commit next to ours that inserts two lines on top of base.txt (made with plumbing,
    // HEAD stays), then `git rebase` onto it from a terminal
    const index = path.join(os.tmpdir(), `an-rebase-index-${process.pid}`);
    const env = { ...process.env, GIT_INDEX_FILE: index };
    const run = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Ann Dev', '-c', 'user.email=ann@example.com', ...args], {
        cwd: root,
        env,
        encoding: 'utf8',
      }).trim();
    run('read-tree', base);
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
      cwd: root,
      input: 'upstream 1\nupstream 2\nbase\n',
      encoding: 'utf8',
    }).trim();
    run('update-index', '--cacheinfo', `100644,${blob},rebase/base.txt`);
    const newBase = run('commit-tree', run('write-tree'), '-p', base, '-m', 'chore: upstream change');
    fs.rmSync(index, { force: true });
    git(root, 'rebase', '-q', newBase);
    assert.equal(fs.readFileSync(abs('rebase/base.txt'), 'utf8'), 'upstream 1\nupstream 2\nbase\nai wrote this\n');
    const rebased = git(root, 'rev-list', '--reverse', `${newBase}..HEAD`).trim().split('\n');
    assert.equal(rebased.length, 2);
    assert.ok(
      rebased.every((sha) => !shas.includes(sha)),
      'commits rewritten',
    );
    type N = { attribution: unknown; files: unknown; timestamp: string; interactions: { prompt: string }[] };
    // recomputed (not git's copy): the note was recorded anew
    const after = await waitFor(
      () => {
        const ns = rebased.map((sha) => noteOf(root, sha) as N | undefined);
        return ns.every((n, i) => n && n.timestamp !== before[i].timestamp) ? (ns as N[]) : undefined;
      },
      20_000,
      'notes of the rebased commits recomputed',
    );
    assert.deepEqual(after[0].files, [{ path: 'rebase/one.ts', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 0 }] }]);
    assert.deepEqual(after[1].files, [{ path: 'rebase/base.txt', by_ai: true, ai_ranges: [{ start: 4, end: 4, interaction: 0 }] }]);
    for (const [i, n] of after.entries()) {
      assert.deepEqual(n.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
      assert.equal(n.interactions[0].prompt, steps[i][0]);
    }
    assert.equal(noteOf(root, newBase), undefined, 'the new base commit (not ours) gets no note');
    // the hover: the AI line moved from 2 to 4 and keeps its prompt; the upstream lines are nobody's claim
    const doc = await vscode.workspace.openTextDocument(abs('rebase/base.txt'));
    await vscode.window.showTextDocument(doc);
    const hover = await lineVerdict(abs('rebase/base.txt'), 4);
    assert.match(hover, /written by the AI/);
    assert.match(hover, /Append a line to rebase\/base\.txt/);
    assert.match(hover, /100%/);
    assert.doesNotMatch(await hoverText(abs('rebase/base.txt'), 2), /written by the AI/);
  });

  it('hosting squash merge: after a pull, the squash commit gets a derived note and the hover shows the prompt and its source', async () => {
    const branch = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
    const remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'an-hosting-'));
    const bare = path.join(remoteDir, 'remote.git');
    git(remoteDir, 'init', '-q', '--bare', `--initial-branch=${branch}`, bare);
    git(root, 'remote', 'add', 'hosting', bare);
    try {
      await setupCommit({ 'derived/total.ts': '// totals\n' }, 'chore: derived/total.ts');
      git(root, 'push', '-q', 'hosting', branch);
      // the feature branch: the AI writes total(), then the person changes one of its lines
      git(root, 'checkout', '-q', '-b', 'feature-derive');
      const s = new ClaudeSession(root);
      s.prompt('Add a total() to derived/total.ts');
      const ai = [
        '// totals',
        'export function total(xs: number[]): number {',
        '  let sum = 0;',
        '  for (const x of xs) sum += x;',
        '  return sum;',
        '}',
      ];
      s.write('derived/total.ts', `${ai.join('\n')}\n`);
      await editSeen(s.id, 'derived/total.ts');
      await sleep(1500);
      const aiCommit = await commitAll('feat: total');
      const aiNote = await waitForNote(root, aiCommit);
      assert.deepEqual(aiNote.files, [{ path: 'derived/total.ts', by_ai: true, ai_ranges: [{ start: 2, end: 6, interaction: 0 }] }]);
      await recorded(root, aiCommit);
      const fixed = [...ai];
      fixed[3] = '  for (const x of xs) sum += Math.abs(x);';
      write('derived/total.ts', `${fixed.join('\n')}\n`);
      const fix = await commitAll('fix: absolute values');
      await recorded(root, fix);
      git(root, 'push', '-q', 'hosting', 'feature-derive', 'refs/notes/agentnote');
      git(root, 'checkout', '-q', branch);
      // the hosting service: "Squash and merge" with its own message and committer, then the branch is deleted
      const server = path.join(remoteDir, 'server');
      git(remoteDir, 'clone', '-q', bare, server);
      git(server, 'merge', '--squash', 'origin/feature-derive');
      execFileSync('git', ['commit', '-q', '-m', 'Add totals (#7)'], {
        cwd: server,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'Ann Dev',
          GIT_AUTHOR_EMAIL: 'ann@example.com',
          GIT_COMMITTER_NAME: 'GitHub',
          GIT_COMMITTER_EMAIL: 'noreply@github.com',
        },
      });
      const squash = git(server, 'rev-parse', 'HEAD').trim();
      git(server, 'push', '-q', 'origin', branch);
      git(server, 'push', '-q', 'origin', '--delete', 'feature-derive');
      // the person pulls from a terminal
      git(root, 'pull', '-q', '--ff-only', 'hosting', branch);
      assert.equal(git(root, 'rev-parse', 'HEAD').trim(), squash);
      const derived = await waitForNote(root, squash, 20_000);
      assert.deepEqual(derived.derived_from, [aiCommit]);
      // lines 2–6 are the AI's, line 4 is the person's fix
      assert.deepEqual(derived.files, [
        {
          path: 'derived/total.ts',
          by_ai: true,
          ai_ranges: [
            { start: 2, end: 3, interaction: 0 },
            { start: 5, end: 6, interaction: 0 },
          ],
        },
      ]);
      assert.deepEqual(derived.attribution, { ai_ratio: 80, method: 'line', lines: { ai_added: 4, total_added: 5, deleted: 0 } });
      const doc = await vscode.workspace.openTextDocument(abs('derived/total.ts'));
      await vscode.window.showTextDocument(doc);
      const hover = await lineVerdict(abs('derived/total.ts'), 2);
      assert.match(hover, /written by the AI/);
      // (the hover escapes Markdown: `\(`)
      assert.match(hover.replace(/\\/g, ''), /Add a total\(\) to derived\/total\.ts/);
      assert.match(hover, /80%/);
      assert.match(hover, /derived from 1 commit/);
      assert.match(await lineVerdict(abs('derived/total.ts'), 4), /written by a person/);
    } finally {
      git(root, 'remote', 'remove', 'hosting');
      // the extension may still be writing to the remote (a sharing push): retried, never the test's error
      try {
        fs.rmSync(remoteDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch {
        // left in the temp dir
      }
    }
  });

  it('generated files and .agentnoteignore: listed with their flags, kept out of the counts', async () => {
    // `dist/`: a directory pattern without an inner slash matches at any depth (docs/note-format.md §3.7); `dist/**`
    // would be anchored at the repository root
    await setupCommit({ '.agentnoteignore': '# build output\ndist/\n', 'gen/README.md': '# gen\n' }, 'chore: gen');
    const s = new ClaudeSession(root);
    s.prompt('Add the app, its generated types, the schema and a build');
    s.write('gen/src/app.ts', 'export const app = 1;\nexport const run = () => app;\n');
    // docs/note-format.md §3.6: generated by path (*.gen.ts) and by content header ("Code generated … DO NOT EDIT")
    s.write('gen/src/types.gen.ts', 'export type A = 1;\nexport type B = 2;\n');
    s.write('gen/src/schema.ts', '// Code generated by sqlc. DO NOT EDIT.\nexport const schema = {};\n');
    // docs/note-format.md §3.7: .agentnoteignore (dist/ is not generated by path; the ignore file excludes it)
    s.write('gen/dist/bundle.js', 'var a=1;\nvar b=2;\nvar c=3;\n');
    s.respond('Added app, types, schema and bundle.');
    await editSeen(s.id, 'gen/dist/bundle.js');
    await sleep(1000);
    // a human line in another file of the same commit
    write('gen/README.md', '# gen\nrun `npm start`\n');
    await sleep(1500);
    const sha = await commitAll('build: app');
    const note = await waitForNote(root, sha);
    assert.deepEqual(note.files, [
      { path: 'gen/README.md', by_ai: false },
      { path: 'gen/dist/bundle.js', by_ai: true, ai_ratio_excluded: true },
      { path: 'gen/src/app.ts', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] },
      { path: 'gen/src/schema.ts', by_ai: true, generated: true },
      { path: 'gen/src/types.gen.ts', by_ai: true, generated: true },
    ]);
    // counted: app.ts (2 AI) + README.md (1 human) ⇒ round(2 / 3 * 100) = 67
    assert.deepEqual(note.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } });
  });

  it('two agents in one commit (Claude on disk, Cursor through the editor): one note, both interactions, agent of most AI lines', async () => {
    await setupCommit({ 'duo/hello.ts': "export const hello = 'hi';\nexport const who = 'world';\n" }, 'chore: duo');
    const claude = new ClaudeSession(root);
    const cursor = new CursorSession(root);
    claude.prompt('Create duo/math.ts with add, sub and mul');
    await sleep(300);
    cursor.prompt('Say hello to everyone in duo/hello.ts');
    claude.write(
      'duo/math.ts',
      'export const add = (a: number, b: number) => a + b;\nexport const sub = (a: number, b: number) => a - b;\nexport const mul = (a: number, b: number) => a * b;\n',
    );
    claude.respond('Created duo/math.ts.');
    const uri = vscode.Uri.file(abs('duo/hello.ts'));
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(1, 0, 1, doc.lineAt(1).text.length), "export const who = 'everyone';");
    assert.ok(await vscode.workspace.applyEdit(edit));
    await doc.save();
    await sleep(700);
    cursor.strReplace('duo/hello.ts', "export const who = 'world';", "export const who = 'everyone';");
    cursor.respond('hello.ts now greets everyone.');
    await editSeen(claude.id, 'duo/math.ts');
    await editSeen(cursor.id, 'duo/hello.ts');
    await sleep(1500);
    const sha = await commitAll('feat: math and hello');
    const note = (await waitForNote(root, sha)) as Awaited<ReturnType<typeof waitForNote>> & { session_id: string; model: string };
    // one note: agent / session / model of the agent with the most AI lines (Claude 3, Cursor 1)
    assert.equal(note.agent, 'claude');
    assert.equal(note.session_id, claude.id);
    assert.equal(note.model, 'claude-sonnet-4-5');
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 4, total_added: 4, deleted: 1 } });
    const byPrompt = new Map(note.interactions.map((i, index) => [i.prompt, index]));
    assert.deepEqual([...byPrompt.keys()].sort(), ['Create duo/math.ts with add, sub and mul', 'Say hello to everyone in duo/hello.ts']);
    const mathIx = byPrompt.get('Create duo/math.ts with add, sub and mul')!;
    const helloIx = byPrompt.get('Say hello to everyone in duo/hello.ts')!;
    assert.equal(note.interactions[mathIx].response, 'Created duo/math.ts.');
    assert.equal(note.interactions[helloIx].response, 'hello.ts now greets everyone.');
    assert.deepEqual(note.files, [
      { path: 'duo/hello.ts', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: helloIx }] },
      { path: 'duo/math.ts', by_ai: true, ai_ranges: [{ start: 1, end: 3, interaction: mathIx }] },
    ]);
  });

  it('CRLF file (stored with CRLF) edited by the AI on disk', async () => {
    await setupCommit({ 'crlf/notes.txt': 'one\r\ntwo\r\n' }, 'chore: crlf notes');
    const s = new ClaudeSession(root);
    s.prompt('Append three to crlf/notes.txt');
    // the model's strings use LF; Claude Code keeps the file's CRLF on disk
    s.edit('crlf/notes.txt', 'two\n', 'two\nthree\n', { diskEol: '\r\n' });
    s.respond('Appended three.');
    await editSeen(s.id, 'crlf/notes.txt');
    await sleep(1500);
    assert.equal(fs.readFileSync(abs('crlf/notes.txt'), 'utf8'), 'one\r\ntwo\r\nthree\r\n');
    const sha = await commitAll('docs: three');
    const note = await waitForNote(root, sha);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    assert.deepEqual(note.files, [{ path: 'crlf/notes.txt', by_ai: true, ai_ranges: [{ start: 3, end: 3, interaction: 0 }] }]);
    assert.deepEqual(
      note.interactions.map((i) => i.prompt),
      ['Append three to crlf/notes.txt'],
    );
  });

  it('CRLF working tree stored LF (.gitattributes eol=crlf) edited by the AI on disk', async () => {
    await setupCommit({ 'eol/.gitattributes': '*.txt text eol=crlf\n', 'eol/list.txt': 'one\ntwo\n' }, 'chore: eol list');
    // the attribute converts the checkout: the working file has CRLF, the blob LF
    fs.rmSync(abs('eol/list.txt'));
    git(root, 'checkout', '--', 'eol/list.txt');
    assert.equal(fs.readFileSync(abs('eol/list.txt'), 'utf8'), 'one\r\ntwo\r\n');
    await sleep(1500);
    const s = new ClaudeSession(root);
    s.prompt('Append three to eol/list.txt');
    s.edit('eol/list.txt', 'two\n', 'two\nthree\n', { diskEol: '\r\n' });
    s.respond('Appended three.');
    await editSeen(s.id, 'eol/list.txt');
    await sleep(1500);
    const sha = await commitAll('docs: three (eol)');
    const note = await waitForNote(root, sha);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    assert.deepEqual(note.files, [{ path: 'eol/list.txt', by_ai: true, ai_ranges: [{ start: 3, end: 3, interaction: 0 }] }]);
  });

  it('a file renamed by the AI (Codex apply_patch with Move to) and committed', async () => {
    await setupCommit({ 'mv/old.ts': 'export const x = 1;\nexport const y = 2;\n' }, 'chore: mv/old.ts');
    const codex = new CodexSession(root);
    codex.prompt('Rename mv/old.ts to mv/new.ts and set x to 3');
    codex.movePatch('mv/old.ts', 'mv/new.ts', 'export const x = 3;\nexport const y = 2;\n');
    codex.respond('Renamed to mv/new.ts and set x to 3.');
    await editSeen(codex.id, 'mv/new.ts');
    await sleep(1500);
    const sha = await commitAll('refactor: rename old.ts');
    const note = await waitForNote(root, sha);
    assert.equal(note.agent, 'codex');
    // docs/note-format.md §1.5: no rename detection — delete + add; the new file's lines are the AI's (both were
    // written by the patch), the old file's deletion counts in `deleted`
    assert.deepEqual(note.files, [
      { path: 'mv/new.ts', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] },
      { path: 'mv/old.ts', by_ai: true },
    ]);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 2 } });
    assert.deepEqual(
      note.interactions.map((i) => [i.prompt, i.response]),
      [['Rename mv/old.ts to mv/new.ts and set x to 3', 'Renamed to mv/new.ts and set x to 3.']],
    );
  });

  it('recording is idempotent: recording the same HEAD again keeps the note and the notes ref as they are', async () => {
    await setupCommit({ 'idem/app.ts': 'a\n' }, 'chore: idem');
    const api = await agentNote();
    const s = new ClaudeSession(root);
    s.prompt('Add b to idem/app.ts');
    s.edit('idem/app.ts', 'a\n', 'a\nb\n');
    await editSeen(s.id, 'idem/app.ts');
    await sleep(1500);
    const sha = await commitAll('feat: b');
    await waitForNote(root, sha);
    await recorded(root, sha);
    const text = git(root, 'notes', '--ref=agentnote', 'show', sha);
    const ref = git(root, 'rev-parse', 'refs/notes/agentnote').trim();
    assert.equal(await api.recordCommit(root, sha), 'exists');
    assert.equal(await api.recordCommit(root), 'exists', 'HEAD');
    assert.equal(git(root, 'notes', '--ref=agentnote', 'show', sha), text, 'same note bytes');
    assert.equal(git(root, 'rev-parse', 'refs/notes/agentnote').trim(), ref, 'no notes commit added');
    assert.deepEqual((JSON.parse(text) as { attribution: unknown }).attribution, {
      ai_ratio: 100,
      method: 'line',
      lines: { ai_added: 1, total_added: 1, deleted: 0 },
    });
  });

  it('an AI edit reverted before any commit does not turn a later human-only commit of that file into a note', async () => {
    await setupCommit({ 'rev/todo.md': '# todo\n' }, 'chore: rev');
    const api = await agentNote();
    const s = new ClaudeSession(root);
    s.prompt('Add a first item to rev/todo.md');
    s.edit('rev/todo.md', '# todo\n', '# todo\n- buy milk\n');
    s.respond('Added an item.');
    await editSeen(s.id, 'rev/todo.md');
    await sleep(1500);
    // the user throws the AI's change away from a terminal
    git(root, 'checkout', '--', 'rev/todo.md');
    await sleep(1500);
    // and types their own line in the editor
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs('rev/todo.md')));
    assert.equal(doc.getText(), '# todo\n');
    const editor = await vscode.window.showTextDocument(doc);
    const end = new vscode.Position(doc.lineCount - 1, 0);
    editor.selection = new vscode.Selection(end, end);
    await vscode.commands.executeCommand('type', { text: '- call mum\n' });
    await doc.save();
    await sleep(1500);
    const sha = await commitAll('docs: todo');
    await recorded(root, sha);
    assert.equal(noteOf(root, sha), undefined, 'human-only commit: no note');
    assert.equal(await api.recordCommit(root, sha), 'human-only');
    assert.equal(noteOf(root, sha), undefined);
  });
});
