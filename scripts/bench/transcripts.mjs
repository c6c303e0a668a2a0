// Synthetic agent transcripts for the benchmark, in each agent's default layout under a temp HOME
// (docs/transcripts.md §1.2 Cursor, §2 Claude Code, §3 Codex, §4 Gemini), with the
// record shapes of the fixtures in test/fixtures/transcripts. Content is generated (seeded): code
// lines, prose, file contents, patches and command output of realistic sizes, so parsing costs
// what real sessions cost (JSON with many escapes, large tool results).
import { closeSync, mkdirSync, openSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { rng, src } from './common.mjs';

export const MiB = 1024 * 1024;

/** Default plan: 200 MiB in total, one 100 MiB Claude Code session. */
export const defaultPlan = {
  claude: [100 * MiB, 5 * MiB, 5 * MiB, 5 * MiB, 5 * MiB],
  codex: [6 * MiB, 6 * MiB, 6 * MiB, 6 * MiB, 6 * MiB],
  cursor: [5 * MiB, 5 * MiB, 5 * MiB, 5 * MiB, 5 * MiB],
  gemini: [5 * MiB, 5 * MiB, 5 * MiB, 5 * MiB, 5 * MiB],
};

const CODE = [
  "import { readFile } from 'node:fs/promises';",
  'export async function loadConfig(path: string): Promise<Config> {',
  "  const raw = await readFile(path, 'utf8');",
  '  return configSchema.parse(JSON.parse(raw));',
  '}',
  'for (const item of items) {',
  '  if (!item.enabled) continue;',
  '  total += item.weight * factor;',
  '  const key = `${item.group}:${item.id}`;',
  '  cache.set(key, { value: item.value, at: Date.now() });',
  '  throw new Error(`unexpected token "${tok}" at ${pos}`);',
  '  return items.filter((x) => x.kind === "file").map((x) => x.path);',
  'const server = http.createServer((req, res) => {',
  "  res.writeHead(200, { 'content-type': 'application/json' });",
  '});',
  '// TODO: handle the empty case before merging ranges',
  'export interface Range { start: number; end: number }',
  '  expect(merge([{ start: 1, end: 3 }, { start: 2, end: 5 }])).toEqual([{ start: 1, end: 5 }]);',
  "describe('merge', () => {",
  '  it("keeps disjoint ranges", () => {',
  '',
  '    \t\tindent with tabs and a backslash \\ and unicode é ü 漢字',
];
const PROSE = [
  'I will update the parser so that empty ranges are skipped before merging.',
  'The failing test expects the merged range to keep the earlier start.',
  'Let me look at how the configuration is loaded first.',
  'Now I will run the test suite to check the change.',
  'All 42 tests pass. The change is limited to src/feature and does not touch the public API.',
  'There is a subtle issue: the cache key does not include the group, so two groups collide.',
  'I have added a regression test and updated the documentation comment.',
];
const PROMPTS = [
  'fix the flaky merge test and explain what was wrong',
  'add input validation to loadConfig and a test for a missing file',
  'refactor the cache so keys include the group; keep the public API',
  'the build fails on CI with "unexpected token", can you look?',
  'rename step0042 to normalizeStep and update the callers',
  'write a short README section about the pipeline steps',
];

/** @typedef {ReturnType<typeof rng>} Rng */
/**
 * What a session writer needs: its working directory, id, PRNG, time span and the files it touches.
 * @typedef {{ cwd: string, sessionId: string, r: Rng, startMs: number, endMs: number, files: string[], projectHash: string }} SessionCtx
 */

/** @param {Rng} r */
function makeText(r) {
  return {
    /** @param {number} lines */
    code(lines) {
      const out = [];
      for (let i = 0; i < lines; i++) out.push(r.pick(CODE));
      return `${out.join('\n')}\n`;
    },
    /** @param {number} sentences */
    prose(sentences) {
      const out = [];
      for (let i = 0; i < sentences; i++) out.push(r.pick(PROSE));
      return out.join(' ');
    },
    /** @param {number} lines */
    output(lines) {
      const out = [];
      for (let i = 0; i < lines; i++) out.push(`  ✓ ${r.pick(PROSE).slice(0, 40)} (${r.int(1, 90)} ms)`);
      return out.join('\n');
    },
  };
}

/** Appends JSONL lines to a file in 1 MiB writes until `bytes` is reached. */
class JsonlWriter {
  /** @param {string} file */
  constructor(file) {
    this.fd = openSync(file, 'w');
    /** @type {string[]} */
    this.parts = [];
    this.pending = 0;
    this.size = 0;
  }
  /** @param {unknown} obj */
  line(obj) {
    const s = `${JSON.stringify(obj)}\n`;
    this.parts.push(s);
    const n = Buffer.byteLength(s);
    this.pending += n;
    this.size += n;
    if (this.pending > MiB) this.flush();
  }
  flush() {
    if (this.parts.length) writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

const iso = (/** @type {number} */ ms) => new Date(ms).toISOString();

/**
 * Record times spread evenly (with jitter) from startMs to endMs for a file of `bytes` with about
 * `bytesPerTick` bytes per timestamped record; never later than endMs (no future timestamps).
 * @param {Rng} r
 * @param {number} startMs
 * @param {number} endMs
 * @param {number} bytes
 * @param {number} bytesPerTick
 */
function sessionClock(r, startMs, endMs, bytes, bytesPerTick) {
  const step = (endMs - startMs) / Math.max(1, bytes / bytesPerTick);
  let ms = startMs;
  return {
    next: (scale = 1) => (ms = Math.min(endMs, ms + step * scale * (0.5 + r.next()))),
    get now() {
      return ms;
    },
  };
}

// ── Claude Code ────────────────────────────────────────────────────────────────────────────────

/**
 * @param {string} file
 * @param {number} bytes
 * @param {SessionCtx} ctx
 */
function writeClaude(file, bytes, { cwd, sessionId, r, startMs, endMs, files }) {
  const w = new JsonlWriter(file);
  const t = makeText(r);
  const clock = sessionClock(r, startMs, endMs, bytes, 7000);
  /** @type {string | null} */
  let parent = null;
  let n = 0;
  const base = () => ({
    sessionId,
    timestamp: iso(clock.next()),
    cwd,
    gitBranch: 'main',
    version: '2.1.260',
    userType: 'external',
    entrypoint: 'cli',
    isSidechain: false,
  });
  /**
   * @param {string} type
   * @param {Record<string, unknown>} extra
   */
  const rec = (type, extra) => {
    const uuid = `${sessionId.slice(0, 8)}-${(n++).toString(16).padStart(8, '0')}`;
    const o = { type, uuid, parentUuid: parent, ...base(), ...extra };
    parent = uuid;
    w.line(o);
  };
  /**
   * @param {string} msgId
   * @param {unknown[]} content
   */
  const assistant = (msgId, content) =>
    rec('assistant', {
      requestId: `req_${msgId}`,
      message: {
        id: `msg_${msgId}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-6',
        content,
        stop_reason: null,
        usage: { input_tokens: r.int(1, 9000), output_tokens: r.int(1, 2000), cache_read_input_tokens: r.int(0, 90000) },
      },
    });
  w.line({ type: 'ai-title', sessionId, aiTitle: 'Benchmark session' });
  let turn = 0;
  while (w.size < bytes) {
    turn++;
    const promptId = `p${turn}`;
    rec('user', {
      promptSource: 'typed',
      origin: { kind: 'human' },
      promptId,
      message: { role: 'user', content: `${r.pick(PROMPTS)} (turn ${turn})` },
    });
    const msg = `${turn}_${r.hex(8)}`;
    assistant(msg, [{ type: 'thinking', thinking: t.prose(r.int(2, 8)), signature: r.hex(64) }]);
    assistant(msg, [{ type: 'text', text: t.prose(r.int(1, 4)) }]);
    for (let step = r.int(2, 5); step > 0; step--) {
      const id = `toolu_${r.hex(20)}`;
      const rel = r.pick(files);
      const abs = `${cwd}/${rel}`;
      const kind = r.next();
      if (kind < 0.35) {
        const content = t.code(r.int(80, 700));
        assistant(msg, [{ type: 'tool_use', id, name: 'Read', input: { file_path: abs } }]);
        rec('user', {
          promptId,
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
          toolUseResult: {
            type: 'text',
            file: { filePath: abs, content, numLines: content.split('\n').length, startLine: 1, totalLines: content.split('\n').length },
          },
        });
      } else if (kind < 0.75) {
        const oldString = t.code(r.int(2, 12));
        const newString = t.code(r.int(2, 16));
        const original = t.code(r.int(100, 900));
        assistant(msg, [{ type: 'tool_use', id, name: 'Edit', input: { file_path: abs, old_string: oldString, new_string: newString } }]);
        const start = r.int(1, 400);
        const patchLines = [
          ...oldString
            .trimEnd()
            .split('\n')
            .map((l) => `-${l}`),
          ...newString
            .trimEnd()
            .split('\n')
            .map((l) => `+${l}`),
        ];
        rec('user', {
          promptId,
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `The file ${abs} has been updated.` }] },
          toolUseResult: {
            filePath: abs,
            oldString,
            newString,
            originalFile: original,
            structuredPatch: [
              {
                oldStart: start,
                oldLines: oldString.split('\n').length - 1,
                newStart: start,
                newLines: newString.split('\n').length - 1,
                lines: patchLines,
              },
            ],
            userModified: false,
            replaceAll: false,
          },
        });
        w.line({
          type: 'file-history-snapshot',
          messageId: parent,
          isSnapshotUpdate: true,
          snapshot: {
            messageId: parent,
            timestamp: iso(clock.now),
            trackedFileBackups: { [abs]: { backupFileName: `${r.hex(16)}@v${turn}`, version: turn, backupTime: iso(clock.now) } },
          },
        });
      } else {
        const out = t.output(r.int(5, 150));
        assistant(msg, [
          { type: 'tool_use', id, name: 'Bash', input: { command: 'npm test -- --reporter dot', description: 'Run the tests' } },
        ]);
        rec('user', {
          promptId,
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: out }] },
          toolUseResult: { stdout: out, stderr: '', interrupted: false },
        });
      }
    }
    assistant(msg, [{ type: 'text', text: t.prose(r.int(2, 6)) }]);
  }
  w.close();
  return { file, bytes: w.size, turns: turn };
}

// ── Codex CLI ──────────────────────────────────────────────────────────────────────────────────

/**
 * @param {string} file
 * @param {number} bytes
 * @param {SessionCtx} ctx
 */
function writeCodex(file, bytes, { cwd, sessionId, r, startMs, endMs, files }) {
  const w = new JsonlWriter(file);
  const t = makeText(r);
  const clock = sessionClock(r, startMs, endMs, bytes, 1250);
  /**
   * @param {string} type
   * @param {Record<string, unknown>} payload
   */
  const line = (type, payload) => w.line({ timestamp: iso(clock.next()), type, payload });
  line('session_meta', {
    id: sessionId,
    session_id: sessionId,
    timestamp: iso(startMs),
    cwd,
    originator: 'codex-tui',
    cli_version: '0.150.0',
    source: 'cli',
    model_provider: 'openai',
    base_instructions: { text: t.prose(20) },
    git: { commit_hash: r.hex(40), branch: 'main' },
  });
  let turn = 0;
  while (w.size < bytes) {
    turn++;
    const turnId = `${sessionId.slice(0, 24)}${String(turn).padStart(12, '0')}`;
    const prompt = `${r.pick(PROMPTS)} (turn ${turn})`;
    line('event_msg', { type: 'task_started', turn_id: turnId, model_context_window: 272000 });
    line('turn_context', {
      turn_id: turnId,
      cwd,
      model: 'gpt-5.5-codex',
      effort: 'high',
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write' },
    });
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] });
    line('event_msg', { type: 'user_message', message: prompt, images: [] });
    for (let step = r.int(2, 5); step > 0; step--) {
      line('response_item', {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: t.prose(2) }],
        encrypted_content: r.hex(r.int(800, 4000)),
      });
      const callId = `call_${r.hex(24)}`;
      if (r.next() < 0.5) {
        const rel = r.pick(files);
        const removed = t.code(r.int(2, 20)).trimEnd().split('\n');
        const added = t.code(r.int(2, 30)).trimEnd().split('\n');
        const patch = `*** Begin Patch\n*** Update File: ${rel}\n@@\n${removed.map((l) => `-${l}`).join('\n')}\n${added.map((l) => `+${l}`).join('\n')}\n*** End Patch\n`;
        line('response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: patch });
        line('event_msg', {
          type: 'patch_apply_end',
          call_id: callId,
          turn_id: turnId,
          stdout: 'Success.',
          stderr: '',
          success: true,
          changes: {
            [`${cwd}/${rel}`]: {
              type: 'update',
              unified_diff: `@@ -1,${removed.length} +1,${added.length} @@\n${removed.map((l) => `-${l}`).join('\n')}\n${added.map((l) => `+${l}`).join('\n')}\n`,
              move_path: null,
            },
          },
          status: 'completed',
        });
        line('response_item', {
          type: 'custom_tool_call_output',
          call_id: callId,
          output: JSON.stringify({ output: `Success. Updated the following files:\nM ${rel}\n`, metadata: { exit_code: 0 } }),
        });
      } else {
        line('response_item', {
          type: 'function_call',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: 'npm test', workdir: cwd }),
          call_id: callId,
        });
        line('response_item', { type: 'function_call_output', call_id: callId, output: t.output(r.int(5, 200)) });
      }
      line('event_msg', {
        type: 'token_count',
        info: { total_token_usage: { input_tokens: r.int(1000, 99999), output_tokens: r.int(10, 9999) } },
      });
    }
    const answer = t.prose(r.int(2, 6));
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }], phase: 'final_answer' });
    line('event_msg', { type: 'agent_message', message: answer, phase: 'final_answer' });
    line('event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: answer });
  }
  w.close();
  return { file, bytes: w.size, turns: turn };
}

// ── Cursor (agent transcripts JSONL) ───────────────────────────────────────────────────────────

/**
 * @param {string} file
 * @param {number} bytes
 * @param {SessionCtx} ctx
 */
function writeCursor(file, bytes, { cwd, r, files }) {
  const w = new JsonlWriter(file);
  const t = makeText(r);
  let turn = 0;
  while (w.size < bytes) {
    turn++;
    w.line({
      role: 'user',
      message: {
        content: [
          {
            type: 'text',
            text: `<timestamp>Monday, Oct 5, 2026, 9:14 AM (UTC+2)</timestamp>\n<user_query>\n${r.pick(PROMPTS)} (turn ${turn})\n</user_query>`,
          },
        ],
      },
    });
    w.line({
      role: 'assistant',
      message: {
        content: [
          { type: 'text', text: `${t.prose(r.int(1, 4))}\n\n[REDACTED]` },
          { type: 'tool_use', name: 'Read', input: { path: `${cwd}/${r.pick(files)}` } },
        ],
      },
    });
    for (let step = r.int(2, 5); step > 0; step--) {
      const abs = `${cwd}/${r.pick(files)}`;
      const k = r.next();
      if (k < 0.5)
        w.line({
          role: 'assistant',
          message: {
            content: [
              {
                type: 'tool_use',
                name: 'StrReplace',
                input: { path: abs, old_string: t.code(r.int(2, 15)), new_string: t.code(r.int(2, 20)) },
              },
            ],
          },
        });
      else if (k < 0.8)
        w.line({
          role: 'assistant',
          message: { content: [{ type: 'tool_use', name: 'Write', input: { path: abs, contents: t.code(r.int(50, 600)) } }] },
        });
      else
        w.line({
          role: 'assistant',
          message: { content: [{ type: 'tool_use', name: 'Shell', input: { command: 'npm test', description: 'Run the test suite' } }] },
        });
    }
    w.line({ role: 'assistant', message: { content: [{ type: 'text', text: t.prose(r.int(2, 6)) }] } });
    w.line({ type: 'turn_ended', status: 'success' });
  }
  w.close();
  return { file, bytes: w.size, turns: turn };
}

// ── Gemini CLI (JSONL with upserts) ────────────────────────────────────────────────────────────

/**
 * @param {string} file
 * @param {number} bytes
 * @param {SessionCtx} ctx
 */
function writeGemini(file, bytes, { cwd, sessionId, r, startMs, endMs, files, projectHash }) {
  const w = new JsonlWriter(file);
  const t = makeText(r);
  const clock = sessionClock(r, startMs, endMs, bytes, 12000);
  w.line({ sessionId, projectHash, startTime: iso(startMs), lastUpdated: iso(startMs), kind: 'main' });
  let m = 0;
  let turn = 0;
  while (w.size < bytes) {
    turn++;
    w.line({ id: `u${++m}`, timestamp: iso(clock.next(3)), type: 'user', content: [{ text: `${r.pick(PROMPTS)} (turn ${turn})` }] });
    for (let step = r.int(1, 4); step > 0; step--) {
      const id = `g${++m}`;
      const abs = `${cwd}/${r.pick(files)}`;
      const callId = `replace-${m}`;
      const oldString = t.code(r.int(2, 12));
      const newString = t.code(r.int(2, 16));
      const args = { file_path: abs, old_string: oldString, new_string: newString, expected_replacements: 1 };
      const ts = iso(clock.next());
      const content = t.prose(r.int(1, 3));
      w.line({
        id,
        timestamp: ts,
        type: 'gemini',
        content,
        model: 'gemini-3-pro',
        toolCalls: [{ id: callId, name: 'replace', args, status: 'scheduled', timestamp: ts }],
      });
      const original = t.code(r.int(100, 700));
      w.line({
        id,
        timestamp: ts,
        type: 'gemini',
        content,
        model: 'gemini-3-pro',
        tokens: { input: r.int(1000, 90000), output: r.int(10, 900), cached: 0, total: r.int(1000, 99999) },
        toolCalls: [
          {
            id: callId,
            name: 'replace',
            args,
            status: 'success',
            timestamp: ts,
            displayName: 'Edit',
            result: [{ functionResponse: { id: callId, name: 'replace', response: { output: 'Successfully modified file.' } } }],
            resultDisplay: {
              fileDiff: `--- a\n+++ b\n@@ -1 +1 @@\n-${oldString}+${newString}`,
              fileName: abs.split('/').pop(),
              filePath: abs,
              originalContent: original,
              newContent: original.replace(oldString, newString),
              isNewFile: false,
            },
          },
        ],
      });
    }
    w.line({ id: `g${++m}`, timestamp: iso(clock.next(0.3)), type: 'gemini', content: t.prose(r.int(2, 5)), model: 'gemini-3-pro' });
    w.line({ $set: { lastUpdated: iso(clock.now) } });
  }
  w.close();
  return { file, bytes: w.size, turns: turn };
}

const stamp = (/** @type {number} */ ms) => {
  const d = new Date(ms);
  const p = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return {
    y: d.getUTCFullYear(),
    mo: p(d.getUTCMonth() + 1),
    d: p(d.getUTCDate()),
    h: p(d.getUTCHours()),
    mi: p(d.getUTCMinutes()),
    s: p(d.getUTCSeconds()),
  };
};

/**
 * Writes the transcripts of `plan` (bytes per file per agent) under `home`, for sessions whose
 * working directory is `cwd`. `files` are repo-relative paths the sessions read and edit.
 * Returns one entry per file: {agent, file, bytes, sessionId, turns}. The first Claude file is the
 * big "current" session (newest mtime); older sessions get mtimes over the last days.
 * @param {{ home: string, cwd: string, files: string[], plan?: Record<string, number[]>, seed?: number }} opts
 */
export function writeTranscripts({ home, cwd, files, plan = defaultPlan, seed = 99 }) {
  const { claudeProjectDirName, cursorProjectSlug, geminiProjectSlug, geminiProjectHash } = src('core/transcripts/projectSlugs');
  const r = rng(seed);
  const nowMs = Date.now();
  /** @type {{ agent: string, sessionId: string, file: string, bytes: number, turns: number }[]} */
  const out = [];
  const claudeDir = join(home, '.claude', 'projects', claudeProjectDirName(cwd).name);
  mkdirSync(claudeDir, { recursive: true });
  const cursorProject = join(home, '.cursor', 'projects', cursorProjectSlug(cwd));
  mkdirSync(cursorProject, { recursive: true });
  writeFileSync(
    join(cursorProject, '.workspace-trusted'),
    JSON.stringify({ trustedAt: iso(nowMs - 86400000 * 6), workspacePath: cwd, trustMethod: 'user' }),
  );
  const geminiSlug = geminiProjectSlug(cwd);
  const geminiProject = join(home, '.gemini', 'tmp', geminiSlug);
  mkdirSync(join(geminiProject, 'chats'), { recursive: true });
  writeFileSync(join(geminiProject, '.project_root'), cwd);
  writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [cwd]: geminiSlug } }, null, 2));
  const projectHash = geminiProjectHash(cwd);

  for (const agent of ['claude', 'codex', 'cursor', 'gemini']) {
    plan[agent].forEach((bytes, i) => {
      const sessionId = r.uuid();
      // the first Claude session is the live one (8 h, last record a minute ago); the others ended
      // 6 h to 4 days ago and lasted 3 h. No record is newer than its file's mtime.
      const live = agent === 'claude' && i === 0;
      const age = live ? 60_000 : 3600_000 * (6 + i * 20 + r.int(0, 5));
      const endMs = nowMs - age;
      const startMs = endMs - 3600_000 * (live ? 8 : 3);
      const ctx = { cwd, sessionId, r, startMs, endMs, files, projectHash };
      let file;
      let res;
      if (agent === 'claude') {
        file = join(claudeDir, `${sessionId}.jsonl`);
        res = writeClaude(file, bytes, ctx);
      } else if (agent === 'codex') {
        const s = stamp(startMs);
        const dir = join(home, '.codex', 'sessions', String(s.y), s.mo, s.d);
        mkdirSync(dir, { recursive: true });
        file = join(dir, `rollout-${s.y}-${s.mo}-${s.d}T${s.h}-${s.mi}-${s.s}-${sessionId}.jsonl`);
        res = writeCodex(file, bytes, ctx);
      } else if (agent === 'cursor') {
        const dir = join(cursorProject, 'agent-transcripts', sessionId);
        mkdirSync(dir, { recursive: true });
        file = join(dir, `${sessionId}.jsonl`);
        res = writeCursor(file, bytes, ctx);
      } else {
        const s = stamp(startMs);
        file = join(geminiProject, 'chats', `session-${s.y}-${s.mo}-${s.d}T${s.h}-${s.mi}-${sessionId.slice(0, 8)}.jsonl`);
        res = writeGemini(file, bytes, ctx);
      }
      const mtime = new Date(endMs);
      utimesSync(file, mtime, mtime);
      out.push({ agent, sessionId, ...res });
    });
  }
  return out;
}
