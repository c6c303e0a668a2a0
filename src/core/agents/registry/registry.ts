import type { TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';
import { aiderAgent } from '../aider/definition';
import { claudeAgent } from '../claude/definition';
import { clineAgent } from '../cline/definition';
import { codexAgent } from '../codex/definition';
import { copilotAgent } from '../copilot/definition';
import { cursorAgent } from '../cursor/definition';
import { geminiAgent } from '../gemini/definition';
import { kiloAgent } from '../kilo/definition';
import { rooAgent } from '../roo/definition';
import type { TranscriptContext, TranscriptParser } from '../parserTypes';
import type { AgentDefinition } from './agentDefinition';
import { agentIds, isAgentId, type AgentId } from './agentIds';

/**
 * The registry: one definition per agent id. Adding an agent is its folder under
 * src/core/agents/ and one line here (its id in ./agentIds.ts): the type below fails to compile
 * until both agree (docs/architecture.md, "A new agent").
 */
const definitions: { readonly [Id in AgentId]: AgentDefinition<Id> } = {
  claude: claudeAgent,
  cursor: cursorAgent,
  codex: codexAgent,
  gemini: geminiAgent,
  copilot: copilotAgent,
  cline: clineAgent,
  roo: rooAgent,
  kilo: kiloAgent,
  aider: aiderAgent,
};

/** Every agent, in display order. */
export const agentDefinitions: readonly AgentDefinition[] = agentIds.map((id) => definitions[id]);

export function agentDefinition<Id extends AgentId>(id: Id): AgentDefinition<Id> {
  return definitions[id] as AgentDefinition<Id>;
}

/** The definition of an id read from untrusted text (a note, a message), or undefined. */
export function findAgentDefinition(id: string | null | undefined): AgentDefinition | undefined {
  return isAgentId(id) ? definitions[id] : undefined;
}

/** What a transcript's path says about it, by its agent's rules. */
export function transcriptPathInfo(agent: AgentId, filePath: string): TranscriptPathInfo {
  return definitions[agent].pathInfo(filePath);
}

/** The transcript parser of an agent for one file (the variant is chosen from the path). */
export function createTranscriptParser(agent: AgentId, ctx: TranscriptContext): TranscriptParser {
  return definitions[agent].createParser(ctx);
}
