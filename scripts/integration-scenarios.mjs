// Workspace fixtures for the in-host suites. Each scenario gets its own code-server, isolated HOME
// and workspace; `suite` selects the test files (out/test/suite/<suite>/*.test.js).
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { gitIn, makeGitFixture, ROOT } from './harness.mjs';
import { createDemoRepository } from './demo-repo.mjs';
import { makeHostileRepository } from './hostile-repo.mjs';

/**
 * @typedef {{
 *   name: string, suite: string, secondWindow?: boolean, settings?: Record<string, unknown>, env?: Record<string, string>,
 *   setup: (dirs: { base: string, home: string }) => string | Promise<string>,
 * }} Scenario
 */

/** @type {Scenario[]} */
export const scenarios = [
  {
    name: 'git',
    suite: 'git',
    setup: ({ base }) => makeGitFixture(join(base, 'workspace')),
  },
  {
    // the event-loop stall measurement, in a host of its own: a host that has run the 25 tests of
    // 'git' before it has a larger heap, and each process start (fork) costs more there
    name: 'stall',
    suite: 'stall',
    setup: ({ base }) => makeGitFixture(join(base, 'workspace')),
  },
  {
    // dispose at every await point of start-up (issue #17 part 6): a repository with a remote and notes
    name: 'lifecycle',
    suite: 'lifecycle',
    setup: ({ base }) => makeSharingFixture(base),
  },
  {
    name: 'peer',
    suite: 'peer',
    setup: ({ base }) => clonePeerBundle('todo-api', join(base, 'todo-api')),
  },
  {
    name: 'demo',
    suite: 'demo',
    setup: ({ base, home }) => createDemoRepository({ base, home }),
  },
  {
    // two editor windows on one repository: the runner opens a second workbench window on the same
    // folder (its own extension host with Agent Note) before the window that runs the suite
    name: 'windows',
    suite: 'windows',
    secondWindow: true,
    setup: ({ base }) => makeGitFixture(join(base, 'workspace')),
  },
  {
    // notes carrying the hostile-string corpus, a 3,000-deep nesting, 30 MB notes (issue #14)
    name: 'hostile',
    suite: 'hostile',
    setup: ({ base }) => makeHostileRepository(join(base, 'hostile')),
  },
  {
    // a fresh clone of main only, after a hosting service squashed and deleted a noted feature
    // branch (issue #18): the feature commit is not in the clone, its note arrives with a fetch
    name: 'freshclone',
    suite: 'freshclone',
    setup: ({ base }) => makeSquashedRemoteClone(base),
  },
  {
    // notes sharing through a bare remote on disk, with a second clone (issue #14 parts 1, 2)
    name: 'sharing',
    suite: 'sharing',
    // the replaced setting, as an earlier version left it: moved to agentNote.sharing.push on start
    settings: { 'agentNote.notes.pushAfterPush': true },
    setup: ({ base }) => makeSharingFixture(base),
  },
  {
    // a multi-root workspace of two repositories with different folder settings (resource scope)
    name: 'multiroot',
    suite: 'multiroot',
    setup: ({ base }) => multiRootWorkspace(base),
  },
  {
    // interleaved agent and person sessions (issue #15): the failure classes and the randomized
    // session test (AGENTNOTE_SEEDS=1,2,3 replays seeds; AGENTNOTE_STEPS sets the steps per seed)
    name: 'interleaved',
    suite: 'interleaved',
    settings: {
      'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
      'editor.wordBasedSuggestions': 'off',
      'editor.suggestOnTriggerCharacters': false,
      'editor.acceptSuggestionOnEnter': 'off',
      'editor.autoClosingBrackets': 'never',
      'editor.autoClosingQuotes': 'never',
      'editor.autoIndent': 'none',
      'files.insertFinalNewline': false,
      'files.trimTrailingWhitespace': false,
    },
    env: {
      AGENTNOTE_SEEDS: process.env.AGENTNOTE_SEEDS ?? '',
      AGENTNOTE_STEPS: process.env.AGENTNOTE_STEPS ?? '',
      AGENTNOTE_REPORT: process.env.AGENTNOTE_REPORT ?? '',
    },
    setup: ({ base }) => makeGitFixture(join(base, 'workspace')),
  },
  {
    name: 'nogit',
    suite: 'nogit',
    setup: ({ base }) => {
      const dir = join(base, 'plain-folder');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'notes.txt'), 'not a repository\n');
      return dir;
    },
  },
];

/** A note in the exact bytes the CLI (and we) write: pretty JSON + one newline. */
/**
 * @param {string} prompt
 * @param {Record<string, unknown>} [extra]
 */
function noteJson(prompt, extra = {}) {
  return `${JSON.stringify(
    {
      v: 1,
      agent: 'claude',
      session_id: 'sharing-fixture',
      timestamp: '2026-03-01T10:00:00.000Z',
      model: 'claude-sonnet-4-5',
      interactions: [{ prompt, response: `Done: ${prompt}` }],
      files: [{ path: 'app.txt', by_ai: true }],
      attribution: { ai_ratio: 100, method: 'file' },
      ...extra,
    },
    null,
    2,
  )}\n`;
}

/**
 * `<base>/remote.git` (bare), the workspace (a clone: main pushed, then an unpushed noted commit on
 * main and a noted commit on the local-only branch `local-only`; our old forced refspec configured),
 * and `<base>/other` (a second clone). The remote has no notes ref.
 */
/** @param {string} base */
export function makeSharingFixture(base) {
  const remote = join(base, 'remote.git');
  const ws = join(base, 'workspace');
  const other = join(base, 'other');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote], { stdio: 'pipe' });
  makeGitFixture(ws);
  const git = gitIn(ws);
  writeFileSync(join(ws, 'app.txt'), 'alpha\nbeta\ngamma\n');
  git('add', '.');
  git('commit', '-q', '-m', 'app');
  git('remote', 'add', 'origin', remote);
  git('push', '-q', '-u', 'origin', 'main');
  git('config', '--add', 'remote.origin.fetch', '+refs/notes/agentnote:refs/notes/agentnote');
  writeFileSync(join(ws, 'app.txt'), 'alpha\nbeta\ngamma\ndelta\n');
  git('commit', '-q', '-am', 'delta (main, not pushed yet)');
  git('notes', '--ref=agentnote', 'add', '-m', noteJson('MAIN-BRANCH-PROMPT add delta').trimEnd(), 'HEAD');
  git('checkout', '-q', '-b', 'local-only');
  writeFileSync(join(ws, 'secret.txt'), 'local work\n');
  git('add', 'secret.txt');
  git('commit', '-q', '-m', 'local-only work');
  git('notes', '--ref=agentnote', 'add', '-m', noteJson('LOCAL-ONLY-TOKEN-5c1e secret plan').trimEnd(), 'HEAD');
  git('checkout', '-q', 'main');
  execFileSync('git', ['clone', '-q', remote, other], { stdio: 'pipe' });
  return ws;
}

/**
 * Two repositories, each with a bare `origin`, in one .code-workspace. Folder settings differ:
 * alpha keeps no notes on rewrite and keeps its journal 3 days; beta does not fetch notes. Each
 * journal has a finished session whose last activity was 5 days ago.
 */
/** @param {string} base */
function multiRootWorkspace(base) {
  const folders = {
    alpha: { 'agentNote.notes.keepOnRewrite': false, 'agentNote.journal.retentionDays': 3 },
    beta: { 'agentNote.notes.fetchWithBranch': false },
  };
  for (const [name, settings] of Object.entries(folders)) {
    const dir = makeGitFixture(join(base, name));
    execFileSync('git', ['init', '-q', '--bare', join(base, `${name}-origin.git`)], { stdio: 'pipe' });
    execFileSync('git', ['remote', 'add', 'origin', join(base, `${name}-origin.git`)], { cwd: dir, stdio: 'pipe' });
    mkdirSync(join(dir, '.vscode'), { recursive: true });
    writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
    writeFileSync(join(dir, '.git', 'info', 'exclude'), '.vscode/\n');
    const session = join(dir, '.git', 'agentnote', 'sessions', '0b0c5a1e-5d1a-4c3e-9f00-00000000000' + (name === 'alpha' ? '1' : '2'));
    mkdirSync(session, { recursive: true });
    const old = Date.now() - 5 * 86_400_000;
    writeFileSync(join(session, 'heartbeat'), String(old));
    writeFileSync(join(session, 'prompts.jsonl'), '');
    for (const f of ['heartbeat', 'prompts.jsonl', '.']) utimesSync(join(session, f), old / 1000, old / 1000);
  }
  const file = join(base, 'shop.code-workspace');
  writeFileSync(
    file,
    JSON.stringify({ folders: [{ path: 'alpha' }, { path: 'beta' }], settings: { 'agentNote.statusBar.enabled': true } }, null, 2),
  );
  return file;
}

/** A clone of a peer bundle (notes written by the Agent Note CLI) with refs/notes/agentnote fetched. */
/**
 * @param {string} name
 * @param {string} dir
 */
export function clonePeerBundle(name, dir) {
  const bundle = join(ROOT, 'test/fixtures/peer-repos', `${name}.bundle`);
  execFileSync('git', ['clone', '-q', bundle, dir], { stdio: 'pipe' });
  execFileSync('git', ['fetch', '-q', bundle, 'refs/notes/agentnote:refs/notes/agentnote'], { cwd: dir, stdio: 'pipe' });
  execFileSync('git', ['checkout', '-q', '-B', 'main'], { cwd: dir, stdio: 'pipe' });
  return dir;
}

/**
 * A bare remote whose main has a squash commit ("Add totals (#7)", committed by GitHub) of a
 * feature branch with one noted AI commit — the note has `ai_line_hashes`, as ours do — and a
 * commit by the person that changed one AI line; the branch is deleted on the remote, its note is
 * on the remote's refs/notes/agentnote. Returns a fresh `--single-branch` clone of main without
 * the notes (what a teammate has after `git clone`).
 */
/** @param {string} base */
export function makeSquashedRemoteClone(base) {
  const remote = join(base, 'remote.git');
  const author = join(base, 'author');
  const server = join(base, 'server');
  const ws = join(base, 'workspace');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote], { stdio: 'pipe' });
  makeGitFixture(author);
  const a = gitIn(author);
  a('remote', 'add', 'origin', remote);
  a('push', '-q', 'origin', 'main');
  a('checkout', '-q', '-b', 'feature');
  mkdirSync(join(author, 'src'), { recursive: true });
  const ai = [
    'export function total(prices: number[]): number {',
    '  let sum = 0;',
    '  for (const price of prices) sum += price;',
    '  return Math.round(sum * 100) / 100;',
    '}',
  ];
  writeFileSync(join(author, 'src/total.ts'), `// totals\n${ai.join('\n')}\n`);
  a('add', '.');
  a('commit', '-q', '-m', 'feat: total');
  /** @param {string} t */
  const lineHash = (t) => createHash('sha256').update(t.replace(/\s+$/, ''), 'utf8').digest('hex').slice(0, 12);
  const note = {
    v: 1,
    agent: 'claude',
    session_id: '0b6f3c2e-6a1d-4c7e-9f2a-1d2c3b4a5f60',
    timestamp: '2026-12-01T10:00:00.000Z',
    model: 'claude-sonnet-4-5',
    interactions: [
      { prompt: 'Add a total() over the prices, rounded to cents', response: 'Added total().', files_touched: ['src/total.ts'] },
    ],
    files: [{ path: 'src/total.ts', by_ai: true, ai_ranges: [{ start: 2, end: 6, interaction: 0 }], ai_line_hashes: ai.map(lineHash) }],
    attribution: { ai_ratio: 83, method: 'line', lines: { ai_added: 5, total_added: 6, deleted: 0 } },
  };
  a('notes', '--ref=agentnote', 'add', '-m', JSON.stringify(note, null, 2), 'HEAD');
  const fixed = [...ai];
  fixed[2] = '  for (const price of prices) sum += Math.max(0, price);';
  writeFileSync(join(author, 'src/total.ts'), `// totals\n${fixed.join('\n')}\n`);
  a('commit', '-q', '-am', 'fix: no negative prices');
  a('push', '-q', 'origin', 'feature', 'refs/notes/agentnote');
  execFileSync('git', ['clone', '-q', remote, server], { stdio: 'pipe' });
  const s = gitIn(server);
  s('merge', '--squash', 'origin/feature');
  execFileSync('git', ['commit', '-q', '-m', 'Add totals (#7)'], {
    cwd: server,
    stdio: 'pipe',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ann Dev',
      GIT_AUTHOR_EMAIL: 'ann@example.com',
      GIT_COMMITTER_NAME: 'GitHub',
      GIT_COMMITTER_EMAIL: 'noreply@github.com',
    },
  });
  s('push', '-q', 'origin', 'main');
  s('push', '-q', 'origin', '--delete', 'feature');
  execFileSync('git', ['clone', '-q', '--single-branch', '-b', 'main', `file://${remote}`, ws], { stdio: 'pipe' });
  return ws;
}
