// Edge behaviour of the recording pipeline: re-classification, turn alignment with the journal,
// record-only fallbacks, journals written by the Agent Note CLI, skip rules, retention, failures.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SessionJournal } from '../../../src/node/journal/sessionJournal';
import { RepositoryRecorder } from '../../../src/node/recorder/repositoryRecorder';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { Harness, T0 } from './recorderHarness';

const SID = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';
const GEMINI_SID = '3c9e1f2a-4b5d-4e6f-8a7b-9c0d1e2f3a4b';
const CODEX_SID = '019da962-23cc-7aa0-bbe3-a10f60fddada';

describe('RepositoryRecorder: pipeline details', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  it('a late agent record re-classifies a change already called human; the timeline shows it as AI (also after a reload)', async () => {
    h = await Harness.create({ 'a.ts': 'x\n' });
    const c = h.session('cursor', 'conv-late', 'gpt-5');
    await c.start();
    await c.prompt('Add y to a.ts');
    h.advance(1000);
    await h.change('a.ts', 'x\ny\n', 'bulk');
    h.advance(6000);
    await h.tick();
    assert.deepEqual(
      h.recorder.timelineEdits().map((e) => [e.id, e.origin]),
      [['tr-1', 'human']],
    );
    h.advance(20_000);
    await c.edit('a.ts', { tool: 'StrReplace', oldString: 'x\n', newString: 'x\ny\n', noTimestamp: true });
    await h.tick();
    const ai = h.recorder.timelineEdits();
    assert.deepEqual(
      ai.map((e) => [e.id, e.origin, e.agent, e.sessionId, e.turn, e.interactionKey]),
      [['tr-1', 'ai', 'cursor', 'conv-late', 1, 'cursor:conv-late:1']],
    );
    assert.equal(ai[0].time, T0 + 1000);
    assert.ok(ai[0].preBlob && ai[0].postBlob);
    // the human record stays in the capture log; the AI pair wins by transition id
    const log = fs.readFileSync(path.join(h.repo.dir, '.git', 'agentnote', 'capture', 'edits.jsonl'), 'utf8');
    assert.equal(log.trim().split('\n').length, 1);
    await h.reopen();
    assert.deepEqual(
      h.recorder.timelineEdits().map((e) => [e.id, e.origin]),
      [['tr-1', 'ai']],
    );
    h.advance(2000);
    const sha = await h.commitAll('feat: y');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    assert.deepEqual((await h.note(sha)).attribution, {
      ai_ratio: 100,
      method: 'line',
      lines: { ai_added: 1, total_added: 1, deleted: 0 },
    });
  });

  it('keeps model turns equal to journal turns across a rewind and prompts written by another tool', async () => {
    h = await Harness.create({});
    const g = h.session('gemini', GEMINI_SID, 'gemini-2.5-pro');
    await g.start();
    await g.prompt('one');
    await g.prompt('two');
    await g.rewind(1);
    await g.prompt('two again');
    const turns = () => h!.recorder.sessions.get('gemini', GEMINI_SID)?.turns.map((t) => [t.index, t.prompt]);
    assert.deepEqual(turns(), [
      [1, 'one'],
      [3, 'two again'],
    ]);
    assert.equal(h.journalFile(GEMINI_SID, 'turn'), '3');
    // the Agent Note CLI's hook recorded two prompts of this session meanwhile
    const js = new SessionJournal(path.join(h.repo.dir, '.git', 'agentnote')).session(GEMINI_SID)!;
    await js.recordPrompt({ prompt: 'from the CLI', agent: 'gemini' });
    await js.recordPrompt({ prompt: 'from the CLI too', agent: 'gemini' });
    await g.prompt('four');
    assert.deepEqual(turns()?.at(-1), [6, 'four']);
    assert.equal(h.journalFile(GEMINI_SID, 'turn'), '6');
    assert.equal(h.recorder.counters.get('recorder.turnMismatch'), 0);
  });

  it('two recorders on one repository (two editor windows) journal each prompt once', async () => {
    h = await Harness.create({});
    const other = await RepositoryRecorder.open(h.options());
    try {
      const s = h.session('claude', SID, 'claude-opus-4-6');
      await s.start();
      await s.prompt('one');
      await s.prompt('two');
      await other.onAgentEvents(s.sent);
      await s.prompt('three');
      await other.onAgentEvents(s.sent.slice(-1));
      assert.deepEqual(
        h.journalLines(SID, 'prompts*').map((p) => [p.turn, p.prompt]),
        [
          [1, 'one'],
          [2, 'two'],
          [3, 'three'],
        ],
      );
      for (const r of [h.recorder, other])
        assert.deepEqual(
          r.sessions.get('claude', SID)?.turns.map((t) => t.index),
          [1, 2, 3],
        );
      assert.equal(other.counters.get('recorder.promptsJournaledElsewhere'), 3);
    } finally {
      await other.dispose();
    }
  });

  it('a tailer resuming mid-transcript of a session the journal does not know numbers the next prompt after the prior turns', async () => {
    h = await Harness.create({});
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start({ priorTurns: 4 });
    await s.prompt('fifth prompt');
    assert.equal(h.journalFile(SID, 'turn'), '5');
    assert.deepEqual(
      h.journalLines(SID, 'prompts.jsonl').map((p) => p.turn),
      [5],
    );
    assert.deepEqual(
      h.recorder.sessions.get('claude', SID)?.turns.map((t) => t.index),
      [5],
    );
  });

  it('a transcript read long after the fact: journaled with its record times, not made the active session, no edit claims', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    const past = T0 - 3 * 24 * 3600 * 1000;
    const at = (ms: number) => new Date(past + ms).toISOString();
    await h.recorder.onAgentEvents(
      [
        {
          event: { kind: 'session', agent: 'claude', sessionId: SID, timestamp: at(0), model: 'claude-opus-4-6' } as const,
          key: `${s.transcriptPath}:0:0`,
        },
        {
          event: { kind: 'prompt', agent: 'claude', sessionId: SID, timestamp: at(1000), text: 'old prompt' } as const,
          key: `${s.transcriptPath}:100:0`,
        },
        {
          event: {
            kind: 'edit',
            agent: 'claude',
            sessionId: SID,
            timestamp: at(2000),
            file: h.repo.path('a.ts'),
            tool: 'Write',
            contents: 'a\nb\n',
          } as const,
          key: `${s.transcriptPath}:200:0`,
        },
        {
          event: { kind: 'response', agent: 'claude', sessionId: SID, timestamp: at(3000), text: 'old answer' } as const,
          key: `${s.transcriptPath}:300:0`,
        },
      ].map((i) => ({ ...i, transcriptPath: s.transcriptPath })),
    );
    await h.recorder.settle();
    assert.equal(h.journalFile(SID, 'heartbeat'), String(past + 3000));
    assert.equal(fs.existsSync(path.join(h.repo.dir, '.git', 'agentnote', 'session')), false);
    assert.equal(h.journalFile(SID, 'turn'), '1');
    assert.equal(h.recorder.counters.get('recorder.staleEdits'), 1);
    assert.equal(h.journalFile(SID, 'changes.jsonl'), undefined);
    // a live prompt makes it the active session again
    s.seek(400);
    await s.prompt('new prompt');
    assert.equal(fs.readFileSync(path.join(h.repo.dir, '.git', 'agentnote', 'session'), 'utf8'), SID);
    assert.equal(h.journalFile(SID, 'heartbeat'), String(T0));
  });

  it('records without timestamps (Cursor) take the transcript time: an old transcript read at start-up makes no edit claims', async () => {
    const hh = (h = await Harness.create({ 'a.ts': 'a\n' }));
    const CID = 'c0ffee00-1111-4222-8333-444455556666';
    const file = '/home/u/.cursor/projects/p/agent-transcripts/x/x.jsonl';
    const old = T0 - 6 * 3600 * 1000;
    const batch = (fileTimeMs: number, offset: number) =>
      [
        { event: { kind: 'prompt', agent: 'cursor', sessionId: CID, text: `prompt at ${offset}` } as const, key: `${file}:${offset}:0` },
        {
          event: {
            kind: 'edit',
            agent: 'cursor',
            sessionId: CID,
            file: hh.repo.path('a.ts'),
            tool: 'Write',
            contents: `a\n${offset}\n`,
          } as const,
          key: `${file}:${offset + 50}:0`,
        },
      ].map((i) => ({ ...i, transcriptPath: file, fileTimeMs }));
    await h.recorder.onAgentEvents(batch(old, 0));
    await h.recorder.settle();
    assert.equal(h.recorder.counters.get('recorder.staleEdits'), 1);
    assert.equal(h.recorder.counters.get('recorder.claims'), 0);
    // the same transcript growing now (file time = now): its new edit is a live claim
    await h.recorder.onAgentEvents(batch(T0, 100));
    await h.recorder.settle();
    assert.equal(h.recorder.counters.get('recorder.staleEdits'), 1);
    assert.equal(h.recorder.counters.get('recorder.claims'), 1);
  });

  it('a growing response appends a new response event; readers take the last one', async () => {
    h = await Harness.create({});
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Explain');
    await s.respond('First part.');
    await s.respond('Second part.');
    assert.deepEqual(
      h
        .journalLines(SID, 'events.jsonl')
        .filter((e) => e.event === 'response')
        .map((e) => [e.turn, e.response]),
      [
        [1, 'First part.'],
        [1, 'First part.\nSecond part.'],
      ],
    );
  });

  it('ignores edits outside the repository and stale records; counts them', async () => {
    h = await Harness.create({ 'a.ts': 'x\n' });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('go');
    await h.recorder.onAgentEvents([
      {
        event: {
          kind: 'edit',
          agent: 'claude',
          sessionId: SID,
          file: '/somewhere/else/b.ts',
          tool: 'Write',
          contents: 'b\n',
          timestamp: new Date(T0).toISOString(),
        },
        key: '/t:900:0',
      },
      {
        event: {
          kind: 'edit',
          agent: 'claude',
          sessionId: SID,
          file: h.repo.path('a.ts'),
          tool: 'Write',
          contents: 'old\n',
          timestamp: '2026-04-01T00:00:00.000Z',
        },
        key: '/t:1000:0',
      },
    ]);
    await h.recorder.settle();
    assert.equal(h.recorder.counters.get('recorder.editsOutsideRepo'), 1);
    assert.equal(h.recorder.counters.get('recorder.staleEdits'), 1);
    assert.equal(h.journalFile(SID, 'changes.jsonl'), undefined);
    // both still belong to the session (timeline, tools)
    assert.deepEqual(h.recorder.sessions.get('claude', SID)?.turns[0].files, ['/somewhere/else/b.ts', h.repo.path('a.ts')]);
    await h.reopen();
    const turn = h.recorder.sessions.get('claude', SID)?.turns[0];
    assert.deepEqual([turn?.files, turn?.tools], [[h.repo.path('a.ts')], ['Write']]);
  });

  it('record-only fallback: a Write nobody saw change (settled before the commit) is paired from the record, new file ⇒ empty pre-blob', async () => {
    h = await Harness.create({ 'README.md': '# r\n' });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Create new.ts');
    h.advance(500);
    await h.writeFile('new.ts', 'export const n = 1;\nexport const m = 2;\n');
    await s.edit('new.ts', { tool: 'Write', toolUseId: 'toolu_1', contents: 'export const n = 1;\nexport const m = 2;\n' });
    h.advance(2000);
    const sha = await h.commitAll('feat: new.ts');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const pre = h.journalLines(SID, 'pre_blobs*');
    assert.deepEqual(
      pre.map((p) => p.blob),
      ['e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'],
    );
    assert.deepEqual((await h.note(sha)).attribution, {
      ai_ratio: 100,
      method: 'line',
      lines: { ai_added: 2, total_added: 2, deleted: 0 },
    });
    // the record-only edit is in the timeline under its pair id
    assert.deepEqual(
      h.recorder.timelineEdits().map((e) => [e.origin, e.file, e.added, e.removed]),
      [['ai', 'new.ts', 2, 0]],
    );
  });

  it('record-only fallback without content (a patch whose result is unknown): change with counts only, committed = current blob ⇒ every added line AI', async () => {
    h = await Harness.create({ 'cfg.ts': 'a\nb\n' });
    const x = h.session('codex', CODEX_SID, 'gpt-5-codex');
    await x.start();
    await x.prompt('Append c and d to cfg.ts');
    h.advance(500);
    await h.writeFile('cfg.ts', 'a\nb\nc\nd\n');
    await x.edit('cfg.ts', { tool: 'apply_patch', toolUseId: 'call_9', patch: '@@\n b\n+c\n+d\n', added: 2, removed: 0 });
    h.advance(2000);
    const sha = await h.commitAll('feat: c and d');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    assert.equal(h.journalLines(CODEX_SID, 'pre_blobs*').length, 0);
    const changes = h.journalLines(CODEX_SID, 'changes*');
    assert.deepEqual(
      changes.map((c) => [c.file, c.edit_added, c.edit_deleted, c.blob]),
      [['cfg.ts', 2, 0, (await h.repo.git(['rev-parse', `${sha}:cfg.ts`])).trim()]],
    );
    const note = await h.note(sha);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } });
    assert.deepEqual(note.files, [{ path: 'cfg.ts', by_ai: true, ai_ranges: [{ start: 3, end: 4, interaction: 0 }] }]);
  });

  it('records from a journal written by the Agent Note CLI hooks (no ext data), consuming with the CLI keys', async () => {
    h = await Harness.create({ 'app.txt': 'alpha\nbeta\n' });
    const js = new SessionJournal(path.join(h.repo.dir, '.git', 'agentnote')).session(SID)!;
    const { turn, promptId } = await js.recordPrompt({
      prompt: 'Append a gamma line to app.txt',
      agent: 'claude',
      model: 'claude-opus-4-6',
    });
    const pre = (await h.repo.git(['hash-object', '-w', 'app.txt'])).trim();
    await h.writeFile('app.txt', 'alpha\nbeta\ngamma\n');
    const post = (await h.repo.git(['hash-object', '-w', 'app.txt'])).trim();
    await js.appendPreBlob({ event: 'pre_blob', turn, prompt_id: promptId, file: 'app.txt', blob: pre, tool_use_id: 'toolu_01' });
    await js.appendChange({
      event: 'file_change',
      timestamp: new Date(T0).toISOString(),
      tool: 'Edit',
      file: 'app.txt',
      session_id: SID,
      turn,
      prompt_id: promptId,
      blob: post,
      change_id: null,
      edit_added: null,
      edit_deleted: null,
      tool_use_id: 'toolu_01',
    });
    await js.appendEvent({
      event: 'stop',
      session_id: SID,
      timestamp: new Date(T0).toISOString(),
      turn,
      response: 'Added gamma to app.txt.',
    });
    await h.reopen();
    assert.deepEqual(
      h.recorder.sessions.get('claude', SID)?.turns.map((t) => [t.index, t.prompt]),
      [[1, 'Append a gamma line to app.txt']],
    );
    h.advance(2000);
    const sha = await h.commitAll('feat: gamma');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.equal(note.model, 'claude-opus-4-6');
    assert.deepEqual(
      note.interactions.map((i) => [i.prompt, i.response, i.files_touched, i.tools]),
      [['Append a gamma line to app.txt', 'Added gamma to app.txt.', ['app.txt'], ['Edit']]],
    );
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    assert.deepEqual(h.journalLines(SID, 'committed_pairs.jsonl')[0], {
      turn: 1,
      file: 'app.txt',
      change_id: null,
      tool_use_id: 'toolu_01',
    });
  });

  it('skips HEAD moves that are not new commits: checkout of an older commit, merges', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' });
    const base = await h.repo.head();
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Add b');
    await h.change('a.ts', 'a\nb\n', 'disk');
    await s.edit('a.ts', { tool: 'Write', toolUseId: 't1', contents: 'a\nb\n' });
    await h.tick();
    h.advance(2000);
    await h.repo.git(['checkout', '-q', '-b', 'side']);
    const side = await h.commitAll('feat: b');
    await h.repo.git(['checkout', '-q', 'main']);
    const mainTip = await h.repo.head();
    assert.equal(mainTip, base);
    assert.deepEqual(await h.recorder.recordCommit(mainTip), { kind: 'skipped', reason: 'not a new commit (checkout)' });
    await h.writeFile('c.ts', 'c\n');
    await h.commitAll('chore: c');
    await h.repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side'], {
      env: { GIT_COMMITTER_DATE: `${Math.floor(h.clock.now() / 1000)} +0000` },
    });
    assert.deepEqual(await h.recorder.recordCommit(await h.repo.head()), { kind: 'skipped', reason: 'merge commit' });
    // the side commit itself is still recordable and its pair was not consumed by the skips
    assert.equal((await h.recorder.recordCommit(side)).kind, 'written');
  });

  it('"Undo Last Commit" (reset --soft) then a new commit: the replaced commit gives its edits back', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Add b to a.ts');
    await h.change('a.ts', 'a\nb\n', 'disk');
    await s.edit('a.ts', { tool: 'Write', toolUseId: 't1', contents: 'a\nb\n' });
    await h.tick();
    h.advance(2000);
    const first = await h.commitAll('wip');
    assert.equal((await h.recorder.recordCommit(first)).kind, 'written');
    h.advance(5000);
    await h.repo.git(['reset', '-q', '--soft', 'HEAD~1']);
    assert.deepEqual(await h.recorder.recordCommit(await h.repo.head()), { kind: 'skipped', reason: 'not a new commit (reset)' });
    await h.writeFile('other.md', 'by hand\n');
    h.advance(1000);
    const again = await h.commitAll('feat: b');
    assert.equal((await h.recorder.recordCommit(again)).kind, 'written');
    const note = await h.note(again);
    assert.deepEqual(note.files, [
      { path: 'a.ts', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] },
      { path: 'other.md', by_ai: false },
    ]);
    assert.deepEqual(note.attribution, { ai_ratio: 50, method: 'line', lines: { ai_added: 1, total_added: 2, deleted: 0 } });
    assert.deepEqual(
      note.interactions.map((i) => i.prompt),
      ['Add b to a.ts'],
    );
  });

  it('an edit captured after the commit is not consumed by it', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Add b, then c');
    await h.change('a.ts', 'a\nb\n', 'disk');
    await s.edit('a.ts', { tool: 'Write', toolUseId: 't1', contents: 'a\nb\n' });
    await h.tick();
    h.advance(2000);
    const first = await h.commitAll('feat: b');
    h.advance(30_000);
    await h.change('a.ts', 'a\nb\nc\n', 'disk');
    await s.edit('a.ts', { tool: 'Write', toolUseId: 't2', contents: 'a\nb\nc\n' });
    await h.tick();
    // the host records the first commit late, after the next edit was captured
    assert.equal((await h.recorder.recordCommit(first)).kind, 'written');
    assert.deepEqual((await h.note(first)).attribution, {
      ai_ratio: 100,
      method: 'line',
      lines: { ai_added: 1, total_added: 1, deleted: 0 },
    });
    h.advance(2000);
    const second = await h.commitAll('feat: c');
    assert.equal((await h.recorder.recordCommit(second)).kind, 'written');
    assert.deepEqual((await h.note(second)).files, [{ path: 'a.ts', by_ai: true, ai_ranges: [{ start: 3, end: 3, interaction: 0 }] }]);
  });

  it('uncommitted attribution: record-only evidence, multiple turns, cache, and [] for unknown files', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Add b');
    await h.change('a.ts', 'a\nb\n', 'disk');
    await s.edit('a.ts', { tool: 'Write', toolUseId: 't1', contents: 'a\nb\n' });
    await s.prompt('Add c');
    await h.change('a.ts', 'a\nb\nc\n', 'disk');
    await s.edit('a.ts', { tool: 'Write', toolUseId: 't2', contents: 'a\nb\nc\n' });
    await h.tick();
    const text = 'a\nb\nc\nhuman\n';
    const expected = [
      { start: 2, end: 2, interactionKey: `claude:${SID}:1`, agent: 'claude', prompt: 'Add b' },
      { start: 3, end: 3, interactionKey: `claude:${SID}:2`, agent: 'claude', prompt: 'Add c' },
    ];
    assert.deepEqual(await h.recorder.uncommittedAi('a.ts', text), expected);
    const calls = h.runner.counters.get('git.calls');
    assert.deepEqual(await h.recorder.uncommittedAi('a.ts', text), expected, 'cached');
    assert.equal(h.runner.counters.get('git.calls') - calls, 1, 'a cache hit costs one rev-parse of HEAD:<file>');
    assert.deepEqual(await h.recorder.uncommittedAi('other.ts', 'x\n'), []);
    // a new text of the same file is recomputed: the human rewrote line 2
    assert.deepEqual(await h.recorder.uncommittedAi('a.ts', 'a\nB\nc\n'), [expected[1]]);
  });

  it('a commit recorded before the agent record arrived is human-only and consumes nothing; recording again later writes the note', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Add b and commit');
    await h.change('a.ts', 'a\nb\n', 'disk');
    h.advance(500);
    const sha = await h.commitAll('feat: b');
    assert.deepEqual(await h.recorder.recordCommit(sha), { kind: 'human-only' });
    h.advance(1500);
    await s.edit('a.ts', { tool: 'Edit', toolUseId: 't1', oldString: 'a\n', newString: 'a\nb\n', originalContent: 'a\n' });
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    assert.deepEqual((await h.note(sha)).attribution, {
      ai_ratio: 100,
      method: 'line',
      lines: { ai_added: 1, total_added: 1, deleted: 0 },
    });
  });

  it('after dispose: events, transitions and ticks are ignored, recordCommit reports a failure', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' });
    const r = h.recorder;
    await r.dispose();
    await r.onAgentEvents([{ event: { kind: 'prompt', agent: 'claude', sessionId: SID, text: 'x' }, key: '/t:0:0' }]);
    r.onTransition({ id: 'x', file: 'a.ts', time: T0, before: 'a', after: 'b', source: 'typing' });
    await r.tick();
    await r.settle();
    assert.deepEqual(await r.uncommittedAi('a.ts', 'b'), []);
    assert.deepEqual(await r.recordCommit('HEAD'), { kind: 'failed', reason: 'recorder disposed' });
    assert.equal(fs.existsSync(path.join(h.repo.dir, '.git', 'agentnote', 'sessions')), false);
    await h.reopen();
  });

  it('never throws from recordCommit: an unknown revision is a failure with a reason', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' });
    const r = await h.recorder.recordCommit('0123456789abcdef0123456789abcdef01234567');
    assert.equal(r.kind, 'failed');
    assert.equal(h.recorder.counters.get('recorder.recordFailures'), 1);
    assert.ok(h.log.some((l) => l.level === 'warn' && l.text.includes('recording the note of 01234567 failed')));
  });

  it('retention on open: old sessions and capture lines are removed, fresh ones kept', async () => {
    h = await Harness.create({ 'a.ts': 'a\n' }, { journalRetentionDays: 1 });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    await s.prompt('Add b');
    await h.change('notes.md', 'typed\n', 'typing');
    h.advance(6000);
    await h.tick();
    const sessionDir = path.join(h.repo.dir, '.git', 'agentnote', 'sessions', SID);
    assert.ok(fs.existsSync(sessionDir));
    assert.equal(h.recorder.timelineEdits().length, 1);
    // two days later (files dated accordingly)
    h.advance(2 * 24 * 3600 * 1000);
    const old = new Date(h.clock.now() - 2 * 24 * 3600 * 1000);
    for (const f of fs.readdirSync(sessionDir)) fs.utimesSync(path.join(sessionDir, f), old, old);
    for (const d of [path.join(sessionDir, 'ext'), sessionDir]) if (fs.existsSync(d)) fs.utimesSync(d, old, old);
    for (const f of fs.readdirSync(path.join(sessionDir, 'ext'))) fs.utimesSync(path.join(sessionDir, 'ext', f), old, old);
    await h.reopen();
    assert.equal(fs.existsSync(sessionDir), false);
    assert.equal(h.recorder.sessions.list().length, 0);
    assert.deepEqual(h.recorder.timelineEdits(), []);
    assert.equal(fs.readFileSync(path.join(h.repo.dir, '.git', 'agentnote', 'capture', 'edits.jsonl'), 'utf8'), '');
  });
});
