// Measurements at the node level (no editor): hover lookups over the real BlameService / NoteStore
// / LineNoteLookup, transcript parsing and tailing, the bundle size. Every function returns plain
// sample arrays (ms) plus facts; bench.mjs turns them into rows.
import { execFileSync } from 'node:child_process';
import { appendFileSync, closeSync, copyFileSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, gitEnv, log, now, spawnTimed, src } from './common.mjs';

// ── hover ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Hover lookups on `lines` (1-based, each blamed to a noted commit).
 * - warm: one LineNoteLookup whose whole-file blame and notes listing are cached; `rounds` passes over the lines.
 * - warmVerify: same, but the NoteStore checks the notes ref (one `git rev-parse`) on every lookup.
 * - cold: the first hover in a file as a user gets it. A fresh BlameService + LineNoteLookup per
 *   sample; the file is "opened" (lookup.prefetch: what the extension does when an editor shows a
 *   file — it starts the streaming whole-file blame), the hover is requested `hoverDelayMs` later
 *   (VS Code's default editor.hover.delay: the earliest a mouse hover can arrive after the editor
 *   appears) and timed from its request to its answer. Notes listing already cached (the extension
 *   listed notes earlier). The whole-file blame is awaited after each sample (not timed) so samples
 *   do not overlap.
 * - coldAtOpen: same, but the hover is requested at the very instant the file opens (no head start:
 *   also what a hover costs in a file that was never shown, e.g. executeHoverProvider on a background document).
 * - coldNoCache: like coldAtOpen with a fresh NoteStore too (nothing cached at all).
 * - baseline: spawn `git blame -L n,n --porcelain` then `git notes --ref=agentnote show <sha>`.
 */
export async function hoverBench({
  repo,
  home,
  lines,
  rounds = 20,
  verifyRounds = 5,
  coldSamples = lines.length,
  coldNoCacheSamples = 6,
  hoverDelayMs = 300,
}) {
  const { GitRunner } = src('node/git/gitRunner');
  const { NoteStore } = src('node/notes/noteStore');
  const { BlameService } = src('node/blame/blameService');
  const { LineNoteLookup } = src('node/lookup/lineNoteLookup');
  const { BlobStore } = src('node/git/blobStore');
  const rel = repo.bigFile;
  const head = repo.head;
  const target = { rel, head, version: 'v1' };
  const check = (info, want) => {
    if (!info || info.sha !== want.sha) throw new Error(`lookup of line ${want.line}: expected ${want.sha}, got ${info?.sha}`);
    if (info.note?.kind !== 'valid') throw new Error(`lookup of line ${want.line}: note not found/valid`);
    if (info.aiLine === undefined) throw new Error(`lookup of line ${want.line}: no per-line AI data`);
  };
  const git = new GitRunner(repo.root, {});
  // like the extension (RepositoryService): note blobs are read through one `cat-file --batch`
  const blobs = new BlobStore(git);
  const out = { lines: lines.length };
  try {
    // warm (notes listing trusted until invalidated: the extension watches the notes ref)
    for (const variant of ['warm', 'warmVerify']) {
      const notes = new NoteStore(git, { blobs, trustCacheUntilInvalidated: variant === 'warm' });
      const blame = new BlameService(git);
      const lookup = new LineNoteLookup(blame, notes);
      const t0 = now();
      check(await lookup.lookup(target, lines[0].line), lines[0]);
      await blame.blameFile(rel, head, target.version);
      const primeMs = now() - t0;
      for (const l of lines) check(await lookup.lookup(target, l.line), l); // JIT + decoded-note cache
      const before = git.counters.get('git.calls');
      const samples = [];
      for (let r = 0; r < (variant === 'warm' ? rounds : verifyRounds); r++) {
        for (const l of lines) {
          const s = now();
          const info = await lookup.lookup(target, l.line);
          samples.push(now() - s);
          if (r === 0) check(info, l);
        }
      }
      out[variant] = { samples, primeMs, gitCallsPerLookup: (git.counters.get('git.calls') - before) / samples.length };
    }

    // cold: file opened (prefetch), hover after the hover delay; and hover at the instant of opening
    {
      const notes = new NoteStore(git, { blobs, trustCacheUntilInvalidated: true });
      await notes.listNotedCommits();
      /** @type {[string, number][]} */
      const variants = [
        ['cold', hoverDelayMs],
        ['coldAtOpen', 0],
      ];
      for (const [variant, delayMs] of variants) {
        const samples = [];
        const backgroundMs = [];
        for (const l of lines.slice(0, coldSamples)) {
          const blame = new BlameService(git);
          const lookup = new LineNoteLookup(blame, notes);
          const opened = now();
          lookup.prefetch(target);
          if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs - (now() - opened)));
          const s = now();
          const info = await lookup.lookup(target, l.line);
          samples.push(now() - s);
          check(info, l);
          await blame.peek(rel, head, target.version);
          backgroundMs.push(now() - opened);
        }
        out[variant] = { samples, wholeFileBlameMs: backgroundMs, delayMs };
      }
    }

    // cold, nothing cached (fresh NoteStore too)
    {
      const samples = [];
      for (const l of lines.slice(0, coldNoCacheSamples)) {
        const blame = new BlameService(git);
        const lookup = new LineNoteLookup(blame, new NoteStore(git, { blobs, trustCacheUntilInvalidated: true }));
        const s = now();
        const info = await lookup.lookup(target, l.line);
        samples.push(now() - s);
        check(info, l);
        await blame.peek(rel, head, target.version);
      }
      out.coldNoCache = { samples };
    }

    // baseline: what a hover costs without an index: two git processes per hover
    {
      const env = gitEnv(home);
      const samples = [];
      for (const l of lines.slice(0, coldSamples)) {
        const s = now();
        const b = await spawnTimed('git', ['blame', '-L', `${l.line},${l.line}`, '--porcelain', '--', rel], { cwd: repo.root, env });
        const sha = b.stdout.slice(0, 40);
        const n = await spawnTimed('git', ['notes', '--ref=agentnote', 'show', sha], { cwd: repo.root, env });
        samples.push(now() - s);
        if (b.code !== 0 || n.code !== 0 || sha !== l.sha || !n.stdout.includes('"v": 1'))
          throw new Error(`baseline for line ${l.line} failed`);
      }
      out.baseline = { samples };
    }
  } finally {
    blobs.dispose();
  }
  return out;
}

// ── note writing after HEAD moves ──────────────────────────────────────────────────────────────

/**
 * The agent's edit of one feature module in sample `sample`: the `const y = …` line of function
 * `(sample*3 + fileIndex) % 20` (distinct per sample for up to 10 samples, so old_string is
 * unique) is rewritten and three lines are added after it. Returns {before, after, oldString, newString}.
 */
function aiEdit(before, sample, fileIndex) {
  const f = (sample * 3 + fileIndex) % 20;
  const oldString = `  const y = x * ${f + 1} + ${fileIndex};\n`;
  const newString = `  const y = x * ${f + 2} + ${fileIndex}; // tuned by the agent (sample ${sample})\n  // agent: guard against negative input (sample ${sample}, f${f})\n  if (x < 0) return ${sample};\n  void ${f};\n`;
  if (before.indexOf(oldString) === -1 || before.indexOf(oldString) !== before.lastIndexOf(oldString))
    throw new Error(`edit target not unique in module ${fileIndex}`);
  return { before, after: before.replace(oldString, newString), oldString, newString };
}

/**
 * The 50-file AI commit: per sample the agent edits every feature module (impl.applyEdits: write
 * the files and let the recorder see them, untimed — that work happens while the agent works),
 * `git commit -a` of that change is timed (the baseline), then impl.record(sha) is timed: from
 * HEAD having moved to the note being in refs/notes/agentnote. The note is checked afterwards.
 */
export async function noteWriteBench({ root, home, files, samples = 8, impl }) {
  const { GitRunner } = src('node/git/gitRunner');
  const { NoteStore } = src('node/notes/noteStore');
  const git = new GitRunner(root, {});
  const env = gitEnv(home);
  await impl.open({ root, git, home });
  const commitMs = [];
  const recordMs = [];
  const checks = [];
  try {
    for (let s = 0; s < samples; s++) {
      const edits = files.map((file, i) => ({ file, abs: join(root, file), ...aiEdit(readFileSync(join(root, file), 'utf8'), s, i) }));
      await impl.applyEdits(edits, s);
      const c = await spawnTimed('git', ['commit', '-q', '-a', '-m', `feat: agent edits 50 modules (sample ${s})`], { cwd: root, env });
      if (c.code !== 0) throw new Error(`git commit failed: ${c.stderr}`);
      commitMs.push(c.ms);
      const sha = (await git.run(['rev-parse', 'HEAD'])).trim();
      const calls0 = impl.gitCalls?.() ?? 0;
      const t0 = now();
      await impl.record(sha, s);
      recordMs.push(now() - t0);
      const note = await new NoteStore(git).read(sha);
      if (note?.kind !== 'valid') throw new Error(`no valid note for sample ${s}`);
      const a = note.note.attribution;
      checks.push({
        aiFiles: note.note.files.filter((f) => f.by_ai).length,
        files: note.note.files.length,
        ai_ratio: a.ai_ratio,
        method: a.method,
        lines: a.lines,
        gitCalls: (impl.gitCalls?.() ?? 0) - calls0,
      });
    }
  } finally {
    await impl.close?.();
  }
  return { commitMs, recordMs, checks };
}

/** The real pipeline: RepositoryRecorder fed with parsed Claude Code transcript events and disk transitions. */
export function recorderImpl() {
  const { RepositoryRecorder } = src('node/recorder/repositoryRecorder');
  const { createTranscriptParser } = src('core/agents/transcriptParser');
  const { nullLogger } = src('core/ports');
  let recorder;
  let parser;
  let git;
  let root;
  let transcript;
  let lineNo = 0;
  let seq = 0;
  const sessionId = '5e1f0c2a-1111-4222-8333-444455556666';
  const common = () => ({
    sessionId,
    timestamp: new Date().toISOString(),
    cwd: root,
    gitBranch: 'main',
    version: '2.1.260',
    userType: 'external',
    entrypoint: 'cli',
    isSidechain: false,
  });
  /** Appends records to the transcript file and returns their events, keyed like the tailer keys them. */
  const feed = async (records) => {
    const batch = [];
    for (const r of records) {
      appendFileSync(transcript, `${JSON.stringify(r)}\n`);
      const offset = lineNo++;
      parser
        .push(JSON.stringify(r))
        .forEach((event, index) => batch.push({ event, key: `${transcript}:${offset}:${index}`, transcriptPath: transcript }));
    }
    if (batch.length) await recorder.onAgentEvents(batch);
  };
  return {
    name: 'RepositoryRecorder (tick + settle + recordCommit)',
    async open(o) {
      root = o.root;
      git = o.git;
      const dir = join(o.home, '.claude', 'projects', 'bench-note-write');
      mkdirSync(dir, { recursive: true });
      transcript = join(dir, `${sessionId}.jsonl`);
      writeFileSync(transcript, '');
      parser = createTranscriptParser('claude', { filePath: transcript, sessionIdHint: sessionId });
      recorder = await RepositoryRecorder.open({ root, git, log: nullLogger });
    },
    gitCalls: () => git.counters.get('git.calls'),
    async applyEdits(edits, sample) {
      const u = `u${sample}`;
      await feed([
        {
          type: 'user',
          uuid: u,
          parentUuid: null,
          ...common(),
          promptSource: 'typed',
          origin: { kind: 'human' },
          promptId: `p${sample}`,
          message: { role: 'user', content: `Add a negative-input guard to every feature module and tune the factor (sample ${sample}).` },
        },
      ]);
      for (const [i, e] of edits.entries()) {
        writeFileSync(e.abs, e.after);
        recorder.onTransition({ id: `t${++seq}`, file: e.file, time: Date.now(), before: e.before, after: e.after, source: 'disk' });
        const id = `toolu_bench_${sample}_${i}`;
        await feed([
          {
            type: 'assistant',
            uuid: `a${sample}_${i}`,
            parentUuid: u,
            ...common(),
            requestId: `req_${sample}`,
            message: {
              id: `msg_${sample}`,
              type: 'message',
              role: 'assistant',
              model: 'claude-opus-4-6',
              content: [
                { type: 'tool_use', id, name: 'Edit', input: { file_path: e.abs, old_string: e.oldString, new_string: e.newString } },
              ],
              stop_reason: null,
              usage: { input_tokens: 1, output_tokens: 1 },
            },
          },
          {
            type: 'user',
            uuid: `r${sample}_${i}`,
            parentUuid: `a${sample}_${i}`,
            ...common(),
            message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `The file ${e.abs} has been updated.` }] },
            toolUseResult: {
              filePath: e.abs,
              oldString: e.oldString,
              newString: e.newString,
              originalFile: e.before,
              structuredPatch: [],
              userModified: false,
              replaceAll: false,
            },
          },
        ]);
      }
      await feed([
        {
          type: 'assistant',
          uuid: `f${sample}`,
          parentUuid: u,
          ...common(),
          requestId: `req_${sample}`,
          message: {
            id: `msg_${sample}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-opus-4-6',
            content: [{ type: 'text', text: 'Updated the 50 feature modules.' }],
            stop_reason: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        },
      ]);
      // the host ticks about once a second while the agent works: capture is done before the commit
      await recorder.tick();
      await recorder.settle();
    },
    async record(sha) {
      await recorder.tick();
      await recorder.settle();
      const outcome = await recorder.recordCommit(sha);
      if (outcome.kind !== 'written') throw new Error(`recorder did not write a note: ${JSON.stringify(outcome)}`);
    },
    async close() {
      await recorder?.dispose();
    },
  };
}

/** Fallback when the recorder is missing: analyzeCommit (3-diff attribution) + buildNote + NoteStore.write. */
export function fallbackImpl() {
  const { analyzeCommit } = src('node/attribution/commitDiffs');
  const { buildNote, attributionInputFrom } = src('core/notes/noteBuilder');
  const { NoteStore } = src('node/notes/noteStore');
  let git;
  let notes;
  let pairs = [];
  return {
    name: 'analyzeCommit + buildNote + NoteStore.write (fallback: RepositoryRecorder not found)',
    async open(o) {
      git = o.git;
      notes = new NoteStore(git, {});
    },
    gitCalls: () => git.counters.get('git.calls'),
    async applyEdits(edits, sample) {
      const head = (await git.run(['rev-parse', 'HEAD'])).trim();
      const pre = new Map(
        (await git.run(['ls-tree', '-r', head, '--', ...edits.map((e) => e.file)]))
          .trim()
          .split('\n')
          .map((l) => [l.split('\t')[1], l.split('\t')[0].split(' ')[2]]),
      );
      for (const e of edits) writeFileSync(e.abs, e.after);
      const post = (await git.run(['hash-object', '-w', '--', ...edits.map((e) => e.file)])).trim().split('\n');
      const t = Date.now();
      pairs = edits.map((e, i) => ({
        file: e.file,
        preBlob: pre.get(e.file),
        postBlob: post[i],
        interactionKey: `claude:bench-session:${sample + 1}`,
        agent: 'claude',
        timestamp: t + i,
      }));
    },
    async record(sha, sample) {
      const result = await analyzeCommit(git, sha, pairs);
      const [subject, names, patch] = await Promise.all([
        git.run(['show', '-s', '--format=%s', sha]),
        git.run(['diff-tree', '-z', '--root', '--no-commit-id', '--name-only', '-r', sha]),
        git.run(['show', '--format=', '--patch', '--unified=0', '--no-color', '--no-ext-diff', sha]),
      ]);
      const rows = [
        {
          key: `claude:bench-session:${sample + 1}`,
          agent: 'claude',
          sessionId: 'bench-session',
          turn: sample + 1,
          prompt: `Add a negative-input guard to every feature module and tune the factor (sample ${sample}).`,
          response: 'Updated the 50 feature modules.',
          timestamp: new Date().toISOString(),
          filesTouched: pairs.map((p) => p.file),
          tools: ['Edit'],
          isPrimary: true,
          hasEdits: true,
        },
      ];
      const built = buildNote({
        commit: { subject: subject.trim(), files: names.split('\0').filter(Boolean), patch },
        sessions: [
          {
            agent: 'claude',
            sessionId: 'bench-session',
            model: 'claude-opus-4-6',
            rows,
            consumed: { maxConsumedTurn: sample, tailPromptIds: new Set() },
            upperTurn: sample + 1,
          },
        ],
        attribution: attributionInputFrom(result),
        clock: { now: () => Date.now() },
      });
      if (!built) throw new Error('buildNote skipped the commit');
      const r = await notes.write(sha, built.note);
      if (r !== 'written') throw new Error(`note not written: ${r}`);
    },
  };
}

// ── transcripts ────────────────────────────────────────────────────────────────────────────────

const chunkSize = 256 * 1024;

function readLoop(file, onChunk) {
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(chunkSize);
  let pos = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, chunkSize, pos);
      if (n === 0) break;
      pos += n;
      onChunk(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return pos;
}

/**
 * Parse throughput: every transcript read in 256 KiB chunks → LineSplitter → the agent's parser
 * (what the tailer does per read), vs the same read loop without parsing. `runs` passes each.
 * Also checks that the parsers accept every record (no skipped lines) and counts events.
 */
export function parseBench({ transcripts, runs = 3 }) {
  const { createTranscriptParser } = src('core/agents/transcriptParser');
  const { LineSplitter } = src('core/transcripts/lineSplitter');
  const total = transcripts.reduce((a, t) => a + t.bytes, 0);
  const parseMs = [];
  const readMs = [];
  const perAgent = {};
  let events = 0;
  let skipped = 0;
  for (let run = 0; run < runs; run++) {
    // baseline first in each run, so both see the same page cache state
    let s = now();
    let bytes = 0;
    for (const t of transcripts) bytes += readLoop(t.file, () => {});
    readMs.push(now() - s);
    if (bytes !== total) throw new Error('transcripts changed size during the bench');
    s = now();
    events = 0;
    skipped = 0;
    for (const t of transcripts) {
      const a0 = now();
      const parser = createTranscriptParser(t.agent, { filePath: t.file, sessionIdHint: t.sessionId });
      const splitter = new LineSplitter();
      readLoop(t.file, (chunk) => {
        for (const line of splitter.push(chunk)) events += parser.push(line.text).length;
      });
      events += parser.flush().length;
      const st = parser.stats.skipped;
      skipped += st.invalidJson + st.schemaMismatch + st.unknownType;
      const p = (perAgent[t.agent] ??= { bytes: 0, ms: 0 });
      if (run === runs - 1) {
        p.bytes += t.bytes;
        p.ms += now() - a0;
      }
    }
    parseMs.push(now() - s);
  }
  if (skipped > 0) throw new Error(`parsers skipped ${skipped} generated records: fix the generator`);
  const MiB = 1024 * 1024;
  const rate = (ms) => total / MiB / (ms / 1000);
  return {
    totalBytes: total,
    events,
    parseMiBs: parseMs.map(rate),
    readMiBs: readMs.map(rate),
    perAgentMiBs: Object.fromEntries(Object.entries(perAgent).map(([a, p]) => [a, p.bytes / MiB / (p.ms / 1000)])),
  };
}

/** A Claude Code assistant record of exactly `size` bytes including its newline. */
function claudeRecordOfSize(size, i, sessionId, cwd) {
  const base = {
    type: 'assistant',
    uuid: `bench-append-${i}`,
    parentUuid: null,
    sessionId,
    timestamp: new Date().toISOString(),
    cwd,
    gitBranch: 'main',
    version: '2.1.260',
    userType: 'external',
    entrypoint: 'cli',
    isSidechain: false,
    requestId: `req_append_${i}`,
    message: {
      id: `msg_append_${i}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-6',
      content: [{ type: 'text', text: '' }],
      stop_reason: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
  const empty = Buffer.byteLength(`${JSON.stringify(base)}\n`);
  base.message.content[0].text = 'x'.repeat(Math.max(0, size - empty));
  const s = `${JSON.stringify(base)}\n`;
  if (Buffer.byteLength(s) !== size) throw new Error('append record size');
  return s;
}

/**
 * Tail latency: a TranscriptTailer (no fs.watch, no polling) on a copy of the big session and on a
 * small session; per sample 1 KiB (one complete record) is appended and readNow() is called; the
 * time from before the append to the events callback is recorded. Samples alternate big/small.
 */
export async function tailBench({ bigFile, sessionId, cwd, dir, samples = 40 }) {
  const { TranscriptTailer } = src('node/transcripts/transcriptTailer');
  mkdirSync(dir, { recursive: true });
  const big = join(dir, 'big.jsonl');
  const small = join(dir, 'small.jsonl');
  copyFileSync(bigFile, big);
  // small file: the head of the same session, cut at a line boundary (~64 KiB)
  const head = Buffer.alloc(64 * 1024);
  const fd = openSync(bigFile, 'r');
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  writeFileSync(small, head.subarray(0, head.lastIndexOf(10) + 1));
  const make = (file) => {
    const state = { delivered: /** @type {number | undefined} */ (undefined), events: 0 };
    const tailer = new TranscriptTailer({
      agent: 'claude',
      filePath: file,
      sessionIdHint: sessionId,
      useFsWatch: false,
      pollIntervalMs: 0,
      onEvents: (batch) => {
        state.delivered = now();
        state.events += batch.length;
      },
    });
    return { tailer, state, file };
  };
  const tails = { big: make(big), small: make(small) };
  const s0 = now();
  await tails.big.tailer.start();
  const initialReadMs = now() - s0;
  await tails.small.tailer.start();
  const res = { big: [], small: [], initialReadMs, bigBytes: statSync(big).size, smallBytes: statSync(small).size };
  for (let i = 0; i < samples + 5; i++) {
    for (const which of ['big', 'small']) {
      const t = tails[which];
      const line = claudeRecordOfSize(1024, `${which}-${i}`, sessionId, cwd);
      t.state.delivered = undefined;
      const start = now();
      appendFileSync(t.file, line);
      const n = await t.tailer.readNow();
      if (n < 1 || t.state.delivered === undefined) throw new Error(`tailer delivered no event for the appended record (${which})`);
      if (i >= 5) res[which].push(t.state.delivered - start); // first 5: warm-up
    }
  }
  tails.big.tailer.dispose();
  tails.small.tailer.dispose();
  return res;
}

/** Initial catch-up through TranscriptTailer (what the extension does on start), MiB/s per run. */
export async function tailerCatchUpBench({ transcripts }) {
  const { TranscriptTailer } = src('node/transcripts/transcriptTailer');
  let events = 0;
  const s = now();
  for (const t of transcripts) {
    const tailer = new TranscriptTailer({
      agent: t.agent,
      filePath: t.file,
      sessionIdHint: t.sessionId,
      useFsWatch: false,
      pollIntervalMs: 0,
      onEvents: (b) => (events += b.length),
    });
    await tailer.start();
    tailer.dispose();
  }
  const ms = now() - s;
  const total = transcripts.reduce((a, t) => a + t.bytes, 0);
  return { ms, events, MiBs: total / (1024 * 1024) / (ms / 1000) };
}

// ── fetched notes merge ────────────────────────────────────────────────────────────────────────

/** A note as the CLI writes it (pretty JSON + newline), ~1 KB. */
function benchNote(agent, prompt, timestamp) {
  return `${JSON.stringify(
    {
      v: 1,
      agent,
      session_id: 'bench',
      timestamp,
      model: 'bench-model',
      interactions: [{ prompt, response: `Response to ${prompt}. ${'Lorem ipsum dolor sit amet. '.repeat(24)}` }],
      files: [{ path: 'bulk.txt', by_ai: true, ai_ranges: [{ start: 1, end: 1, interaction: 0 }] }],
      attribution: { ai_ratio: 100, method: 'line', lines: { ai_added: 1, total_added: 1, deleted: 0 } },
    },
    null,
    2,
  )}\n`;
}

/**
 * Reading and merging `count` fetched notes, every one of them conflicting with a local note of
 * the same commit (the worst case: each pair is read, decoded, resolved and re-encoded), the way
 * the extension does it: `git fetch` has put the remote's notes into the tracking ref, and
 * `SharingWorkerClient.run('sync')` (the sharing worker thread) merges them. Measured on the
 * calling thread, which stands for the extension host's: the longest event-loop stall while the
 * merge runs (a 1 ms timer: the largest gap between its ticks, minus 1 ms), and the merge's
 * duration. Baseline: the same merge run on the calling thread (`syncNotes` directly). Control:
 * the same watch for as long with nothing to do (the machine's own scheduling delays).
 * Each sample starts from the same state (the local notes ref reset before the merge).
 */
export async function notesMergeBench({ dir, home, count = 1000, samples = 3 }) {
  const env = gitEnv(home);
  const git = (cwd, args, input) =>
    execFileSync('git', args, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  mkdirSync(dir, { recursive: true });
  const remote = join(dir, 'remote.git');
  const a = join(dir, 'a');
  const b = join(dir, 'b');
  git(dir, ['init', '-q', '--bare', remote]);
  git(dir, ['init', '-q', '-b', 'main', a]);
  // `count` commits, each with a note of A's
  const when = 1_780_000_000;
  let stream = '';
  for (let i = 0; i < count; i++) {
    const msg = `commit ${i}`;
    stream += `commit refs/heads/main\nmark :${i + 1}\ncommitter Ann Dev <ann@example.com> ${when + i} +0000\ndata ${msg.length}\n${msg}\nM 100644 inline bulk.txt\ndata ${String(i).length + 1}\n${i}\n\n`;
  }
  stream += `commit refs/notes/agentnote\ncommitter Ann Dev <ann@example.com> ${when + count} +0000\ndata 7\nnotes A\n`;
  for (let i = 0; i < count; i++) {
    const body = Buffer.from(benchNote('claude', `A prompt ${i}`, '2026-03-01T10:00:00.000Z'));
    stream += `N inline :${i + 1}\ndata ${body.length}\n${body.toString()}\n`;
  }
  git(a, ['fast-import', '--quiet'], `${stream}done\n`);
  git(a, ['push', '-q', remote, 'main', 'refs/notes/agentnote']);
  git(dir, ['clone', '-q', remote, b]);
  // B noted every commit differently (a later timestamp: B's notes win, A's are kept as superseded)
  const commits = git(b, ['rev-list', 'main']).trim().split('\n');
  let bs = `commit refs/notes/agentnote\ncommitter Bo Dev <bo@example.com> ${when + count + 1} +0000\ndata 7\nnotes B\n`;
  for (const c of commits) {
    const body = Buffer.from(benchNote('cursor', `B prompt for ${c.slice(0, 8)}`, '2026-03-01T11:00:00.000Z'));
    bs += `N inline ${c}\ndata ${body.length}\n${body.toString()}\n`;
  }
  git(b, ['fast-import', '--quiet'], `${bs}done\n`);
  git(b, ['fetch', '-q', 'origin', '+refs/notes/agentnote:refs/notes/remotes/origin/agentnote']);
  const localBefore = git(b, ['rev-parse', 'refs/notes/agentnote']).trim();
  const commonDir = join(b, '.git');

  const { SharingWorkerClient } = src('node/sharing/sharingWorkerClient');
  const { syncNotes } = src('node/sharing/notesSync');
  const { GitRunner } = src('node/git/gitRunner');
  const reset = () => {
    git(b, ['update-ref', 'refs/notes/agentnote', localBefore]);
    git(b, ['update-ref', '-d', 'refs/agentnote/last-local']);
  };
  /** Runs `fn` while a 1 ms timer watches the event loop; returns the longest stall (ms) and the duration. */
  const watched = async (fn) => {
    let last = now();
    let worst = 0;
    const timer = setInterval(() => {
      const t = now();
      worst = Math.max(worst, t - last - 1);
      last = t;
    }, 1);
    const t0 = now();
    const result = await fn();
    const ms = now() - t0;
    clearInterval(timer);
    worst = Math.max(worst, now() - last - 1);
    return { stallMs: Math.max(0, worst), ms, result };
  };
  const check = (r) => {
    if (!r?.changed || r.merged?.[0]?.conflicts !== count) throw new Error(`merge result unexpected: ${JSON.stringify(r).slice(0, 300)}`);
  };
  const worker = new SharingWorkerClient({ idleMs: 60_000 });
  const out = {
    count,
    conflicts: count,
    worker: { stallMs: /** @type {number[]} */ ([]), ms: /** @type {number[]} */ ([]) },
    inThread: { stallMs: /** @type {number[]} */ ([]), ms: /** @type {number[]} */ ([]) },
    idle: { stallMs: /** @type {number[]} */ ([]) },
    threadIds: /** @type {(number | undefined)[]} */ ([]),
  };
  // control: the same watch over the same time with nothing to do (what the machine alone costs the thread)
  const idleFor = (ms) => watched(() => new Promise((res) => setTimeout(res, ms)));
  try {
    // warm-up: starts the worker thread (its start-up is part of the first real merge in the extension, measured separately)
    reset();
    const warm = await watched(() => worker.run('sync', { cwd: b, commonDir }, {}));
    check(warm.result);
    out.workerFirstMs = warm.ms;
    out.workerFirstStallMs = warm.stallMs;
    for (let i = 0; i < samples; i++) {
      reset();
      const w = await watched(() => worker.run('sync', { cwd: b, commonDir }, {}));
      check(w.result);
      out.worker.stallMs.push(w.stallMs);
      out.worker.ms.push(w.ms);
      out.threadIds.push(worker.lastThreadId);
      out.idle.stallMs.push((await idleFor(w.ms)).stallMs);
      reset();
      const t = await watched(() => syncNotes(new GitRunner(b, { niceness: 10 }), { commonDir }));
      check(t.result);
      out.inThread.stallMs.push(t.stallMs);
      out.inThread.ms.push(t.ms);
    }
  } finally {
    worker.dispose();
  }
  const notesAfter = git(b, ['notes', '--ref=agentnote', 'list']).trim().split('\n').length;
  out.notesAfter = notesAfter;
  return out;
}

// ── bundle ─────────────────────────────────────────────────────────────────────────────────────

/** Production (minified) build, then the size of dist/extension.js in bytes. */
export function bundleSize() {
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'pipe' });
  return statSync(join(ROOT, 'dist', 'extension.js')).size;
}

/** Rebuilds the development output (out/ and the unminified dist/extension.js). */
export function devBuild() {
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'pipe' });
}

export { log };

// ── history rewrites ───────────────────────────────────────────────────────────────────────────

/**
 * A `commits`-commit rebase of AI-noted commits onto a main that inserted lines above every AI
 * line, in a repository with `history` other noted commits: the time from the end of `git rebase`
 * (git copied the stale notes) to correct notes on every rebased commit, through RewriteRecorder
 * without our hook (the reflog and git's note copies, the zero-setup path). Each sample rebases
 * the original branch again with a new committer date (new commits). Checked: every rebased commit's
 * note has its AI lines on their new line numbers.
 */
export async function rewriteBench({ dir, home, commits = 30, history = 5000, samples = 5 }) {
  const env = gitEnv(home);
  const git = (args, opts = {}) =>
    execFileSync('git', args, {
      cwd: dir,
      env: { ...env, ...opts.env },
      input: opts.input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  mkdirSync(dir, { recursive: true });
  git(['init', '-q', '-b', 'main', '.']);
  for (const [k, v] of [
    ['user.name', 'Ann Dev'],
    ['user.email', 'ann@example.com'],
    ['commit.gpgsign', 'false'],
  ])
    git(['config', k, v]);
  const when = 1_780_000_000;
  // the history: `history` commits of bulk.txt, each with a note
  let stream = '';
  for (let i = 0; i < history; i++) {
    const msg = `history ${i}`;
    stream += `commit refs/heads/main\nmark :${i + 1}\ncommitter Ann Dev <ann@example.com> ${when + i} +0000\ndata ${msg.length}\n${msg}\nM 100644 inline bulk.txt\ndata ${String(i).length + 1}\n${i}\n\n`;
  }
  stream += `commit refs/notes/agentnote\ncommitter Ann Dev <ann@example.com> ${when + history} +0000\ndata 7\nhistory\n`;
  for (let i = 0; i < history; i++) {
    const body = Buffer.from(benchNote('claude', `History prompt ${i}`, '2026-03-01T10:00:00.000Z'));
    stream += `N inline :${i + 1}\ndata ${body.length}\n${body.toString()}\n`;
  }
  git(['fast-import', '--quiet'], { input: `${stream}done\n` });
  git(['reset', '-q', '--hard', 'main']);
  // the base files, then the feature branch: one AI commit per file appending 3 lines (2 of them the AI's)
  const base = Array.from({ length: 20 }, (_, i) => `base line ${i + 1}`).join('\n') + '\n';
  for (let f = 0; f < commits; f++) writeFileSync(join(dir, `mod${f}.txt`), base);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'base files'], { env: { GIT_COMMITTER_DATE: `${when + history + 1} +0000` } });
  git(['checkout', '-q', '-b', 'feature']);
  const notesIn = [];
  for (let f = 0; f < commits; f++) {
    writeFileSync(join(dir, `mod${f}.txt`), `${base}ai ${f} one\nai ${f} two\nperson ${f}\n`);
    git(['add', '-A']);
    git(['commit', '-q', '-m', `feat: mod${f}`], { env: { GIT_COMMITTER_DATE: `${when + history + 2 + f} +0000` } });
    const sha = git(['rev-parse', 'HEAD']).trim();
    const note = {
      v: 1,
      agent: 'claude',
      session_id: 'bench-rewrite',
      timestamp: '2026-03-02T10:00:00.000Z',
      model: 'bench-model',
      interactions: [{ prompt: `Append to mod${f}.txt`, response: null }],
      files: [{ path: `mod${f}.txt`, by_ai: true, ai_ranges: [{ start: 21, end: 22, interaction: 0 }] }],
      attribution: { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } },
    };
    notesIn.push(`N inline ${sha}\ndata ${Buffer.byteLength(JSON.stringify(note, null, 2) + '\n')}\n${JSON.stringify(note, null, 2)}\n`);
  }
  const ft = `commit refs/notes/agentnote\ncommitter Ann Dev <ann@example.com> ${when + history + 100} +0000\ndata 8\nfeature\nfrom refs/notes/agentnote^0\n${notesIn.join('')}done\n`;
  git(['fast-import', '--quiet'], { input: ft });
  const featureTip = git(['rev-parse', 'HEAD']).trim();
  // main: two lines on top of every file
  git(['checkout', '-q', 'main']);
  for (let f = 0; f < commits; f++) writeFileSync(join(dir, `mod${f}.txt`), `upstream 1\nupstream 2\n${base}`);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'upstream: two lines on top'], { env: { GIT_COMMITTER_DATE: `${when + history + 200} +0000` } });
  git(['config', '--add', 'notes.rewriteRef', 'refs/notes/agentnote']);
  git(['config', 'notes.rewrite.rebase', 'true']);
  mkdirSync(join(dir, '.git', 'agentnote'), { recursive: true });

  const { GitRunner } = src('node/git/gitRunner');
  const { NoteStore } = src('node/notes/noteStore');
  const { RewriteRecorder } = src('node/recorder/rewriteRecorder');
  const { Counters, nullLogger, systemClock } = src('core/ports');
  const { BlobStore } = src('node/git/blobStore');
  const runner = new GitRunner(dir);
  // as the extension has it: note blobs read through one cat-file --batch process
  const blobs = new BlobStore(runner, {});
  const notes = new NoteStore(runner, { blobs, trustCacheUntilInvalidated: true });
  const out = {
    commits,
    history,
    ms: /** @type {number[]} */ ([]),
    rebaseMs: /** @type {number[]} */ ([]),
    checks: /** @type {{ written: number; right: number; of: number }[]} */ ([]),
    gitCalls: 0,
  };
  for (let s = 0; s < samples; s++) {
    git(['checkout', '-q', '-B', 'feature', featureTip]);
    const t0 = now();
    git(['rebase', '-q', 'main'], { env: { GIT_COMMITTER_DATE: `${when + history + 300 + s} +0000` } });
    out.rebaseMs.push(now() - t0);
    // a fresh recorder per sample (nothing cached but what a running extension has: the notes store)
    const rec = new RewriteRecorder({
      root: dir,
      journalRoot: join(dir, '.git', 'agentnote'),
      git: runner,
      log: nullLogger,
      clock: systemClock,
      counters: new Counters(),
      notes,
    });
    notes.invalidate();
    const calls0 = runner.counters.get('git.calls');
    const t1 = now();
    const results = await rec.process();
    out.ms.push(now() - t1);
    out.gitCalls = runner.counters.get('git.calls') - calls0;
    const rebased = git(['rev-list', '--reverse', 'main..HEAD']).trim().split('\n');
    let right = 0;
    for (const [f, sha] of rebased.entries()) {
      const n = JSON.parse(git(['notes', '--ref=agentnote', 'show', sha]));
      const r = n.files?.[0]?.ai_ranges?.[0];
      if (n.files?.[0]?.path === `mod${f}.txt` && r?.start === 23 && r?.end === 24 && n.attribution?.lines?.ai_added === 2) right++;
    }
    out.checks.push({ written: results.filter((r) => r.outcome.kind === 'written').length, right, of: rebased.length });
  }
  await blobs.dispose?.();
  return out;
}

/**
 * A pull that brings `commits` new commits made by a hosting service — half of them squashes of
 * noted feature commits (one AI commit each, the person changed one of its AI lines in review),
 * half human commits — into a clone with `notes` other noted commits, all with line hashes. Timed:
 * from the end of `git fetch` to the derived notes written, by `deriveNotes` (what the sharing
 * worker runs). Warm: the worker has run since start (its index of sources is up to date; the
 * fetch brought no new notes). Cold: the first look after the editor started (every note read).
 * Baseline: `git fetch` itself. Checked on every sample: each squash has its derived note with the
 * right source and ranges, and no human commit has one.
 */
export async function derivedBench({ dir, home, notes = 5000, commits = 200, samples = 5 }) {
  const env = gitEnv(home);
  const git = (args, opts = {}) =>
    execFileSync('git', args, {
      cwd: opts.cwd ?? join(dir, 'work'),
      env: { ...env, ...opts.env },
      input: opts.input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  const { lineHash } = src('core/notes/lineHashes');
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  git(['init', '-q', '-b', 'main', '.']);
  for (const [k, v] of [
    ['user.name', 'Ann Dev'],
    ['user.email', 'ann@example.com'],
    ['commit.gpgsign', 'false'],
  ])
    git(['config', k, v]);
  const when = 1_780_000_000;
  const ident = (name, email, t) => `committer ${name} <${email}> ${t} +0000`;
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const note = (path, lines, ranges, prompt, total) =>
    `${JSON.stringify(
      {
        v: 1,
        agent: 'claude',
        session_id: 'bench-derive',
        timestamp: '2026-03-01T10:00:00.000Z',
        model: 'bench-model',
        interactions: [{ prompt, response: `Done: ${prompt}.` }],
        files: [
          {
            path,
            by_ai: true,
            ai_ranges: ranges.map(([start, end]) => ({ start, end, interaction: 0 })),
            ai_line_hashes: ranges.flatMap(([s, e]) => lines.slice(s - 1, e).map((l) => lineHash(l))),
          },
        ],
        attribution: {
          ai_ratio: Math.round((ranges.reduce((n, [s, e]) => n + e - s + 1, 0) / total) * 100),
          method: 'line',
          lines: { ai_added: ranges.reduce((n, [s, e]) => n + e - s + 1, 0), total_added: total, deleted: 0 },
        },
      },
      null,
      2,
    )}\n`;
  // the history: `notes` commits, each adding a file of 3 AI lines with its note (line hashes)
  let stream = '';
  const historyNotes = [];
  for (let i = 0; i < notes; i++) {
    const lines = [0, 1, 2].map((k) => `export const history${i}_${k} = compute(${i}, ${k});`);
    stream += `commit refs/heads/main\nmark :${i + 1}\n${ident('Ann Dev', 'ann@example.com', when + i)}\n${data(`history ${i}`)}`;
    stream += `M 100644 inline src/h${i % 100}/f${i}.ts\n${data(lines.join('\n') + '\n')}\n`;
    historyNotes.push(`N inline :${i + 1}\n${data(note(`src/h${i % 100}/f${i}.ts`, lines, [[1, 3]], `History prompt ${i}`, 3))}`);
  }
  // the feature commits (the user's clone had the branch): each adds a module, 4 AI lines of 6
  const half = Math.floor(commits / 2);
  const feature = (f) => [
    `export function feature${f}Total(items: Item${f}[]): number {`,
    `  const prices${f} = items.map((item) => item.price * item.quantity);`,
    `  return prices${f}.reduce((sum, p) => sum + p, 0) + fee${f};`,
    `} // feature ${f} total`,
    `// reviewed by the person, feature ${f}`,
    `export const fee${f} = ${f};`,
  ];
  const fmark = (f) => notes + 1 + f;
  for (let f = 0; f < half; f++) {
    stream += `commit refs/heads/feature\nmark :${fmark(f)}\n${ident('Ann Dev', 'ann@example.com', when + notes + f)}\n${data(`feat: module ${f}`)}`;
    if (f === 0) stream += `from :${notes}\n`;
    stream += `M 100644 inline src/feat/m${f}.ts\n${data(feature(f).join('\n') + '\n')}\n`;
    historyNotes.push(`N inline :${fmark(f)}\n${data(note(`src/feat/m${f}.ts`, feature(f), [[1, 4]], `Write module ${f}`, 6))}`);
  }
  // what the server made: on main, a squash of each feature commit (line 2 changed in review) and a human commit
  const smark = (k) => notes + half + 1 + k;
  for (let k = 0; k < commits; k++) {
    const f = Math.floor(k / 2);
    const message = k % 2 === 0 ? `Module ${f} (#${f + 100})` : `docs: module ${f}`;
    stream += `commit refs/heads/server\nmark :${smark(k)}\n${ident('GitHub', 'noreply@github.com', when + notes + half + k)}\n${data(message)}`;
    if (k === 0) stream += `from :${notes}\n`;
    if (k % 2 === 0) {
      const lines = feature(f);
      lines[1] = `  const prices${f} = items.map((item) => item.price * (item.quantity ?? 1));`;
      stream += `M 100644 inline src/feat/m${f}.ts\n${data(lines.join('\n') + '\n')}\n`;
    } else {
      stream += `M 100644 inline docs/m${f}.md\n${data(`Module ${f} adds a total with a fee for the reviewers.\n`)}\n`;
    }
  }
  stream += `commit refs/notes/agentnote\n${ident('Ann Dev', 'ann@example.com', when + notes + half + commits)}\n${data('notes')}${historyNotes.join('')}`;
  git(['fast-import', '--quiet'], { input: `${stream}done\n` });
  git(['reset', '-q', '--hard', 'main']);
  const remote = join(dir, 'remote.git');
  git(['init', '-q', '--bare', remote]);
  git(['push', '-q', remote, 'main:refs/heads/main']);
  git(['remote', 'add', 'origin', remote]);
  git(['fetch', '-q', 'origin']);
  git(['push', '-q', remote, 'server:refs/heads/main', '-f']);
  const serverTip = git(['rev-parse', 'server']).trim();
  git(['update-ref', '-d', 'refs/heads/server']);
  const oldTip = git(['rev-parse', 'refs/remotes/origin/main']).trim();
  const notesBase = git(['rev-parse', 'refs/notes/agentnote']).trim();
  const featureShas = git(['rev-list', '--reverse', 'main..feature']).trim().split('\n');
  const squashes = git(['rev-list', '--reverse', serverTip, '--not', oldTip]).trim().split('\n');

  const { GitRunner } = src('node/git/gitRunner');
  const { deriveNotes, forgetDerivationMemory } = src('node/recorder/derivedNotes');
  const { nullLogger } = src('core/ports');
  const runner = new GitRunner(work);
  const commonDir = join(work, '.git');
  const stateFile = join(commonDir, 'agentnote', 'derived-seen.json');
  const derive = () => deriveNotes(runner, { log: nullLogger, commonDir });
  // the look at start: the history is known, the newest commits looked at (no source for them)
  forgetDerivationMemory();
  await derive();
  const state0 = readFileSync(stateFile, 'utf8');
  const out = {
    notes: notes + half,
    commits,
    warm: /** @type {number[]} */ ([]),
    cold: /** @type {number[]} */ ([]),
    fetchMs: /** @type {number[]} */ ([]),
    checks: /** @type {{ mode: string; derived: number; right: number; wrong: number; of: number }[]} */ ([]),
    gitCalls: 0,
  };
  const check = () => {
    let right = 0;
    let wrong = 0;
    for (const [k, sha] of squashes.entries()) {
      let n;
      try {
        n = JSON.parse(git(['notes', '--ref=agentnote', 'show', sha]));
      } catch {
        n = undefined;
      }
      const f = Math.floor(k / 2);
      if (k % 2 === 1) {
        if (n) wrong++;
        continue;
      }
      const r = n?.files?.[0]?.ai_ranges;
      if (
        n?.derived_from?.length === 1 &&
        n.derived_from[0] === featureShas[f] &&
        JSON.stringify(r?.map((x) => [x.start, x.end])) === '[[1,1],[3,4]]' &&
        n.attribution?.lines?.ai_added === 3
      )
        right++;
      else wrong++;
    }
    return { right, wrong, of: half };
  };
  for (const mode of ['warm', 'cold']) {
    for (let s = 0; s < samples; s++) {
      git(['update-ref', 'refs/notes/agentnote', notesBase]);
      git(['update-ref', 'refs/remotes/origin/main', oldTip]);
      writeFileSync(stateFile, state0);
      if (mode === 'cold') forgetDerivationMemory();
      else await derive(); // the running worker's look after the notes ref was reset (nothing new to look at)
      const t0 = now();
      git(['fetch', '-q', 'origin']);
      out.fetchMs.push(now() - t0);
      const calls0 = runner.counters.get('git.calls');
      const t1 = now();
      const r = await derive();
      out[mode].push(now() - t1);
      out.gitCalls = runner.counters.get('git.calls') - calls0;
      out.checks.push({ mode, derived: r.derived.length, ...check() });
    }
  }
  return out;
}
