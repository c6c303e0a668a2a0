// The agent ids, a leaf module: the event model, the parsers and the registry all import it, and it
// imports nothing (docs/architecture.md, "A new agent").

/** Agent names exactly as written in notes (`agent` key of schema v1), in display order. */
export const agentIds = ['claude', 'cursor', 'codex', 'gemini', 'copilot', 'cline', 'roo', 'kilo', 'aider'] as const;

export type AgentId = (typeof agentIds)[number];

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (agentIds as readonly string[]).includes(value);
}
