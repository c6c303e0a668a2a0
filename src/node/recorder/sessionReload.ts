import * as path from 'node:path';
import { agentIds, type AgentId } from '../../core/model/agentEvents';
import type { EventLine } from '../../core/model/journal';
import { responsesByTurn } from '../../core/model/journalPairs';
import type { Counters, Logger } from '../../core/ports';
import type { SessionModel } from '../../core/session/sessionModel';
import type { SessionJournal } from '../journal/sessionJournal';
import type { LiveSession } from './liveSession';
import { errorText, sha1 } from './recorderUtil';
import { readActivity, readPairExt, readPromptExt, type ActivityRecord, type PairExtRecord, type PromptExtRecord } from './sessionSnapshot';

/** One session reloaded from the journal. */
export interface ReloadedSession {
  live: LiveSession;
  /** Our pair records (`ext/pairs.jsonl`): paired claims and AI timeline entries. */
  pairs: PairExtRecord[];
}

/**
 * Every session of the journal as a live session, replayed into `sessions` (prompts, last
 * responses and our activity records, with the journal's turn numbers), so a reload keeps
 * earlier turns. A session of an unknown agent is skipped; one that cannot be read is counted and
 * skipped (a failure while replaying it keeps its live session, without its pairs).
 */
export async function reloadSessions(
  journal: SessionJournal,
  sessions: SessionModel,
  opts: { root: string; counters: Counters; log: Logger },
): Promise<ReloadedSession[]> {
  const out: ReloadedSession[] = [];
  for (const id of await journal.listSessionIds()) {
    const js = journal.session(id);
    if (!js) continue;
    try {
      const agent = (await js.readAgent()) ?? 'claude';
      if (!isAgentId(agent)) continue;
      const [prompts, events, activity, promptExt, pairExt, transcriptPath] = await Promise.all([
        js.readPrompts(),
        js.readEvents(),
        readActivity(js),
        readPromptExt(js),
        readPairExt(js),
        js.readTranscriptPath(),
      ]);
      const heartbeat = (await js.readHeartbeat()) ?? 0;
      const live: LiveSession = {
        agent,
        id,
        js,
        promptIds: new Map(),
        lastResponse: responseDigests(responsesByTurn(events.entries)),
        started: true,
        heartbeat,
      };
      if (transcriptPath) live.transcriptPath = transcriptPath;
      for (const p of prompts.entries) if (p.prompt_id && !live.promptIds.has(p.turn)) live.promptIds.set(p.turn, p.prompt_id);
      const reloaded: ReloadedSession = { live, pairs: [] };
      out.push(reloaded);
      replaySession(sessions, opts.root, {
        agent,
        id,
        prompts: prompts.entries,
        events: events.entries,
        activity,
        promptExt,
        transcriptPath,
        heartbeat,
      });
      reloaded.pairs = pairExt;
    } catch (e) {
      opts.counters.inc('recorder.rebuildFailures');
      opts.log.warn(`could not reload journal session ${id.slice(0, 8)}: ${errorText(e)}`);
    }
  }
  return out;
}

/** What one journal session holds for the session model. */
export interface JournaledSession {
  agent: AgentId;
  id: string;
  prompts: readonly { turn: number; prompt: string; timestamp: string; prompt_id: string }[];
  events: readonly EventLine[];
  activity: readonly ActivityRecord[];
  promptExt: readonly PromptExtRecord[];
  transcriptPath: string | undefined;
  heartbeat: number;
}

/**
 * Applies one journal session to the session model: its model (the session_start model, else the
 * first named), one prompt per turn at the journal's turn number with its last response, and the
 * tools and edits of each turn (edits outside the repository count as tool use only).
 */
export function replaySession(sessions: SessionModel, root: string, j: JournaledSession): void {
  const { agent, id, prompts, events, activity, promptExt, transcriptPath, heartbeat } = j;
  const models = events.map((e) => ('model' in e ? e.model : null));
  const model = models.find((m, i) => events[i].event === 'session_start' && m) ?? models.find((m) => m) ?? undefined;
  const byTurn = [...new Map(prompts.map((p) => [p.turn, p] as const)).values()].filter((p) => p.turn > 0).sort((a, b) => a.turn - b.turn);
  const responses = responsesByTurn(events);
  const recordIds = new Map(promptExt.filter((r) => r.recordId).map((r) => [r.turn, r.recordId as string] as const));
  const source = { ...(transcriptPath ? { transcriptPath } : {}), ...(heartbeat > 0 ? { fileTimeMs: heartbeat } : {}) };
  const base = { agent, sessionId: id };
  sessions.apply(
    { ...base, kind: 'session', ...(model ? { model } : {}), ...(byTurn.length > 0 ? { priorTurns: byTurn[0].turn - 1 } : {}) },
    source,
  );
  const applyActivity = (turn: number) => {
    for (const a of activity) {
      if (a.turn !== turn) continue;
      const timestamp = new Date(a.time).toISOString();
      // edits outside the repository were journaled without a path: they only count as tool use
      if (a.kind === 'tool' || !a.file) sessions.apply({ ...base, kind: 'tool', tool: a.tool, timestamp }, source);
      else
        sessions.apply(
          {
            ...base,
            kind: 'edit',
            tool: a.tool,
            file: path.join(root, ...a.file.split('/')),
            timestamp,
            ...(a.failed ? { failed: true } : {}),
          },
          source,
        );
    }
  };
  applyActivity(0);
  for (const p of byTurn) {
    sessions.reserveTurns(agent, id, p.turn - 1);
    const recordId = recordIds.get(p.turn);
    sessions.apply(
      { ...base, kind: 'prompt', text: p.prompt, ...(p.timestamp ? { timestamp: p.timestamp } : {}), ...(recordId ? { recordId } : {}) },
      source,
    );
    const response = responses.get(p.turn);
    if (response) sessions.apply({ ...base, kind: 'response', text: response, mergeKey: `journal:${p.turn}` }, source);
    applyActivity(p.turn);
  }
}

function isAgentId(v: string): v is AgentId {
  return (agentIds as readonly string[]).includes(v);
}

/** Digest per turn of the stored responses (what a grown response is compared with). */
function responseDigests(byTurn: Map<number, string>): Map<number, string> {
  return new Map([...byTurn].map(([turn, text]) => [turn, sha1(text)]));
}
