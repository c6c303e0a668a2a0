import * as assert from 'node:assert/strict';
import type { AgentEvent, AgentId } from '../../../src/core/model/agentEvents';
import { createTranscriptParser, type TranscriptContext } from '../../../src/core/agents/transcriptParser';
import { transcriptPathInfo } from '../../../src/core/agents/registry/registry';
import { lineFixtures } from './fixtureSupport';

function feed(agent: AgentId, ctx: TranscriptContext, lines: unknown[]): AgentEvent[] {
  const p = createTranscriptParser(agent, ctx);
  return lines.flatMap((l) => p.push(typeof l === 'string' ? l : JSON.stringify(l)));
}

/** Every string of 12+ characters in the saved state must not occur in the transcript (ids and hashes are shorter or not in it). */
function assertNoTranscriptText(saved: unknown, bytes: Uint8Array, where: string): void {
  const transcript = Buffer.from(bytes).toString('utf8');
  const strings: string[] = [];
  const walk = (v: unknown, key = ''): void => {
    if (typeof v === 'string') {
      // identifiers (session, message, tool, record ids), the cwd and the model name are kept on purpose
      if (!/^(sessionId|cwd|model|uuids|toolUses|lostMessages|doneCalls|lastPromptRecordId|recordId|hash|state)$/.test(key))
        strings.push(v);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(saved);
  for (const s of strings)
    if (s.length >= 12) assert.ok(!transcript.includes(s), `${where}: saved state holds transcript text ${JSON.stringify(s.slice(0, 80))}`);
}

function kinds(events: AgentEvent[]): string[] {
  return events.map((e) => e.kind);
}

/**
 * After a resume inside a construct whose text was not saved (the saved state holds no transcript
 * text), events may be missing — never different claims: the same prompts in the same order (a
 * prompt split by the cut is marked `… `), responses and other events one pass also emits, and
 * edits only of files and tool calls one pass also edits.
 */
function assertOnlyGaps(resumed: AgentEvent[], onePass: AgentEvent[], where: string): void {
  const same = (a: AgentEvent, b: AgentEvent) => JSON.stringify(a) === JSON.stringify(b);
  const prompts = (list: AgentEvent[]) => list.filter((e) => e.kind === 'prompt');
  const rp = prompts(resumed);
  const op = prompts(onePass);
  assert.equal(rp.length, op.length, `${where}: prompt count`);
  rp.forEach((p, i) => {
    const o = op[i];
    if (p.kind !== 'prompt' || o.kind !== 'prompt') return;
    if (!p.text.startsWith('…')) assert.equal(p.text, o.text, `${where}: prompt ${i}`);
  });
  const editKeys = new Set(onePass.flatMap((e) => (e.kind === 'edit' ? [`${e.file}|${e.toolUseId ?? ''}`] : [])));
  for (const e of resumed) {
    if (e.kind === 'prompt') continue;
    if (e.kind === 'edit')
      assert.ok(editKeys.has(`${e.file}|${e.toolUseId ?? ''}`), `${where}: edit of ${e.file} that one pass does not make`);
    else
      assert.ok(
        onePass.some((o) => same(o, e)),
        `${where}: ${e.kind} event one pass does not emit: ${JSON.stringify(e).slice(0, 200)}`,
      );
  }
}

describe('parser state: resume from a saved offset', () => {
  for (const f of lineFixtures()) {
    it(`${f.agent}/${f.formatVersion}/${f.name}: at every line, restored state + remaining lines give the same events as one pass (only gaps where text was in flight)`, () => {
      const lines = Buffer.from(f.bytes).toString('utf8').split('\n');
      let exactCuts = 0;
      for (let cut = 1; cut < lines.length; cut++) {
        const a = createTranscriptParser(f.agent, f.expected.ctx);
        const head = lines.slice(0, cut).flatMap((l) => a.push(l));
        const inFlight = a.inFlightText();
        const saved = JSON.parse(JSON.stringify(a.saveState())) as unknown;
        // the saved state never holds the text of the transcript
        assertNoTranscriptText(saved, f.bytes, `cut before line ${cut + 1}`);
        const b = createTranscriptParser(f.agent, f.expected.ctx);
        const announced = b.restoreState(saved);
        const tail = [...lines.slice(cut).flatMap((l) => b.push(l)), ...b.flush()];
        const resumed = [...head, ...tail];
        if (!inFlight) {
          assert.deepEqual(resumed, f.expected.events, `cut before line ${cut + 1}`);
          exactCuts++;
        } else assertOnlyGaps(resumed, f.expected.events, `cut before line ${cut + 1}`);
        // the resumed parser announces the session (once its id is known) with the turns before the cut
        const prompts = new Set(head.flatMap((e, i) => (e.kind === 'prompt' ? [e.recordId ?? `#${i}`] : []))).size;
        const rewound = head.filter((e) => e.kind === 'rewind').length;
        if (head.some((e) => e.kind === 'session')) {
          assert.equal(announced.length, 1, `cut before line ${cut + 1}`);
          const s = announced[0];
          assert.equal(s.kind, 'session');
          if (!rewound) assert.equal(s.kind === 'session' ? s.priorTurns : -1, prompts, `cut before line ${cut + 1}`);
        }
      }
      assert.ok(exactCuts > 0, 'some cuts have nothing in flight');
    });
  }

  it('ignores an invalid saved state', () => {
    const p = createTranscriptParser('claude', { filePath: '/x/11111111-2222-4333-8444-555555555555.jsonl' });
    assert.deepEqual(p.restoreState({ v: 2 }), []);
    assert.deepEqual(p.restoreState('garbage'), []);
  });
});

describe('parser edge cases', () => {
  it('counts non-object JSON and schema mismatches instead of throwing', () => {
    for (const agent of ['claude', 'cursor', 'codex', 'gemini'] as AgentId[]) {
      const p = createTranscriptParser(agent, { filePath: `/t/${agent}/abc.jsonl`, sessionIdHint: 's1' });
      for (const l of ['42', 'null', '[1,2]', '"str"', '{', '\u0000\u0000']) p.push(l);
      assert.equal(p.stats.records, 0, agent);
      assert.equal(p.stats.skipped.invalidJson + p.stats.skipped.schemaMismatch + p.stats.skipped.unknownType, 6, agent);
      assert.ok(p.stats.skipped.invalidJson >= 2, agent);
    }
  });

  it('codex: pairs user_message and agent_message mirrors in either order and prefers the user_message text', () => {
    const ev = (type: string, payload: object) => ({ timestamp: '2026-01-01T00:00:00.000Z', type, payload });
    const events = feed('codex', { filePath: '/c/rollout-2026-01-01T00-00-00-019a0000-0000-7000-8000-000000000001.jsonl', cwdHint: '/r' }, [
      ev('session_meta', { id: '019a0000-0000-7000-8000-000000000001', cwd: '/r' }),
      ev('event_msg', { type: 'user_message', message: 'first' }),
      ev('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first' }] }),
      ev('event_msg', { type: 'agent_message', message: 'done one' }),
      ev('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done one' }] }),
      ev('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'extra' }] }),
      ev('event_msg', { type: 'agent_message', message: 'extra' }),
    ]);
    assert.deepEqual(
      events.map((e) => (e.kind === 'prompt' || e.kind === 'response' ? `${e.kind}:${e.text}` : e.kind)),
      ['session', 'prompt:first', 'response:done one', 'response:extra'],
    );
  });

  it('codex: a user_message whose text differs from the just-emitted response_item prompt replaces it (same recordId)', () => {
    const ev = (type: string, payload: object) => ({ type, payload });
    const events = feed('codex', { filePath: '/c/rollout-x-019a0000-0000-7000-8000-000000000002.jsonl' }, [
      ev('session_meta', { id: 's', cwd: '/r' }),
      ev('response_item', {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'fix [image #1]' },
          { type: 'input_image', image_url: 'x' },
        ],
      }),
      ev('event_msg', { type: 'user_message', message: 'fix' }),
      ev('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ignored mirror' }] }),
      ev('event_msg', { type: 'user_message', message: 'second' }),
    ]);
    const prompts = events.filter((e) => e.kind === 'prompt');
    assert.deepEqual(
      prompts.map((e) => (e.kind === 'prompt' ? [e.text, e.recordId] : [])),
      [
        ['fix [image #1]', 'prompt-1'],
        ['fix', 'prompt-1'],
        ['second', 'prompt-2'],
      ],
    );
  });

  it('codex: a subagent rollout emits edits but no prompts', () => {
    const events = feed('codex', { filePath: '/c/rollout-x-019a0000-0000-7000-8000-000000000003.jsonl' }, [
      { type: 'session_meta', payload: { id: 'sub', cwd: '/r', source: { subagent: { parent_thread_id: 'p' } } } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'task from parent' }] } },
      {
        type: 'response_item',
        payload: {
          type: 'custom_tool_call',
          name: 'apply_patch',
          call_id: 'c1',
          input: '*** Begin Patch\n*** Add File: x.ts\n+x\n*** End Patch',
        },
      },
      { type: 'event_msg', payload: { type: 'patch_apply_end', call_id: 'c1', success: true } },
    ]);
    assert.deepEqual(kinds(events), ['session', 'edit']);
    assert.equal(events[1].kind === 'edit' && events[1].file, '/r/x.ts');
  });

  it('cursor: a subagent transcript is attributed to the parent session without prompts or responses', () => {
    const ctx = { filePath: '/h/.cursor/projects/p/agent-transcripts/parent-1/subagents/sub-9.jsonl', cwdHint: '/r' };
    const events = feed('cursor', ctx, [
      { role: 'user', message: { content: [{ type: 'text', text: '<user_query>do the sub task</user_query>' }] } },
      {
        role: 'assistant',
        message: {
          content: [
            { type: 'text', text: 'ok' },
            { type: 'tool_use', name: 'Write', input: { path: '/r/s.ts', contents: 's\n' } },
          ],
        },
      },
    ]);
    assert.deepEqual(events, [
      { kind: 'session', agent: 'cursor', sessionId: 'parent-1', cwd: '/r' },
      { kind: 'edit', agent: 'cursor', sessionId: 'parent-1', file: '/r/s.ts', tool: 'Write', contents: 's\n' },
    ]);
  });

  it('gemini: a subagent chat under chats/<parent>/ keeps the parent id', () => {
    const ctx = { filePath: '/h/.gemini/tmp/proj/chats/9b2f14c0-aaaa-4bbb-8ccc-ddddeeeeffff/sub-1.jsonl', cwdHint: '/r' };
    const events = feed('gemini', ctx, [
      { sessionId: 'sub-1', projectHash: 'h', startTime: '2026-01-01T00:00:00.000Z', kind: 'subagent' },
      { id: 'u', type: 'user', content: 'task' },
      {
        id: 'g',
        type: 'gemini',
        content: 'done',
        toolCalls: [{ id: 't', name: 'write_file', args: { file_path: 'a.ts', content: 'a\n' }, status: 'success' }],
      },
    ]);
    assert.deepEqual(kinds(events), ['session', 'edit']);
    assert.equal(events[0].sessionId, '9b2f14c0-aaaa-4bbb-8ccc-ddddeeeeffff');
  });

  it('claude: a tool_result whose tool_use is not in the file is rebuilt from toolUseResult', () => {
    const events = feed('claude', { filePath: '/h/.claude/projects/-r/11111111-2222-4333-8444-555555555555.jsonl' }, [
      {
        type: 'user',
        uuid: 'u',
        sessionId: '11111111-2222-4333-8444-555555555555',
        cwd: '/r',
        message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'ok' }] },
        toolUseResult: { type: 'create', filePath: '/r/n.ts', content: 'a\nb\n', structuredPatch: [] },
      },
    ]);
    assert.deepEqual(events[1], {
      kind: 'edit',
      agent: 'claude',
      sessionId: '11111111-2222-4333-8444-555555555555',
      file: '/r/n.ts',
      tool: 'Write',
      toolUseId: 'toolu_x',
      contents: 'a\nb\n',
      added: 2,
      removed: 0,
    });
  });

  it('claude: inline sidechain records (older files) give edits but no prompt/response, and later prompts still count', () => {
    const sid = '22222222-2222-4333-8444-555555555555';
    const rec = (o: object) => ({ sessionId: sid, cwd: '/r', timestamp: '2025-01-01T00:00:00.000Z', ...o });
    const events = feed('claude', { filePath: `/h/.claude/projects/-r/${sid}.jsonl` }, [
      rec({ type: 'user', uuid: 'a', isSidechain: true, message: { content: 'task text from the parent' } }),
      rec({
        type: 'assistant',
        uuid: 'b',
        isSidechain: true,
        message: {
          id: 'm1',
          content: [
            { type: 'text', text: 'sub reply' },
            { type: 'tool_use', id: 't1', name: 'Write', input: { file_path: '/r/x.ts', content: 'x\n' } },
          ],
        },
      }),
      rec({
        type: 'user',
        uuid: 'c',
        isSidechain: true,
        message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
        toolUseResult: { type: 'create', filePath: '/r/x.ts', content: 'x\n' },
      }),
      rec({ type: 'user', uuid: 'd', message: { content: 'a real prompt' } }),
      rec({ type: 'assistant', uuid: 'e', message: { id: 'm2', model: 'claude-x', content: [{ type: 'text', text: 'main reply' }] } }),
    ]);
    assert.deepEqual(
      events.map((e) =>
        e.kind === 'prompt' || e.kind === 'response' ? `${e.kind}:${e.text}` : e.kind === 'edit' ? `edit:${e.file}` : e.kind,
      ),
      ['session', 'edit:/r/x.ts', 'prompt:a real prompt', 'session', 'response:main reply'],
    );
  });

  it('gemini: $rewindTo an unknown id clears everything, so re-appended ids are new again', () => {
    const ctx = { filePath: '/h/.gemini/tmp/p/chats/session-2026-01-01T00-00-aaaaaaaa.jsonl' };
    const p = createTranscriptParser('gemini', ctx);
    const push = (o: unknown) => p.push(JSON.stringify(o));
    push({ sessionId: 'aaaaaaaa-1', projectHash: 'h' });
    assert.equal(kinds(push({ id: 'm1', type: 'user', content: 'hi' })).join(), 'prompt');
    assert.equal(kinds(push({ id: 'm1', type: 'user', content: 'hi' })).join(), '');
    assert.equal(kinds(push({ $rewindTo: 'nope' })).join(), 'rewind');
    assert.equal(kinds(push({ id: 'm1', type: 'user', content: 'hi' })).join(), 'prompt');
    assert.equal(p.saveState().prompts, 1);
  });
});

describe('transcriptPathInfo', () => {
  it('derives session ids and subagent flags from paths', () => {
    assert.deepEqual(transcriptPathInfo('cursor', '/h/.cursor/projects/p/agent-transcripts/abc/abc.jsonl'), {
      sessionId: 'abc',
      sidechain: false,
      format: 'jsonl',
    });
    assert.deepEqual(transcriptPathInfo('cursor', '/h/.cursor/projects/p/agent-transcripts/abc.txt'), {
      sessionId: 'abc',
      sidechain: false,
      format: 'txt',
    });
    assert.deepEqual(transcriptPathInfo('cursor', '/h/.cursor/projects/p/agent-transcripts/abc/subagents/s1.jsonl'), {
      sessionId: 'abc',
      sidechain: true,
      format: 'jsonl',
    });
    assert.deepEqual(transcriptPathInfo('claude', '/h/.claude/projects/-r/u-1.jsonl'), {
      sessionId: 'u-1',
      sidechain: false,
      format: 'jsonl',
    });
    assert.deepEqual(transcriptPathInfo('claude', '/h/.claude/projects/-r/u-1/subagents/agent-a1.jsonl'), {
      sessionId: 'u-1',
      sidechain: true,
      format: 'jsonl',
    });
    assert.deepEqual(transcriptPathInfo('claude', '/h/.claude/projects/-r/agent-a1.jsonl'), { sidechain: true, format: 'jsonl' });
    assert.deepEqual(
      transcriptPathInfo('codex', '/h/.codex/sessions/2026/10/05/rollout-2026-10-05T09-14-00-019a5f00-0000-7000-8000-00000000c0de.jsonl'),
      { sessionId: '019a5f00-0000-7000-8000-00000000c0de', sidechain: false, format: 'jsonl' },
    );
    assert.deepEqual(transcriptPathInfo('gemini', '/h/.gemini/tmp/p/chats/session-2026-10-05T07-14-9b2f14c0.json'), {
      sidechain: false,
      format: 'json',
    });
    assert.deepEqual(transcriptPathInfo('gemini', 'C:\\h\\.gemini\\tmp\\p\\chats\\par\\child.jsonl'), {
      sessionId: 'par',
      sidechain: true,
      format: 'jsonl',
    });
  });
});
