import { stat } from 'node:fs/promises';
import { agentIds, type AgentId } from '../../core/model/agentEvents';
import { transcriptLocations, type AgentRoot } from './transcriptLocations';

export interface AgentHomeStatus {
  agent: AgentId;
  /** At least one of its transcript directories exists. */
  found: boolean;
  /** Where the first existing (else the default) directory comes from. */
  source: AgentRoot['source'];
  /** Its transcript directories, existing ones first (shown to the user, never put into a report). */
  dirs: { dir: string; exists: boolean }[];
}

/** Whether each agent's transcript directories exist (default homes, environment overrides, extra roots). */
export async function detectAgentHomes(opts: {
  homeDir: string;
  env?: Readonly<Record<string, string | undefined>>;
  extraRoots?: readonly string[];
}): Promise<AgentHomeStatus[]> {
  const roots = transcriptLocations({ homeDir: opts.homeDir, env: opts.env, extraRoots: opts.extraRoots, enabledAgents: agentIds });
  const exists = await Promise.all(
    roots.map((r) =>
      stat(r.dir).then(
        (s) => s.isDirectory(),
        () => false,
      ),
    ),
  );
  return agentIds.map((agent) => {
    const mine = roots.map((r, i) => ({ r, exists: exists[i] })).filter((x) => x.r.agent === agent);
    mine.sort((a, b) => Number(b.exists) - Number(a.exists));
    return {
      agent,
      found: mine.some((x) => x.exists),
      source: mine[0]?.r.source ?? 'default',
      dirs: mine.map((x) => ({ dir: x.r.dir, exists: x.exists })),
    };
  });
}
