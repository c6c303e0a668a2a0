import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentEvent, AgentId } from '../../../src/core/model/agentEvents';
import { createTranscriptParser, type ParserStats, type TranscriptContext } from '../../../src/core/agents/transcriptParser';
import { LineSplitter } from '../../../src/core/transcripts/lineSplitter';

/** Root of the transcript fixtures (tests run from out/test/unit/agents; fixtures stay in the source tree). */
export const fixturesRoot = resolve(__dirname, '../../../../test/fixtures/transcripts');

/**
 * `<name>.expected.json` next to a line fixture: the parser context and the exact event stream
 * plus stats. Whole-file fixtures (Gemini legacy) list `steps`: one file per step, each with the
 * events that step must produce.
 */
export interface LineFixtureExpectation {
  ctx: TranscriptContext;
  events: AgentEvent[];
  stats: ParserStats;
}

export interface WholeFileFixtureExpectation {
  ctx: TranscriptContext;
  steps: { file: string; events: AgentEvent[] }[];
  stats: ParserStats;
}

export interface LineFixture {
  agent: AgentId;
  formatVersion: string;
  name: string;
  path: string;
  bytes: Uint8Array;
  expected: LineFixtureExpectation;
}

/** Every `<agent>/<formatVersion>/<name>.{jsonl,txt}` fixture with its expectation. */
export function lineFixtures(): LineFixture[] {
  const out: LineFixture[] = [];
  for (const agent of readdirSync(fixturesRoot).sort()) {
    const agentDir = join(fixturesRoot, agent);
    if (!statSync(agentDir).isDirectory()) continue;
    for (const formatVersion of readdirSync(agentDir).sort()) {
      const dir = join(agentDir, formatVersion);
      for (const f of readdirSync(dir).sort()) {
        const m = /^(.+)\.(jsonl|txt)$/.exec(f);
        if (!m) continue;
        const expected = JSON.parse(readFileSync(join(dir, `${m[1]}.expected.json`), 'utf8')) as LineFixtureExpectation;
        out.push({ agent: agent as AgentId, formatVersion, name: m[1], path: join(dir, f), bytes: readFileSync(join(dir, f)), expected });
      }
    }
  }
  return out;
}

/** Feeds `chunks` through a LineSplitter into a fresh parser; flushes once at the end. */
export function runChunks(agent: AgentId, ctx: TranscriptContext, chunks: Uint8Array[]): { events: AgentEvent[]; stats: ParserStats } {
  const parser = createTranscriptParser(agent, ctx);
  const splitter = new LineSplitter();
  const events: AgentEvent[] = [];
  for (const c of chunks) for (const line of splitter.push(c)) events.push(...parser.push(line.text));
  events.push(...parser.flush());
  return { events, stats: parser.stats };
}

/** Runs a whole buffer as one chunk. */
export function runBytes(agent: AgentId, ctx: TranscriptContext, bytes: Uint8Array): { events: AgentEvent[]; stats: ParserStats } {
  return runChunks(agent, ctx, [bytes]);
}
