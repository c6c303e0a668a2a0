import { z } from 'zod';
import type { AgentEvent, AgentId, EditEvent, SessionEvent } from '../model/agentEvents';
import { isGitCommitCommand, isMutatingShellCommand } from './shellCommand';
import type { ParserState, ParserStats, SkipReason, TranscriptContext, TranscriptParser } from './parserTypes';
import type { TranscriptPathInfo } from '../transcripts/transcriptPathInfo';

/** Distributive Omit, so `Omit<AgentEvent, …>` keeps the union. */
export type EventInput<E extends AgentEvent = AgentEvent> = E extends AgentEvent
  ? Omit<E, 'agent' | 'sessionId'> & { sessionId?: string }
  : never;

const parserStateSchema = z
  .object({
    v: z.literal(1),
    sessionId: z.string().optional(),
    cwd: z.string().optional(),
    model: z.string().optional(),
    prompts: z.number().int().nonnegative(),
    sidechain: z.boolean().optional(),
    agentState: z.unknown().optional(),
  })
  .passthrough();

/** Result of handling one record: accepted, or skipped for a reason. */
export type RecordResult = 'ok' | SkipReason;

/**
 * Shared machinery of the agent parsers: JSON decoding with counted failures, session metadata
 * tracking (id, cwd, model → `session` events on first sight and on change), event emission
 * without `undefined` keys, and state save/restore.
 */
export abstract class BaseParser implements TranscriptParser {
  readonly stats: ParserStats = { records: 0, events: 0, skipped: { invalidJson: 0, schemaMismatch: 0, unknownType: 0 } };
  readonly mode: 'lines' | 'wholeFile';
  readonly ctx: TranscriptContext;
  protected sessionId: string | undefined;
  protected cwd: string | undefined;
  protected model: string | undefined;
  protected prompts = 0;
  /** Sidechain (subagent) file: prompts and responses are not emitted. */
  protected sidechain: boolean;
  private announced: { sessionId?: string; cwd?: string; model?: string } | undefined;
  /** Record ids of prompts already counted (an upserted prompt is not a new turn). */
  private countedPrompts = new Set<string>();
  private out: AgentEvent[] = [];

  /**
   * `pathInfo`: the agent's reading of a transcript path (its definition's); `wholeFile`: the
   * formats of this agent that are rewritten as a whole rather than appended to.
   */
  constructor(
    readonly agent: AgentId,
    ctx: TranscriptContext,
    pathInfo: (filePath: string) => TranscriptPathInfo,
    wholeFile: (info: TranscriptPathInfo) => boolean = () => false,
  ) {
    const info = pathInfo(ctx.filePath);
    this.ctx = {
      ...ctx,
      sessionIdHint: ctx.sessionIdHint ?? info.sessionId,
      sidechain: ctx.sidechain ?? info.sidechain,
    };
    this.sidechain = this.ctx.sidechain === true;
    this.mode = wholeFile(info) ? 'wholeFile' : 'lines';
    this.initSession();
  }

  private initSession(): void {
    this.sessionId = this.ctx.sessionIdHint;
    this.cwd = this.ctx.cwdHint;
    this.model = undefined;
    this.prompts = 0;
    this.announced = undefined;
    this.countedPrompts.clear();
  }

  push(line: string): AgentEvent[] {
    this.out = [];
    if (line.trim() === '') {
      // blank lines carry no record, but separate blocks in Cursor's `.txt` format
      this.handleBlankLine();
      return this.take();
    }
    // F7: a writer that lost a newline leaves two complete records on one line; both are read
    const records = (this.linesAreJson() && concatenatedJsonRecords(line)) || [line];
    for (const record of records) {
      const result = this.handleLine(record);
      if (result === 'ok') this.stats.records++;
      else this.stats.skipped[result]++;
    }
    return this.take();
  }

  /** Lines of this file are JSON records (Cursor's `.txt` lines are not). */
  protected linesAreJson(): boolean {
    return true;
  }

  parseWholeFile(text: string): AgentEvent[] {
    const events: AgentEvent[] = [];
    for (const line of text.split(/\r?\n/)) events.push(...this.push(line));
    return events;
  }

  flush(): AgentEvent[] {
    return [];
  }

  reset(): void {
    this.initSession();
    this.sidechain = this.ctx.sidechain === true;
    this.resetAgentState();
  }

  saveState(): ParserState {
    const s: ParserState = { v: 1, prompts: this.prompts };
    if (this.sessionId !== undefined) s.sessionId = this.sessionId;
    if (this.cwd !== undefined) s.cwd = this.cwd;
    if (this.model !== undefined) s.model = this.model;
    if (this.sidechain) s.sidechain = true;
    const agentState = this.saveAgentState();
    if (agentState !== undefined) s.agentState = agentState;
    return s;
  }

  inFlightText(): boolean {
    return false;
  }

  restoreState(state: unknown): AgentEvent[] {
    const parsed = parserStateSchema.safeParse(state);
    if (!parsed.success) return [];
    const s = parsed.data;
    this.sessionId = s.sessionId ?? this.sessionId;
    this.cwd = s.cwd ?? this.cwd;
    this.model = s.model ?? this.model;
    this.prompts = s.prompts;
    if (s.sidechain) this.sidechain = true;
    this.restoreAgentState(s.agentState);
    if (!this.sessionId) return [];
    const ev: SessionEvent = { kind: 'session', agent: this.agent, sessionId: this.sessionId, priorTurns: this.prompts };
    if (this.cwd !== undefined) ev.cwd = this.cwd;
    if (this.model !== undefined) ev.model = this.model;
    this.announced = { sessionId: this.sessionId, cwd: this.cwd, model: this.model };
    return [ev];
  }

  /** Handles one non-blank line; events go through emit(). */
  protected abstract handleLine(line: string): RecordResult;
  protected abstract resetAgentState(): void;
  protected handleBlankLine(): void {}
  protected saveAgentState(): unknown {
    return undefined;
  }
  protected restoreAgentState(_state: unknown): void {}

  /** JSON.parse that reports failure as undefined (the caller counts `invalidJson`). */
  protected parseJson(line: string): { value: unknown } | undefined {
    try {
      return { value: JSON.parse(line) as unknown };
    } catch {
      return undefined;
    }
  }

  /**
   * Updates session metadata and emits a `session` event when the session is first seen or its
   * id, cwd or model changed. Call before emitting the record's other events.
   */
  protected noteSession(update: { sessionId?: string; cwd?: string; model?: string; timestamp?: string }): void {
    // a sidechain file named after its parent (`<parent>/subagents/…`) stays under the parent id
    if (update.sessionId && !(this.sidechain && this.ctx.sessionIdHint)) this.sessionId = update.sessionId;
    if (update.cwd) this.cwd = update.cwd;
    if (update.model) this.model = update.model;
    if (!this.sessionId) return;
    const a = this.announced;
    if (a && a.sessionId === this.sessionId && a.cwd === this.cwd && a.model === this.model) return;
    this.announced = { sessionId: this.sessionId, cwd: this.cwd, model: this.model };
    this.emit({ kind: 'session', timestamp: update.timestamp, cwd: this.cwd, model: this.model });
  }

  /** Emits an event (session id filled in; keys with undefined values removed). */
  protected emit(e: EventInput): void {
    const sessionId = e.sessionId ?? this.sessionId;
    if (!sessionId) return;
    if ((e.kind === 'prompt' || e.kind === 'response') && this.sidechain) return;
    if (e.kind === 'prompt') this.countPrompt(e.recordId);
    const full: Record<string, unknown> = { ...e, agent: this.agent, sessionId };
    for (const k of Object.keys(full)) if (full[k] === undefined) delete full[k];
    // stable key order for readable fixtures: kind, agent, sessionId, timestamp, then the rest
    const { kind, agent, sessionId: sid, timestamp, ...rest } = full;
    const ordered: Record<string, unknown> = { kind, agent, sessionId: sid };
    if (timestamp !== undefined) ordered.timestamp = timestamp;
    Object.assign(ordered, rest);
    this.out.push(ordered as unknown as AgentEvent);
  }

  private countPrompt(recordId: string | undefined): void {
    if (recordId !== undefined) {
      if (this.countedPrompts.has(recordId)) return;
      this.countedPrompts.add(recordId);
      if (this.countedPrompts.size > 1024) this.countedPrompts.delete(this.countedPrompts.values().next().value!);
    }
    this.prompts++;
  }

  /** A rewind removed a prompt: it no longer counts as a turn (a re-appended id counts again). */
  protected uncountPrompt(recordId?: string): void {
    if (recordId !== undefined) {
      if (!this.countedPrompts.delete(recordId)) return;
    }
    if (this.prompts > 0) this.prompts--;
  }

  /** Emits tool + commit events for a shell command run by the agent. */
  protected emitShell(tool: string, command: string | undefined, toolUseId: string | undefined, timestamp: string | undefined): void {
    const mutating = command !== undefined && isMutatingShellCommand(command);
    this.emit({ kind: 'tool', timestamp, tool, toolUseId, mutating: mutating || undefined });
    if (command !== undefined && isGitCommitCommand(command)) this.emit({ kind: 'commit', timestamp, command });
  }

  /** Emits an edit event with the session's current model (no line counts when it failed). */
  protected emitEdit(e: Omit<EditEvent, 'agent' | 'sessionId' | 'kind'> & { sessionId?: string }): void {
    // a failed/rejected edit changed nothing: no line counts
    const counts = e.failed ? { added: undefined, removed: undefined } : {};
    this.emit({ kind: 'edit', ...e, ...counts, model: e.model ?? this.model });
  }

  private take(): AgentEvent[] {
    const events = this.out;
    this.out = [];
    this.stats.events += events.length;
    return events;
  }

  /** For subclasses that produce events outside push() (flush, whole-file parsing). */
  protected collect(fn: () => void): AgentEvent[] {
    this.out = [];
    fn();
    return this.take();
  }
}

/**
 * A line holding several complete JSON objects/arrays one after the other (`{…}{…}`, whitespace
 * allowed between them): the records, in order. Undefined for anything else (one record, a cut or
 * invalid line), so the caller reads the line as it is. Strings are skipped with their escapes, so
 * a `}{` inside a string does not split.
 */
export function concatenatedJsonRecords(line: string): string[] | undefined {
  if (!/[}\]]\s*[{[]/.test(line)) return undefined;
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (depth === 0) {
      if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
      if (c !== 0x7b && c !== 0x5b) return undefined;
      start = i;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) out.push(line.slice(start, i + 1));
    }
  }
  return depth === 0 && !inString && out.length > 1 ? out : undefined;
}

/** Text of a string, or of `[{text}]` / `[{type:'text', text}]` parts joined by `separator`. */
export function textOfParts(content: unknown, separator = '\n'): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const p of content) {
    if (typeof p === 'string') texts.push(p);
    else if (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string') texts.push((p as { text: string }).text);
  }
  return texts.length ? texts.join(separator) : undefined;
}

/** A string field, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
