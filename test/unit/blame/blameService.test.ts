import * as assert from 'node:assert/strict';
import { IncrementalBlameParser, type BlameEntry } from '../../../src/core/blame/blameIncremental';
import { parseBlamePorcelain, uncommittedSha, type BlameLine } from '../../../src/core/blame/blamePorcelain';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { BlameService } from '../../../src/node/blame/blameService';
import { LineNoteLookup } from '../../../src/node/lookup/lineNoteLookup';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

const numbered = (n: number, tag = 'v0') => Array.from({ length: n }, (_, i) => `line ${i + 1} ${tag}`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

/** line → sha/origLine from `git blame --porcelain` (the reference). */
async function reference(repo: TempRepo, rel: string, contents?: string): Promise<Map<number, BlameLine>> {
  const args = ['blame', '--porcelain', ...(contents !== undefined ? ['--contents', '-'] : []), '--', rel];
  const r = parseBlamePorcelain(await repo.git(args, contents !== undefined ? { input: contents } : {}));
  return new Map(r.lines.map((l) => [l.line, l]));
}

function note(path: string, aiStart: number, aiEnd: number): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: '8f0c2f7e-3b7a-4c1e-9d2a-0a1b2c3d4e5f',
    timestamp: '2026-12-02T14:30:57.434Z',
    model: 'claude-opus-4-6',
    interactions: [{ prompt: 'Rewrite lines', response: 'done', files_touched: [path], tools: ['Edit'] }],
    files: [{ path, by_ai: true, ai_ranges: [{ start: aiStart, end: aiEnd, interaction: 0 }] }],
    attribution: { ai_ratio: 50, method: 'line', lines: { ai_added: 1, total_added: 2, deleted: 0 } },
  };
}

describe('incremental blame', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();

  let repo: TempRepo;
  const shas: string[] = [];

  before(async () => {
    repo = await TempRepo.create();
    let lines = numbered(40);
    shas.push(await repo.commit({ 'src/a.txt': text(lines) }, 'first'));
    // each commit changes a different line, so blame has to walk back through all of them
    for (let c = 1; c <= 8; c++) {
      lines = [...lines];
      lines[c * 4] = `line ${c * 4 + 1} changed in commit ${c}`;
      if (c === 5) lines.splice(10, 0, 'inserted in commit 5');
      shas.push(await repo.commit({ 'src/a.txt': text(lines) }, `change ${c}`));
    }
  });
  after(async () => {
    await repo.remove();
  });

  it('the streaming parser reads git blame --incremental exactly like --porcelain, whatever the chunking', async () => {
    const out = await repo.git(['blame', '--incremental', '--', 'src/a.txt']);
    const want = await reference(repo, 'src/a.txt');
    for (const size of [1, 7, 64, out.length]) {
      const got = new Map<number, BlameLine>();
      const entries: BlameEntry[] = [];
      const p = new IncrementalBlameParser((e) => {
        entries.push(e);
        for (let i = 0; i < e.count; i++) got.set(e.line + i, { sha: e.sha, origLine: e.origLine + i, line: e.line + i });
      });
      for (let i = 0; i < out.length; i += size) p.push(out.slice(i, i + size));
      p.end();
      assert.deepEqual(
        [...got.entries()].sort((a, b) => a[0] - b[0]),
        [...want.entries()].sort((a, b) => a[0] - b[0]),
        `chunk size ${size}`,
      );
      assert.ok(entries.every((e) => e.filename === 'src/a.txt'));
      const first = p.commits.get(shas[1]);
      assert.equal(first?.summary, 'change 1');
      assert.equal(first?.author, 'Test User');
      assert.ok((first?.authorTime ?? 0) > 1_700_000_000_000);
      assert.equal(first?.boundary, undefined);
    }
  });

  it('marks boundary commits of a bounded blame', async () => {
    const out = await repo.git(['blame', '--incremental', `^${shas[6]}`, '--', 'src/a.txt']);
    const p = new IncrementalBlameParser(() => undefined);
    p.push(out);
    p.end();
    assert.equal(p.commits.get(shas[6])?.boundary, true);
    assert.equal(p.commits.get(shas[8])?.boundary, undefined);
  });

  it('BlameService answers every line like git blame, for the saved file and for a dirty buffer', async () => {
    const head = shas[shas.length - 1];
    const svc = new BlameService(repo.runner());
    const want = await reference(repo, 'src/a.txt');
    for (const [line, w] of want) {
      const got = await svc.blameLine('src/a.txt', head, 's1', line);
      assert.equal(got?.line.sha, w.sha, `line ${line}`);
      assert.equal(got?.line.origLine, w.origLine, `line ${line}`);
      assert.equal(got?.commit?.filename, 'src/a.txt');
    }
    assert.equal(await svc.blameLine('src/a.txt', head, 's1', want.size + 5), undefined, 'past the end of the file');

    const dirtyLines = (await repo.read('src/a.txt')).split('\n');
    dirtyLines.splice(3, 0, 'typed, not saved');
    const dirty = dirtyLines.join('\n');
    const wantDirty = await reference(repo, 'src/a.txt', dirty);
    for (const [line, w] of wantDirty) {
      const got = await svc.blameLine('src/a.txt', head, 'd2', line, dirty);
      assert.equal(got?.line.sha, w.sha, `dirty line ${line}`);
      assert.equal(got?.line.origLine, w.origLine, `dirty line ${line}`);
    }
    assert.equal((await svc.blameLine('src/a.txt', head, 'd2', 4, dirty))?.line.sha, uncommittedSha);
    const whole = await svc.blameFile('src/a.txt', head, 'd2', dirty);
    assert.equal(whole?.lines.length, wantDirty.size);
  });

  it('one git process per file version, shared by prefetch, line and whole-file requests; a line resolves before the file is done', async () => {
    const head = shas[shas.length - 1];
    const git = repo.runner();
    const svc = new BlameService(git);
    const before = git.counters.get('git.calls');
    const order: string[] = [];
    svc.prefetch('src/a.txt', head, 's1');
    const whole = svc.blameFile('src/a.txt', head, 's1').then((r) => {
      order.push('file');
      return r;
    });
    // line 33 was last changed by the newest commit: git writes it first
    const line = svc.blameLine('src/a.txt', head, 's1', 33).then((r) => {
      order.push('line');
      return r;
    });
    const [w, l] = await Promise.all([whole, line]);
    assert.equal(l?.line.sha, head);
    assert.ok(w && w.lines.length > 30);
    assert.deepEqual(order, ['line', 'file']);
    assert.equal(git.counters.get('git.calls') - before, 1);
    assert.equal(await svc.peek('src/a.txt', head, 's1'), w);
    // warm: no new process
    await svc.blameLine('src/a.txt', head, 's1', 1);
    assert.equal(git.counters.get('git.calls') - before, 1);
  });

  it('a newer version of a dirty buffer cancels the unfinished blame of the older one', async () => {
    const head = shas[shas.length - 1];
    const svc = new BlameService(repo.runner());
    const base = await repo.read('src/a.txt');
    const older = svc.blameFile('src/a.txt', head, 'd1', `x\n${base}`);
    const newer = svc.blameFile('src/a.txt', head, 'd2', `y\n${base}`);
    assert.equal(await older, undefined);
    assert.equal((await newer)?.lines.length, base.split('\n').length);
    assert.equal(svc.peek('src/a.txt', head, 'd1'), undefined);
  });

  it('LineNoteLookup finds the note of the commit that last changed the line, and says whether the AI wrote it', async () => {
    const head = shas[shas.length - 1];
    const git = repo.runner();
    const notes = new NoteStore(git, { trustCacheUntilInvalidated: true });
    // commit 8 changed line 33; its note says lines 33–34 of its version are AI
    assert.equal(await notes.write(head, note('src/a.txt', 33, 34)), 'written');
    notes.invalidate();
    const lookup = new LineNoteLookup(new BlameService(git), notes);
    const target = { rel: 'src/a.txt', head, version: 's1' };
    lookup.prefetch(target);
    const ai = await lookup.lookup(target, 33);
    assert.equal(ai?.sha, head);
    assert.equal(ai?.note?.kind, 'valid');
    assert.equal(ai?.aiLine, true);
    assert.deepEqual(ai?.range, { start: 33, end: 34, interaction: 0 });
    assert.equal(ai?.commit?.summary, 'change 8');
    const other = await lookup.lookup(target, 1);
    assert.equal(other?.sha, shas[0]);
    assert.equal(other?.note, undefined);
    assert.equal(other?.aiLine, undefined);
  });
});
