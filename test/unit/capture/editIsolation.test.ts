import * as assert from 'node:assert/strict';
import { EditCapture, type AgentClaim, type CaptureOutput, type ContentTransition } from '../../../src/core/capture/editCapture';
import { isolateEffect } from '../../../src/core/capture/editIsolation';
import type { EditEvent } from '../../../src/core/model/agentEvents';

const edit = (e: Partial<EditEvent>): EditEvent => ({
  kind: 'edit',
  agent: 'claude',
  sessionId: 's1',
  file: '/repo/a.txt',
  tool: 'Edit',
  ...e,
});
const claim = (key: string, agent: 'claude' | 'codex', e: Partial<EditEvent>, receivedAt: number): AgentClaim => ({
  key,
  file: 'a.txt',
  agent,
  sessionId: agent,
  turn: 1,
  interactionKey: `${agent}:${agent}:1`,
  edit: edit({ agent, ...e }),
  receivedAt,
});
const tr = (id: string, before: string, after: string, time: number): ContentTransition => ({
  id,
  file: 'a.txt',
  before,
  after,
  time,
  source: 'disk',
});
/** Lines of `after` that `before` does not have. */
const addedLines = (t: { before: string; after: string }): string[] => {
  const had = new Set(t.before.split('\n'));
  return t.after.split('\n').filter((l) => l && !had.has(l));
};
const ai = (outs: CaptureOutput[]) => outs.filter((o): o is Extract<CaptureOutput, { kind: 'ai' }> => o.kind === 'ai');

// one coalesced disk write: Claude inserts "k1" after line 4, then Codex replaces line 2 by "c1"
const before = 'l1\nl2\nl3\nl4\nl5\n';
const afterClaude = 'l1\nl2\nl3\nl4\nk1\nl5\n';
const after = 'l1\nc1\nl3\nl4\nk1\nl5\n';
const claudeEdit = { oldString: 'l4\n', newString: 'l4\nk1\n' };
const codexPatch = `*** Begin Patch\n*** Update File: a.txt\n@@\n l1\n-l2\n+c1\n l3\n l4\n k1\n l5\n*** End Patch\n`;

describe('isolateEffect', () => {
  it('undoes an old→new string replacement from the result', () => {
    assert.equal(isolateEffect(edit(claudeEdit), before, afterClaude), before, 'the edit explains the whole change');
    assert.equal(isolateEffect(edit(claudeEdit), before, 'l1\nc1\nl3\nl4\nk1\nl5\n'), 'l1\nc1\nl3\nl4\nl5\n');
  });

  it('reverse-applies a Codex patch and a unified diff', () => {
    assert.equal(isolateEffect(edit({ tool: 'apply_patch', patch: codexPatch }), before, after), afterClaude);
    const unified = `--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n l1\n-l2\n+c1\n l3\n`;
    assert.equal(isolateEffect(edit({ tool: 'apply_patch', patch: unified }), before, after), afterClaude);
  });

  it('keeps CRLF files CRLF', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    assert.equal(isolateEffect(edit(claudeEdit), crlf(before), crlf(after)), crlf('l1\nc1\nl3\nl4\nl5\n'));
  });

  it('gives up when the undo is ambiguous or impossible', () => {
    assert.equal(isolateEffect(edit({ oldString: 'x', newString: 'dup' }), 'a\n', 'dup\ndup\n'), undefined, 'new text twice');
    assert.equal(isolateEffect(edit({ oldString: 'x', newString: 'gone' }), 'a\n', 'b\n'), undefined, 'new text absent');
    assert.equal(isolateEffect(edit({ contents: 'whole\n' }), '', 'whole\n'), undefined, 'a full write cannot be undone');
    assert.equal(isolateEffect(edit({ oldString: 'a', newString: 'b', replaceAll: true }), 'a a\n', 'b b\n'), undefined);
    assert.equal(isolateEffect(edit({ oldString: 'a\n', newString: '' }), 'a\nb\n', 'b\n'), undefined, 'a deletion has no text to find');
    assert.equal(isolateEffect(edit({ oldString: 'l4', newString: 'k1', failed: true }), before, after), undefined);
  });
});

describe('EditCapture with coalesced changes', () => {
  it('two agents in one disk write: each claim gets exactly its own lines, in either arrival order', () => {
    for (const order of ['claude-first', 'codex-first']) {
      const cap = new EditCapture();
      cap.addTransition(tr('t1', before, after, 1000));
      const claims = [
        claim('k-claude', 'claude', claudeEdit, 1200),
        claim('k-codex', 'codex', { tool: 'apply_patch', patch: codexPatch }, 1300),
      ];
      if (order === 'codex-first') claims.reverse();
      const outs = ai(claims.flatMap((c) => cap.addClaim(c)));
      assert.equal(outs.length, 2, order);
      const byAgent = new Map(outs.map((o) => [o.claim.agent, o.transition]));
      const codex = byAgent.get('codex');
      const claude = byAgent.get('claude');
      assert.ok(codex && claude);
      // each part adds exactly its author's lines (the intermediate text depends on which claim came first)
      assert.deepEqual(addedLines(claude), ['k1'], order);
      assert.deepEqual(addedLines(codex), ['c1'], order);
      assert.deepEqual(
        cap.tick(60_000).filter((o) => o.kind === 'human' || o.kind === 'other'),
        [],
        'nothing left over',
      );
    }
  });

  it("a person's write coalesced with an agent's edit: the agent's part is AI, the rest stays the person's", () => {
    const cap = new EditCapture({ graceMs: 1000 });
    // the person created the file in a terminal (h1, h2) and Codex replaced h1 by two lines at once
    const patch = `*** Begin Patch\n*** Update File: a.txt\n@@\n-h1\n+c1\n+c2\n h2\n*** End Patch\n`;
    cap.addTransition(tr('t1', '', 'c1\nc2\nh2\n', 1000));
    const outs = ai(cap.addClaim(claim('k1', 'codex', { tool: 'apply_patch', patch }, 1100)));
    assert.equal(outs.length, 1);
    assert.deepEqual([outs[0].transition.before, outs[0].transition.after], ['h1\nh2\n', 'c1\nc2\nh2\n']);
    const rest = cap.tick(5000).filter((o) => o.kind === 'other');
    assert.equal(rest.length, 1);
    assert.ok(rest[0].kind === 'other');
    assert.deepEqual([rest[0].transition.before, rest[0].transition.after], ['', 'h1\nh2\n']);
  });

  it('a claim waiting for its change gets only its part when the change arrives coalesced', () => {
    const cap = new EditCapture();
    assert.deepEqual(cap.addClaim(claim('k-claude', 'claude', claudeEdit, 900)), []);
    assert.deepEqual(cap.addClaim(claim('k-codex', 'codex', { tool: 'apply_patch', patch: codexPatch }, 950)), []);
    const outs = ai(cap.addTransition(tr('t1', before, after, 1000)));
    assert.deepEqual(outs.map((o) => [o.claim.agent, addedLines(o.transition)]).sort(), [
      ['claude', ['k1']],
      ['codex', ['c1']],
    ]);
  });

  it('three authors in one write (person, then Codex, then Claude), the Codex claim waiting first', () => {
    const cap = new EditCapture({ graceMs: 1000 });
    const patch = `*** Begin Patch\n*** Update File: a.txt\n@@\n-h1\n+c1\n+c2\n+c3\n h2\n*** End Patch\n`;
    assert.deepEqual(cap.addClaim(claim('k-codex', 'codex', { tool: 'apply_patch', patch }, 900)), []);
    const first = ai(cap.addTransition(tr('t1', '', 'c1\nk1\nk2\nc2\nc3\nh2\n', 1000)));
    assert.deepEqual(first, [], "Codex's lines are not together in the result until Claude's are taken out");
    const outs = ai(cap.addClaim(claim('k-claude', 'claude', { oldString: 'c1\n', newString: 'c1\nk1\nk2\n' }, 1100)));
    assert.equal(new Set(outs.map((o) => o.transition.id)).size, outs.length, 'every part has an id of its own (the timeline keys on it)');
    assert.deepEqual(
      outs.map((o) => [o.claim.agent, addedLines(o.transition)]),
      [
        ['claude', ['k1', 'k2']],
        ['codex', ['c1', 'c2', 'c3']],
      ],
    );
    const rest = cap.tick(5000).filter((o) => o.kind === 'other');
    assert.deepEqual(
      rest.map((o) => (o.kind === 'other' ? [o.transition.before, o.transition.after] : [])),
      [['', 'h1\nh2\n']],
      "the person's part",
    );
  });

  it('a claim that cannot be isolated still shares the whole change (the previous behaviour)', () => {
    const cap = new EditCapture();
    cap.addTransition(tr('t1', '', 'w\n', 1000));
    assert.equal(ai(cap.addClaim(claim('k1', 'claude', { contents: 'w\n' }, 1100))).length, 1);
    const second = ai(cap.addClaim(claim('k2', 'codex', { contents: 'w\n' }, 1200)));
    assert.equal(second.length, 1);
    assert.equal(second[0].transition.id, 't1');
  });
});
