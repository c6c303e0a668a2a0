import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
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
const awaitingParser = new Set(['copilot', 'cline', 'aider']);

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
}

/** How one agent's corpus entry is fed to its parser: a single file (most) or, later, a task folder. */
type Feed = (absPath: string, entry: ExpectedEntry) => Promise<FedFile>;

/**
 * The corpus names a file `<source>--<original name>`; discovery would give the tailer the
 * original name's session id (Cursor's only session id).
 */
function originalStem(absPath: string): string {
  const name = absPath.split(/[\\/]/).pop()!;
  return name.slice(name.lastIndexOf('--') + 2).replace(/\.[^.]+$/, '');
}

/**
 * Tails one file once, as the watcher does (no offset store, no watching: one read of what is
 * there). `withCwd`: the agent's records carry no working directory, discovery passes it (Cursor's
 * project folder, Gemini's project root): the entry's `cwd` stands in for it.
 */
const tailFile =
  (opts: { withCwd?: boolean; withSessionHint?: boolean; notSubagent?: boolean } = {}): Feed =>
  async (absPath, entry) => {
    const entryAgent = agentOfPath(absPath);
    const events: AgentEvent[] = [];
    const counters = new Counters();
    const tailer = new TranscriptTailer({
      agent: entryAgent,
      filePath: absPath,
      sessionIdHint: opts.withSessionHint ? originalStem(absPath) : undefined,
      cwdHint: opts.withCwd ? entry.cwd : undefined,
      sidechain: opts.notSubagent ? false : undefined,
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
    const text = readFileSync(absPath, 'utf8');
    const multiRecordLines = text.split('\n').filter((l) => concatenatedJsonRecords(l) !== undefined).length;
    return { events, text: `${absPath}\n${text}`, invalidJson: tailer.parserStats.skipped.invalidJson, multiRecordLines, counters };
  };

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
};

/**
 * Where this project decides a debatable case differently from `expected.json` (its README: decide,
 * document, be consistent), with the reason; docs/transcripts.md, "The real-world corpus".
 */
const decisions: Record<string, { prompts: string[]; why: string }> = {
  'cursor/agent-sessions--synthetic--large.jsonl': {
    prompts: ['What files are here?', 'Read file1.txt.', 'Thanks.'],
    why: 'a Cursor user message without <user_query> is kept as typed text (older builds write none; docs/transcripts.md §1.3)',
  },
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
  const expectedPrompts = decided ? decided.prompts.map((text) => ({ text })) : (entry.prompts ?? []);
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
  for (const e of ev) {
    if (e.kind !== 'edit') continue;
    const k = editKey(e.toolUseId, e.file, e.failed);
    found.set(k, (found.get(k) ?? 0) + 1);
  }
  const wanted = new Map<string, number>();
  // an edit whose outcome is not in the file (`failed: null`: no tool result, no patch_apply_end)
  // may wait for it: the parser does not claim it succeeded, a gap and never a wrong claim
  const undecided = new Set<string>();
  for (const e of entry.edits ?? []) {
    const file = expectedPath(e.file, entry.cwd);
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
  } else if (ev.length > 0 && ids.length !== 1) diffs.push(`session ids: ${ids.join(', ')}, expected one`);
  // models: the set seen on session events
  const models = new Set(ev.flatMap((e) => (e.kind === 'session' && e.model !== undefined ? [e.model] : [])));
  const wantModels = new Set(entry.models);
  if (models.size !== wantModels.size || [...wantModels].some((m) => !models.has(m)))
    diffs.push(`models: [${[...models].join(', ')}], expected [${entry.models.join(', ')}]`);
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
  if (ev.length === 0 && (expectedPrompts.length > 0 || (entry.edits ?? []).length > 0 || entry.models.length > 0))
    diffs.push('no events at all');
  return diffs;
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
      const fed = await feed(join(corpusRoot, entry.file), entry);
      const diffs = compareWithExpected(entry, fed);
      if (diffs.length) assert.fail(`${entry.file} (${entry.class}):\n  ${diffs.join('\n  ')}`);
    });
  }
});
