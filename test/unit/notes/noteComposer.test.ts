// The pure note composer (src/core/notes/noteComposer.ts) on small synthetic journals: which pairs
// a commit uses, the attribution input, the note, and the consumption lines.
import * as assert from 'node:assert/strict';
import type { AttributedFile, CommitAttribution } from '../../../src/core/attribution/commitAttribution';
import type { JournalPair, JournalSessionData } from '../../../src/core/model/journalPairs';
import { composeNote, consumptionLines, editPairInputs, selectCommitPairs } from '../../../src/core/notes/noteComposer';
import type { PromptWindowMarker } from '../../../src/core/notes/promptWindow';

const P = '1'.repeat(40); // a.ts before the agent
const Q = '2'.repeat(40); // a.ts after the agent (= committed)
const R = '3'.repeat(40);
const T = Date.parse('2026-05-01T10:00:00.000Z');
const clock = { now: () => T + 60_000 };

function pair(sessionId: string, over: Partial<JournalPair> & { pairId: string }): JournalPair {
  const turn = over.turn ?? 1;
  return {
    sessionId,
    agent: 'claude',
    turn,
    promptId: `p${turn}`,
    file: 'a.ts',
    preBlob: P,
    postBlob: Q,
    tool: 'Edit',
    time: T,
    interactionKey: `claude:${sessionId}:${turn}`,
    consumeLines: [{ turn, file: over.file ?? 'a.ts', change_id: null, tool_use_id: over.pairId }],
    ...over,
  };
}

function session(id: string, pairs: JournalPair[], prompt = 'Add b to a.ts'): JournalSessionData {
  return {
    id,
    agent: 'claude',
    turn: 1,
    prompts: [{ event: 'prompt', timestamp: new Date(T - 30_000).toISOString(), prompt, prompt_id: 'p1', turn: 1 }],
    events: [
      { event: 'session_start', session_id: id, timestamp: new Date(T - 40_000).toISOString(), agent: 'claude', model: 'claude-opus-4-6' },
      { event: 'response', session_id: id, timestamp: new Date(T - 1_000).toISOString(), turn: 1, response: 'Added b.' },
    ],
    committed: [],
    pairs,
    toolsByTurn: new Map([[1, ['Edit']]]),
  };
}

function attributed(path: string, byAi: boolean, keys: string[] = []): AttributedFile {
  return {
    path,
    byAi,
    generated: false,
    ignored: false,
    level: 'line',
    ranges: byAi ? [{ start: 2, end: 2, interactionKey: keys[0] ?? null }] : [],
    contributingInteractionKeys: keys,
  };
}

const commitFiles = [{ path: 'a.ts', committedBlob: Q, parentBlob: P }];

describe('noteComposer', () => {
  describe('selectCommitPairs', () => {
    it('keeps pairs of committed files up to the latest time; drops later edits and edits made after the commit', () => {
      const s1 = session('s1', [
        pair('s1', { pairId: 'used' }),
        pair('s1', { pairId: 'other-file', file: 'b.ts' }),
        pair('s1', { pairId: 'too-late', time: T + 5_000 }),
        // started from exactly the committed content: made after this commit
        pair('s1', { pairId: 'after-commit', preBlob: Q, postBlob: R }),
      ]);
      const s2 = session('s2', [pair('s2', { pairId: 'x', file: 'b.ts' })]);
      const { inCommit, reverted } = selectCommitPairs([s1, s2], commitFiles, T + 2_000, []);
      assert.deepEqual(
        [...inCommit].map(([s, pairs]) => [s.id, pairs.map((p) => p.pairId)]),
        [['s1', ['used']]],
      );
      assert.equal(reverted.size, 0);
    });

    it('leaves out an edit whose file went back to its pre-blob before the commit (observed states count)', () => {
      const files = [
        { path: 'a.ts', committedBlob: Q, parentBlob: P },
        { path: 'c.ts', committedBlob: R, parentBlob: P },
      ];
      const s1 = session('s1', [pair('s1', { pairId: 'kept' }), pair('s1', { pairId: 'undone', file: 'c.ts', preBlob: P, postBlob: Q })]);
      // c.ts: back to P (undo) after the edit, then a human change to R
      const observed = [
        { file: 'c.ts', time: T + 100, postBlob: P },
        { file: 'c.ts', time: T + 200, postBlob: R },
      ];
      const { inCommit, reverted } = selectCommitPairs([s1], files, T + 2_000, observed);
      assert.deepEqual([...reverted], ['s1/undone']);
      assert.deepEqual(
        inCommit.get(s1)?.map((p) => p.pairId),
        ['kept'],
      );
      // without the observed undo the edit stays in the commit
      assert.equal(selectCommitPairs([s1], files, T + 2_000, []).inCommit.get(s1)?.length, 2);
    });
  });

  it('editPairInputs: session-qualified pair ids, counts only when both are known, content-less pairs as AI files', () => {
    const s1 = session('s1', [
      pair('s1', { pairId: 't1', editAdded: 1, editDeleted: 0 }),
      pair('s1', { pairId: 't2', preBlob: undefined, editAdded: 3 }),
      pair('s1', { pairId: 'pre-only', file: 'new.ts', postBlob: undefined }),
    ]);
    const { inputs, aiFiles } = editPairInputs(new Map([[s1, s1.pairs]]));
    assert.deepEqual(inputs, [
      {
        file: 'a.ts',
        postBlob: Q,
        interactionKey: 'claude:s1:1',
        agent: 'claude',
        timestamp: T,
        pairId: 's1/t1',
        preBlob: P,
        editAdded: 1,
        editDeleted: 0,
      },
      { file: 'a.ts', postBlob: Q, interactionKey: 'claude:s1:1', agent: 'claude', timestamp: T, pairId: 's1/t2' },
    ]);
    assert.deepEqual(aiFiles, ['new.ts']);
  });

  describe('composeNote', () => {
    const s1 = session('s1', [pair('s1', { pairId: 't1' })]);
    const inCommit = new Map([[s1, s1.pairs]]);
    const attribution = (files: AttributedFile[]): CommitAttribution => ({
      files,
      attribution: { ai_ratio: 50, method: 'line', lines: { ai_added: 1, total_added: 2, deleted: 0 } },
      summary: 'perFile',
      contributingInteractionKeys: files.flatMap((f) => f.contributingInteractionKeys),
    });

    it('is undefined for a commit without an AI file (human-only)', () => {
      assert.equal(
        composeNote({ commit: { subject: 'chore', patch: '' }, inCommit, attribution: attribution([attributed('a.ts', false)]), clock }),
        undefined,
      );
    });

    it('builds the note from the journal: prompt, response, tools, files and ratio; markers for the session', () => {
      const built = composeNote({
        commit: { subject: 'feat: b', patch: '+b\n' },
        inCommit,
        attribution: attribution([attributed('a.ts', true, ['claude:s1:1']), attributed('README.md', false)]),
        clock,
      });
      assert.ok(built);
      assert.equal(built.note.session_id, 's1');
      assert.equal(built.note.model, 'claude-opus-4-6');
      assert.deepEqual(
        built.note.interactions.map((i) => [i.prompt, i.response, i.files_touched, i.tools]),
        [['Add b to a.ts', 'Added b.', ['a.ts'], ['Edit']]],
      );
      assert.deepEqual(built.note.files, [
        { path: 'a.ts', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] },
        { path: 'README.md', by_ai: false },
      ]);
      assert.equal(built.note.attribution.ai_ratio, 50);
      assert.ok(built.markers.length > 0 && built.markers.every((m) => m.sessionId === 's1'));
      assert.equal(built.redactions, 0);
    });

    it('counts every redaction marker of the note text, also markers the journal already held', () => {
      const s = session('s1', [pair('s1', { pairId: 't1' })], 'use [REDACTED:github-token] and KEY-1');
      const built = composeNote({
        commit: { subject: 'feat: b', patch: '' },
        inCommit: new Map([[s, s.pairs]]),
        attribution: attribution([attributed('a.ts', true, ['claude:s1:1'])]),
        clock,
        redact: (text) => ({ text: text.replace('KEY-1', '[REDACTED:custom]'), count: text.includes('KEY-1') ? 1 : 0 }),
      });
      assert.equal(built?.note.interactions[0].prompt, 'use [REDACTED:github-token] and [REDACTED:custom]');
      assert.equal(built?.redactions, 2);
    });
  });

  it('consumptionLines: each consumption key once in the CLI shape, then the session’s markers', () => {
    const s1 = session('s1', [
      pair('s1', { pairId: 't1', consumeLines: [{ turn: 1, file: 'a.ts', change_id: null, tool_use_id: 't1' }] }),
      // an entry another pair consumes as well: one line
      pair('s1', { pairId: 't1b', consumeLines: [{ turn: 1, file: 'a.ts', change_id: null, tool_use_id: 't1' }] }),
      pair('s1', { pairId: 'c', consumeLines: [{ turn: 1, file: 'a.ts', change_id: 'cid', tool_use_id: null }] }),
    ]);
    const s2 = session('s2', [pair('s2', { pairId: 'u' })]);
    const markers: PromptWindowMarker[] = [
      { key: 'claude:s1:1', sessionId: 's1', turn: 1, promptId: 'p1', scope: 'window' },
      { key: 'claude:s9:1', sessionId: 's9', turn: 1, promptId: null, scope: 'tail' },
    ];
    const lines = consumptionLines(
      new Map([
        [s1, s1.pairs],
        [s2, s2.pairs],
      ]),
      markers,
    );
    assert.deepEqual(lines.get(s1), [
      { turn: 1, file: 'a.ts', change_id: null, tool_use_id: 't1' },
      { turn: 1, file: 'a.ts', change_id: 'cid', tool_use_id: null },
      { turn: 1, file: null, change_id: null, tool_use_id: null, prompt_id: 'p1', prompt_scope: 'window' },
    ]);
    assert.deepEqual(lines.get(s2), [{ turn: 1, file: 'a.ts', change_id: null, tool_use_id: 'u' }]);
  });
});
