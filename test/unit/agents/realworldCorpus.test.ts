import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { AgentEvent, AgentId } from '../../../src/core/model/agentEvents';
import { agentIds, isAgentId } from '../../../src/core/model/agentEvents';
import { concatenatedJsonRecords } from '../../../src/core/agents/baseParser';
import { Counters } from '../../../src/core/ports';
import { TranscriptTailer } from '../../../src/node/transcripts/transcriptTailer';

/**
 * The real-world corpus (`../shared/fixtures/realworld-transcripts/<agent>/`, outside the project:
 * never copied in): every file is fed to its agent's parser the way the extension reads it (a
 * TranscriptTailer: the registry's parser, the tailer's line splitting, whole-file reads, the
 * final line without a newline) and compared with `expected.json` (docs/transcripts.md, "The
 * real-world corpus"). Entries of agents without a parser yet are listed in `awaitingParser`.
 */

/** Project root (tests run from out/test/unit/agents); the corpus lives next to the project, in `../shared`. */
const projectRoot = resolve(__dirname, '../../../..');
const corpusRoot = resolve(projectRoot, '..', 'shared', 'fixtures', 'realworld-transcripts');

/**
 * Agents of the corpus whose parser is not registered yet. Registering one makes this test fail
 * until its id leaves this set and gets a feed in `feeds` below (so its files are then compared).
 */
const awaitingParser = new Set<string>();

interface ExpectedEdit {
  id?: string;
  tool?: string;
  file: string;
  /** null: the file holds no outcome (no tool result, no patch_apply_end). */
  failed?: boolean | null;
  sidechain?: boolean;
}

interface ExpectedEntry {
  file: string;
  agent: string;
  class: string;
  sessionId: string | null;
  cwd?: string;
  models: string[];
  invalidJsonLines?: number;
  /** false: the last line has no newline (Cursor's `.txt`). */
  endsWithNewline?: boolean;
  prompts?: { line?: number; id?: string; text: string }[];
  excluded?: Record<string, number>;
  edits?: ExpectedEdit[];
  /** Aider: the `> Applied edit to <path>` lines (the blocks aider wrote). */
  appliedEdits?: { line: number; file: string }[];
  /** Aider: the `# aider chat started at` sections (each is a session). */
  sessions?: { line: number; started: string }[];
}

/** What reading one corpus file produced. */
interface FedFile {
  events: AgentEvent[];
  /** The file's text and name (session ids must come from there). */
  text: string;
  /** Lines that were not JSON (parser stats). */
  invalidJson: number;
  /** Lines of the file holding several complete JSON records (F7). */
  multiRecordLines: number;
  counters: Counters;
  /** The work tree a feed made up (Aider's temp root): the expectation's relative paths resolve against it. */
  cwd?: string;
}

/** How one agent's corpus entry is fed to its parser: a single file, a task folder (Cline family) or a work tree file (Aider). */
type Feed = (absPath: string, entry: ExpectedEntry) => Promise<FedFile>;

/**
 * The corpus names a file `<source>--<original name>`; discovery would give the tailer the
 * original name's session id (Cursor's only session id).
 */
function originalStem(absPath: string): string {
  const name = absPath.split(/[\\/]/).pop()!;
  return name.slice(name.lastIndexOf('--') + 2).replace(/\.[^.]+$/, '');
}

/** Tails `filePath` once as `agent`, as the watcher does (no offset store, no watching: one read of what is there). */
async function tailOnce(
  agent: AgentId,
  filePath: string,
  hints: { sessionIdHint?: string; cwdHint?: string; sidechain?: boolean },
): Promise<{ events: AgentEvent[]; invalidJson: number; counters: Counters }> {
  const events: AgentEvent[] = [];
  const counters = new Counters();
  const tailer = new TranscriptTailer({
    agent,
    filePath,
    ...hints,
    useFsWatch: false,
    pollIntervalMs: 0,
    counters,
    onEvents: (batch) => {
      for (const e of batch) events.push(e.event);
    },
  });
  try {
    await tailer.start();
  } finally {
    tailer.dispose();
  }
  return { events, invalidJson: tailer.parserStats.skipped.invalidJson, counters };
}

function fedFrom(read: Awaited<ReturnType<typeof tailOnce>>, absPath: string): FedFile {
  const text = readFileSync(absPath, 'utf8');
  const multiRecordLines = text.split('\n').filter((l) => concatenatedJsonRecords(l) !== undefined).length;
  return { ...read, text: `${absPath}\n${text}`, multiRecordLines };
}

/**
 * Tails one file once. `withCwd`: the agent's records carry no working directory, discovery passes
 * it (Cursor's project folder, Gemini's project root): the entry's `cwd` stands in for it.
 */
const tailFile =
  (opts: { withCwd?: boolean; withSessionHint?: boolean; notSubagent?: boolean } = {}): Feed =>
  async (absPath, entry) => {
    const read = await tailOnce(agentOfPath(absPath), absPath, {
      sessionIdHint: opts.withSessionHint ? originalStem(absPath) : undefined,
      cwdHint: opts.withCwd ? entry.cwd : undefined,
      sidechain: opts.notSubagent ? false : undefined,
    });
    return fedFrom(read, absPath);
  };

/** A temp dir for one feed, removed afterwards. */
async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'agentnote-corpus-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Cline family's files of a task folder; the corpus names them `<source>--<taskId>--<file>.json`. */
const taskFiles = ['api_conversation_history', 'ui_messages', 'task_metadata'] as const;

/**
 * A Cline-family task (docs/transcripts.md §7.1): the corpus's files of the task are linked into
 * `<tmp>/tasks/<taskId>/<real name>` and the tailer reads the folder's `api_conversation_history.json`
 * (what discovery hands it; the companions are not read, §7.4). Every entry of the task, the
 * companions included, is fed that same read: what the folder yields for it (`companionChecks`).
 */
const taskFolder =
  (agent: AgentId): Feed =>
  async (absPath) =>
    inTempDir(async (dir) => {
      const m = /^(.*)--([^-]+)--([a-z_]+)\.json$/.exec(basename(absPath));
      if (!m) throw new Error(`not a task file name: ${absPath}`);
      const [, source, taskId] = m;
      const task = join(dir, 'tasks', taskId);
      mkdirSync(task, { recursive: true });
      for (const f of taskFiles) {
        const from = join(corpusRoot, agentOfPath(absPath), `${source}--${taskId}--${f}.json`);
        if (existsSync(from)) symlinkSync(from, join(task, `${f}.json`));
      }
      const history = join(task, 'api_conversation_history.json');
      const read = await tailOnce(agent, history, {});
      return fedFrom(read, history);
    });

/**
 * Aider's history is `.aider.chat.history.md` at the work tree root (docs/transcripts.md §10.1):
 * linked there in a temp work tree, whose root discovery passes as the cwd (relative block paths
 * resolve against it; the expectation's relative paths are compared against the same root).
 */
const aiderHistory: Feed = async (absPath) =>
  inTempDir(async (dir) => {
    const file = join(dir, '.aider.chat.history.md');
    symlinkSync(absPath, file);
    const read = await tailOnce('aider', file, { cwdHint: dir });
    return { ...fedFrom(read, file), cwd: dir };
  });

/**
 * One feed per registered agent: the type lists every id of the registry, so registering an agent
 * does not compile until its feed is here (a task folder agent reads its folder instead of a file).
 */
const feeds: { readonly [Id in AgentId]: Feed } = {
  // `agent-sessions--…` reads as Claude's `agent-*.jsonl` subagent name; discovery knows better
  claude: tailFile({ notSubagent: true }),
  cursor: tailFile({ withCwd: true, withSessionHint: true }),
  codex: tailFile(),
  gemini: tailFile({ withCwd: true }),
  copilot: tailFile(),
  cline: taskFolder('cline'),
  // no Roo or Kilo task in the corpus yet; their folders are Cline's (docs/transcripts.md §8, §9)
  roo: taskFolder('roo'),
  kilo: taskFolder('kilo'),
  aider: aiderHistory,
};

/**
 * Where this project decides a debatable case differently from `expected.json` (its README: decide,
 * document, be consistent), with the reason; docs/transcripts.md, "The real-world corpus".
 */
const decisions: Record<string, { prompts?: string[]; notRead?: true; editsMissing?: string[]; uiOnlySaves?: string[]; why: string }> = {
  'cursor/agent-sessions--synthetic--large.jsonl': {
    prompts: ['What files are here?', 'Read file1.txt.', 'Thanks.'],
    why: 'a Cursor user message without <user_query> is kept as typed text (older builds write none; docs/transcripts.md §1.3)',
  },
  'copilot/git-ai--derived--transcript-0.47.0--copilot_vscode_event_stream.jsonl': {
    notRead: true,
    why: 'a Copilot hooks transcript, not a chatSessions file: discovery never hands it to the parser (docs/transcripts.md §11.1), which reads nothing from it',
  },
  'cline/online-card-arch--1769064454592--ui_messages.json': {
    uiOnlySaves: ['ModifyCardSystem.cs'],
    why: 'the first save (message 135) was interrupted mid-stream (a [TASK RESUMPTION] follows, the file was left cut and rewritten at 146): it exists only in ui_messages.json and is not attributed (docs/transcripts.md §7.4)',
  },
  'aider/simple-calculator--0.82.2--aider.chat.history.md': {
    editsMissing: ["If you're using **npm**"],
    why: "aider took a prose line of a `whole` reply for a file name (line 1647, `Applied edit to If you're using **npm**`); the parser does not read prose as a file name, so that write is not claimed: a gap, never a wrong claim",
  },
  'aider/health-analyzer-poc--0.83.1--aider.chat.history.md': {
    editsMissing: ['metrics_check.py'],
    why: 'in the `whole` edit format the model wrote a SEARCH/REPLACE block inside the fenced listing (line 889); the parser deliberately claims neither a listing nor a block there (`findBlocks` skips a listing holding SEARCH markers: what aider wrote, the markers or the replace text, is unknown): a gap, never a wrong claim',
  },
};

/**
 * Where this project reads a whole agent differently from `expected.json`, with the reason
 * (docs/transcripts.md, "The real-world corpus").
 */
const agentDecisions = {
  /** docs/transcripts.md §11.2: the model is the request's `modelId` without `copilot/`. */
  copilotModel: (m: string) => m.replace(/^copilot\//, ''),
  /**
   * Copilot's `insert_edit_into_file` and `multi_replace_string_in_file` give one event per applied
   * piece, `<call id>#<n>` (§11.3): one edit call per file, like a MultiEdit.
   */
  callIdOf: (id: string | undefined) => id?.replace(/#\d+$/, ''),
};

function agentOfPath(absPath: string): AgentId {
  const agent = absPath.slice(corpusRoot.length + 1).split(/[\\/]/)[0];
  if (!isAgentId(agent)) throw new Error(`not a registered agent: ${agent}`);
  return agent;
}

/** Whitespace collapsed, as expected.json writes prompt heads. */
function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** What the expectation means by a file: absolute paths as they are, relative ones against the session's cwd. */
function expectedPath(file: string, cwd: string | undefined): string {
  if (isAbsolute(file) || !cwd) return file;
  return join(cwd, file).replace(/\\/g, '/');
}

/** Differences between what the parser produced and the expectation, one readable line each. */
export function compareWithExpected(entry: ExpectedEntry, fed: FedFile): string[] {
  const diffs: string[] = [];
  const ev = fed.events;
  // prompts: count and text (typed prompts only; accepted plans are marked and compared apart)
  const prompts = ev.filter((e): e is Extract<AgentEvent, { kind: 'prompt' }> => e.kind === 'prompt' && e.plan !== true);
  const byRecord = new Map<string, string>();
  const promptTexts: string[] = [];
  for (const p of prompts) {
    // an upserted prompt (same record id) replaces the earlier text
    if (p.recordId !== undefined && byRecord.has(p.recordId)) {
      promptTexts[promptTexts.indexOf(byRecord.get(p.recordId)!)] = p.text;
      byRecord.set(p.recordId, p.text);
      continue;
    }
    if (p.recordId !== undefined) byRecord.set(p.recordId, p.text);
    promptTexts.push(p.text);
  }
  const decided = decisions[entry.file];
  if (decided?.notRead) {
    if (ev.length > 0) diffs.push(`${ev.length} events, expected none (${decided.why})`);
    return diffs;
  }
  const expectedPrompts = decided?.prompts ? decided.prompts.map((text) => ({ text })) : (entry.prompts ?? []);
  if (promptTexts.length !== expectedPrompts.length)
    diffs.push(
      `prompts: ${promptTexts.length} found, ${expectedPrompts.length} expected\n    found:    ${promptTexts.map((t) => JSON.stringify(squash(t).slice(0, 50))).join('\n              ')}\n    expected: ${expectedPrompts.map((p) => JSON.stringify(p.text.slice(0, 50))).join('\n              ')}`,
    );
  for (let i = 0; i < Math.min(promptTexts.length, expectedPrompts.length); i++) {
    const found = squash(promptTexts[i]);
    const want = squash(expectedPrompts[i].text);
    if (!found.startsWith(want))
      diffs.push(`prompt ${i + 1}: ${JSON.stringify(found.slice(0, want.length + 10))}, expected to start with ${JSON.stringify(want)}`);
  }
  // accepted plans (F4): kept, marked as a plan, never counted as a typed prompt
  const planExcluded = Object.entries(entry.excluded ?? {})
    .filter(([k]) => k.startsWith('plan-implementation'))
    .reduce((n, [, v]) => n + v, 0);
  const plans = ev.filter((e) => e.kind === 'prompt' && e.plan === true).length;
  if (plans !== planExcluded) diffs.push(`plans: ${plans} found, ${planExcluded} expected`);
  // edit calls per file: (tool call id, file, failed) pairs; Cursor has no ids (file and tool only)
  const editKey = (id: string | undefined, file: string, failed: boolean | undefined) => `${id ?? '-'} ${file}${failed ? ' (failed)' : ''}`;
  const found = new Map<string, number>();
  // Aider's blocks have no call ids and only applied blocks are edits (§10.2): files with an
  // applied edit (`appliedEdits`) against files with an edit, nothing failed
  const aider = entry.agent === 'aider';
  for (const e of ev) {
    if (e.kind !== 'edit') continue;
    const k = aider ? editKey(undefined, e.file, e.failed) : editKey(agentDecisions.callIdOf(e.toolUseId), e.file, e.failed);
    found.set(k, (found.get(k) ?? 0) + 1);
  }
  const wanted = new Map<string, number>();
  // an edit whose outcome is not in the file (`failed: null`: no tool result, no patch_apply_end)
  // may wait for it: the parser does not claim it succeeded, a gap and never a wrong claim
  const undecided = new Set<string>();
  const notClaimed = new Set((decided?.editsMissing ?? []).map((f) => expectedPath(f, entry.cwd ?? fed.cwd)));
  const expectedEdits: ExpectedEdit[] = aider
    ? [...new Set((entry.appliedEdits ?? []).map((a) => a.file))].map((file) => ({ file, failed: false }))
    : (entry.edits ?? []);
  for (const e of expectedEdits) {
    const file = expectedPath(e.file, entry.cwd ?? fed.cwd);
    if (notClaimed.has(file)) continue;
    if (e.failed === null) {
      undecided.add(editKey(e.id, file, undefined));
      continue;
    }
    const k = editKey(e.id, file, e.failed);
    wanted.set(k, (wanted.get(k) ?? 0) + 1);
  }
  // several events per (call, file) are one edit call per file (a MultiEdit, a patch with several hunks)
  const foundPairs = new Set(found.keys());
  const wantedPairs = new Set(wanted.keys());
  const missing = [...wantedPairs].filter((k) => !foundPairs.has(k));
  const extra = [...foundPairs].filter((k) => !wantedPairs.has(k) && !undecided.has(k));
  if (entry.agent === 'cursor') {
    // no call ids: the number of calls per file must match too
    for (const k of wantedPairs)
      if (foundPairs.has(k) && found.get(k) !== wanted.get(k)) missing.push(`${k} ×${wanted.get(k)} (found ×${found.get(k)})`);
  }
  if (missing.length) diffs.push(`edits missing (${missing.length}):\n    ${missing.slice(0, 10).join('\n    ')}`);
  if (extra.length) diffs.push(`edits not expected (${extra.length}):\n    ${extra.slice(0, 10).join('\n    ')}`);
  // session ids: the file ends in the expected session, and every id is one the file (or its
  // name, when it has none) gives; none expected: one id, from the file name
  const ids = [...new Set(ev.map((e) => e.sessionId))];
  const lastId = ev.length > 0 ? ev[ev.length - 1].sessionId : undefined;
  if (entry.sessionId !== null) {
    if (lastId !== entry.sessionId) diffs.push(`session id: ${lastId ?? '(none)'}, expected ${entry.sessionId}`);
    const invented = ids.filter((id) => !fed.text.includes(id));
    if (invented.length) diffs.push(`session ids not in the file: ${invented.join(', ')}`);
  } else if (ev.length > 0 && ids.length !== (entry.sessions?.length ?? 1))
    // none in the file: one id from its name, or (Aider) one per `# aider chat started at` section
    diffs.push(`session ids: ${ids.join(', ')}, expected ${entry.sessions?.length ?? 1}`);
  // models: the set seen on session events
  const models = new Set(ev.flatMap((e) => (e.kind === 'session' && e.model !== undefined ? [e.model] : [])));
  const wantModels = new Set(entry.agent === 'copilot' ? entry.models.map(agentDecisions.copilotModel) : entry.models);
  if (models.size !== wantModels.size || [...wantModels].some((m) => !models.has(m)))
    diffs.push(`models: [${[...models].join(', ')}], expected [${[...wantModels].join(', ')}]`);
  // a line of several complete records is not invalid here: each record is read (F7)
  if (entry.invalidJsonLines !== undefined) {
    const expectedInvalid = entry.invalidJsonLines - fed.multiRecordLines;
    if (fed.invalidJson !== expectedInvalid) diffs.push(`lines that are not JSON: ${fed.invalidJson}, expected ${expectedInvalid}`);
  }
  // F6: a file whose last line has no newline has that line read, once
  if (entry.endsWithNewline === false && fed.counters.get('tailer.finalLinesWithoutNewline') !== 1)
    diffs.push(`last line without newline read ${fed.counters.get('tailer.finalLinesWithoutNewline')} time(s), expected once`);
  // no exceptions: the tailer catches and counts them (a read or parse that threw)
  for (const c of ['tailer.readErrors', 'tailer.openErrors', 'tailer.listenerErrors']) {
    if (fed.counters.get(c) > 0) diffs.push(`${c}: ${fed.counters.get(c)}, expected none`);
  }
  // something was read: a file with prompts, edits or a model must produce events
  if (ev.length === 0 && (expectedPrompts.length > 0 || expectedEdits.length > 0 || entry.models.length > 0))
    diffs.push('no events at all');
  return diffs;
}

/**
 * A Cline-family companion entry (`ui_messages`, `task_metadata`) is fed the folder's read (the
 * history; the companions are not read, docs/transcripts.md §7.4): its prompts and edit calls are
 * the history entry's of the same task, its session id and models its own, and its own file list is
 * checked against what the read produced (`companionDiffs`).
 */
function companionExpectation(
  entry: ExpectedEntry,
  entries: readonly ExpectedEntry[],
): { expectation: ExpectedEntry; own?: ExpectedEntry } {
  const m = /^(.*--[^-]+--)(ui_messages|task_metadata)\.json$/.exec(entry.file);
  if (!m) return { expectation: entry };
  const history = entries.find((e) => e.file === `${m[1]}api_conversation_history.json`);
  if (!history) throw new Error(`no history entry for ${entry.file}`);
  return { expectation: { ...history, file: entry.file, sessionId: entry.sessionId, models: entry.models }, own: entry };
}

/**
 * A companion's own edit list against the read: `ui_messages` says (file relative to the task's
 * cwd, once per save) what was written, so each found edit call is one of its saves and the other
 * way round; `task_metadata` lists every file Cline saw edited (with files others wrote, like a
 * Unity `.meta`), so every file the read claims must be in it.
 */
function companionDiffs(own: ExpectedEntry, fed: FedFile): string[] {
  const edits = fed.events.filter((e): e is Extract<AgentEvent, { kind: 'edit' }> => e.kind === 'edit' && e.failed !== true);
  const calls = [...new Map(edits.map((e) => [`${e.toolUseId} ${e.file}`, e.file])).values()];
  const listed = (own.edits ?? []).map((e) => e.file);
  if (own.file.endsWith('--ui_messages.json')) {
    const rest = [...calls];
    const unmatched: string[] = [];
    const uiOnly = [...(decisions[own.file]?.uiOnlySaves ?? [])];
    for (const f of listed) {
      const skip = uiOnly.indexOf(f);
      if (skip >= 0) {
        uiOnly.splice(skip, 1);
        continue;
      }
      const i = rest.findIndex((c) => c === f || c.endsWith(`/${f}`));
      if (i < 0) unmatched.push(f);
      else rest.splice(i, 1);
    }
    return [
      ...(unmatched.length ? [`ui_messages saves without an edit call: ${unmatched.join(', ')}`] : []),
      ...(rest.length ? [`edit calls without a ui_messages save: ${rest.join(', ')}`] : []),
    ];
  }
  const known = new Set(listed);
  const unlisted = [...new Set(calls)].filter((f) => !known.has(f));
  return unlisted.length ? [`edited files task_metadata does not list: ${unlisted.join(', ')}`] : [];
}

const present = existsSync(join(corpusRoot, 'expected.json'));

describe('real-world transcript corpus (../shared/fixtures/realworld-transcripts)', function () {
  if (!present) {
    it('is skipped: the corpus folder is absent', function () {
      console.log(`    (skipped: no corpus at ${corpusRoot})`);
      this.skip();
    });
    return;
  }
  const entries = JSON.parse(readFileSync(join(corpusRoot, 'expected.json'), 'utf8')) as ExpectedEntry[];

  it('covers every entry: each agent is registered or explicitly awaiting its parser', () => {
    const registered = new Set<string>(agentIds);
    const nowRegistered = [...awaitingParser].filter((a) => registered.has(a));
    assert.deepEqual(nowRegistered, [], `registered now, so remove from awaitingParser and add a feed: ${nowRegistered.join(', ')}`);
    const unknown = [...new Set(entries.map((e) => e.agent))].filter((a) => !registered.has(a) && !awaitingParser.has(a));
    assert.deepEqual(unknown, [], `agents neither registered nor awaiting a parser: ${unknown.join(', ')}`);
    assert.ok(entries.length > 0);
  });

  for (const entry of entries) {
    if (!isAgentId(entry.agent)) continue;
    const feed = feeds[entry.agent];
    it(`${entry.file}: prompts, edits per file, session id and models as expected`, async () => {
      const { expectation, own } = companionExpectation(entry, entries);
      const fed = await feed(join(corpusRoot, entry.file), expectation);
      const diffs = [...compareWithExpected(expectation, fed), ...(own ? companionDiffs(own, fed) : [])];
      if (diffs.length) assert.fail(`${entry.file} (${entry.class}):\n  ${diffs.join('\n  ')}`);
    });
  }
});
