import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/model/agentEvents';
import { SessionModel, compactedResponseChars, type AgentSession, type SessionChange } from '../../../src/core/session/sessionModel';
import { lineFixtures, runBytes } from '../agents/fixtureSupport';

class FakeClock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

const T0 = Date.parse('2026-10-05T07:14:00.000Z');

function summary(s: Readonly<AgentSession> | undefined) {
  return s?.turns.map((t) => ({
    index: t.index,
    prompt: t.prompt,
    response: t.response,
    files: t.files,
    tools: t.tools,
    edits: t.edits.map((e) => `${e.tool}:${e.file.replace(/^.*\//, '')}:${e.added ?? '-'}/${e.removed ?? '-'}${e.failed ? ':failed' : ''}`),
    commits: t.commits.length,
  }));
}

function fixtureEvents(agent: string, version: string, name: string): AgentEvent[] {
  const f = lineFixtures().find((x) => x.agent === agent && x.formatVersion === version && x.name === name)!;
  return runBytes(f.agent, f.expected.ctx, f.bytes).events;
}

describe('SessionModel', () => {
  it('builds turns from a Claude transcript (merged responses, edits, tools, files, commits, model)', () => {
    const clock = new FakeClock(Date.parse('2026-10-05T07:23:00.000Z'));
    const m = new SessionModel({ clock });
    for (const e of fixtureEvents('claude', 'v2-2026', 'session')) m.apply(e);
    const s = m.get('claude', '0d3c7a10-1111-4222-8333-444455556666')!;
    assert.equal(s.cwd, '/home/ann/proj');
    assert.equal(s.model, 'claude-opus-4-6');
    assert.equal(s.heartbeat, Date.parse('2026-10-05T07:22:10.000Z'));
    assert.equal(s.active, true);
    assert.deepEqual(summary(s), [
      {
        index: 1,
        prompt: 'rename greet() to welcome() and add a test',
        response: 'Renaming the function.',
        files: ['/home/ann/proj/src/greet.ts', '/home/ann/proj/test/welcome.test.ts'],
        tools: ['Edit', 'Write'],
        edits: ['Edit:greet.ts:1/1', 'Write:welcome.test.ts:1/0'],
        commits: 0,
      },
      {
        index: 2,
        prompt: 'now make welcome() take an optional greeting',
        response: "I'll add the parameter.",
        files: [],
        tools: ['Edit'],
        edits: ['Edit:greet.ts:-/-:failed'],
        commits: 0,
      },
      {
        index: 3,
        prompt: 'commit this',
        response: 'Committing.\nCommitted as feat: rename greet to welcome.',
        files: [],
        tools: ['Bash'],
        edits: [],
        commits: 1,
      },
    ]);
    assert.equal(s.turns[0].model, undefined);
    assert.equal(s.turns[1].model, 'claude-sonnet-4-5');
    assert.equal(s.turns[0].timestamp, '2026-10-05T07:14:02.000Z');
  });

  it('replays Gemini upserts and $rewindTo (mergeKey replaces, rewound turns disappear)', () => {
    const m = new SessionModel({ clock: new FakeClock(T0) });
    for (const e of fixtureEvents('gemini', 'jsonl-2026', 'session')) m.apply(e);
    const s = m.get('gemini', '9b2f14c0-aaaa-4bbb-8ccc-ddddeeeeffff')!;
    assert.deepEqual(summary(s), [
      {
        index: 1,
        prompt: 'rename greet() to welcome() in @src/greet.ts',
        response: "I'll rename it.\nDone.",
        files: ['/home/ann/proj/src/greet.ts'],
        tools: ['replace'],
        edits: ['replace:greet.ts:1/1'],
        commits: 0,
      },
      {
        index: 2,
        prompt: 'add a banner in src/ui/banner.ts',
        response: 'OK, adding it to src/ui.',
        files: [],
        tools: [],
        edits: [],
        commits: 0,
      },
    ]);
    assert.equal(s.model, 'gemini-3-flash');
  });

  it('applies Codex rollbacks by turn count', () => {
    const m = new SessionModel({ clock: new FakeClock(T0) });
    for (const e of fixtureEvents('codex', '2026-custom-tool', 'rollout')) m.apply(e);
    const s = m.get('codex', '019a5f00-0000-7000-8000-00000000c0de')!;
    assert.deepEqual(
      s.turns.map((t) => [t.index, t.prompt]),
      [[1, 'rename greet() to welcome()']],
    );
    assert.equal(s.cwd, '/home/ann/proj/packages/core');
  });

  it('updates a prompt re-emitted with the same recordId instead of starting a turn', () => {
    const m = new SessionModel({ clock: new FakeClock(T0) });
    const base = { agent: 'codex', sessionId: 's' } as const;
    m.apply({ ...base, kind: 'prompt', text: 'fix [image]', recordId: 'prompt-1' });
    m.apply({ ...base, kind: 'prompt', text: 'fix', recordId: 'prompt-1' });
    m.apply({ ...base, kind: 'prompt', text: 'next', recordId: 'prompt-2' });
    assert.deepEqual(
      m.get('codex', 's')!.turns.map((t) => [t.index, t.prompt]),
      [
        [1, 'fix'],
        [2, 'next'],
      ],
    );
  });

  it('puts activity before the first prompt in turn 0 and numbers turns after priorTurns on resume', () => {
    const m = new SessionModel({ clock: new FakeClock(T0) });
    const base = { agent: 'cursor', sessionId: 'c' } as const;
    m.apply({ ...base, kind: 'session', cwd: '/r', priorTurns: 4 });
    m.apply({ ...base, kind: 'edit', file: '/r/a.ts', tool: 'Write' });
    m.apply({ ...base, kind: 'prompt', text: 'again' });
    m.apply({ ...base, kind: 'response', text: 'ok' });
    assert.deepEqual(summary(m.get('cursor', 'c')), [
      { index: 0, prompt: undefined, response: '', files: ['/r/a.ts'], tools: ['Write'], edits: ['Write:a.ts:-/-'], commits: 0 },
      { index: 5, prompt: 'again', response: 'ok', files: [], tools: [], edits: [], commits: 0 },
    ]);
  });

  it('ignores events whose source key was already applied (re-read after rotation)', () => {
    const m = new SessionModel({ clock: new FakeClock(T0) });
    const e: AgentEvent = { agent: 'claude', sessionId: 's', kind: 'prompt', text: 'p' };
    assert.equal(m.apply(e, { key: '/t/s.jsonl:0:0' }), true);
    assert.equal(m.apply(e, { key: '/t/s.jsonl:0:0' }), false);
    assert.equal(m.apply(e, { key: '/t/s.jsonl:10:0' }), true);
    assert.equal(m.get('claude', 's')!.turns.length, 2);
  });

  it('tracks heartbeat from record time, else file time, else the clock, and flips to idle', () => {
    const clock = new FakeClock(T0);
    const m = new SessionModel({ clock, idleAfterMs: 60_000 });
    const changes: string[] = [];
    const sub = m.onDidChange((c: SessionChange) => changes.push(`${c.kind}:${c.session.id}:${c.session.active}`));
    m.apply({ agent: 'cursor', sessionId: 'a', kind: 'prompt', text: 'x' }, { fileTimeMs: T0 - 30_000, transcriptPath: '/t/a.jsonl' });
    m.apply({ agent: 'claude', sessionId: 'b', kind: 'prompt', text: 'y', timestamp: new Date(T0 - 120_000).toISOString() });
    m.apply({ agent: 'codex', sessionId: 'c', kind: 'prompt', text: 'z' });
    assert.equal(m.get('cursor', 'a')!.heartbeat, T0 - 30_000);
    assert.deepEqual(m.get('cursor', 'a')!.transcriptPaths, ['/t/a.jsonl']);
    assert.equal(m.get('codex', 'c')!.heartbeat, T0);
    assert.deepEqual(
      m.activeSessions().map((s) => s.id),
      ['c', 'a'],
    );
    clock.t = T0 + 45_000;
    m.refreshActivity();
    assert.deepEqual(
      m.activeSessions().map((s) => s.id),
      ['c'],
    );
    sub.dispose();
    m.apply({ agent: 'codex', sessionId: 'c', kind: 'response', text: 'r' });
    assert.deepEqual(changes, ['added:a:true', 'added:b:false', 'added:c:true', 'activity:a:false']);
  });

  it('notifies once per changed session for a batch', () => {
    const m = new SessionModel({ clock: new FakeClock(T0) });
    const changes: string[] = [];
    m.onDidChange((c) => changes.push(`${c.kind}:${c.session.id}`));
    const n = m.applyAll([
      { event: { agent: 'claude', sessionId: 'a', kind: 'prompt', text: '1' }, source: { key: 'k1' } },
      { event: { agent: 'claude', sessionId: 'a', kind: 'response', text: '2' }, source: { key: 'k2' } },
      { event: { agent: 'claude', sessionId: 'a', kind: 'response', text: '2' }, source: { key: 'k2' } },
      { event: { agent: 'gemini', sessionId: 'b', kind: 'prompt', text: '3' } },
    ]);
    assert.equal(n, 3);
    assert.deepEqual(changes, ['added:a', 'added:b']);
    m.applyAll([{ event: { agent: 'claude', sessionId: 'a', kind: 'tool', tool: 'Read' } }]);
    assert.deepEqual(changes, ['added:a', 'added:b', 'updated:a']);
  });

  it('keeps only the newest turns beyond the cap, with their numbers', () => {
    const m = new SessionModel({ clock: new FakeClock(T0), maxTurnsPerSession: 3 });
    for (let i = 1; i <= 5; i++) m.apply({ agent: 'claude', sessionId: 's', kind: 'prompt', text: `p${i}` });
    assert.deepEqual(
      m.get('claude', 's')!.turns.map((t) => t.index),
      [3, 4, 5],
    );
    m.apply({ agent: 'claude', sessionId: 's', kind: 'prompt', text: 'p6' });
    assert.deepEqual(
      m.get('claude', 's')!.turns.map((t) => t.index),
      [4, 5, 6],
    );
  });

  it('ignores a re-delivered recent event after a long session (bounded de-duplication)', () => {
    const m = new SessionModel({ clock: new FakeClock(T0) });
    const tool = (i: number) => ({
      event: { agent: 'claude' as const, sessionId: 's', kind: 'tool' as const, tool: `T${i}` },
      source: { key: `/t.jsonl:${i}:0` },
    });
    m.apply({ agent: 'claude', sessionId: 's', kind: 'prompt', text: 'long one' });
    for (let i = 0; i < 10_000; i++) m.applyAll([tool(i)]);
    assert.equal(m.get('claude', 's')!.turns[0].tools.length, 10_000);
    // the last few hundred events arrive again (a tailer re-read after a truncation): nothing changes
    for (let i = 9_700; i < 10_000; i++) m.applyAll([{ ...tool(i), event: { ...tool(i).event, tool: 'Again' } }]);
    assert.equal(m.get('claude', 's')!.turns[0].tools.includes('Again'), false);
  });

  it('compacts turns eight prompts behind the newest: response cut, segment keys kept, no longer growing', () => {
    const m = new SessionModel({ clock: new FakeClock(T0) });
    const long = 'r'.repeat(5000);
    m.apply({ agent: 'gemini', sessionId: 's', kind: 'prompt', text: 'p1', recordId: 'u1' });
    m.apply({ agent: 'gemini', sessionId: 's', kind: 'response', text: long, mergeKey: 'g1' });
    m.apply({ agent: 'gemini', sessionId: 's', kind: 'response', text: 'tail', mergeKey: 'g2' });
    for (let i = 2; i <= 8; i++) m.apply({ agent: 'gemini', sessionId: 's', kind: 'prompt', text: `p${i}` });
    let first = m.get('gemini', 's')!.turns[0];
    assert.equal(first.compacted, false, 'seven prompts behind: still whole');
    assert.equal(first.response, `${long}\ntail`);
    m.apply({ agent: 'gemini', sessionId: 's', kind: 'prompt', text: 'p9' });
    first = m.get('gemini', 's')!.turns[0];
    assert.equal(first.compacted, true);
    assert.equal(first.response, long.slice(0, compactedResponseChars));
    assert.equal(first.prompt, 'p1');
    // an upsert of a compacted segment changes nothing; the newest turns are untouched
    m.apply({ agent: 'gemini', sessionId: 's', kind: 'response', text: 'changed', mergeKey: 'g1' });
    assert.equal(m.get('gemini', 's')!.turns[0].response, long.slice(0, compactedResponseChars));
    assert.equal(m.get('gemini', 's')!.turns[1].compacted, false);
    // a rewind to a compacted segment still finds it by its key
    m.apply({ agent: 'gemini', sessionId: 's', kind: 'rewind', toRecordId: 'g2' });
    assert.deepEqual(
      m.get('gemini', 's')!.turns.map((t) => t.index),
      [1],
    );
  });
});
