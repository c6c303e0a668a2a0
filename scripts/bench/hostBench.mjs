// In-host measurements: one code-server per configuration, the workbench opened in headless
// Chromium with the URL payload (extensionDevelopmentPath + extensionTestsPath) exactly like
// scripts/run-integration.mjs, and the in-host suite test/suite/bench (VSH_SUITE=bench) doing the
// editor-side work. "enabled" loads Agent Note from this checkout; "disabled" loads a stub
// extension instead, so Agent Note is not in the host at all. This file is the `bench` scenario:
// it is not part of the scenarios npm test runs.
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SETTINGS, isolatedEnv, launchChromium, startCodeServer } from '../harness.mjs';
import { ROOT, gitEnv, gitSync, log, spawnTimed } from './common.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The code-servers and browsers of the runs in progress (for stopActive on Ctrl-C); two at once during the commit pairs. */
const active = { cs: new Set(), browsers: new Set() };

/** Kills the running code-servers (their whole process groups) and Chromiums, synchronously. */
export function stopActive() {
  for (const cs of active.cs) {
    try {
      process.kill(-cs.child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  for (const b of active.browsers) {
    try {
      b.process()?.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** The `bench` scenario: settings and suite used for every in-host bench run. */
export const benchScenario = {
  name: 'bench',
  suite: 'bench',
  // The big file is TypeScript; the built-in TypeScript extension would start tsserver and answer
  // every hover too, so the file is opened as plain text: the numbers are Agent Note's own.
  settings: { 'files.associations': { '*.ts': 'plaintext' }, 'git.autoRepositoryDetection': true },
};

/** An extension with no code: the development extension of the "disabled" configuration. */
function stubExtension(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'bench-stub', publisher: 'agentnote-bench', version: '0.0.0', engines: { vscode: '^1.90.0' } }, null, 2),
  );
  return dir;
}

/** Direct children of `pid` (all its threads), from /proc. */
function childrenOf(pid) {
  const out = [];
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim();
      if (s) out.push(...s.split(' ').map(Number));
    } catch {
      /* thread ended */
    }
  }
  return out;
}

function countBy(keys) {
  const m = {};
  for (const k of keys) m[k ?? '?'] = (m[k ?? '?'] ?? 0) + 1;
  return m;
}

/** The git subcommand and its first arguments, without the `-c key=value` options. */
function gitCommand(argv) {
  const rest = [];
  for (let i = 1; i < argv.length; i++) {
    if (argv[i] === '-c') i++;
    else rest.push(argv[i]);
  }
  return rest.slice(0, 3).join(' ');
}

/**
 * Samples the extension host's child processes every `everyMs`, remembering what each one runs.
 * A child read between fork and exec still shows the host's own command line: it is re-read on
 * later polls until it shows the real program (or is gone: then it counts as `unknown`).
 */
function processWatcher(pid, everyMs = 3) {
  const seen = new Map();
  let hostArgv0;
  try {
    hostArgv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
  } catch {
    hostArgv0 = undefined;
  }
  let phase = 'idle';
  let timer;
  const readArgv = (c) => {
    try {
      return readFileSync(`/proc/${c}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      return undefined;
    }
  };
  const poll = () => {
    for (const c of childrenOf(pid)) {
      const e = seen.get(c);
      if (e && e.resolved) continue;
      const argv = readArgv(c);
      const resolved = argv !== undefined && argv.length > 0 && argv[0] !== hostArgv0;
      if (e) {
        if (resolved) Object.assign(e, { argv, resolved });
      } else seen.set(c, { phase, argv: argv ?? [], resolved });
    }
  };
  return {
    start(p) {
      // children already running (e.g. a long-lived `git cat-file --batch` started earlier) were
      // not started in phase p: they are counted under 'before'
      phase = 'before';
      poll();
      phase = p;
      timer ??= setInterval(poll, everyMs);
    },
    phase(p) {
      poll();
      phase = p;
    },
    stop() {
      poll();
      clearInterval(timer);
      timer = undefined;
    },
    /** Children first seen in phase `p`: git processes, ours (GitRunner's pinned `-c diff.algorithm=myers`), unknown (gone before exec was visible). */
    count(p) {
      const inPhase = [...seen.values()].filter((s) => s.phase === p);
      const git = inPhase.filter((s) => s.resolved && /(^|\/)git$/.test(s.argv[0]));
      const ours = git.filter((s) => s.argv.includes('diff.algorithm=myers'));
      return {
        children: inPhase.length,
        git: git.length,
        ours: ours.length,
        unknown: inPhase.filter((s) => !s.resolved).length,
        commands: git.slice(0, 12).map((s) => `${s.argv.includes('diff.algorithm=myers') ? 'ours: ' : ''}${gitCommand(s.argv)}`),
        /** `git <subcommand>` → count, for Agent Note's processes and for the others */
        oursByCommand: countBy(ours.map((x) => x.argv[x.argv.findIndex((a, i) => i > 0 && a !== '-c' && x.argv[i - 1] !== '-c')])),
        othersByCommand: countBy(
          git
            .filter((x) => !ours.includes(x))
            .map((x) => x.argv[x.argv.findIndex((a, i) => i > 0 && a !== '-c' && x.argv[i - 1] !== '-c')]),
        ),
      };
    },
  };
}

/** Finds "activated in X ms" in the extension host's log files of a run. */
function activationFromLogs(dir) {
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    let entries = [];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.name.endsWith('.log') && statSync(p).size < 20 * 1024 * 1024) {
        const m = /activated in ([\d.]+) ms/.exec(readFileSync(p, 'utf8'));
        if (m) return Number(m[1]);
      }
    }
  }
  return undefined;
}

/**
 * One code-server run. `ctx`: {base (bench temp root; HOME is base/home), pristine (repo to copy),
 * wsPath (where the workspace must be: transcripts name it as their cwd), hoverLines, run (index)}.
 */
export async function runHostConfig(mode, ctx) {
  const runDir = join(ctx.base, `host-${ctx.run}-${mode}`);
  const syncDir = join(runDir, 'sync');
  mkdirSync(syncDir, { recursive: true });
  // fresh workspace copy at the same path (the transcripts' cwd), fresh user data (offsets etc.)
  rmSync(ctx.wsPath, { recursive: true, force: true });
  cpSync(ctx.pristine, ctx.wsPath, { recursive: true });
  // HOME = <envBase>/home: the bench HOME with the transcripts, or an empty one (activation runs)
  const envBase = ctx.envBase ?? ctx.base;
  const home = join(envBase, 'home');
  gitSync(ctx.wsPath, home, ['update-index', '-q', '--refresh']);
  const env = { ...isolatedEnv(envBase), EXTENSIONS_GALLERY: '{}' };
  const userDataDir = join(runDir, 'user-data');
  const extensionsDir = join(runDir, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...SETTINGS, ...benchScenario.settings }, null, 2));
  const outFile = join(runDir, 'bench.json');
  const planFile = join(runDir, 'plan.json');
  const plan = {
    mode,
    steps: ctx.steps ?? ['activation', 'memory', 'hover', 'typing', 'commits'],
    outFile,
    syncDir,
    file: ctx.file,
    hoverLines: ctx.hoverLines,
    hoverRounds: ctx.hoverRounds ?? 10,
    typing: { chars: 200, intervalMs: 40, line: 2500, afterMs: 1000, maxMs: 30_000 },
    settle: { maxMs: 100_000, minMs: 3000, quietPercent: 5, windowMs: 500, windows: 4 },
    // the commits step waits for the other host of its pair too (its start-up and catch-up)
    driverTimeoutMs: ctx.commitPairs ? 480_000 : 180_000,
    // diagnostics only (not a measurement): a heap snapshot of the extension host after the memory step
    ...(ctx.heapSnapshot ? { heapSnapshot: ctx.heapSnapshot } : {}),
  };
  writeFileSync(planFile, JSON.stringify(plan, null, 2));
  const testsEntry = join(ROOT, 'out/test/suite/index.js');
  const devPath = mode === 'enabled' ? ROOT : stubExtension(join(ctx.base, 'stub-extension'));
  const started = Date.now();
  const cs = await startCodeServer({
    userDataDir,
    extensionsDir,
    env,
    extraEnv: { VSH_TEST_RESULTS: join(runDir, 'results.json'), VSH_SUITE: benchScenario.suite, AGENTNOTE_BENCH_PLAN: planFile },
    logFile: join(runDir, 'code-server.log'),
  });
  active.cs.add(cs);
  const browser = await launchChromium(runDir);
  active.browsers.add(browser);
  const driver = { commits: [], processes: {} };
  let exit;
  try {
    const page = await browser.newPage();
    const remote = (p) => `vscode-remote://127.0.0.1:${cs.port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(devPath)],
      ['extensionTestsPath', remote(testsEntry)],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    const done = new Promise((res) => void page.exposeFunction('codeAutomationExit', (c) => res(c)));
    page.on('pageerror', (e) => process.env.VSH_VERBOSE && console.log(`[pageerror] ${e}`));
    page.on('console', (m) => process.env.VSH_VERBOSE && console.log(`[browser:${m.type()}] ${m.text()}`));
    await page.goto(`${cs.url}/?folder=${encodeURIComponent(ctx.wsPath)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    const marker = (name) => join(syncDir, `${name}.json`);
    const answer = (name, data = {}) => {
      const f = join(syncDir, `${name}.done.json`);
      writeFileSync(`${f}.tmp`, JSON.stringify({ at: Date.now(), ...data }));
      renameSync(`${f}.tmp`, f);
    };
    const handled = new Set();
    let watcher;
    const limitMs = ctx.timeoutMs ?? 400_000;
    const deadline = Date.now() + limitMs;
    const serve = (async () => {
      for (;;) {
        if (exit !== undefined || Date.now() > deadline) return;
        for (const name of ['typing-begin', 'typing-end', 'typing-after', 'commits']) {
          if (handled.has(name) || !existsSync(marker(name))) continue;
          let m;
          try {
            m = JSON.parse(readFileSync(marker(name), 'utf8'));
          } catch {
            continue; // being written: next round
          }
          handled.add(name);
          if (name === 'typing-begin') {
            watcher = processWatcher(m.pid);
            watcher.start('during');
            answer(name);
          } else if (name === 'typing-end') {
            watcher?.phase('after');
            answer(name);
          } else if (name === 'typing-after') {
            watcher?.stop();
            driver.processes = { before: watcher?.count('before'), during: watcher?.count('during'), after: watcher?.count('after') };
            answer(name);
          } else {
            // the commit series runs once both hosts of the pair are here (see commitPairs)
            if (!ctx.commitPairs) throw new Error('the commits step runs only in a commit pair (commitPairs)');
            const c = await ctx.commitPairs.join(mode, { ws: ctx.wsPath, pid: m.pid });
            driver.commits = c.own;
            driver.pairedCommits = c.other;
            driver.processes.commits = c.processes;
            driver.quietWaits = c.quietWaits;
            answer(name, { samples: c.own.length });
          }
        }
        await sleep(20);
      }
    })();
    const timer = new Promise((r) => setTimeout(() => r('timeout'), limitMs));
    exit = await Promise.race([done, timer]);
    await serve;
  } finally {
    await browser.close();
    await cs.stop();
    active.cs.delete(cs);
    active.browsers.delete(browser);
  }
  const wallMs = Date.now() - started;
  const host = existsSync(outFile) ? JSON.parse(readFileSync(outFile, 'utf8')) : undefined;
  const mocha = existsSync(join(runDir, 'results.json')) ? JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) : undefined;
  const failed = (mocha?.tests ?? []).filter((t) => t.state === 'failed');
  let keptLogs;
  if (exit !== 0 || !host || failed.length) {
    keptLogs = keepLogs(runDir, mode);
    log(
      `[host ${mode}] suite exit ${exit}; ${failed.map((t) => `${t.title}: ${String(t.error).split('\n')[0]}`).join('; ') || (host ? 'partial results' : 'no results')}; logs kept in ${keptLogs}`,
    );
  }
  return {
    mode,
    exit,
    wallMs,
    host,
    driver,
    failed: failed.map((t) => ({ title: t.title, error: String(t.error).split('\n').slice(0, 3).join(' ') })),
    activationLogMs: mode === 'enabled' ? activationFromLogs(userDataDir) : undefined,
    runDir,
    keptLogs,
  };
}

/**
 * The commit comparison: an "enabled" and a "disabled" host run at the same time, each on its own
 * copy of the repository, and the driver makes `count` (+2 warm-up) pairs of commits, one in each
 * workspace, alternating which comes first. Every commit is a one-line change to README.md written
 * 500 ms before `git commit -a` (the hosts' file watchers react to it), timed from spawn to exit,
 * followed by 700 ms, and then until both hosts are quiet (untilQuiet), in which nothing else is
 * committed (the editor, the git extension and Agent Note react to the new HEAD; a slow reaction
 * never lands on the next commit, on either side). Both hosts share the machine for the whole series, so a slow stretch
 * of the machine hits both sides of a pair alike; only what Agent Note does differs.
 *
 * `join(mode, {ws, pid})` is called by each host's driver when its in-host suite reaches the commits
 * step; it resolves, for that host, with its own commit times, the paired times of the other
 * host and the git processes its extension host started during the series.
 */
export function commitPairs({ home, count, timeoutMs = 420_000 }) {
  const waiting = new Map();
  return {
    join(mode, info) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`commit pair: the other host did not reach the commits step in ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        waiting.set(mode, { ...info, resolve: (v) => (clearTimeout(timer), resolve(v)), reject: (e) => (clearTimeout(timer), reject(e)) });
        if (waiting.size < 2) return;
        const a = waiting.get('enabled');
        const b = waiting.get('disabled');
        if (!a || !b) return reject(new Error('a commit pair needs an enabled and a disabled host'));
        pairedSeries(a, b, home, count).then(
          (r) => {
            a.resolve({ own: r.enabled, other: r.disabled, processes: r.processes.enabled, quietWaits: r.quietWaits });
            b.resolve({ own: r.disabled, other: r.enabled, processes: r.processes.disabled, quietWaits: r.quietWaits });
          },
          (e) => {
            a.reject(e);
            b.reject(e);
          },
        );
      });
    },
  };
}

async function pairedSeries(a, b, home, count) {
  const env = gitEnv(home);
  const watchers = { enabled: processWatcher(a.pid), disabled: processWatcher(b.pid) };
  watchers.enabled.start('commits');
  watchers.disabled.start('commits');
  const out = { enabled: /** @type {number[]} */ ([]), disabled: /** @type {number[]} */ ([]) };
  const quietWaits = [];
  const commitIn = async (side, i) => {
    appendFileSync(join(side.ws, 'README.md'), `change ${i} ${Date.now()}\n`);
    await sleep(500);
    const r = await spawnTimed('git', ['commit', '-q', '-a', '-m', `docs: note ${i}`], { cwd: side.ws, env });
    if (r.code !== 0) throw new Error(`git commit failed: ${r.stderr}`);
    await sleep(700);
    // then until neither host is still busy with it (a slow reaction must not land on the next commit, on either side)
    quietWaits.push(await untilQuiet([a.pid, b.pid]));
    return r.ms;
  };
  for (let i = 0; i < count + 2; i++) {
    // the order alternates: neither side always commits first in a pair
    const first = i % 2 === 0 ? 'enabled' : 'disabled';
    const second = first === 'enabled' ? 'disabled' : 'enabled';
    const side = { enabled: a, disabled: b };
    /** @type {Record<'enabled' | 'disabled', number>} */
    const ms = { enabled: 0, disabled: 0 };
    ms[first] = await commitIn(side[first], i);
    ms[second] = await commitIn(side[second], i);
    if (i >= 2) {
      out.enabled.push(ms.enabled);
      out.disabled.push(ms.disabled);
    }
  }
  watchers.enabled.stop();
  watchers.disabled.stop();
  return { ...out, quietWaits, processes: { enabled: watchers.enabled.count('commits'), disabled: watchers.disabled.count('commits') } };
}

/** CPU time (ns) used so far by all threads of `pid` and its child processes' main threads, from /proc/…/schedstat. */
function cpuNs(pid) {
  let total = 0;
  const add = (file) => {
    try {
      total += Number(readFileSync(file, 'utf8').split(' ')[0]) || 0;
    } catch {
      /* gone */
    }
  };
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return total;
  }
  for (const t of tasks) add(`/proc/${pid}/task/${t}/schedstat`);
  for (const c of childrenOf(pid)) add(`/proc/${c}/schedstat`);
  return total;
}

/**
 * Waits until the processes `pids` (with their children) used less than `maxMs` of CPU time
 * together in a `windowMs` window, at most `limitMs`; returns how long it waited.
 */
async function untilQuiet(pids, { windowMs = 150, maxMs = 6, limitMs = 3000 } = {}) {
  const t0 = Date.now();
  let before = pids.reduce((n, p) => n + cpuNs(p), 0);
  for (;;) {
    await sleep(windowMs);
    const after = pids.reduce((n, p) => n + cpuNs(p), 0);
    if ((after - before) / 1e6 < maxMs || Date.now() - t0 >= limitMs) return Date.now() - t0;
    before = after;
  }
}

/** Copies a failed run's logs and results (not its workspace or caches) to a kept temp dir. */
function keepLogs(runDir, mode) {
  const dest = mkdtempSync(join(tmpdir(), `agentnote-bench-failed-${mode}-`));
  for (const name of ['code-server.log', 'bench.json', 'results.json', 'plan.json', 'sync']) {
    if (existsSync(join(runDir, name))) cpSync(join(runDir, name), join(dest, name), { recursive: true });
  }
  if (existsSync(join(runDir, 'user-data', 'logs'))) cpSync(join(runDir, 'user-data', 'logs'), join(dest, 'logs'), { recursive: true });
  return dest;
}

/** Removes a host run's files (the bench's temp dir goes at the end anyway; this frees disk early). */
export function cleanupRun(r) {
  if (!process.env.VSH_KEEP) rmSync(r.runDir, { recursive: true, force: true });
}
