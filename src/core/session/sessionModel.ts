import type { AgentEvent, AgentId } from '../model/agentEvents';
import { addBounded, detached, hashKey } from '../collections';
import type { Clock } from '../ports';

/**
 * In-memory model of agent sessions built from normalized AgentEvents (one per agent + session
 * id): metadata, turns (a turn starts at each prompt) with merged response text, edits, tools and
 * files, a heartbeat and an active/idle state. Pure and deterministic: time comes from the
 * injected Clock, events carry their own timestamps.
 *
 * Turn numbering is 1-based. Activity before the first prompt (a transcript read from the middle,
 * a subagent file) goes to turn 0. A `session` event with `priorTurns` (a tailer resumed from a
 * saved offset) makes the next prompt turn `priorTurns + 1`.
 */

/** One edit of a turn. */
export interface TurnEdit {
  file: string;
  tool: string;
  toolUseId?: string;
  /** Epoch ms of the edit (record timestamp, else file time, else clock time). */
  time: number;
  added?: number;
  removed?: number;
  failed?: boolean;
  deleted?: boolean;
  movedFrom?: string;
}

export interface SessionTurn {
  /** 1-based turn number (0: activity before the first prompt). */
  index: number;
  /** Prompt record id when the format has one (upserts and rewinds refer to it). */
  promptId?: string;
  prompt?: string;
  /** ISO timestamp of the prompt record, when it had one. */
  timestamp?: string;
  /** Epoch ms the turn started. */
  time: number;
  model?: string;
  /** Response text of the turn: segments joined by `\n` (segments with a mergeKey are replaced, not appended). */
  readonly response: string;
  /** True for older turns whose response was cut to save memory (see compactAfterTurns): not to be journaled again. */
  readonly compacted?: boolean;
  edits: TurnEdit[];
  /** Distinct tool names in order of first use (edit tools included). */
  tools: string[];
  /** Distinct files changed by successful edits, in order of first change. */
  files: string[];
  /** `git commit` commands run by the agent in this turn. */
  commits: string[];
}

export interface AgentSession {
  /** `${agent}:${id}` */
  key: string;
  agent: AgentId;
  id: string;
  cwd?: string;
  model?: string;
  /** Transcript files this session was read from (main file first, subagent files after). */
  transcriptPaths: string[];
  turns: SessionTurn[];
  /** Epoch ms of the newest record. */
  heartbeat: number;
  /** false once no record arrived for `idleAfterMs`. */
  active: boolean;
}

/** Where an event came from (all optional). */
export interface EventSource {
  /** Stable event key (file + byte offset + index): events with a key already applied are ignored. */
  key?: string;
  transcriptPath?: string;
  /** Modification time of the transcript (epoch ms): the time of records without a timestamp. */
  fileTimeMs?: number;
}

export interface SessionChange {
  /** `added`: first event of a session; `updated`: new content; `activity`: active/idle flipped. */
  kind: 'added' | 'updated' | 'activity';
  session: Readonly<AgentSession>;
}

export interface SessionModelOptions {
  clock: Clock;
  /** A session becomes idle this long after its newest record. Default 5 minutes. */
  idleAfterMs?: number;
  /** Oldest turns beyond this count are dropped (indices are kept). Default 500. */
  maxTurnsPerSession?: number;
}

/** Event keys remembered per session for de-duplication (the newest half is kept when exceeded). */
const maxSeenKeys = 1024;

/**
 * Turns this many prompts behind the newest are compacted: their response is kept as its first
 * `compactedResponseChars` characters (what the timeline shows is shorter), segment texts are
 * dropped (their keys stay for merges and rewinds), the prompt no longer shares memory with the
 * record it was cut from. Only the newest turns' responses still grow and are journaled.
 */
const compactAfterTurns = 8;
export const compactedResponseChars = 2000;

interface Segment {
  key?: string;
  text: string;
}

class Turn implements SessionTurn {
  /** Set once the turn is compacted: its response, cut (see compactAfterTurns). */
  private frozenResponse: string | undefined;
  promptId?: string;
  prompt?: string;
  timestamp?: string;
  model?: string;
  edits: TurnEdit[] = [];
  tools: string[] = [];
  files: string[] = [];
  commits: string[] = [];
  segments: Segment[] = [];
  constructor(
    public index: number,
    public time: number,
  ) {}
  get response(): string {
    return this.frozenResponse ?? this.segments.map((s) => s.text).join('\n');
  }

  /** True once compacted: the response is cut and no longer changes. */
  get compacted(): boolean {
    return this.frozenResponse !== undefined;
  }

  compact(): void {
    if (this.frozenResponse !== undefined) return;
    const r = this.response;
    this.frozenResponse = detached(r.length > compactedResponseChars ? r.slice(0, compactedResponseChars) : r);
    this.segments = this.segments.filter((x) => x.key !== undefined).map((x) => ({ key: x.key, text: '' }));
    if (this.prompt !== undefined) this.prompt = detached(this.prompt);
  }
}

interface SessionState extends AgentSession {
  turns: Turn[];
  /** Turn number of the last turn before the first one held (resume, dropped turns). */
  turnBase: number;
  /** hashKey() of the event keys seen (numbers: a key is a path-sized string). */
  seenKeys: Set<number>;
}

export class SessionModel {
  private readonly sessions = new Map<string, SessionState>();
  private readonly listeners = new Set<(change: SessionChange) => void>();
  private readonly clock: Clock;
  private readonly idleAfterMs: number;
  private readonly maxTurns: number;

  constructor(opts: SessionModelOptions) {
    this.clock = opts.clock;
    this.idleAfterMs = opts.idleAfterMs ?? 5 * 60_000;
    this.maxTurns = opts.maxTurnsPerSession ?? 500;
  }

  /** Subscribes to session changes; returns a disposable. */
  onDidChange(listener: (change: SessionChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Applies one event; returns false when it was a duplicate (same source key). */
  apply(event: AgentEvent, source: EventSource = {}): boolean {
    const r = this.applyQuiet(event, source);
    if (r) this.fire({ kind: r.added ? 'added' : 'updated', session: r.session });
    return r !== undefined;
  }

  /** Applies events in order, notifying once per changed session. Returns how many were applied. */
  applyAll(items: readonly { event: AgentEvent; source?: EventSource }[]): number {
    const changed = new Map<string, { added: boolean; session: SessionState }>();
    let applied = 0;
    for (const { event, source } of items) {
      const r = this.applyQuiet(event, source ?? {});
      if (!r) continue;
      applied++;
      const prev = changed.get(r.session.key);
      changed.set(r.session.key, { added: (prev?.added ?? false) || r.added, session: r.session });
    }
    for (const c of changed.values()) this.fire({ kind: c.added ? 'added' : 'updated', session: c.session });
    return applied;
  }

  get(agent: AgentId, id: string): Readonly<AgentSession> | undefined {
    return this.sessions.get(`${agent}:${id}`);
  }

  /** All sessions, in order of first appearance. */
  list(): readonly Readonly<AgentSession>[] {
    return [...this.sessions.values()];
  }

  /** Sessions whose newest record is younger than idleAfterMs, newest first. */
  activeSessions(): readonly Readonly<AgentSession>[] {
    return this.list()
      .filter((s) => s.active)
      .sort((a, b) => b.heartbeat - a.heartbeat);
  }

  /** Re-evaluates active/idle against the clock (call periodically); notifies flips. */
  refreshActivity(): void {
    for (const s of this.sessions.values()) {
      const active = this.isActive(s.heartbeat);
      if (active !== s.active) {
        s.active = active;
        this.fire({ kind: 'activity', session: s });
      }
    }
  }

  /**
   * Makes the next prompt of the session get a turn number above `turn`, so the model's numbering
   * stays equal to an external counter that never goes back (the session journal's `turn`, which
   * keeps counting after a rewind or prompts written by another tool). No-op for unknown sessions
   * and when the numbering is already past `turn`.
   */
  reserveTurns(agent: AgentId, id: string, turn: number): void {
    const s = this.sessions.get(`${agent}:${id}`);
    if (s && Number.isFinite(turn) && turn > s.turnBase) s.turnBase = Math.trunc(turn);
  }

  /** Forgets a session. */
  remove(agent: AgentId, id: string): void {
    this.sessions.delete(`${agent}:${id}`);
  }

  private isActive(heartbeat: number): boolean {
    return this.clock.now() - heartbeat < this.idleAfterMs;
  }

  private fire(change: SessionChange): void {
    for (const l of [...this.listeners]) l(change);
  }

  private applyQuiet(event: AgentEvent, source: EventSource): { session: SessionState; added: boolean } | undefined {
    const key = `${event.agent}:${event.sessionId}`;
    let s = this.sessions.get(key);
    const added = s === undefined;
    const seen = source.key !== undefined ? hashKey(source.key) : undefined;
    if (seen !== undefined && s?.seenKeys.has(seen)) return undefined;
    const time = this.timeOf(event, source);
    if (!s) {
      s = {
        key,
        agent: event.agent,
        id: event.sessionId,
        transcriptPaths: [],
        turns: [],
        heartbeat: time,
        active: false,
        turnBase: 0,
        seenKeys: new Set(),
      };
      this.sessions.set(key, s);
    }
    // re-deliveries are of recent events (the recorder's AppliedKeys guards the journal for good):
    // keep the newest keys only, so memory does not grow with the length of a session
    if (seen !== undefined) addBounded(s.seenKeys, seen, maxSeenKeys);
    if (source.transcriptPath !== undefined && !s.transcriptPaths.includes(source.transcriptPath))
      s.transcriptPaths.push(source.transcriptPath);
    s.heartbeat = Math.max(s.heartbeat, time);
    s.active = this.isActive(s.heartbeat);
    this.applyToSession(s, event, time);
    return { session: s, added };
  }

  private timeOf(event: AgentEvent, source: EventSource): number {
    if (event.timestamp !== undefined) {
      const t = Date.parse(event.timestamp);
      if (Number.isFinite(t)) return t;
    }
    return source.fileTimeMs ?? this.clock.now();
  }

  private applyToSession(s: SessionState, e: AgentEvent, time: number): void {
    switch (e.kind) {
      case 'session':
        if (e.cwd !== undefined) s.cwd = e.cwd;
        if (e.model !== undefined) s.model = e.model;
        if (e.priorTurns !== undefined && s.turns.every((t) => t.index === 0)) s.turnBase = Math.max(s.turnBase, e.priorTurns);
        return;
      case 'prompt': {
        if (e.model !== undefined) s.model = e.model;
        const existing = e.recordId !== undefined ? s.turns.find((t) => t.index > 0 && t.promptId === e.recordId) : undefined;
        if (existing) {
          existing.prompt = e.text;
          return;
        }
        const last = s.turns[s.turns.length - 1];
        const turn = new Turn(Math.max(last?.index ?? 0, s.turnBase) + 1, time);
        turn.prompt = e.text;
        turn.promptId = e.recordId;
        turn.timestamp = e.timestamp;
        turn.model = e.model ?? s.model;
        s.turns.push(turn);
        if (s.turns.length > this.maxTurns) s.turns.splice(0, s.turns.length - this.maxTurns);
        const old = s.turns[s.turns.length - 1 - compactAfterTurns];
        if (old && old.index > 0) old.compact();
        return;
      }
      case 'response': {
        if (e.model !== undefined) s.model = e.model;
        if (e.mergeKey !== undefined) {
          for (let i = s.turns.length - 1; i >= 0; i--) {
            const seg = s.turns[i].segments.find((x) => x.key === e.mergeKey);
            if (seg) {
              // a compacted turn keeps its cut response (it is no longer journaled)
              if (!s.turns[i].compacted) seg.text = e.text;
              return;
            }
          }
        }
        this.currentTurn(s, time).segments.push({ key: e.mergeKey, text: e.text });
        return;
      }
      case 'edit': {
        const turn = this.currentTurn(s, time);
        const edit: TurnEdit = { file: e.file, tool: e.tool, time };
        if (e.toolUseId !== undefined) edit.toolUseId = e.toolUseId;
        if (e.added !== undefined) edit.added = e.added;
        if (e.removed !== undefined) edit.removed = e.removed;
        if (e.failed) edit.failed = true;
        if (e.deleted) edit.deleted = true;
        if (e.movedFrom !== undefined) edit.movedFrom = e.movedFrom;
        turn.edits.push(edit);
        addOnce(turn.tools, e.tool);
        if (!e.failed) {
          if (e.movedFrom !== undefined) addOnce(turn.files, e.movedFrom);
          addOnce(turn.files, e.file);
        }
        return;
      }
      case 'tool':
        addOnce(this.currentTurn(s, time).tools, e.tool);
        return;
      case 'commit':
        this.currentTurn(s, time).commits.push(e.command);
        return;
      case 'rewind':
        this.rewind(s, e.toRecordId, e.turns);
        return;
    }
  }

  private currentTurn(s: SessionState, time: number): Turn {
    const last = s.turns[s.turns.length - 1];
    if (last) return last;
    const t = new Turn(0, time);
    s.turns.push(t);
    return t;
  }

  /**
   * `toRecordId`: drops the turn whose prompt has that id and every later turn, or — when the id
   * names a response segment — that segment, the rest of its turn's segments and later turns;
   * an unknown id clears all turns (Gemini `$rewindTo` semantics). `turns`: drops the last N prompts.
   */
  private rewind(s: SessionState, toRecordId: string | undefined, turns: number | undefined): void {
    if (toRecordId !== undefined) {
      const at = s.turns.findIndex((t) => t.index > 0 && t.promptId === toRecordId);
      if (at >= 0) {
        s.turns.splice(at);
        return;
      }
      for (let i = s.turns.length - 1; i >= 0; i--) {
        const segAt = s.turns[i].segments.findIndex((x) => x.key === toRecordId);
        if (segAt >= 0) {
          s.turns[i].segments.splice(segAt);
          s.turns.splice(i + 1);
          return;
        }
      }
      s.turns.splice(0);
      return;
    }
    for (let n = turns ?? 0; n > 0; n--) {
      const at = findLastIndex(s.turns, (t) => t.index > 0);
      if (at < 0) break;
      s.turns.splice(at);
    }
  }
}

function addOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

function findLastIndex<T>(list: T[], pred: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (pred(list[i])) return i;
  return -1;
}
