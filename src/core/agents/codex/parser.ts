// Long file: Codex CLI's rollout format: every record type of four format generations (0.47 to 0.145) and the apply_patch/shell edit tools in one parser, so one agent stays one file.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { normalizeAgentPath } from '../agentPath';
import { parseApplyPatch, patchTextOf } from '../applyPatch';
import { BaseParser, type RecordResult, str } from '../baseParser';
import { lineCount, unifiedDiffStats } from '../editStats';
import { sanitizeCodexPrompt } from '../promptSanitizer';
import { shellCommandText } from '../shellCommand';
import type { TranscriptContext } from '../parserTypes';
import { codexPathInfo } from './pathInfo';

/**
 * Codex CLI rollout JSONL (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<uuid>.jsonl`,
 * docs/transcripts.md §3): `{timestamp, type, payload}` lines.
 *
 * - Session: `session_meta` (id, cwd), `turn_context` (cwd and model per turn).
 * - Prompts: `event_msg user_message` is preferred; `response_item` user messages are used until the
 *   first `user_message` is seen (older files have none), injected items (AGENTS.md, environment
 *   context, developer role…) dropped, IDE wrappers cut after `## My request for Codex:`. The two
 *   mirrors of one message are paired by text, so a prompt is emitted once; when they differ the
 *   `user_message` text replaces the first one (same `recordId`).
 * - Responses: `response_item` assistant messages and `event_msg agent_message` paired by text.
 * - Edits: `apply_patch` (custom_tool_call / function_call / legacy shell argv) → one edit per file;
 *   `patch_apply_end.changes` wins when present (also for code-mode patches with no matching call),
 *   deduplicated with the call by `call_id`; failed/declined patches are marked failed. Relative
 *   paths are resolved against the turn cwd.
 * - Shell calls → tool (+ commit) events; `thread_rolled_back` → rewind.
 * - Legacy files without the envelope (bare meta object, `record_type` lines, bare items) are read too.
 */

const envelope = z.object({ timestamp: z.string().optional(), type: z.string(), payload: z.record(z.unknown()) }).passthrough();

const sessionMeta = z
  .object({ id: z.string().optional(), session_id: z.string().optional(), cwd: z.string().optional(), source: z.unknown().optional() })
  .passthrough();
const turnContext = z.object({ cwd: z.string().optional(), model: z.string().optional() }).passthrough();
const messageItem = z
  .object({ type: z.literal('message'), role: z.string(), content: z.union([z.string(), z.array(z.unknown())]) })
  .passthrough();
const callItem = z
  .object({
    type: z.enum(['function_call', 'custom_tool_call']),
    name: z.string(),
    call_id: z.string().optional(),
    id: z.string().optional(),
    arguments: z.unknown().optional(),
    input: z.unknown().optional(),
  })
  .passthrough();
const callOutputItem = z
  .object({ type: z.enum(['function_call_output', 'custom_tool_call_output']), call_id: z.string(), output: z.unknown().optional() })
  .passthrough();
const localShellItem = z
  .object({ type: z.literal('local_shell_call'), call_id: z.string().optional(), action: z.record(z.unknown()).optional() })
  .passthrough();
const patchApplyEnd = z
  .object({
    call_id: z.string().optional(),
    success: z.boolean().optional(),
    status: z.string().optional(),
    changes: z.record(z.unknown()).optional(),
  })
  .passthrough();

const responseItemTypes = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
  'compaction',
  'context_compaction',
  'ghost_snapshot',
  'tool_search_call',
  'tool_search_output',
  'image_generation_call',
  'other',
]);

/**
 * `event_msg` types this parser knows (most carry nothing it needs). Others are counted as
 * `unknownType` (docs/transcripts.md, failure class F8): `undo_completed`, for one, reverts the
 * agent's last changes, which nothing reads yet.
 */
const eventMsgTypes = new Set([
  'user_message',
  'agent_message',
  'agent_message_delta',
  'agent_reasoning',
  'agent_reasoning_delta',
  'agent_reasoning_raw_content',
  'agent_reasoning_raw_content_delta',
  'agent_reasoning_section_break',
  'task_started',
  'task_complete',
  'turn_started',
  'turn_complete',
  'turn.completed',
  'turn_aborted',
  'turn_diff',
  'token_count',
  'exec_command_begin',
  'exec_command_end',
  'exec_command_output_delta',
  'exec_approval_request',
  'apply_patch_approval_request',
  'patch_apply_begin',
  'patch_apply_end',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'web_search_begin',
  'web_search_end',
  'view_image_tool_call',
  'image_generation_end',
  'dynamic_tool_call_request',
  'dynamic_tool_call_response',
  'entered_review_mode',
  'exited_review_mode',
  'context_compacted',
  'thread_rolled_back',
  'thread_name_updated',
  'thread_goal_updated',
  'thread_settings_applied',
  'item_started',
  'item_completed',
  'plan_update',
  'background_event',
  'stream_error',
  'error',
  'warning',
  'guardian_assessment',
  'sub_agent_activity',
  'collab_agent_spawn_end',
  'collab_agent_interaction_end',
  'collab_waiting_end',
  'collab_close_end',
  'session_configured',
  'shutdown_complete',
]);

/** Two `user_message` events with the same text this close together are one message written twice (F3). */
const duplicateWindowMs = 1000;

const envelopeKinds = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

const shellTools = new Set(['shell', 'exec_command', 'container.exec', 'local_shell', 'shell_command', 'unified_exec']);

const stateSchema = z
  .object({
    userMessageSeen: z.boolean(),
    promptSeq: z.number().int().nonnegative(),
    pendingPatches: z
      .array(z.tuple([z.string(), z.object({ patch: z.string(), cwd: z.string().optional(), timestamp: z.string().optional() })]))
      .optional(),
    doneCalls: z.array(z.string()).optional(),
    lastPromptRecordId: z.string().optional(),
    itemPrompts: z.array(z.object({ hash: z.string(), recordId: z.string() })).optional(),
    itemTexts: z.array(z.string()).optional(),
    eventTexts: z.array(z.string()).optional(),
    metaSeen: z.boolean().optional(),
    inReview: z.boolean().optional(),
    reviewHash: z.string().optional(),
  })
  .passthrough();
const maxDoneCalls = 256;

interface PendingPatch {
  patch: string;
  cwd?: string;
  timestamp?: string;
}

const maxQueue = 16;

export class CodexParser extends BaseParser {
  /** An `event_msg user_message` was seen: response_item user messages are only mirrors from now on. */
  private userMessageSeen = false;
  private promptSeq = 0;
  private lastPromptRecordId: string | undefined;
  /** Prompts emitted from response_item (text hash), awaiting their `user_message` mirror. */
  private itemPrompts: { hash: string; recordId: string }[] = [];
  /** Hashes of assistant texts emitted from one source, awaiting the mirror from the other. */
  private itemTexts: string[] = [];
  private eventTexts: string[] = [];
  private pendingPatches = new Map<string, PendingPatch>();
  /** call ids whose edits were emitted (from the call, its output or patch_apply_end). */
  private doneCalls = new Set<string>();
  private first = true;
  /** The file's first `session_meta` was read: it names the session (later ones are copied history). */
  private metaSeen = false;
  /**
   * `entered_review_mode` (`/review`) was read and its generated instruction not yet: the next
   * `user_message` is that instruction (written twice), not a prompt. A new turn's `turn_context`
   * or `exited_review_mode` ends the wait.
   */
  private inReview = false;
  /** Hash of the review instruction just skipped (its second copy is skipped too). */
  private reviewHash: string | undefined;
  /** The last `user_message` event (text hash and time), to drop the same message written twice. */
  private lastEventPrompt: { hash: string; ms: number } | undefined;

  constructor(ctx: TranscriptContext) {
    super('codex', ctx, codexPathInfo);
  }

  protected resetAgentState(): void {
    this.userMessageSeen = false;
    this.promptSeq = 0;
    this.lastPromptRecordId = undefined;
    this.itemPrompts = [];
    this.itemTexts = [];
    this.eventTexts = [];
    this.pendingPatches.clear();
    this.doneCalls.clear();
    this.first = true;
    this.metaSeen = false;
    this.inReview = false;
    this.reviewHash = undefined;
    this.lastEventPrompt = undefined;
  }

  protected override saveAgentState(): unknown {
    return {
      userMessageSeen: this.userMessageSeen,
      promptSeq: this.promptSeq,
      lastPromptRecordId: this.lastPromptRecordId,
      itemPrompts: this.itemPrompts,
      itemTexts: this.itemTexts,
      eventTexts: this.eventTexts,
      // never the patch text (the state is persisted): a patch whose output comes after a resume is a gap
      pendingPatches: [],
      doneCalls: [...this.doneCalls].slice(-maxDoneCalls),
      metaSeen: this.metaSeen || undefined,
      inReview: this.inReview || undefined,
      reviewHash: this.reviewHash,
    };
  }

  override inFlightText(): boolean {
    return this.pendingPatches.size > 0;
  }

  protected override restoreAgentState(state: unknown): void {
    const p = stateSchema.safeParse(state);
    if (!p.success) return;
    this.userMessageSeen = p.data.userMessageSeen;
    this.promptSeq = p.data.promptSeq;
    this.lastPromptRecordId = p.data.lastPromptRecordId;
    this.itemPrompts = p.data.itemPrompts ?? [];
    this.itemTexts = p.data.itemTexts ?? [];
    this.eventTexts = p.data.eventTexts ?? [];
    this.pendingPatches = new Map(p.data.pendingPatches ?? []);
    this.doneCalls = new Set(p.data.doneCalls ?? []);
    this.metaSeen = p.data.metaSeen === true || this.sessionId !== undefined;
    this.inReview = p.data.inReview === true;
    this.reviewHash = p.data.reviewHash;
    this.first = false;
  }

  protected handleLine(line: string): RecordResult {
    const json = this.parseJson(line);
    if (!json) return 'invalidJson';
    const value = json.value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return 'schemaMismatch';
    const wasFirst = this.first;
    this.first = false;
    const env = envelope.safeParse(value);
    if (env.success) {
      const { type, payload, timestamp } = env.data;
      switch (type) {
        case 'session_meta':
          return this.handleSessionMeta(payload, timestamp);
        case 'turn_context': {
          const t = turnContext.safeParse(payload);
          if (!t.success) return 'schemaMismatch';
          this.inReview = false;
          this.noteSession({ cwd: t.data.cwd, model: t.data.model, timestamp });
          return 'ok';
        }
        case 'response_item':
          return this.handleItem(payload, timestamp);
        case 'event_msg':
          return this.handleEventMsg(payload, timestamp);
        case 'compacted':
          return 'ok';
        default:
          return 'unknownType';
      }
    }
    // legacy rollout without the envelope
    const o = value as Record<string, unknown>;
    if (typeof o.type === 'string' && envelopeKinds.has(o.type)) return 'schemaMismatch';
    if ('record_type' in o) return 'ok';
    if (typeof o.type === 'string') {
      if (responseItemTypes.has(o.type)) return this.handleItem(o, str(o.timestamp));
      return 'unknownType';
    }
    if (wasFirst && typeof o.id === 'string') return this.handleSessionMeta(o, str(o.timestamp));
    return 'schemaMismatch';
  }

  private handleSessionMeta(payload: unknown, timestamp: string | undefined): RecordResult {
    const m = sessionMeta.safeParse(payload);
    if (!m.success) return 'schemaMismatch';
    // a resumed or forked rollout repeats session_meta lines (its own, its parent's, its
    // subagents'): the first one names this file's session and says whether it is a subagent's
    if (this.metaSeen) {
      this.noteSession({ cwd: m.data.id === this.sessionId ? m.data.cwd : undefined, timestamp });
      return 'ok';
    }
    this.metaSeen = true;
    const source = m.data.source;
    if (source && typeof source === 'object' && 'subagent' in source) this.sidechain = true;
    this.noteSession({ sessionId: m.data.id ?? m.data.session_id, cwd: m.data.cwd, timestamp });
    return 'ok';
  }

  private handleItem(payload: Record<string, unknown>, ts: string | undefined): RecordResult {
    this.noteSession({ timestamp: ts });
    switch (payload.type) {
      case 'message': {
        const m = messageItem.safeParse(payload);
        if (!m.success) return 'schemaMismatch';
        const text = contentText(m.data.content);
        if (text === undefined) return 'ok';
        if (m.data.role === 'user') this.itemPrompt(text, ts);
        else if (m.data.role === 'assistant') this.assistantText(text, ts, 'item');
        return 'ok';
      }
      case 'function_call':
      case 'custom_tool_call': {
        const c = callItem.safeParse(payload);
        if (!c.success) return 'schemaMismatch';
        this.handleCall(c.data.name, c.data.call_id ?? c.data.id, c.data.type === 'custom_tool_call' ? c.data.input : c.data.arguments, ts);
        return 'ok';
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const o = callOutputItem.safeParse(payload);
        if (!o.success) return 'schemaMismatch';
        const pending = this.pendingPatches.get(o.data.call_id);
        if (pending && !this.doneCalls.has(o.data.call_id)) {
          this.pendingPatches.delete(o.data.call_id);
          this.doneCalls.add(o.data.call_id);
          this.emitPatch(pending.patch, o.data.call_id, ts, pending.cwd, outputFailed(o.data.output));
        }
        return 'ok';
      }
      case 'local_shell_call': {
        const l = localShellItem.safeParse(payload);
        if (!l.success) return 'schemaMismatch';
        this.emitShell('local_shell', shellCommandText(l.data.action?.command), l.data.call_id, ts);
        return 'ok';
      }
      case 'web_search_call':
        this.emit({ kind: 'tool', timestamp: ts, tool: 'web_search' });
        return 'ok';
      default:
        return 'ok';
    }
  }

  private handleCall(name: string, callId: string | undefined, rawArgs: unknown, ts: string | undefined): void {
    const args = typeof rawArgs === 'string' ? (tryJson(rawArgs) ?? rawArgs) : rawArgs;
    const argObj = (args && typeof args === 'object' && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
    const command = shellCommandText(argObj.command) ?? str(argObj.cmd);
    const isShellPatch = shellTools.has(name) && Array.isArray(argObj.command) && (argObj.command as unknown[])[0] === 'apply_patch';
    if (name === 'apply_patch' || isShellPatch) {
      const patch = patchTextOf(isShellPatch ? argObj.command : args);
      if (!patch || (callId !== undefined && this.doneCalls.has(callId))) return;
      if (callId === undefined) {
        this.emitPatch(patch, undefined, ts, this.cwd, false);
        return;
      }
      this.pendingPatches.set(callId, { patch, cwd: this.cwd, timestamp: ts });
      return;
    }
    if (shellTools.has(name)) {
      this.emitShell(name, command, callId, ts);
      return;
    }
    this.emit({ kind: 'tool', timestamp: ts, tool: name, toolUseId: callId });
  }

  private handleEventMsg(payload: Record<string, unknown>, ts: string | undefined): RecordResult {
    switch (payload.type) {
      case 'user_message': {
        const message = str(payload.message);
        if (message === undefined) return 'schemaMismatch';
        // `/review` writes its generated instruction as user messages (twice): not a prompt
        const h = hash(message);
        if (this.inReview || h === this.reviewHash) {
          this.inReview = false;
          this.reviewHash = h;
          this.userMessageSeen = true;
          return 'ok';
        }
        this.reviewHash = undefined;
        this.eventPrompt(message, ts);
        return 'ok';
      }
      case 'entered_review_mode':
        this.inReview = true;
        this.reviewHash = undefined;
        return 'ok';
      case 'exited_review_mode':
        this.inReview = false;
        this.reviewHash = undefined;
        return 'ok';
      case 'agent_message': {
        const message = str(payload.message);
        if (message === undefined) return 'schemaMismatch';
        this.noteSession({ timestamp: ts });
        this.assistantText(message, ts, 'event');
        return 'ok';
      }
      case 'patch_apply_end': {
        const p = patchApplyEnd.safeParse(payload);
        if (!p.success) return 'schemaMismatch';
        this.noteSession({ timestamp: ts });
        this.patchApplyEnd(p.data, ts);
        return 'ok';
      }
      case 'thread_rolled_back': {
        const n = payload.num_turns;
        this.noteSession({ timestamp: ts });
        this.emit({ kind: 'rewind', timestamp: ts, turns: typeof n === 'number' ? n : undefined });
        for (let i = 0; typeof n === 'number' && i < n; i++) this.uncountPrompt();
        return 'ok';
      }
      case 'task_complete':
        this.flushPendingPatches();
        return 'ok';
      default:
        return typeof payload.type === 'string' && eventMsgTypes.has(payload.type) ? 'ok' : 'unknownType';
    }
  }

  // ─── prompts and responses ────────────────────────────────────────────────────────────────────

  private itemPrompt(raw: string, ts: string | undefined): void {
    if (this.userMessageSeen) return;
    const text = sanitizeCodexPrompt(raw);
    if (text === undefined) return;
    const recordId = this.newPrompt(text, ts);
    this.itemPrompts.push({ hash: hash(text), recordId });
    if (this.itemPrompts.length > maxQueue) this.itemPrompts.shift();
  }

  private eventPrompt(raw: string, ts: string | undefined): void {
    this.userMessageSeen = true;
    this.noteSession({ timestamp: ts });
    const text = sanitizeCodexPrompt(raw);
    if (text === undefined) return;
    const h = hash(text);
    // the same message written twice a few ms apart (F3) counts once
    const ms = ts !== undefined ? Date.parse(ts) : NaN;
    const last = this.lastEventPrompt;
    this.lastEventPrompt = Number.isFinite(ms) ? { hash: h, ms } : undefined;
    if (last && last.hash === h && Number.isFinite(ms) && Math.abs(ms - last.ms) <= duplicateWindowMs) return;
    const match = this.itemPrompts.findIndex((p) => p.hash === h);
    if (match >= 0) {
      this.itemPrompts.splice(0, match + 1);
      return;
    }
    const lastItem = this.itemPrompts[this.itemPrompts.length - 1];
    this.itemPrompts = [];
    if (lastItem && lastItem.recordId === this.lastPromptRecordId) {
      // the mirror of the prompt just emitted, with cleaner text: replace it
      this.emit({ kind: 'prompt', timestamp: ts, text, recordId: lastItem.recordId, model: this.model });
      return;
    }
    this.newPrompt(text, ts);
  }

  private newPrompt(text: string, ts: string | undefined): string {
    this.flushPendingPatches();
    this.itemTexts = [];
    this.eventTexts = [];
    const recordId = `prompt-${++this.promptSeq}`;
    this.lastPromptRecordId = recordId;
    this.emit({ kind: 'prompt', timestamp: ts, text, recordId, model: this.model });
    return recordId;
  }

  private assistantText(text: string, ts: string | undefined, from: 'item' | 'event'): void {
    if (!text.trim()) return;
    const mine = from === 'item' ? this.itemTexts : this.eventTexts;
    const theirs = from === 'item' ? this.eventTexts : this.itemTexts;
    const h = hash(text);
    const match = theirs.indexOf(h);
    if (match >= 0) {
      theirs.splice(0, match + 1);
      return;
    }
    mine.push(h);
    if (mine.length > maxQueue) mine.shift();
    this.emit({ kind: 'response', timestamp: ts, text, model: this.model });
  }

  // ─── patches ─────────────────────────────────────────────────────────────────────────────────

  private flushPendingPatches(): void {
    for (const [callId, p] of this.pendingPatches) {
      this.doneCalls.add(callId);
      this.emitPatch(p.patch, callId, p.timestamp, p.cwd, false);
    }
    this.pendingPatches.clear();
  }

  private emitPatch(patch: string, callId: string | undefined, ts: string | undefined, cwd: string | undefined, failed: boolean): void {
    for (const f of parseApplyPatch(patch)) {
      const file = normalizeAgentPath(f.moveTo ?? f.path, cwd);
      if (!file) continue;
      this.emitEdit({
        timestamp: ts,
        file,
        tool: 'apply_patch',
        toolUseId: callId,
        patch: f.text,
        contents: f.op === 'add' ? f.content : undefined,
        deleted: f.op === 'delete' || undefined,
        movedFrom: f.moveTo !== undefined ? normalizeAgentPath(f.path, cwd) : undefined,
        failed: failed || undefined,
        added: f.added,
        removed: f.removed,
      });
    }
  }

  private patchApplyEnd(p: z.infer<typeof patchApplyEnd>, ts: string | undefined): void {
    const callId = p.call_id;
    if (callId !== undefined && this.doneCalls.has(callId)) return;
    const failed = p.success === false || p.status === 'failed' || p.status === 'declined';
    const pending = callId !== undefined ? this.pendingPatches.get(callId) : undefined;
    if (callId !== undefined) {
      this.pendingPatches.delete(callId);
      this.doneCalls.add(callId);
    }
    const changes = p.changes && Object.keys(p.changes).length > 0 ? p.changes : undefined;
    // a failed patch changed nothing: the call's patch text says what was attempted
    if (!changes || (failed && pending)) {
      if (pending) this.emitPatch(pending.patch, callId, ts, pending.cwd, failed);
      return;
    }
    const cwd = pending?.cwd ?? this.cwd;
    for (const [rawPath, rawChange] of Object.entries(changes)) {
      const c = normalizeChange(rawChange);
      if (!c) continue;
      const path = normalizeAgentPath(rawPath, cwd);
      if (!path) continue;
      const base = { timestamp: ts, tool: 'apply_patch', toolUseId: callId, failed: failed || undefined };
      if (c.type === 'add') {
        this.emitEdit({
          ...base,
          file: path,
          contents: c.content,
          resultContent: c.newContent,
          added: c.content !== undefined ? lineCount(c.content) : undefined,
          removed: 0,
        });
      } else if (c.type === 'delete') {
        this.emitEdit({
          ...base,
          file: path,
          deleted: true,
          originalContent: c.content ?? c.oldContent,
          added: 0,
          removed: c.content !== undefined ? lineCount(c.content) : undefined,
        });
      } else {
        const moved = c.movePath ? normalizeAgentPath(c.movePath, cwd) : undefined;
        const stats = c.diff !== undefined ? unifiedDiffStats(c.diff) : undefined;
        this.emitEdit({
          ...base,
          file: moved ?? path,
          movedFrom: moved ? path : undefined,
          patch: c.diff,
          originalContent: c.oldContent,
          resultContent: c.newContent,
          added: stats?.added,
          removed: stats?.removed,
        });
      }
    }
  }
}

interface Change {
  type: 'add' | 'delete' | 'update';
  content?: string;
  diff?: string;
  movePath?: string;
  oldContent?: string;
  newContent?: string;
}

/** `{type, …}` (current), externally tagged `{update: {…}}` (early serde) or the unit `"delete"`. */
function normalizeChange(raw: unknown): Change | undefined {
  if (raw === 'delete') return { type: 'delete' };
  if (!raw || typeof raw !== 'object') return undefined;
  let o = raw as Record<string, unknown>;
  let type = str(o.type);
  if (type === undefined) {
    const tag = ['add', 'delete', 'update'].find((k) => k in o);
    if (!tag) return undefined;
    type = tag;
    const inner = o[tag];
    o = inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : {};
  }
  if (type !== 'add' && type !== 'delete' && type !== 'update') return undefined;
  return {
    type,
    content: str(o.content),
    diff: str(o.unified_diff),
    movePath: str(o.move_path),
    oldContent: str(o.old_content),
    newContent: str(o.new_content),
  };
}

/** Whether a tool output says the patch failed (`exit_code != 0`, `success:false`, an error text). */
function outputFailed(output: unknown): boolean {
  let o: unknown = output;
  if (typeof o === 'string') {
    const parsed = tryJson(o);
    if (parsed === undefined) return /^\s*(error|apply_patch verification failed|failed)/i.test(o);
    o = parsed;
  }
  if (!o || typeof o !== 'object') return false;
  const r = o as Record<string, unknown>;
  if (r.success === false) return true;
  const meta = r.metadata as Record<string, unknown> | undefined;
  if (meta && typeof meta.exit_code === 'number' && meta.exit_code !== 0) return true;
  if (typeof r.output === 'string' && /^\s*(error|apply_patch verification failed)/i.test(r.output)) return true;
  return false;
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

function tryJson(s: string): unknown {
  const t = s.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** Text of message content: strings and `text` fields of input_text/output_text parts, joined by `\n`. */
function contentText(content: string | unknown[]): string | undefined {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const p of content) {
    if (p && typeof p === 'object') {
      const t = (p as { text?: unknown }).text;
      if (typeof t === 'string') texts.push(t);
    }
  }
  return texts.length ? texts.join('\n') : undefined;
}
