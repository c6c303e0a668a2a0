import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, readlink, rename, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { encodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import {
  clientHookNames,
  hookBackupSuffix,
  hookOwner,
  hookStatus,
  installHooks,
  managedHookMarker,
  prePushScript,
  prepareCommitMsgScript,
  removeHooks,
  resolveHooksLayout,
  setHookPushEnabled,
} from '../../../src/node/hooks/gitHooks';
import type { GitRunner } from '../../../src/node/git/gitRunner';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { noteLines, objectsContaining } from '../../helpers/sharingFixture';
import { git, isolatedHome, projectRoot, TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

const legacyPrePush = readFileSync(path.join(projectRoot(), 'test', 'fixtures', 'hooks', 'pre-push-0.1.0.sh'), 'utf8');

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
      ['absent', 'absent', 'absent'],
    );
    assert.equal(initial.inWorkTree, false);
    const r = await installHooks(git);
    assert.equal(r.hooksDir, path.join(repo.dir, '.git', 'hooks'));
    assert.equal(r.layout, 'default');
    assert.deepEqual(r.results, { 'prepare-commit-msg': 'installed', 'pre-push': 'installed', 'post-rewrite': 'installed' });
    const hook = path.join(r.hooksDir, 'prepare-commit-msg');
    assert.equal(await readFile(hook, 'utf8'), prepareCommitMsgScript());
    assert.ok((await readFile(hook, 'utf8')).split('\n').includes(managedHookMarker));
    assert.equal((await stat(hook)).mode & 0o111, 0o111);
    assert.deepEqual((await installHooks(git)).results, {
      'prepare-commit-msg': 'unchanged',
      'pre-push': 'unchanged',
      'post-rewrite': 'unchanged',
    });
    assert.deepEqual(
      (await hookStatus(git)).hooks.map((h) => [h.name, h.state, h.chained]),
      [
        ['prepare-commit-msg', 'managed', false],
        ['pre-push', 'managed', false],
        ['post-rewrite', 'managed', false],
      ],
    );
  });

  it('updates a hook of an earlier version, but never a hook that only contains our marker text', async () => {
    const dir = path.join(repo.dir, '.git', 'hooks');
    // byte for byte what the 0.1.0 development builds wrote
    await writeFile(path.join(dir, 'pre-push'), legacyPrePush, { mode: 0o755 });
    assert.equal((await hookStatus(git)).hooks[1].state, 'outdated');
    assert.deepEqual((await installHooks(git, { hooks: ['pre-push'] })).results, { 'pre-push': 'updated' });
    assert.equal(await readFile(path.join(dir, 'pre-push'), 'utf8'), prePushScript());

    // a user's hook that copied our marker (or a checksum line that does not match) is theirs
    const mine = `#!/bin/sh\n${managedHookMarker}\n# my own variant\necho mine >> "$1"\n`;
    await writeFile(path.join(dir, 'prepare-commit-msg'), mine, { mode: 0o755 });
    const tampered = prePushScript().replace('exit 0\n', 'echo tampered\nexit 0\n');
    await writeFile(path.join(dir, 'pre-push'), tampered, { mode: 0o755 });
    assert.equal(hookOwner(mine), 'other');
    assert.equal(hookOwner(tampered), 'other');
    const r = await installHooks(git);
    assert.deepEqual(r.results, { 'prepare-commit-msg': 'chained', 'pre-push': 'chained', 'post-rewrite': 'installed' });
    assert.equal(await readFile(path.join(dir, `prepare-commit-msg${hookBackupSuffix}`), 'utf8'), mine, 'kept, and run first');
    assert.equal(await readFile(path.join(dir, `pre-push${hookBackupSuffix}`), 'utf8'), tampered);
    await removeHooks(git);
    assert.equal(await readFile(path.join(dir, 'prepare-commit-msg'), 'utf8'), mine);
    assert.equal(await readFile(path.join(dir, 'pre-push'), 'utf8'), tampered);
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

  describe('next to other hooks (no core.hooksPath)', () => {
    const original = '#!/bin/sh\n# the team hook\nprintf "\\nSigned-off-by: Team <team@example.com>\\n" >> "$1"\n';

    it('runs an existing hook first, then ours; removal restores it byte for byte', async () => {
      const hooksDir = path.join(repo.dir, '.git', 'hooks');
      const hook = path.join(hooksDir, 'prepare-commit-msg');
      await writeFile(hook, original);
      await chmod(hook, 0o750);
      const r = await installHooks(git);
      assert.equal(r.results['prepare-commit-msg'], 'chained');
      assert.deepEqual(
        r.notes.map((n) => n.kind),
        ['chainedExisting'],
      );
      assert.equal(await readFile(`${hook}.agentnote-backup`, 'utf8'), original);
      assert.equal((await hookStatus(git)).hooks[0].chained, true);
      await journal({ heartbeatAgeSec: 60, changes: true });
      assert.equal(await commit('both hooks'), `both hooks\n\nSigned-off-by: Team <team@example.com>\n\nAgentnote-Session: ${sid}\n\n`);

      const removed = await removeHooks(git);
      assert.deepEqual(removed.results, { 'prepare-commit-msg': 'restored', 'pre-push': 'removed', 'post-rewrite': 'removed' });
      assert.equal(await readFile(hook, 'utf8'), original);
      assert.equal((await stat(hook)).mode & 0o777, 0o750);
      assert.equal(existsSync(`${hook}.agentnote-backup`), false);
      assert.equal(existsSync(path.join(hooksDir, 'pre-push')), false);
      assert.deepEqual((await removeHooks(git)).results, {
        'prepare-commit-msg': 'notManaged',
        'pre-push': 'absent',
        'post-rewrite': 'absent',
      });
    });

    it("propagates a failing chained hook's exit status", async () => {
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

    it('changes nothing where it cannot chain safely, and says why', async () => {
      const dir = path.join(repo.dir, '.git', 'hooks');
      await mkdir(path.join(dir, 'pre-push'), { recursive: true }); // a directory where the hook should be
      await writeFile(path.join(dir, 'prepare-commit-msg'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      await writeFile(path.join(dir, `prepare-commit-msg${hookBackupSuffix}`), '#!/bin/sh\necho older\n', { mode: 0o755 });
      const before = await snapshot(dir);
      const r = await installHooks(git);
      // each hook on its own: the one with nothing in its way is installed
      assert.deepEqual(r.results, { 'prepare-commit-msg': 'conflict', 'pre-push': 'conflict', 'post-rewrite': 'installed' });
      assert.deepEqual(r.notes.map((n) => n.kind).sort(), ['backupTaken', 'notRegularFile']);
      assert.deepEqual(await snapshot(dir, ['post-rewrite']), before);
    });

    it('pre-commit: ours becomes <hook>.legacy, which pre-commit runs, keeps across its reinstall and hands back on uninstall', async () => {
      const dir = path.join(repo.dir, '.git', 'hooks');
      const log = path.join(repo.dir, '..', 'pre-commit.log');
      const preCommitHook = fakePreCommitHook('prepare-commit-msg', log);
      await writeFile(path.join(dir, 'prepare-commit-msg'), preCommitHook, { mode: 0o755 });
      const r = await installHooks(git);
      assert.equal(r.results['prepare-commit-msg'], 'chained');
      assert.equal(await readFile(path.join(dir, 'prepare-commit-msg'), 'utf8'), preCommitHook, "pre-commit's hook untouched");
      assert.equal(await readFile(path.join(dir, 'prepare-commit-msg.legacy'), 'utf8'), prepareCommitMsgScript());
      assert.equal((await hookStatus(git)).hooks[0].state, 'chained');
      await journal({ heartbeatAgeSec: 60, changes: true });
      assert.equal(await commit('through pre-commit'), `through pre-commit\n\nAgentnote-Session: ${sid}\n\n`);
      assert.equal(await readFile(log, 'utf8'), 'pre-commit ran prepare-commit-msg\n');
      // `pre-commit install` again: its hook is its own, .legacy stays
      assert.deepEqual((await installHooks(git)).results, {
        'prepare-commit-msg': 'unchanged',
        'pre-push': 'unchanged',
        'post-rewrite': 'unchanged',
      });
      // removal: ours leaves .legacy; pre-commit's hook stays
      const removed = await removeHooks(git);
      assert.equal(removed.results['prepare-commit-msg'], 'removed');
      assert.equal(existsSync(path.join(dir, 'prepare-commit-msg.legacy')), false);
      assert.equal(await readFile(path.join(dir, 'prepare-commit-msg'), 'utf8'), preCommitHook);
      // installed again, then `pre-commit uninstall` (it moves <hook>.legacy back to <hook>): ours is the hook
      await installHooks(git);
      await rename(path.join(dir, 'prepare-commit-msg.legacy'), path.join(dir, 'prepare-commit-msg'));
      assert.equal((await hookStatus(git)).hooks[0].state, 'managed');
      await journal({ heartbeatAgeSec: 60, changes: true });
      assert.equal(await commit('after pre-commit uninstall'), `after pre-commit uninstall\n\nAgentnote-Session: ${sid}\n\n`);
    });

    it("pre-commit with a user's .legacy hook already: both keep running, removal restores it", async () => {
      const dir = path.join(repo.dir, '.git', 'hooks');
      const log = path.join(repo.dir, '..', 'pre-commit.log');
      await writeFile(path.join(dir, 'prepare-commit-msg'), fakePreCommitHook('prepare-commit-msg', log), { mode: 0o755 });
      await writeFile(path.join(dir, 'prepare-commit-msg.legacy'), original, { mode: 0o755 });
      assert.equal((await installHooks(git)).results['prepare-commit-msg'], 'chained');
      await journal({ heartbeatAgeSec: 60, changes: true });
      assert.equal(await commit('three hooks'), `three hooks\n\nSigned-off-by: Team <team@example.com>\n\nAgentnote-Session: ${sid}\n\n`);
      await removeHooks(git);
      assert.equal(await readFile(path.join(dir, 'prepare-commit-msg.legacy'), 'utf8'), original);
      assert.equal(existsSync(path.join(dir, `prepare-commit-msg${hookBackupSuffix}`)), false);
    });

    it('lefthook: its hook runs first with the same stdin; after `lefthook install` took the name back, install repairs the chain', async () => {
      const dir = path.join(repo.dir, '.git', 'hooks');
      const log = path.join(repo.dir, '..', 'lefthook.log');
      const bin = await fakeLefthookBin(log);
      const lefthookPrePush = fakeLefthookHook('pre-push');
      await writeFile(path.join(dir, 'pre-push'), lefthookPrePush, { mode: 0o755 });
      assert.equal(hookOwner(lefthookPrePush), 'lefthook');
      const r = await installHooks(git);
      assert.equal(r.results['pre-push'], 'chained');
      assert.equal(r.notes[0].value, 'lefthook');
      const remote = await TempRepo.create({ bare: true });
      try {
        await repo.git(['remote', 'add', 'origin', remote.dir]);
        const head = await repo.head();
        assert.equal((await repo.gitResult(['push', '-q', 'origin', 'main'], { env: { LEFTHOOK_BIN: bin } })).code, 0);
        assert.equal(
          await readFile(log, 'utf8'),
          `lefthook run pre-push origin ${remote.dir}\nrefs/heads/main ${head} refs/heads/main ${'0'.repeat(40)}\n`,
        );
      } finally {
        await remote.remove();
      }
      // `lefthook install` (faithfully: ours is not a lefthook file, so it is renamed to .old)
      await rename(path.join(dir, 'pre-push'), path.join(dir, 'pre-push.old'));
      await writeFile(path.join(dir, 'pre-push'), lefthookPrePush, { mode: 0o755 });
      assert.equal((await hookStatus(git)).hooks[1].state, 'foreign');
      assert.equal((await installHooks(git)).results['pre-push'], 'chained', 'the stale backup is the same bytes: chained again');
      assert.equal(existsSync(path.join(dir, 'pre-push.old')), false);
      assert.equal(await readFile(path.join(dir, `pre-push${hookBackupSuffix}`), 'utf8'), lefthookPrePush);
      assert.equal((await removeHooks(git)).results['pre-push'], 'restored');
      assert.equal(await readFile(path.join(dir, 'pre-push'), 'utf8'), lefthookPrePush);
    });
  });

  describe('with core.hooksPath (husky v9, a team directory, an absolute directory)', () => {
    it('husky v9: nothing in the work tree is written or renamed, every husky hook keeps running, removal restores core.hooksPath', async () => {
      const log = path.join(repo.dir, '..', 'husky.log');
      await fakeHusky(repo.dir, log);
      await repo.git(['add', '-A']);
      await repo.git(['commit', '-q', '--no-verify', '-m', 'husky set up']);
      await writeFile(log, '');
      const tree = await snapshot(repo.dir, ['.git']);
      const status = await repo.git(['status', '--porcelain', '--ignored']);
      assert.equal((await resolveHooksLayout(git)).kind, 'configured');
      assert.deepEqual(await resolveHooksLayout(git), {
        kind: 'configured',
        hooksDir: path.join(repo.dir, '.husky', '_'),
        configured: '.husky/_',
        tool: 'husky',
        inWorkTree: true,
      });

      const r = await installHooks(git);
      const own = path.join(repo.dir, '.git', 'agentnote', 'vscode', 'hooks');
      assert.deepEqual(r.results, { 'prepare-commit-msg': 'chained', 'pre-push': 'chained', 'post-rewrite': 'chained' });
      assert.equal(r.hooksDir, own);
      assert.deepEqual(
        r.notes.map((n) => [n.kind, n.value]),
        [['hooksPathOverride', '.husky/_']],
      );
      assert.equal((await repo.git(['config', '--local', 'core.hooksPath'])).trim(), own);
      assert.deepEqual(await snapshot(repo.dir, ['.git']), tree, 'no file of the work tree changed');
      assert.equal(await repo.git(['status', '--porcelain', '--ignored']), status);
      assert.deepEqual(
        (await hookStatus(git)).hooks.map((h) => h.state),
        ['chained', 'chained', 'chained'],
      );

      // husky's hooks (pre-commit, commit-msg, prepare-commit-msg) and ours all run
      await journal({ heartbeatAgeSec: 60, changes: true });
      await mkdir(path.join(repo.dir, 'sub'), { recursive: true });
      await repo.git(['commit', '-q', '--allow-empty', '-m', 'with husky'], { cwd: 'sub' });
      assert.equal(await trailer(), sid);
      assert.equal(await readFile(log, 'utf8'), 'husky pre-commit\nhusky prepare-commit-msg message\nhusky commit-msg\n');
      assert.deepEqual((await installHooks(git)).results, {
        'prepare-commit-msg': 'unchanged',
        'pre-push': 'unchanged',
        'post-rewrite': 'unchanged',
      });

      const removed = await removeHooks(git);
      assert.deepEqual(removed.results, { 'prepare-commit-msg': 'restored', 'pre-push': 'restored', 'post-rewrite': 'restored' });
      assert.equal((await repo.git(['config', '--local', 'core.hooksPath'])).trim(), '.husky/_');
      assert.equal(existsSync(own), false);
      assert.deepEqual(await snapshot(repo.dir, ['.git']), tree);
    });

    it('husky pointing core.hooksPath back (npm install) simply turns ours off; removal cleans up', async () => {
      await fakeHusky(repo.dir, path.join(repo.dir, '..', 'husky.log'));
      await installHooks(git);
      await repo.git(['config', 'core.hooksPath', '.husky/_']); // what `husky` does on every install
      assert.deepEqual(
        (await hookStatus(git)).hooks.map((h) => [h.state, h.owner]),
        [
          ['foreign', 'husky'],
          ['foreign', 'husky'],
          ['foreign', 'husky'],
        ],
      );
      const r = await removeHooks(git);
      assert.deepEqual(
        r.notes.map((n) => n.kind),
        ['staleOwnDirRemoved'],
      );
      assert.equal((await repo.git(['config', 'core.hooksPath'])).trim(), '.husky/_');
    });

    it('a team directory in the work tree and an absolute one outside: chained, never written', async () => {
      const team = path.join(repo.dir, '.githooks');
      await mkdir(team, { recursive: true });
      const log = path.join(repo.dir, '..', 'team.log');
      await writeFile(path.join(team, 'pre-commit'), `#!/bin/sh\necho "team pre-commit $PWD" >> '${log}'\n`, { mode: 0o755 });
      await writeFile(path.join(team, 'prepare-commit-msg'), `#!/bin/sh\necho "team prepare-commit-msg $1" >> '${log}'\n`, { mode: 0o755 });
      await writeFile(path.join(team, 'post-index-change'), `#!/bin/sh\necho "team post-index-change" >> '${log}'\n`, { mode: 0o755 });
      await repo.git(['config', 'core.hooksPath', '.githooks']);
      const before = await snapshot(team);
      await installHooks(git);
      const own = path.join(repo.dir, '.git', 'agentnote', 'vscode', 'hooks');
      assert.ok(existsSync(path.join(own, 'post-index-change')), 'a hook the directory has beyond the client set is passed through');
      assert.equal(existsSync(path.join(own, 'reference-transaction')), false, 'hooks it does not have are not invented');
      await journal({ heartbeatAgeSec: 60, changes: true });
      await repo.write('team.txt', 'x\n');
      await repo.git(['add', 'team.txt']); // writes the index: post-index-change runs
      await commit('team hooks');
      assert.equal(await trailer(), sid);
      const logged = await readFile(log, 'utf8');
      assert.ok(
        logged.includes(`team pre-commit ${repo.dir}\n`),
        'relative core.hooksPath resolves from the work-tree root, as git runs it',
      );
      assert.ok(logged.includes('team prepare-commit-msg .git/COMMIT_EDITMSG\n'));
      assert.ok(logged.includes('team post-index-change\n'));
      assert.deepEqual(await snapshot(team), before);
      await removeHooks(git);
      assert.equal((await repo.git(['config', 'core.hooksPath'])).trim(), '.githooks');

      // absolute, outside the repository (e.g. set globally for every repository): never written either
      const abs = path.join(repo.dir, '..', 'abs-hooks');
      await mkdir(abs, { recursive: true });
      await writeFile(path.join(abs, 'pre-push'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      await repo.git(['config', '--unset', 'core.hooksPath']);
      await writeFile(path.join(isolatedHome(), '.gitconfig'), `[core]\n\thooksPath = ${abs}\n`);
      try {
        const absBefore = await snapshot(abs);
        const r = await installHooks(git);
        assert.equal(r.hooksDir, own);
        assert.deepEqual(await snapshot(abs), absBefore);
        assert.equal((await repo.git(['config', '--local', 'core.hooksPath'])).trim(), own, 'only this repository is affected');
        await removeHooks(git);
        assert.equal((await repo.gitResult(['config', '--local', 'core.hooksPath'])).code, 1, 'unset again');
        assert.equal((await repo.git(['config', 'core.hooksPath'])).trim(), abs);
      } finally {
        await writeFile(path.join(isolatedHome(), '.gitconfig'), '');
      }
    });

    it('a .git/hooks that links to a folder of the work tree is treated like core.hooksPath: never written', async () => {
      const team = path.join(repo.dir, 'tools', 'hooks');
      await mkdir(team, { recursive: true });
      await writeFile(path.join(team, 'pre-push'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      await rm(path.join(repo.dir, '.git', 'hooks'), { recursive: true, force: true });
      await symlink(team, path.join(repo.dir, '.git', 'hooks'));
      const before = await snapshot(team);
      const r = await installHooks(git);
      assert.equal(r.layout, 'configured');
      assert.deepEqual(await snapshot(team), before);
      await journal({ heartbeatAgeSec: 60, changes: true });
      await commit('linked hooks');
      assert.equal(await trailer(), sid);
      await removeHooks(git);
      assert.equal((await repo.gitResult(['config', '--local', 'core.hooksPath'])).code, 1);
      assert.deepEqual(await snapshot(team), before);
    });

    it('our directory without its record: says so and changes nothing', async () => {
      await repo.git(['config', 'core.hooksPath', '.githooks']);
      await installHooks(git);
      const own = path.join(repo.dir, '.git', 'agentnote', 'vscode', 'hooks');
      await unlink(path.join(own, 'chain.json'));
      const before = await snapshot(own);
      const r = await installHooks(git);
      assert.deepEqual(r.results, { 'prepare-commit-msg': 'conflict', 'pre-push': 'conflict', 'post-rewrite': 'conflict' });
      assert.deepEqual(
        r.notes.map((n) => n.kind),
        ['missingRecord'],
      );
      assert.equal((await removeHooks(git)).notes[0].kind, 'missingRecord');
      assert.deepEqual(await snapshot(own), before);
      assert.equal((await repo.git(['config', 'core.hooksPath'])).trim(), own);
    });
  });

  describe('post-rewrite: the queue of rebased commits', () => {
    const queue = () => path.join(repo.dir, '.git', 'agentnote', 'rewritten');
    const sha = async (rev: string) => (await repo.git(['rev-parse', rev])).trim();

    it('queues the old → new pairs of an amend and a rebase, after a chained hook that sees the same stdin', async () => {
      const hooksDir = path.join(repo.dir, '.git', 'hooks');
      const seen = path.join(repo.dir, '..', 'post-rewrite.log');
      await writeFile(path.join(hooksDir, 'post-rewrite'), `#!/bin/sh\n{ echo "arg $1"; cat; } >> '${seen}'\n`, { mode: 0o755 });
      assert.equal((await installHooks(git)).results['post-rewrite'], 'chained');
      await mkdir(path.join(repo.dir, '.git', 'agentnote'), { recursive: true });
      await repo.git(['commit', '-q', '--allow-empty', '-m', 'one']);
      const one = await sha('HEAD');
      await repo.git(['commit', '-q', '--amend', '--allow-empty', '-m', 'one, amended']);
      const amended = await sha('HEAD');
      await repo.git(['commit', '-q', '--allow-empty', '-m', 'two']);
      const two = await sha('HEAD');
      await repo.git(['rebase', '-q', '--force-rebase', 'HEAD~2']);
      const [r1, r2] = [await sha('HEAD~1'), await sha('HEAD')];
      assert.equal(await readFile(queue(), 'utf8'), `amend ${one} ${amended}\nrebase ${amended} ${r1}\nrebase ${two} ${r2}\n`);
      // the chained hook got git's argument and git's exact stdin
      assert.equal(await readFile(seen, 'utf8'), `arg amend\n${one} ${amended}\narg rebase\n${amended} ${r1}\n${two} ${r2}\n`);
      assert.equal((await stat(queue())).mode & 0o077, 0, 'the queue is private');
    });

    it('writes nothing where the extension keeps no journal, and never fails the rewrite', async () => {
      await installHooks(git);
      await repo.git(['commit', '-q', '--allow-empty', '-m', 'one']);
      await repo.git(['commit', '-q', '--amend', '--allow-empty', '-m', 'amended']);
      assert.equal(existsSync(path.join(repo.dir, '.git', 'agentnote')), false);
      // a queue that cannot be written (a directory in its place): the amend still succeeds
      await mkdir(queue(), { recursive: true });
      const r = await repo.gitResult(['commit', '-q', '--amend', '--allow-empty', '-m', 'again']);
      assert.equal(r.code, 0);
      assert.equal(r.stderr, '');
    });
  });

  describe('pre-push: notes of what the push put on the remote, after it finished', () => {
    let remote: TempRepo;
    beforeEach(async () => {
      remote = await TempRepo.create({ bare: true });
      await repo.git(['remote', 'add', 'origin', remote.dir]);
      await repo.git(['push', '-q', 'origin', 'main']);
    });
    afterEach(async () => {
      await remote.remove();
    });

    const remoteNotes = () => noteLines(remote);
    const until = async (what: () => Promise<boolean>, ms = 15_000) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (await what()) return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    };

    it('shares the pushed commits’ notes on top of the remote’s, never a local-only branch’s; the chained hook sees the same stdin', async () => {
      const hook = path.join(repo.dir, '.git', 'hooks', 'pre-push');
      const seen = path.join(repo.dir, '..', 'pre-push-stdin.txt');
      await writeFile(hook, `#!/bin/sh\necho "$1 $2" > '${seen}'\ncat >> '${seen}'\n`, { mode: 0o755 });
      await installHooks(git);
      const store = new NoteStore(git);
      const m1 = await repo.commit({ 'm.txt': 'm\n' }, 'main work');
      await store.write(m1, aNote);
      await repo.git(['checkout', '-q', '-b', 'local-only']);
      const secret = await repo.commit({ 's.txt': 's\n' }, 'local work');
      await store.write(secret, { ...aNote, interactions: [{ prompt: 'HOOK-LOCAL-ONLY-TOKEN', response: null }] });
      await repo.git(['checkout', '-q', 'main']);

      const r = await repo.gitResult(['push', '-q', 'origin', 'main']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        await readFile(seen, 'utf8'),
        `origin ${remote.dir}\nrefs/heads/main ${m1} refs/heads/main ${await repo.head('HEAD~1')}\n`,
      );
      assert.ok(await until(async () => (await remoteNotes()).length === 1), 'the note arrives within seconds');
      assert.deepEqual(await remoteNotes(), [`${m1}\t${encodeNote(aNote)}`]);
      assert.deepEqual(await objectsContaining(remote, '--all', 'HOOK-LOCAL-ONLY-TOKEN'), []);
      assert.equal((await remote.git(['log', '--format=%P', 'refs/notes/agentnote'])).trim(), '', 'not our local notes history');

      await repo.git(['push', '-q', 'origin', 'local-only']);
      assert.ok(await until(async () => (await remoteNotes()).length === 2));
      const history = (await remote.git(['log', '--format=%H %P', 'refs/notes/agentnote'])).trim().split('\n');
      assert.equal(history.length, 2);
      assert.ok(
        history.every((l) => l.split(' ').filter(Boolean).length <= 2),
        'a line of the remote’s own notes commits',
      );
    });

    it('does nothing for our own notes pushes, delete-only pushes, or with agentNote.sharing.push = off', async () => {
      await installHooks(git);
      const m1 = await repo.commit({ 'm.txt': 'm\n' }, 'main work');
      await new NoteStore(git).write(m1, aNote);
      await repo.git(['push', '-q', 'origin', 'main'], { env: { AGENTNOTE_PUSHING: '1' } });
      await repo.git(['push', '-q', 'origin', 'main:tmp']);
      await setHookPushEnabled(path.join(repo.dir, '.git'), false);
      await repo.commit({ 'm.txt': 'm2\n' }, 'more');
      await repo.git(['push', '-q', 'origin', 'main']);
      await setHookPushEnabled(path.join(repo.dir, '.git'), true);
      await repo.git(['push', '-q', 'origin', '--delete', 'tmp']);
      await new Promise((r) => setTimeout(r, 3000));
      // the push to tmp did share (it was a real push); the others did not
      const lines = await remoteNotes();
      assert.equal(lines.length, 1);
      const shares = (await remote.git(['rev-list', '--count', 'refs/notes/agentnote'])).trim();
      assert.equal(shares, '1');
    });

    it('never fails or delays the push, also when the notes push fails', async () => {
      await installHooks(git);
      await new NoteStore(git).write('HEAD', aNote);
      await writeFile(
        path.join(remote.dir, 'hooks', 'pre-receive'),
        '#!/bin/sh\nwhile read o n r; do case "$r" in refs/notes/*) exit 1;; esac; done\nexit 0\n',
        { mode: 0o755 },
      );
      const m2 = await repo.commit({ 'b.txt': 'b\n' }, 'more');
      const t0 = Date.now();
      const r = await repo.gitResult(['push', '-q', 'origin', 'main']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(Date.now() - t0 < 5000);
      assert.equal((await remote.git(['rev-parse', 'main'])).trim(), m2);
      await new Promise((res) => setTimeout(res, 2500));
      assert.equal((await remote.gitResult(['rev-parse', '-q', '--verify', 'refs/notes/agentnote'])).code, 1);
    });
  });
});

/** Every file under `dir` (relative path → mode and sha256), leaving out `skip` at the top level. */
async function snapshot(dir: string, skip: string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (skip.includes(rel)) continue;
      if (e.isDirectory()) await walk(p);
      else {
        const st = await lstat(p);
        const body = e.isSymbolicLink() ? await readlink(p) : await readFile(p);
        out[rel] = `${(st.mode & 0o777).toString(8)} ${createHash('sha256').update(body).digest('hex')}`;
      }
    }
  };
  await walk(dir);
  return out;
}

/**
 * husky v9's layout, faithfully: `core.hooksPath=.husky/_`; `.husky/_/h` runs `.husky/<hook>` with
 * `sh -e` when it exists; every client hook in `.husky/_` sources `h`; `.husky/_/.gitignore` is `*`.
 * The user's scripts `.husky/pre-commit`, `.husky/prepare-commit-msg`, `.husky/commit-msg` log.
 */
async function fakeHusky(root: string, log: string): Promise<void> {
  const d = path.join(root, '.husky', '_');
  await mkdir(d, { recursive: true });
  await writeFile(path.join(d, '.gitignore'), '*');
  await writeFile(
    path.join(d, 'h'),
    [
      '#!/usr/bin/env sh',
      'n=$(basename "$0")',
      's=$(dirname "$(dirname "$0")")/$n',
      '[ ! -f "$s" ] && exit 0',
      '[ "${HUSKY-}" = "0" ] && exit 0',
      'sh -e "$s" "$@"',
      'c=$?',
      '[ $c != 0 ] && echo "husky - $n script failed (code $c)"',
      'exit $c',
      '',
    ].join('\n'),
  );
  for (const h of clientHookNames) await writeFile(path.join(d, h), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"', { mode: 0o755 });
  await writeFile(path.join(root, '.husky', 'pre-commit'), `echo "husky pre-commit" >> '${log}'\n`);
  await writeFile(path.join(root, '.husky', 'prepare-commit-msg'), `echo "husky prepare-commit-msg $2" >> '${log}'\n`);
  await writeFile(path.join(root, '.husky', 'commit-msg'), `echo "husky commit-msg" >> '${log}'\n`);
  await git(root, ['config', 'core.hooksPath', '.husky/_']);
}

/** pre-commit's generated hook, faithfully in what matters here: its header, and it runs `<hook>.legacy` (pre-push: with stdin) under PRE_COMMIT_RUNNING_LEGACY=1. */
function fakePreCommitHook(type: string, log: string): string {
  return `#!/usr/bin/env bash
# File generated by pre-commit: https://pre-commit.com
# ID: 138fd403232d2ddd5efb44317e38bf03
HERE="$(cd "$(dirname "$0")" && pwd)"
if [ -n "$PRE_COMMIT_RUNNING_LEGACY" ]; then echo "bug: migration mode" >&2; exit 1; fi
if [ -x "$HERE/${type}.legacy" ]; then
  PRE_COMMIT_RUNNING_LEGACY=1 "$HERE/${type}.legacy" "$@" || exit $?
fi
echo "pre-commit ran ${type}" >> '${log}'
`;
}

/** lefthook's generated hook, in what matters here: the LEFTHOOK switch, `$LEFTHOOK_BIN run <hook> "$@"` with stdin. */
function fakeLefthookHook(hook: string): string {
  return `#!/bin/sh

if [ "$LEFTHOOK_VERBOSE" = "1" -o "$LEFTHOOK_VERBOSE" = "true" ]; then
  set -x
fi

if [ "$LEFTHOOK" = "0" ]; then
  exit 0
fi

call_lefthook()
{
  if test -n "$LEFTHOOK_BIN"
  then
    "$LEFTHOOK_BIN" "$@"
  elif lefthook -h >/dev/null 2>&1
  then
    lefthook "$@"
  fi
}

call_lefthook run "${hook}" "$@"
`;
}

async function fakeLefthookBin(log: string): Promise<string> {
  const bin = path.join(path.dirname(log), 'fake-lefthook');
  await writeFile(bin, `#!/bin/sh\necho "lefthook $*" >> '${log}'\ncat >> '${log}'\n`, { mode: 0o755 });
  return bin;
}
