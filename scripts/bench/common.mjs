// Shared helpers of the benchmark: paths, a seeded PRNG, statistics, timing, git with an isolated
// configuration, loading the transpiled sources from out/.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/** Where the transpiled sources are (esbuild.mjs writes out/; AGENTNOTE_BENCH_OUT overrides it). */
export const OUT = process.env.AGENTNOTE_BENCH_OUT || join(ROOT, 'out');

/**
 * `require` of a transpiled source module, e.g. src('node/notes/noteStore').
 * @param {string} rel
 * @returns {any} the module's exports (untyped: loaded from out/ at run time)
 */
export function src(rel) {
  const p = join(OUT, 'src', `${rel}.js`);
  if (!existsSync(p)) throw new Error(`missing ${p}: build first (node esbuild.mjs)`);
  return require(p);
}

/**
 * Deterministic PRNG (mulberry32): same data on every run.
 * @param {number} seed
 */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (/** @type {number} */ lo, /** @type {number} */ hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: /** @template T @param {T[]} arr @returns {T} */ (arr) => arr[Math.floor(next() * arr.length)],
    hex: (/** @type {number} */ n) => {
      let s = '';
      while (s.length < n) s += Math.floor(next() * 16).toString(16);
      return s;
    },
    uuid() {
      const h = this.hex(32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[Math.floor(next() * 4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
  };
}

/** Sample statistics in ms: nearest-rank percentiles (p95 of 20 samples = the 19th smallest). */
/** @param {number[]} samples */
export function summarize(samples) {
  const s = [...samples].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return { n: 0, median: NaN, p95: NaN, min: NaN, max: NaN, mean: NaN };
  const rank = (/** @type {number} */ p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { n: s.length, median, p95: rank(95), min: s[0], max: s[s.length - 1], mean: s.reduce((a, b) => a + b, 0) / s.length };
}

/**
 * 95 % bootstrap interval of a statistic of several samples: each iteration resamples every sample
 * (with replacement) and applies `stat` to their medians. Fixed seed. Shows how much is noise.
 */
/**
 * @param {number[][]} samples
 * @param {(...medians: number[]) => number} stat
 * @param {number} [iterations]
 * @param {number} [seed]
 * @returns {[number, number] | undefined}
 */
export function bootstrapInterval(samples, stat, iterations = 2000, seed = 17) {
  if (samples.some((xs) => !xs?.length)) return undefined;
  const r = rng(seed);
  const resampledMedian = (/** @type {number[]} */ xs) =>
    summarize(Array.from({ length: xs.length }, () => xs[Math.floor(r.next() * xs.length)])).median;
  /** @type {number[]} */
  const values = [];
  for (let i = 0; i < iterations; i++) values.push(stat(...samples.map(resampledMedian)));
  values.sort((x, y) => x - y);
  return [values[Math.floor(iterations * 0.025)], values[Math.ceil(iterations * 0.975) - 1]];
}

/**
 * 95 % bootstrap interval of median(a) ÷ median(b).
 * @param {number[]} a
 * @param {number[]} b
 * @param {number} [iterations]
 * @param {number} [seed]
 */
export function ratioInterval(a, b, iterations = 2000, seed = 17) {
  return bootstrapInterval([a, b], (x, y) => x / y, iterations, seed);
}

export const now = () => performance.now();

/**
 * Environment that keeps git away from the machine's global/system configuration.
 * @param {string} home
 * @param {NodeJS.ProcessEnv} [extra]
 */
export function gitEnv(home, extra = {}) {
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    ...extra,
  };
}

export const identity = [
  '-c',
  'user.name=Ann Dev',
  '-c',
  'user.email=ann@example.com',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'init.defaultBranch=main',
];

/**
 * Synchronous git in `cwd` with an isolated HOME.
 * @param {string} cwd
 * @param {string} home
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, encoding?: BufferEncoding, input?: string | Buffer }} [opts]
 */
export function gitSync(cwd, home, args, opts = {}) {
  return execFileSync('git', [...identity, ...args], {
    cwd,
    env: gitEnv(home, opts.env),
    encoding: opts.encoding ?? 'utf8',
    input: opts.input,
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * Asynchronous spawn; resolves with {code, stdout, ms} (ms: spawn → exit).
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, input?: string }} [opts]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, ms: number }>}
 */
export function spawnTimed(cmd, args, { cwd, env, input } = {}) {
  return new Promise((res, rej) => {
    const t0 = now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const out = [];
    /** @type {Buffer[]} */
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', rej);
    child.on('close', (code) =>
      res({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: now() - t0 }),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/**
 * Formats ms with sensible precision.
 * @param {number} v
 */
export function fmtMs(v) {
  if (!Number.isFinite(v)) return '—';
  if (v < 0.1) return `${(v * 1000).toFixed(1)} µs`;
  if (v < 10) return `${v.toFixed(2)} ms`;
  if (v < 1000) return `${v.toFixed(1)} ms`;
  return `${(v / 1000).toFixed(2)} s`;
}

const t0 = Date.now();
/** @param {...unknown} a */
export const log = (...a) => console.log(`[bench +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
