import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../../../src/core/model/agentEvents';
import { createTranscriptParser } from '../../../src/core/agents/transcriptParser';
import { LineSplitter } from '../../../src/core/transcripts/lineSplitter';
import { fixturesRoot, lineFixtures, runBytes, runChunks, type WholeFileFixtureExpectation } from './fixtureSupport';

const fixtures = lineFixtures();

describe('transcript fixtures (test/fixtures/transcripts/<agent>/<formatVersion>)', () => {
  it('has fixtures for every agent and at least two format versions each', () => {
    const versions = new Map<string, Set<string>>();
    for (const f of fixtures) versions.set(f.agent, (versions.get(f.agent) ?? new Set()).add(f.formatVersion));
    versions.get('gemini')!.add('json-legacy');
    assert.deepEqual([...versions.keys()].sort(), ['claude', 'codex', 'cursor', 'gemini']);
    for (const [agent, v] of versions) assert.ok(v.size >= 2, `${agent} has ${[...v].join(', ')}`);
  });

  for (const f of fixtures) {
    describe(`${f.agent}/${f.formatVersion}/${f.name}`, () => {
      it('produces exactly the expected events and stats', () => {
        const r = runBytes(f.agent, f.expected.ctx, f.bytes);
        assert.deepEqual(r.events, f.expected.events);
        assert.deepEqual(r.stats, f.expected.stats);
      });

      it('splits into the same lines at every byte boundary', () => {
        const whole = linesOf([f.bytes]);
        for (let k = 1; k < f.bytes.length; k++) {
          const split = linesOf([f.bytes.subarray(0, k), f.bytes.subarray(k)]);
          if (split !== whole) assert.fail(`split at byte ${k} changed the lines`);
        }
      });

      it('produces the same events when split at the boundaries that matter (around newlines, non-ASCII bytes, every 64th byte)', () => {
        // Every boundary is covered by the line test above (the parser only ever sees lines); here
        // the whole pipeline is rerun where a split is most likely to go wrong.
        const ks = new Set<number>();
        f.bytes.forEach((b, i) => {
          if (b === 10 || b === 13 || b >= 0x80) for (let d = -2; d <= 2; d++) ks.add(i + d);
          if (i % 64 === 0) ks.add(i);
        });
        for (const k of [...ks].filter((x) => x > 0 && x < f.bytes.length).sort((a, b) => a - b)) {
          const r = runChunks(f.agent, f.expected.ctx, [f.bytes.subarray(0, k), f.bytes.subarray(k)]);
          if (!sameEvents(r.events, f.expected.events)) assert.fail(`split at byte ${k} changed the events`);
        }
      });

      it('produces the same events when fed one byte at a time', () => {
        const chunks: Uint8Array[] = [];
        for (let i = 0; i < f.bytes.length; i++) chunks.push(f.bytes.subarray(i, i + 1));
        assert.deepEqual(runChunks(f.agent, f.expected.ctx, chunks).events, f.expected.events);
      });

      it('produces the same events with CRLF line endings', () => {
        const crlf = Buffer.from(Buffer.from(f.bytes).toString('utf8').replace(/\n/g, '\r\n'), 'utf8');
        assert.deepEqual(runBytes(f.agent, f.expected.ctx, crlf).events, f.expected.events);
      });

      it('is deterministic after reset()', () => {
        const parser = createTranscriptParser(f.agent, f.expected.ctx);
        const feed = () => {
          const out: AgentEvent[] = [];
          for (const line of Buffer.from(f.bytes).toString('utf8').split('\n')) out.push(...parser.push(line.replace(/\r$/, '')));
          return [...out, ...parser.flush()];
        };
        const first = feed();
        parser.reset();
        assert.deepEqual(feed(), first);
        assert.deepEqual(first, f.expected.events);
      });
    });
  }

  describe('gemini/json-legacy (whole-file ConversationRecord)', () => {
    const dir = join(fixturesRoot, 'gemini', 'json-legacy');
    const expected = JSON.parse(readFileSync(join(dir, 'session.expected.json'), 'utf8')) as WholeFileFixtureExpectation;

    it('emits only new or changed records on each re-parse, and a rewind for vanished messages', () => {
      const parser = createTranscriptParser('gemini', expected.ctx);
      assert.equal(parser.mode, 'wholeFile');
      for (const step of expected.steps) {
        assert.deepEqual(parser.parseWholeFile(readFileSync(join(dir, step.file), 'utf8')), step.events, step.file);
      }
      assert.deepEqual(parser.stats, expected.stats);
      // the fixture covers: first parse, update (edit + new response), unchanged, partial write, removal + new prompt
      assert.deepEqual(
        expected.steps.map((s) => s.events.map((e) => e.kind).join(',')),
        ['session,prompt,session,response', 'edit,response', '', '', 'rewind,prompt'],
      );
    });
  });
});

function linesOf(chunks: Uint8Array[]): string {
  const splitter = new LineSplitter();
  const lines = chunks.flatMap((c) => splitter.push(c));
  return JSON.stringify([lines, splitter.committedOffset, splitter.bufferedBytes]);
}

function sameEvents(a: AgentEvent[], b: AgentEvent[]): boolean {
  try {
    assert.deepEqual(a, b);
    return true;
  } catch {
    return false;
  }
}
