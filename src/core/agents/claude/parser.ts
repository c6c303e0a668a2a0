import { z } from 'zod';
import { addBounded } from '../../collections';
import { normalizeAgentPath } from '../agentPath';
import { BaseParser, type RecordResult, str } from '../baseParser';
import { lineCount, replacementStats, structuredPatchStats } from '../editStats';
import { isClaudeInjectedRecord, sanitizeClaudePrompt } from '../promptSanitizer';
import type { TranscriptContext } from '../parserTypes';
import { claudePathInfo } from './pathInfo';
import { claudeEditTools } from './tools';

/**
 * Claude Code session JSONL (`~/.claude/projects/<enc>/<session>.jsonl`, docs/transcripts.md §2).
 *
 * - Prompts: `user` records that are typed by the user (not meta / compact summary / SDK / tool
 *   results / local-command markers), string or array content, `<system-reminder>`s and IDE
 *   context blocks stripped; prompts queued while the agent was busy (`attachment` records of type
 *   `queued_command`); an accepted plan (`planContent`) is the turn's prompt marked `plan`.
 * - Responses: assistant text blocks; one API message is split over several records sharing
 *   `message.id`, so text is merged per message id and emitted with `mergeKey` = message id.
 * - Edits: `Edit`/`MultiEdit`/`Write`/`NotebookEdit` tool uses are emitted when their result record
 *   arrives (it carries `originalFile`, `structuredPatch` and the error flag); a result whose
 *   tool use was not seen (resumed mid-file) is rebuilt from `toolUseResult` alone.
 * - Bash: tool event, plus a commit event for a real `git commit`.
 * - Model: `message.model` of assistant records (`<synthetic>` local messages are ignored entirely).
 * - Sidechain records (`isSidechain: true`: subagent runs, inline in older files, or whole
 *   `agent-*.jsonl` / `subagents/` files) give edits, tools and commits but no prompts or responses.
 */

const editTools = new Set(claudeEditTools.map((t) => t.name));

const knownMetaTypes = new Set([
  'summary',
  'file-history-snapshot',
  'file-history-delta',
  'queue-operation',
  'last-prompt',
  'ai-title',
  'custom-title',
  'agent-name',
  'mode',
  'permission-mode',
  'progress',
  'tag',
  'atis-latch',
]);

const baseRecord = z
  .object({
    type: z.string(),
    uuid: z.string().optional(),
    sessionId: z.string().optional(),
    session_id: z.string().optional(),
    timestamp: z.string().optional(),
    cwd: z.string().optional(),
    isSidechain: z.boolean().optional(),
  })
  .passthrough();

const userRecord = baseRecord.extend({
  message: z.object({ content: z.union([z.string(), z.array(z.unknown())]) }).passthrough(),
  toolUseResult: z.unknown().optional(),
});

const attachmentRecord = baseRecord.extend({
  attachment: z
    .object({
      type: z.string(),
      prompt: z.union([z.string(), z.array(z.unknown())]).optional(),
      commandMode: z.string().optional(),
      timestamp: z.string().optional(),
    })
    .passthrough(),
});

const assistantRecord = baseRecord.extend({
  message: z.object({ id: z.string().optional(), model: z.string().optional(), content: z.array(z.unknown()) }).passthrough(),
});

const textBlock = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
const toolUseBlock = z
  .object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.record(z.unknown()).optional() })
  .passthrough();
const toolResultBlock = z
  .object({ type: z.literal('tool_result'), tool_use_id: z.string(), is_error: z.boolean().optional() })
  .passthrough();

interface PendingTool {
  name: string;
  input: Record<string, unknown>;
  model?: string;
}

const maxTrackedMessages = 64;

const maxResumeIds = 128;
/** Record and tool-use ids remembered for de-duplication while reading (the newest half is kept when exceeded). */
const maxSeenIds = 4096;

const stateSchema = z.object({
  pending: z.array(z.tuple([z.string(), z.object({ name: z.string(), input: z.record(z.unknown()), model: z.string().optional() })])),
  uuids: z.array(z.string()),
  toolUses: z.array(z.string()),
  messages: z.array(z.tuple([z.string(), z.array(z.string())])),
  /** Messages whose text was in flight at the save (the text itself is never saved). */
  lostMessages: z.array(z.string()).optional(),
});

export class ClaudeParser extends BaseParser {
  private seenUuids = new Set<string>();
  private seenToolUses = new Set<string>();
  private pending = new Map<string, PendingTool>();
  /** message.id → text blocks seen so far, in order. */
  private messageTexts = new Map<string, string[]>();
  /** Messages split across a resume: their earlier text was not saved, so their later text is not emitted. */
  private lostMessages = new Set<string>();

  constructor(ctx: TranscriptContext) {
    super('claude', ctx, claudePathInfo);
  }

  /**
   * Kept across a resume (bounded), ids only, never transcript text (the state is persisted in
   * `transcript-offsets.json`): the newest record uuids and tool-use ids (re-written records at the
   * cut), and the ids of messages whose text was still growing. A tool use still waiting for its
   * result is not kept: its structured result rebuilds the edit after the cut (handleToolResult);
   * the later text of a message split by the cut is not emitted (a gap, never a partial response).
   */
  protected override saveAgentState(): unknown {
    return {
      pending: [],
      uuids: [...this.seenUuids].slice(-maxResumeIds),
      toolUses: [...this.seenToolUses].filter((id) => !this.pending.has(id)).slice(-maxResumeIds),
      messages: [],
      lostMessages: [...new Set([...this.lostMessages, ...[...this.messageTexts.keys()].slice(-2)])].slice(-maxResumeIds),
    };
  }

  override inFlightText(): boolean {
    return this.pending.size > 0 || this.messageTexts.size > 0 || this.lostMessages.size > 0;
  }

  protected override restoreAgentState(state: unknown): void {
    const p = stateSchema.safeParse(state);
    if (!p.success) return;
    for (const [id, t] of p.data.pending) this.pending.set(id, { name: t.name, input: t.input, model: t.model });
    this.seenUuids = new Set(p.data.uuids);
    this.seenToolUses = new Set([...p.data.toolUses, ...this.pending.keys()]);
    this.messageTexts = new Map(p.data.messages);
    this.lostMessages = new Set(p.data.lostMessages ?? []);
  }

  protected resetAgentState(): void {
    this.seenUuids.clear();
    this.seenToolUses.clear();
    this.pending.clear();
    this.messageTexts.clear();
    this.lostMessages.clear();
  }

  protected handleLine(line: string): RecordResult {
    const json = this.parseJson(line);
    if (!json) return 'invalidJson';
    const base = baseRecord.safeParse(json.value);
    if (!base.success) return 'schemaMismatch';
    const type = base.data.type;
    if (type === 'user' || type === 'assistant' || type === 'attachment') {
      const uuid = base.data.uuid;
      if (uuid !== undefined) {
        if (this.seenUuids.has(uuid)) return 'ok';
        addBounded(this.seenUuids, uuid, maxSeenIds);
      }
      if (type === 'attachment') return this.handleAttachment(json.value, base.data);
      return type === 'user' ? this.handleUser(json.value) : this.handleAssistant(json.value);
    }
    if (type === 'system') {
      this.noteSession({ sessionId: base.data.sessionId ?? base.data.session_id, cwd: base.data.cwd, timestamp: base.data.timestamp });
      return 'ok';
    }
    return knownMetaTypes.has(type) ? 'ok' : 'unknownType';
  }

  private handleUser(value: unknown): RecordResult {
    const parsed = userRecord.safeParse(value);
    if (!parsed.success) return 'schemaMismatch';
    const r = parsed.data;
    const ts = r.timestamp;
    this.noteSession({ sessionId: r.sessionId ?? r.session_id, cwd: r.cwd, timestamp: ts });
    const content = r.message.content;
    const results = Array.isArray(content)
      ? content.flatMap((b) => {
          const p = toolResultBlock.safeParse(b);
          return p.success ? [p.data] : [];
        })
      : [];
    if (results.length > 0 || r.toolUseResult !== undefined) {
      for (const res of results) {
        const tur = results.length === 1 ? r.toolUseResult : undefined;
        this.handleToolResult(res.tool_use_id, res.is_error === true, tur, ts);
      }
      return 'ok';
    }
    // sidechain records (subagent runs; inline in older files) carry the parent's task text, not a prompt
    if (r.isSidechain === true || isClaudeInjectedRecord(r as Record<string, unknown>)) return 'ok';
    const text = typeof content === 'string' ? content : joinTextBlocks(content);
    // an accepted plan: the turn's prompt, marked as a plan; its text keeps Claude's own heading
    // ("Implement the following plan: …"), which is what shows it as a plan where prompts are shown
    const planContent = str((r as Record<string, unknown>).planContent)?.trim();
    if (planContent) {
      const planText = (text !== undefined ? sanitizeClaudePrompt(text) : undefined) ?? `Implement the following plan:\n\n${planContent}`;
      this.emit({ kind: 'prompt', timestamp: ts, text: planText, recordId: r.uuid, model: this.model, plan: true });
      return 'ok';
    }
    if (text === undefined) return 'ok';
    const prompt = sanitizeClaudePrompt(text);
    if (prompt !== undefined) this.emit({ kind: 'prompt', timestamp: ts, text: prompt, recordId: r.uuid, model: this.model });
    return 'ok';
  }

  /**
   * `attachment` records: context Claude Code adds to a turn. One kind is a prompt: a message typed
   * while the agent was busy (`queued_command`, `commandMode: "prompt"`), written as an attachment
   * instead of a `user` record (2.1.x). Bash-mode commands and injected ones (`origin.kind` other
   * than `human`, `isMeta`) are not prompts.
   */
  private handleAttachment(value: unknown, base: z.infer<typeof baseRecord>): RecordResult {
    const parsed = attachmentRecord.safeParse(value);
    if (!parsed.success) return 'ok';
    const a = parsed.data.attachment;
    if (a.type !== 'queued_command' || base.isSidechain === true) return 'ok';
    if (a.commandMode !== undefined && a.commandMode !== 'prompt') return 'ok';
    if (isClaudeInjectedRecord(a as Record<string, unknown>)) return 'ok';
    const text = typeof a.prompt === 'string' ? a.prompt : Array.isArray(a.prompt) ? joinTextBlocks(a.prompt) : undefined;
    if (text === undefined) return 'ok';
    const ts = base.timestamp ?? str(a.timestamp);
    this.noteSession({ sessionId: base.sessionId ?? base.session_id, cwd: base.cwd, timestamp: ts });
    const prompt = sanitizeClaudePrompt(text);
    if (prompt !== undefined) this.emit({ kind: 'prompt', timestamp: ts, text: prompt, recordId: base.uuid, model: this.model });
    return 'ok';
  }

  private handleAssistant(value: unknown): RecordResult {
    const parsed = assistantRecord.safeParse(value);
    if (!parsed.success) return 'schemaMismatch';
    const r = parsed.data;
    const ts = r.timestamp;
    const synthetic = r.message.model === '<synthetic>';
    this.noteSession({ sessionId: r.sessionId ?? r.session_id, cwd: r.cwd, timestamp: ts, model: synthetic ? undefined : r.message.model });
    if (synthetic) return 'ok';
    const sidechain = r.isSidechain === true;
    const model = r.message.model ?? this.model;
    const msgId = r.message.id ?? r.uuid;
    let textChanged = false;
    // text is emitted before the tool uses that follow it, keeping the record's block order
    const flushText = () => {
      if (!textChanged || !msgId || sidechain) return;
      textChanged = false;
      this.emit({ kind: 'response', timestamp: ts, text: this.messageTexts.get(msgId)!.join('\n'), mergeKey: msgId, model });
    };
    for (const block of r.message.content) {
      const t = textBlock.safeParse(block);
      if (t.success) {
        if (!msgId || !t.data.text.trim() || this.lostMessages.has(msgId)) continue;
        const texts = this.messageTexts.get(msgId) ?? [];
        if (!texts.includes(t.data.text)) {
          texts.push(t.data.text);
          this.rememberMessage(msgId, texts);
          textChanged = true;
        }
        continue;
      }
      const u = toolUseBlock.safeParse(block);
      if (!u.success) continue;
      const { id, name } = u.data;
      if (this.seenToolUses.has(id)) continue;
      addBounded(this.seenToolUses, id, maxSeenIds);
      flushText();
      const input = u.data.input ?? {};
      if (editTools.has(name)) this.pending.set(id, { name, input, model });
      else if (name === 'Bash') this.emitShell(name, str(input.command), id, ts);
      else this.emit({ kind: 'tool', timestamp: ts, tool: name, toolUseId: id });
    }
    flushText();
    return 'ok';
  }

  private rememberMessage(id: string, texts: string[]): void {
    this.messageTexts.delete(id);
    this.messageTexts.set(id, texts);
    if (this.messageTexts.size > maxTrackedMessages) {
      const oldest = this.messageTexts.keys().next().value;
      if (oldest !== undefined) this.messageTexts.delete(oldest);
    }
  }

  private handleToolResult(toolUseId: string, isError: boolean, tur: unknown, ts: string | undefined): void {
    const pending = this.pending.get(toolUseId);
    this.pending.delete(toolUseId);
    const result = tur && typeof tur === 'object' && !Array.isArray(tur) ? (tur as Record<string, unknown>) : undefined;
    const failed = isError || (typeof tur === 'string' && /^(error|user rejected)/i.test(tur.trim()));
    if (pending) {
      this.emitClaudeEdit(pending.name, pending.input, result, failed, toolUseId, ts, pending.model);
      return;
    }
    if (this.seenToolUses.has(toolUseId) || !result || typeof result.filePath !== 'string') return;
    // resumed after the tool_use line: rebuild the edit from the structured result alone
    const name = Array.isArray(result.edits)
      ? 'MultiEdit'
      : 'oldString' in result
        ? 'Edit'
        : result.type === 'create' || result.type === 'update'
          ? 'Write'
          : undefined;
    if (name) this.emitClaudeEdit(name, {}, result, failed, toolUseId, ts, undefined);
  }

  private emitClaudeEdit(
    name: string,
    input: Record<string, unknown>,
    tur: Record<string, unknown> | undefined,
    failed: boolean,
    toolUseId: string,
    ts: string | undefined,
    model: string | undefined,
  ): void {
    const rawPath = str(input.file_path) ?? str(input.notebook_path) ?? str(tur?.filePath) ?? str(tur?.notebook_path);
    const file = rawPath !== undefined ? normalizeAgentPath(rawPath, this.cwd) : undefined;
    if (!file) return;
    const common = { timestamp: ts, file, tool: name, toolUseId, failed: failed || undefined, model };
    const patchStats =
      Array.isArray(tur?.structuredPatch) && tur.structuredPatch.length > 0 ? structuredPatchStats(tur.structuredPatch) : undefined;
    switch (name) {
      case 'Edit': {
        const oldString = str(input.old_string) ?? str(tur?.oldString);
        const newString = str(input.new_string) ?? str(tur?.newString);
        const replaceAll =
          typeof input.replace_all === 'boolean' ? input.replace_all : typeof tur?.replaceAll === 'boolean' ? tur.replaceAll : undefined;
        const stats = failed
          ? undefined
          : (patchStats ?? (oldString !== undefined && newString !== undefined ? replacementStats(oldString, newString) : undefined));
        this.emitEdit({
          ...common,
          oldString,
          newString,
          replaceAll,
          originalContent: str(tur?.originalFile),
          added: stats?.added,
          removed: stats?.removed,
        });
        return;
      }
      case 'MultiEdit': {
        const edits = Array.isArray(input.edits) ? input.edits : Array.isArray(tur?.edits) ? tur.edits : [];
        const original = str(tur?.originalFileContents) ?? str(tur?.originalFile);
        edits.forEach((e: unknown, i: number) => {
          const o = (e && typeof e === 'object' ? e : {}) as Record<string, unknown>;
          const oldString = str(o.old_string) ?? str(o.oldString);
          const newString = str(o.new_string) ?? str(o.newString);
          const replaceAll = typeof o.replace_all === 'boolean' ? o.replace_all : undefined;
          const stats = failed || oldString === undefined || newString === undefined ? undefined : replacementStats(oldString, newString);
          this.emitEdit({
            ...common,
            oldString,
            newString,
            replaceAll,
            originalContent: i === 0 ? original : undefined,
            added: stats?.added,
            removed: stats?.removed,
          });
        });
        return;
      }
      case 'Write': {
        const contents = str(input.content) ?? str(tur?.content);
        const originalContent = str(tur?.originalFile);
        let stats: { added: number; removed: number } | undefined;
        if (!failed && contents !== undefined) {
          if (tur?.type === 'create') stats = { added: lineCount(contents), removed: 0 };
          else if (patchStats) stats = patchStats;
          else if (originalContent !== undefined) stats = replacementStats(originalContent, contents);
        }
        this.emitEdit({ ...common, contents, originalContent, added: stats?.added, removed: stats?.removed });
        return;
      }
      case 'NotebookEdit':
        this.emitEdit({ ...common, newString: str(input.new_source) ?? str(tur?.new_source) });
        return;
    }
  }
}

function joinTextBlocks(content: unknown[]): string | undefined {
  const texts: string[] = [];
  for (const b of content) {
    const t = textBlock.safeParse(b);
    if (t.success) texts.push(t.data.text);
  }
  return texts.length ? texts.join('\n') : undefined;
}
