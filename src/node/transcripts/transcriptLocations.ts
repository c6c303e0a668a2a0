import * as path from 'node:path';
import { agentIds, type AgentId } from '../../core/model/agentEvents';
import { agentDefinitions } from '../../core/agents/registry/registry';
import { editorUserDirs, type EditorStorage } from '../../core/agents/registry/editorUserDirs';

/** Where an agent keeps its per-project transcript directories. */
export interface AgentRoot {
  agent: AgentId;
  /**
   * Cursor/Claude: the `projects` directory; Codex: the `sessions` directory; Gemini: the `tmp`
   * directory; Cline family: an editor's `globalStorage/<extension>/tasks`; Aider: the work tree;
   * Copilot: an editor's `<User>/workspaceStorage` directory.
   */
  dir: string;
  /** The agent's home (`~/.claude`, `$CODEX_HOME`, …): symlinks must not lead outside it. */
  home: string;
  /**
   * `default`: from the home directory; `env`: from an environment override; `extra`: configured
   * extra root; `editor`: an editor's user folder (`current`: the running editor's); `setting`: the
   * extension's own storage setting; `repository`: the work tree.
   */
  source: 'default' | 'env' | 'extra' | 'editor' | 'setting' | 'repository';
  /** For editor roots: it is the running editor's. */
  current?: boolean;
}

export interface LocationOptions {
  /** The user's home directory (injectable: tests point it to a temp dir). */
  homeDir: string;
  /** Environment (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, APPDATA, XDG_*). Default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  enabledAgents?: readonly AgentId[];
  /**
   * Additional agent homes, scanned like `~/.cursor`, `~/.claude`, `~/.codex`, `~/.gemini`:
   * `<root>/projects` (Cursor and Claude), `<root>/sessions` (Codex), `<root>/tmp` (Gemini).
   */
  extraRoots?: readonly string[];
  /** The running editor's storage folders and the extensions' storage settings. */
  editorStorage?: EditorStorage;
  /** The platform whose editor folders are candidates. Default: this machine's. */
  platform?: string;
  /** The work tree root, for agents that keep their session file in the repository (Aider). */
  repoRoot?: string;
}

/**
 * Transcript roots per agent, from each definition's session store (src/core/agents/registry):
 * Cursor `~/.cursor/projects`; Claude `${CLAUDE_CONFIG_DIR:-~/.claude}/projects`;
 * Codex `${CODEX_HOME:-~/.codex}/sessions`; Gemini `${GEMINI_CLI_HOME:-~}/.gemini/tmp`;
 * plus the same layouts under every extra root; the Cline family's
 * `<User>/globalStorage/<extension id>/tasks` for every editor user folder (the running editor's
 * first) and `<custom>/tasks` when the extension's storage setting moved it; Aider's work tree;
 * Copilot: this window's `workspaceStorage` and every editor user folder's.
 * Paths are not checked for existence.
 */
export function transcriptLocations(opts: LocationOptions): AgentRoot[] {
  const env = opts.env ?? {};
  const enabled = new Set(opts.enabledAgents ?? agentIds);
  const roots: AgentRoot[] = [];
  const add = (agent: AgentId, home: string, sub: string, source: AgentRoot['source'], current?: boolean) => {
    const dir = sub ? path.join(home, sub) : home;
    if (roots.some((r) => r.agent === agent && r.dir === dir)) return;
    const root: AgentRoot = { agent, dir, home, source };
    if (current) root.current = true;
    roots.push(root);
  };
  const agents = agentDefinitions.filter((d) => enabled.has(d.id));
  let userDirs: ReturnType<typeof editorUserDirs> | undefined;
  for (const def of agents) {
    const store = def.store;
    switch (store.kind) {
      case 'agentHome': {
        const fromEnv = store.envVar !== undefined ? nonEmpty(env[store.envVar]) : undefined;
        const home =
          fromEnv === undefined
            ? path.join(opts.homeDir, store.dirName)
            : store.envNames === 'parent'
              ? path.join(fromEnv, store.dirName)
              : fromEnv;
        add(def.id, home, store.sessionsDir, fromEnv !== undefined ? 'env' : 'default');
        break;
      }
      case 'editorExtension': {
        const custom = store.customStoragePathSetting
          ? nonEmpty(opts.editorStorage?.customStoragePaths?.[store.customStoragePathSetting])
          : undefined;
        if (custom !== undefined && path.isAbsolute(custom)) add(def.id, path.resolve(custom), store.sessionsDir, 'setting');
        userDirs ??= editorUserDirs({
          platform: opts.platform ?? process.platform,
          homeDir: opts.homeDir,
          env,
          current: opts.editorStorage?.userDir,
        });
        for (const u of userDirs) {
          for (const ext of store.extensionIds) {
            add(def.id, path.join(u.dir, 'globalStorage', ext), store.sessionsDir, 'editor', u.flavour === 'this editor');
          }
        }
        break;
      }
      case 'workspaceStorage': {
        // every editor's `<User>/workspaceStorage`: this window's own first, then each flavour's
        // default folder (the agent may be used in another editor than the one running Agent Note)
        const own = opts.editorStorage?.workspaceStorageDir;
        if (own) add(def.id, path.dirname(own), '', 'editor', true);
        userDirs ??= editorUserDirs({
          platform: opts.platform ?? process.platform,
          homeDir: opts.homeDir,
          env,
          current: opts.editorStorage?.userDir,
        });
        for (const u of userDirs) add(def.id, path.join(u.dir, 'workspaceStorage'), '', 'editor', u.flavour === 'this editor');
        break;
      }
      case 'repositoryFile':
        if (opts.repoRoot) add(def.id, path.resolve(opts.repoRoot), '', 'repository');
        break;
    }
  }
  for (const extra of opts.extraRoots ?? []) {
    if (!extra.trim()) continue;
    const r = path.resolve(extra);
    for (const def of agents) if (def.store.kind === 'agentHome') add(def.id, r, def.store.sessionsDir, 'extra');
  }
  return roots;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v : undefined;
}
