// Long file: the journal's one writer: layout, the per-session lock, rotation and retention must agree on the same files.
import { randomUUID } from 'node:crypto';
import { ensurePrivateDir } from '../util/privateFiles';
import { open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import type { z } from 'zod';
import type { ChangeLine, CommittedPairLine, EventLine, PreBlobLine, PromptLine } from '../../core/model/journal';
import { type Clock, Counters, type Logger, nullLogger, systemClock } from '../../core/ports';
import type { GitRunner } from '../git/gitRunner';
import {
  changeLineSchema,
  committedPairLineSchema,
  eventLineSchema,
  journalKeyOrder,
  preBlobLineSchema,
  promptLineSchema,
} from './journalLineSchemas';
import { appendJsonlLine, readJsonlFile, writeFileAtomic, type JsonlReadResult } from './jsonlFile';
import { TimeSlice } from '../util/timeSlice';

/** File names of the CLI-compatible journal (docs/note-format.md §2). */
export const journalFileNames = {
  /** `agentnote/session`: active session id, no newline; last writer wins. */
  session: 'session',
  /** `agentnote/post_commit_fallback`: one-shot marker `head\n` written by prepare-commit-msg. */
  postCommitFallback: 'post_commit_fallback',
  sessions: 'sessions',
  prompts: 'prompts.jsonl',
  changes: 'changes.jsonl',
  preBlobs: 'pre_blobs.jsonl',
  events: 'events.jsonl',
  committedPairs: 'committed_pairs.jsonl',
  heartbeat: 'heartbeat',
  turn: 'turn',
  promptId: 'prompt_id',
  agent: 'agent',
  transcriptPath: 'transcript_path',
  pendingCommit: 'pending_commit.json',
  /** Our own files (see JournalSession). */
  ext: 'ext',
} as const;

/** Current-turn files that are archived on every new prompt. */
export const rotatedStems = ['prompts', 'changes', 'pre_blobs'] as const;
export type RotatedStem = (typeof rotatedStems)[number];

/** Heartbeat freshness of the CLI (prepare-commit-msg, `commit`, `status`): 3600 s. */
export const heartbeatTtlMs = 3600 * 1000;

/** A session lock older than this is left over from a crashed writer and is broken. */
const staleLockMs = 10_000;
/** Longest wait for a session lock; after that the work runs anyway (never blocks recording for good). */
const lockWaitMs = 5_000;

/** Default retention of finished sessions and of turn archives: 14 days. */
export const defaultJournalTtlMs = 14 * 24 * 3600 * 1000;

const archiveRe = /^(prompts|changes|pre_blobs)-([0-9a-z]{6,})\.jsonl$/;
const extNameRe = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const tempFileRe = /\.tmp-\d+-[0-9a-f]+$/;

/** Lines of one kind read from the current file plus archives, with the count of unusable lines. */
export interface JournalRead<T> {
  entries: T[];
  /** Garbage/torn lines and lines that failed validation. */
  skipped: number;
}

export interface SessionJournalOptions {
  clock?: Clock;
  log?: Logger;
  counters?: Counters;
  /** Retention for cleanup() (default 14 days). */
  ttlMs?: number;
}

export interface JournalCleanupResult {
  removedSessions: string[];
  /** Archive files removed from sessions that were kept (paths relative to the sessions dir). */
  removedArchives: string[];
  keptSessions: number;
}

export interface RecordPromptInput {
  /** Sanitized prompt text. */
  prompt: string;
  /** Adapter name written to `agent` and to the synthesized session_start event. */
  agent: string;
  model?: string | null;
  transcriptPath?: string;
  /** Point `agentnote/session` at this session (default true, like the CLI's prompt hook). */
  setActive?: boolean;
}

export interface RecordPromptResult {
  turn: number;
  promptId: string;
  /** Base-36 rotation id of the archived previous-turn files, undefined if nothing was archived. */
  rotationId: string | undefined;
}

function isErrno(e: unknown, ...codes: string[]): boolean {
  return typeof e === 'object' && e !== null && codes.includes((e as NodeJS.ErrnoException).code ?? '');
}

async function readSmall(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Builds a copy of `obj` with `keys` first (in order, undefined skipped), then other keys. */
function inKeyOrder(obj: object, keys: readonly string[]): Record<string, unknown> {
  const src = obj as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (src[k] !== undefined) out[k] = src[k];
  for (const k of Object.keys(src)) if (!keys.includes(k) && src[k] !== undefined) out[k] = src[k];
  return out;
}

/** Serializes async work per key (e.g. a session directory) inside this process. */
const chains = new Map<string, Promise<unknown>>();
function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = chains.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return run;
}

/**
 * The per-repository session journal at `<git-dir>/agentnote/`, shared with the Agent Note CLI
 * (docs/note-format.md §2). The directory comes from
 * `git rev-parse --git-path agentnote`, so every linked worktree has its own journal
 * (`.git/worktrees/<name>/agentnote/`), exactly like the CLI's `<git-dir>/agentnote`.
 *
 * Retention (cleanup()): a session directory is deleted when its last activity — the newest of
 * its heartbeat value and the modification times of its files (including `ext/`) — is older than
 * the TTL (default 14 days, setting `agentNote.journal.retentionDays`). A session whose heartbeat
 * is fresh (≤ 3600 s, the CLI's freshness window) is never deleted, whatever the TTL. Inside kept
 * sessions, turn archives (`prompts|changes|pre_blobs-<base36 ms>.jsonl`) older than the TTL (by
 * rotation id and mtime) are deleted; `events.jsonl`, `committed_pairs.jsonl`, the small files
 * and `ext/` live as long as the session directory. Leftover temp files of atomic writes older
 * than the TTL are removed too. The CLI itself never purges anything.
 */
export class SessionJournal {
  readonly sessionsDir: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly counters: Counters;
  readonly ttlMs: number;
  /** Skipped-line counts already reported per file set (the same bad lines are not logged on every read). */
  readonly reportedSkips = new Map<string, number>();

  constructor(
    /** Absolute `<git-dir>/agentnote` directory. */
    readonly root: string,
    opts: SessionJournalOptions = {},
  ) {
    this.sessionsDir = path.join(root, journalFileNames.sessions);
    this.clock = opts.clock ?? systemClock;
    this.log = opts.log ?? nullLogger;
    this.counters = opts.counters ?? new Counters();
    this.ttlMs = opts.ttlMs ?? defaultJournalTtlMs;
  }

  /** Opens the journal of the repository (or linked worktree) `git` runs in. */
  static async forRepository(git: GitRunner, opts: SessionJournalOptions = {}): Promise<SessionJournal> {
    const out = (await git.run(['rev-parse', '--git-path', 'agentnote'], { okExitCodes: [] })).trim();
    return new SessionJournal(path.resolve(git.cwd, out), opts);
  }

  /**
   * True when `id` can be used as a directory name: 1–200 characters, not `.`/`..`, no path
   * separators, no control characters and none of `:*?"<>|` (invalid on Windows), no leading or
   * trailing whitespace. UUIDs and the CLI's other ids (e.g. Cursor `conv-demo-1`) pass unchanged.
   */
  static isValidSessionId(id: string): boolean {
    return (
      typeof id === 'string' &&
      id.length > 0 &&
      id.length <= 200 &&
      id !== '.' &&
      id !== '..' &&
      id.trim() === id &&
      // eslint-disable-next-line no-control-regex
      !/[/\\:*?"<>|\x00-\x1f\x7f]/.test(id)
    );
  }

  /** The session directory accessor, or undefined when the id is not usable (see isValidSessionId). */
  session(id: string): JournalSession | undefined {
    if (!SessionJournal.isValidSessionId(id)) {
      this.counters.inc('journal.invalidSessionIds');
      return undefined;
    }
    return new JournalSession(this, id, path.join(this.sessionsDir, id));
  }

  /** The id in `agentnote/session` (trimmed), undefined if absent or empty. */
  async readActiveSessionId(): Promise<string | undefined> {
    const v = (await readSmall(path.join(this.root, journalFileNames.session)))?.trim();
    return v || undefined;
  }

  /** Atomically points `agentnote/session` at `id` (no trailing newline, like the CLI). */
  async setActiveSession(id: string): Promise<void> {
    const file = path.join(this.root, journalFileNames.session);
    // already pointing at it (the usual case from the second prompt on): one read instead of a replace
    if ((await readSmall(file)) === id) return;
    await ensurePrivateDir(this.root);
    await writeFileAtomic(file, id);
  }

  /** Removes the `agentnote/session` pointer. */
  async clearActiveSession(): Promise<void> {
    await unlink(path.join(this.root, journalFileNames.session)).catch(() => undefined);
  }

  /** The one-shot `post_commit_fallback` marker value (`head`), if present. */
  async readPostCommitFallback(): Promise<string | undefined> {
    return (await readSmall(path.join(this.root, journalFileNames.postCommitFallback)))?.trim() || undefined;
  }

  /** Deletes the `post_commit_fallback` marker (it is one-shot). */
  async clearPostCommitFallback(): Promise<void> {
    await unlink(path.join(this.root, journalFileNames.postCommitFallback)).catch(() => undefined);
  }

  /** Ids of the session directories present. */
  async listSessionIds(): Promise<string[]> {
    try {
      const entries = await readdir(this.sessionsDir, { withFileTypes: true });
      return entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
    } catch {
      return [];
    }
  }

  /** Applies the retention policy described on the class. Never throws for a single bad entry. */
  async cleanup(opts: { ttlMs?: number; now?: number } = {}): Promise<JournalCleanupResult> {
    const ttl = opts.ttlMs ?? this.ttlMs;
    const now = opts.now ?? this.clock.now();
    const result: JournalCleanupResult = { removedSessions: [], removedArchives: [], keptSessions: 0 };
    const active = await this.readActiveSessionId();
    for (const id of await this.listSessionIds()) {
      const s = this.session(id);
      if (!s) continue;
      try {
        const hb = await s.readHeartbeat();
        const heartbeatFresh = hb !== undefined && now - hb <= heartbeatTtlMs;
        const last = await s.lastActivity();
        if (!heartbeatFresh && now - last > ttl) {
          await rm(s.dir, { recursive: true, force: true });
          result.removedSessions.push(id);
          if (active === id && (await this.readActiveSessionId()) === id) await this.clearActiveSession();
          continue;
        }
        result.keptSessions++;
        for (const name of await readdir(s.dir)) {
          const m = archiveRe.exec(name);
          const file = path.join(s.dir, name);
          if (m) {
            const rotatedAt = parseInt(m[2], 36);
            const mtime = (await stat(file)).mtimeMs;
            if (now - rotatedAt > ttl && now - mtime > ttl) {
              await unlink(file);
              result.removedArchives.push(`${id}/${name}`);
            }
          } else if (tempFileRe.test(name) && now - (await stat(file)).mtimeMs > ttl) {
            await unlink(file);
          }
        }
      } catch (e) {
        if (!isErrno(e, 'ENOENT')) this.log.warn(`journal cleanup of session ${id} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (result.removedSessions.length || result.removedArchives.length) {
      this.log.info(`journal cleanup: removed ${result.removedSessions.length} session(s), ${result.removedArchives.length} archive(s)`);
    }
    return result;
  }
}

/**
 * One session directory `sessions/<id>/` (docs/note-format.md §2).
 *
 * CLI files: `prompts.jsonl`, `changes.jsonl`, `pre_blobs.jsonl` (current turn; archived as
 * `<stem>-<base36 epoch ms>.jsonl` on every new prompt), `events.jsonl`, `committed_pairs.jsonl`
 * (never rotated), `heartbeat` (epoch ms, no newline), `turn` (integer, no newline), `prompt_id`
 * (UUID, no newline), `agent` and `transcript_path` (value + "\n").
 *
 * Our own files live in `ext/` so the CLI never sees them: any `ext/<name>.jsonl` written with
 * appendJsonl()/read with readJsonl() (e.g. `ext/edits.jsonl` for editor-captured edits; the
 * line format belongs to its writer). They share the session's lifetime (see SessionJournal).
 *
 * JSONL appends are one O_APPEND write per line (concurrent writers never interleave); small files
 * are replaced atomically (temp file + rename). Readers skip and count bad lines, never throw.
 */
export class JournalSession {
  constructor(
    readonly journal: SessionJournal,
    readonly id: string,
    /** Absolute path of `sessions/<id>`. */
    readonly dir: string,
  ) {}

  /**
   * Runs `fn` holding the session's cross-process lock `ext/journal.lock` (created with O_EXCL):
   * two editor windows on one repository tail the same transcripts, and a check-then-write such
   * as "has this prompt been journaled yet?" must not interleave between them. A lock older than
   * 10 s is broken (a crashed writer); after waiting 5 s `fn` runs without it and the wait is
   * counted, so recording is never blocked for good. Serialized per session inside this process.
   */
  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return serialized(`${this.dir}#lock`, async () => {
      const file = path.join(this.dir, journalFileNames.ext, 'journal.lock');
      await ensurePrivateDir(path.dirname(file));
      const started = systemClock.now();
      let held = false;
      for (let attempt = 0; !held; attempt++) {
        try {
          const fh = await open(file, 'wx', 0o600);
          await fh.writeFile(`${process.pid} ${systemClock.now()}\n`);
          await fh.close();
          held = true;
        } catch (e) {
          if (!isErrno(e, 'EEXIST')) throw e;
          const age = await stat(file).then(
            (st) => systemClock.now() - st.mtimeMs,
            () => 0,
          );
          if (age > staleLockMs) {
            await unlink(file).catch(() => undefined);
            this.journal.counters.inc('journal.staleLocksBroken');
            continue;
          }
          if (systemClock.now() - started > lockWaitMs) {
            this.journal.counters.inc('journal.lockTimeouts');
            this.journal.log.warn(`journal session ${this.id.slice(0, 8)}: lock still held after ${lockWaitMs} ms, continuing without it`);
            break;
          }
          await new Promise((r) => setTimeout(r, Math.min(50, 5 + attempt * 5)));
        }
      }
      try {
        return await fn();
      } finally {
        if (held) await unlink(file).catch(() => undefined);
      }
    });
  }

  /** Creates the session directory (and parents) if needed. */
  async ensureDir(): Promise<void> {
    await ensurePrivateDir(this.dir);
  }

  /** True when the session directory exists. */
  async exists(): Promise<boolean> {
    try {
      return (await stat(this.dir)).isDirectory();
    } catch {
      return false;
    }
  }

  // ── JSONL appends (keys written in the CLI's order) ──

  appendPrompt(line: PromptLine): Promise<void> {
    return this.append(journalFileNames.prompts, inKeyOrder(line, journalKeyOrder.prompt));
  }

  appendChange(line: ChangeLine): Promise<void> {
    return this.append(journalFileNames.changes, inKeyOrder(line, journalKeyOrder.change));
  }

  appendPreBlob(line: PreBlobLine): Promise<void> {
    return this.append(journalFileNames.preBlobs, inKeyOrder(line, journalKeyOrder.preBlob));
  }

  appendEvent(line: EventLine): Promise<void> {
    return this.append(journalFileNames.events, inKeyOrder(line, journalKeyOrder.event[line.event]));
  }

  appendCommittedPair(line: CommittedPairLine): Promise<void> {
    return this.append(journalFileNames.committedPairs, inKeyOrder(line, journalKeyOrder.committedPair));
  }

  /** Appends one JSON line to our own `ext/<name>` file (name: letters, digits, `._-`). */
  async appendJsonl(name: string, value: object): Promise<void> {
    const file = this.extPath(name);
    await ensurePrivateDir(path.dirname(file));
    await appendJsonlLine(file, value);
  }

  /** Size in bytes of our own `ext/<name>` file (0 when missing): a cheap "did anyone append?" check. */
  async extSize(name: string): Promise<number> {
    try {
      return (await stat(this.extPath(name))).size;
    } catch {
      return 0;
    }
  }

  /** Reads our own `ext/<name>` JSONL file tolerantly (missing file: empty). */
  readJsonl(name: string): Promise<JsonlReadResult> {
    return readJsonlFile(this.extPath(name));
  }

  private async append(name: string, value: object): Promise<void> {
    await this.ensureDir();
    await appendJsonlLine(path.join(this.dir, name), value);
  }

  private extPath(name: string): string {
    if (!extNameRe.test(name) || name.includes('..')) throw new Error(`invalid journal ext file name: ${name}`);
    return path.join(this.dir, journalFileNames.ext, name);
  }

  // ── JSONL reads (archives in rotation order, then the current file) ──

  readPrompts(): Promise<JournalRead<PromptLine>> {
    return this.readGathered('prompts', promptLineSchema);
  }

  readChanges(): Promise<JournalRead<ChangeLine>> {
    return this.readGathered('changes', changeLineSchema);
  }

  readPreBlobs(): Promise<JournalRead<PreBlobLine>> {
    return this.readGathered('pre_blobs', preBlobLineSchema);
  }

  /** Only the current turn's file of a rotated kind (no archives). */
  readCurrent(stem: 'prompts'): Promise<JournalRead<PromptLine>>;
  readCurrent(stem: 'changes'): Promise<JournalRead<ChangeLine>>;
  readCurrent(stem: 'pre_blobs'): Promise<JournalRead<PreBlobLine>>;
  readCurrent(stem: RotatedStem): Promise<JournalRead<PromptLine | ChangeLine | PreBlobLine>> {
    const schema = stem === 'prompts' ? promptLineSchema : stem === 'changes' ? changeLineSchema : preBlobLineSchema;
    return this.readFiles(
      [path.join(this.dir, `${stem}.jsonl`)],
      schema as z.ZodType<PromptLine | ChangeLine | PreBlobLine, z.ZodTypeDef, unknown>,
    );
  }

  readEvents(): Promise<JournalRead<EventLine>> {
    return this.readFiles([path.join(this.dir, journalFileNames.events)], eventLineSchema);
  }

  readCommittedPairs(): Promise<JournalRead<CommittedPairLine>> {
    return this.readFiles([path.join(this.dir, journalFileNames.committedPairs)], committedPairLineSchema);
  }

  /**
   * Files of a rotated kind in reading order: archives whose suffix matches `[0-9a-z]{6,}`
   * sorted by base-36 value, then the current file (absolute paths; the current one may not exist).
   */
  async gatherFiles(stem: RotatedStem): Promise<string[]> {
    let names: string[] = [];
    try {
      names = await readdir(this.dir);
    } catch {
      /* no session dir */
    }
    const archives = names
      .map((n) => ({ n, m: archiveRe.exec(n) }))
      .filter((x) => x.m && x.m[1] === stem)
      .map((x) => ({ n: x.n, v: parseInt(x.m![2], 36) }))
      .sort((a, b) => a.v - b.v || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
      .map((x) => path.join(this.dir, x.n));
    return [...archives, path.join(this.dir, `${stem}.jsonl`)];
  }

  private async readGathered<T>(stem: RotatedStem, schema: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<JournalRead<T>> {
    return this.readFiles(await this.gatherFiles(stem), schema);
  }

  private async readFiles<T>(files: string[], schema: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<JournalRead<T>> {
    const entries: T[] = [];
    let skipped = 0;
    const slice = new TimeSlice();
    for (const f of files) {
      const r = await readJsonlFile(f);
      skipped += r.skipped;
      for (const v of r.values) {
        const p = schema.safeParse(v);
        if (p.success) entries.push(p.data);
        else skipped++;
        // validating thousands of lines is tens of ms: let the extension host breathe in between
        if (slice.due) await slice.pause();
      }
    }
    if (skipped > 0) {
      this.journal.counters.inc('journal.skippedLines', skipped);
      const what = `${this.id}/${path.basename(files[files.length - 1] ?? '')}`;
      if (this.journal.reportedSkips.get(what) !== skipped) {
        this.journal.reportedSkips.set(what, skipped);
        this.journal.log.info(`journal ${what}: skipped ${skipped} unusable line(s)`);
      }
    }
    return { entries, skipped };
  }

  // ── small files ──

  /** Epoch ms in `heartbeat`, undefined if missing or not a number. */
  async readHeartbeat(): Promise<number | undefined> {
    const v = (await readSmall(path.join(this.dir, journalFileNames.heartbeat)))?.trim();
    return v && /^\d{1,16}$/.test(v) ? Number(v) : undefined;
  }

  /** Writes `heartbeat` = epoch ms (default: now), no newline. */
  async writeHeartbeat(ms = this.journal.clock.now()): Promise<void> {
    await this.writeSmall(journalFileNames.heartbeat, String(Math.trunc(ms)));
  }

  /** Deletes `heartbeat` (what the CLI does on Gemini SessionEnd). */
  async clearHeartbeat(): Promise<void> {
    await unlink(path.join(this.dir, journalFileNames.heartbeat)).catch(() => undefined);
  }

  /** True when the heartbeat exists and is at most `ttlMs` old (default 3600 s, the CLI's rule). */
  async isFresh(ttlMs = heartbeatTtlMs, now = this.journal.clock.now()): Promise<boolean> {
    const hb = await this.readHeartbeat();
    return hb !== undefined && now - hb <= ttlMs;
  }

  /** Turn counter (0 when missing or unreadable, like the CLI). */
  async readTurn(): Promise<number> {
    const v = parseInt((await readSmall(path.join(this.dir, journalFileNames.turn)))?.trim() ?? '', 10);
    return Number.isFinite(v) && v > 0 ? v : 0;
  }

  async writeTurn(turn: number): Promise<void> {
    await this.writeSmall(journalFileNames.turn, String(Math.trunc(turn)));
  }

  /** `prompt_id` of the current prompt, undefined if none. */
  async readPromptId(): Promise<string | undefined> {
    return (await readSmall(path.join(this.dir, journalFileNames.promptId)))?.trim() || undefined;
  }

  async writePromptId(id: string): Promise<void> {
    await this.writeSmall(journalFileNames.promptId, id);
  }

  /** Adapter name in `agent`, undefined for legacy sessions. */
  async readAgent(): Promise<string | undefined> {
    return (await readSmall(path.join(this.dir, journalFileNames.agent)))?.trim() || undefined;
  }

  async writeAgent(agent: string): Promise<void> {
    await this.writeSmallIfChanged(journalFileNames.agent, `${agent}\n`);
  }

  async readTranscriptPath(): Promise<string | undefined> {
    return (await readSmall(path.join(this.dir, journalFileNames.transcriptPath)))?.trim() || undefined;
  }

  async writeTranscriptPath(p: string): Promise<void> {
    await this.writeSmallIfChanged(journalFileNames.transcriptPath, `${p}\n`);
  }

  private async writeSmall(name: string, data: string): Promise<void> {
    await this.ensureDir();
    await writeFileAtomic(path.join(this.dir, name), data);
  }

  /** Like writeSmall, but only a read when the file already holds `data` (values that rarely change). */
  private async writeSmallIfChanged(name: string, data: string): Promise<void> {
    if ((await readSmall(path.join(this.dir, name))) === data) return;
    await this.writeSmall(name, data);
  }

  // ── evidence checks (§1.9, §2.4) ──

  /** `changes.jsonl` or `pre_blobs.jsonl` of the current turn is non-empty (what plain git hooks require). */
  hasFileEvidence(): Promise<boolean> {
    return this.anyNonEmpty([journalFileNames.changes, journalFileNames.preBlobs]);
  }

  /** Any current-turn prompts/changes/pre_blobs data ("recordable", §2.4). */
  hasRecordableData(): Promise<boolean> {
    return this.anyNonEmpty([journalFileNames.prompts, journalFileNames.changes, journalFileNames.preBlobs]);
  }

  private async anyNonEmpty(names: string[]): Promise<boolean> {
    for (const n of names) {
      try {
        const st = await stat(path.join(this.dir, n));
        if (st.isFile() && st.size > 0) return true;
      } catch {
        /* missing */
      }
    }
    return false;
  }

  // ── rotation and prompts (§2.2) ──

  /**
   * Archives the current-turn files (`prompts`, `changes`, `pre_blobs`) as
   * `<stem>-<rotationId>.jsonl`, rotationId = epoch ms in base 36 (one id for the three; bumped
   * by 1 ms if an archive with that id already exists). Returns the id, or undefined when there
   * was nothing to archive.
   */
  async rotate(nowMs = this.journal.clock.now()): Promise<string | undefined> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return undefined;
    }
    const present = rotatedStems.filter((s) => names.includes(`${s}.jsonl`));
    if (present.length === 0) return undefined;
    let ms = Math.trunc(nowMs);
    while (rotatedStems.some((s) => names.includes(`${s}-${ms.toString(36)}.jsonl`))) ms++;
    const id = ms.toString(36);
    let archived = false;
    for (const stem of present) {
      try {
        await rename(path.join(this.dir, `${stem}.jsonl`), path.join(this.dir, `${stem}-${id}.jsonl`));
        archived = true;
      } catch (e) {
        if (!isErrno(e, 'ENOENT')) throw e;
      }
    }
    return archived ? id : undefined;
  }

  /**
   * Records an accepted prompt exactly like the CLI's prompt hook: heartbeat, session pointer,
   * `agent`/`transcript_path`, a synthesized `session_start` event if `events.jsonl` does not
   * exist yet, rotation of the previous turn's files, `turn` + 1, a fresh UUID v4 in `prompt_id`,
   * then the `prompts.jsonl` line and the `prompt` event. Serialized per session in this process.
   */
  recordPrompt(input: RecordPromptInput): Promise<RecordPromptResult> {
    return serialized(this.dir, async () => {
      const now = this.journal.clock.now();
      const timestamp = new Date(now).toISOString();
      await this.ensureDir();
      await this.writeHeartbeat(now);
      if (input.setActive !== false) await this.journal.setActiveSession(this.id);
      await this.writeAgent(input.agent);
      if (input.transcriptPath) await this.writeTranscriptPath(input.transcriptPath);
      const model = input.model ?? null;
      try {
        await stat(path.join(this.dir, journalFileNames.events));
      } catch {
        await this.appendEvent({ event: 'session_start', session_id: this.id, timestamp, agent: input.agent, model });
      }
      const rotationId = await this.rotate(now);
      const turn = (await this.readTurn()) + 1;
      await this.writeTurn(turn);
      const promptId = randomUUID();
      await this.writePromptId(promptId);
      await this.appendPrompt({ event: 'prompt', timestamp, prompt: input.prompt, prompt_id: promptId, turn });
      await this.appendEvent({ event: 'prompt', session_id: this.id, timestamp, prompt_id: promptId, turn, model });
      return { turn, promptId, rotationId };
    });
  }

  /** Newest of the heartbeat value and the mtimes of the directory, its files and `ext/` files. */
  async lastActivity(): Promise<number> {
    let last = (await this.readHeartbeat()) ?? 0;
    const consider = async (p: string) => {
      try {
        last = Math.max(last, (await stat(p)).mtimeMs);
      } catch {
        /* vanished */
      }
    };
    await consider(this.dir);
    for (const dir of [this.dir, path.join(this.dir, journalFileNames.ext)]) {
      let names: string[] = [];
      try {
        names = await readdir(dir);
      } catch {
        continue;
      }
      for (const n of names) await consider(path.join(dir, n));
    }
    return last;
  }
}
