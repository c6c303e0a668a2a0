import * as path from 'node:path';
import { agentIds, type AgentId } from '../../core/model/agentEvents';
import { agentDefinitions } from '../../core/agents/registry/registry';
import { type EditorStorage, editorUserDirs } from '../../core/agents/registry/editorUserDirs';

/** Where an agent keeps its per-project transcript directories. */
export interface AgentRoot {
  agent: AgentId;
  /**
   * Cursor/Claude: the `projects` directory; Codex: the `sessions` directory; Gemini: the `tmp`
   * directory; Copilot: an editor's `<User>/workspaceStorage` directory.
   */
  dir: string;
  /** The agent's home (`~/.claude`, `$CODEX_HOME`, …): symlinks must not lead outside it. */
  home: string;
  /** `default`: from the home directory; `env`: from an environment override; `extra`: configured extra root. */
  source: 'default' | 'env' | 'extra' | 'editor';
}

export interface LocationOptions {
  /** The user's home directory (injectable: tests point it to a temp dir). */
  homeDir: string;
  /** Environment (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME). Default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  enabledAgents?: readonly AgentId[];
  /**
   * Additional agent homes, scanned like `~/.cursor`, `~/.claude`, `~/.codex`, `~/.gemini`:
   * `<root>/projects` (Cursor and Claude), `<root>/sessions` (Codex), `<root>/tmp` (Gemini).
   */
  extraRoots?: readonly string[];
  /** The running editor's storage folders (its `<User>` folder comes first among the editors'). */
  editorStorage?: EditorStorage;
  /** The platform whose editor folders are candidates. Default: this machine's. */
  platform?: string;
}

/**
 * Transcript roots per agent, from each definition's session store (src/core/agents/registry):
 * Cursor `~/.cursor/projects`; Claude `${CLAUDE_CONFIG_DIR:-~/.claude}/projects`;
 * Codex `${CODEX_HOME:-~/.codex}/sessions`; Gemini `${GEMINI_CLI_HOME:-~}/.gemini/tmp`;
 * plus the same layouts under every extra root. Copilot: this window's `workspaceStorage` and every
 * editor user folder's (src/core/agents/registry/editorUserDirs.ts). Paths are not checked for existence.
 */
export function transcriptLocations(opts: LocationOptions): AgentRoot[] {
  const env = opts.env ?? {};
  const enabled = new Set(opts.enabledAgents ?? agentIds);
  const roots: AgentRoot[] = [];
  const add = (agent: AgentId, home: string, sub: string, source: AgentRoot['source']) => {
    const dir = path.join(home, sub);
    if (!roots.some((r) => r.agent === agent && r.dir === dir)) roots.push({ agent, dir, home, source });
  };
  const agents = agentDefinitions.filter((d) => enabled.has(d.id));
  for (const def of agents) {
    const store = def.store;
    if (store.kind === 'workspaceStorage') {
      // every editor's `<User>/workspaceStorage`: this window's own first, then each flavour's
      // default folder (the agent may be used in another editor than the one running Agent Note)
      const own = opts.editorStorage?.workspaceStorageDir;
      if (own) add(def.id, path.dirname(own), '', 'editor');
      const dirs = editorUserDirs({
        platform: opts.platform ?? process.platform,
        homeDir: opts.homeDir,
        env,
        current: opts.editorStorage?.userDir,
      });
      for (const d of dirs) add(def.id, path.join(d.dir, 'workspaceStorage'), '', 'editor');
      continue;
    }
    const fromEnv = store.envVar !== undefined ? nonEmpty(env[store.envVar]) : undefined;
    const home =
      fromEnv === undefined
        ? path.join(opts.homeDir, store.dirName)
        : store.envNames === 'parent'
          ? path.join(fromEnv, store.dirName)
          : fromEnv;
    add(def.id, home, store.sessionsDir, fromEnv !== undefined ? 'env' : 'default');
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
