import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hoverText, lineVerdict } from '../helpers/editor';
import { agentNote, readyRepository, recorded, waitFor } from '../helpers/host';
import { ClaudeSession, commitAll as commitIn, git, noteOf } from '../helpers/agents';

/**
 * Local history rewrites (issue #18 part 1), end to end in a real extension host: the agent's
 * commits are recorded by the extension, the rewrite runs from a terminal (git CLI), and the new
 * commits' notes must be those of their own diffs — line-exact ranges, ratios and the prompt of
 * every AI line — with the hover following the lines. Each test works on branches of its own and
 * returns to the branch it started on.
 */
describe('history rewrites from a terminal (issue #18)', function () {
  this.timeout(180_000);
  let root: string;
  let home: string;

  before(async () => {
    root = await readyRepository();
    home = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
  });
  afterEach(() => {
    for (const op of [
      ['rebase', '--abort'],
      ['cherry-pick', '--abort'],
      ['merge', '--abort'],
    ])
      try {
        git(root, ...op);
      } catch {
        // nothing in progress
      }
    git(root, 'checkout', '-q', '-f', home);
  });

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const abs = (rel: string) => path.join(root, rel);
  const write = (rel: string, content: string) => {
    fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
    fs.writeFileSync(abs(rel), content);
  };
  /** git with an environment (editors for rebase -i, the committer). */
  const gitEnv = (env: Record<string, string>, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Ann Dev', '-c', 'user.email=ann@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });

  /** A commit by the person, fully recorded before the scenario goes on. */
  async function personCommit(files: Record<string, string>, message: string): Promise<string> {
    for (const [rel, content] of Object.entries(files)) write(rel, content);
    const sha = commitIn(root, message);
    await recorded(root, sha);
    return sha;
  }

  /** One agent turn that writes `rel`, committed and noted. */
  async function aiCommit(s: ClaudeSession, prompt: string, rel: string, content: string): Promise<string> {
    s.prompt(prompt);
    s.write(rel, content);
    s.respond('Done.');
    const api = await agentNote();
    await waitFor(
      () => api.sessions(root).find((x) => x.id === s.id && x.files.includes(rel) && x.prompts.includes(prompt)),
      10_000,
      `edit of ${rel} seen`,
    );
    await sleep(1200);
    const sha = commitIn(root, `feat: ${prompt}`);
    await waitFor(() => noteOf(root, sha), 20_000, `note of "${prompt}"`);
    await recorded(root, sha);
    return sha;
  }

  type Note = {
    timestamp: string;
    interactions: { prompt: string }[];
    files: { path: string; by_ai: boolean; ai_ranges?: { start: number; end: number; interaction: number | null }[] }[];
    attribution: { ai_ratio: number; method: string; lines?: { ai_added: number; total_added: number; deleted: number } };
  };

  /** The note of `sha` once it satisfies `ok` (the rewrite recorder may first see git's copy). */
  const noteWhen = (sha: string, ok: (n: Note) => boolean, what: string) =>
    waitFor(
      () => {
        const n = noteOf(root, sha) as Note | undefined;
        return n && ok(n) ? n : undefined;
      },
      30_000,
      what,
    );

  /** Per file: [start, end, prompt] of every AI range. */
  const rangesWithPrompts = (n: Note) =>
    n.files.map((f) => [
      f.path,
      f.by_ai,
      (f.ai_ranges ?? []).map((r) => [r.start, r.end, r.interaction === null ? null : n.interactions[r.interaction]?.prompt]),
    ]);

  /** The hover's verdict on a line of a noted commit ('unclaimed': a line of a commit without a note). */
  async function hoverSays(rel: string, line: number, who: 'AI' | 'person' | 'unclaimed', prompt?: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(abs(rel));
    await vscode.window.showTextDocument(doc);
    if (who === 'unclaimed') {
      assert.doesNotMatch(await hoverText(abs(rel), line), /written by the AI/, `${rel}:${line}`);
      return;
    }
    const hover = await lineVerdict(abs(rel), line);
    if (who === 'AI') {
      assert.match(hover, /written by the AI/, `${rel}:${line}: ${hover}`);
      if (prompt) assert.ok(hover.replace(/\\/g, '').includes(prompt), `${rel}:${line} shows "${prompt}": ${hover}`);
    } else assert.match(hover, /written by a person/, `${rel}:${line}: ${hover}`);
  }

  it('cherry-pick -x onto a branch with shifted lines: the AI line keeps its prompt at its new number', async () => {
    const base = await personCommit({ 'cp/list.txt': 'alpha\nbeta\n' }, 'chore: cp list');
    git(root, 'checkout', '-q', '-b', 'cp-src');
    const s = new ClaudeSession(root);
    const picked = await aiCommit(s, 'Append gamma to cp/list.txt', 'cp/list.txt', 'alpha\nbeta\ngamma from the agent\n');
    git(root, 'checkout', '-q', '-b', 'cp-dst', base);
    await personCommit({ 'cp/list.txt': 'top one\ntop two\nalpha\nbeta\n' }, 'chore: two lines on top');
    git(root, 'cherry-pick', '-x', picked);
    const sha = git(root, 'rev-parse', 'HEAD').trim();
    assert.notEqual(sha, picked);
    const n = await noteWhen(sha, (x) => x.files[0]?.ai_ranges?.[0]?.start === 5, 'the cherry-pick’s note for its own diff');
    assert.deepEqual(rangesWithPrompts(n), [['cp/list.txt', true, [[5, 5, 'Append gamma to cp/list.txt']]]]);
    assert.deepEqual(n.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    await hoverSays('cp/list.txt', 5, 'AI', 'Append gamma to cp/list.txt');
    await hoverSays('cp/list.txt', 1, 'unclaimed');
  });

  it('merge --squash of two AI commits and a human one: one note with both prompts, the human file the person’s', async () => {
    const base = await personCommit({ 'sq/README.md': '# squash\n' }, 'chore: sq');
    git(root, 'checkout', '-q', '-b', 'sq-feature');
    const s = new ClaudeSession(root);
    await aiCommit(s, 'Write sq/calc.ts', 'sq/calc.ts', 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n');
    await personCommit({ 'sq/NOTES.md': 'written by hand\n' }, 'docs: notes');
    await aiCommit(
      s,
      'Add four and five to sq/calc.ts',
      'sq/calc.ts',
      'export const one = 1;\nexport const two = 2;\nexport const three = 3;\nexport const four = 4;\nexport const five = 5;\n',
    );
    git(root, 'checkout', '-q', '-b', 'sq-main', base);
    git(root, 'merge', '--squash', 'sq-feature');
    git(root, 'commit', '-q', '--no-edit'); // the message git proposes (SQUASH_MSG)
    const sha = git(root, 'rev-parse', 'HEAD').trim();
    const n = await noteWhen(sha, (x) => x.files.some((f) => (f.ai_ranges?.length ?? 0) >= 2), 'the squash commit’s note');
    assert.deepEqual(
      rangesWithPrompts(n), // git's order of paths
      [
        ['sq/NOTES.md', false, []],
        [
          'sq/calc.ts',
          true,
          [
            [1, 3, 'Write sq/calc.ts'],
            [4, 5, 'Add four and five to sq/calc.ts'],
          ],
        ],
      ],
    );
    assert.deepEqual(n.attribution, { ai_ratio: 83, method: 'line', lines: { ai_added: 5, total_added: 6, deleted: 0 } });
    await hoverSays('sq/calc.ts', 4, 'AI', 'Add four and five to sq/calc.ts');
    await hoverSays('sq/calc.ts', 2, 'AI', 'Write sq/calc.ts');
    await hoverSays('sq/NOTES.md', 1, 'person');
  });

  it('reset --mixed, then the changes committed in two parts: each commit shows its own AI lines with their prompts', async () => {
    await personCommit({ 'rs/README.md': '# reset\n' }, 'chore: rs');
    git(root, 'checkout', '-q', '-b', 'rs-feature');
    const s = new ClaudeSession(root);
    await aiCommit(s, 'Write rs/a.ts', 'rs/a.ts', 'export const a = 1;\nexport const b = 2;\n');
    await aiCommit(s, 'Write rs/b.ts', 'rs/b.ts', 'export const c = 3;\n');
    git(root, 'reset', '-q', '--mixed', 'HEAD~2');
    git(root, 'add', 'rs/b.ts');
    git(root, 'commit', '-q', '-m', 'feat: b first');
    const first = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'add', 'rs/a.ts');
    git(root, 'commit', '-q', '-m', 'feat: then a');
    const second = git(root, 'rev-parse', 'HEAD').trim();
    const n1 = await noteWhen(first, (x) => x.files.some((f) => f.by_ai), 'the first recommit’s note');
    assert.deepEqual(rangesWithPrompts(n1), [['rs/b.ts', true, [[1, 1, 'Write rs/b.ts']]]]);
    const n2 = await noteWhen(second, (x) => x.files.some((f) => f.by_ai), 'the second recommit’s note');
    assert.deepEqual(rangesWithPrompts(n2), [['rs/a.ts', true, [[1, 2, 'Write rs/a.ts']]]]);
    assert.deepEqual(n2.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } });
    await hoverSays('rs/a.ts', 2, 'AI', 'Write rs/a.ts');
    await hoverSays('rs/b.ts', 1, 'AI', 'Write rs/b.ts');
  });

  it('reset --soft, then one commit: the recommit has the union of both AI commits’ prompts and ranges', async () => {
    await personCommit({ 'rsoft/README.md': '# soft\n' }, 'chore: rsoft');
    git(root, 'checkout', '-q', '-b', 'rsoft-feature');
    const s = new ClaudeSession(root);
    await aiCommit(s, 'Write rsoft/one.ts', 'rsoft/one.ts', 'export const one = 1;\n');
    await aiCommit(s, 'Write rsoft/two.ts', 'rsoft/two.ts', 'export const two = 2;\nexport const twice = 4;\n');
    git(root, 'reset', '-q', '--soft', 'HEAD~2');
    git(root, 'commit', '-q', '-m', 'feat: one and two together');
    const sha = git(root, 'rev-parse', 'HEAD').trim();
    const n = await noteWhen(sha, (x) => x.files.filter((f) => f.by_ai).length === 2, 'the recommit’s note');
    assert.deepEqual(rangesWithPrompts(n), [
      ['rsoft/one.ts', true, [[1, 1, 'Write rsoft/one.ts']]],
      ['rsoft/two.ts', true, [[1, 2, 'Write rsoft/two.ts']]],
    ]);
    assert.deepEqual(n.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 3, total_added: 3, deleted: 0 } });
    await hoverSays('rsoft/two.ts', 2, 'AI', 'Write rsoft/two.ts');
  });

  it('after a pull, a hosting commit that only shares one line with an AI commit gets no derived claim; the squash next to it does', async () => {
    const remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'an-lookalike-'));
    const bare = path.join(remoteDir, 'remote.git');
    git(remoteDir, 'init', '-q', '--bare', `--initial-branch=${home}`, bare);
    git(root, 'remote', 'add', 'hosting-lk', bare);
    try {
      await personCommit({ 'lk/README.md': '# lookalike\n' }, 'chore: lk');
      git(root, 'push', '-q', 'hosting-lk', home);
      git(root, 'checkout', '-q', '-b', 'lk-feature');
      const s = new ClaudeSession(root);
      const body = ['export function clamp(x: number, lo: number, hi: number): number {', '  return Math.min(hi, Math.max(lo, x));', '}'];
      const ai = await aiCommit(s, 'Write lk/clamp.ts', 'lk/clamp.ts', `${body.join('\n')}\n`);
      git(root, 'push', '-q', 'hosting-lk', 'lk-feature', 'refs/notes/agentnote');
      git(root, 'checkout', '-q', home);
      // the hosting service: someone else's commit that happens to contain the AI's closing brace
      // line and nothing else of it, then "Squash and merge" of the feature branch
      const server = path.join(remoteDir, 'server');
      git(remoteDir, 'clone', '-q', bare, server);
      fs.mkdirSync(path.join(server, 'lk'), { recursive: true });
      fs.writeFileSync(path.join(server, 'lk/other.ts'), 'export function other(): void {\n  console.log("mine");\n}\n');
      git(server, 'add', 'lk/other.ts');
      git(server, 'commit', '-q', '-m', 'feat: other (#8)');
      const other = git(server, 'rev-parse', 'HEAD').trim();
      git(server, 'merge', '--squash', 'origin/lk-feature');
      execFileSync('git', ['commit', '-q', '-m', 'Add clamp (#9)'], {
        cwd: server,
        env: { ...process.env, GIT_COMMITTER_NAME: 'GitHub', GIT_COMMITTER_EMAIL: 'noreply@github.com' },
      });
      const squash = git(server, 'rev-parse', 'HEAD').trim();
      git(server, 'push', '-q', 'origin', home);
      git(server, 'push', '-q', 'origin', '--delete', 'lk-feature');
      git(root, 'pull', '-q', '--ff-only', 'hosting-lk', home);
      const n = await noteWhen(squash, () => true, 'the squash commit’s derived note');
      assert.deepEqual((n as Note & { derived_from?: string[] }).derived_from, [ai]);
      assert.deepEqual(rangesWithPrompts(n), [['lk/clamp.ts', true, [[1, 3, 'Write lk/clamp.ts']]]]);
      // both commits of the pull were looked at (the squash's note is there; a moment more for a late pass)
      await sleep(2000);
      assert.equal(noteOf(root, other), undefined, 'one shared line is not a squash of the AI commit');
      await hoverSays('lk/other.ts', 3, 'unclaimed');
      await hoverSays('lk/clamp.ts', 3, 'AI', 'Write lk/clamp.ts');
    } finally {
      git(root, 'remote', 'remove', 'hosting-lk');
      try {
        fs.rmSync(remoteDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch {
        // left in the temp dir
      }
    }
  });

  it('rebase -i with reorder, squash and fixup: each new commit has the union of its sources’ prompts and ranges', async () => {
    const base = await personCommit({ 'ir/README.md': '# ir\n' }, 'chore: ir');
    git(root, 'checkout', '-q', '-b', 'ir-topic');
    const s = new ClaudeSession(root);
    const a = await aiCommit(s, 'Create ir/a.ts', 'ir/a.ts', 'export const a1 = 1;\nexport const a2 = 2;\n');
    const b = await aiCommit(s, 'Create ir/b.ts', 'ir/b.ts', 'export const b1 = 1;\n');
    const c = await aiCommit(s, 'Append a3 to ir/a.ts', 'ir/a.ts', 'export const a1 = 1;\nexport const a2 = 2;\nexport const a3 = 3;\n');
    const d = await aiCommit(s, 'Append b2 to ir/b.ts', 'ir/b.ts', 'export const b1 = 1;\nexport const b2 = 2;\n');
    // the todo: pick B, squash D, pick A, fixup C
    const editor = path.join(os.tmpdir(), `an-todo-${process.pid}.js`);
    fs.writeFileSync(
      editor,
      `const fs = require('fs'); const f = process.argv[2];
const short = (sha) => sha.slice(0, 7);
const lines = fs.readFileSync(f, 'utf8').split('\\n').filter((l) => /^pick /.test(l));
const by = (sha) => lines.find((l) => l.split(' ')[1].startsWith(short(sha))).replace(/^pick /, '');
fs.writeFileSync(f, ['pick ' + by(${JSON.stringify(b)}), 'squash ' + by(${JSON.stringify(d)}), 'pick ' + by(${JSON.stringify(a)}), 'fixup ' + by(${JSON.stringify(c)})].join('\\n') + '\\n');`,
    );
    try {
      gitEnv(
        { GIT_SEQUENCE_EDITOR: `"${process.execPath}" "${editor}"`, GIT_EDITOR: 'true', ELECTRON_RUN_AS_NODE: '1' },
        'rebase',
        '-q',
        '-i',
        base,
      );
    } finally {
      fs.rmSync(editor, { force: true });
    }
    const [bd, ac] = git(root, 'rev-list', '--reverse', `${base}..HEAD`).trim().split('\n');
    assert.ok(bd && ac, 'two commits after the rebase');
    assert.equal(fs.readFileSync(abs('ir/a.ts'), 'utf8'), 'export const a1 = 1;\nexport const a2 = 2;\nexport const a3 = 3;\n');
    const nbd = await noteWhen(bd, (x) => x.files[0]?.path === 'ir/b.ts' && (x.files[0].ai_ranges?.length ?? 0) === 2, 'B+D’s note');
    assert.deepEqual(rangesWithPrompts(nbd), [
      [
        'ir/b.ts',
        true,
        [
          [1, 1, 'Create ir/b.ts'],
          [2, 2, 'Append b2 to ir/b.ts'],
        ],
      ],
    ]);
    assert.deepEqual(nbd.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } });
    const nac = await noteWhen(ac, (x) => x.files[0]?.path === 'ir/a.ts' && (x.files[0].ai_ranges?.length ?? 0) === 2, 'A+C’s note');
    assert.deepEqual(rangesWithPrompts(nac), [
      [
        'ir/a.ts',
        true,
        [
          [1, 2, 'Create ir/a.ts'],
          [3, 3, 'Append a3 to ir/a.ts'],
        ],
      ],
    ]);
    assert.deepEqual(nac.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 3, total_added: 3, deleted: 0 } });
    await hoverSays('ir/a.ts', 3, 'AI', 'Append a3 to ir/a.ts');
    await hoverSays('ir/b.ts', 1, 'AI', 'Create ir/b.ts');
  });

  it('a conflict the person resolves inside an AI hunk: the kept AI line stays the AI’s, the resolved one is the person’s', async () => {
    const base = await personCommit({ 'cf/config.ts': '// config\nexport const b = 1;\n' }, 'chore: cf');
    git(root, 'checkout', '-q', '-b', 'cf-topic');
    const s = new ClaudeSession(root);
    const ai = await aiCommit(
      s,
      'Add a and change b in cf/config.ts',
      'cf/config.ts',
      '// config\nexport const a = 10;\nexport const b = 2;\n',
    );
    const before = (noteOf(root, ai) as Note).timestamp;
    git(root, 'checkout', '-q', '-b', 'cf-main', base);
    await personCommit({ 'cf/config.ts': '// config\nexport const b = 20;\n' }, 'chore: b is 20');
    git(root, 'checkout', '-q', 'cf-topic');
    assert.throws(() => git(root, 'rebase', '-q', 'cf-main'), 'the rebase stops on the conflict');
    // the person resolves it in the editor's terminal: keeps the AI's a, writes b by hand
    write('cf/config.ts', '// config\nexport const a = 10;\nexport const b = 2 * 10;\n');
    git(root, 'add', 'cf/config.ts');
    gitEnv({ GIT_EDITOR: 'true' }, 'rebase', '--continue');
    const sha = git(root, 'rev-parse', 'HEAD').trim();
    // git copies the old note first (notes.rewriteRef); the extension then writes the new diff's
    const n = await noteWhen(sha, (x) => x.timestamp !== before, 'the rebased commit’s note, recomputed');
    assert.deepEqual(rangesWithPrompts(n), [['cf/config.ts', true, [[2, 2, 'Add a and change b in cf/config.ts']]]]);
    assert.deepEqual(n.attribution, { ai_ratio: 50, method: 'line', lines: { ai_added: 1, total_added: 2, deleted: 1 } });
    await hoverSays('cf/config.ts', 2, 'AI', 'Add a and change b in cf/config.ts');
    await hoverSays('cf/config.ts', 3, 'person');
  });

  it('hosting rebase merge: after a pull, the rebased AI commit gets a derived note at its shifted lines, the human one none', async () => {
    const remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'an-rebase-merge-'));
    const bare = path.join(remoteDir, 'remote.git');
    git(remoteDir, 'init', '-q', '--bare', `--initial-branch=${home}`, bare);
    git(root, 'remote', 'add', 'hosting-rm', bare);
    try {
      await personCommit({ 'rm/list.ts': '// list\n' }, 'chore: rm/list.ts');
      git(root, 'push', '-q', 'hosting-rm', home);
      git(root, 'checkout', '-q', '-b', 'rm-feature');
      const s = new ClaudeSession(root);
      const ai = await aiCommit(
        s,
        'Add first() and last() to rm/list.ts',
        'rm/list.ts',
        '// list\nexport const first = <T>(xs: T[]): T | undefined => xs[0];\nexport const last = <T>(xs: T[]): T | undefined => xs[xs.length - 1];\n',
      );
      const human = await personCommit({ 'rm/NOTES.md': 'first and last, by hand\n' }, 'docs: rm notes');
      git(root, 'push', '-q', 'hosting-rm', 'rm-feature', 'refs/notes/agentnote');
      git(root, 'checkout', '-q', home);
      // the hosting service: main moved (a header on top), then "Rebase and merge", the branch deleted
      const server = path.join(remoteDir, 'server');
      git(remoteDir, 'clone', '-q', bare, server);
      fs.writeFileSync(path.join(server, 'rm/list.ts'), '// Copyright 2026\n// list\n');
      git(server, 'commit', '-q', '-am', 'chore: header');
      const hosting = {
        GIT_COMMITTER_NAME: 'GitHub',
        GIT_COMMITTER_EMAIL: 'noreply@github.com',
      };
      execFileSync('git', ['checkout', '-q', '-b', 'pr', 'origin/rm-feature'], { cwd: server });
      execFileSync('git', ['-c', 'user.name=GitHub', '-c', 'user.email=noreply@github.com', 'rebase', '-q', home], {
        cwd: server,
        env: { ...process.env, ...hosting },
      });
      git(server, 'push', '-q', 'origin', `pr:${home}`);
      git(server, 'push', '-q', 'origin', '--delete', 'rm-feature');
      const [humanCopy, aiCopy] = git(server, 'rev-list', '-2', 'pr').trim().split('\n');
      git(root, 'pull', '-q', '--ff-only', 'hosting-rm', home);
      assert.equal(git(root, 'rev-parse', 'HEAD').trim(), humanCopy);
      const n = await noteWhen(aiCopy, () => true, 'the derived note of the rebased AI commit');
      assert.deepEqual((n as Note & { derived_from?: string[] }).derived_from, [ai]);
      assert.deepEqual(rangesWithPrompts(n), [['rm/list.ts', true, [[3, 4, 'Add first() and last() to rm/list.ts']]]]);
      assert.deepEqual(n.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } });
      assert.equal(noteOf(root, humanCopy), undefined, 'the rebased human commit gets no note');
      assert.notEqual(humanCopy, human);
      await hoverSays('rm/list.ts', 3, 'AI', 'Add first() and last() to rm/list.ts');
      const hover = await lineVerdict(abs('rm/list.ts'), 4);
      assert.match(hover, /derived from 1 commit/);
    } finally {
      git(root, 'remote', 'remove', 'hosting-rm');
      // the extension may still be reading the remote (a sharing check): retried, never the test's error
      try {
        fs.rmSync(remoteDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch {
        // left in the temp dir
      }
    }
  });
});
