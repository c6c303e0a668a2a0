/**
 * Agreement with notes written by the Agent Note CLI v1.0.8 (test/fixtures/peer-repos): the
 * session inputs are reconstructed from the note (prompts, responses, files, tools) and the
 * bundle (subject, paths, patch); buildNote must reproduce the note byte for byte.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildNote, type SessionPrompts } from '../../../src/core/notes/noteBuilder';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { consumedStateFromMarkers, markerToCommittedPairLine, type PromptCandidate } from '../../../src/core/notes/promptWindow';
import { PeerRepo, peerNotePath } from './helpers';

interface PeerCase {
  repo: string;
  subject: string;
}

const cases: PeerCase[] = [
  { repo: 'todo-api', subject: 'feat: add Todo model and in-memory store' },
  { repo: 'todo-api', subject: 'feat: validate todo titles' },
  { repo: 'todo-api', subject: 'feat: paginate GET /todos with a cursor' },
  { repo: 'todo-api', subject: 'refactor: drop the unused completeAll helper' },
  { repo: 'todo-api', subject: 'build: add OpenAPI spec, generated types and dist build' },
  { repo: 'shop-cart', subject: 'feat: add Cart class with line items' },
  { repo: 'shop-cart', subject: 'feat: support percentage discount codes' },
  { repo: 'shop-cart', subject: 'test: cover cart totals and discounts' },
  { repo: 'shop-cart', subject: 'refactor: move tax rules into src/tax.ts' },
  { repo: 'weather-cli', subject: 'feat: fetch forecasts from Open-Meteo' },
  { repo: 'weather-cli', subject: 'feat: add unit conversion helpers' },
  { repo: 'weather-cli', subject: 'feat: parse --city and --units flags' },
  { repo: 'weather-cli', subject: 'feat: format temperatures with one decimal' },
  { repo: 'weather-cli', subject: 'feat: show the Beaufort wind force' },
];

const slug = (subject: string): string => subject.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function readPeerNote(repo: string, subject: string): { bytes: string; note: AgentNoteV1 } {
  const bytes = readFileSync(peerNotePath(repo, slug(subject)), 'utf8');
  return { bytes, note: JSON.parse(bytes) as AgentNoteV1 };
}

/** Prompt rows of a peer note: turns first+1…, primaries where the note says so. */
function rowsFromNote(note: AgentNoteV1, firstTurn: number): PromptCandidate[] {
  const agent = note.agent ?? 'claude';
  return note.interactions.map((it, i) => {
    const turn = firstTurn + i;
    const isPrimary = it.selection?.source === 'primary';
    return {
      key: `${agent}:${note.session_id}:${turn}`,
      agent,
      sessionId: note.session_id,
      turn,
      promptId: `${note.session_id}-p${turn}`,
      prompt: it.prompt,
      response: it.response,
      // The CLI's window only sees hook-event responses; Claude's Stop hook has none.
      ...(agent === 'claude' ? { windowResponse: null } : {}),
      timestamp: new Date(Date.parse(note.timestamp) - 60_000 * (note.interactions.length - i)).toISOString(),
      filesTouched: it.files_touched ?? [],
      ...(it.tools !== undefined ? { tools: it.tools } : {}),
      isPrimary,
      hasEdits: isPrimary,
    };
  });
}

function attributionOf(note: AgentNoteV1) {
  return { files: note.files.map((f) => ({ ...f })), attribution: note.attribution };
}

function session(note: AgentNoteV1, rows: PromptCandidate[], consumedLines: unknown[], upperTurn: number): SessionPrompts {
  return {
    agent: note.agent ?? 'claude',
    sessionId: note.session_id,
    modelEvents: [{ sessionStart: true, model: note.model }],
    rows,
    consumed: consumedStateFromMarkers(consumedLines),
    upperTurn,
  };
}

const clockAt = (iso: string) => ({ now: () => Date.parse(iso) });
const serialize = (note: AgentNoteV1): string => `${JSON.stringify(note, null, 2)}\n`;

describe('peer agreement (notes written by the Agent Note CLI)', function () {
  this.timeout(30_000);
  const repos = new Map<string, PeerRepo>();
  const repo = (name: string): PeerRepo => {
    let r = repos.get(name);
    if (!r) {
      r = new PeerRepo(name);
      repos.set(name, r);
    }
    return r;
  };
  after(() => {
    for (const r of repos.values()) r.dispose();
  });

  for (const c of cases) {
    it(`reproduces "${c.subject}" (${c.repo}) byte for byte`, () => {
      const { bytes, note } = readPeerNote(c.repo, c.subject);
      const r = repo(c.repo);
      const commit = r.commit(r.shaOf(c.subject));
      const rows = rowsFromNote(note, 1);
      const built = buildNote({
        commit,
        sessions: [session(note, rows, [], rows.length)],
        attribution: attributionOf(note),
        clock: clockAt(note.timestamp),
      });
      assert.ok(built);
      assert.equal(serialize(built.note), bytes);
      assert.equal(built.redactions, 0);
    });
  }

  it('selects the paginate window: primaries 1–3 and the tail "Looks good, commit it."', () => {
    const { note } = readPeerNote('todo-api', 'feat: paginate GET /todos with a cursor');
    const r = repo('todo-api');
    const commit = r.commit(r.shaOf(note.interactions.length ? 'feat: paginate GET /todos with a cursor' : ''));
    const built = buildNote({
      commit,
      sessions: [session(note, rowsFromNote(note, 1), [], 4)],
      attribution: attributionOf(note),
      clock: clockAt(note.timestamp),
    });
    assert.ok(built);
    assert.deepEqual(
      built.note.interactions.map((i) => [i.prompt.slice(0, 20), i.selection?.source, i.contexts?.map((x) => x.kind) ?? []]),
      [
        ['Add cursor-based pag', 'primary', []],
        ['Now wire it into GET', 'primary', ['scope']],
        ['continue', 'primary', ['scope']],
        ['Looks good, commit i', 'tail', []],
      ],
    );
    assert.deepEqual(
      built.markers.map((m) => [m.turn, m.scope]),
      [
        [1, 'window'],
        [2, 'window'],
        [3, 'window'],
        [4, 'tail'],
      ],
    );
  });

  it('chains the three commits of todo-api session 2 through the consumption markers without leaking prompts', () => {
    const r = repo('todo-api');
    const subjects = [
      'feat: paginate GET /todos with a cursor',
      'refactor: drop the unused completeAll helper',
      'build: add OpenAPI spec, generated types and dist build',
    ];
    const notes = subjects.map((s) => readPeerNote('todo-api', s));
    // The whole session as the recorder knows it at the end: 4 + 1 + 1 prompts.
    const allRows = [...rowsFromNote(notes[0].note, 1), ...rowsFromNote(notes[1].note, 5), ...rowsFromNote(notes[2].note, 6)];
    const consumedLines: unknown[] = [];
    let turnsSoFar = 0;
    subjects.forEach((subject, n) => {
      const { bytes, note } = notes[n];
      const upper = turnsSoFar + note.interactions.length;
      const primaries = new Set(
        rowsFromNote(note, turnsSoFar + 1)
          .filter((x) => x.isPrimary)
          .map((x) => x.turn),
      );
      // Every prompt up to the current turn is known; only this commit's turns are primary /
      // have unconsumed edits.
      const rows = allRows
        .filter((x) => x.turn <= upper)
        .map((x) => ({ ...x, isPrimary: primaries.has(x.turn), hasEdits: primaries.has(x.turn) }));
      const built = buildNote({
        commit: r.commit(r.shaOf(subject)),
        sessions: [session(note, rows, consumedLines, upper)],
        attribution: attributionOf(note),
        clock: clockAt(note.timestamp),
      });
      assert.ok(built, subject);
      assert.equal(serialize(built.note), bytes, subject);
      // What the recorder appends afterwards: consumed edits and the window markers.
      for (const t of primaries) consumedLines.push({ turn: t, file: 'x', change_id: null, tool_use_id: `t${t}` });
      consumedLines.push(...built.markers.map(markerToCommittedPairLine));
      turnsSoFar = upper;
    });
    assert.deepEqual(consumedStateFromMarkers(consumedLines), {
      maxConsumedTurn: 6,
      tailPromptIds: new Set(['2b7e4f10-3c5d-4e6f-8a9b-0c1d2e3f4a5b-p4']),
      skipped: 0,
    });
  });
});
