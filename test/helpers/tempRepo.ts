/**
 * Reusable temporary git repositories for tests that need real git.
 *
 * Every repository gets local `user.name`/`user.email`, `commit.gpgsign=false`, branch `main`,
 * and every git command started by the helper runs with an isolated environment (HOME and the
 * global config file pointed at a temp dir, no system config), so tests never depend on the
 * machine's git configuration. Code under test that spawns git itself (GitRunner) inherits
 * `process.env`: call `useIsolatedGitEnv()` inside a `describe` to isolate it as well.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRunner, type GitRunnerOptions } from '../../src/node/git/gitRunner';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitCallOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Working directory relative to the repository (or absolute). */
  cwd?: string;
  /** Exit codes accepted besides 0 by git() (runGit never throws on exit codes). */
  okExitCodes?: number[];
}

let sharedHome: string | undefined;

/** A private HOME with an empty global git config, shared by all temp repos of this process. */
export function isolatedHome(): string {
  if (!sharedHome || !existsSync(sharedHome)) {
    sharedHome = mkdtempSync(path.join(os.tmpdir(), 'agentnote-home-'));
    mkdirSync(path.join(sharedHome, '.config', 'git'), { recursive: true });
    writeFileSync(path.join(sharedHome, '.gitconfig'), '');
    process.once('exit', () => {
      if (sharedHome) rmSync(sharedHome, { recursive: true, force: true });
    });
  }
  return sharedHome;
}

/** Environment variables that isolate git from the machine's configuration. */
export function isolatedGitEnv(): Record<string, string> {
  const home = isolatedHome();
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Test User',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test User',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    LC_ALL: 'C',
  };
}

/**
 * Applies isolatedGitEnv() to process.env and returns a function restoring the previous values.
 * Needed for code under test that spawns git with the inherited environment.
 */
export function isolateProcessGitEnv(): () => void {
  const env = isolatedGitEnv();
  const saved = new Map<string, string | undefined>();
  for (const [k, v] of Object.entries(env)) {
    saved.set(k, process.env[k]);
    process.env[k] = v;
  }
  // Variables a developer's shell may export that would change git's behaviour.
  for (const k of [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_NOTES_REF',
    'GIT_CONFIG',
    'GIT_CONFIG_PARAMETERS',
    'AGENTNOTE_PUSHING',
  ]) {
    saved.set(k, process.env[k]);
    delete process.env[k];
  }
  return () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/** Registers mocha before/after hooks isolating process.env for the enclosing describe. */
export function useIsolatedGitEnv(): void {
  let restore: (() => void) | undefined;
  before(() => {
    restore = isolateProcessGitEnv();
  });
  after(() => {
    restore?.();
  });
}

/** Runs git with the isolated environment; never throws for a non-zero exit. */
export function runGit(cwd: string, args: string[], opts: GitCallOptions = {}): Promise<GitResult> {
  return runGitBuffer(cwd, args, opts).then((r) => ({ code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr }));
}

/** Like runGit, but stdout as raw bytes. */
export function runGitBuffer(
  cwd: string,
  args: string[],
  opts: GitCallOptions = {},
): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      {
        cwd,
        env: { ...process.env, ...isolatedGitEnv(), ...opts.env },
        encoding: 'buffer',
        maxBuffer: 256 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
        if (err && code === -1) {
          reject(err);
          return;
        }
        resolve({ code, stdout, stderr: stderr.toString('utf8') });
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}

/** Runs git and returns stdout, throwing with stderr on an unexpected exit code. */
export async function git(cwd: string, args: string[], opts: GitCallOptions = {}): Promise<string> {
  const r = await runGit(cwd, args, opts);
  if (r.code !== 0 && !opts.okExitCodes?.includes(r.code)) {
    throw new Error(`git ${args.join(' ')} (in ${cwd}) exited with ${r.code}: ${r.stderr.trim()}`);
  }
  return r.stdout;
}

/** Walks up from this file to the project root (the directory holding package.json and test/). */
export function projectRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'test', 'fixtures'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('project root not found');
    dir = parent;
  }
}

export interface CreateRepoOptions {
  /** Create a bare repository (no work tree). */
  bare?: boolean;
  /** Files of an initial commit (none if omitted). */
  initialFiles?: Record<string, string | Buffer>;
  /** Prefix of the temp directory name. */
  prefix?: string;
  /** Extra local config entries (key → value). */
  config?: Record<string, string>;
}

/** A temporary repository; call remove() when done (tests: in after/afterEach). */
export class TempRepo {
  private static tick = 0;
  private readonly owned: string[];

  private constructor(
    /** Work tree root (or the git dir of a bare repository). */
    readonly dir: string,
    readonly bare: boolean,
    owned: string[],
  ) {
    this.owned = owned;
  }

  /** Creates and configures a new repository in a fresh temp dir. */
  static async create(opts: CreateRepoOptions = {}): Promise<TempRepo> {
    const base = mkdtempSync(path.join(os.tmpdir(), opts.prefix ?? 'agentnote-repo-'));
    const dir = opts.bare ? path.join(base, 'remote.git') : path.join(base, 'repo');
    await mkdir(dir, { recursive: true });
    await git(dir, ['init', '-q', ...(opts.bare ? ['--bare'] : []), '--initial-branch=main', '.']);
    const repo = new TempRepo(dir, !!opts.bare, [base]);
    await repo.configure(opts.config);
    if (opts.initialFiles) await repo.commit(opts.initialFiles, 'initial commit');
    return repo;
  }

  /** Clones `source` (a path or URL, e.g. a bare TempRepo's dir or a bundle) into a fresh temp dir. */
  static async clone(source: string, opts: { prefix?: string; config?: Record<string, string> } = {}): Promise<TempRepo> {
    const base = mkdtempSync(path.join(os.tmpdir(), opts.prefix ?? 'agentnote-clone-'));
    const dir = path.join(base, 'repo');
    await git(base, ['clone', '-q', source, dir]);
    const repo = new TempRepo(dir, false, [base]);
    await repo.configure(opts.config);
    return repo;
  }

  /**
   * Clones a git bundle and fetches its notes ref too (the recipe of the peer fixtures README):
   * `git clone <bundle>` then `git fetch <bundle> '<ref>:<ref>'`.
   */
  static async fromBundle(bundlePath: string, notesRef = 'refs/notes/agentnote'): Promise<TempRepo> {
    const repo = await TempRepo.clone(bundlePath, { prefix: 'agentnote-bundle-' });
    await repo.git(['fetch', '-q', bundlePath, `${notesRef}:${notesRef}`]);
    return repo;
  }

  private async configure(extra: Record<string, string> = {}): Promise<void> {
    const entries: Record<string, string> = {
      'user.name': 'Test User',
      'user.email': 'test@example.com',
      'commit.gpgsign': 'false',
      'tag.gpgsign': 'false',
      'init.defaultBranch': 'main',
      'core.autocrlf': 'false',
      ...extra,
    };
    for (const [k, v] of Object.entries(entries)) await this.git(['config', k, v]);
  }

  /** Runs git in the repository; throws on a non-zero exit (unless listed in okExitCodes). */
  git(args: string[], opts: GitCallOptions = {}): Promise<string> {
    return git(opts.cwd ? path.resolve(this.dir, opts.cwd) : this.dir, args, opts);
  }

  /** Runs git in the repository and returns code/stdout/stderr without throwing. */
  gitResult(args: string[], opts: GitCallOptions = {}): Promise<GitResult> {
    return runGit(opts.cwd ? path.resolve(this.dir, opts.cwd) : this.dir, args, opts);
  }

  /** Runs git and returns stdout bytes (e.g. `cat-file -p` of a blob). */
  async gitBuffer(args: string[], opts: GitCallOptions = {}): Promise<Buffer> {
    const r = await runGitBuffer(this.dir, args, opts);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} exited with ${r.code}: ${r.stderr.trim()}`);
    return r.stdout;
  }

  /** Absolute path of a repository-relative path. */
  path(rel: string): string {
    return path.join(this.dir, ...rel.split('/'));
  }

  /** Writes a file of the work tree (creating directories). */
  async write(rel: string, content: string | Buffer): Promise<void> {
    const p = this.path(rel);
    await mkdir(path.dirname(p), { recursive: true });
    await writeFile(p, content);
  }

  /** Reads a file of the work tree as UTF-8. */
  read(rel: string): Promise<string> {
    return readFile(this.path(rel), 'utf8');
  }

  /**
   * Writes the given files, stages everything and commits with a deterministic date
   * (each commit one second after the previous one). Returns the new commit SHA.
   */
  async commit(files: Record<string, string | Buffer>, message: string, opts: { allowEmpty?: boolean } = {}): Promise<string> {
    for (const [rel, content] of Object.entries(files)) await this.write(rel, content);
    await this.git(['add', '-A']);
    const date = `${1_780_000_000 + TempRepo.tick++} +0000`;
    await this.git(['commit', '-q', '--no-verify', ...(opts.allowEmpty ? ['--allow-empty'] : []), '-m', message], {
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    return this.head();
  }

  /** Full SHA of HEAD (or of another revision). */
  async head(rev = 'HEAD'): Promise<string> {
    return (await this.git(['rev-parse', '--verify', `${rev}^{commit}`])).trim();
  }

  /** A GitRunner for code under test, rooted at this repository. */
  runner(opts: GitRunnerOptions = {}): GitRunner {
    return new GitRunner(this.dir, opts);
  }

  /** Adds a linked worktree on a new branch; it is removed together with this repository. */
  async addWorktree(branch: string): Promise<string> {
    const base = mkdtempSync(path.join(os.tmpdir(), 'agentnote-wt-'));
    const dir = path.join(base, 'wt');
    await this.git(['worktree', 'add', '-q', '-b', branch, dir]);
    this.owned.push(base);
    return dir;
  }

  /** Deletes every directory this repository created. */
  async remove(): Promise<void> {
    for (const d of this.owned) await rm(d, { recursive: true, force: true });
  }
}
