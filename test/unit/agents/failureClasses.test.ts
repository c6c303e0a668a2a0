import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentEvent, AgentId } from '../../../src/core/model/agentEvents';
import { concatenatedJsonRecords } from '../../../src/core/agents/baseParser';
import { createTranscriptParser, type ParserStats } from '../../../src/core/agents/transcriptParser';
import { Counters } from '../../../src/core/ports';
import { TranscriptTailer } from '../../../src/node/transcripts/transcriptTailer';
import { jsonl, makeTempDir, writeFile } from '../transcripts/tempFiles';

/**
 * The failure classes F1–F8 found on the real-world corpus (docs/transcripts.md, "The real-world
 * corpus"), each pinned by small synthetic records shaped like the real ones, so each holds
 * without the corpus folder.
 */

function parse(agent: AgentId, filePath: string, lines: string[]): { events: AgentEvent[]; stats: ParserStats } {
  const parser = createTranscriptParser(agent, { filePath });
  const events: AgentEvent[] = [];
  for (const l of lines) events.push(...parser.push(l));
  events.push(...parser.flush());
  return { events, stats: parser.stats };
}

function prompts(events: AgentEvent[]): { text: string; plan?: true }[] {
  return events.flatMap((e) => (e.kind === 'prompt' ? [e.plan ? { text: e.text, plan: e.plan } : { text: e.text }] : []));
}

const sid = '0f469ab8-bece-40b3-b3b8-c37e9ea7bc4b';
const claudeFile = `/home/u/.claude/projects/-p/${sid}.jsonl`;
const claudeBase = { sessionId: sid, cwd: '/p', isSidechain: false, userType: 'external', version: '2.1.218' };

function claudeUser(uuid: string, content: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ...claudeBase,
    type: 'user',
    uuid,
    timestamp: '2026-07-22T23:58:00.000Z',
    message: { role: 'user', content },
    ...extra,
  });
}

const codexFile = '/home/u/.codex/sessions/2026/07/24/rollout-2026-07-24T04-28-59-019f9261-846e-7fc0-b843-e0464227f290.jsonl';
const codexMeta = JSON.stringify({
  timestamp: '2026-07-24T04:28:59.000Z',
  type: 'session_meta',
  payload: { id: '019f9261-846e-7fc0-b843-e0464227f290', cwd: '/p', source: 'vscode', originator: 'Codex Desktop' },
});
function codexEvent(ts: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ timestamp: ts, type: 'event_msg', payload });
}

describe('failure classes of the real-world corpus (F1–F8)', () => {
  it('F1 Claude: a prompt queued while the agent was busy (attachment queued_command) is a prompt; bash-mode and injected ones are not', () => {
    const attachment = (uuid: string, a: Record<string, unknown>) =>
      JSON.stringify({
        ...claudeBase,
        type: 'attachment',
        uuid,
        timestamp: '2026-07-22T23:58:25.619Z',
        attachment: { type: 'queued_command', ...a },
      });
    const r = parse('claude', claudeFile, [
      claudeUser('u1', 'first prompt'),
      attachment('a1', { prompt: 'Note that it is checked out in ~/Project', commandMode: 'prompt', origin: { kind: 'human' } }),
      attachment('a2', { prompt: 'ls -la', commandMode: 'bash', origin: { kind: 'human' } }),
      attachment('a3', { prompt: 'from a teammate', commandMode: 'prompt', origin: { kind: 'teammate' } }),
      attachment('a4', { prompt: [{ type: 'image' }, { type: 'text', text: 'with an image' }], commandMode: 'prompt' }),
      attachment('a1', { prompt: 'Note that it is checked out in ~/Project', commandMode: 'prompt' }),
      JSON.stringify({ ...claudeBase, type: 'attachment', uuid: 'a5', attachment: { type: 'hook_success', content: 'ok' } }),
    ]);
    assert.deepEqual(prompts(r.events), [
      { text: 'first prompt' },
      { text: 'Note that it is checked out in ~/Project' },
      { text: 'with an image' },
    ]);
    assert.equal(r.stats.skipped.unknownType, 0);
  });

  it('F2 Codex: an injected <recommended_plugins> item is not a prompt', () => {
    const r = parse('codex', codexFile, [
      codexMeta,
      codexEvent('2026-07-24T04:29:00.000Z', {
        type: 'user_message',
        message: '<recommended_plugins>\nHere is a list of plugins that are available\n</recommended_plugins>',
      }),
      JSON.stringify({
        timestamp: '2026-07-24T04:29:00.100Z',
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<recommended_plugins>\n…\n</recommended_plugins>' }],
        },
      }),
      codexEvent('2026-07-24T04:29:01.000Z', { type: 'user_message', message: 'Do an adversarial review' }),
    ]);
    assert.deepEqual(prompts(r.events), [{ text: 'Do an adversarial review' }]);
  });

  it('F3 Codex: the /review instruction written twice is not a prompt; any message written twice within a second counts once', () => {
    const review = 'Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.';
    const r = parse('codex', codexFile, [
      codexMeta,
      codexEvent('2026-07-24T04:33:00.000Z', { type: 'user_message', message: "Let's draft these first 5 :)" }),
      codexEvent('2026-07-24T04:34:06.138Z', { type: 'entered_review_mode', target: { type: 'uncommittedChanges' } }),
      codexEvent('2026-07-24T04:34:06.258Z', { type: 'task_started', turn_id: 't2' }),
      codexEvent('2026-07-24T04:34:08.073Z', { type: 'user_message', message: review }),
      codexEvent('2026-07-24T04:34:08.075Z', { type: 'user_message', message: review }),
      codexEvent('2026-07-24T04:35:23.794Z', { type: 'exited_review_mode', review_output: { findings: [] } }),
      codexEvent('2026-07-24T04:36:24.036Z', { type: 'user_message', message: 'implement changes recommended' }),
      codexEvent('2026-07-24T04:36:24.038Z', { type: 'user_message', message: 'implement changes recommended' }),
      codexEvent('2026-07-24T04:40:00.000Z', { type: 'user_message', message: 'implement changes recommended' }),
    ]);
    assert.deepEqual(prompts(r.events), [
      { text: "Let's draft these first 5 :)" },
      { text: 'implement changes recommended' },
      { text: 'implement changes recommended' },
    ]);
  });

  it('F3 Codex: review mode ends at a new turn, so a later prompt of that turn counts', () => {
    const r = parse('codex', codexFile, [
      codexMeta,
      codexEvent('2026-07-24T04:34:06.000Z', { type: 'entered_review_mode', target: { type: 'commit', sha: 'abc' } }),
      JSON.stringify({ timestamp: '2026-07-24T04:35:00.000Z', type: 'turn_context', payload: { cwd: '/p', model: 'gpt-5.5' } }),
      codexEvent('2026-07-24T04:35:01.000Z', { type: 'user_message', message: 'a typed prompt' }),
    ]);
    assert.deepEqual(prompts(r.events), [{ text: 'a typed prompt' }]);
  });

  it('F4 Claude: an accepted plan (planContent) is kept as the turn prompt, marked as a plan, under its "Implement the following plan:" heading', () => {
    const plan = '# Fix entire-external-agent skill subcommand discovery\n\n## Context\n…';
    const r = parse('claude', claudeFile, [
      claudeUser('u1', `Implement the following plan:\n\n${plan}`, { planContent: plan }),
      claudeUser('u2', 'commit'),
      claudeUser('u3', [{ type: 'text', text: 'x' }], { planContent: 'the plan', isMeta: false }),
    ]);
    assert.deepEqual(prompts(r.events), [
      { text: `Implement the following plan:\n\n${plan}`, plan: true },
      { text: 'commit' },
      { text: 'x', plan: true },
    ]);
    assert.deepEqual(
      prompts(parse('claude', claudeFile, [claudeUser('u1', [], { planContent: 'the plan' })]).events),
      [{ text: 'Implement the following plan:\n\nthe plan', plan: true }],
      'no text of its own: the plan under the heading Claude writes',
    );
  });

  it('F5 Claude: <ide_opened_file> and <ide_selection> blocks are removed from the prompt; a record of only those is no prompt', () => {
    const r = parse('claude', claudeFile, [
      claudeUser('u1', [
        {
          type: 'text',
          text: '<ide_opened_file>The user opened the file /p/mise.toml in the IDE. This may or may not be related.</ide_opened_file>',
        },
        { type: 'text', text: 'create me a .github/CODEOWNERS' },
      ]),
      claudeUser('u2', '<ide_selection>The user selected lines 1 to 3 of /p/a.go:\nfunc a() {}</ide_selection>\nexplain this'),
      claudeUser('u3', [{ type: 'text', text: '<ide_opened_file>The user opened the file /p/b.go in the IDE.</ide_opened_file>' }]),
    ]);
    assert.deepEqual(prompts(r.events), [{ text: 'create me a .github/CODEOWNERS' }, { text: 'explain this' }]);
  });

  describe('F6 a last line without newline (Cursor .txt)', () => {
    let tmp: ReturnType<typeof makeTempDir>;
    beforeEach(() => (tmp = makeTempDir('f6')));
    afterEach(() => tmp.cleanup());

    it('is read once the file is quiet (not before, never twice), and what is appended later is read as new lines', async () => {
      const file = path.join(tmp.dir, 'agent-transcripts', 'b1f67f41-ac2c-4f9d-9fed-7201f74c8424.txt');
      const mtime = Date.UTC(2026, 0, 1, 12, 0, 0);
      writeFile(
        file,
        'user:\n<user_query>\nfirst question\n</user_query>\n\nassistant:\nfirst answer\n\nuser:\n<user_query>\nlast question\n</user_query>',
        mtime,
      );
      let now = mtime + 100;
      const events: AgentEvent[] = [];
      const counters = new Counters();
      const t = new TranscriptTailer({
        agent: 'cursor',
        filePath: file,
        useFsWatch: false,
        pollIntervalMs: 0,
        finalLineQuietMs: 2000,
        clock: { now: () => now },
        counters,
        onEvents: (b) => events.push(...b.map((e) => e.event)),
      });
      try {
        await t.start();
        assert.deepEqual(prompts(events), [{ text: 'first question' }], 'the unterminated last line waits while the file may still grow');
        now = mtime + 5000;
        await t.readNow();
        assert.deepEqual(prompts(events), [{ text: 'first question' }, { text: 'last question' }]);
        assert.equal(t.stats.finalLinesRead, 1);
        assert.equal(counters.get('tailer.finalLinesWithoutNewline'), 1);
        await t.readNow();
        await t.readNow();
        assert.equal(prompts(events).length, 2, 'never read twice');
        fs.appendFileSync(file, '\n\nassistant:\nthe answer\n\nuser:\n<user_query>\nnext\n</user_query>\n\nassistant:\nok\n');
        fs.utimesSync(file, (mtime + 6000) / 1000, (mtime + 6000) / 1000);
        now = mtime + 9000;
        await t.readNow();
        assert.deepEqual(prompts(events), [{ text: 'first question' }, { text: 'last question' }, { text: 'next' }]);
      } finally {
        t.dispose();
      }
    });

    it('a JSONL last line is read only once it is a complete record', async () => {
      const file = path.join(tmp.dir, 'projects', '-p', `${sid}.jsonl`);
      const mtime = Date.UTC(2026, 0, 1, 12, 0, 0);
      const full = claudeUser('u1', 'the only prompt');
      writeFile(file, full.slice(0, 40), mtime);
      const events: AgentEvent[] = [];
      const t = new TranscriptTailer({
        agent: 'claude',
        filePath: file,
        useFsWatch: false,
        pollIntervalMs: 0,
        clock: { now: () => mtime + 60_000 },
        onEvents: (b) => events.push(...b.map((e) => e.event)),
      });
      try {
        await t.start();
        assert.equal(events.length, 0, 'a cut record waits');
        assert.equal(t.parserStats.skipped.invalidJson, 0);
        fs.appendFileSync(file, full.slice(40));
        fs.utimesSync(file, mtime / 1000, (mtime + 1) / 1000);
        await t.readNow();
        assert.deepEqual(prompts(events), [{ text: 'the only prompt' }]);
        fs.appendFileSync(file, '\n');
        await t.readNow();
        assert.deepEqual(prompts(events), [{ text: 'the only prompt' }], 'the newline that comes later adds nothing');
      } finally {
        t.dispose();
      }
    });
  });

  it('F7: two complete records on one line are both read; a "}{" inside a string does not split a record', () => {
    const a = claudeUser('u1', 'first');
    const b = claudeUser('u2', 'second {"x":1}{"y":2}');
    const r = parse('claude', claudeFile, [a + b, a.slice(0, 20) + b]);
    assert.deepEqual(prompts(r.events), [{ text: 'first' }, { text: 'second {"x":1}{"y":2}' }]);
    assert.equal(r.stats.skipped.invalidJson, 1, 'a cut record glued to a whole one stays one invalid line');
    assert.deepEqual(concatenatedJsonRecords('{"a":"}{"}'), undefined);
    assert.deepEqual(concatenatedJsonRecords('{"a":1} {"b":[2]}'), ['{"a":1}', '{"b":[2]}']);
  });

  describe('F8 unknown record types', () => {
    let tmp: ReturnType<typeof makeTempDir>;
    beforeEach(() => (tmp = makeTempDir('f8')));
    afterEach(() => tmp.cleanup());

    it('Claude bridge-session / pr-link and Codex world_state / undo_completed are skipped and counted (parser stats and tailer.unknownRecords)', async () => {
      const claude = parse('claude', claudeFile, [
        JSON.stringify({ type: 'bridge-session', sessionId: sid, bridgeSessionId: 'b' }),
        JSON.stringify({ type: 'pr-link', sessionId: sid, prUrl: 'https://example.test/pr/1' }),
        claudeUser('u1', 'still read'),
      ]);
      assert.equal(claude.stats.skipped.unknownType, 2);
      assert.deepEqual(prompts(claude.events), [{ text: 'still read' }]);
      const codexLines = [
        codexMeta,
        JSON.stringify({ timestamp: '2026-07-24T04:30:00.000Z', type: 'world_state', payload: { full: {} } }),
        codexEvent('2026-07-24T04:30:01.000Z', { type: 'undo_completed', success: true }),
        codexEvent('2026-07-24T04:30:02.000Z', { type: 'token_count', info: null }),
        codexEvent('2026-07-24T04:30:03.000Z', { type: 'user_message', message: 'still read' }),
      ];
      const codex = parse('codex', codexFile, codexLines);
      assert.equal(codex.stats.skipped.unknownType, 2);
      assert.deepEqual(prompts(codex.events), [{ text: 'still read' }]);

      const file = path.join(tmp.dir, 'sessions', '2026', '07', '24', path.basename(codexFile));
      writeFile(file, jsonl(codexLines.map((l) => JSON.parse(l) as unknown)));
      const counters = new Counters();
      const t = new TranscriptTailer({
        agent: 'codex',
        filePath: file,
        useFsWatch: false,
        pollIntervalMs: 0,
        counters,
        onEvents: () => {},
      });
      try {
        await t.start();
      } finally {
        t.dispose();
      }
      assert.equal(counters.get('tailer.unknownRecords'), 2);
      assert.equal(counters.get('tailer.skippedRecords'), 0, 'unknown types are not bad input');
    });
  });

  it('Gemini: a JSONL without its metadata line is read under the id its file name gives', () => {
    const file = '/home/u/.gemini/tmp/p/chats/session-2025-12-06T18-25-38b36361.jsonl';
    const r = parse('gemini', file, [
      JSON.stringify({
        id: 'm1',
        timestamp: '2025-12-06T18:25:18.042Z',
        type: 'user',
        content: 'add another hello bob console log to @index.ts',
      }),
      JSON.stringify({
        id: 'm2',
        type: 'gemini',
        content: 'I will add it.',
        model: 'gemini-2.5-flash',
        toolCalls: [{ id: 'replace-1', name: 'replace', args: { file_path: '/p/index.ts', old_string: 'a', new_string: 'a\nb' } }],
      }),
    ]);
    assert.deepEqual(prompts(r.events), [{ text: 'add another hello bob console log to @index.ts' }]);
    assert.deepEqual(
      r.events.filter((e) => e.kind === 'edit').map((e) => [e.file, e.toolUseId, e.failed]),
      [['/p/index.ts', 'replace-1', undefined]],
    );
    assert.deepEqual([...new Set(r.events.map((e) => e.sessionId))], ['session-2025-12-06T18-25-38b36361']);
  });
});
