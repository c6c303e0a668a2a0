// Long file: where every agent's sessions live and which belong to this repository, with the ownership checks that go with each place.
import * as path from 'node:path';
import type { AgentId } from '../../core/model/agentEvents';
import { type Clock, Counters, type Logger, nullLogger, systemClock } from '../../core/ports';
import { claudeProjectDirName, cursorProjectSlug, geminiProjectHash, geminiProjectSlug } from '../../core/transcripts/projectSlugs';
import { agentDefinition, transcriptPathInfo } from '../../core/agents/registry/registry';
import type { EditorStorage } from '../../core/agents/registry/editorUserDirs';
import { type AgentRoot, transcriptLocations } from './transcriptLocations';
import { type FsEntry, type FsStat, nodeTranscriptFs, type TranscriptFs } from './transcriptFs';
import { isInsideDir } from '../../core/git/repoPath';
import { hostPathRules } from '../util/hostPaths';
import { workspaceStorageFolders } from './workspaceStorageFolders';

/**
 * Finds the agent transcripts that belong to one repository (docs/transcripts.md §1.2, §2.1,
 * §3.1, §4.1, §6.7).
 *
 * Ownership rule: a transcript belongs to the repository when its session's working directory is
 * the repository root or inside it (the repository opened from a subfolder counts; a session
 * started in a parent directory does not, except as below). Roots compared: the work tree root,
 * its realpath, and for a linked worktree also the main work tree (the parent of the git common
 * dir), because agents often run in the main checkout and edit `.worktrees/x/…` or
 * `.claude/worktrees/x/…` — the consumer filters edits by path anyway.
 *
 * How ownership is established per agent (directory names are lossy, so the expected name is only
 * a fast path; the content confirms):
 * - Claude: directories whose name equals the encoded root or extends it by `-…` (a subfolder —
 *   or a lookalike such as `proj-old`); each file is confirmed by the first `cwd` in its head.
 *   Other directories are never listed (the slug fast path makes non-matching projects free).
 * - Cursor: `.workspace-trusted` `workspacePath` when present (inside the repo → owned; a parent
 *   of the repo or a `.code-workspace` file → each transcript must mention an absolute path inside
 *   the repo in its head); without the marker, slug-related directories are confirmed the same way.
 * - Codex: not organised by project; every rollout's head is read once (cached) for `cwd`.
 * - Gemini: `tmp/<sha256(root)>` (legacy), slugs mapped in `projects.json`, `.project_root`
 *   markers, else a slug-related directory whose chat head has our `projectHash` or an absolute
 *   path inside the repo.
 * - Copilot (an editor's `workspaceStorage/<id>/chatSessions/`): this window's own storage folder,
 *   and every other `<id>` whose `workspace.json` names a folder that is the repository or inside
 *   it (a multi-root window: one of its workspace file's folders); the consumer keeps only edits
 *   of files inside the repository.
 * - Cline family: every task folder of `<storage>/tasks/`, confirmed by the
 *   `# Current Working Directory (…)` line of its first environment details, else by an absolute
 *   path inside the repo in its head. The storage folder is watched only when it exists (an
 *   extension installed later is found by the periodic rescan).
 * - Aider: `.aider.chat.history.md` at the work tree root (the root is watched until it exists).
 *
 * Symlinks must resolve inside the agent's home; unreadable directories are skipped and counted;
 * transcripts older than `maxAgeDays` are skipped with one stat; results are cached per path and
 * re-checked only when the file changed and was still undecided.
 */

export interface DiscoveredTranscript {
  agent: AgentId;
  filePath: string;
  format: 'jsonl' | 'txt' | 'json';
  sessionIdHint?: string;
  /** Working directory of the session when discovery knows it (Cursor workspace, Gemini project root, Claude/Codex head cwd). */
  cwdHint?: string;
  sidechain: boolean;
  mtimeMs: number;
  size: number;
}

export interface RepoLocation {
  /** Work tree root (absolute). */
  root: string;
  /** `git rev-parse --git-common-dir` (absolute) when known: for linked worktrees. */
  gitCommonDir?: string;
}

export interface DiscoveryOptions {
  homeDir: string;
  env?: Readonly<Record<string, string | undefined>>;
  enabledAgents?: readonly AgentId[];
  extraRoots?: readonly string[];
  /** The running editor's storage folders (agents that live in an editor). */
  editorStorage?: EditorStorage;
  /** The platform whose editor folders are candidates. Default: this machine's. */
  platform?: string;
  /** Ignore transcripts not modified for more than this many days. Default 7. */
  maxAgeDays?: number;
  /** Stop after stat-ing this many transcript files in one scan (newest are not preferred: directory order). Default 50,000. */
  maxFiles?: number;
  /** Bytes of a transcript's head read to confirm ownership. Default 64 KiB. */
  headBytes?: number;
  /** Where time is read (tests pin it). Default: the system clock. */
  clock?: Clock;
  log?: Logger;
  counters?: Counters;
  fs?: TranscriptFs;
  /** Path comparison: case-insensitive on win32 and darwin by default. */
  caseInsensitive?: boolean;
}

export interface DiscoveryResult {
  /** Newest first. */
  transcripts: DiscoveredTranscript[];
  /** Directories worth watching for new sessions (agent roots and owned project directories). */
  watchDirs: string[];
  /** Counts of this scan (files, skipped by reason). */
  stats: Record<string, number>;
}

interface Ownership {
  owned: boolean;
  /** false: nothing conclusive in the head yet; re-check when the file grows. */
  final: boolean;
  cwd?: string;
  size: number;
}

type ContentCheck = 'cwd' | 'paths' | 'geminiHash' | 'clineCwd' | 'none';

const firstSmallRead = 4096;
const dayMs = 86_400_000;

export class TranscriptDiscovery {
  private readonly fs: TranscriptFs;
  private readonly log: Logger;
  readonly counters: Counters;
  private readonly opts: DiscoveryOptions;
  private readonly ci: boolean;
  private roots: string[] | undefined;
  private readonly fileCache = new Map<string, Ownership>();
  private readonly realpathCache = new Map<string, string | null>();
  private stats: Record<string, number> = {};
  private filesSeen = 0;

  constructor(
    private readonly repo: RepoLocation,
    opts: DiscoveryOptions,
  ) {
    this.opts = opts;
    this.fs = opts.fs ?? nodeTranscriptFs;
    this.log = opts.log ?? nullLogger;
    this.counters = opts.counters ?? new Counters();
    this.ci = opts.caseInsensitive ?? (process.platform === 'win32' || process.platform === 'darwin');
  }

  /** Scans every enabled agent root once. Never throws for file-system errors (they are counted). */
  async scan(): Promise<DiscoveryResult> {
    this.stats = {};
    this.filesSeen = 0;
    const roots = await this.repoRoots();
    const found: DiscoveredTranscript[] = [];
    const watchDirs = new Set<string>();
    for (const agentRoot of transcriptLocations({ ...this.opts, repoRoot: this.repo.root })) {
      const home = (await this.realpathOf(agentRoot.home)) ?? agentRoot.home;
      const layout = agentDefinition(agentRoot.agent).store.layout;
      if (layout === 'clineTasks' || layout === 'repositoryFile') {
        // these watch only what exists: an editor has many candidate user folders, and the work
        // tree root is not an agent's home
        try {
          if (layout === 'clineTasks') await this.scanClineTasks(agentRoot, home, roots, found, watchDirs);
          else await this.scanRepositoryFile(agentRoot, home, found, watchDirs);
        } catch (e) {
          this.count('errors');
          this.log.warn(`transcript discovery failed under ${agentRoot.dir}: ${errorText(e)}`);
        }
        continue;
      }
      // watched even when missing: the watcher then watches its nearest existing ancestor, so an
      // agent used for the first time after the window opened is picked up at once
      // (an editor's workspaceStorage only when it exists: every editor flavour is a candidate)
      const editorRoot = layout === 'copilotChatSessions';
      if (!editorRoot) watchDirs.add(agentRoot.dir);
      const dirOk = await this.statDir(agentRoot.dir);
      if (!dirOk) continue;
      if (editorRoot) watchDirs.add(agentRoot.dir);
      try {
        switch (layout) {
          case 'claudeProjects':
            await this.scanClaude(agentRoot, home, roots, found, watchDirs);
            break;
          case 'cursorProjects':
            await this.scanCursor(agentRoot, home, roots, found, watchDirs);
            break;
          case 'codexSessions':
            await this.scanCodex(agentRoot, home, found, watchDirs);
            break;
          case 'geminiTmp':
            await this.scanGemini(agentRoot, home, roots, found, watchDirs);
            break;
          case 'copilotChatSessions':
            await this.scanWorkspaceStorage(agentRoot, roots, found, watchDirs);
            break;
        }
      } catch (e) {
        this.count('errors');
        this.log.warn(`transcript discovery failed under ${agentRoot.dir}: ${errorText(e)}`);
      }
    }
    const seen = new Set<string>();
    const transcripts = found
      .filter((t) => (seen.has(t.filePath) ? false : (seen.add(t.filePath), true)))
      .sort((a, b) => b.mtimeMs - a.mtimeMs || a.filePath.localeCompare(b.filePath));
    this.stats.transcripts = transcripts.length;
    for (const [k, v] of Object.entries(this.stats)) this.counters.inc(`discovery.${k}`, v);
    return { transcripts, watchDirs: [...watchDirs], stats: { ...this.stats } };
  }

  // ─── roots and paths ─────────────────────────────────────────────────────────────────────────

  /** The roots a session cwd may be in: work tree, its realpath, and the main work tree of a linked worktree. */
  private async repoRoots(): Promise<string[]> {
    if (this.roots) return this.roots;
    const candidates = [path.resolve(this.repo.root)];
    if (this.repo.gitCommonDir) {
      const common = path.resolve(this.repo.root, this.repo.gitCommonDir);
      if (path.basename(common) === '.git') candidates.push(path.dirname(common));
    }
    const roots: string[] = [];
    for (const c of candidates) {
      for (const p of [c, await this.realpathOf(c)]) if (p && !roots.includes(p)) roots.push(p);
    }
    this.roots = roots;
    return roots;
  }

  private norm(p: string): string {
    const n = path.resolve(p);
    return this.ci ? n.toLowerCase() : n;
  }

  private isInside(p: string, root: string): boolean {
    return isInsideDir(path.resolve(root), path.resolve(p), { flavor: hostPathRules.flavor, caseInsensitive: this.ci });
  }

  private insideAny(p: string, roots: readonly string[]): boolean {
    return roots.some((r) => this.isInside(p, r));
  }

  /** cwd inside the repository, also after resolving symlinks of the cwd itself. */
  private async cwdOwned(cwd: string, roots: readonly string[]): Promise<boolean> {
    if (!path.isAbsolute(cwd)) return false;
    if (this.insideAny(cwd, roots)) return true;
    const real = await this.realpathOf(cwd);
    return real !== undefined && this.insideAny(real, roots);
  }

  private async realpathOf(p: string): Promise<string | undefined> {
    const cached = this.realpathCache.get(p);
    if (cached !== undefined) return cached ?? undefined;
    let real: string | null;
    try {
      real = await this.fs.realpath(p);
    } catch {
      real = null;
    }
    if (this.realpathCache.size > 10_000) this.realpathCache.clear();
    this.realpathCache.set(p, real);
    return real ?? undefined;
  }

  // ─── generic file-system helpers ──────────────────────────────────────────────────────────────

  private count(key: string, by = 1): void {
    this.stats[key] = (this.stats[key] ?? 0) + by;
  }

  private fsError(e: unknown, what: string): void {
    const code = (e as NodeJS.ErrnoException)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    if (code === 'EACCES' || code === 'EPERM') {
      this.count('permissionDenied');
      this.log.debug(`transcript discovery: permission denied: ${what}`);
      return;
    }
    this.count('errors');
    this.log.debug(`transcript discovery: ${what}: ${errorText(e)}`);
  }

  private async statDir(dir: string): Promise<boolean> {
    try {
      return (await this.fs.stat(dir)).isDirectory;
    } catch (e) {
      this.fsError(e, dir);
      return false;
    }
  }

  private async list(dir: string): Promise<FsEntry[]> {
    try {
      return await this.fs.readdir(dir);
    } catch (e) {
      this.fsError(e, dir);
      return [];
    }
  }

  /**
   * Resolves an entry to a file or directory; a symlink must stay inside the agent's home
   * (realpath check), otherwise it is skipped and counted.
   */
  private async resolveEntry(
    dir: string,
    e: FsEntry,
    home: string,
  ): Promise<{ path: string; isFile: boolean; isDirectory: boolean } | undefined> {
    const p = path.join(dir, e.name);
    if (!e.isSymbolicLink) return { path: p, isFile: e.isFile, isDirectory: e.isDirectory };
    const real = await this.realpathOf(p);
    if (!real) return undefined;
    if (!this.isInside(real, home)) {
      this.count('symlinkEscapes');
      return undefined;
    }
    try {
      const s = await this.fs.stat(p);
      return { path: p, isFile: s.isFile, isDirectory: s.isDirectory };
    } catch (e2) {
      this.fsError(e2, p);
      return undefined;
    }
  }

  /** Stats a candidate transcript; undefined when missing, unreadable, too old or over the cap. */
  private async statTranscript(p: string): Promise<FsStat | undefined> {
    if (this.filesSeen >= (this.opts.maxFiles ?? 50_000)) {
      this.count('capped');
      return undefined;
    }
    this.filesSeen++;
    this.count('filesStatted');
    let s: FsStat;
    try {
      s = await this.fs.stat(p);
    } catch (e) {
      this.fsError(e, p);
      return undefined;
    }
    if (!s.isFile) return undefined;
    const maxAgeMs = (this.opts.maxAgeDays ?? 7) * dayMs;
    const now = (this.opts.clock ?? systemClock).now();
    if (now - s.mtimeMs > maxAgeMs) {
      this.count('tooOld');
      return undefined;
    }
    return s;
  }

  /**
   * Decides whether a transcript file belongs to the repository from its head, caching the
   * answer; an undecided file (head without a cwd/path yet) is re-read when it has grown.
   */
  private async ownedByContent(p: string, s: FsStat, check: ContentCheck, roots: readonly string[], fallback: boolean): Promise<Ownership> {
    const cached = this.fileCache.get(p);
    if (cached && (cached.final || cached.size === s.size)) {
      this.count('cacheHits');
      return cached;
    }
    const headBytes = this.opts.headBytes ?? 65_536;
    let result: Ownership = { owned: fallback, final: false, size: s.size };
    try {
      let head = await this.fs.readHead(p, Math.min(firstSmallRead, headBytes));
      this.count('headReads');
      result = await this.decide(head, check, roots, s.size, fallback);
      if (!result.final && s.size > head.length && headBytes > firstSmallRead) {
        head = await this.fs.readHead(p, headBytes);
        this.count('headReads');
        result = await this.decide(head, check, roots, s.size, fallback);
      }
      // the whole head was read and nothing better will come: settle on the fallback
      if (!result.final && s.size >= headBytes) result = { ...result, final: true };
    } catch (e) {
      this.fsError(e, p);
      return result;
    }
    if (this.fileCache.size > 100_000) this.fileCache.clear();
    this.fileCache.set(p, result);
    return result;
  }

  private async decide(head: string, check: ContentCheck, roots: readonly string[], size: number, fallback: boolean): Promise<Ownership> {
    if (check === 'none') return { owned: fallback, final: true, size };
    if (check === 'cwd') {
      const cwd = firstJsonString(head, 'cwd');
      if (cwd !== undefined) return { owned: await this.cwdOwned(cwd, roots), final: true, cwd, size };
      return { owned: fallback, final: false, size };
    }
    if (check === 'clineCwd') {
      const cwd = clineCwdOf(head);
      if (cwd !== undefined && (await this.cwdOwned(cwd, roots))) return { owned: true, final: true, cwd, size };
      if (cwd !== undefined && !roots.some((r) => this.isInside(r, cwd))) return { owned: false, final: true, cwd, size };
      // a parent folder of the repository (a multi-folder workspace): paths inside it decide
    }
    if (check === 'geminiHash') {
      const h = firstJsonString(head, 'projectHash');
      if (h !== undefined && roots.some((r) => geminiProjectHash(r) === h)) return { owned: true, final: true, size };
    }
    // absolute paths inside the repository, as JSON-escaped or raw text
    for (const r of roots) {
      const withSep = r.endsWith(path.sep) ? r : r + path.sep;
      const needles = [withSep, JSON.stringify(withSep).slice(1, -1)];
      const hay = this.ci ? head.toLowerCase() : head;
      if (needles.some((n) => hay.includes(this.ci ? n.toLowerCase() : n))) return { owned: true, final: true, size };
    }
    return { owned: fallback, final: false, size };
  }

  /**
   * Stats candidate files (32 at a time) and keeps those whose content shows they belong to the
   * repository (`check: 'none'` = the directory already proved it); `cwdHint` (what the directory
   * says) wins over the cwd read from the content.
   */
  private async claimFiles(
    found: DiscoveredTranscript[],
    agent: AgentId,
    files: readonly string[],
    check: ContentCheck | 'none',
    roots: readonly string[],
    fallback: boolean,
    cwdHint: string | undefined,
  ): Promise<void> {
    await forEachLimit(files, 32, async (p) => {
      const s = await this.statTranscript(p);
      if (!s) return;
      if (check === 'none') {
        this.push(found, agent, p, s, cwdHint);
        return;
      }
      const o = await this.ownedByContent(p, s, check, roots, fallback);
      if (o.owned) this.push(found, agent, p, s, cwdHint ?? o.cwd);
      else this.count('otherProjectFiles');
    });
  }

  private push(found: DiscoveredTranscript[], agent: AgentId, p: string, s: FsStat, cwdHint: string | undefined): void {
    const info = transcriptPathInfo(agent, p);
    const t: DiscoveredTranscript = {
      agent,
      filePath: p,
      format: info.format,
      sidechain: info.sidechain,
      mtimeMs: s.mtimeMs,
      size: s.size,
    };
    if (info.sessionId !== undefined) t.sessionIdHint = info.sessionId;
    if (cwdHint !== undefined) t.cwdHint = cwdHint;
    found.push(t);
  }

  // ─── Claude ──────────────────────────────────────────────────────────────────────────────────

  private async scanClaude(
    root: AgentRoot,
    home: string,
    roots: string[],
    found: DiscoveredTranscript[],
    watch: Set<string>,
  ): Promise<void> {
    const encs = roots.map((r) => claudeProjectDirName(r));
    for (const e of await this.list(root.dir)) {
      const name = e.name;
      const exact = encs.some((x) => (x.truncated ? name.startsWith(x.name) : name === x.name));
      const related = exact || encs.some((x) => !x.truncated && name.startsWith(x.name + '-'));
      if (!related) {
        this.count('otherProjects');
        continue;
      }
      const dir = await this.resolveEntry(root.dir, e, home);
      if (!dir?.isDirectory) continue;
      watch.add(dir.path);
      const files: string[] = [];
      for (const f of await this.list(dir.path)) {
        const r = await this.resolveEntry(dir.path, f, home);
        if (!r) continue;
        if (r.isFile && f.name.endsWith('.jsonl')) files.push(r.path);
        else if (r.isDirectory) {
          const sub = path.join(r.path, 'subagents');
          for (const sf of await this.list(sub)) {
            const rs = await this.resolveEntry(sub, sf, home);
            if (rs?.isFile && sf.name.endsWith('.jsonl')) files.push(rs.path);
          }
        }
      }
      // a file whose head has no cwd (e.g. a huge first record) belongs to the exact-name directory only
      await this.claimFiles(found, root.agent, files, 'cwd', roots, exact, undefined);
    }
  }

  // ─── Cursor ──────────────────────────────────────────────────────────────────────────────────

  private async scanCursor(
    root: AgentRoot,
    home: string,
    roots: string[],
    found: DiscoveredTranscript[],
    watch: Set<string>,
  ): Promise<void> {
    const slugs = roots.map((r) => cursorProjectSlug(r));
    for (const e of await this.list(root.dir)) {
      const dir = await this.resolveEntry(root.dir, e, home);
      if (!dir?.isDirectory) continue;
      const workspace = await this.cursorWorkspace(dir.path);
      let check: ContentCheck;
      let cwdHint: string | undefined;
      if (workspace !== undefined) {
        if (this.insideAny(workspace, roots) || (await this.cwdOwned(workspace, roots))) {
          check = 'none';
          cwdHint = workspace;
        } else if (workspace.endsWith('.code-workspace') || roots.some((r) => this.isInside(r, workspace))) {
          // a parent folder or multi-root workspace: only transcripts that touch the repository
          check = 'paths';
          cwdHint = workspace.endsWith('.code-workspace') ? undefined : workspace;
        } else {
          this.count('otherProjects');
          continue;
        }
      } else {
        const name = e.name;
        const related = slugs.some((s) => name === s || name.startsWith(s + '-') || s.startsWith(name + '-'));
        if (!related) {
          this.count('otherProjects');
          continue;
        }
        check = 'paths';
        cwdHint = slugs.includes(name) ? roots[0] : undefined;
      }
      // the exact slug is strong evidence: a transcript that names no path yet still belongs here
      const fallback = workspace === undefined && slugs.includes(e.name);
      const transcriptsDir = path.join(dir.path, 'agent-transcripts');
      if (!(await this.statDir(transcriptsDir))) continue;
      watch.add(transcriptsDir);
      const files: string[] = [];
      for (const f of await this.list(transcriptsDir)) {
        const r = await this.resolveEntry(transcriptsDir, f, home);
        if (!r) continue;
        if (r.isFile && /\.(jsonl|txt)$/.test(f.name)) files.push(r.path);
        else if (r.isDirectory) {
          const before = files.length;
          for (const inner of await this.list(r.path)) {
            const ri = await this.resolveEntry(r.path, inner, home);
            if (ri?.isFile && inner.name.endsWith('.jsonl')) files.push(ri.path);
          }
          // Cursor creates the session directory first and its transcript a moment later; the
          // file's creation does not touch agent-transcripts/, so a directory still waiting for
          // its transcript is watched itself (else the session would wait for the periodic rescan)
          if (files.length === before) watch.add(r.path);
          const sub = path.join(r.path, 'subagents');
          for (const sf of await this.list(sub)) {
            const rs = await this.resolveEntry(sub, sf, home);
            if (rs?.isFile && sf.name.endsWith('.jsonl')) files.push(rs.path);
          }
        }
      }
      await this.claimFiles(found, root.agent, files, check, roots, fallback, cwdHint);
    }
  }

  /** `workspacePath` of `.workspace-trusted`, or undefined when the marker is missing or unreadable. */
  private async cursorWorkspace(projectDir: string): Promise<string | undefined> {
    let text: string;
    try {
      text = await this.fs.readSmallFile(path.join(projectDir, '.workspace-trusted'), 64 * 1024);
    } catch (e) {
      this.fsError(e, projectDir);
      return undefined;
    }
    try {
      const v = JSON.parse(text) as { workspacePath?: unknown };
      if (typeof v.workspacePath !== 'string' || !v.workspacePath) return undefined;
      const wp = v.workspacePath.startsWith('file://') ? decodeURIComponent(v.workspacePath.replace(/^file:\/\//, '')) : v.workspacePath;
      return path.resolve(wp);
    } catch {
      this.count('badMarkers');
      return undefined;
    }
  }

  // ─── Codex ───────────────────────────────────────────────────────────────────────────────────

  private async scanCodex(root: AgentRoot, home: string, found: DiscoveredTranscript[], watch: Set<string>): Promise<void> {
    const roots = await this.repoRoots();
    const files: string[] = [];
    const walk = async (dir: string, depth: number): Promise<void> => {
      for (const e of await this.list(dir)) {
        if (e.name.startsWith('.')) continue;
        const r = await this.resolveEntry(dir, e, home);
        if (!r) continue;
        if (r.isFile && e.name.endsWith('.jsonl')) files.push(r.path);
        else if (r.isDirectory && depth < 3 && /^\d{1,4}$/.test(e.name)) await walk(r.path, depth + 1);
      }
    };
    await walk(root.dir, 0);
    const today = new Date((this.opts.clock ?? systemClock).now());
    const y = String(today.getFullYear());
    const m = String(today.getMonth() + 1).padStart(2, '0');
    const d = String(today.getDate()).padStart(2, '0');
    watch.add(path.join(root.dir, y, m, d));
    await this.claimFiles(found, root.agent, files, 'cwd', roots, false, undefined);
  }

  // ─── editor workspace storage (Copilot Chat) ─────────────────────────────────────────────────

  /** Folders each `workspaceStorage/<id>` belongs to ([] = none of ours); workspace.json does not change. */
  private readonly workspaceFolders = new Map<string, string[]>();

  private async scanWorkspaceStorage(root: AgentRoot, roots: string[], found: DiscoveredTranscript[], watch: Set<string>): Promise<void> {
    const store = agentDefinition(root.agent).store;
    if (store.kind !== 'workspaceStorage') return;
    const own = this.opts.editorStorage?.workspaceStorageDir;
    const ownDir = own !== undefined && this.norm(path.dirname(own)) === this.norm(root.dir) ? this.norm(own) : undefined;
    let listed = 0;
    for (const e of await this.list(root.dir)) {
      if (!e.isDirectory || e.name.startsWith('.')) continue;
      if (++listed > 10_000) {
        this.count('capped');
        break;
      }
      const wsDir = path.join(root.dir, e.name);
      const isOwn = ownDir !== undefined && this.norm(wsDir) === ownDir;
      let folders = this.workspaceFolders.get(wsDir);
      if (folders === undefined) {
        folders = await workspaceStorageFolders(this.fs, wsDir);
        this.count('workspaceJsonReads');
        if (this.workspaceFolders.size > 20_000) this.workspaceFolders.clear();
        this.workspaceFolders.set(wsDir, folders);
      }
      const inside = folders.filter((f) => path.isAbsolute(f) && this.insideAny(f, roots));
      if (!isOwn && inside.length === 0) {
        this.count('otherWorkspaces');
        continue;
      }
      const sessions = path.join(wsDir, store.dirName);
      watch.add(sessions);
      // `<id>.jsonl` (VS Code ≥ 1.109) is preferred over a `<id>.json` left by an older version
      const files = (await this.list(sessions)).filter((f) => f.isFile && /\.jsonl?$/i.test(f.name)).map((f) => f.name);
      const logs = new Set(files.filter((f) => /\.jsonl$/i.test(f)).map((f) => f.slice(0, -'.jsonl'.length)));
      const chosen = files.filter((f) => /\.jsonl$/i.test(f) || !logs.has(f.slice(0, -'.json'.length))).map((f) => path.join(sessions, f));
      await this.claimFiles(found, root.agent, chosen, 'none', roots, true, inside[0] ?? (isOwn ? this.repo.root : undefined));
    }
    // this window's folder may have no chat session yet: watched, so its first one is seen at once
    if (ownDir !== undefined && own !== undefined) watch.add(path.join(own, store.dirName));
  }

  // ─── Gemini ──────────────────────────────────────────────────────────────────────────────────

  private async scanGemini(
    root: AgentRoot,
    home: string,
    roots: string[],
    found: DiscoveredTranscript[],
    watch: Set<string>,
  ): Promise<void> {
    const hashes = new Map(roots.map((r) => [geminiProjectHash(r), r]));
    const slugs = roots.map((r) => geminiProjectSlug(r));
    const mapped = await this.geminiRegistry(root.home, roots);
    for (const e of await this.list(root.dir)) {
      const name = e.name;
      let owned: { check: ContentCheck; cwd?: string } | undefined;
      if (hashes.has(name)) owned = { check: 'none', cwd: hashes.get(name) };
      else if (/^[0-9a-f]{64}$/.test(name)) {
        this.count('otherProjects');
        continue;
      } else if (mapped.has(name)) owned = { check: 'none', cwd: mapped.get(name) };
      const dir = await this.resolveEntry(root.dir, e, home);
      if (!dir?.isDirectory) continue;
      if (!owned) {
        const marker = await this.geminiProjectRoot(dir.path);
        if (marker !== undefined) {
          if (!(await this.cwdOwned(marker, roots))) {
            this.count('otherProjects');
            continue;
          }
          owned = { check: 'none', cwd: marker };
        } else if (slugs.some((s) => name === s || new RegExp(`^${s}-\\d+$`).test(name))) {
          owned = { check: 'geminiHash', cwd: roots[0] };
        } else {
          this.count('otherProjects');
          continue;
        }
      }
      const chats = path.join(dir.path, 'chats');
      if (!(await this.statDir(chats))) continue;
      watch.add(chats);
      const files: string[] = [];
      for (const f of await this.list(chats)) {
        const r = await this.resolveEntry(chats, f, home);
        if (!r) continue;
        if (r.isFile && /^session-.*\.jsonl?$/.test(f.name)) files.push(r.path);
        else if (r.isDirectory) {
          for (const sf of await this.list(r.path)) {
            const rs = await this.resolveEntry(r.path, sf, home);
            if (rs?.isFile && sf.name.endsWith('.jsonl')) files.push(rs.path);
          }
        }
      }
      const check = owned.check;
      const cwd = owned.cwd;
      await this.claimFiles(found, root.agent, files, check, roots, false, cwd);
    }
  }

  // ─── Cline, Roo Code, Kilo Code ──────────────────────────────────────────────────────────────

  private async scanClineTasks(
    root: AgentRoot,
    home: string,
    roots: string[],
    found: DiscoveredTranscript[],
    watch: Set<string>,
  ): Promise<void> {
    if (!(await this.statDir(root.dir))) {
      // the extension is installed but has no task yet: its storage folder says when one comes
      if (await this.statDir(root.home)) watch.add(root.home);
      return;
    }
    watch.add(root.dir);
    const sessionFile = clineSessionFile(root.agent);
    const files: string[] = [];
    const recentMs = (this.opts.clock ?? systemClock).now() - dayMs;
    for (const e of await this.list(root.dir)) {
      if (e.name.startsWith('.') || e.name.startsWith('_')) continue;
      const dir = await this.resolveEntry(root.dir, e, home);
      if (!dir?.isDirectory) continue;
      const file = path.join(dir.path, sessionFile);
      let exists = false;
      try {
        exists = (await this.fs.stat(file)).isFile;
      } catch (err) {
        this.fsError(err, file);
      }
      if (exists) {
        files.push(file);
        continue;
      }
      // a task folder is made before its history: watch a new one until the history appears
      try {
        if ((await this.fs.stat(dir.path)).mtimeMs >= recentMs) watch.add(dir.path);
      } catch (err) {
        this.fsError(err, dir.path);
      }
    }
    await this.claimFiles(found, root.agent, files, 'clineCwd', roots, false, undefined);
  }

  // ─── Aider ───────────────────────────────────────────────────────────────────────────────────

  private async scanRepositoryFile(root: AgentRoot, home: string, found: DiscoveredTranscript[], watch: Set<string>): Promise<void> {
    const store = agentDefinition(root.agent).store;
    if (store.kind !== 'repositoryFile') return;
    const file = path.join(root.dir, store.fileName);
    // not through the realpath cache: the file appears later, and a cached miss would hide it
    let real: string;
    try {
      real = await this.fs.realpath(file);
    } catch (e) {
      this.fsError(e, file);
      watch.add(root.dir);
      return;
    }
    if (!this.isInside(real, home)) {
      this.count('symlinkEscapes');
      return;
    }
    const s = await this.statTranscript(file);
    if (s) this.push(found, root.agent, file, s, root.dir);
  }

  /** Slugs that `~/.gemini/projects.json` maps to a project root inside the repository. */
  private async geminiRegistry(geminiHome: string, roots: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    let text: string;
    try {
      text = await this.fs.readSmallFile(path.join(geminiHome, 'projects.json'), 4 * 1024 * 1024);
    } catch (e) {
      this.fsError(e, geminiHome);
      return out;
    }
    try {
      const v = JSON.parse(text) as { projects?: unknown };
      if (v.projects && typeof v.projects === 'object') {
        for (const [p, slug] of Object.entries(v.projects as Record<string, unknown>)) {
          if (typeof slug === 'string' && path.isAbsolute(p) && (await this.cwdOwned(p, roots))) out.set(slug, p);
        }
      }
    } catch {
      this.count('badMarkers');
    }
    return out;
  }

  private async geminiProjectRoot(dir: string): Promise<string | undefined> {
    try {
      const t = (await this.fs.readSmallFile(path.join(dir, '.project_root'), 64 * 1024)).trim();
      return t && path.isAbsolute(t) ? t : undefined;
    } catch (e) {
      this.fsError(e, dir);
      return undefined;
    }
  }
}

/** The session file of a Cline-family agent's task folder. */
function clineSessionFile(agent: AgentId): string {
  const store = agentDefinition(agent).store;
  return store.kind === 'editorExtension' ? store.sessionFile : 'api_conversation_history.json';
}

/** The working directory a Cline-family task names in its environment details (JSON-escaped in the file). */
function clineCwdOf(head: string): string | undefined {
  const m = /# Current (?:Working|Workspace) Directory \(((?:[^)"\\]|\\.)+?)\) Files/.exec(head);
  if (!m) return undefined;
  try {
    const v = (JSON.parse(`"${m[1]}"`) as string).trim();
    return path.isAbsolute(v) ? path.resolve(v) : undefined;
  } catch {
    return undefined;
  }
}

/** The first `"key":"value"` string in a JSON(-lines) head, decoded. */
function firstJsonString(head: string, key: string): string | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(head);
  if (!m) return undefined;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return undefined;
  }
}

async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
