/**
 * Our git hooks (POSIX sh), installed next to whatever hooks the user already has.
 *
 * - `prepare-commit-msg` adds `Agentnote-Session: <id>` to new commits made while an agent session
 *   has fresh file evidence — the Agent Note CLI's rule (shared docs: agentnote-format.md §1.9
 *   item 1): skipped when `$2` is `commit` (amend without -m, -c, -C); needs a non-empty
 *   `agentnote/session` pointer, a numeric `heartbeat` at most 3600 s old (an older one writes the
 *   one-shot `post_commit_fallback` marker `head` instead), a non-empty current-turn
 *   `changes.jsonl` or `pre_blobs.jsonl`, and a message without `Agentnote-Session` yet. The
 *   stale marker is always removed first. `<git-dir>/agentnote` comes from
 *   `git rev-parse --git-path agentnote`, so each linked worktree uses its own journal.
 * - `pre-push` pushes `refs/notes/agentnote` to the remote being pushed (`$1`), waiting at most
 *   `pushTimeoutSeconds`, with `AGENTNOTE_PUSHING=1` (recursion guard; when set the whole hook is
 *   skipped, including a chained user hook — it is our own notes-only push) and
 *   `GIT_TERMINAL_PROMPT=0`. It is skipped when the user's push already contains the notes ref.
 *   Failures are swallowed.
 *
 * Both exit 0 unless a chained original hook fails. An existing hook that is not ours is renamed
 * to `<hook>.agentnote-backup` and run first with the same arguments and stdin; its non-zero exit
 * status is propagated. Our hooks carry the marker line `# agentnote-managed (vscode)`.
 * Hooks installed by the Agent Note CLI (`# agentnote-managed`) already do all of this (and
 * record notes in post-commit), so they are left alone. removeHooks() deletes only our hooks and
 * renames the backup back (same bytes, same mode).
 *
 * The hooks directory is `core.hooksPath` (relative values are relative to the work-tree root,
 * where git runs hooks; the git dir for bare repositories) or `git rev-parse --git-path hooks`
 * (shared by all worktrees).
 */
import { chmod, lstat, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { type Logger, nullLogger } from '../../core/ports';
import type { GitRunner } from '../git/gitRunner';

export const managedHookMarker = '# agentnote-managed (vscode)';
/** Marker line of hooks written by the Agent Note CLI. */
export const cliHookMarker = '# agentnote-managed';
export const hookBackupSuffix = '.agentnote-backup';

export const managedHookNames = ['prepare-commit-msg', 'pre-push'] as const;
export type ManagedHookName = (typeof managedHookNames)[number];

/**
 * `absent`: no hook; `managed`: ours, current; `outdated`: ours, older content; `cli`: the Agent
 * Note CLI's hook; `foreign`: somebody else's hook (would be chained on install).
 */
export type HookState = 'absent' | 'managed' | 'outdated' | 'cli' | 'foreign';

export interface HookInfo {
  name: ManagedHookName;
  path: string;
  state: HookState;
  /** A `<hook>.agentnote-backup` exists (our hook runs it first). */
  chained: boolean;
}

export interface HooksStatus {
  hooksDir: string;
  /**
   * The hooks directory is inside the work tree (e.g. a husky-style `core.hooksPath`): installing
   * changes files the user may track in git; worth a confirmation in the UI.
   */
  inWorkTree: boolean;
  hooks: HookInfo[];
}

export type InstallOutcome = 'installed' | 'updated' | 'unchanged' | 'skippedCli' | 'conflict';
export type RemoveOutcome = 'removed' | 'restored' | 'notManaged' | 'absent';

export interface HookOptions {
  /** Which hooks (default both). */
  hooks?: readonly ManagedHookName[];
  /** Upper bound of the notes push in pre-push (default 10 s, like the CLI). */
  pushTimeoutSeconds?: number;
  log?: Logger;
}

const chainBlock = `AGENTNOTE_BACKUP="$0${hookBackupSuffix}"
if [ -x "$AGENTNOTE_BACKUP" ]; then
  "$AGENTNOTE_BACKUP" "$@" || exit $?
fi`;

/** The prepare-commit-msg script (see the module comment). */
export function prepareCommitMsgScript(): string {
  return `#!/bin/sh
${managedHookMarker}
# Agent Note for VS Code: adds "Agentnote-Session: <id>" to new commits made during an agent
# session with fresh file evidence (same rule as the Agent Note CLI). Never blocks a commit;
# only the chained original hook (if any) can.
${chainBlock}
(
  AN_DIR=$(git rev-parse --git-path agentnote 2>/dev/null) || exit 0
  [ -n "$AN_DIR" ] || exit 0
  rm -f "$AN_DIR/post_commit_fallback" 2>/dev/null
  [ "$2" = "commit" ] && exit 0
  [ -f "$AN_DIR/session" ] || exit 0
  SESSION_ID=$(tr -d '\\r\\n' < "$AN_DIR/session" 2>/dev/null)
  [ -n "$SESSION_ID" ] || exit 0
  case "$SESSION_ID" in */*|*\\\\*|.|..) exit 0;; esac
  SESSION_DIR="$AN_DIR/sessions/$SESSION_ID"
  [ -f "$SESSION_DIR/heartbeat" ] || exit 0
  HB=$(tr -d '\\r\\n' < "$SESSION_DIR/heartbeat" 2>/dev/null)
  case "$HB" in ''|*[!0-9]*) exit 0;; esac
  [ -s "$SESSION_DIR/changes.jsonl" ] || [ -s "$SESSION_DIR/pre_blobs.jsonl" ] || exit 0
  HB_SEC=\${HB%???}
  [ -n "$HB_SEC" ] || HB_SEC=0
  AGE=$(( $(date +%s) - HB_SEC ))
  if [ "$AGE" -gt 3600 ]; then
    printf 'head\\n' > "$AN_DIR/post_commit_fallback" 2>/dev/null
    exit 0
  fi
  grep -q "Agentnote-Session" "$1" 2>/dev/null && exit 0
  printf '\\nAgentnote-Session: %s\\n' "$SESSION_ID" >> "$1"
) </dev/null >/dev/null 2>&1
exit 0
`;
}

/** The pre-push script (see the module comment). */
export function prePushScript(pushTimeoutSeconds = 10): string {
  const timeout = Math.max(1, Math.trunc(pushTimeoutSeconds));
  return `#!/bin/sh
${managedHookMarker}
# Agent Note for VS Code: pushes refs/notes/agentnote to the remote being pushed to, waiting at
# most ${timeout} s. Never fails the push; only the chained original hook (if any) can.
if [ -n "$AGENTNOTE_PUSHING" ]; then exit 0; fi
AGENTNOTE_REFS=$(cat; echo x)
AGENTNOTE_REFS=\${AGENTNOTE_REFS%x}
AGENTNOTE_BACKUP="$0${hookBackupSuffix}"
if [ -x "$AGENTNOTE_BACKUP" ]; then
  printf '%s' "$AGENTNOTE_REFS" | "$AGENTNOTE_BACKUP" "$@" || exit $?
fi
case "$AGENTNOTE_REFS" in *" refs/notes/agentnote "*) exit 0;; esac
(
  [ -n "$1" ] || exit 0
  git rev-parse -q --verify refs/notes/agentnote >/dev/null 2>&1 || exit 0
  AGENTNOTE_PUSHING=1 GIT_TERMINAL_PROMPT=0 git push --quiet --no-verify "$1" refs/notes/agentnote:refs/notes/agentnote &
  AN_PUSH=$!
  ( sleep ${timeout}; kill "$AN_PUSH" ) &
  AN_WATCH=$!
  wait "$AN_PUSH"
  kill "$AN_WATCH"
) </dev/null >/dev/null 2>&1
exit 0
`;
}

function scriptFor(name: ManagedHookName, opts: HookOptions): string {
  return name === 'pre-push' ? prePushScript(opts.pushTimeoutSeconds) : prepareCommitMsgScript();
}

function classify(content: string | undefined, desired: string): HookState {
  if (content === undefined) return 'absent';
  const lines = content.split(/\r?\n/).map((l) => l.trim());
  if (lines.includes(managedHookMarker)) return content === desired ? 'managed' : 'outdated';
  if (lines.includes(cliHookMarker)) return 'cli';
  return 'foreign';
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

async function readHook(p: string): Promise<string | undefined> {
  try {
    return await readFile(p, 'utf8');
  } catch {
    return undefined;
  }
}

async function writeExecutable(p: string, content: string): Promise<void> {
  const tmp = `${p}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, content, { mode: 0o755 });
  await chmod(tmp, 0o755);
  await rename(tmp, p);
}

/** The directory git runs hooks from for this repository (see the module comment). */
export async function resolveHooksDir(git: GitRunner): Promise<string> {
  const configured = (await git.run(['config', '--type=path', '--get', 'core.hooksPath'], { okExitCodes: [1] })).trim();
  if (configured) {
    if (path.isAbsolute(configured)) return configured;
    const top = (await git.run(['rev-parse', '--show-toplevel'], { okExitCodes: [128] })).trim();
    if (top) return path.resolve(top, configured);
    const gitDir = (await git.run(['rev-parse', '--absolute-git-dir'], { okExitCodes: [] })).trim();
    return path.resolve(gitDir, configured);
  }
  const hooks = (await git.run(['rev-parse', '--git-path', 'hooks'], { okExitCodes: [] })).trim();
  return path.resolve(git.cwd, hooks);
}

/** State of our hooks in the repository's hooks directory. */
export async function hookStatus(git: GitRunner, opts: HookOptions = {}): Promise<HooksStatus> {
  const hooksDir = await resolveHooksDir(git);
  const hooks: HookInfo[] = [];
  for (const name of managedHookNames) {
    const p = path.join(hooksDir, name);
    hooks.push({ name, path: p, state: classify(await readHook(p), scriptFor(name, opts)), chained: await exists(p + hookBackupSuffix) });
  }
  const top = (await git.run(['rev-parse', '--show-toplevel'], { okExitCodes: [128] })).trim();
  const rel = top ? path.relative(path.resolve(top), hooksDir) : '..';
  const inWorkTree = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel) && rel.split(path.sep)[0] !== '.git');
  return { hooksDir, inWorkTree, hooks };
}

/**
 * Installs (or updates) our hooks; idempotent. A foreign hook is renamed to
 * `<hook>.agentnote-backup` and chained; if that backup name is taken the hook is left alone
 * (`conflict`). CLI-managed hooks are left alone (`skippedCli`).
 */
export async function installHooks(
  git: GitRunner,
  opts: HookOptions = {},
): Promise<{ hooksDir: string; results: Partial<Record<ManagedHookName, InstallOutcome>> }> {
  const log = opts.log ?? nullLogger;
  const hooksDir = await resolveHooksDir(git);
  await mkdir(hooksDir, { recursive: true });
  const results: Partial<Record<ManagedHookName, InstallOutcome>> = {};
  for (const name of opts.hooks ?? managedHookNames) {
    const p = path.join(hooksDir, name);
    const backup = p + hookBackupSuffix;
    const desired = scriptFor(name, opts);
    const state = classify(await readHook(p), desired);
    let outcome: InstallOutcome;
    if (state === 'managed') outcome = 'unchanged';
    else if (state === 'cli') outcome = 'skippedCli';
    else if (state === 'outdated') {
      await writeExecutable(p, desired);
      outcome = 'updated';
    } else if (state === 'foreign' || (state === 'absent' && (await exists(p)))) {
      // (a dangling symlink reads as absent but still occupies the name)
      if (await exists(backup)) outcome = 'conflict';
      else {
        await rename(p, backup);
        await writeExecutable(p, desired);
        outcome = 'installed';
      }
    } else {
      await writeExecutable(p, desired);
      outcome = 'installed';
    }
    results[name] = outcome;
    log.info(`git hook ${name}: ${outcome}`);
  }
  return { hooksDir, results };
}

/** Removes our hooks and restores the chained originals exactly; other hooks are not touched. */
export async function removeHooks(
  git: GitRunner,
  opts: HookOptions = {},
): Promise<{ hooksDir: string; results: Partial<Record<ManagedHookName, RemoveOutcome>> }> {
  const log = opts.log ?? nullLogger;
  const hooksDir = await resolveHooksDir(git);
  const results: Partial<Record<ManagedHookName, RemoveOutcome>> = {};
  for (const name of opts.hooks ?? managedHookNames) {
    const p = path.join(hooksDir, name);
    const backup = p + hookBackupSuffix;
    const content = await readHook(p);
    const state = classify(content, scriptFor(name, opts));
    let outcome: RemoveOutcome;
    if (state === 'managed' || state === 'outdated' || (state === 'absent' && !(await exists(p)))) {
      if (state !== 'absent') await unlink(p);
      if (await exists(backup)) {
        await rename(backup, p);
        outcome = 'restored';
      } else outcome = state === 'absent' ? 'absent' : 'removed';
    } else outcome = 'notManaged';
    results[name] = outcome;
    log.info(`git hook ${name}: ${outcome}`);
  }
  return { hooksDir, results };
}
