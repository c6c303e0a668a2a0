// The recording pipeline end to end: synthetic transcript events and content transitions exactly
// as the host feeds them, real commits in temp repositories, notes read back with git.
import * as assert from 'node:assert/strict';
import { decodeNote, encodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1, NoteInteraction } from '../../../src/core/notes/noteTypes';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { type AgentSession, Harness } from './recorderHarness';

const CLAUDE_SID = '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f';
const CURSOR_SID = 'conv-demo-1';
const CODEX_SID = '019da962-23cc-7aa0-bbe3-a10f60fddada';

/** The parts of an interaction that do not depend on the prompt-window scoring. */
function brief(i: NoteInteraction): {
  prompt: string;
  response: string | null;
  files_touched?: string[];
  tools?: string[] | null;
  source?: string;
} {
  const out: ReturnType<typeof brief> = { prompt: i.prompt, response: i.response };
  if (i.files_touched) out.files_touched = i.files_touched;
  if (i.tools !== undefined) out.tools = i.tools;
  if (i.selection) out.source = i.selection.source;
  return out;
}

async function claudeWrites(
  h: Harness,
  sid: string,
  prompt: string,
  edits: { file: string; after: string; toolUseId: string }[],
  response?: string,
): Promise<AgentSession> {
  const s = h.session('claude', sid, 'claude-opus-4-6');
  await s.start();
  h.advance(1000);
  await s.prompt(prompt);
  for (const e of edits) {
    h.advance(500);
    await h.change(e.file, e.after, 'disk');
    h.advance(100);
    await s.edit(e.file, { tool: 'Write', toolUseId: e.toolUseId, contents: e.after });
  }
  if (response) {
    h.advance(500);
    await s.respond(response);
  }
  await h.tick();
  return s;
}

describe('RepositoryRecorder: a note on every commit', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  it('(a) Claude edit on disk (record + disk transition): line-level note, CLI-shaped journal', async () => {
    h = await Harness.create({ 'app.ts': 'line1\nline2\n' });
    const s = h.session('claude', CLAUDE_SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt('Add a third line to app.ts');
    h.advance(1000);
    await h.change('app.ts', 'line1\nline2\nline3\n', 'disk');
    h.advance(100);
    await s.edit('app.ts', {
      tool: 'Edit',
      toolUseId: 'toolu_1',
      oldString: 'line2\n',
      newString: 'line2\nline3\n',
      originalContent: 'line1\nline2\n',
      added: 1,
      removed: 0,
    });
    h.advance(1000);
    await s.respond('Added line3 to app.ts.');
    await h.tick();
    h.advance(5000);
    const sha = await h.commitAll('feat: third line');
    const outcome = await h.recorder.recordCommit(sha);
    const text = await h.noteText(sha);
    assert.deepEqual(outcome, {
      kind: 'written',
      noteBytes: Buffer.byteLength(text!, 'utf8'),
      aiRatio: 100,
      method: 'line',
      redactions: 0,
    });
    const note = await h.note(sha);
    assert.deepEqual(note, {
      v: 1,
      agent: 'claude',
      session_id: CLAUDE_SID,
      timestamp: '2026-05-01T10:00:08.100Z',
      model: 'claude-opus-4-6',
      interactions: [
        {
          prompt: 'Add a third line to app.ts',
          response: 'Added line3 to app.ts.',
          files_touched: ['app.ts'],
          selection: {
            schema: 1,
            source: 'primary',
            signals: [
              'primary_edit_turn',
              'exact_commit_path',
              'commit_file_basename',
              'response_exact_commit_path',
              'response_basename_or_identifier',
              'commit_subject_overlap',
              'substantive_prompt_shape',
              'before_commit_boundary',
            ],
          },
          tools: ['Edit'],
        },
      ],
      files: [{ path: 'app.ts', by_ai: true, ai_ranges: [{ start: 3, end: 3, interaction: 0 }] }],
      attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } },
    } satisfies AgentNoteV1);

    // the journal is what the Agent Note CLI writes
    const prompts = h.journalLines(CLAUDE_SID, 'prompts*');
    assert.equal(prompts.length, 1);
    const promptId = prompts[0].prompt_id as string;
    assert.deepEqual(Object.keys(prompts[0]), ['event', 'timestamp', 'prompt', 'prompt_id', 'turn']);
    assert.deepEqual(
      { ...prompts[0], timestamp: 'T', prompt_id: 'P' },
      { event: 'prompt', timestamp: 'T', prompt: 'Add a third line to app.ts', prompt_id: 'P', turn: 1 },
    );
    assert.equal(h.journalFile(CLAUDE_SID, 'agent'), 'claude\n');
    assert.equal(h.journalFile(CLAUDE_SID, 'turn'), '1');
    assert.equal(h.journalFile(CLAUDE_SID, 'transcript_path'), `${s.transcriptPath}\n`);
    assert.equal(h.journalFile(CLAUDE_SID, 'heartbeat'), String(Date.parse('2026-05-01T10:00:03.100Z')));
    const events = h.journalLines(CLAUDE_SID, 'events.jsonl');
    assert.deepEqual(
      events.map((e) => [e.event, e.model ?? e.response ?? null, e.turn ?? null]),
      [
        ['session_start', 'claude-opus-4-6', null],
        ['prompt', 'claude-opus-4-6', 1],
        ['response', 'Added line3 to app.ts.', 1],
      ],
    );
    const pre = h.journalLines(CLAUDE_SID, 'pre_blobs*');
    const changes = h.journalLines(CLAUDE_SID, 'changes*');
    assert.equal(pre.length, 1);
    assert.equal(changes.length, 1);
    const pairId = changes[0].tool_use_id as string;
    assert.match(pairId, /^an-[0-9a-f]{24}$/);
    assert.deepEqual(pre[0], {
      event: 'pre_blob',
      turn: 1,
      prompt_id: promptId,
      file: 'app.ts',
      blob: (await h.repo.git(['rev-parse', `${sha}~1:app.ts`])).trim(),
      tool_use_id: pairId,
    });
    assert.deepEqual(
      { ...changes[0], timestamp: 'T' },
      {
        event: 'file_change',
        timestamp: 'T',
        tool: 'Edit',
        file: 'app.ts',
        session_id: CLAUDE_SID,
        turn: 1,
        prompt_id: promptId,
        blob: (await h.repo.git(['rev-parse', `${sha}:app.ts`])).trim(),
        change_id: null,
        edit_added: 1,
        edit_deleted: 0,
        tool_use_id: pairId,
      },
    );
    assert.deepEqual(h.journalLines(CLAUDE_SID, 'committed_pairs.jsonl'), [
      { turn: 1, file: 'app.ts', change_id: null, tool_use_id: pairId },
      { turn: 1, prompt_id: promptId, file: null, prompt_scope: 'window', change_id: null, tool_use_id: null },
    ]);
  });

  it('(b) Cursor edit applied in the editor: bulk transition, StrReplace record 2 s later', async () => {
    h = await Harness.create({ 'greet.ts': 'export function greet(name: string) {\n  return name;\n}\n' });
    const c = h.session('cursor', CURSOR_SID, 'gpt-5');
    await c.start();
    h.advance(1000);
    await c.prompt('Make greet say hello');
    h.advance(3000);
    await h.change('greet.ts', 'export function greet(name: string) {\n  return `hello ${name}`;\n}\n', 'bulk');
    await h.tick();
    h.advance(2000);
    await c.edit('greet.ts', {
      tool: 'StrReplace',
      oldString: '  return name;',
      newString: '  return `hello ${name}`;',
      noTimestamp: true,
    });
    h.advance(500);
    await c.respond('greet now says hello.');
    await h.tick();
    h.advance(10_000);
    await h.tick();
    const sha = await h.commitAll('feat: greet says hello');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.equal(note.agent, 'cursor');
    assert.equal(note.session_id, CURSOR_SID);
    assert.equal(note.model, 'gpt-5');
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 1 } });
    assert.deepEqual(note.files, [{ path: 'greet.ts', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] }]);
    assert.deepEqual(note.interactions.map(brief), [
      {
        prompt: 'Make greet say hello',
        response: 'greet now says hello.',
        files_touched: ['greet.ts'],
        tools: ['StrReplace'],
        source: 'primary',
      },
    ]);
    // the change was never called human: no unclaimed record in the timeline
    assert.deepEqual(
      h.recorder.timelineEdits().map((e) => [e.id, e.origin, e.agent, e.added, e.removed]),
      [['tr-1', 'ai', 'cursor', 1, 1]],
    );
  });

  it('(c) human lines typed after an AI edit in the same file: partial ratio, per-line ranges', async () => {
    h = await Harness.create({ 'calc.ts': 'export const a = 1;\n' });
    const s = h.session('claude', CLAUDE_SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt('Add b and c constants to calc.ts');
    h.advance(1000);
    const withAi = 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n';
    await s.edit('calc.ts', {
      tool: 'Edit',
      toolUseId: 'toolu_1',
      oldString: 'export const a = 1;\n',
      newString: withAi,
      originalContent: 'export const a = 1;\n',
    });
    h.advance(300);
    await h.change('calc.ts', withAi, 'disk');
    await s.respond('Added b and c.');
    await h.tick();
    h.advance(20_000);
    await h.change('calc.ts', `${withAi}export const d = 4;\n`, 'typing');
    h.advance(6000);
    await h.tick();

    // before the commit: the AI lines of the buffer, by interaction
    const uncommitted = await h.recorder.uncommittedAi('calc.ts', `${withAi}export const d = 4;\n`);
    assert.deepEqual(uncommitted, [
      { start: 2, end: 3, interactionKey: `claude:${CLAUDE_SID}:1`, agent: 'claude', prompt: 'Add b and c constants to calc.ts' },
    ]);

    const sha = await h.commitAll('feat: more constants');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } });
    assert.deepEqual(note.files, [{ path: 'calc.ts', by_ai: true, ai_ranges: [{ start: 2, end: 3, interaction: 0 }] }]);
    assert.deepEqual(
      h.recorder.timelineEdits().map((e) => [e.id, e.origin, e.file, e.added, e.removed, e.turn ?? null]),
      [
        ['tr-1', 'ai', 'calc.ts', 2, 0, 1],
        ['tr-2', 'human', 'calc.ts', 1, 0, null],
      ],
    );
    // committed: nothing is uncommitted any more
    assert.deepEqual(await h.recorder.uncommittedAi('calc.ts', `${withAi}export const d = 4;\n`), []);
  });

  it('(d) a formatter run after the AI edit (bulk change, no claim): reformatted lines are human', async () => {
    h = await Harness.create({ 'fmt.ts': 'export {};\n' });
    const s = h.session('claude', CLAUDE_SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt('Declare a and b in fmt.ts');
    h.advance(1000);
    const ai = 'export {};\nconst a=1;\nconst b=2;\n';
    await h.change('fmt.ts', ai, 'disk');
    await s.edit('fmt.ts', { tool: 'Write', toolUseId: 'toolu_1', contents: ai });
    await h.tick();
    h.advance(4000);
    await h.change('fmt.ts', 'export {};\nconst a=1;\nconst b = 2;\n', 'bulk');
    h.advance(6000);
    await h.tick();
    const sha = await h.commitAll('feat: a and b');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.attribution, { ai_ratio: 50, method: 'line', lines: { ai_added: 1, total_added: 2, deleted: 0 } });
    assert.deepEqual(note.files, [{ path: 'fmt.ts', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] }]);
    assert.deepEqual(
      h.recorder.timelineEdits().map((e) => [e.id, e.origin]),
      [
        ['tr-1', 'ai'],
        ['tr-2', 'human'],
      ],
    );
  });

  it('(e) split commits of one turn: each commit gets only its own file, both keep the prompt', async () => {
    h = await Harness.create({ 'README.md': '# demo\n' });
    await claudeWrites(
      h,
      CLAUDE_SID,
      'Create one.ts and two.ts',
      [
        { file: 'one.ts', after: 'export const one = 1;\n', toolUseId: 'toolu_1' },
        { file: 'two.ts', after: 'export const two = 2;\nexport const three = 3;\n', toolUseId: 'toolu_2' },
      ],
      'Created one.ts and two.ts.',
    );
    h.advance(5000);
    const first = await h.commitAll('feat: one', 0, ['one.ts']);
    assert.equal((await h.recorder.recordCommit(first)).kind, 'written');
    h.advance(5000);
    const second = await h.commitAll('feat: two', 0, ['two.ts']);
    assert.equal((await h.recorder.recordCommit(second)).kind, 'written');

    const n1 = await h.note(first);
    const n2 = await h.note(second);
    assert.deepEqual(n1.files, [{ path: 'one.ts', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 0 }] }]);
    assert.deepEqual(n1.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    assert.deepEqual(n1.interactions.map(brief), [
      {
        prompt: 'Create one.ts and two.ts',
        response: 'Created one.ts and two.ts.',
        files_touched: ['one.ts'],
        tools: ['Write'],
        source: 'primary',
      },
    ]);
    assert.deepEqual(n2.files, [{ path: 'two.ts', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] }]);
    assert.deepEqual(n2.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } });
    assert.deepEqual(n2.interactions.map(brief), [
      {
        prompt: 'Create one.ts and two.ts',
        response: 'Created one.ts and two.ts.',
        files_touched: ['two.ts'],
        tools: ['Write'],
        source: 'primary',
      },
    ]);
  });

  it('(f) cross-turn commit: a new prompt arrives before the commit, the previous turn’s work and prompt stay', async () => {
    h = await Harness.create({ 'README.md': '# demo\n' });
    const s = await claudeWrites(
      h,
      CLAUDE_SID,
      'Write the parser in parse.ts',
      [{ file: 'parse.ts', after: 'export function parse() {}\n', toolUseId: 'toolu_1' }],
      'Wrote parse.ts.',
    );
    h.advance(2000);
    await s.prompt('thanks');
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('feat: parser');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    // the previous turn is the primary interaction; the new prompt is the window's tail (boundary row)
    assert.deepEqual(note.interactions.map(brief), [
      {
        prompt: 'Write the parser in parse.ts',
        response: 'Wrote parse.ts.',
        files_touched: ['parse.ts'],
        tools: ['Write'],
        source: 'primary',
      },
      { prompt: 'thanks', response: null, source: 'tail' },
    ]);
    assert.deepEqual(note.files, [{ path: 'parse.ts', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 0 }] }]);
    // the journal had rotated: the pair lives in the turn-1 archive, the current turn is 2
    assert.equal(h.journalFile(CLAUDE_SID, 'turn'), '2');
    assert.equal(h.journalFile(CLAUDE_SID, 'changes.jsonl'), undefined);
    assert.deepEqual(
      h.journalLines(CLAUDE_SID, 'committed_pairs.jsonl').map((l) => [l.turn, l.file, l.prompt_scope ?? null]),
      [
        [1, 'parse.ts', null],
        [1, null, 'window'],
        [2, null, 'tail'],
      ],
    );
  });

  it('(g) amend: the note is recomputed for changed content and copied for an unchanged tree', async () => {
    h = await Harness.create({ 'list.ts': 'export const items = [];\n' });
    await claudeWrites(h, CLAUDE_SID, 'Add a count helper to list.ts', [
      { file: 'list.ts', after: 'export const items = [];\nexport const count = () => items.length;\n', toolUseId: 'toolu_1' },
    ]);
    h.advance(5000);
    const first = await h.commitAll('feat: count');
    assert.equal((await h.recorder.recordCommit(first)).kind, 'written');
    const firstText = await h.noteText(first);
    assert.deepEqual((await h.note(first)).attribution, {
      ai_ratio: 100,
      method: 'line',
      lines: { ai_added: 1, total_added: 1, deleted: 0 },
    });

    h.advance(10_000);
    await h.change(
      'list.ts',
      'export const items = [];\nexport const count = () => items.length;\nexport const empty = () => count() === 0;\n',
      'typing',
    );
    h.advance(6000);
    await h.tick();
    const amended = await h.amend();
    assert.notEqual(amended, first);
    assert.deepEqual(await h.recorder.recordCommit(amended, { amendedFrom: first }), {
      kind: 'written',
      noteBytes: Buffer.byteLength((await h.noteText(amended))!, 'utf8'),
      aiRatio: 50,
      method: 'line',
      redactions: 0,
    });
    const n2 = await h.note(amended);
    assert.deepEqual(n2.attribution, { ai_ratio: 50, method: 'line', lines: { ai_added: 1, total_added: 2, deleted: 0 } });
    assert.deepEqual(
      n2.interactions.map((i) => i.prompt),
      ['Add a count helper to list.ts'],
    );
    assert.equal(await h.noteText(first), firstText, 'the old commit keeps its note');

    // message-only amend: same tree ⇒ the very same note
    h.advance(5000);
    const reworded = await h.amend('feat: count and empty helpers');
    const r = await h.recorder.recordCommit(reworded, { amendedFrom: amended });
    assert.equal(r.kind, 'written');
    assert.equal(await h.noteText(reworded), await h.noteText(amended));
    // and a later plain record of it is idempotent
    assert.deepEqual(await h.recorder.recordCommit(reworded), { kind: 'exists' });
  });

  it('(h) a human-only commit gets no note', async () => {
    h = await Harness.create({ 'notes.md': '# notes\n' });
    await claudeWrites(h, CLAUDE_SID, 'Create util.ts', [{ file: 'util.ts', after: 'export const u = 1;\n', toolUseId: 'toolu_1' }]);
    h.advance(3000);
    await h.change('notes.md', '# notes\ntyped by a person\n', 'typing');
    h.advance(6000);
    await h.tick();
    const sha = await h.commitAll('docs: notes', 0, ['notes.md']);
    assert.deepEqual(await h.recorder.recordCommit(sha), { kind: 'human-only' });
    assert.equal(await h.noteText(sha), undefined);
    assert.equal(h.journalLines(CLAUDE_SID, 'committed_pairs.jsonl').length, 0, 'nothing consumed');
  });

  it('(h′) an AI edit reverted before any commit (content back to HEAD) leaves a later human-only commit of that file without a note', async () => {
    h = await Harness.create({ 'todo.md': '# todo\n' });
    const s = await claudeWrites(h, CLAUDE_SID, 'Add a first item to todo.md', [
      { file: 'todo.md', after: '# todo\n- buy milk\n', toolUseId: 'toolu_1' },
    ]);
    // the user throws the AI's change away (undo, `git checkout -- todo.md`): back to HEAD's content
    h.advance(3000);
    await h.change('todo.md', '# todo\n', 'disk');
    h.advance(3000);
    await h.tick();
    // later the user writes their own line and commits it
    h.advance(10_000);
    await h.change('todo.md', '# todo\n- call mum\n', 'typing');
    h.advance(6000);
    await h.tick();
    const sha = await h.commitAll('docs: todo');
    assert.deepEqual(await h.recorder.recordCommit(sha), { kind: 'human-only' });
    assert.equal(await h.noteText(sha), undefined);
    assert.equal(h.journalLines(CLAUDE_SID, 'committed_pairs.jsonl').length, 0, 'nothing consumed');

    // the AI writes the same file again afterwards: that edit is not reverted and gets its note
    h.advance(5000);
    await s.prompt('Add a second item');
    h.advance(1000);
    await h.change('todo.md', '# todo\n- call mum\n- buy milk\n', 'disk');
    await s.edit('todo.md', { tool: 'Edit', toolUseId: 'toolu_2', oldString: '- call mum\n', newString: '- call mum\n- buy milk\n' });
    h.advance(3000);
    await h.tick();
    const second = await h.commitAll('docs: second item');
    assert.equal((await h.recorder.recordCommit(second)).kind, 'written');
    const note = await h.note(second);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    assert.deepEqual(note.files, [{ path: 'todo.md', by_ai: true, ai_ranges: [{ start: 3, end: 3, interaction: 0 }] }]);
    assert.deepEqual(note.interactions.map(brief), [
      { prompt: 'Add a second item', response: null, files_touched: ['todo.md'], tools: ['Edit'], source: 'primary' },
    ]);
  });

  it('(h″) a chain of AI edits undone to HEAD is reverted as a whole; undo then redo keeps the edit', async () => {
    h = await Harness.create({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 1;\n' });
    const s = h.session('claude', CLAUDE_SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt('Add x and y to a.ts, z to b.ts');
    for (const [file, after, id] of [
      ['a.ts', 'export const a = 1;\nexport const x = 2;\n', 'toolu_1'],
      ['a.ts', 'export const a = 1;\nexport const x = 2;\nexport const y = 3;\n', 'toolu_2'],
      ['b.ts', 'export const b = 1;\nexport const z = 2;\n', 'toolu_3'],
    ]) {
      h.advance(500);
      await h.change(file, after, 'disk');
      await s.edit(file, { tool: 'Write', toolUseId: id, contents: after });
    }
    await h.tick();
    // a.ts: both AI edits thrown away at once; b.ts: undone, then redone (back to the AI's content)
    h.advance(2000);
    await h.change('a.ts', 'export const a = 1;\n', 'disk');
    await h.change('b.ts', 'export const b = 1;\n', 'typing');
    h.advance(1000);
    await h.change('b.ts', 'export const b = 1;\nexport const z = 2;\n', 'typing');
    h.advance(1000);
    await h.change('a.ts', 'export const a = 1;\nexport const w = 9;\n', 'typing');
    h.advance(6000);
    await h.tick();
    const sha = await h.commitAll('feat: w and z');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.files, [
      { path: 'a.ts', by_ai: false },
      { path: 'b.ts', by_ai: true, ai_ranges: [{ start: 2, end: 2, interaction: 0 }] },
    ]);
    assert.deepEqual(note.attribution, { ai_ratio: 50, method: 'line', lines: { ai_added: 1, total_added: 2, deleted: 0 } });
  });

  it('(i) generated files and .agentnoteignore: flagged, kept out of the ratio', async () => {
    h = await Harness.create({ '.agentnoteignore': 'dist/**\n', 'README.md': '# demo\n' });
    await claudeWrites(h, CLAUDE_SID, 'Add the app, its generated types and a build', [
      { file: 'src/app.ts', after: 'export const app = 1;\nexport const run = () => app;\n', toolUseId: 'toolu_1' },
      { file: 'src/types.gen.ts', after: 'export type A = 1;\nexport type B = 2;\n', toolUseId: 'toolu_2' },
      { file: 'dist/bundle.js', after: 'var a=1;\nvar b=2;\nvar c=3;\n', toolUseId: 'toolu_3' },
    ]);
    h.advance(1000);
    await h.change('README.md', '# demo\nrun `npm start`\n', 'typing');
    h.advance(6000);
    await h.tick();
    const sha = await h.commitAll('build: app');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.files, [
      { path: 'README.md', by_ai: false },
      { path: 'dist/bundle.js', by_ai: true, ai_ratio_excluded: true },
      { path: 'src/app.ts', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] },
      { path: 'src/types.gen.ts', by_ai: true, generated: true },
    ]);
    assert.deepEqual(note.attribution, { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } });
  });

  it('(j) two agents in one commit: one note, both interactions, agent = most AI lines', async () => {
    h = await Harness.create({ 'README.md': '# demo\n' });
    const claude = h.session('claude', CLAUDE_SID, 'claude-opus-4-6');
    const cursor = h.session('cursor', CURSOR_SID, 'gpt-5');
    await claude.start();
    await cursor.start();
    h.advance(1000);
    await claude.prompt('Create math.ts with add, sub and mul');
    h.advance(1000);
    await cursor.prompt('Create hello.ts');
    h.advance(1000);
    const math =
      'export const add = (a: number, b: number) => a + b;\nexport const sub = (a: number, b: number) => a - b;\nexport const mul = (a: number, b: number) => a * b;\n';
    await h.change('math.ts', math, 'disk');
    await claude.edit('math.ts', { tool: 'Write', toolUseId: 'toolu_1', contents: math });
    h.advance(1000);
    await h.change('hello.ts', "export const hello = 'hi';\n", 'bulk');
    h.advance(1000);
    await cursor.edit('hello.ts', { tool: 'Write', contents: "export const hello = 'hi';\n", noTimestamp: true });
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('feat: math and hello');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.equal(note.agent, 'claude');
    assert.equal(note.session_id, CLAUDE_SID);
    assert.equal(note.model, 'claude-opus-4-6');
    assert.deepEqual(
      note.interactions.map((i) => [i.prompt, i.files_touched]),
      [
        ['Create math.ts with add, sub and mul', ['math.ts']],
        ['Create hello.ts', ['hello.ts']],
      ],
    );
    assert.deepEqual(note.files, [
      { path: 'hello.ts', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 1 }] },
      { path: 'math.ts', by_ai: true, ai_ranges: [{ start: 1, end: 3, interaction: 0 }] },
    ]);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 4, total_added: 4, deleted: 0 } });
    // each session's journal consumed its own pair
    assert.deepEqual(
      h
        .journalLines(CLAUDE_SID, 'committed_pairs.jsonl')
        .filter((l) => l.file !== null)
        .map((l) => l.file),
      ['math.ts'],
    );
    assert.deepEqual(
      h
        .journalLines(CURSOR_SID, 'committed_pairs.jsonl')
        .filter((l) => l.file !== null)
        .map((l) => l.file),
      ['hello.ts'],
    );
  });

  it('(k) CRLF working-tree file stored LF (.gitattributes eol=crlf): blobs hashed with the path filters', async () => {
    h = await Harness.create({ '.gitattributes': '*.txt text eol=crlf\n', 'notes.txt': 'one\r\ntwo\r\n' });
    const s = h.session('claude', CLAUDE_SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt('Append three to notes.txt');
    h.advance(1000);
    await h.change('notes.txt', 'one\r\ntwo\r\nthree\r\n', 'disk');
    await s.edit('notes.txt', { tool: 'Edit', toolUseId: 'toolu_1', oldString: 'two\n', newString: 'two\nthree\n' });
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('docs: three');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.files, [{ path: 'notes.txt', by_ai: true, ai_ranges: [{ start: 3, end: 3, interaction: 0 }] }]);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
    const post = h.journalLines(CLAUDE_SID, 'changes*')[0].blob;
    assert.equal(post, (await h.repo.git(['rev-parse', `${sha}:notes.txt`])).trim(), 'post-edit blob = committed (LF) blob');
  });

  it('(k′) CRLF stored as is (no attributes), LF strings in the record: with the disk change seen, and record-only (change not seen before the commit)', async () => {
    h = await Harness.create({ 'notes.txt': 'one\r\ntwo\r\n' });
    const s = h.session('claude', CLAUDE_SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt('Append three to notes.txt');
    h.advance(1000);
    await s.edit('notes.txt', {
      tool: 'Edit',
      toolUseId: 'toolu_1',
      oldString: 'two\n',
      newString: 'two\nthree\n',
      originalContent: 'one\r\ntwo\r\n',
    });
    h.advance(300);
    await h.change('notes.txt', 'one\r\ntwo\r\nthree\r\n', 'disk');
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('docs: three');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.files, [{ path: 'notes.txt', by_ai: true, ai_ranges: [{ start: 3, end: 3, interaction: 0 }] }]);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });

    // the file watcher's event arrives after the commit: the pair comes from the record alone
    h.advance(5000);
    await s.prompt('Append four');
    h.advance(1000);
    await h.writeFile('notes.txt', 'one\r\ntwo\r\nthree\r\nfour\r\n');
    await s.edit('notes.txt', {
      tool: 'Edit',
      toolUseId: 'toolu_2',
      oldString: 'three\n',
      newString: 'three\nfour\n',
      originalContent: 'one\r\ntwo\r\nthree\r\n',
    });
    h.advance(3000);
    const second = await h.commitAll('docs: four');
    assert.equal((await h.recorder.recordCommit(second)).kind, 'written');
    const n2 = await h.note(second);
    assert.deepEqual(n2.files, [{ path: 'notes.txt', by_ai: true, ai_ranges: [{ start: 4, end: 4, interaction: 0 }] }]);
    assert.deepEqual(n2.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } });
  });

  it('(l) a file renamed by the AI (Codex patch with Move to): both paths are AI, the new file’s lines AI', async () => {
    h = await Harness.create({ 'old.ts': 'export const x = 1;\nexport const y = 2;\n' });
    const codex = h.session('codex', CODEX_SID, 'gpt-5-codex');
    await codex.start();
    h.advance(1000);
    await codex.prompt('Rename old.ts to new.ts and set x to 3');
    h.advance(1000);
    await h.change('old.ts', '', 'disk');
    await h.change('new.ts', 'export const x = 3;\nexport const y = 2;\n', 'disk');
    h.advance(500);
    await codex.edit('new.ts', {
      tool: 'apply_patch',
      toolUseId: 'call_1',
      movedFrom: h.repo.path('old.ts'),
      patch: '@@\n-export const x = 1;\n+export const x = 3;\n export const y = 2;\n',
      added: 1,
      removed: 1,
    });
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('refactor: rename old.ts');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.equal(note.agent, 'codex');
    assert.deepEqual(note.files, [
      { path: 'new.ts', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] },
      { path: 'old.ts', by_ai: true },
    ]);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 2 } });
    assert.deepEqual(
      note.interactions.map((i) => i.files_touched),
      [['new.ts', 'old.ts']],
    );
  });

  it('(l′) a rename as delete + add (two records)', async () => {
    h = await Harness.create({ 'a.md': 'alpha\n' });
    const c = h.session('cursor', CURSOR_SID, 'gpt-5');
    await c.start();
    h.advance(1000);
    await c.prompt('Move a.md to docs/a.md');
    h.advance(1000);
    await h.change('docs/a.md', 'alpha\n', 'disk');
    await c.edit('docs/a.md', { tool: 'Write', contents: 'alpha\n', noTimestamp: true });
    await h.change('a.md', '', 'disk');
    await c.edit('a.md', { tool: 'Delete', deleted: true, noTimestamp: true });
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('docs: move a.md');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.files, [
      { path: 'a.md', by_ai: true },
      { path: 'docs/a.md', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 0 }] },
    ]);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 1 } });
  });

  it('(m) reload: a new recorder over the same journal, the tailer re-reading everything ⇒ same note, no duplicate prompt', async () => {
    h = await Harness.create({ 'app.ts': 'a\n' });
    const s = h.session('claude', CLAUDE_SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt('Add b to app.ts');
    h.advance(1000);
    await h.change('app.ts', 'a\nb\n', 'disk');
    await s.edit('app.ts', { tool: 'Edit', toolUseId: 'toolu_1', oldString: 'a\n', newString: 'a\nb\n', originalContent: 'a\n' });
    await s.respond('Added b.');
    await h.tick();
    const journalBefore = ['prompts.jsonl', 'events.jsonl', 'pre_blobs.jsonl', 'changes.jsonl'].map((f) => h!.journalFile(CLAUDE_SID, f));

    const heartbeatBefore = h.recorder.sessions.get('claude', CLAUDE_SID)!.heartbeat;
    h.advance(60_000);
    await h.reopen();
    const reloaded = h.recorder.sessions.get('claude', CLAUDE_SID);
    // the session's last activity survives the reload (not "now": the status bar picks the latest session by it)
    assert.ok(reloaded!.heartbeat <= heartbeatBefore && reloaded!.heartbeat > 0, `heartbeat ${reloaded!.heartbeat} vs ${heartbeatBefore}`);
    assert.deepEqual(
      reloaded?.turns.map((t) => [t.index, t.prompt, t.response]),
      [[1, 'Add b to app.ts', 'Added b.']],
    );
    await s.replay();
    await h.tick();
    assert.deepEqual(
      ['prompts.jsonl', 'events.jsonl', 'pre_blobs.jsonl', 'changes.jsonl'].map((f) => h!.journalFile(CLAUDE_SID, f)),
      journalBefore,
      'nothing journaled twice',
    );
    assert.equal(h.recorder.counters.get('recorder.duplicateEvents'), s.sent.length);

    // the tailer resumes after the reload with the prior turn count; the next prompt is turn 2 in both
    h.advance(2000);
    await s.start({ priorTurns: 1 });
    await s.prompt('Also add c');
    assert.equal(h.journalFile(CLAUDE_SID, 'turn'), '2');
    assert.deepEqual(
      h.recorder.sessions.get('claude', CLAUDE_SID)?.turns.map((t) => t.index),
      [1, 2],
    );
    h.advance(1000);
    await h.change('app.ts', 'a\nb\nc\n', 'disk');
    await s.edit('app.ts', { tool: 'Edit', toolUseId: 'toolu_2', oldString: 'b\n', newString: 'b\nc\n', originalContent: 'a\nb\n' });
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('feat: b and c');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const note = await h.note(sha);
    assert.deepEqual(note.attribution, { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } });
    assert.deepEqual(note.files, [
      {
        path: 'app.ts',
        by_ai: true,
        ai_ranges: [
          { start: 2, end: 2, interaction: 0 },
          { start: 3, end: 3, interaction: 1 },
        ],
      },
    ]);
    assert.deepEqual(
      note.interactions.map((i) => i.prompt),
      ['Add b to app.ts', 'Also add c'],
    );
    assert.deepEqual(
      h.journalLines(CLAUDE_SID, 'prompts*').map((p) => [p.turn, p.prompt]),
      [
        [1, 'Add b to app.ts'],
        [2, 'Also add c'],
      ],
    );
  });

  it('(n) recording the same commit twice, also after a reload ⇒ exists', async () => {
    h = await Harness.create({ 'app.ts': 'a\n' });
    await claudeWrites(h, CLAUDE_SID, 'Add b', [{ file: 'app.ts', after: 'a\nb\n', toolUseId: 'toolu_1' }]);
    h.advance(3000);
    const sha = await h.commitAll('feat: b');
    const seen: string[] = [];
    h.recorder.onDidRecord((e) => seen.push(`${e.sha.slice(0, 7)}:${e.outcome.kind}`));
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const text = await h.noteText(sha);
    assert.deepEqual(await h.recorder.recordCommit(sha), { kind: 'exists' });
    await h.reopen();
    assert.deepEqual(await h.recorder.recordCommit(sha), { kind: 'exists' });
    assert.equal(await h.noteText(sha), text);
    assert.deepEqual(seen, [`${sha.slice(0, 7)}:written`, `${sha.slice(0, 7)}:exists`]);
  });

  it('(o) the written note reads back with the peer-compatible codec, byte for byte', async () => {
    h = await Harness.create({ 'app.ts': 'a\n' });
    await claudeWrites(
      h,
      CLAUDE_SID,
      'Add b — ünïcödé 日本語',
      [{ file: 'app.ts', after: 'a\nb\n', toolUseId: 'toolu_1' }],
      'Done: "b" added\ttab',
    );
    h.advance(3000);
    const sha = await h.commitAll('feat: b');
    await h.recorder.recordCommit(sha);
    const raw = (await h.noteText(sha))!;
    const store = new NoteStore(h.repo.runner());
    const d = await store.read(sha);
    assert.equal(d?.kind, 'valid');
    if (d?.kind !== 'valid') return;
    assert.equal(d.legacy, 'none');
    assert.deepEqual(d.issues, []);
    assert.equal(encodeNote(d.note), raw, 'encode(decode(note)) is the stored text');
    assert.equal(raw, `${JSON.stringify(d.note, null, 2)}\n`, 'pretty JSON + one newline, like the CLI');
    assert.ok(raw.includes('ünïcödé 日本語'), 'non-ASCII stored raw');
    assert.equal(decodeNote(raw).kind, 'valid');
  });

  it('(p) secrets in a prompt are redacted in the note (never logged)', async () => {
    const redact = (text: string) => {
      let count = 0;
      const out = text.replace(/AKIA[0-9A-Z]{16}/g, () => {
        count++;
        return '[REDACTED:aws-access-key]';
      });
      return { text: out, count };
    };
    h = await Harness.create({ 'cfg.ts': 'export {};\n' }, { redact });
    await claudeWrites(
      h,
      CLAUDE_SID,
      'Use key AKIAIOSFODNN7EXAMPLE in cfg.ts',
      [{ file: 'cfg.ts', after: 'export {};\nexport const key = process.env.KEY;\n', toolUseId: 'toolu_1' }],
      'I did not paste AKIAIOSFODNN7EXAMPLE anywhere.',
    );
    h.advance(3000);
    const sha = await h.commitAll('feat: key from env');
    const outcome = await h.recorder.recordCommit(sha);
    assert.equal(outcome.kind, 'written');
    assert.equal(outcome.kind === 'written' && outcome.redactions, 2);
    const note = await h.note(sha);
    assert.equal(note.interactions[0].prompt, 'Use key [REDACTED:aws-access-key] in cfg.ts');
    assert.equal(note.interactions[0].response, 'I did not paste [REDACTED:aws-access-key] anywhere.');
    assert.ok(!(await h.noteText(sha))!.includes('AKIA'));
    for (const l of h.log)
      assert.ok(!l.text.includes('AKIA') && !l.text.includes('Use key'), `log leaks prompt text: ${l.level} ${l.text}`);
  });
});
