import { simpleGit, GitPluginError, type SimpleGit, type SimpleGitOptions } from 'simple-git';

/**
 * One-shot git commands (config, rev-parse, notes refs, log, push, ls-remote, reflog…) run through
 * simple-git: one process per command, text output, no standard input. Long-lived batch or
 * streaming processes (`cat-file --batch`, `hash-object --stdin`, `blame --incremental`, limited
 * binary reads) stay on GitRunner's own spawn, because simple-git has no standard input, decodes
 * output as text and hands it over only when git has exited.
 *
 * Completion: `{ onClose: true, onExit: 100 }` — the result is taken when git's pipes have closed
 * (all output read), or 100 ms after git exited when a grandchild (an auto-gc after a fetch) keeps
 * them open. Whatever the `completion` option, simple-git 3.36 waits another fixed 50 ms after a
 * command that printed nothing (`update-ref`, `config` writes: 60 ms instead of 10 ms measured);
 * `noSilentWait` ends that wait by giving its detector an empty chunk on stderr, which changes
 * no output.
 */
export const porcelainCompletion = { onClose: true, onExit: 100 } as const;

/**
 * Environment variables that simple-git's guard refuses unless the matching `allowUnsafe…` flag is
 * set (simple-git 3.36, `@simple-git/argv-parser`). They come from the user's own environment
 * (their shell, VS Code), which git would read anyway, or from our pins (`GIT_PAGER=cat`); only
 * the flags of variables actually present are set. Our own arguments never carry global options
 * (`-c`, `--upload-pack`…: see isPorcelainCommand), so the guard still refuses them there.
 */
const envGuard: Record<string, keyof NonNullable<SimpleGitOptions['unsafe']>> = {
  editor: 'allowUnsafeEditor',
  git_askpass: 'allowUnsafeAskPass',
  git_config_global: 'allowUnsafeConfigPaths',
  git_config_system: 'allowUnsafeConfigPaths',
  git_config_count: 'allowUnsafeConfigEnvCount',
  git_config: 'allowUnsafeConfigPaths',
  git_editor: 'allowUnsafeEditor',
  git_exec_path: 'allowUnsafeConfigPaths',
  git_external_diff: 'allowUnsafeDiffExternal',
  git_pager: 'allowUnsafePager',
  git_proxy_command: 'allowUnsafeGitProxy',
  git_template_dir: 'allowUnsafeTemplateDir',
  git_sequence_editor: 'allowUnsafeEditor',
  git_ssh: 'allowUnsafeSshCommand',
  git_ssh_command: 'allowUnsafeSshCommand',
  pager: 'allowUnsafePager',
  prefix: 'allowUnsafeConfigPaths',
  ssh_askpass: 'allowUnsafeAskPass',
};

/** The `allowUnsafe…` flags needed for these environment variables (see envGuard). */
export function unsafeFlagsForEnv(env: Record<string, string | undefined>): NonNullable<SimpleGitOptions['unsafe']> {
  const flags: NonNullable<SimpleGitOptions['unsafe']> = {};
  for (const key of Object.keys(env)) {
    const flag = envGuard[key.toLowerCase().trim()];
    if (flag && env[key] !== undefined) flags[flag] = true;
  }
  return flags;
}

/**
 * Commands that may go through simple-git: a subcommand first (no global option of our callers
 * before it: `-c`, `-C`, `--exec-path`… stay out), and no NUL in any argument.
 */
export function isPorcelainCommand(args: readonly string[]): boolean {
  return args.length > 0 && /^[a-z][a-z0-9-]*$/.test(args[0]) && args.every((a) => !a.includes('\0'));
}

/**
 * A git path simple-git starts without its unsafe flag (its own rule: letters, digits, `/ . \ _ ~ -`,
 * an optional drive letter). Another path (a space in `C:\Program Files\…`) makes the runner use
 * its own spawn instead of simple-git's warning on every call.
 */
export function isPlainBinaryPath(gitPath: string): boolean {
  return /^([a-z]:)?([a-z0-9/.\\_~-]+)$/i.test(gitPath);
}

export interface PorcelainCall {
  cwd: string;
  gitPath: string;
  /** `name=value` pairs given to git as `-c name=value` before the command. */
  config: readonly string[];
  env: Record<string, string>;
  timeoutMs: number;
  okExitCodes?: readonly number[];
  /** Start git through `nice` (its default +10): the background runner's lower CPU priority (not on Windows). */
  nice?: boolean;
  /** Called in the same turn, right after simple-git started the process (the spawn pacer's measure). */
  onSpawned?: () => void;
}

export type PorcelainResult =
  | { kind: 'ok'; stdout: string }
  | { kind: 'failed'; exitCode: number | undefined; stderr: string; stdout: string }
  | { kind: 'timeout' }
  | { kind: 'refused'; message: string }
  | { kind: 'spawn'; message: string };

/**
 * Runs `git <args>` once through simple-git. Never throws: the caller (GitRunner) turns the result
 * into its GitError, counters and log lines.
 */
export async function runPorcelain(args: readonly string[], call: PorcelainCall): Promise<PorcelainResult> {
  let exit: { exitCode: number; stdErr: string; stdOut: string } | undefined;
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, call.timeoutMs);
  let git: SimpleGit;
  try {
    git = simpleGit({
      baseDir: call.cwd,
      binary: call.nice ? ['nice', call.gitPath] : call.gitPath,
      maxConcurrentProcesses: 1,
      config: [...call.config],
      completion: porcelainCompletion,
      abort: abort.signal,
      trimmed: false,
      // core.hooksPath is written by the hooks installer itself (never from untrusted input)
      unsafe: { ...unsafeFlagsForEnv(call.env), allowUnsafeHooksPath: true, allowUnsafeCustomBinary: false },
      errors: (error, result) => {
        exit = {
          exitCode: result.exitCode,
          stdErr: Buffer.concat(result.stdErr).toString('utf8'),
          stdOut: Buffer.concat(result.stdOut).toString('utf8'),
        };
        // an exit code the caller accepts is success, whatever simple-git's own detection said
        if (call.okExitCodes?.includes(result.exitCode)) return undefined;
        if (error) return error;
        if (result.exitCode === 0) return undefined;
        return Buffer.from(exit.stdErr);
      },
    }).env(call.env);
    git.outputHandler((_command, _stdout, stderr) => {
      call.onSpawned?.();
      noSilentWait(stderr);
    });
  } catch (e) {
    clearTimeout(timer);
    return { kind: 'refused', message: e instanceof Error ? e.message : String(e) };
  }
  try {
    const stdout = await git.raw([...args]);
    return { kind: 'ok', stdout };
  } catch (e) {
    if (timedOut) return { kind: 'timeout' };
    if (e instanceof GitPluginError && e.plugin === 'unsafe') return { kind: 'refused', message: e.message };
    if (!exit || (/ENOENT|spawn/i.test(exit.stdErr) && exit.exitCode < 0)) {
      return { kind: 'spawn', message: e instanceof Error ? e.message : String(e) };
    }
    return { kind: 'failed', exitCode: exit.exitCode, stderr: exit.stdErr, stdout: exit.stdOut };
  } finally {
    clearTimeout(timer);
  }
}

/** See porcelainCompletion: after simple-git's detector has attached, an empty stderr chunk tells it that git was not silent. */
function noSilentWait(stderr: NodeJS.ReadableStream): void {
  queueMicrotask(() => stderr.emit('data', Buffer.alloc(0)));
}
