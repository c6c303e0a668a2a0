import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { type Logger, nullLogger, Counters } from '../../core/ports';
import { Limiter } from '../util/limiter';
import { spawnPacer } from '../util/spawnPacer';
import { isPlainBinaryPath, isPorcelainCommand, runPorcelain } from './gitPorcelain';

/** Whether `nice` starts on this machine (undefined until the first background command tells). */
let niceUsable: boolean | undefined;

/** Forgets what the first background command found out about `nice` (tests). */
export function resetNiceProbe(): void {
  niceUsable = undefined;
}

/**
 * Every git call of the extension goes through here (one-shot commands through simple-git, see
 * gitPorcelain.ts; batch and streaming processes through our own spawn), with options pinned so that the user's
 * configuration cannot change results (pager, colour, external diff, quoting, diff algorithm),
 * optional locks off (we never contend with the user's own `git commit` for index.lock),
 * no terminal prompts, and a timeout after which a hung git process is killed.
 */
export const pinnedConfig = [
  'core.quotepath=off',
  'color.ui=false',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'diff.algorithm=myers',
  'diff.indentHeuristic=true',
  'diff.renames=false',
  'log.showSignature=false',
  'core.pager=cat',
];

export const pinnedEnv: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_PAGER: 'cat',
  LC_ALL: 'C',
  LANGUAGE: 'C',
};

/** Options for every blob/tree diff: no external diff, no textconv, no colour, explicit algorithm. */
export const pinnedDiffArgs = [
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--diff-algorithm=myers',
  '--indent-heuristic',
  '--unified=0',
  '--inter-hunk-context=0',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

export class GitError extends Error {
  constructor(
    readonly reason: 'failed' | 'timeout' | 'notFound' | 'spawn',
    message: string,
    readonly exitCode?: number,
    readonly stderr?: string,
  ) {
    super(message);
  }
  static is(e: unknown, reason?: GitError['reason']): e is GitError {
    return e instanceof GitError && (reason === undefined || e.reason === reason);
  }
}

export interface GitRunOptions {
  /** Kill git after this many ms (default: runner default, 30 s). */
  timeoutMs?: number;
  /** Exit codes treated as success besides 0 (e.g. 1 for `diff --exit-code`). */
  okExitCodes?: number[];
  /** Standard input. */
  input?: string | Buffer;
  env?: Record<string, string>;
  /**
   * runBuffer only: stop after this many bytes of stdout — git is killed and the prefix returned
   * (its exit status is then ignored). For limited reads such as a blob's first bytes.
   */
  maxOutputBytes?: number;
  /**
   * runBuffer only: stream stdout to this callback as it arrives instead of collecting it (the
   * promise then resolves with an empty buffer). For long outputs read progressively, such as
   * `git blame --incremental`.
   */
  onStdout?: (chunk: Buffer) => void;
  /** runBuffer only: kills git when aborted (the promise rejects with GitError 'failed'). */
  signal?: AbortSignal;
}

export interface GitRunnerOptions {
  gitPath?: string;
  timeoutMs?: number;
  log?: Logger;
  counters?: Counters;
  /** Git processes of this runner running at once (default 6); more calls wait their turn. */
  maxConcurrentProcesses?: number;
  /**
   * Niceness added to every git process of this runner (0–19, default 0). Background work
   * (recording notes, hashing captured edits) runs at a lower CPU priority so that it never
   * slows the user's own `git commit` or the editor.
   */
  niceness?: number;
}

/** Runs git in one repository (cwd = work tree root). */
export class GitRunner {
  readonly gitPath: string;
  readonly timeoutMs: number;
  readonly counters: Counters;
  private readonly log: Logger;
  /** At most `maxConcurrentProcesses` git processes of this runner at once. */
  private readonly slots: Limiter;

  constructor(
    readonly cwd: string,
    opts: GitRunnerOptions = {},
  ) {
    this.gitPath = opts.gitPath ?? 'git';
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.log = opts.log ?? nullLogger;
    this.counters = opts.counters ?? new Counters();
    this.slots = new Limiter(opts.maxConcurrentProcesses ?? 6);
    this.niceness = Math.min(19, Math.max(0, Math.round(opts.niceness ?? 0)));
  }

  /** Niceness this runner adds to its git processes (see GitRunnerOptions.niceness). */
  readonly niceness: number;
  private targetPriority: number | undefined;

  /** A runner for background work in the same repository: same git, log and counters, lower CPU priority. */
  background(niceness = 10): GitRunner {
    return new GitRunner(this.cwd, { gitPath: this.gitPath, timeoutMs: this.timeoutMs, log: this.log, counters: this.counters, niceness });
  }

  /** Lowers the CPU priority of a git process we started (best effort: it may have exited already). */
  lowerPriority(pid: number | undefined): void {
    if (this.niceness === 0 || pid === undefined) return;
    try {
      // children start at our own niceness: add to it
      this.targetPriority ??= Math.min(19, getPriority() + this.niceness);
      setPriority(pid, this.targetPriority);
    } catch {
      /* exited, or not permitted: it runs at normal priority */
    }
  }

  /**
   * Runs `git <args>` and returns stdout. Rejects with GitError on a non-accepted exit code,
   * a timeout or a missing git binary. A one-shot command (a subcommand first, no standard input)
   * goes through simple-git (`gitPorcelain.ts`); one with standard input goes through our own
   * spawn, like runBuffer.
   */
  async run(args: string[], opts: GitRunOptions = {}): Promise<string> {
    if (opts.input === undefined && opts.maxOutputBytes === undefined && !opts.onStdout && !opts.signal && this.porcelainFits(args)) {
      this.counters.inc('git.calls');
      return this.slots.run(() => this.porcelain(args, opts));
    }
    const out = await this.runBuffer(args, opts);
    return out.toString('utf8');
  }

  /**
   * simple-git runs this command: a one-shot command (see isPorcelainCommand), a git path simple-git
   * accepts as it is, and a priority it can give: normal, or `nice`'s default +10 where `nice`
   * exists (not Windows). Otherwise our own spawn, which renices the process by its pid (simple-git
   * does not expose the child process).
   */
  private porcelainFits(args: readonly string[]): boolean {
    if (!isPorcelainCommand(args) || !isPlainBinaryPath(this.gitPath)) return false;
    return this.niceness === 0 || (this.niceness === 10 && process.platform !== 'win32' && niceUsable !== false);
  }

  private async porcelain(args: string[], opts: GitRunOptions): Promise<string> {
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...pinnedEnv, ...opts.env })) if (v !== undefined) env[k] = v;
    const nice = this.niceness > 0;
    // a process start is synchronous and costs milliseconds in the extension host: paced per turn
    const r = await spawnPacer.startTracked((started) =>
      runPorcelain(args, {
        cwd: this.cwd,
        gitPath: this.gitPath,
        config: pinnedConfig,
        env,
        timeoutMs,
        okExitCodes: opts.okExitCodes,
        nice,
        onSpawned: started,
      }),
    );
    if (nice && r.kind === 'spawn' && /\bnice\b/.test(r.message)) {
      // no `nice` on this machine: every later background command uses our own spawn
      niceUsable = false;
      this.log.info('`nice` could not be started: background git commands renice through their pid instead');
      return (await this.spawnGit(args, opts)).toString('utf8');
    }
    if (nice && r.kind !== 'spawn') niceUsable = true;
    switch (r.kind) {
      case 'ok':
        return r.stdout;
      case 'timeout':
        this.counters.inc('git.timeouts');
        this.log.warn(`git ${args[0]} killed after ${timeoutMs} ms`);
        throw new GitError('timeout', `git ${args[0]} timed out after ${timeoutMs} ms`);
      case 'refused':
        this.counters.inc('git.failures');
        throw new GitError('spawn', `git ${args[0]} refused: ${r.message}`);
      case 'spawn':
        this.counters.inc('git.failures');
        throw new GitError('notFound', `git could not be started: ${r.message}`);
      case 'failed':
        this.counters.inc('git.failures');
        throw new GitError('failed', `git ${args[0]} exited with ${r.exitCode}: ${r.stderr.trim().slice(0, 500)}`, r.exitCode, r.stderr);
    }
  }

  /** Like run, but returns undefined instead of throwing when git fails. */
  async tryRun(args: string[], opts: GitRunOptions = {}): Promise<string | undefined> {
    try {
      return await this.run(args, opts);
    } catch (e) {
      this.log.debug(`git ${args[0]} failed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  /**
   * Runs git and returns raw stdout bytes (blob contents are not necessarily UTF-8). At most
   * `maxConcurrentProcesses` run at once per runner; later calls wait for a slot (their timeout
   * starts when their process does).
   */
  async runBuffer(args: string[], opts: GitRunOptions = {}): Promise<Buffer> {
    this.counters.inc('git.calls');
    return this.slots.run(() => this.spawnGit(args, opts));
  }

  private async spawnGit(args: string[], opts: GitRunOptions): Promise<Buffer> {
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const fullArgs = [...pinnedConfig.flatMap((c) => ['-c', c]), ...args];
    let child: ChildProcessWithoutNullStreams;
    // 'error' (git not found…) is emitted on the next tick, before the listeners below are attached
    let startError: NodeJS.ErrnoException | undefined;
    try {
      // a process start is synchronous and costs milliseconds in the extension host: paced per turn
      child = await spawnPacer.start(() => {
        const c = spawn(this.gitPath, fullArgs, {
          cwd: this.cwd,
          env: { ...process.env, ...pinnedEnv, ...opts.env },
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsHide: true,
        });
        c.once('error', (e: NodeJS.ErrnoException) => (startError ??= e));
        return c;
      });
      this.lowerPriority(child.pid);
    } catch (e) {
      this.counters.inc('git.failures');
      throw new GitError('spawn', String(e));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timedOut = false;
      let outBytes = 0;
      let truncated = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      let aborted = false;
      const onAbort = () => {
        aborted = true;
        child.kill('SIGKILL');
      };
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (d: Buffer) => {
        if (opts.onStdout) {
          if (!aborted) opts.onStdout(d);
          return;
        }
        if (truncated) return;
        const limit = opts.maxOutputBytes;
        if (limit !== undefined && outBytes + d.length >= limit) {
          out.push(d.subarray(0, limit - outBytes));
          outBytes = limit;
          truncated = true;
          child.kill('SIGKILL');
          return;
        }
        out.push(d);
        outBytes += d.length;
      });
      child.stderr.on('data', (d: Buffer) => err.push(d));
      const onError = (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        this.counters.inc('git.failures');
        reject(new GitError(e.code === 'ENOENT' ? 'notFound' : 'spawn', `git could not be started: ${e.message}`));
      };
      if (startError) {
        onError(startError);
        return;
      }
      child.on('error', onError);
      child.on('close', (code) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        const stderr = Buffer.concat(err).toString('utf8');
        if (aborted) {
          reject(new GitError('failed', `git ${args[0]} was cancelled`));
          return;
        }
        if (timedOut) {
          this.counters.inc('git.timeouts');
          this.log.warn(`git ${args[0]} killed after ${timeoutMs} ms`);
          reject(new GitError('timeout', `git ${args[0]} timed out after ${timeoutMs} ms`));
          return;
        }
        if (truncated || code === 0 || (code !== null && opts.okExitCodes?.includes(code))) {
          resolve(Buffer.concat(out));
          return;
        }
        this.counters.inc('git.failures');
        reject(new GitError('failed', `git ${args[0]} exited with ${code}: ${stderr.trim().slice(0, 500)}`, code ?? undefined, stderr));
      });
      child.stdin.on('error', () => {
        /* git may exit before reading all of stdin; the close handler reports the result */
      });
      if (opts.input !== undefined) child.stdin.end(opts.input);
      else child.stdin.end();
    });
  }
}
