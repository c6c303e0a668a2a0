import * as assert from 'node:assert/strict';
import { Counters } from '../../../src/core/ports';
import { NoteController, noteJsonText, type NoteActions } from '../../../src/webviews/note/noteController';
import type { NoteViewInput, NoteViewState } from '../../../src/webviews/note/protocol';
import { peerNote, readText } from '../report/peerFixtures';
import { FakeTransport, recordingLogger } from './fakes';

const slug = 'feat-validate-todo-titles';
const raw = readText('test', 'fixtures', 'peer-repos', 'todo-api', 'notes', `${slug}.json`);
const input: NoteViewInput = {
  commit: {
    sha: 'e13b790ac9ff86cb19096bf3fe0090c4ac73bf02',
    short: 'e13b790',
    subject: 'feat: validate todo titles',
    author: 'Ann Dev',
    date: '2026-03-02T09:37:02+00:00',
  },
  note: peerNote('todo-api', slug),
  raw,
  strings: {},
};

function setup(actions: Partial<NoteActions> = {}) {
  const t = new FakeTransport();
  const copied: string[] = [];
  const events: string[] = [];
  const counters = new Counters();
  const log = recordingLogger();
  const c = new NoteController(
    t,
    input,
    {
      writeClipboard: (text) => void copied.push(text),
      onCopied: (what) => void events.push(`copied ${what}`),
      onActionError: (a) => void events.push(`failed ${a}`),
      ...actions,
    },
    log,
    { counters },
  );
  return { t, c, copied, events, counters, log };
}

describe('NoteController', () => {
  it('replies to ready with the snapshot and what the host can do', async () => {
    const { t, c } = setup({ openFile: () => undefined });
    await c.handleMessage({ id: 'wv-1', method: 'note/ready' });
    assert.equal(t.posted.length, 1);
    const state = t.posted[0].params as NoteViewState;
    assert.equal(t.posted[0].method, 'note/ready/completion');
    assert.equal(state.commit.short, 'e13b790');
    assert.equal(state.note?.attribution.ai_ratio, 74);
    assert.deepEqual(state.capabilities, { openFile: true, openInTimeline: false });
  });

  it('delivers only the newest commit shown before ready, inside the ready reply', async () => {
    const { t, c } = setup();
    await c.setInput({ ...input, commit: { ...input.commit, short: 'aaaaaaa' } });
    await c.setInput({ ...input, commit: { ...input.commit, short: 'bbbbbbb' } });
    assert.equal(t.posted.length, 0);
    await c.handleMessage({ id: 'wv-1', method: 'note/ready' });
    assert.deepEqual(t.methods(), ['note/ready/completion']);
    assert.equal((t.posted[0].params as NoteViewState).commit.short, 'bbbbbbb');
    await c.setInput(input);
    assert.deepEqual(t.methods(), ['note/ready/completion', 'note/didChange']);
  });

  it('copies the stored note text as JSON, and the note as Markdown', async () => {
    const { c, copied, events } = setup();
    await c.handleMessage({ id: 'wv-1', method: 'note/copyJson' });
    await c.handleMessage({ id: 'wv-2', method: 'note/copyMarkdown' });
    assert.equal(copied[0], raw);
    assert.ok(copied[1].startsWith('## 🧑💬🤖 Agent Note: `e13b790` feat: validate todo titles\n'));
    assert.ok(copied[1].includes('**AI Ratio:** ██████░░ 74% · line · 14/19 added lines by AI, 3 deleted'));
    assert.deepEqual(events, ['copied json', 'copied markdown']);
  });

  it('copies pretty JSON without raw text, the raw text of an invalid note, and no Markdown for it', async () => {
    assert.equal(noteJsonText({ ...input, raw: undefined }), JSON.stringify(input.note, null, 2));
    const { c, copied, events } = setup();
    await c.setInput({ commit: input.commit, invalidReason: 'not JSON', raw: '{ broken', strings: {} });
    await c.handleMessage({ id: 'wv-1', method: 'note/copyJson' });
    await c.handleMessage({ id: 'wv-2', method: 'note/copyMarkdown' });
    assert.deepEqual(copied, ['{ broken']);
    assert.deepEqual(events, ['copied json']);
    assert.equal(c.markdownText(), undefined);
  });

  it('opens only files that belong to the note', async () => {
    const opened: string[] = [];
    const { c, counters } = setup({ openFile: (p) => void opened.push(p), openInTimeline: (sha) => void opened.push(`timeline ${sha}`) });
    await c.handleMessage({ id: 'wv-1', method: 'note/openFile', params: { path: 'src/store.ts' } });
    await c.handleMessage({ id: 'wv-2', method: 'note/openFile', params: { path: 'src/secret.ts' } });
    await c.handleMessage({ id: 'wv-3', method: 'note/openInTimeline' });
    assert.deepEqual(opened, ['src/store.ts', 'timeline e13b790ac9ff86cb19096bf3fe0090c4ac73bf02']);
    assert.equal(counters.get('note.inbound.unknownFile'), 1);
  });

  it('reports a failing clipboard instead of throwing', async () => {
    const { c, events, log } = setup({ writeClipboard: () => Promise.reject(new Error('denied')) });
    await c.handleMessage({ id: 'wv-1', method: 'note/copyJson' });
    assert.deepEqual(events, ['failed copyJson']);
    assert.ok(log.lines.includes('error note: copyJson failed: denied'));
  });

  it('ignores invalid messages', async () => {
    const { t, c, copied, counters } = setup();
    await c.handleMessage({ id: 'wv-1', method: 'note/copyJson', params: { text: 'evil' } });
    await c.handleMessage({ id: 'wv-2', method: 'note/eval' });
    assert.deepEqual(copied, []);
    assert.equal(t.posted.length, 0);
    assert.deepEqual(counters.snapshot(), { 'note.inbound.invalidParams': 1, 'note.inbound.unknownMethod': 1 });
  });
});
