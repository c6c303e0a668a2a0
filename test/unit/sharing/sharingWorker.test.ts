import * as assert from 'node:assert/strict';
import { threadId } from 'node:worker_threads';
import * as path from 'node:path';
import { remoteTrackingNotesRef } from '../../../src/node/sharing/notesGit';
import { SharingWorkerClient } from '../../../src/node/sharing/sharingWorkerClient';
import { type Clones, noteLines, twoClones } from '../../helpers/sharingFixture';
import { type TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';

/** `n` commits with a note each on a side branch of `repo`, written with one fast-import (fast even for 1,000). */
export async function manyNotedCommits(repo: TempRepo, n: number, prompt: (i: number) => string): Promise<string[]> {
  const lines: string[] = [];
  const when = 1_780_000_000;
  for (let i = 0; i < n; i++) {
    const msg = `c${i}`;
    lines.push(`commit refs/heads/bulk`, `mark :${i + 1}`, `committer T <t@e> ${when + i} +0000`, `data ${msg.length}`, msg);
    if (i === 0) lines.push('from refs/heads/main');
    lines.push(`M 100644 inline bulk.txt`, `data ${String(i).length}`, String(i), '');
  }
  let nm = '';
  const noteBody = (i: number) =>
    `${JSON.stringify({ v: 1, agent: 'claude', session_id: 's', timestamp: '2026-03-01T10:00:00.000Z', model: null, interactions: [{ prompt: prompt(i), response: 'r'.repeat(400) }], files: [{ path: 'bulk.txt', by_ai: true }], attribution: { ai_ratio: 100, method: 'file' } }, null, 2)}\n`;
  nm += `commit refs/notes/agentnote\ncommitter T <t@e> ${when + n} +0000\ndata 5\nnotes\n`;
  for (let i = 0; i < n; i++) {
    const body = Buffer.from(noteBody(i));
    nm += `N inline :${i + 1}\ndata ${body.length}\n${body.toString()}\n`;
  }
  await repo.git(['fast-import', '--quiet'], { input: `${lines.join('\n')}\n${nm}done\n` });
  return (await repo.git(['rev-list', '--reverse', 'main..bulk'])).trim().split('\n');
}

describe('SharingWorkerClient: reading and merging notes off the calling thread', function () {
  this.timeout(120_000);
  useIsolatedGitEnv();
  let k: Clones;
  beforeEach(async () => {
    k = await twoClones();
  });
  afterEach(() => k.remove());

  const script = () => path.join(__dirname, '..', '..', '..', 'src', 'node', 'sharing', 'sharingWorker.js');

  it('merges 1,000 fetched notes in the worker thread, 1,000 of them conflicting', async () => {
    const commits = await manyNotedCommits(k.a, 1000, (i) => `from A ${i}`);
    await k.a.git(['push', '-q', 'origin', 'bulk', 'refs/notes/agentnote']);
    await k.b.git(['fetch', '-q', 'origin', 'bulk:bulk']);
    // B noted the same commits differently (a later timestamp, so B's notes win and A's are superseded)
    const stream: string[] = ['commit refs/notes/agentnote', 'committer T <t@e> 1780009999 +0000', 'data 1', 'b'];
    for (const c of commits) {
      const body = `${JSON.stringify({ v: 1, agent: 'cursor', session_id: 's', timestamp: '2026-03-01T11:00:00.000Z', model: null, interactions: [{ prompt: `B ${c}`, response: null }], files: [], attribution: { ai_ratio: 0, method: 'none' } }, null, 2)}\n`;
      stream.push(`N inline ${c}`, `data ${Buffer.byteLength(body)}`, body);
    }
    await k.b.git(['fast-import', '--quiet'], { input: `${stream.join('\n')}\ndone\n` });
    await k.b.git(['fetch', '-q', 'origin', `+refs/notes/agentnote:${remoteTrackingNotesRef('origin')}`]);

    const client = new SharingWorkerClient({ script: script(), idleMs: 200 });
    const logs: string[] = [];
    const log = {
      trace() {},
      debug() {},
      info: (m: string) => logs.push(m),
      warn: (m: string) => logs.push(m),
      error: (m: string) => logs.push(m),
    };
    const r = await client.run('sync', { cwd: k.b.dir }, { now: Date.parse('2026-03-02T00:00:00.000Z') }, log);
    assert.equal(r.changed, true);
    assert.equal(r.merged[0].conflicts, 1000);
    assert.ok(client.lastThreadId !== undefined && client.lastThreadId !== threadId, 'answered by another thread');
    assert.ok(
      logs.some((l) => /1000 conflicting note\(s\) combined/.test(l)),
      'worker logs reach the caller',
    );
    const lines = await noteLines(k.b);
    assert.equal(lines.length, 1000);
    assert.ok(lines.every((l) => l.includes('"superseded_notes"') && l.includes('"prompt": "B ')));
    // the worker stops by itself when idle
    await new Promise((res) => setTimeout(res, 500));
    assert.equal(client.running, false);
    client.dispose();
  });

  it('never falls back to the calling thread: a missing worker script is an error', async () => {
    const client = new SharingWorkerClient({ script: path.join(__dirname, 'no-such-worker.js') });
    await assert.rejects(client.run('sync', { cwd: k.b.dir }, {}), /sharing worker script missing/);
    client.dispose();
  });
});
