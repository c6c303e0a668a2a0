import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { GitRunner } from '../../../src/node/git/gitRunner';
import { hookStatus, installHooks, managedHookMarker, prepareCommitMsgScript, removeHooks } from '../../../src/node/hooks/gitHooks';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

const sid = '6f1d2c3b-8a4e-4f5d-9b6c-1e2f3a4b5c6d';

const aNote: AgentNoteV1 = {
  v: 1,
  agent: 'claude',
  session_id: sid,
  timestamp: '2026-03-02T09:31:51.000Z',
  model: null,
  interactions: [{ prompt: 'p', response: null }],
  files: [{ path: 'a.txt', by_ai: true }],
  attribution: { ai_ratio: 100, method: 'file' },
};

describe('gitHooks', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();

  let repo: TempRepo;
  let git: GitRunner;

  beforeEach(async () => {
    repo = await TempRepo.create({ initialFiles: { 'a.txt': 'a\n' } });
    git = repo.runner();
  });
  afterEach(async () => {
    await repo.remove();
  });

  /** Lays out `<agentnote>/session` and the session files by hand, as the CLI would. */
  async function journal(opts: {
    root?: string;
    heartbeatAgeSec?: number;
    heartbeat?: string;
    changes?: boolean;
    preBlobs?: boolean;
    prompts?: boolean;
    pointer?: string;
  }) {
    const root = opts.root ?? path.join(repo.dir, '.git', 'agentnote');
    const dir = path.join(root, 'sessions', sid);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(root, 'session'), opts.pointer ?? sid);
    if (opts.heartbeat !== undefined) await writeFile(path.join(dir, 'heartbeat'), opts.heartbeat);
    else if (opts.heartbeatAgeSec !== undefined)
      await writeFile(path.join(dir, 'heartbeat'), String(Date.now() - opts.heartbeatAgeSec * 1000));
    const line = '{"event":"x"}\n';
    if (opts.changes) await writeFile(path.join(dir, 'changes.jsonl'), line);
    if (opts.preBlobs) await writeFile(path.join(dir, 'pre_blobs.jsonl'), line);
    if (opts.prompts) await writeFile(path.join(dir, 'prompts.jsonl'), line);
    return root;
  }

  const commit = async (msg: string, extra: string[] = [], cwd?: string) => {
    await repo.git(['commit', '-q', '--allow-empty', '-m', msg, ...extra], { cwd });
    return repo.git(['log', '-1', '--format=%B'], { cwd });
  };
  const trailer = async (cwd?: string) =>
    (await repo.git(['log', '-1', '--format=%(trailers:key=Agentnote-Session,valueonly)'], { cwd })).trim();

  it('installs both hooks with the marker, idempotently, and reports their status', async () => {
    const initial = await hookStatus(git);
    assert.deepEqual(
      initial.hooks.map((h) => h.state),
      ['absent', 'absent'],
    );
    assert.equal(initial.inWorkTree, false);
    const r = await installHooks(git);
    assert.equal(r.hooksDir, path.join(repo.dir, '.git', 'hooks'));
    assert.deepEqual(r.results, { 'prepare-commit-msg': 'installed', 'pre-push': 'installed' });
    const hook = path.join(r.hooksDir, 'prepare-commit-msg');
    assert.equal(await readFile(hook, 'utf8'), prepareCommitMsgScript());
    assert.ok((await readFile(hook, 'utf8')).split('\n').includes(managedHookMarker));
    assert.equal((await stat(hook)).mode & 0o111, 0o111);
    assert.deepEqual((await installHooks(git)).results, { 'prepare-commit-msg': 'unchanged', 'pre-push': 'unchanged' });
    assert.deepEqual(
      (await hookStatus(git)).hooks.map((h) => [h.name, h.state, h.chained]),
      [
        ['prepare-commit-msg', 'managed', false],
        ['pre-push', 'managed', false],
      ],
    );
    // A newer version of our script replaces an older one.
    await writeFile(path.join(r.hooksDir, 'pre-push'), `#!/bin/sh\n${managedHookMarker}\nexit 0\n`);
    assert.equal((await hookStatus(git)).hooks[1].state, 'outdated');
    assert.deepEqual((await installHooks(git, { hooks: ['pre-push'] })).results, { 'pre-push': 'updated' });
  });

  describe('prepare-commit-msg', () => {
    beforeEach(async () => {
      await installHooks(git);
    });

    it('adds the trailer when the session has fresh file evidence', async () => {
      await journal({ heartbeatAgeSec: 60, changes: true });
      assert.equal(await commit('feat: agent work'), `feat: agent work\n\nAgentnote-Session: ${sid}\n\n`);
      assert.equal(await trailer(), sid);
      await journal({ heartbeatAgeSec: 60, preBlobs: true });
      await commit('pre-blob evidence is enough');
      assert.equal(await trailer(), sid);
    });

    it('adds nothing without file evidence, for a stale heartbeat, on amend, or when already present', async () => {
      const root = await journal({ heartbeatAgeSec: 60, prompts: true });
      await commit('prompts alone');
      assert.equal(await trailer(), '');

      await journal({ heartbeatAgeSec: 2 * 3600, changes: true });
      await commit('stale heartbeat');
      assert.equal(await trailer(), '');
      assert.equal(await readFile(path.join(root, 'post_commit_fallback'), 'utf8'), 'head\n');

      await journal({ heartbeatAgeSec: 60, changes: true });
      await commit('fresh again');
      assert.equal(existsSync(path.join(root, 'post_commit_fallback')), false, 'stale marker removed');
      assert.equal(await trailer(), sid);

      await writeFile(path.join(root, 'sessions', sid, 'changes.jsonl'), '');
      await commit('no evidence');
      assert.equal(await trailer(), '');
      await journal({ heartbeatAgeSec: 60, changes: true });
      await repo.git(['commit', '-q', '--amend', '--no-edit', '--allow-empty']);
      assert.equal(await trailer(), '', 'amend reusing the message ($2 = commit) adds nothing');
      assert.equal((await repo.git(['log', '-1', '--format=%s'])).trim(), 'no evidence');

      assert.equal(await commit(`already linked\n\nAgentnote-Session: other`), 'already linked\n\nAgentnote-Session: other\n\n');
    });

    it('never blocks a commit on odd journal contents', async () => {
      await journal({ heartbeat: 'not-a-number', changes: true });
      assert.equal(await commit('garbage heartbeat'), 'garbage heartbeat\n\n');
      await journal({ heartbeatAgeSec: 60, changes: true, pointer: '../escape' });
      assert.equal(await commit('bad pointer'), 'bad pointer\n\n');
      await journal({ heartbeatAgeSec: 60, changes: true, pointer: '' });
      assert.equal(await commit('empty pointer'), 'empty pointer\n\n');
    });

    it("uses the linked worktree's own journal", async () => {
      const wt = await repo.addWorktree('feature');
      const wtRoot = (await repo.git(['rev-parse', '--path-format=absolute', '--git-path', 'agentnote'], { cwd: wt })).trim();
      assert.ok(wtRoot.includes(`${path.sep}worktrees${path.sep}`));
      await journal({ root: wtRoot, heartbeatAgeSec: 60, changes: true });
      await commit('in the worktree', [], wt);
      assert.equal(await trailer(wt), sid);
      await commit('in the main checkout');
      assert.equal(await trailer(), '', 'the main checkout has no session');
    });
  });

  describe('chaining and removal', () => {
    const original = '#!/bin/sh\n# the team hook\nprintf "\\nSigned-off-by: Team <team@example.com>\\n" >> "$1"\n';

    it('runs an existing hook first, then ours; removal restores it byte for byte', async () => {
      const hooksDir = path.join(repo.dir, '.git', 'hooks');
      const hook = path.join(hooksDir, 'prepare-commit-msg');
      await writeFile(hook, original);
      await chmod(hook, 0o750);
      const r = await installHooks(git);
      assert.equal(r.results['prepare-commit-msg'], 'installed');
      assert.equal(await readFile(`${hook}.agentnote-backup`, 'utf8'), original);
      assert.equal((await hookStatus(git)).hooks[0].chained, true);
      await journal({ heartbeatAgeSec: 60, changes: true });
      assert.equal(await commit('both hooks'), `both hooks\n\nSigned-off-by: Team <team@example.com>\n\nAgentnote-Session: ${sid}\n\n`);
      assert.equal(await trailer(), sid);

      const removed = await removeHooks(git);
      assert.deepEqual(removed.results, { 'prepare-commit-msg': 'restored', 'pre-push': 'removed' });
      assert.equal(await readFile(hook, 'utf8'), original);
      assert.equal((await stat(hook)).mode & 0o777, 0o750);
      assert.equal(existsSync(`${hook}.agentnote-backup`), false);
      assert.equal(existsSync(path.join(hooksDir, 'pre-push')), false);
      assert.deepEqual((await removeHooks(git)).results, { 'prepare-commit-msg': 'notManaged', 'pre-push': 'absent' });
    });

    it("propagates a failing original hook's exit status", async () => {
      const hook = path.join(repo.dir, '.git', 'hooks', 'prepare-commit-msg');
      await writeFile(hook, '#!/bin/sh\necho "team policy says no" >&2\nexit 3\n', { mode: 0o755 });
      await installHooks(git);
      const r = await repo.gitResult(['commit', '-q', '--allow-empty', '-m', 'refused']);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /team policy says no/);
    });

    it('leaves hooks of the Agent Note CLI alone', async () => {
      const hook = path.join(repo.dir, '.git', 'hooks', 'pre-push');
      const cli = '#!/bin/sh\n# agentnote-managed\necho cli\n';
      await writeFile(hook, cli, { mode: 0o755 });
      const r = await installHooks(git);
      assert.equal(r.results['pre-push'], 'skippedCli');
      assert.equal(await readFile(hook, 'utf8'), cli);
      assert.equal((await removeHooks(git)).results['pre-push'], 'notManaged');
      assert.equal(await readFile(hook, 'utf8'), cli);
    });

    it('respects a relative and an absolute core.hooksPath', async () => {
      await repo.git(['config', 'core.hooksPath', 'team-hooks']);
      const rel = await installHooks(git);
      assert.equal(rel.hooksDir, path.join(repo.dir, 'team-hooks'));
      assert.ok(existsSync(path.join(repo.dir, 'team-hooks', 'prepare-commit-msg')));
      assert.equal(existsSync(path.join(repo.dir, '.git', 'hooks', 'prepare-commit-msg')), false);
      await journal({ heartbeatAgeSec: 60, changes: true });
      await commit('through hooksPath');
      assert.equal(await trailer(), sid);
      // Resolved from a subdirectory too.
      await mkdir(path.join(repo.dir, 'sub'), { recursive: true });
      const fromSub = await hookStatus(new GitRunner(path.join(repo.dir, 'sub')));
      assert.equal(fromSub.hooksDir, path.join(repo.dir, 'team-hooks'));
      assert.equal(fromSub.inWorkTree, true, 'worth a warning: these may be tracked files');

      const abs = path.join(repo.dir, '..', 'abs-hooks');
      await repo.git(['config', 'core.hooksPath', abs]);
      assert.equal((await installHooks(git)).hooksDir, abs);
      assert.equal((await hookStatus(git)).inWorkTree, false);
      assert.ok(existsSync(path.join(abs, 'pre-push')));
    });
  });

  describe('pre-push', () => {
    let remote: TempRepo;
    beforeEach(async () => {
      remote = await TempRepo.create({ bare: true });
      await repo.git(['remote', 'add', 'origin', remote.dir]);
    });
    afterEach(async () => {
      await remote.remove();
    });

    it('pushes the notes ref with the branch, after a chained hook that sees the same stdin', async () => {
      const hook = path.join(repo.dir, '.git', 'hooks', 'pre-push');
      const seen = path.join(repo.dir, '..', 'pre-push-stdin.txt');
      await writeFile(hook, `#!/bin/sh\necho "$1 $2" > '${seen}'\ncat >> '${seen}'\n`, { mode: 0o755 });
      await installHooks(git);
      await new NoteStore(git).write('HEAD', aNote);
      const head = await repo.head();
      const r = await repo.gitResult(['push', '-q', 'origin', 'main']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        (await remote.git(['rev-parse', 'refs/notes/agentnote'])).trim(),
        (await repo.git(['rev-parse', 'refs/notes/agentnote'])).trim(),
      );
      assert.equal(
        await readFile(seen, 'utf8'),
        `origin ${remote.dir}\nrefs/heads/main ${head} refs/heads/main 0000000000000000000000000000000000000000\n`,
      );
    });

    it('leaves a push of the notes ref itself alone', async () => {
      await installHooks(git);
      await new NoteStore(git).write('HEAD', aNote);
      const r = await repo.gitResult(['push', 'origin', 'refs/notes/agentnote']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        (await remote.git(['rev-parse', 'refs/notes/agentnote'])).trim(),
        (await repo.git(['rev-parse', 'refs/notes/agentnote'])).trim(),
      );
      assert.equal((await remote.gitResult(['rev-parse', '-q', '--verify', 'refs/heads/main'])).code, 1, 'only what the user pushed');
    });

    it('does not recurse, and never fails the push when the notes push fails', async () => {
      await installHooks(git);
      await new NoteStore(git).write('HEAD', aNote);
      // The guard: a push made by Agent Note itself does not push notes again.
      await repo.git(['push', '-q', 'origin', 'main'], { env: { AGENTNOTE_PUSHING: '1' } });
      assert.equal((await remote.gitResult(['rev-parse', '-q', '--verify', 'refs/notes/agentnote'])).code, 1);
      // The remote has unrelated notes history: the notes push is rejected, the branch push is not.
      const other = await TempRepo.clone(remote.dir);
      try {
        await new NoteStore(other.runner()).write('HEAD', { ...aNote, session_id: 'other' });
        await other.git(['push', '-q', 'origin', 'refs/notes/agentnote']);
      } finally {
        await other.remove();
      }
      await repo.commit({ 'b.txt': 'b\n' }, 'more');
      const r = await repo.gitResult(['push', '-q', 'origin', 'main']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await remote.git(['rev-parse', 'main'])).trim(), await repo.head());
      assert.notEqual(
        (await remote.git(['rev-parse', 'refs/notes/agentnote'])).trim(),
        (await repo.git(['rev-parse', 'refs/notes/agentnote'])).trim(),
      );
    });
  });
});
