import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as inspector from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { agentNote, recorded, waitFor, workspaceRoot } from '../helpers/host';
import { ClaudeSession } from '../helpers/agents';

/**
 * "The UI thread never blocks on git": the longest event-loop stall of the extension host while
 * Agent Note records a 500-file AI commit. This suite runs in the extension host itself, so a
 * 10 ms interval timer here is delayed by any synchronous stretch of the extension. Everything the
 * test does while measuring is asynchronous (git via execFile, the agent's writes spread over
 * ticks), so the stalls measured are the extension's (and the host's own work).
 */
const files = 500;
const goalMs = 50;
/**
 * The goal is checked by `npm run bench` (row `ui-stall`, which runs this scenario and reads its
 * report), never by this test: a timed assertion on a shared 2-core CI machine fails on a slow
 * stretch of the machine (105 ms once, over a bound of 100 ms), not on a change of ours. This test
 * checks that the 500-file AI commit is captured and noted in full, and reports the stall. Measured after the
 * time-slicing fixes (journal parsing yields after 8 ms, disk reads 8 at a time, recording yields
 * between phases): 33–46 ms over four runs on 2 cores (the histogram's maximum, which includes its
 * 10 ms resolution; the 10 ms timer's own lateness was 23–36 ms). Before them 70–117 ms, and
 * 220–270 ms before the status-bar tooltip, tailer chunk and disk-capture fixes. Later, with more
 * git calls per recording, 83–135 ms: a CPU profile (AGENTNOTE_STALL_PROFILE) showed each process
 * start costing 5–50 ms on the host's thread, several in one turn; with the starts paced per turn
 * (SpawnPacer) 63–69 ms. The value is written
 * to AGENTNOTE_STALL_REPORT (or next to the workspace) with the stalls over the goal per phase.
 */

function gitAsync(root: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'git',
      ['-c', 'user.name=Ann Dev', '-c', 'user.email=ann@example.com', '-c', 'commit.gpgsign=false', ...args],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (e, out) => (e ? reject(e) : resolve(out)),
    ),
  );
}

const tick = () => new Promise((r) => setImmediate(r));

describe('event loop during a 500-file AI commit', function () {
  this.timeout(240_000);

  it(`measures the longest extension-host stall while a ${files}-file AI commit is captured and recorded; reports it against the goal of ${goalMs} ms (checked by npm run bench)`, async () => {
    const api = await agentNote();
    const root = workspaceRoot();
    await waitFor(() => api.repositories().find((r) => r.root === root), 30_000, 'repository');
    const dir = path.join(root, 'stall');
    fs.mkdirSync(dir, { recursive: true });
    for (let i = 0; i < files; i++) fs.writeFileSync(path.join(dir, `m${i}.ts`), `export const v${i} = ${i};\n`);
    await gitAsync(root, 'add', '-A');
    await gitAsync(root, 'commit', '-q', '-m', 'chore: 500 modules');
    const base = (await gitAsync(root, 'rev-parse', 'HEAD')).trim();
    await recorded(root, base, 30_000);

    // the monitors: perf_hooks histogram (10 ms resolution) and the max lateness of a 10 ms timer
    const hist = monitorEventLoopDelay({ resolution: 10 });
    let maxLate = 0;
    let phase = 'edits';
    /** Stalls over the goal, per phase (edits and capture / commit / recording until the note). */
    const over: Record<string, number[]> = {};
    let expected = performance.now() + 10;
    const timer = setInterval(() => {
      const now = performance.now();
      const late = now - expected;
      maxLate = Math.max(maxLate, late);
      if (late > goalMs) (over[phase] ??= []).push(Math.round(late));
      expected = now + 10;
    }, 10);
    hist.enable();
    // AGENTNOTE_STALL_PROFILE=<file>: a CPU profile of this thread while measuring (to find a stall's stack)
    const profileTo = process.env.AGENTNOTE_STALL_PROFILE;
    const profiler = profileTo ? new inspector.Session() : undefined;
    const post = (method: string, params?: object) =>
      new Promise<unknown>((res, rej) => profiler!.post(method, params ?? {}, (e, r) => (e ? rej(e) : res(r))));
    if (profiler) {
      profiler.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 500 });
      await post('Profiler.start');
    }
    const t0 = Date.now();
    let sha = '';
    try {
      const s = new ClaudeSession(root);
      s.prompt(`Add a doubled value to each of the ${files} modules in stall/`);
      for (let i = 0; i < files; i++) {
        s.edit(`stall/m${i}.ts`, `export const v${i} = ${i};\n`, `export const v${i} = ${i};\nexport const d${i} = v${i} * 2;\n`);
        await tick();
      }
      s.respond(`Added d0…d${files - 1}.`);
      // the transcript is read and the 500 disk changes are captured before the commit
      await waitFor(() => api.sessions(root).find((x) => x.id === s.id && x.files.length >= files), 60_000, 'all edits seen');
      phase = 'commit';
      await gitAsync(root, 'add', '-A');
      await gitAsync(root, 'commit', '-q', '-m', 'feat: doubled values');
      sha = (await gitAsync(root, 'rev-parse', 'HEAD')).trim();
      phase = 'note';
      for (const deadline = Date.now() + 120_000; ; ) {
        const r = await gitAsync(root, 'notes', '--ref=agentnote', 'list', sha).catch(() => '');
        if (r.trim()) break;
        if (Date.now() > deadline) throw new Error('no note after 120 s');
        await new Promise((r2) => setTimeout(r2, 200));
      }
    } finally {
      clearInterval(timer);
      hist.disable();
      if (profiler) {
        const r = (await post('Profiler.stop')) as { profile: unknown };
        fs.writeFileSync(profileTo!, JSON.stringify(r.profile));
        profiler.disconnect();
      }
    }
    const note = JSON.parse(await gitAsync(root, 'notes', '--ref=agentnote', 'show', sha)) as {
      files: { by_ai: boolean }[];
      attribution: { method: string };
    };
    const maxHist = hist.max / 1e6;
    const stall = Math.max(maxLate, maxHist);
    const report = {
      files,
      aiFiles: note.files.filter((f) => f.by_ai).length,
      method: note.attribution.method,
      seconds: (Date.now() - t0) / 1000,
      maxStallMs: Math.round(stall),
      timerMaxLateMs: Math.round(maxLate),
      histMaxMs: Math.round(maxHist),
      histP99Ms: Math.round(hist.percentile(99) / 1e6),
      histMeanMs: Math.round(hist.mean / 1e6),
      overGoalByPhase: over,
    };
    console.log(`      stall: ${JSON.stringify(report)}`);
    fs.writeFileSync(process.env.AGENTNOTE_STALL_REPORT ?? path.join(path.dirname(root), 'stall-report.json'), JSON.stringify(report));
    assert.equal(report.aiFiles, files, 'every module is AI');
    assert.equal(report.method, 'line', 'per-line attribution');
  });
});
