import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { type Logger, nullLogger, Counters } from '../../core/ports';
import { Limiter } from '../util/limiter';
import { spawnPacer } from '../util/spawnPacer';

/**
 * Every git call of the extension goes through here, with options pinned so that the user's
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
   * a timeout or a missing git binary. A plain spawn (runBuffer): simple-git waits 50 ms more
   * after every command that prints nothing (`update-ref`, `notes add`…), which made a note
   * write alone cost 200 ms.
   */
  async run(args: string[], opts: GitRunOptions = {}): Promise<string> {
    const out = await this.runBuffer(args, opts);
    return out.toString('utf8');
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
