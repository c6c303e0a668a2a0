import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { agentIds, type AgentId } from '../../core/model/agentEvents';
import { agentDefinition } from '../../core/agents/registry/registry';
import type { EditorStorage } from '../../core/agents/registry/editorUserDirs';
import { transcriptLocations, type AgentRoot } from './transcriptLocations';

export interface AgentHomeStatus {
  agent: AgentId;
  /** At least one of its transcript directories exists (Aider: its history file in one of the repositories). */
  found: boolean;
  /** Where the first existing (else the default) directory comes from. */
  source: AgentRoot['source'];
  /** Its transcript directories, existing ones first (shown to the user, never put into a report). */
  dirs: { dir: string; exists: boolean }[];
}

const isDir = (p: string) =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

/**
 * An editor's `workspaceStorage` counts as found for an editor-hosted agent when one of its
 * workspaces has the agent's sessions folder (the first 500 workspaces are looked at).
 */
async function hasSessionsFolder(root: string, dirName: string): Promise<boolean> {
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return false;
  }
  for (const n of names.slice(0, 500)) if (await isDir(path.join(root, n, dirName))) return true;
  return false;
}

/**
 * Whether each agent's transcript directories exist (default homes, environment overrides, extra
 * roots, editor storage folders, the history file in each open repository).
 */
export async function detectAgentHomes(opts: {
  homeDir: string;
  env?: Readonly<Record<string, string | undefined>>;
  extraRoots?: readonly string[];
  editorStorage?: EditorStorage;
  repoRoots?: readonly string[];
  platform?: string;
}): Promise<AgentHomeStatus[]> {
  const base = {
    homeDir: opts.homeDir,
    env: opts.env,
    extraRoots: opts.extraRoots,
    editorStorage: opts.editorStorage,
    platform: opts.platform,
  };
  const roots = transcriptLocations({ ...base, enabledAgents: agentIds });
  for (const repoRoot of opts.repoRoots ?? []) {
    for (const r of transcriptLocations({ ...base, repoRoot, enabledAgents: agentIds })) {
      if (r.source === 'repository' && !roots.some((x) => x.agent === r.agent && x.dir === r.dir)) roots.push(r);
    }
  }
  const exists = await Promise.all(
    roots.map((r) => {
      const store = agentDefinition(r.agent).store;
      if (store.kind === 'workspaceStorage') return hasSessionsFolder(r.dir, store.dirName);
      const target = store.kind === 'repositoryFile' ? path.join(r.dir, store.fileName) : r.dir;
      return stat(target).then(
        (s) => (store.kind === 'repositoryFile' ? s.isFile() : s.isDirectory()),
        () => false,
      );
    }),
  );
  return agentIds.map((agent) => {
    const mine = roots.map((r, i) => ({ r, exists: exists[i] })).filter((x) => x.r.agent === agent);
    mine.sort((a, b) => Number(b.exists) - Number(a.exists));
    return {
      agent,
      found: mine.some((x) => x.exists),
      source: mine[0]?.r.source ?? (agentDefinition(agent).store.kind === 'repositoryFile' ? 'repository' : 'default'),
      // an editor agent has a candidate folder per editor flavour: only the existing ones and the running editor's are worth showing
      dirs: mine.filter((x) => x.exists || x.r.source !== 'editor' || x.r.current).map((x) => ({ dir: x.r.dir, exists: x.exists })),
    };
  });
}
