import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';

/**
 * In-host part of `npm run bench` (scripts/bench.mjs): runs inside code-server's extension host,
 * once with Agent Note loaded ("enabled") and once without it ("disabled", a stub extension is the
 * development extension instead). Reads its plan from AGENTNOTE_BENCH_PLAN and writes every number
 * to plan.outFile. Never run by `npm test` (suite name `bench`, selected only by the bench).
 *
 * Coordination with the driver (a separate node process) goes through files in plan.syncDir:
 * the suite writes `<name>.json` markers; the driver answers with `<name>.done.json`.
 */

interface BenchPlan {
  mode: 'enabled' | 'disabled';
  /** Which steps run: activation, memory, hover, typing, commits (a light round skips the last two). */
  steps: string[];
  /** Diagnostics: write a heap snapshot of the extension host here after the memory step. */
  heapSnapshot?: string;
  outFile: string;
  syncDir: string;
  /** Repo-relative path of the big file. */
  file: string;
  hoverLines: { line: number; sha: string }[];
  hoverRounds: number;
  /** maxMs: typing stops after this long (the result says how many characters were typed). */
  typing: { chars: number; intervalMs: number; line: number; afterMs: number; maxMs: number };
  settle: { maxMs: number; minMs: number; quietPercent: number; windowMs: number; windows: number };
  driverTimeoutMs: number;
}

interface BenchStatsLike {
  activateMs: number;
  handlerStats: { calls: number; totalMs: number; maxMs: number; medianMs?: number };
  gitCalls: number;
}

interface ApiLike {
  ready: Promise<void>;
  repositories(): { root: string }[];
  idle?(): Promise<void>;
  benchStats?(): BenchStatsLike;
}

const extensionId = 'agentnote.agent-note';
const plan: BenchPlan | undefined = process.env.AGENTNOTE_BENCH_PLAN
  ? JSON.parse(fs.readFileSync(process.env.AGENTNOTE_BENCH_PLAN, 'utf8'))
  : undefined;
const results: Record<string, unknown> = { pid: process.pid, node: process.version, vscode: vscode.version, startedAt: Date.now() };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function save(): void {
  if (plan) fs.writeFileSync(plan.outFile, JSON.stringify(results, null, 2));
}

function mark(name: string, data: Record<string, unknown> = {}): void {
  const f = path.join(plan!.syncDir, `${name}.json`);
  fs.writeFileSync(`${f}.tmp`, JSON.stringify({ at: Date.now(), pid: process.pid, ...data }));
  fs.renameSync(`${f}.tmp`, f);
}

async function waitForDriver(name: string): Promise<Record<string, unknown>> {
  const f = path.join(plan!.syncDir, `${name}.done.json`);
  const deadline = Date.now() + plan!.driverTimeoutMs;
  for (;;) {
    if (fs.existsSync(f)) {
      try {
        return JSON.parse(fs.readFileSync(f, 'utf8'));
      } catch {
        /* being written */
      }
    }
    if (Date.now() > deadline) throw new Error(`driver did not answer ${name}`);
    await sleep(50);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Waits until this process (the extension host) has used < quietPercent of one core for `windows` windows in a row. */
async function settleCpu(p: BenchPlan['settle']): Promise<{ ms: number; quiet: boolean; lastPercent: number }> {
  const t0 = Date.now();
  let quietRun = 0;
  let last = process.cpuUsage();
  let lastT = performance.now();
  let lastPercent = 100;
  for (;;) {
    await sleep(p.windowMs);
    const u = process.cpuUsage(last);
    const t = performance.now();
    lastPercent = ((u.user + u.system) / 1000 / (t - lastT)) * 100;
    last = process.cpuUsage();
    lastT = t;
    quietRun = lastPercent < p.quietPercent ? quietRun + 1 : 0;
    const ms = Date.now() - t0;
    if (quietRun >= p.windows && ms >= p.minMs) return { ms, quiet: true, lastPercent };
    if (ms > p.maxMs) return { ms, quiet: false, lastPercent };
  }
}

let gcFn: (() => void) | undefined;
function gc(): void {
  if (!gcFn) {
    v8.setFlagsFromString('--expose_gc');
    gcFn = vm.runInNewContext('gc') as () => void;
  }
  gcFn();
}

/** Peak RSS of this process so far (VmHWM), bytes; undefined off Linux. */
function peakRss(): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** RSS after two full GCs, median of 5 samples 200 ms apart, plus the peak so far. */
async function memory(): Promise<Record<string, number | undefined>> {
  gc();
  await sleep(300);
  gc();
  const rss: number[] = [];
  const heap: number[] = [];
  for (let i = 0; i < 5; i++) {
    await sleep(200);
    const m = process.memoryUsage();
    rss.push(m.rss);
    heap.push(m.heapUsed);
  }
  const m = process.memoryUsage();
  return { rss: median(rss), heapUsed: median(heap), external: m.external, arrayBuffers: m.arrayBuffers, peakRss: peakRss() };
}

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? [])
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))
    .join('\n');
}

function root(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'a workspace folder is open');
  return f.uri.fsPath;
}

async function api(): Promise<ApiLike | undefined> {
  const ext = vscode.extensions.getExtension<ApiLike>(extensionId);
  if (!ext) return undefined;
  const deadline = Date.now() + 60_000;
  while (!ext.isActive) {
    if (Date.now() > deadline) throw new Error('Agent Note did not activate');
    await sleep(50);
  }
  return ext.exports;
}

(plan ? describe : describe.skip)('benchmark (in host)', function () {
  this.timeout(600_000);
  const t0 = Date.now();

  after(() => {
    results.finishedAt = Date.now();
    save();
  });

  it('activation and start-up', async () => {
    const p = plan!;
    // always runs: the other steps need the extension started
    const ext = vscode.extensions.getExtension(extensionId);
    results.extensionLoaded = ext !== undefined;
    if (p.mode === 'enabled') {
      assert.ok(ext, 'Agent Note is loaded');
      const a = await api();
      assert.ok(a, 'Agent Note API');
      results.activeAfterMs = Date.now() - t0;
      await a.ready;
      const deadline = Date.now() + 60_000;
      while (!a.repositories().some((r) => r.root === root())) {
        if (Date.now() > deadline) throw new Error('repository not registered');
        await sleep(50);
      }
      if (a.idle) {
        const s = Date.now();
        await a.idle();
        results.idleMs = Date.now() - s;
      }
      results.idleAfterMs = Date.now() - t0;
      results.rssAtIdle = process.memoryUsage().rss;
      results.statsAtStart = a.benchStats?.();
    } else {
      assert.equal(ext, undefined, 'Agent Note must not be loaded in the disabled configuration');
    }
    save();
  });

  it('extension host memory with all transcripts tailed', async function () {
    if (!plan!.steps.includes('memory')) this.skip();
    results.settle = await settleCpu(plan!.settle);
    results.memorySettled = await memory();
    if (plan!.heapSnapshot) v8.writeHeapSnapshot(plan!.heapSnapshot);
    save();
  });

  it('hover through executeHoverProvider', async function () {
    const p = plan!;
    if (!p.steps.includes('hover')) this.skip();
    const uri = vscode.Uri.file(path.join(root(), p.file));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    results.languageId = doc.languageId;
    const pos = (line: number) => new vscode.Position(line - 1, 4);
    // first hover in the file (cold through the host): repeat until Agent Note answers
    const first = p.hoverLines[0];
    const c0 = performance.now();
    let tries = 0;
    let text = '';
    for (;;) {
      tries++;
      text = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos(first.line)));
      if (p.mode === 'disabled' || text.includes('Agent Note') || performance.now() - c0 > 30_000) break;
      await sleep(100);
    }
    results.hoverFirst = {
      ms: performance.now() - c0,
      tries,
      ours: text.includes('Agent Note'),
      mentionsSha: text.includes(first.sha.slice(0, 7)),
    };
    // let the background whole-file blame finish, then warm up
    await sleep(p.mode === 'enabled' ? 3000 : 200);
    for (let r = 0; r < 2; r++)
      for (const l of p.hoverLines) await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, pos(l.line));
    const samples: number[] = [];
    let ours = 0;
    let shaMatches = 0;
    for (let r = 0; r < p.hoverRounds; r++) {
      for (const l of p.hoverLines) {
        const s = performance.now();
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos(l.line));
        samples.push(performance.now() - s);
        const t = hoverText(hovers);
        if (t.includes('Agent Note')) ours++;
        if (t.includes(l.sha.slice(0, 7))) shaMatches++;
      }
    }
    results.hoverWarm = { samples, ours, shaMatches, total: samples.length };
    save();
  });

  it('typing in the big file', async function () {
    const p = plan!;
    if (!p.steps.includes('typing')) this.skip();
    const a = p.mode === 'enabled' ? await api() : undefined;
    const uri = vscode.Uri.file(path.join(root(), p.file));
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    const line = Math.min(p.typing.line, doc.lineCount) - 1;
    const end = doc.lineAt(line).range.end;
    editor.selection = new vscode.Selection(end, end);
    const text = ' // typed by the benchmark: the quick brown fox jumps over the lazy dog'.repeat(10).slice(0, p.typing.chars);
    const before = a?.benchStats?.();
    mark('typing-begin');
    await waitForDriver('typing-begin');
    const startedAt = Date.now();
    const perKey: number[] = [];
    let typed = 0;
    for (let i = 0; i < text.length; i++) {
      if (Date.now() - startedAt > p.typing.maxMs) break;
      typed++;
      const s = performance.now();
      await vscode.commands.executeCommand('type', { text: text[i] });
      const took = performance.now() - s;
      perKey.push(took);
      await sleep(p.typing.intervalMs - took);
    }
    const endedAt = Date.now();
    const during = a?.benchStats?.();
    mark('typing-end');
    await waitForDriver('typing-end');
    await sleep(p.typing.afterMs);
    const after = a?.benchStats?.();
    mark('typing-after');
    await waitForDriver('typing-after');
    results.typing = {
      chars: typed,
      planned: text.length,
      startedAt,
      endedAt,
      typeCommandMs: perKey,
      dirty: doc.isDirty,
      statsBefore: before,
      statsDuring: during,
      statsAfter: after,
    };
    await vscode.commands.executeCommand('workbench.action.files.revert');
    results.typingReverted = !doc.isDirty;
    save();
  });

  it('commits made from a terminal while the extension runs', async function () {
    const p = plan!;
    if (!p.steps.includes('commits')) this.skip();
    const a = p.mode === 'enabled' ? await api() : undefined;
    await settleCpu({ ...p.settle, minMs: 1000, maxMs: 30_000 });
    const before = a?.benchStats?.();
    mark('commits');
    const done = await waitForDriver('commits');
    if (a?.idle) await a.idle();
    results.commits = { driver: done, statsBefore: before, statsAfter: a?.benchStats?.() };
    results.memoryEnd = await memory();
    save();
  });
});
