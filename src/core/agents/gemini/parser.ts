import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AgentEvent } from '../../model/agentEvents';
import { normalizeAgentPath } from '../agentPath';
import { BaseParser, type RecordResult, str, textOfParts } from '../baseParser';
import { lineCount, replacementStats, unifiedDiffStats } from '../editStats';
import { sanitizePrompt } from '../promptSanitizer';
import type { TranscriptContext } from '../parserTypes';
import { pathParts } from '../../transcripts/transcriptPathInfo';
import { geminiPathInfo } from './pathInfo';
import { geminiEditTools } from './tools';

/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, docs/transcripts.md §4).
 *
 * JSONL (since Apr 2026) is a log with upserts: a message `id` is re-appended whenever the message
 * changes (last occurrence wins), `{"$set": {…}}` updates metadata (`$set.messages` = full
 * checkpoint), `{"$rewindTo": id}` removes that message and everything after it.
 * - Part lists (`[{text}, …]`) are chunks of one text: concatenated without a separator.
 * - Prompts: `user` messages, `displayContent` preferred over `content`; emitted with
 *   `recordId` = message id, again only when the text changes.
 * - Responses: `gemini` message text with `mergeKey` = message id (the consumer replaces the
 *   segment), emitted again only when the text changes.
 * - Edits (`replace`, `write_file`, `edit`, `smart_edit`): once per tool-call id, when its status is
 *   terminal (`success`/`completed`, or `error`/`cancelled` → failed; no status: finished); FileDiff `resultDisplay` gives
 *   original/new contents and the diff. Other tools once per id at a terminal status;
 *   `run_shell_command` adds a commit event for `git commit`.
 * - `$rewindTo` → rewind event; the ids from there on are forgotten (a re-appended id is new again).
 * - A file without its metadata line takes its session id from the file name.
 *
 * Legacy `.json` (a whole pretty-printed ConversationRecord, rewritten on each update) goes through
 * parseWholeFile(): only new or changed messages produce events; messages that disappeared produce
 * a rewind to the first missing one.
 */

const metadataRecord = z
  .object({ sessionId: z.string(), projectHash: z.string().optional(), startTime: z.string().optional(), kind: z.string().optional() })
  .passthrough();
const messageRecord = z
  .object({
    id: z.string(),
    type: z.string(),
    timestamp: z.string().optional(),
    content: z.unknown().optional(),
    displayContent: z.unknown().optional(),
    model: z.string().optional(),
    toolCalls: z.array(z.unknown()).optional(),
  })
  .passthrough();
const toolCall = z
  .object({
    id: z.string(),
    name: z.string(),
    args: z.record(z.unknown()).optional(),
    status: z.string().optional(),
    timestamp: z.string().optional(),
    resultDisplay: z.unknown().optional(),
  })
  .passthrough();
const conversationRecord = metadataRecord.extend({ messages: z.array(z.unknown()) });

const stateSchema = z.object({
  order: z.array(z.string()),
  prompts: z.array(z.tuple([z.string(), z.string()])),
  responses: z.array(z.tuple([z.string(), z.string()])),
  tools: z.array(z.string()),
});

const editTools = new Set(geminiEditTools.map((t) => t.name));
const okStatuses = new Set(['success', 'completed']);
const failedStatuses = new Set(['error', 'cancelled', 'canceled', 'failed', 'rejected', 'declined']);
const knownNoticeTypes = new Set(['info', 'warning', 'error']);
const maxRemembered = 2000;

export class GeminiParser extends BaseParser {
  /** Message ids in order of first appearance (for `$rewindTo`). */
  private order: string[] = [];
  /** Message id → hash of the text last emitted. */
  private promptHashes = new Map<string, string>();
  private responseHashes = new Map<string, string>();
  /** Tool-call ids already emitted. */
  private doneTools = new Set<string>();
  private metadataSeen = false;

  constructor(ctx: TranscriptContext) {
    super('gemini', ctx, geminiPathInfo, (info) => info.format === 'json');
  }

  protected resetAgentState(): void {
    this.order = [];
    this.promptHashes.clear();
    this.responseHashes.clear();
    this.doneTools.clear();
    this.metadataSeen = false;
  }

  protected override saveAgentState(): unknown {
    return {
      order: this.order.slice(-maxRemembered),
      prompts: [...this.promptHashes].slice(-maxRemembered),
      responses: [...this.responseHashes].slice(-maxRemembered),
      tools: [...this.doneTools].slice(-maxRemembered),
    };
  }

  protected override restoreAgentState(state: unknown): void {
    const p = stateSchema.safeParse(state);
    if (!p.success) return;
    this.order = p.data.order;
    this.promptHashes = new Map(p.data.prompts);
    this.responseHashes = new Map(p.data.responses);
    this.doneTools = new Set(p.data.tools);
    this.metadataSeen = true;
  }

  protected handleLine(line: string): RecordResult {
    const json = this.parseJson(line);
    if (!json) return 'invalidJson';
    const v = json.value;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return 'schemaMismatch';
    const o = v as Record<string, unknown>;
    if ('$rewindTo' in o) {
      const id = str(o.$rewindTo);
      if (id === undefined) return 'schemaMismatch';
      this.rewindTo(id, undefined);
      return 'ok';
    }
    if ('$set' in o) {
      const set = o.$set;
      if (!set || typeof set !== 'object') return 'schemaMismatch';
      const messages = (set as { messages?: unknown }).messages;
      if (Array.isArray(messages)) for (const m of messages) this.handleMessage(m);
      return 'ok';
    }
    if (typeof o.type === 'string' && 'id' in o) return this.handleMessage(o);
    if ('sessionId' in o && !('type' in o)) return this.handleMetadata(o);
    return 'unknownType';
  }

  override parseWholeFile(text: string): AgentEvent[] {
    if (this.mode !== 'wholeFile') return super.parseWholeFile(text);
    const json = this.parseJson(text);
    if (!json) {
      this.stats.skipped.invalidJson++;
      return [];
    }
    const rec = conversationRecord.safeParse(json.value);
    if (!rec.success) {
      this.stats.skipped.schemaMismatch++;
      return [];
    }
    return this.collect(() => {
      this.handleMetadata(rec.data);
      this.stats.records++;
      const ids = new Set<string>();
      for (const m of rec.data.messages) {
        const id = (m as { id?: unknown })?.id;
        if (typeof id === 'string') ids.add(id);
      }
      const missing = this.order.find((id) => !ids.has(id));
      if (missing !== undefined) this.rewindTo(missing, undefined);
      for (const m of rec.data.messages) {
        const r = this.handleMessage(m);
        if (r === 'ok') this.stats.records++;
        else this.stats.skipped[r]++;
      }
    });
  }

  private handleMetadata(value: unknown): RecordResult {
    const m = metadataRecord.safeParse(value);
    if (!m.success) return 'schemaMismatch';
    if (m.data.kind === 'subagent') this.sidechain = true;
    if (!this.metadataSeen || m.data.sessionId !== this.sessionId) {
      this.metadataSeen = true;
      this.noteSession({ sessionId: m.data.sessionId, timestamp: m.data.startTime });
    }
    return 'ok';
  }

  private handleMessage(value: unknown): RecordResult {
    const p = messageRecord.safeParse(value);
    if (!p.success) return 'schemaMismatch';
    const m = p.data;
    // a file without its metadata line (copied, cut, an older writer): the file name names the
    // session, instead of every event being dropped for want of an id
    if (this.sessionId === undefined) {
      const stem = pathParts(this.ctx.filePath).stem;
      if (stem) this.noteSession({ sessionId: stem });
    }
    const ts = m.timestamp;
    if (m.type !== 'user' && m.type !== 'gemini') return knownNoticeTypes.has(m.type) ? 'ok' : 'unknownType';
    if (!this.order.includes(m.id)) {
      this.order.push(m.id);
      if (this.order.length > maxRemembered) this.order.shift();
    }
    if (m.type === 'user') {
      this.noteSession({ timestamp: ts });
      const raw = textOfParts(m.displayContent, '') ?? textOfParts(m.content, '');
      const text = raw !== undefined ? sanitizePrompt(raw) : undefined;
      if (text === undefined) return 'ok';
      const h = hash(text);
      if (this.promptHashes.get(m.id) === h) return 'ok';
      remember(this.promptHashes, m.id, h);
      this.emit({ kind: 'prompt', timestamp: ts, text, recordId: m.id, model: this.model });
      return 'ok';
    }
    this.noteSession({ timestamp: ts, model: m.model });
    const text = textOfParts(m.content, '');
    if (text !== undefined && text.trim()) {
      const h = hash(text);
      if (this.responseHashes.get(m.id) !== h) {
        remember(this.responseHashes, m.id, h);
        this.emit({ kind: 'response', timestamp: ts, text, mergeKey: m.id, model: m.model ?? this.model });
      }
    }
    for (const raw of m.toolCalls ?? []) {
      const tc = toolCall.safeParse(raw);
      if (!tc.success || this.doneTools.has(tc.data.id)) continue;
      // no status at all: a writer that records finished calls only (no lifecycle to wait for)
      const status = (tc.data.status ?? 'success').toLowerCase();
      const failed = failedStatuses.has(status);
      if (!okStatuses.has(status) && !failed) continue;
      this.doneTools.add(tc.data.id);
      this.handleTool(tc.data, failed, tc.data.timestamp ?? ts, m.model ?? this.model);
    }
    return 'ok';
  }

  private handleTool(tc: z.infer<typeof toolCall>, failed: boolean, ts: string | undefined, model: string | undefined): void {
    const args = tc.args ?? {};
    if (editTools.has(tc.name)) {
      const display = tc.resultDisplay && typeof tc.resultDisplay === 'object' ? (tc.resultDisplay as Record<string, unknown>) : undefined;
      const rawPath = str(args.file_path) ?? str(args.absolute_path) ?? str(args.path) ?? str(display?.filePath);
      const file = rawPath !== undefined ? normalizeAgentPath(rawPath, this.cwd) : undefined;
      if (!file) return;
      const fileDiff = str(display?.fileDiff);
      const originalContent = str(display?.originalContent);
      const isNew = display?.isNewFile === true || (display !== undefined && display.originalContent === null);
      const base = { timestamp: ts, file, tool: tc.name, toolUseId: tc.id, failed: failed || undefined, model };
      let stats: { added: number; removed: number } | undefined;
      if (tc.name === 'write_file') {
        const contents = str(args.content);
        if (!failed) {
          if (fileDiff !== undefined) stats = unifiedDiffStats(fileDiff);
          else if (contents !== undefined && isNew) stats = { added: lineCount(contents), removed: 0 };
          else if (contents !== undefined && originalContent !== undefined) stats = replacementStats(originalContent, contents);
        }
        this.emitEdit({
          ...base,
          contents,
          patch: fileDiff,
          originalContent,
          resultContent: str(display?.newContent),
          added: stats?.added,
          removed: stats?.removed,
        });
        return;
      }
      const oldString = str(args.old_string);
      const newString = str(args.new_string);
      const replaceAll =
        args.allow_multiple === true
          ? true
          : typeof args.expected_replacements === 'number' && args.expected_replacements > 1
            ? true
            : undefined;
      if (!failed) {
        if (fileDiff !== undefined) stats = unifiedDiffStats(fileDiff);
        else if (oldString !== undefined && newString !== undefined) stats = replacementStats(oldString, newString);
      }
      this.emitEdit({
        ...base,
        oldString,
        newString,
        replaceAll,
        patch: fileDiff,
        originalContent,
        resultContent: str(display?.newContent),
        added: stats?.added,
        removed: stats?.removed,
      });
      return;
    }
    if (tc.name === 'run_shell_command') {
      this.emitShell(tc.name, str(args.command), tc.id, ts);
      return;
    }
    this.emit({ kind: 'tool', timestamp: ts, tool: tc.name, toolUseId: tc.id });
  }

  private rewindTo(id: string, ts: string | undefined): void {
    this.noteSession({});
    this.emit({ kind: 'rewind', timestamp: ts, toRecordId: id });
    const at = this.order.indexOf(id);
    const removed = at >= 0 ? this.order.splice(at) : this.order.splice(0);
    for (const r of removed) {
      if (this.promptHashes.has(r)) this.uncountPrompt(r);
      this.promptHashes.delete(r);
      this.responseHashes.delete(r);
    }
  }
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

function remember(map: Map<string, string>, id: string, h: string): void {
  map.delete(id);
  map.set(id, h);
  if (map.size > maxRemembered) map.delete(map.keys().next().value!);
}
