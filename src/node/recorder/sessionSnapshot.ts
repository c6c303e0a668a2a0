import { z } from 'zod';
import type { ChangeLine, CommittedPairLine, PreBlobLine, PromptLine } from '../../core/model/journal';
import { consumptionKey, type JournalPair, type JournalSessionData } from '../../core/model/journalPairs';
import type { JournalSession } from '../journal/sessionJournal';
import { TimeSlice } from '../util/timeSlice';

/**
 * One session directory of the journal read for recording: prompts, events, the edit pairs that
 * no commit consumed yet, and the consumption / prompt-window state — from the CLI-shaped files,
 * so sessions written by the Agent Note CLI's own hooks are used exactly like ours.
 *
 * Pairing follows the CLI (docs/note-format.md §3.1–3.2): entries already consumed
 * (key `change:<change_id>` > `id:<tool_use_id>` > `<turn>:<file>`) are dropped first; a change
 * whose `tool_use_id` matches a pre-blob forms a pair and takes the pre-blob's turn and prompt id;
 * entries without ids are paired first-in-first-out per file; a change without a pre-blob is
 * evidence only (post blob and counts), a pre-blob without a change marks its file as AI-touched.
 */

/** Our extra data of a pair (`ext/pairs.jsonl`). */
export interface PairExtRecord {
  pairId: string;
  /** Capture time of the edit (epoch ms). */
  time: number;
  file: string;
  turn: number;
  interactionKey: string;
  /** Host transition id when the edit was observed (timeline key), absent for record-only edits. */
  transitionId?: string;
  claimKey: string;
  tool: string;
  added?: number;
  removed?: number;
  preBlob?: string;
  postBlob: string;
}

/** Our record of transcript activity per turn (`ext/activity.jsonl`): edits and tools. */
export interface ActivityRecord {
  kind: 'edit' | 'tool';
  turn: number;
  tool: string;
  /** Repo-relative path of an edit, null when outside the repository. */
  file?: string | null;
  time: number;
  failed?: boolean;
}

/** Our record of a journaled prompt (`ext/prompts.jsonl`). */
export interface PromptExtRecord {
  /** Transcript event key. */
  key: string;
  turn: number;
  promptId: string;
  /** Prompt record id of the transcript (upserts and rewinds refer to it). */
  recordId?: string;
  time: number;
}

/** A session directory as read for recording: the note's data plus the session to append consumption to. */
export interface SessionSnapshot extends JournalSessionData {
  session: JournalSession;
  transcriptPath?: string;
}

/** Our files in a session's `ext/` directory (the CLI never reads them). */
export const extFiles = { pairs: 'pairs.jsonl', activity: 'activity.jsonl', prompts: 'prompts.jsonl' } as const;

/** Reads one session directory (see the module comment). `exclude` lines are treated as never written (amend). */
export async function readSessionSnapshot(
  session: JournalSession,
  opts: { exclude?: readonly CommittedPairLine[] } = {},
): Promise<SessionSnapshot> {
  const [agent, turn, prompts, events, changes, pres, committed, ext, activity, transcriptPath] = await Promise.all([
    session.readAgent(),
    session.readTurn(),
    session.readPrompts(),
    session.readEvents(),
    session.readChanges(),
    session.readPreBlobs(),
    session.readCommittedPairs(),
    readExt(session, extFiles.pairs, pairExtSchema),
    readExt(session, extFiles.activity, activitySchema),
    session.readTranscriptPath(),
  ]);
  const agentName = agent ?? 'claude';
  const committedLines = subtractLines(committed.entries, opts.exclude ?? []);
  const consumed = new Set(committedLines.map(consumptionKey));
  const extTime = new Map(ext.map((e) => [e.pairId, e.time] as const));

  const byTurn = new Map<number, PromptLine>();
  for (const p of prompts.entries) if (!byTurn.has(p.turn)) byTurn.set(p.turn, p);

  const toolsByTurn = new Map<number, string[]>();
  const addTool = (t: number, tool: string) => {
    if (!tool) return;
    const list = toolsByTurn.get(t) ?? [];
    if (!list.includes(tool)) list.push(tool);
    toolsByTurn.set(t, list);
  };
  for (const c of changes.entries) addTool(c.turn, c.tool);
  for (const a of activity) if (a.kind === 'edit' && !a.failed) addTool(a.turn, a.tool);

  const pairs = pairEntries(
    session.id,
    agentName,
    changes.entries.filter((c) => !consumed.has(consumptionKey(c))),
    pres.entries.filter((p) => !consumed.has(consumptionKey(p))),
    extTime,
  );

  return {
    id: session.id,
    agent: agentName,
    turn,
    session,
    prompts: [...byTurn.values()].sort((a, b) => a.turn - b.turn),
    events: events.entries,
    committed: committedLines,
    pairs,
    toolsByTurn,
    transcriptPath,
  };
}

function lineIdentity(l: CommittedPairLine): string {
  return JSON.stringify([l.turn, l.prompt_id ?? null, l.file ?? null, l.prompt_scope ?? null, l.change_id ?? null, l.tool_use_id ?? null]);
}

/** `lines` minus `remove` as multisets (one removed occurrence per line in `remove`). */
function subtractLines(lines: readonly CommittedPairLine[], remove: readonly CommittedPairLine[]): CommittedPairLine[] {
  if (remove.length === 0) return [...lines];
  const counts = new Map<string, number>();
  for (const r of remove) counts.set(lineIdentity(r), (counts.get(lineIdentity(r)) ?? 0) + 1);
  const out: CommittedPairLine[] = [];
  for (const l of lines) {
    const id = lineIdentity(l);
    const n = counts.get(id) ?? 0;
    if (n > 0) counts.set(id, n - 1);
    else out.push(l);
  }
  return out;
}

function pairEntries(
  sessionId: string,
  agent: string,
  changes: readonly ChangeLine[],
  pres: readonly PreBlobLine[],
  extTime: ReadonlyMap<string, number>,
): JournalPair[] {
  const preById = new Map<string, PreBlobLine>();
  const presNoId = new Map<string, PreBlobLine[]>();
  for (const p of pres) {
    if (p.tool_use_id) {
      if (!preById.has(p.tool_use_id)) preById.set(p.tool_use_id, p);
    } else {
      const list = presNoId.get(p.file) ?? [];
      list.push(p);
      presNoId.set(p.file, list);
    }
  }
  const usedPre = new Set<PreBlobLine>();
  const pairs: JournalPair[] = [];
  const fifoSeq = new Map<string, number>();
  for (const c of changes) {
    let pre: PreBlobLine | undefined;
    if (c.tool_use_id) pre = preById.get(c.tool_use_id);
    else pre = presNoId.get(c.file)?.shift();
    if (pre && usedPre.has(pre)) pre = undefined;
    if (pre) usedPre.add(pre);
    const turn = pre ? pre.turn : c.turn;
    let pairId: string;
    if (c.tool_use_id) pairId = c.tool_use_id;
    else if (c.change_id) pairId = `change:${c.change_id}`;
    else {
      const k = `${turn}:${c.file}`;
      const n = (fifoSeq.get(k) ?? 0) + 1;
      fifoSeq.set(k, n);
      pairId = `fifo:${k}:${n}`;
    }
    const parsedTime = c.timestamp ? Date.parse(c.timestamp) : NaN;
    const pair: JournalPair = {
      pairId,
      sessionId,
      agent,
      turn,
      promptId: (pre ? pre.prompt_id : c.prompt_id) ?? null,
      file: c.file,
      postBlob: c.blob,
      tool: c.tool,
      time: extTime.get(pairId) ?? (Number.isFinite(parsedTime) ? parsedTime : 0),
      interactionKey: `${agent}:${sessionId}:${turn}`,
      consumeLines: dedupeLines([entryLine(c), ...(pre ? [entryLine(pre)] : [])]),
    };
    if (pre) pair.preBlob = pre.blob;
    if (c.edit_added !== null && c.edit_deleted !== null) {
      pair.editAdded = c.edit_added;
      pair.editDeleted = c.edit_deleted;
    }
    pairs.push(pair);
  }
  for (const p of pres) {
    if (usedPre.has(p)) continue;
    const pairId = p.tool_use_id ?? `pre:${p.turn}:${p.file}`;
    pairs.push({
      pairId,
      sessionId,
      agent,
      turn: p.turn,
      promptId: p.prompt_id ?? null,
      file: p.file,
      preBlob: p.blob,
      tool: '',
      time: extTime.get(pairId) ?? 0,
      interactionKey: `${agent}:${sessionId}:${p.turn}`,
      consumeLines: [entryLine(p)],
    });
  }
  return pairs;
}

function entryLine(e: { turn: number; file: string; change_id?: string | null; tool_use_id: string | null }): CommittedPairLine {
  return { turn: e.turn, file: e.file, change_id: e.change_id ?? null, tool_use_id: e.tool_use_id };
}

function dedupeLines(lines: CommittedPairLine[]): CommittedPairLine[] {
  const seen = new Set<string>();
  return lines.filter((l) => {
    const k = consumptionKey(l);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

async function readExt<T>(session: JournalSession, name: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<T[]> {
  const r = await session.readJsonl(name);
  const out: T[] = [];
  const slice = new TimeSlice();
  for (const v of r.values) {
    const p = schema.safeParse(v);
    if (p.success) out.push(p.data);
    if (slice.due) await slice.pause();
  }
  return out;
}

/** Our pair records of a session (`ext/pairs.jsonl`; invalid lines skipped). */
export function readPairExt(session: JournalSession): Promise<PairExtRecord[]> {
  return readExt(session, extFiles.pairs, pairExtSchema);
}

/** Our activity records of a session (`ext/activity.jsonl`; invalid lines skipped). */
export function readActivity(session: JournalSession): Promise<ActivityRecord[]> {
  return readExt(session, extFiles.activity, activitySchema);
}

/** Our prompt records of a session (`ext/prompts.jsonl`; invalid lines skipped). */
export function readPromptExt(session: JournalSession): Promise<PromptExtRecord[]> {
  return readExt(session, extFiles.prompts, promptExtSchema);
}

const pairExtSchema: z.ZodType<PairExtRecord, z.ZodTypeDef, unknown> = z.object({
  pairId: z.string().min(1),
  time: z.number().finite(),
  file: z.string().min(1),
  turn: z.number().int().min(0),
  interactionKey: z.string(),
  transitionId: z.string().optional(),
  claimKey: z.string(),
  tool: z.string(),
  added: z.number().int().nonnegative().optional(),
  removed: z.number().int().nonnegative().optional(),
  preBlob: z.string().optional(),
  postBlob: z.string(),
});

const activitySchema: z.ZodType<ActivityRecord, z.ZodTypeDef, unknown> = z.object({
  kind: z.enum(['edit', 'tool']),
  turn: z.number().int().min(0),
  tool: z.string(),
  file: z.string().nullable().optional(),
  time: z.number().finite(),
  failed: z.boolean().optional(),
});

const promptExtSchema: z.ZodType<PromptExtRecord, z.ZodTypeDef, unknown> = z.object({
  key: z.string(),
  turn: z.number().int().min(1),
  promptId: z.string(),
  recordId: z.string().optional(),
  time: z.number().finite(),
});
