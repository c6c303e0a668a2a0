import { responsesByTurn, type JournalPair, type JournalSessionData } from '../model/journalPairs';
import type { SessionPrompts } from './noteBuilder';
import { consumedStateFromMarkers, resolvePrimaryTurns, type PromptCandidate } from './promptWindow';

/**
 * The note builder's view of one session for one commit (noteBuilder.ts):
 * one prompt-window row per journaled prompt, with
 * - `response`: the last stored response of the turn (events.jsonl), null when none;
 * - `filesTouched`: the files of the session's pairs used by this commit, for that turn;
 * - `tools`: the turn's edit tools (change lines and our activity records), omitted without edits;
 * - `isPrimary`: the turn contributed AI lines to the commit (`contributingKeys` of the
 *   attribution); without any contributing turn of this session, the latest turn touching each of
 *   its committed files (the CLI's file-level rule, resolvePrimaryTurns);
 * - `hasEdits`: the turn still had unconsumed edits (any file) before this commit.
 * The window's consumed state comes from the session's `committed_pairs.jsonl` and its upper turn
 * is the session's current turn, as in the CLI.
 */
export function sessionRows(
  snap: JournalSessionData,
  commitPairs: readonly JournalPair[],
  contributingKeys: readonly string[],
): SessionPrompts {
  const prefix = `${snap.agent}:${snap.id}:`;
  const contributing = contributingKeys.filter((k) => k.startsWith(prefix)).map((k) => Number(k.slice(prefix.length)));
  const fileTurns = new Map<number, string[]>();
  for (const p of [...commitPairs].sort((a, b) => a.time - b.time)) {
    const list = fileTurns.get(p.turn) ?? [];
    if (!list.includes(p.file)) list.push(p.file);
    fileTurns.set(p.turn, list);
  }
  const primary = resolvePrimaryTurns(
    contributing.filter((t) => Number.isInteger(t)),
    fileTurns,
  );
  const editTurns = new Set(snap.pairs.map((p) => p.turn));
  const responses = responsesByTurn(snap.events);

  const rows: PromptCandidate[] = snap.prompts.map((p) => {
    const row: PromptCandidate = {
      key: `${prefix}${p.turn}`,
      agent: snap.agent,
      sessionId: snap.id,
      turn: p.turn,
      prompt: p.prompt,
      response: responses.get(p.turn) ?? null,
      filesTouched: fileTurns.get(p.turn) ?? [],
      isPrimary: primary.has(p.turn),
      hasEdits: editTurns.has(p.turn),
    };
    if (p.prompt_id) row.promptId = p.prompt_id;
    if (p.timestamp) row.timestamp = p.timestamp;
    const tools = snap.toolsByTurn.get(p.turn);
    if (tools && tools.length > 0) row.tools = tools;
    return row;
  });

  return {
    agent: snap.agent,
    sessionId: snap.id,
    modelEvents: snap.events
      .filter((e) => e.event === 'session_start' || e.event === 'prompt')
      .map((e) => ({ sessionStart: e.event === 'session_start', model: 'model' in e ? e.model : null })),
    rows,
    consumed: consumedStateFromMarkers(snap.committed),
    upperTurn: snap.turn,
  };
}
