// Synthetic git data for the benchmark, built with `git fast-import` (seconds instead of minutes):
// a repository whose 5,000-line TypeScript file is touched by every one of 2,000 commits, half of
// which carry a schema-v1 Agent Note (with our additive files[].ai_ranges) on refs/notes/agentnote,
// plus 50 small modules for the 50-file AI commit. The generator tracks which commit last changed
// every line (what `git blame` must answer), so hover samples can target noted lines.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitEnv, gitSync, rng, src } from './common.mjs';

export const BIG_FILE = 'src/big.ts';
export const FEATURE_DIR = 'src/feature';
export const FEATURE_FILES = Array.from({ length: 50 }, (_, i) => `${FEATURE_DIR}/mod${String(i + 1).padStart(2, '0')}.ts`);
const AGENTS = [
  { agent: 'claude', model: 'claude-opus-4-6', tool: 'Edit' },
  { agent: 'cursor', model: null, tool: 'StrReplace' },
  { agent: 'codex', model: 'gpt-5.5-codex', tool: 'apply_patch' },
  { agent: 'gemini', model: 'gemini-3-pro', tool: 'replace' },
];
const WORDS = [
  'parse',
  'render',
  'token',
  'buffer',
  'cursor',
  'range',
  'offset',
  'merge',
  'index',
  'cache',
  'queue',
  'batch',
  'route',
  'value',
  'state',
];

/** @param {number} lineCount */
function initialBigFile(lineCount) {
  const lines = [];
  let fn = 0;
  lines.push('// Generated for the Agent Note benchmark: a long TypeScript module.', "import { strict as assert } from 'node:assert';", '');
  while (lines.length < lineCount) {
    fn++;
    const id = String(fn).padStart(4, '0');
    lines.push(
      `/** Computes step ${id} of the pipeline. */`,
      `export function step${id}(input: number[], factor = ${(fn % 7) + 1}): number {`,
      `  const scaled${id} = input.map((v) => v * factor + ${fn});`,
      `  const total${id} = scaled${id}.reduce((a, b) => a + b, 0);`,
      `  assert(Number.isFinite(total${id}), 'step${id} overflowed');`,
      `  return total${id} / Math.max(1, input.length);`,
      '}',
      '',
    );
  }
  return lines.slice(0, lineCount);
}

/** @param {number} i */
function featureFile(i) {
  const id = String(i + 1).padStart(2, '0');
  const lines = [`// Feature module ${id}.`, ''];
  for (let f = 0; f < 20; f++) {
    lines.push(
      `export function feature${id}_${f}(x: number): number {`,
      `  const y = x * ${f + 1} + ${i};`,
      `  return y > 100 ? y - 100 : y;`,
      '}',
      '',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * @param {ReturnType<typeof rng>} r
 * @param {number} commit
 * @param {number} j
 */
function editLine(r, commit, j) {
  const w = r.pick(WORDS);
  return `  const ${w}${commit}_${j} = ${r.pick(WORDS)}Value(${r.int(1, 999)}, '${w}-${commit}'); // rev ${commit}`;
}

/**
 * Builds the history repository in `dir` (created). Returns facts the measurements need.
 * `home` is an isolated HOME for git (no user/system configuration).
 * @param {{ dir: string, home: string, commits?: number, lineCount?: number, seed?: number }} opts
 */
export async function buildHistoryRepo({ dir, home, commits = 2000, lineCount = 5000, seed = 42 }) {
  const { encodeNote, decodeNote } = src('core/notes/noteCodec');
  const r = rng(seed);
  mkdirSync(dir, { recursive: true });
  gitSync(dir, home, ['init', '-q', '-b', 'main']);
  // one Buffer per line (`line\n`): Buffer.concat per commit is ~10x faster than Array.join
  const lines = initialBigFile(lineCount).map((l) => Buffer.from(`${l}\n`, 'utf8'));
  /** owner[i] = commit number (1-based) that last changed line i+1 */
  const owner = lines.map(() => 1);
  const baseTime = Date.UTC(2026, 0, 5, 9, 0, 0) / 1000;
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  /** @param {string | Buffer} s */
  const emit = (s) => {
    const b = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
    chunks.push(b);
    size += b.length;
  };
  const data = (/** @type {string} */ s) => `data ${Buffer.byteLength(s, 'utf8')}\n${s}\n`;
  const notes = [];
  const child = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, env: gitEnv(home), stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((res) => child.on('close', res));
  const flush = async () => {
    if (chunks.length === 0) return;
    const buf = Buffer.concat(chunks);
    chunks.length = 0;
    size = 0;
    if (!child.stdin.write(buf)) await new Promise((res) => child.stdin.once('drain', res));
  };

  for (let c = 1; c <= commits; c++) {
    const t = baseTime + c * 1800 + r.int(0, 600);
    const who = 'Ann Dev <ann@example.com>';
    let msg;
    const mods = [];
    let note;
    if (c === 1) {
      msg = 'feat: initial pipeline module and features\n';
      mods.push([BIG_FILE, Buffer.concat(lines)]);
      FEATURE_FILES.forEach((f, i) => mods.push([f, featureFile(i)]));
      mods.push(['README.md', '# bench repo\n\nSynthetic repository for `npm run bench`.\n']);
    } else {
      // one contiguous block per commit: replace (most), insert or delete, keeping ~lineCount lines
      const len = lines.length;
      const k = r.int(1, 6);
      const pos = r.int(0, len - k);
      let op = r.next() < 0.7 ? 'replace' : r.next() < 0.5 ? 'insert' : 'delete';
      if (len > lineCount + 40) op = 'delete';
      if (len < lineCount - 40) op = 'insert';
      const fresh = Array.from({ length: k }, (_, j) => Buffer.from(`${editLine(r, c, j)}\n`, 'utf8'));
      let added = 0;
      let deleted = 0;
      if (op === 'replace') {
        lines.splice(pos, k, ...fresh);
        owner.splice(pos, k, ...fresh.map(() => c));
        added = k;
        deleted = k;
      } else if (op === 'insert') {
        lines.splice(pos, 0, ...fresh);
        owner.splice(pos, 0, ...fresh.map(() => c));
        added = k;
      } else {
        lines.splice(pos, k);
        owner.splice(pos, k);
        deleted = k;
      }
      msg = `${op === 'delete' ? 'refactor' : 'feat'}(pipeline): ${op} ${k} line(s) at ${pos + 1} (rev ${c})\n`;
      mods.push([BIG_FILE, Buffer.concat(lines)]);
      if (c % 2 === 0) {
        // 1,000 of the 2,000 commits carry a note (every even commit)
        const a = AGENTS[(c / 2) % AGENTS.length];
        const aiLines = added === 0 ? 0 : Math.max(1, Math.ceil(added * 0.75));
        const ranges = aiLines > 0 ? [{ start: pos + 1, end: pos + aiLines, interaction: 0 }] : [];
        const ratio = added === 0 ? 100 : Math.round((aiLines / added) * 100);
        note = {
          v: 1,
          agent: a.agent,
          session_id: r.uuid(),
          timestamp: new Date((t + 1) * 1000).toISOString(),
          model: a.model,
          interactions: [
            {
              prompt: `In ${BIG_FILE}, ${op} the block around line ${pos + 1}: use ${r.pick(WORDS)}Value for the ${r.pick(WORDS)} step and keep the behaviour.`,
              response: `Updated ${BIG_FILE}: ${op === 'delete' ? 'removed' : 'rewrote'} ${k} line(s) near line ${pos + 1}.`,
              files_touched: [BIG_FILE],
              selection: { schema: 1, source: 'primary', signals: ['primary_edit_turn', 'exact_commit_path'] },
              tools: [a.tool],
            },
          ],
          files: [{ path: BIG_FILE, by_ai: true, ai_ranges: ranges }],
          attribution:
            added > 0
              ? { ai_ratio: ratio, method: 'line', lines: { ai_added: aiLines, total_added: added, deleted } }
              : { ai_ratio: 100, method: 'file', lines: { ai_added: 0, total_added: 0, deleted } },
        };
        const text = encodeNote(note);
        const back = decodeNote(text);
        if (back.kind !== 'valid' || back.issues.length)
          throw new Error(`generated note ${c} is not valid schema v1: ${JSON.stringify(back)}`);
        notes.push({ commit: c, text });
      }
    }
    emit(`commit refs/heads/main\nmark :${c}\nauthor ${who} ${t} +0000\ncommitter ${who} ${t} +0000\n${data(msg)}`);
    for (const [p, content] of mods) {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      emit(`M 100644 inline ${p}\ndata ${bytes.length}\n`);
      emit(bytes);
      emit('\n');
    }
    emit('\n');
    if (size > 4 * 1024 * 1024) await flush();
  }
  const notesTime = baseTime + (commits + 1) * 1800;
  emit(`commit refs/notes/agentnote\ncommitter Ann Dev <ann@example.com> ${notesTime} +0000\n${data("Notes added by 'git notes add'\n")}`);
  for (const n of notes) emit(`N inline :${n.commit}\n${data(n.text)}`);
  emit('\ndone\n');
  await flush();
  child.stdin.end();
  const code = await exited;
  if (code !== 0) throw new Error(`git fast-import failed (${code}): ${stderr}`);

  gitSync(dir, home, ['reset', '-q', '--hard', 'main']);
  // A long-lived repository has a commit-graph (gc.writeCommitGraph defaults to true since git 2.24).
  gitSync(dir, home, ['commit-graph', 'write', '--reachable']);
  const shas = gitSync(dir, home, ['rev-list', '--reverse', 'main']).trim().split('\n');
  if (shas.length !== commits) throw new Error(`expected ${commits} commits, got ${shas.length}`);
  const noteList = gitSync(dir, home, ['notes', '--ref=agentnote', 'list']).trim().split('\n');
  if (noteList.length !== notes.length) throw new Error(`expected ${notes.length} notes, got ${noteList.length}`);
  const onDisk = readFileSync(join(dir, BIG_FILE));
  if (!onDisk.equals(Buffer.concat(lines))) throw new Error('work tree does not match the generated file');
  const noted = new Set(notes.map((n) => shas[n.commit - 1]));
  const lineOwners = owner.map((c) => shas[c - 1]);
  return {
    root: dir,
    bigFile: BIG_FILE,
    featureFiles: FEATURE_FILES,
    lineCount: lines.length,
    commits,
    notes: notes.length,
    head: shas[shas.length - 1],
    notesRef: gitSync(dir, home, ['rev-parse', 'refs/notes/agentnote']).trim(),
    /** sha of the commit that last changed each line (index = line - 1) */
    lineOwners,
    /** commit number (1-based, oldest first) that last changed each line */
    lineOwnerCommits: owner.slice(),
    noted,
  };
}

/**
 * Lines (1-based) whose last change is a noted commit, spread over the file (deterministic pick).
 * Each entry has the expected sha and how many commits back it is (blame depth).
 * @param {Awaited<ReturnType<typeof buildHistoryRepo>>} repo
 * @param {number} count
 * @param {number} [seed]
 */
export function pickNotedLines(repo, count, seed = 7) {
  const r = rng(seed);
  /** @type {number[]} */
  const candidates = [];
  repo.lineOwners.forEach((sha, i) => {
    if (repo.noted.has(sha)) candidates.push(i + 1);
  });
  const picked = new Set();
  while (picked.size < Math.min(count, candidates.length)) picked.add(r.pick(candidates));
  // depth: how many commits after the one that last changed the line (what blame walks through)
  return [...picked]
    .sort((a, b) => a - b)
    .map((line) => ({ line, sha: repo.lineOwners[line - 1], depth: repo.commits - repo.lineOwnerCommits[line - 1] }));
}
