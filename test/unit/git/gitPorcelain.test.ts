import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Counters } from '../../../src/core/ports';
import { GitError, GitRunner, resetNiceProbe } from '../../../src/node/git/gitRunner';
import { isPorcelainCommand, runPorcelain, unsafeFlagsForEnv } from '../../../src/node/git/gitPorcelain';

/**
 * One-shot git commands go through simple-git (#16): same results, exit codes, errors, counters and
 * pinned options as the raw runner. Timing (simple-git's wait after a silent command) is measured by
 * `npm run bench`, not here.
 */
describe('simple-git for one-shot git commands', function () {
  this.timeout(30_000);
  let dir: string;
  let git: GitRunner;
  let counters: Counters;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'an-porcelain-'));
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    execFileSync('git', ['-C', dir, 'config', 'user.email', 't@example.com']);
    execFileSync('git', ['-C', dir, 'config', 'user.name', 'T']);
    writeFileSync(join(dir, 'ä.txt'), 'x\n');
    execFileSync('git', ['-C', dir, 'add', '.']);
    execFileSync('git', ['-C', dir, 'commit', '-q', '-m', 'one']);
    counters = new Counters();
    git = new GitRunner(dir, { counters });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('returns stdout untrimmed, with the pinned config applied (quotepath off)', async () => {
    const head = await git.run(['rev-parse', 'HEAD']);
    assert.match(head, /^[0-9a-f]{40}\n$/);
    // with core.quotepath=on (git's default) the name would be printed as "\303\244.txt"
    execFileSync('git', ['-C', dir, 'config', 'core.quotepath', 'true']);
    assert.equal(await git.run(['ls-files']), 'ä.txt\n');
  });

  it('runs silent writes and reads them back (notes add / show, update-ref)', async () => {
    const head = (await git.run(['rev-parse', 'HEAD'])).trim();
    assert.equal(await git.run(['notes', '--ref=refs/notes/porcelain', 'add', '-f', '-m', '{"v":1}', head]), '');
    assert.equal(await git.run(['notes', '--ref=refs/notes/porcelain', 'show', head]), '{"v":1}\n');
    assert.equal(await git.run(['update-ref', 'refs/heads/copy', head]), '');
    assert.equal((await git.run(['rev-parse', 'refs/heads/copy'])).trim(), head);
  });

  it('accepts the exit codes a caller allows and reports others as GitError with code and stderr', async () => {
    assert.equal(await git.run(['config', '--get', 'agentnote.missing'], { okExitCodes: [1] }), '');
    const failures = counters.get('git.failures');
    await assert.rejects(git.run(['config', '--get', 'agentnote.missing']), (e: unknown) => GitError.is(e, 'failed') && e.exitCode === 1);
    await assert.rejects(
      git.run(['rev-parse', '--verify', 'refs/heads/nope']),
      (e: unknown) => GitError.is(e, 'failed') && e.exitCode === 128 && /fatal/.test(e.stderr ?? ''),
    );
    assert.equal(counters.get('git.failures'), failures + 2);
    assert.equal(await git.tryRun(['rev-parse', '--verify', 'refs/heads/nope']), undefined);
  });

  it('passes the pinned environment (messages in C locale, no terminal prompt)', async () => {
    const out = await git.run(['var', 'GIT_PAGER']);
    assert.equal(out.trim(), 'cat');
  });

  it('a missing git binary is GitError notFound; a hung command is killed at its timeout', async () => {
    const missing = new GitRunner(dir, { gitPath: join(dir, 'no-such-git') });
    await assert.rejects(missing.run(['rev-parse', 'HEAD']), (e: unknown) => GitError.is(e, 'notFound') || GitError.is(e, 'spawn'));
    const slow = join(dir, 'slow-git');
    writeFileSync(slow, '#!/bin/sh\nexec sleep 5\n', { mode: 0o755 });
    const hung = new GitRunner(dir, { gitPath: slow, timeoutMs: 300 });
    await assert.rejects(hung.run(['status']), (e: unknown) => GitError.is(e, 'timeout'));
  });

  it('standard input and global options stay on the raw runner', async () => {
    assert.equal(isPorcelainCommand(['-c', 'x=y', 'status']), false);
    assert.equal(isPorcelainCommand(['--upload-pack=evil', 'fetch']), false);
    assert.equal(isPorcelainCommand(['log', 'a\0b']), false);
    assert.equal(isPorcelainCommand(['notes', 'list']), true);
    // input goes through spawn: hash-object --stdin still works through run()
    const id = await git.run(['hash-object', '--stdin'], { input: 'x\n' });
    assert.equal(
      id.trim(),
      execFileSync('git', ['-C', dir, 'hash-object', join(dir, 'ä.txt')])
        .toString()
        .trim(),
    );
  });

  it("the user's own environment (an SSH command, an askpass helper) does not make simple-git refuse", async () => {
    assert.deepEqual(unsafeFlagsForEnv({ GIT_SSH_COMMAND: 'ssh -i k', SSH_ASKPASS: '/bin/x', HOME: '/root' }), {
      allowUnsafeSshCommand: true,
      allowUnsafeAskPass: true,
    });
    const r = await runPorcelain(['rev-parse', '--is-inside-work-tree'], {
      cwd: dir,
      gitPath: 'git',
      config: [],
      env: { PATH: process.env.PATH ?? '', GIT_SSH_COMMAND: 'ssh', GIT_PAGER: 'cat' },
      timeoutMs: 10_000,
    });
    assert.deepEqual(r, { kind: 'ok', stdout: 'true\n' });
  });
  it('the background runner starts its one-shot commands at a lower CPU priority (through nice), also through simple-git', async function () {
    if (process.platform === 'win32') this.skip(); // Windows: our own spawn renices by pid (no nice)
    // a "git" that prints the niceness it runs at
    const bin = join(dir, 'bin-niceness');
    mkdirSync(bin, { recursive: true });
    const probe = join(bin, 'git');
    const niceBin = execFileSync('sh', ['-c', 'command -v nice']).toString().trim();
    writeFileSync(probe, `#!/bin/sh\n${niceBin}\n`, { mode: 0o755 });
    const fore = new GitRunner(dir, { gitPath: probe });
    const base = Number((await fore.run(['status'])).trim());
    const back = fore.background();
    assert.equal(Number((await back.run(['status'])).trim()), Math.min(19, base + 10));
    // without nice on the PATH: our own spawn, reniced by pid right after the start (the probe waits
    // a moment: a renice by pid can only follow the start)
    const sleepBin = execFileSync('sh', ['-c', 'command -v sleep']).toString().trim();
    writeFileSync(probe, `#!/bin/sh\n${sleepBin} 0.3\n${niceBin}\n`, { mode: 0o755 });
    resetNiceProbe();
    try {
      const env = { PATH: bin };
      assert.equal(Number((await back.run(['status'], { env })).trim()), Math.min(19, base + 10));
      assert.equal(Number((await back.run(['status'], { env })).trim()), Math.min(19, base + 10));
    } finally {
      resetNiceProbe();
    }
  });
});
