import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentEvent, EditEvent, PromptEvent } from '../../../src/core/model/agentEvents';
import { createTranscriptParser } from '../../../src/core/agents/transcriptParser';
import { replayMutationLog } from '../../../src/core/agents/copilot/mutationLog';
import { copilotEditTools } from '../../../src/core/agents/copilot/tools';
import { EditCapture } from '../../../src/core/capture/editCapture';
import { replacementStats } from '../../../src/core/agents/editStats';

/** The genuine samples (read in place, never copied): ../shared from the project root. */
const projectRoot = resolve(__dirname, '../../../..');
const corpus = resolve(projectRoot, '../shared/fixtures/realworld-transcripts');
const haveCorpus = existsSync(join(corpus, 'copilot'));

interface ExpectedFile {
  file: string;
  agent: string;
  format?: string;
  sessionId: string | null;
  models: string[];
  prompts: { requestId?: string; timestamp?: number; text: string }[];
  edits: { id: string; tool: string; file: string; request: number | null }[];
}

function parser(filePath: string) {
  return createTranscriptParser('copilot', { filePath });
}

const edits = (events: AgentEvent[]) => events.filter((e): e is EditEvent => e.kind === 'edit');
const prompts = (events: AgentEvent[]) => events.filter((e): e is PromptEvent => e.kind === 'prompt');

/** A request as VS Code stores it (only the fields the parser reads, plus a few it must ignore). */
function request(
  id: string,
  text: string,
  opts: {
    ts?: number;
    calls?: { id: string; name: string; args: unknown }[];
    response?: unknown[];
    editedFileEvents?: unknown[];
    modelId?: string;
  } = {},
) {
  const r: Record<string, unknown> = {
    requestId: id,
    timestamp: opts.ts ?? 1_770_000_000_000,
    message: { text, parts: [] },
    modelId: opts.modelId ?? 'copilot/claude-sonnet-4',
    variableData: { variables: [] },
    response: opts.response ?? [{ value: `answer to ${text}`, supportThemeIcons: false }],
    followups: [],
  };
  if (opts.calls)
    r.result = {
      timings: { totalElapsed: 10 },
      metadata: {
        toolCallRounds: [
          {
            id: `round-${id}`,
            response: '',
            toolCalls: opts.calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.args) })),
            toolInputRetry: 0,
          },
        ],
        agentId: 'github.copilot.editsAgent',
      },
    };
  if (opts.editedFileEvents) r.editedFileEvents = opts.editedFileEvents;
  r.modelState = { value: 1, completedAt: 1_770_000_001_000 };
  return r;
}

function state(requests: unknown[], sessionId = 'sess-1') {
  return { version: 3, sessionId, creationDate: 1_770_000_000_000, requests, inputState: { inputText: '' } };
}

const log = (...entries: unknown[]) => entries.map((e) => JSON.stringify(e)).join('\n') + '\n';

describe('GitHub Copilot Chat sessions (src/core/agents/copilot)', () => {
  describe('the genuine samples (../shared/fixtures/realworld-transcripts/copilot)', () => {
    const expected: ExpectedFile[] = haveCorpus
      ? (JSON.parse(readFileSync(join(corpus, 'expected.json'), 'utf8')) as ExpectedFile[]).filter(
          (x) => x.agent === 'copilot' && x.format !== 'copilot-transcript',
        )
      : [];
    if (!haveCorpus) {
      it('(skipped: the shared corpus is not next to the project)', function () {
        console.log(`    ! ${corpus} is absent: the Copilot corpus tests are skipped`);
        this.skip();
      });
    }
    for (const x of expected) {
      it(`${x.file}: the prompts, model, session id and edit calls that expected.json lists`, () => {
        const filePath = join(corpus, x.file);
        const p = parser(filePath);
        const events = p.parseWholeFile(readFileSync(filePath, 'utf8'));
        assert.equal(p.mode, 'wholeFile');
        assert.deepEqual(p.stats.skipped, { invalidJson: 0, schemaMismatch: 0, unknownType: 0 });
        const ps = prompts(events);
        assert.deepEqual(
          ps.map((e) => [e.recordId, e.text]),
          x.prompts.map((q) => [q.requestId, q.text]),
        );
        x.prompts.forEach((q, i) => q.timestamp !== undefined && assert.equal(ps[i].timestamp, new Date(q.timestamp).toISOString()));
        const sessionIds = new Set(events.map((e) => e.sessionId));
        const stem = x.file.replace(/^.*\//, '').replace(/\.jsonl?$/, '');
        assert.deepEqual([...sessionIds], [x.sessionId ?? stem], 'one session id: the root sessionId, else the file name');
        const models = new Set(events.flatMap((e) => (e.kind === 'session' && e.model ? [e.model] : [])));
        assert.deepEqual(
          [...models],
          x.models.map((m) => m.replace(/^copilot\//, '')),
        );
        // every edit call, with its tool and file; insert_edit_into_file claims only the applied text
        const es = edits(events);
        for (const want of x.edits) {
          const got = es.filter((e) => e.toolUseId === want.id || e.toolUseId?.startsWith(`${want.id}#`));
          assert.ok(got.length > 0, `edit ${want.id}`);
          for (const e of got) {
            assert.equal(e.tool, want.tool);
            assert.equal(e.file, want.file);
            assert.equal(e.failed, undefined);
          }
          if (want.tool === 'insert_edit_into_file') {
            assert.ok(
              got.every((e) => e.oldString === '' && e.newString !== undefined && !e.newString.includes('...existing code...')),
              'never the sketch',
            );
            assert.ok(got.some((e) => e.newString === "5,Why did 7sadfh32u23gdaWF cross the road?,To debug the chicken's code."));
          }
        }
        assert.equal(new Set(es.map((e) => e.toolUseId?.replace(/#\d+$/, ''))).size, x.edits.length, 'no other edit');
        // a second read of the same bytes emits nothing
        assert.deepEqual(p.parseWholeFile(readFileSync(filePath, 'utf8')), []);
      });
    }

    it('replace_string_in_file of the 0.31.5 session carries the exact old and new strings', function () {
      if (!haveCorpus) return this.skip();
      const filePath = join(corpus, 'copilot/git-ai--0.31.5-json--copilot_session_simple.json');
      const [e] = edits(parser(filePath).parseWholeFile(readFileSync(filePath, 'utf8')));
      assert.ok(e.oldString?.endsWith("console.log('Bonjour World');"));
      assert.ok(e.newString?.endsWith("console.log('hello world');"));
      assert.equal(e.added, 1);
      assert.equal(e.removed, 1);
    });

    it('insert_edit_into_file of the 1.109 log: the captured editor change gives Copilot only the inserted line', function () {
      if (!haveCorpus) return this.skip();
      const filePath = join(corpus, 'copilot/git-ai--0.37.1-jsonl--copilot_session_multiline.jsonl');
      const es = edits(parser(filePath).parseWholeFile(readFileSync(filePath, 'utf8')));
      const before = [
        'id,setup,punchline',
        '1,Why do programmers prefer dark mode?,Because light attracts bugs.',
        '2,Why did the developer go broke?,Because he used up all his cache.',
        "3,Why do Java developers wear glasses?,Because they can't C#.",
        "4,What's a programmer's favorite hangout place?,Foo Bar.",
        '',
      ].join('\n');
      const added = "5,Why did 7sadfh32u23gdaWF cross the road?,To debug the chicken's code.\n";
      const cap = new EditCapture({ recordFallback: () => false });
      cap.addTransition({ id: 't1', file: 'jokes.csv', time: 1000, before, after: before + added, source: 'bulk' });
      const out = es.flatMap((e, i) =>
        cap.addClaim({
          key: `k${i}`,
          file: 'jokes.csv',
          agent: 'copilot',
          sessionId: e.sessionId,
          turn: 1,
          interactionKey: 'i',
          edit: { ...e, timestamp: undefined },
          receivedAt: 2000,
        }),
      );
      assert.equal(out.length, 1);
      const o = out[0];
      assert.ok(o.kind === 'ai');
      assert.equal(replacementStats(o.transition.before, o.transition.after).added, 1, 'one line is Copilot’s');
      assert.equal(o.transition.after, before + added);
      assert.ok(o.transition.before.startsWith('id,setup,punchline\n1,'), 'the existing lines stay the person’s');
    });

    it('the 1.109 log read as it grew, line by line, gives the same events once each; its compacted form adds nothing', function () {
      if (!haveCorpus) return this.skip();
      const filePath = join(corpus, 'copilot/git-ai--0.37.1-jsonl--copilot_session_multiline.jsonl');
      const text = readFileSync(filePath, 'utf8');
      const whole = parser(filePath).parseWholeFile(text);
      const lines = text.split('\n').filter((l) => l !== '');
      const p = parser(filePath);
      const grown: AgentEvent[] = [];
      for (let k = 1; k <= lines.length; k++) grown.push(...p.parseWholeFile(lines.slice(0, k).join('\n') + '\n'));
      const keyOf = (e: AgentEvent) => JSON.stringify(e);
      assert.deepEqual(new Set(grown.map(keyOf)), new Set(whole.map(keyOf)));
      assert.equal(grown.filter((e) => e.kind !== 'session').length, whole.filter((e) => e.kind !== 'session').length, 'nothing twice');
      // VS Code compacts the log: one `kind: 0` line with the state it replays to
      const compacted = log({ kind: 0, v: replayMutationLog(text).state });
      assert.ok(compacted.length < text.length);
      assert.deepEqual(p.parseWholeFile(compacted), []);
      assert.deepEqual(replayMutationLog(text).kinds, { 0: 1, 1: 4, 2: 1, 3: 0 });
    });
  });

  describe('the mutation log (kinds 0–3)', () => {
    it('replays set, push, truncate-then-push and delete in order', () => {
      const r = replayMutationLog(
        log(
          { kind: 0, v: { a: 1, list: [1, 2, 3], nested: { x: 'y' } } },
          { kind: 1, k: ['a'], v: 2 },
          { kind: 2, k: ['list'], v: [4] },
          { kind: 2, k: ['list'], v: [9], i: 1 },
          { kind: 2, k: ['fresh'], v: ['n'] },
          { kind: 3, k: ['nested', 'x'] },
          { kind: 1, k: ['nested', 'z'], v: { deep: true } },
        ),
      );
      assert.deepEqual(r.state, { a: 2, list: [1, 9], nested: { z: { deep: true } }, fresh: ['n'] });
      assert.deepEqual(r.kinds, { 0: 1, 1: 2, 2: 3, 3: 1 });
      assert.equal(r.rejected, 0);
    });

    it('starts again at a later kind 0, rejects entries before any state, bad paths and prototype keys', () => {
      const r = replayMutationLog(
        log(
          { kind: 1, k: ['a'], v: 1 },
          { kind: 0, v: { a: 0 } },
          { kind: 1, k: ['__proto__', 'polluted'], v: true },
          { kind: 1, k: ['constructor', 'prototype', 'x'], v: true },
          { kind: 1, k: ['missing', 'deep'], v: 1 },
          { kind: 2, k: ['a'], v: [1] },
          { kind: 7, k: [] },
          { kind: 0, v: { b: 1 } },
          { kind: 1, k: ['b'], v: 2 },
        ) + '{"kind":1,"k":["b"],"v":',
      );
      assert.deepEqual(r.state, { b: 2 });
      assert.equal(r.rejected, 6);
      assert.equal(r.invalidJson, 1);
      assert.equal(r.lastLineInvalid, true);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('stops after maxEntries lines', () => {
      const many = log({ kind: 0, v: { n: 0 } }, ...Array.from({ length: 50 }, (_, i) => ({ kind: 1, k: ['n'], v: i + 1 })));
      assert.deepEqual(replayMutationLog(many, { maxEntries: 11 }).state, { n: 10 });
    });
  });

  describe('events from a session', () => {
    const file = '/ws/chatSessions/sess-1.jsonl';
    const repo = '/repo';

    it('emits a new request pushed onto the log, its result set later, once each (and a truncated request as a rewind)', () => {
      const p = parser(file);
      let text = log({ kind: 0, v: state([request('r1', 'first prompt')]) });
      const first = p.parseWholeFile(text);
      assert.deepEqual(
        prompts(first).map((e) => [e.sessionId, e.recordId, e.text, e.model]),
        [['sess-1', 'r1', 'first prompt', 'claude-sonnet-4']],
      );
      assert.equal(first.filter((e) => e.kind === 'response').length, 0, 'no answer before the result');
      const r2 = request('r2', 'edit it', {
        calls: [{ id: 'c1', name: 'replace_string_in_file', args: { filePath: `${repo}/a.ts`, oldString: 'a', newString: 'b' } }],
      });
      const { result, ...pending } = r2;
      text += log({ kind: 2, k: ['requests'], v: [pending] });
      assert.deepEqual(
        prompts(p.parseWholeFile(text)).map((e) => e.text),
        ['edit it'],
      );
      text += log({ kind: 1, k: ['requests', 1, 'result'], v: result }, { kind: 1, k: ['inputState', 'inputText'], v: 'typing' });
      const later = p.parseWholeFile(text);
      assert.deepEqual(
        edits(later).map((e) => [e.tool, e.toolUseId, e.file, e.oldString, e.newString]),
        [['replace_string_in_file', 'c1', '/repo/a.ts', 'a', 'b']],
      );
      assert.deepEqual(p.parseWholeFile(text), []);
      // the person edits the first prompt and resends: VS Code truncates `requests` at 0
      text += log({ kind: 2, k: ['requests'], v: [request('r3', 'first prompt, reworded')], i: 0 });
      const again = p.parseWholeFile(text);
      assert.deepEqual(
        again
          .filter((e) => e.kind === 'rewind' || e.kind === 'prompt')
          .map((e) => [e.kind, e.kind === 'rewind' ? e.toRecordId : (e as PromptEvent).text]),
        [
          ['rewind', 'r1'],
          ['prompt', 'first prompt, reworded'],
        ],
      );
      // a log shorter than before (compacted) with the same state: nothing new
      assert.deepEqual(p.parseWholeFile(log({ kind: 0, v: replayMutationLog(text).state })), []);
    });

    it('reads every edit tool: multi replace, create, apply_patch per file; insert_edit only with the applied text', () => {
      const patch = [
        '*** Begin Patch',
        `*** Update File: ${repo}/p.ts`,
        '@@',
        '-old',
        '+new',
        `*** Add File: ${repo}/n.ts`,
        '+hello',
        '*** End Patch',
      ].join('\n');
      const events = parser('/ws/chatSessions/s.json').parseWholeFile(
        JSON.stringify(
          state([
            request('r1', 'do all', {
              calls: [
                {
                  id: 'm',
                  name: 'multi_replace_string_in_file',
                  args: {
                    explanation: 'x',
                    replacements: [
                      { filePath: `${repo}/a.ts`, oldString: '1', newString: '2' },
                      { filePath: `${repo}/b.ts`, oldString: '3', newString: '4' },
                    ],
                  },
                },
                { id: 'c', name: 'create_file', args: { filePath: `${repo}/c.ts`, content: 'x\ny\n' } },
                { id: 'p', name: 'apply_patch', args: { input: patch, explanation: 'e' } },
                { id: 's', name: 'insert_edit_into_file', args: { filePath: `${repo}/d.ts`, code: '...existing code...\nconst d = 1;' } },
                { id: 'z', name: 'insert_edit_into_file', args: { filePath: `${repo}/e.ts`, code: '// ...existing code...\nlost' } },
                { id: 't', name: 'run_in_terminal', args: { command: 'git commit -m x', explanation: 'commit' } },
                { id: 'g', name: 'grep_search', args: { query: 'x' } },
                { id: 'bad', name: 'create_file', args: 'not json' },
              ],
              response: [
                { value: 'Done.' },
                {
                  kind: 'textEditGroup',
                  uri: { $mid: 1, fsPath: `${repo}/d.ts`, path: `${repo}/d.ts`, scheme: 'file' },
                  edits: [
                    // an unchanged line rewritten with its own text: never claimed
                    [{ text: 'const keep = 0;', range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 16 } }],
                    [{ text: 'const d = 1;', range: { startLineNumber: 3, startColumn: 1, endLineNumber: 3, endColumn: 1 } }],
                    [{ text: '\n', range: { startLineNumber: 4, startColumn: 1, endLineNumber: 4, endColumn: 1 } }],
                    [],
                  ],
                  done: true,
                },
              ],
            }),
          ]),
        ),
      );
      assert.deepEqual(
        edits(events).map((e) => [
          e.tool,
          e.toolUseId,
          e.file,
          e.oldString ?? null,
          e.newString ?? e.contents ?? e.patch?.split('\n')[0] ?? null,
        ]),
        [
          ['multi_replace_string_in_file', 'm#0', '/repo/a.ts', '1', '2'],
          ['multi_replace_string_in_file', 'm#1', '/repo/b.ts', '3', '4'],
          ['create_file', 'c', '/repo/c.ts', null, 'x\ny\n'],
          ['apply_patch', 'p', '/repo/p.ts', null, `*** Update File: ${repo}/p.ts`],
          ['apply_patch', 'p', '/repo/n.ts', null, 'hello\n'],
          ['insert_edit_into_file', 's#0', '/repo/d.ts', '', 'const d = 1;'],
        ],
      );
      assert.deepEqual(
        events.filter((e) => e.kind === 'tool').map((e) => (e.kind === 'tool' ? e.tool : '')),
        ['insert_edit_into_file', 'run_in_terminal', 'grep_search'],
      );
      assert.equal(events.filter((e) => e.kind === 'commit').length, 1);
      assert.deepEqual(
        events.filter((e) => e.kind === 'response').map((e) => (e.kind === 'response' ? e.text : '')),
        ['Done.'],
      );
      assert.deepEqual([...new Set(copilotEditTools.map((t) => t.name))].sort(), [
        'apply_patch',
        'create_file',
        'insert_edit_into_file',
        'multi_replace_string_in_file',
        'replace_string_in_file',
      ]);
    });

    it('marks an edit failed when a later request reports its file undone (editedFileEvents Undo), not when kept after', () => {
      const uri = (p: string) => ({ $mid: 1, fsPath: p, path: p, scheme: 'file' });
      const events = parser('/ws/chatSessions/s.json').parseWholeFile(
        JSON.stringify(
          state([
            request('r1', 'edit a and b', {
              calls: [
                { id: 'a', name: 'replace_string_in_file', args: { filePath: '/repo/a.ts', oldString: 'x', newString: 'y' } },
                { id: 'b', name: 'replace_string_in_file', args: { filePath: '/repo/b.ts', oldString: 'x', newString: 'y' } },
                { id: 'c', name: 'replace_string_in_file', args: { filePath: '/repo/c.ts', oldString: 'x', newString: 'y' } },
              ],
            }),
            request('r2', 'next', {
              editedFileEvents: [
                { uri: uri('/repo/a.ts'), eventKind: 2 },
                { uri: uri('/repo/b.ts'), eventKind: 2 },
                { uri: uri('/repo/c.ts'), eventKind: 3 },
              ],
            }),
            request('r3', 'again', { editedFileEvents: [{ uri: uri('/repo/b.ts'), eventKind: 1 }] }),
          ]),
        ),
      );
      assert.deepEqual(
        edits(events).map((e) => [e.file, e.failed ?? false]),
        [
          ['/repo/a.ts', true],
          ['/repo/b.ts', false],
          ['/repo/c.ts', false],
        ],
      );
    });

    it('resumes from saved state without emitting the session again, and forgets everything on reset()', () => {
      const text = JSON.stringify(
        state([request('r1', 'hello', { calls: [{ id: 'c', name: 'create_file', args: { filePath: '/repo/x', content: 'x' } }] })]),
      );
      const p = parser('/ws/chatSessions/sess-1.json');
      const first = p.parseWholeFile(text);
      const q = parser('/ws/chatSessions/sess-1.json');
      const announced = q.restoreState(JSON.parse(JSON.stringify(p.saveState())));
      assert.deepEqual(
        announced.map((e) => [e.kind, e.sessionId, e.kind === 'session' ? e.priorTurns : undefined]),
        [['session', 'sess-1', 1]],
      );
      assert.deepEqual(q.parseWholeFile(text), []);
      p.reset();
      assert.deepEqual(p.parseWholeFile(text), first);
    });

    it('bounds hostile input: not JSON, wrong shapes, huge arguments, a non-file URI', () => {
      const p = parser('/ws/chatSessions/s.json');
      assert.deepEqual(p.parseWholeFile('{"requests": [oops'), []);
      assert.equal(p.stats.skipped.invalidJson, 1);
      assert.deepEqual(p.parseWholeFile(JSON.stringify({ requests: 'no' })), []);
      assert.deepEqual(p.parseWholeFile(JSON.stringify([1, 2])), []);
      const huge = 'x'.repeat(4 * 1024 * 1024 + 10);
      const events = p.parseWholeFile(
        JSON.stringify(
          state([
            { requestId: 7 },
            request('r1', 'huge', {
              calls: [
                { id: 'h', name: 'create_file', args: { filePath: '/repo/h', content: huge } },
                { id: 'v', name: 'replace_string_in_file', args: { filePath: 'vscode-remote://x/y', oldString: 'a', newString: 'b' } },
              ],
              response: [{ kind: 'textEditGroup', uri: { scheme: 'untitled', path: 'Untitled-1' }, edits: [[{ text: 'x', range: {} }]] }],
            }),
          ]),
        ),
      );
      assert.deepEqual(edits(events), []);
      assert.deepEqual(
        prompts(events).map((e) => e.text),
        ['huge'],
      );
      assert.ok(p.stats.skipped.schemaMismatch >= 3);
    });
  });
});
