import * as assert from 'node:assert/strict';
import { decodeNote, encodeNote } from '../../../src/core/notes/noteCodec';
import { defaultNoteReadLimits, noteWriteLimits } from '../../../src/core/notes/noteLimits';
import { cutWithMarker, fitNoteForWrite } from '../../../src/core/notes/noteSize';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { Harness } from '../recorder/recorderHarness';

function note(extra: Partial<AgentNoteV1> = {}): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: 's-1',
    timestamp: '2026-01-01T00:00:00.000Z',
    model: 'claude-sonnet-4-5',
    interactions: [{ prompt: 'Add a line', response: 'Added.', files_touched: ['a.txt'] }],
    files: [{ path: 'a.txt', by_ai: true, ai_ranges: [{ start: 1, end: 2, interaction: 0 }] }],
    attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 2, total_added: 2, deleted: 0 } },
    ...extra,
  };
}

describe('notes we write stay small (noteSize.ts)', () => {
  it('the write cap is well inside the read limit: everything we write we can read', () => {
    assert.ok(noteWriteLimits.maxBytes * 2 <= defaultNoteReadLimits.maxBytes);
  });

  it('a note within the limits is left exactly as built', () => {
    const n = note();
    const f = fitNoteForWrite(n);
    assert.deepEqual(f.steps, []);
    assert.equal(f.fits, true);
    assert.equal(encodeNote(f.note), encodeNote(n));
    assert.equal(f.bytes, Buffer.byteLength(encodeNote(n)));
  });

  it('a long response is cut with a marker that says how much was left out; ratios unchanged', () => {
    const long = `${'é'.repeat(9_000)}😀${'z'.repeat(999)}`;
    const n = note({ interactions: [{ prompt: 'p', response: long }] });
    const f = fitNoteForWrite(n);
    const response = f.note.interactions[0].response ?? '';
    assert.equal(response, `${'é'.repeat(8_000)}…[cut by Agent Note: 2,000 more characters]`);
    assert.deepEqual(f.steps, ['cut 1 response(s) to 8,000 characters']);
    assert.deepEqual(f.note.attribution, n.attribution);
    assert.deepEqual(f.note.files, n.files);
    assert.equal(n.interactions[0].response, long, 'the input is not modified');
    assert.equal(decodeNote(encodeNote(f.note)).kind, 'valid');
  });

  it('a note over the cap: texts cut further, then the per-line ranges left out; files and ratio stay', () => {
    const interactions = Array.from({ length: 24 }, (_, i) => ({ prompt: `${i} ${'p'.repeat(20_000)}`, response: 'r'.repeat(7_000) }));
    const f = fitNoteForWrite(note({ interactions }));
    assert.equal(f.fits, true);
    assert.ok(f.bytes <= noteWriteLimits.maxBytes);
    assert.equal(f.note.interactions.length, 24, 'no prompt dropped');
    assert.ok(f.note.interactions.every((it) => it.prompt.endsWith('more characters]') && it.prompt.length < 2_100));
    assert.equal(f.note.files[0].ai_ranges?.length, 1, 'ranges kept while the text cut is enough');

    const files = Array.from({ length: 3_000 }, (_, i) => ({
      path: `src/module-${i}/component-${i}.tsx`,
      by_ai: true,
      ai_ranges: Array.from({ length: 8 }, (_, k) => ({ start: k * 10 + 1, end: k * 10 + 5, interaction: 0 })),
    }));
    const g = fitNoteForWrite(note({ files }));
    assert.equal(g.fits, true);
    assert.ok(g.steps.includes('left out the per-line AI ranges'), g.steps.join('; '));
    assert.equal(g.note.files.length, 3_000);
    assert.ok(g.note.files.every((x) => x.ai_ranges === undefined && x.by_ai));
  });

  it('a note that cannot fit says so (the recorder then writes nothing and logs it)', () => {
    const files = Array.from({ length: 20_000 }, (_, i) => ({ path: `generated/some/long/path/file-number-${i}.json`, by_ai: true }));
    const f = fitNoteForWrite(note({ files }));
    assert.equal(f.fits, false);
    assert.ok(f.bytes > noteWriteLimits.maxBytes);
  });

  it('cutWithMarker counts code points and never splits a surrogate pair', () => {
    assert.deepEqual(cutWithMarker('abc', 3), { text: 'abc', cut: false });
    assert.deepEqual(cutWithMarker('😀😀😀', 2), { text: '😀😀…[cut by Agent Note: 1 more characters]', cut: true });
  });
});

describe('RepositoryRecorder: a long response is cut in the note it writes', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  it('writes the marker and logs one clear line', async () => {
    h = await Harness.create({ 'a.ts': 'export {};\n' });
    const s = h.session('claude', '5b7d3c1e-2a4f-4e6b-8c9d-0e1f2a3b4c5d', 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt('Add the answer constant to a.ts');
    h.advance(500);
    const after = 'export {};\nexport const answer = 42;\n';
    await h.change('a.ts', after, 'disk');
    h.advance(100);
    await s.edit('a.ts', { tool: 'Write', toolUseId: 'toolu_1', contents: after });
    h.advance(500);
    await s.respond(`Added it. ${'x'.repeat(30_000)}`);
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('feat: answer');
    assert.equal((await h.recorder.recordCommit(sha)).kind, 'written');
    const n = await h.note(sha);
    const response = n.interactions.find((i) => i.response)?.response ?? '';
    assert.ok(response.startsWith('Added it. xxx'), response.slice(0, 40));
    assert.ok(response.endsWith('…[cut by Agent Note: 22,010 more characters]'), response.slice(-60));
    assert.ok(
      h.log.some(
        (l) => l.level === 'info' && /note for [0-9a-f]+ kept under 262,144 bytes: cut 1 response\(s\) to 8,000 characters/.test(l.text),
      ),
      h.log.map((l) => l.text).join('\n'),
    );
    assert.ok(!h.log.some((l) => l.text.includes('xxxxxxxx')), 'the text itself is never logged');
  });
});
