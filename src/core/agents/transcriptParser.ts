// The parser factory and contract types, for the tailer and the tests; the factory itself is the
// agent registry's (src/core/agents/registry/registry.ts).
export { createTranscriptParser } from './registry/registry';
export type { ParserState, ParserStats, SkipReason, TranscriptContext, TranscriptParser } from './parserTypes';
