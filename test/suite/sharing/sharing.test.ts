import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentNote, readyRepository, waitFor } from '../helpers/host';

/**
 * Issue #14 parts 1 and 2 in a real editor host: a workspace cloned from a bare remote on disk
 * (scripts/integration-scenarios.mjs, `sharing`), a second clone next to it, git run as from a
 * terminal. Open, checkout, pull and fetch never push; a push shares only the notes of what it put
 * on the remote; notes another clone pushed show in the hover after a fetch; fetch and pull exit 0.
 */

const base = () => {
  const b = process.env.VSH_FIXTURE_BASE;
  assert.ok(b, 'VSH_FIXTURE_BASE is set by the integration runner');
  return b;
};
const remoteDir = () => path.join(base(), 'remote.git');
const otherDir = () => path.join(base(), 'other');
const token = 'LOCAL-ONLY-TOKEN-5c1e';

/** git as from a terminal (its own process; the extension host is not blocked meanwhile). */
function run(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'user.name=Bo Dev', '-c', 'user.email=bo@example.com', '-c', 'commit.gpgsign=false', ...args],
      { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}
async function git(cwd: string, ...args: string[]): Promise<string> {
  const r = await run(cwd, ...args);
  assert.equal(r.code, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Notes on the remote: `<commit> <first prompt>` lines. */
async function remoteNotes(): Promise<string[]> {
  if ((await run(remoteDir(), 'rev-parse', '-q', '--verify', 'refs/notes/agentnote')).code !== 0) return [];
  const out: string[] = [];
  for (const line of (await git(remoteDir(), 'notes', '--ref=agentnote', 'list')).trim().split('\n').filter(Boolean)) {
    const [blob, commit] = line.split(' ');
    const n = JSON.parse(await git(remoteDir(), 'cat-file', 'blob', blob)) as { interactions: { prompt: string }[] };
    out.push(`${commit} ${n.interactions[0]?.prompt}`);
  }
  return out.sort();
}

/** Objects of every ref of the remote whose content contains the token. */
async function remoteObjectsWith(t: string): Promise<number> {
  const ids = (await git(remoteDir(), 'rev-list', '--objects', '--all'))
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter(Boolean);
  let hits = 0;
  for (const id of ids) if ((await git(remoteDir(), 'cat-file', '-p', id)).includes(t)) hits++;
  return hits;
}

async function hoverText(file: string, line: number): Promise<string> {
  const uri = vscode.Uri.file(path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, file));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line - 1, 1))) ?? [];
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))
    .join('\n');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('notes sharing through a bare remote (in the editor host)', function () {
  this.timeout(180_000);
  let root: string;

  before(async () => {
    root = await readyRepository();
    const api = await agentNote();
    await waitFor(() => api.sharing(root), 30_000, 'sharing started');
  });

  it('on open, the old forced refspec is replaced by the glob into a tracking ref; fetch and pull exit 0 without remote notes', async () => {
    const specs = await waitFor(
      async () => {
        const v = (await git(root, 'config', '--get-all', 'remote.origin.fetch')).trim().split('\n');
        return v.includes('+refs/notes/agentnote*:refs/notes/remotes/origin/agentnote*') ? v : undefined;
      },
      20_000,
      'refspec migrated',
    );
    assert.deepEqual(specs, ['+refs/heads/*:refs/remotes/origin/*', '+refs/notes/agentnote*:refs/notes/remotes/origin/agentnote*']);
    for (const args of [['fetch'], ['pull', '--no-rebase', '--no-edit'], ['fetch', '--prune', 'origin']]) {
      const r = await run(root, ...args);
      assert.equal(r.code, 0, `git ${args.join(' ')} exits 0: ${r.stderr}`);
    }
    // the editor's own fetch too
    await vscode.commands.executeCommand('git.fetch');
  });

  it('open, checkout and pull push nothing', async () => {
    await sleep(1500);
    assert.deepEqual(await remoteNotes(), [], 'nothing after open');
    await git(root, 'checkout', '-q', 'local-only');
    await sleep(1000);
    await git(root, 'checkout', '-q', 'main');
    // the other clone moves main on the remote; the workspace pulls it (a merge: main was ahead)
    fs.writeFileSync(path.join(otherDir(), 'other.txt'), 'from the other clone\n');
    await git(otherDir(), 'add', 'other.txt');
    await git(otherDir(), 'commit', '-q', '-m', 'other clone work');
    await git(otherDir(), 'push', '-q', 'origin', 'main');
    await git(root, 'pull', '-q', '--no-rebase', '--no-edit');
    await git(root, 'fetch', '-q');
    await sleep(2500);
    const api = await agentNote();
    const s = await api.sharing(root);
    assert.equal(s?.stats.shares, 0, 'no share started');
    assert.deepEqual(await remoteNotes(), [], 'nothing after checkout, pull and fetch');
    assert.equal(await remoteObjectsWith(token), 0);
  });

  it("a terminal `git push` of main brings only main's notes to the remote, within seconds", async () => {
    const mainNoted = (await git(root, 'rev-parse', 'main~1')).trim(); // "delta", below the merge commit
    const t0 = Date.now();
    await git(root, 'push', '-q', 'origin', 'main');
    const notes = await waitFor(async () => ((await remoteNotes()).length ? remoteNotes() : undefined), 15_000, 'notes on the remote');
    assert.ok(Date.now() - t0 < 15_000);
    assert.deepEqual(notes, [`${mainNoted} MAIN-BRANCH-PROMPT add delta`]);
    assert.equal(await remoteObjectsWith(token), 0, 'the local-only prompt is in no object of the remote');
    const parents = (await git(remoteDir(), 'log', '--format=%P', 'refs/notes/agentnote')).trim();
    assert.equal(parents, '', "the remote's notes commit does not descend from the local notes history");
    const s = await (await agentNote()).sharing(root);
    assert.ok(s && s.workerThreadId !== undefined && s.workerThreadId !== s.hostThreadId, 'the work ran in the sharing worker thread');
  });

  it('notes the other clone pushed show in the hover within seconds of a fetch', async () => {
    // the other clone notes the commit that wrote app.txt line 2 ("beta") and pushes its notes on top of the remote's
    await git(otherDir(), 'fetch', '-q', 'origin', '+refs/notes/agentnote:refs/notes/agentnote');
    const appCommit = (await git(otherDir(), 'log', '--format=%H', '-1', '--', 'app.txt')).trim();
    const note = {
      v: 1,
      agent: 'cursor',
      session_id: 'other-clone',
      timestamp: '2026-03-01T11:00:00.000Z',
      model: 'gpt-5',
      interactions: [{ prompt: 'OtherClonePrompt write the app lines', response: 'Wrote them.' }],
      files: [{ path: 'app.txt', by_ai: true }],
      attribution: { ai_ratio: 100, method: 'file' },
    };
    await git(otherDir(), 'notes', '--ref=agentnote', 'add', '-m', JSON.stringify(note, null, 2), appCommit);
    await git(otherDir(), 'push', '-q', 'origin', 'refs/notes/agentnote');
    const before = await hoverText('app.txt', 2);
    assert.doesNotMatch(before, /OtherClonePrompt/);

    const r = await run(root, 'fetch');
    assert.equal(r.code, 0, r.stderr);
    const t0 = Date.now();
    const text = await waitFor(
      async () => {
        const t = await hoverText('app.txt', 2);
        return /OtherClonePrompt/.test(t) ? t : undefined;
      },
      15_000,
      'the fetched note in the hover',
    );
    assert.ok(Date.now() - t0 < 15_000);
    assert.match(text, /100%/);
    // merged, nothing of ours lost: the local-only note and main's are still there
    const local = await git(root, 'notes', '--ref=agentnote', 'list');
    assert.equal(local.trim().split('\n').length, 3);
    assert.equal(await remoteObjectsWith(token), 0);
  });

  it('agentNote.sharing.push replaced agentNote.notes.pushAfterPush, and `off` applies at once', async () => {
    const c = vscode.workspace.getConfiguration('agentNote');
    await waitFor(() => c.inspect('notes.pushAfterPush')?.globalValue === undefined || undefined, 10_000, 'old setting moved');
    assert.equal(vscode.workspace.getConfiguration('agentNote').inspect('sharing.push')?.globalValue, 'withBranches');
    await vscode.workspace.getConfiguration('agentNote').update('sharing.push', 'off', vscode.ConfigurationTarget.Global);
    try {
      await git(root, 'checkout', '-q', 'local-only');
      const pushesBefore = (await (await agentNote()).sharing(root))?.stats.pushesDetected ?? 0;
      await git(root, 'push', '-q', 'origin', 'local-only:refs/heads/parked');
      const s = await waitFor(
        async () => {
          const x = await (await agentNote()).sharing(root);
          return x && x.stats.pushesDetected > pushesBefore ? x : undefined;
        },
        15_000,
        'the push seen',
      );
      assert.equal(s.stats.sharesSkippedOff, 1);
      assert.ok(!(await remoteNotes()).some((l) => l.includes(token)), 'off: nothing shared');
      assert.equal(await remoteObjectsWith(token), 0);
    } finally {
      await git(root, 'checkout', '-q', 'main');
      await vscode.workspace.getConfiguration('agentNote').update('sharing.push', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a push of the local-only branch shares its note at last', async () => {
    await git(root, 'push', '-q', 'origin', 'local-only');
    await waitFor(
      async () => ((await remoteNotes()).some((l) => l.includes(token)) ? true : undefined),
      15_000,
      'the branch note on the remote',
    );
    assert.equal((await remoteNotes()).length, 3);
  });
});
