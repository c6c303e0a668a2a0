// `npm run bench` (after `node esbuild.mjs`): builds its own synthetic data in a temp dir, runs
// every measurement several times, writes bench-results/latest.json + latest.md, prints the table
// and exits non-zero when a goal is missed. See bench-results/latest.md for what each row means.
//
//   node scripts/bench.mjs [--quick] [--skip-host] [--host-rounds N] [--only timeline]
//
// --only timeline: only the Timeline v2 rows (node, a few seconds); prints them, writes nothing.
// --quick: reduced data (smoke run; its numbers are not comparable to the goals); writes
//          bench-results/quick.{json,md} instead of latest.*.
// --skip-host: no code-server runs (the in-host rows are then "missing").
// VSH_KEEP=1 keeps the temp dir; VSH_TMP sets where it goes.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, log } from './bench/common.mjs';
import { buildHistoryRepo, pickNotedLines } from './bench/gitData.mjs';
import { writeTranscripts, defaultPlan } from './bench/transcripts.mjs';
import {
  bundleSize,
  devBuild,
  fallbackImpl,
  hoverBench,
  noteWriteBench,
  notesMergeBench,
  rewriteBench,
  derivedBench,
  parseBench,
  recorderImpl,
  tailBench,
  tailerCatchUpBench,
} from './bench/nodeBench.mjs';
import { cleanupRun, commitPairs, runHostConfig, stopActive } from './bench/hostBench.mjs';
import { markdownReport, textTable } from './bench/report.mjs';
import { buildRows, describeData, environment, stripHost, timelineRows } from './bench/rows.mjs';
import { timelineBench } from './bench/timelineBench.mjs';

const T0 = Date.now();
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const skipHost = args.includes('--skip-host');
const hostRounds = args.includes('--host-rounds') ? Number(args[args.indexOf('--host-rounds') + 1]) || 1 : 1;
/** The optional activation-only start-ups (~20–30 s each) run only before this much time has passed. */
const ACTIVATION_RUNS_UNTIL_MS = 7 * 60 * 1000;
/** Commit pairs (one commit in each host's workspace) of the commit-duration row, after 2 warm-up pairs. */
const COMMIT_PAIRS = 50;
/** Runs of the in-host stall scenario (about 40 s each). */
const STALL_RUNS = 3;

if (!existsSync(join(ROOT, 'out/src/node/lookup/lineNoteLookup.js')) || !existsSync(join(ROOT, 'out/test/suite/index.js'))) {
  console.error('build first: node esbuild.mjs (npm run bench does it)');
  process.exit(2);
}

if (args.includes('--only')) {
  const only = args[args.indexOf('--only') + 1];
  if (only !== 'timeline') {
    console.error(`--only: unknown part ${only ?? ''} (known: timeline)`);
    process.exit(2);
  }
  const rows = timelineRows({ timeline: timelineBench() });
  console.log(textTable(rows));
  process.exit(rows.some((r) => r.status === 'fail' || r.status === 'missing') ? 1 : 0);
}

const base = mkdtempSync(join(process.env.VSH_TMP || tmpdir(), 'agentnote-bench-'));
const home = join(base, 'home');
mkdirSync(home, { recursive: true });
writeFileSync(
  join(home, '.gitconfig'),
  '[user]\n\tname = Ann Dev\n\temail = ann@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n',
);
// Every git process of this run (ours and through GitRunner) uses the temp HOME, never the machine's config.
process.env.HOME = home;
process.env.XDG_CONFIG_HOME = join(home, '.config');
process.env.GIT_CONFIG_NOSYSTEM = '1';

// Ctrl-C / kill: stop code-server and Chromium, remove the temp dir
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopActive();
    if (!process.env.VSH_KEEP) rmSync(base, { recursive: true, force: true });
    try {
      devBuild(); // the production bundle was built at the start: restore the development build
    } catch {
      /* reported by the next build */
    }
    console.error(`bench interrupted (${sig})`);
    process.exit(130);
  });
}

const results = { errors: /** @type {string[]} */ ([]) };
const notes = [];
async function stage(name, fn) {
  const t = Date.now();
  log(`${name}…`);
  try {
    const r = await fn();
    log(`${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return r;
  } catch (e) {
    const msg = `${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    log(msg);
    results.errors.push(msg.split('\n').slice(0, 4).join(' | '));
    return undefined;
  }
}

let exitCode = 0;
try {
  // ── build: bundle size (production build; the in-host runs then use the minified bundle) ──
  results.bundleBytes = await stage('production bundle', () => bundleSize());

  // ── data ──
  const pristine = join(base, 'pristine', 'repo');
  const wsPath = join(base, 'ws', 'repo');
  const repo = await stage('git history (fast-import)', () => buildHistoryRepo({ dir: pristine, home, commits: quick ? 400 : 2000 }));
  if (!repo) throw new Error('cannot continue without the repository');
  const plan = quick
    ? Object.fromEntries(Object.entries(defaultPlan).map(([a, sizes]) => [a, sizes.map((s) => Math.round(s / 20))]))
    : defaultPlan;
  const transcripts = await stage('transcripts', () =>
    writeTranscripts({ home, cwd: wsPath, files: [repo.bigFile, ...repo.featureFiles], plan }),
  );
  const lines = pickNotedLines(repo, 12);
  results.data = {
    commits: repo.commits,
    notes: repo.notes,
    bigFileLines: repo.lineCount,
    transcripts: transcripts?.map((t) => ({ agent: t.agent, bytes: t.bytes, turns: t.turns })),
    hoverLines: lines.map((l) => ({ line: l.line, depth: l.depth })),
  };

  // ── node level ──
  results.hover = await stage('hover (node level)', () =>
    hoverBench({ repo, home, lines, rounds: 20, coldSamples: 8, coldNoCacheSamples: 3 }),
  );
  results.noteWrite = await stage('note written after HEAD moves', async () => {
    const copy = join(base, 'notes-repo');
    execFileSync('cp', ['-a', pristine, copy]);
    let impl;
    try {
      impl = recorderImpl();
    } catch (e) {
      notes.push(
        `RepositoryRecorder could not be loaded (${e instanceof Error ? e.message : String(e)}); the note-writing row uses the fallback.`,
      );
      impl = fallbackImpl();
    }
    const r = await noteWriteBench({ root: copy, home, files: repo.featureFiles, samples: 8, impl });
    return { ...r, impl: impl.name };
  });
  results.notesMerge = await stage('fetched notes merge (sharing worker)', () =>
    notesMergeBench({ dir: join(base, 'notes-merge'), home, count: quick ? 200 : 1000, samples: quick ? 2 : 5 }),
  );
  results.rewrite = await stage('30-commit rebase to correct notes', () =>
    rewriteBench({ dir: join(base, 'rewrite'), home, commits: 30, history: quick ? 500 : 5000, samples: quick ? 2 : 5 }),
  );
  results.derived = await stage('pull of 200 new commits to derived notes', () =>
    derivedBench({ dir: join(base, 'derived'), home, notes: quick ? 500 : 5000, commits: 200, samples: quick ? 2 : 5 }),
  );
  results.timeline = await stage('timeline v2 model + layout, 10,000 events', () => timelineBench());
  results.parse = await stage('transcript parse throughput', () => parseBench({ transcripts, runs: 3 }));
  results.catchUp = await stage('tailer catch-up', () => tailerCatchUpBench({ transcripts }));
  const bigClaude = transcripts?.find((t) => t.agent === 'claude');
  results.tail = await stage('tail 1 KiB appends', () =>
    tailBench({ bigFile: bigClaude.file, sessionId: bigClaude.sessionId, cwd: wsPath, dir: join(base, 'tail'), samples: 40 }),
  );

  // ── in host ──
  results.host = { enabled: [], disabled: [], activation: [] };
  if (!skipHost) {
    // round 1 runs every step but the commits; later rounds repeat start-up, memory and hover only (time budget)
    for (let run = 0; run < hostRounds; run++) {
      const steps = run === 0 ? ['activation', 'memory', 'hover', 'typing'] : ['activation', 'memory', 'hover'];
      for (const mode of ['enabled', 'disabled']) {
        const r = await stage(`code-server run ${run + 1}/${hostRounds} (${mode}: ${steps.join(', ')})`, () =>
          runHostConfig(mode, { base, pristine, wsPath, file: repo.bigFile, hoverLines: lines, run, steps, hoverRounds: 10 }),
        );
        if (r) {
          results.host[mode].push(r);
          cleanupRun(r);
        }
      }
    }
    // commit duration: an enabled and a disabled host side by side, commits alternating between
    // their workspaces (see commitPairs in scripts/bench/hostBench.mjs)
    results.host.commitPair = await stage('code-server commit pairs (enabled and disabled hosts at once)', async () => {
      const pairs = commitPairs({ home, count: quick ? 10 : COMMIT_PAIRS });
      const common = {
        base,
        pristine,
        file: repo.bigFile,
        hoverLines: lines,
        run: 'c',
        steps: ['activation', 'commits'],
        commitPairs: pairs,
        timeoutMs: 600_000,
      };
      const [e, d] = await Promise.all([
        runHostConfig('enabled', { ...common, wsPath }),
        runHostConfig('disabled', { ...common, wsPath: join(base, 'ws-b', 'repo') }),
      ]);
      for (const r of [e, d]) cleanupRun(r);
      return { enabled: e, disabled: d };
    });
    // the longest event-loop stall of the extension host during a 500-file AI commit: the in-host
    // `stall` scenario of npm test (test/suite/stall), which measures it and writes a report
    results.stall = await stage('event-loop stall during a 500-file AI commit (stall scenario)', async () => {
      const out = [];
      for (let i = 0; i < (quick ? 1 : STALL_RUNS); i++) {
        const report = join(base, `stall-${i}.json`);
        const r = spawnSync(process.execPath, [join(ROOT, 'scripts/run-integration.mjs')], {
          cwd: ROOT,
          env: { ...process.env, VSH_SCENARIO: 'stall', AGENTNOTE_STALL_REPORT: report },
          encoding: 'utf8',
          timeout: 300_000,
        });
        if (!existsSync(report)) throw new Error(`stall run ${i + 1}: no report (exit ${r.status}): ${(r.stdout + r.stderr).slice(-800)}`);
        out.push({ ...JSON.parse(readFileSync(report, 'utf8')), passed: r.status === 0 });
      }
      return out;
    });
    // activate() happens once per extension host: extra start-ups (no transcripts in HOME, so
    // they are short) give it more than one sample
    for (let i = 0; i < (quick ? 0 : 2); i++) {
      if (Date.now() - T0 > ACTIVATION_RUNS_UNTIL_MS) {
        notes.push(
          `Extra activation start-up ${i + 1} skipped to stay within the time budget (${((Date.now() - T0) / 1000).toFixed(0)} s elapsed).`,
        );
        break;
      }
      const envBase = join(base, `activation-${i}`);
      mkdirSync(join(envBase, 'home'), { recursive: true });
      writeFileSync(join(envBase, 'home', '.gitconfig'), readFileSync(join(home, '.gitconfig')));
      const r = await stage(`code-server start-up ${i + 1}/2 (activation only)`, () =>
        runHostConfig('enabled', {
          base,
          envBase,
          pristine,
          wsPath,
          file: repo.bigFile,
          hoverLines: lines,
          run: `a${i}`,
          steps: ['activation'],
          timeoutMs: 120_000,
        }),
      );
      if (r) {
        results.host.activation.push(r);
        cleanupRun(r);
      }
    }
  }
} catch (e) {
  results.errors.push(String(e instanceof Error ? e.stack : e));
  log(`bench aborted: ${String(e)}`);
} finally {
  try {
    devBuild();
  } catch (e) {
    results.errors.push(`dev rebuild failed: ${String(e)}`);
  }
}

// ── evaluate ──
const durationMs = Date.now() - T0;
const rows = buildRows(results, durationMs);
const env = environment(results);
const data = describeData(results);
for (const e of results.errors) notes.push(`error: ${e}`);
// a --quick smoke run must not replace the real results
const outName = quick ? 'quick' : 'latest';
mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench-results', `${outName}.json`),
  JSON.stringify({ version: 1, quick, durationMs, environment: env, rows, results: stripHost(results), notes }, null, 2),
);
writeFileSync(join(ROOT, 'bench-results', `${outName}.md`), markdownReport({ rows, env, data, notes, durationMs, quick }));
console.log(`\n${textTable(rows)}\n`);
for (const n of notes) console.log(`note: ${n}`);
const missed = rows.filter((r) => r.status === 'fail' || r.status === 'missing');
console.log(
  `\nbench: ${rows.filter((r) => r.status === 'pass').length} goals met, ${missed.length} missed${missed.length ? ` (${missed.map((r) => r.id).join(', ')})` : ''}; total ${(durationMs / 1000).toFixed(0)} s; results in bench-results/${outName}.md`,
);
if (missed.length) exitCode = 1;
if (process.env.VSH_KEEP) console.log(`kept ${base}`);
else rmSync(base, { recursive: true, force: true });
process.exit(exitCode);
