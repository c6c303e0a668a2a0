import * as vscode from 'vscode';
import { threadId } from 'node:worker_threads';
import * as path from 'node:path';
import { Services } from './host/services';
import { noteQuickPickItems, registerCommands } from './host/commands/registerCommands';
import { Surfaces } from './host/surfaces';
import { BlobContentProvider, blobScheme } from './host/blobContentProvider';
import { registerTimelineSerializer } from './webviews/timeline/timelinePanel';
import { RepoTimelineSource } from './host/timeline/repoTimelineSource';
import type { AgentNoteConfig } from './host/config';
import { WalkthroughContext } from './host/diagnostics';
import { repoRelativePath } from './core/git/repoPath';
import { hostPathRules } from './node/util/hostPaths';

/** What activate() returns: a small read-only API (used by the in-host tests, the benchmark and other extensions). */
export interface AgentNoteApi {
  readonly apiVersion: 1;
  /** Resolves once the git extension is wired up. */
  readonly ready: Promise<void>;
  /** Repositories Agent Note serves, with their HEAD as Agent Note last saw it. */
  repositories(): { root: string; head: string | undefined; branch: string | undefined }[];
  /** Resolves when every repository has started capture and finished recording the commits seen so far. */
  idle(): Promise<void>;
  /** Agent sessions Agent Note follows in a repository (prompts in turn order, files touched). */
  sessions(root: string): { agent: string; id: string; model: string | undefined; prompts: string[]; files: string[]; active: boolean }[];
  /**
   * Records the note of `rev` (default HEAD) of the repository at `root` again, the way a HEAD move
   * does; resolves with the outcome (`written`, `exists`, `human-only`, `skipped`, `failed`), or
   * undefined for an unknown repository or revision. Never overwrites an existing note.
   */
  recordCommit(root: string, rev?: string): Promise<string | undefined>;
  /** The settings in effect for the repository at `root` (resource-scoped ones read with its URI). */
  settings(root: string): Readonly<AgentNoteConfig> | undefined;
  /** Transcripts tailed now in the repository at `root`, per agent. */
  tailedTranscripts(root: string): Partial<Record<string, number>>;
  /**
   * The editor's storage folders as the extension read them from its context (`userDir` is the
   * `<User>` folder whose `globalStorage/<extension>/tasks` editor agents write; `workspaceStorageDir`
   * this window's `workspaceStorage/<id>`, whose `chatSessions/` holds Copilot Chat's sessions;
   * undefined parts when the host has no local storage) and the editor agents' storage settings.
   */
  editorStorage(): { userDir?: string; workspaceStorageDir?: string; customStoragePaths?: Readonly<Record<string, string>> };
  /** Status bar text ('' when hidden). */
  statusBarText(): string;
  /** The status bar tooltip as assigned (Markdown value and trust), undefined when none. */
  statusBarTooltip(): { value: string; isTrusted: unknown; supportHtml: boolean; supportThemeIcons: boolean } | undefined;
  /** The items the Show Note picker would offer in the repository at `root` (labels as shown). */
  noteQuickPickItems(root: string): Promise<{ label: string; description?: string; detail?: string }[]>;
  /** Entries and note text held by the decoded-note cache of the repository at `root`. */
  noteCacheStats(root: string): { entries: number; chars: number } | undefined;
  /**
   * Notes sharing of the repository at `root` (tests): what ran, the last results, and the thread
   * that did the work (never the extension host's).
   */
  sharing(root: string): Promise<SharingSnapshot | undefined>;
  /**
   * Lifecycle test: a private service on the repository at `root`, disposed as start-up step `step`
   * begins; how many steps start-up has and what still runs after dispose() (should be nothing).
   */
  probeStartupDispose(root: string, step: number): Promise<{ steps: number; left: string[] } | undefined>;
  /** Numbers for the benchmark. */
  benchStats(): {
    activateMs: number;
    handlerStats: { calls: number; totalMs: number; maxMs: number; medianMs: number };
    gitCalls: number;
    blameRuns: number;
  };
}

export interface SharingSnapshot {
  stats: { syncs: number; shares: number; pushesDetected: number; sharesSkippedOff: number };
  lastSync: unknown;
  lastShare: unknown;
  /** Thread id of the sharing worker that answered last; the extension host's own is `hostThreadId`. */
  workerThreadId: number | undefined;
  hostThreadId: number;
}

export function activate(context: vscode.ExtensionContext): AgentNoteApi {
  const started = performance.now();
  const s = new Services(context);
  context.subscriptions.push(s);
  for (const d of registerCommands(s)) s.own(d);
  const surfaces = s.own(new Surfaces(s));
  s.own(new WalkthroughContext(s));
  s.own(vscode.workspace.registerTextDocumentContentProvider(blobScheme, new BlobContentProvider(s.registry)));
  s.own(
    registerTimelineSerializer(
      context,
      () => {
        const repo = s.registry.current();
        return repo ? new RepoTimelineSource(repo) : undefined;
      },
      s.log.child('timeline'),
    ),
  );
  const activateMs = performance.now() - started;
  const api: AgentNoteApi = {
    apiVersion: 1,
    ready: s.ready,
    repositories: () => s.registry.all.map((r) => ({ root: r.root, head: r.headCommit, branch: r.branch })),
    idle: async () => {
      await s.ready;
      await s.configApplied;
      await Promise.all(s.registry.all.map((r) => r.idle()));
    },
    sessions: (root) =>
      (s.registry.all.find((r) => r.root === root)?.recorder?.sessions.list() ?? []).map((x) => ({
        agent: x.agent,
        id: x.id,
        model: x.model,
        prompts: x.turns.flatMap((t) => (t.prompt === undefined ? [] : [t.prompt])),
        files: [
          ...new Set(
            x.turns.flatMap((t) => t.files).map((f) => (path.isAbsolute(f) ? (repoRelativePath(root, f, hostPathRules) ?? f) : f)),
          ),
        ],
        active: x.active,
      })),
    settings: (root) => s.registry.all.find((r) => r.root === root)?.settings,
    editorStorage: () => ({ ...s.editorStorage }),
    tailedTranscripts: (root) => s.registry.all.find((r) => r.root === root)?.tailedTranscripts() ?? {},
    recordCommit: async (root, rev) => (await s.registry.all.find((r) => r.root === root)?.recordAgain(rev))?.kind,
    statusBarText: () => surfaces.statusBar?.visibleText ?? '',
    statusBarTooltip: () => {
      const t = surfaces.statusBar?.tooltipMarkdown;
      return t
        ? { value: t.value, isTrusted: t.isTrusted, supportHtml: t.supportHtml === true, supportThemeIcons: t.supportThemeIcons === true }
        : undefined;
    },
    noteQuickPickItems: async (root) => {
      const repo = s.registry.all.find((r) => r.root === root);
      return repo ? (await noteQuickPickItems(repo)).map(({ label, description, detail }) => ({ label, description, detail })) : [];
    },
    noteCacheStats: (root) => s.registry.all.find((r) => r.root === root)?.notes.cacheStats,
    sharing: async (root) => {
      const c = s.registry.all.find((r) => r.root === root)?.sharing;
      if (!c) return undefined;
      await c.idle();
      return {
        stats: { ...c.stats },
        lastSync: c.lastSync,
        lastShare: c.lastShare,
        workerThreadId: c.lastWorkerThreadId,
        hostThreadId: threadId,
      };
    },
    probeStartupDispose: (root, step) => s.registry.probeStartupDispose(root, step),
    benchStats: () => {
      const handler = { calls: 0, totalMs: 0, maxMs: 0, medianMs: 0 };
      let gitCalls = 0;
      let blameRuns = 0;
      for (const r of s.registry.all) {
        const h = r.trackerStats;
        if (h) {
          handler.calls += h.calls;
          handler.totalMs += h.totalMs;
          handler.maxMs = Math.max(handler.maxMs, h.maxMs);
          handler.medianMs = Math.max(handler.medianMs, h.medianMs);
        }
        gitCalls += r.git.counters.get('git.calls');
        blameRuns += r.git.counters.get('blame.runs');
      }
      return { activateMs, handlerStats: handler, gitCalls, blameRuns };
    },
  };
  s.log.info(`activated in ${activateMs.toFixed(1)} ms (${vscode.env.appName} ${vscode.version})`);
  void s.ready.catch((e) => s.log.error(`start failed: ${String(e)}`));
  return api;
}

/** Everything is disposed through context.subscriptions. */
export function deactivate(): void {}
