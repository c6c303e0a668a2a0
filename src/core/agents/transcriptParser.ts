import type { AgentId } from '../model/agentEvents';
import type { TranscriptContext, TranscriptParser } from './parserTypes';
import { ClaudeParser } from './claude';
import { CodexParser } from './codex';
import { CursorParser } from './cursor';
import { GeminiParser } from './gemini';

export type { ParserState, ParserStats, SkipReason, TranscriptContext, TranscriptParser } from './parserTypes';

/**
 * Creates the transcript parser of an agent. The format variant is chosen from the file
 * extension: Cursor `.txt` is the legacy flat text format, Gemini `.json` the legacy whole-file
 * ConversationRecord; everything else is JSONL.
 */
export function createTranscriptParser(agent: AgentId, ctx: TranscriptContext): TranscriptParser {
  switch (agent) {
    case 'claude':
      return new ClaudeParser(ctx);
    case 'cursor':
      return new CursorParser(ctx);
    case 'codex':
      return new CodexParser(ctx);
    case 'gemini':
      return new GeminiParser(ctx);
  }
}
