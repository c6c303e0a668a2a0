import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AgentEvent } from '../../model/agentEvents';
import { normalizeAgentPath } from '../agentPath';
import { parseApplyPatch } from '../applyPatch';
import { BaseParser, type RecordResult, str } from '../baseParser';
import { lineCount, replacementStats } from '../editStats';
import { sanitizePrompt } from '../promptSanitizer';
import type { TranscriptContext } from '../parserTypes';
import { replayMutationLog } from './mutationLog';
import { copilotPathInfo } from './pathInfo';
import { copilotEditTools } from './tools';

/**
 * GitHub Copilot Chat sessions as VS Code stores them (`workspaceStorage/<id>/chatSessions/`,
 * docs/transcripts.md §11). Both formats are read as a whole on every change (the tailer's
 * `wholeFile` mode) and produce only the events that are new since the last read:
 * - `<id>.json` (VS Code < 1.109, also "Chat: Export Chat…" files): one JSON document, rewritten
 *   in place;
 * - `<id>.jsonl` (VS Code ≥ 1.109): a mutation log replayed onto a state object (./mutationLog.ts);
 *   a compacted log (rewritten from a new `kind: 0` entry, so usually shorter) replays to the same
 *   state and emits nothing twice.
 * From the state's `requests[]` (one per user turn):
 * - prompt: `message.text` (sanitized), `recordId` = `requestId`, time = `timestamp`; model = the
 *   request's `modelId` without its `copilot/` vendor prefix (`result.metadata.resolvedModel` when
 *   the picker said `auto`);
 * - response: the markdown parts of `response[]` (`mergeKey` = `requestId`), once the request has a
 *   `result`, again when the text changes;
 * - edits: `result.metadata.toolCallRounds[].toolCalls[]` (`arguments` a JSON string) of the tools
 *   in ./tools.ts, once per call id: `replace_string_in_file` and `multi_replace_string_in_file`
 *   (old/new string), `create_file` (contents), `apply_patch` (Codex patch, one edit per file);
 *   `insert_edit_into_file` carries a sketch, so its edits are the text the editor inserted (the
 *   empty-range TextEdits of the request's `textEditGroup` parts for that file), or none;
 *   an edit of a file that a later request reports undone (`editedFileEvents` kind 2) is `failed`.
 * Copilot applies its edits through the editor, so an edit event is only a claim: the captured
 * editor change decides which lines are AI (`editsArrive: 'editor'`, src/core/capture).
 * Bounded: at most 2,000 requests, 200 rounds per request, 100 calls per round and arguments of
 * 4 MiB per call are read; dedupe sets keep the newest 2,000 ids.
 */

const uriSchema = z.union([
  z.string(),
  z.object({ fsPath: z.string().optional(), path: z.string().optional(), scheme: z.string().optional() }).passthrough(),
]);
const toolCallSchema = z.object({ id: z.string().optional(), name: z.string(), arguments: z.unknown().optional() }).passthrough();
const roundSchema = z
  .object({ id: z.string().optional(), toolCalls: z.array(z.unknown()).optional(), timestamp: z.number().optional() })
  .passthrough();
const requestSchema = z
  .object({
    requestId: z.string(),
    timestamp: z.number().optional(),
    message: z.object({ text: z.string().optional() }).passthrough().optional(),
    modelId: z.string().optional(),
    response: z.array(z.unknown()).optional(),
    result: z
      .object({
        metadata: z
          .object({
            toolCallRounds: z.array(z.unknown()).optional(),
            resolvedModel: z.string().optional(),
            sessionId: z.string().optional(),
          })
          .passthrough()
          .optional(),
      })
      .passthrough()
      .optional(),
    modelState: z.object({ value: z.number().optional() }).passthrough().optional(),
    isCanceled: z.boolean().optional(),
    editedFileEvents: z.array(z.unknown()).optional(),
  })
  .passthrough();
const stateSchema = z.object({ sessionId: z.string().optional(), requests: z.array(z.unknown()) }).passthrough();
const editedFileEventSchema = z.object({ uri: uriSchema, eventKind: z.number() }).passthrough();
const textEditGroupSchema = z
  .object({
    kind: z.literal('textEditGroup'),
    uri: uriSchema,
    edits: z.array(z.array(z.unknown())),
  })
  .passthrough();
const textEditSchema = z
  .object({
    text: z.string(),
    range: z
      .object({ startLineNumber: z.number(), startColumn: z.number(), endLineNumber: z.number(), endColumn: z.number() })
      .passthrough(),
  })
  .passthrough();
const savedSchema = z.object({
  order: z.array(z.string()),
  prompts: z.array(z.tuple([z.string(), z.string()])),
  responses: z.array(z.tuple([z.string(), z.string()])),
  calls: z.array(z.string()),
});

const editToolNames = new Set(copilotEditTools.map((t) => t.name));
const shellTools = new Set(['run_in_terminal']);
const maxRequests = 2000;
const maxRounds = 200;
const maxCalls = 100;
const maxArgumentChars = 4 * 1024 * 1024;
const maxRemembered = 2000;
/** `editedFileEvents[].eventKind` (VS Code `ChatRequestEditedFileEventKind`): 1 Keep, 2 Undo, 3 UserModification. */
const undoKind = 2;
const keepKind = 1;

type Request = z.infer<typeof requestSchema>;

export class CopilotParser extends BaseParser {
  /** Request ids in order of first appearance (a request that disappears is a rewind). */
  private order: string[] = [];
  private promptHashes = new Map<string, string>();
  private responseHashes = new Map<string, string>();
  /** Tool-call ids already emitted. */
  private doneCalls = new Set<string>();
  /** Unusable log lines counted so far (a re-read of the same log does not count them again). */
  private badSeen = 0;

  constructor(ctx: TranscriptContext) {
    super('copilot', ctx, copilotPathInfo, () => true);
  }

  protected resetAgentState(): void {
    this.order = [];
    this.promptHashes.clear();
    this.responseHashes.clear();
    this.doneCalls.clear();
    this.badSeen = 0;
  }

  protected override saveAgentState(): unknown {
    return {
      order: this.order.slice(-maxRemembered),
      prompts: [...this.promptHashes].slice(-maxRemembered),
      responses: [...this.responseHashes].slice(-maxRemembered),
      calls: [...this.doneCalls].slice(-maxRemembered),
    };
  }

  protected override restoreAgentState(state: unknown): void {
    const p = savedSchema.safeParse(state);
    if (!p.success) return;
    this.order = p.data.order;
    this.promptHashes = new Map(p.data.prompts);
    this.responseHashes = new Map(p.data.responses);
    this.doneCalls = new Set(p.data.calls);
  }

  /** Not used: both formats are read whole (parseWholeFile). */
  protected handleLine(_line: string): RecordResult {
    return 'unknownType';
  }

  override parseWholeFile(text: string): AgentEvent[] {
    const state = this.readState(text);
    if (state === undefined) return [];
    const parsed = stateSchema.safeParse(state);
    if (!parsed.success) {
      this.stats.skipped.schemaMismatch++;
      return [];
    }
    return this.collect(() => this.handleState(parsed.data));
  }

  /** The session state of a whole `.json` document or a replayed `.jsonl` log (counted when unusable). */
  private readState(text: string): unknown {
    const trimmed = text.trimStart();
    const isLog = this.ctx.filePath.toLowerCase().endsWith('.jsonl') || /^\{\s*"kind"\s*:/.test(trimmed);
    if (isLog) {
      const r = replayMutationLog(text);
      // a cut last line is a write in progress: counted, so the tailer reads the file again; bad
      // lines before it stay in the log and are counted once, not on every re-read
      const cut = r.lastLineInvalid ? 1 : 0;
      this.stats.skipped.invalidJson += cut;
      const bad = r.invalidJson - cut + r.rejected;
      if (bad > this.badSeen) {
        this.stats.skipped.schemaMismatch += bad - this.badSeen;
        this.badSeen = bad;
      }
      this.stats.records += r.applied;
      return r.state;
    }
    if (trimmed === '') return undefined;
    try {
      const v = JSON.parse(text) as unknown;
      this.stats.records++;
      return v;
    } catch {
      this.stats.skipped.invalidJson++;
      return undefined;
    }
  }

  private handleState(state: z.infer<typeof stateSchema>): void {
    const requests: Request[] = [];
    for (const raw of state.requests.slice(0, maxRequests)) {
      const r = requestSchema.safeParse(raw);
      if (r.success) requests.push(r.data);
      else this.stats.skipped.schemaMismatch++;
    }
    // exports have no root sessionId: the file name, else Copilot's own id in the metadata
    const sessionId =
      state.sessionId ?? this.ctx.sessionIdHint ?? requests.find((r) => r.result?.metadata?.sessionId)?.result?.metadata?.sessionId;
    this.noteSession({ sessionId, timestamp: iso(requests[0]?.timestamp) });
    const ids = new Set(requests.map((r) => r.requestId));
    const missing = this.order.find((id) => !ids.has(id));
    if (missing !== undefined) this.rewindTo(missing);
    const undone = undoneFiles(requests, this.cwd);
    requests.forEach((r, i) => this.handleRequest(r, i, undone));
  }

  private rewindTo(id: string): void {
    this.emit({ kind: 'rewind', toRecordId: id });
    const at = this.order.indexOf(id);
    for (const d of at >= 0 ? this.order.splice(at) : []) {
      if (this.promptHashes.has(d)) this.uncountPrompt(d);
      this.promptHashes.delete(d);
      this.responseHashes.delete(d);
    }
  }

  private handleRequest(r: Request, index: number, undone: Map<string, number>): void {
    if (!this.order.includes(r.requestId)) {
      this.order.push(r.requestId);
      if (this.order.length > maxRemembered) this.order.shift();
    }
    const ts = iso(r.timestamp);
    const meta = r.result?.metadata;
    this.noteSession({ timestamp: ts, model: modelOf(r.modelId, meta?.resolvedModel) });
    const raw = r.message?.text;
    const text = raw !== undefined ? sanitizePrompt(raw) : undefined;
    if (text !== undefined) {
      const h = hash(text);
      if (this.promptHashes.get(r.requestId) !== h) {
        remember(this.promptHashes, r.requestId, h);
        this.emit({ kind: 'prompt', timestamp: ts, text, recordId: r.requestId, model: this.model });
      }
    }
    // tool calls and the answer are written with the request's result
    if (!r.result) return;
    const groups = textEditGroups(r.response ?? [], this.cwd);
    const rounds = (meta?.toolCallRounds ?? []).slice(0, maxRounds);
    for (const rawRound of rounds) {
      const round = roundSchema.safeParse(rawRound);
      if (!round.success) continue;
      const roundTs = iso(round.data.timestamp);
      for (const rawCall of (round.data.toolCalls ?? []).slice(0, maxCalls)) {
        const call = toolCallSchema.safeParse(rawCall);
        if (!call.success) continue;
        this.handleCall(call.data, roundTs, index, undone, groups);
      }
    }
    const answer = responseText(r.response ?? []);
    if (answer !== undefined) {
      const h = hash(answer);
      if (this.responseHashes.get(r.requestId) !== h) {
        remember(this.responseHashes, r.requestId, h);
        this.emit({ kind: 'response', timestamp: ts, text: answer, mergeKey: r.requestId, model: this.model });
      }
    }
  }

  private handleCall(
    call: z.infer<typeof toolCallSchema>,
    ts: string | undefined,
    requestIndex: number,
    undone: Map<string, number>,
    groups: Map<string, string[]>,
  ): void {
    const id = call.id;
    if (id !== undefined && this.doneCalls.has(id)) return;
    if (id !== undefined) {
      this.doneCalls.add(id);
      if (this.doneCalls.size > maxRemembered) this.doneCalls.delete(this.doneCalls.values().next().value!);
    }
    const args = argumentsOf(call.arguments);
    if (!editToolNames.has(call.name)) {
      if (shellTools.has(call.name)) this.emitShell(call.name, str(args?.command), id, ts);
      else this.emit({ kind: 'tool', timestamp: ts, tool: call.name, toolUseId: id });
      return;
    }
    if (!args) {
      this.stats.skipped.schemaMismatch++;
      return;
    }
    const file = (raw: unknown) => (typeof raw === 'string' ? normalizeAgentPath(raw, this.cwd) : undefined);
    const failed = (f: string) => ((undone.get(key(f)) ?? -1) > requestIndex ? true : undefined);
    const base = { timestamp: ts, tool: call.name, toolUseId: id };
    switch (call.name) {
      case 'replace_string_in_file':
      case 'multi_replace_string_in_file': {
        const list =
          call.name === 'replace_string_in_file' ? [args] : Array.isArray(args.replacements) ? args.replacements.slice(0, maxCalls) : [];
        list.forEach((rep: unknown, i) => {
          if (!rep || typeof rep !== 'object') return;
          const o = rep as Record<string, unknown>;
          const f = file(o.filePath);
          const oldString = str(o.oldString);
          const newString = str(o.newString);
          if (!f || newString === undefined) return;
          const stats = replacementStats(oldString ?? '', newString);
          this.emitEdit({
            ...base,
            toolUseId: list.length > 1 && id !== undefined ? `${id}#${i}` : id,
            file: f,
            oldString,
            newString,
            failed: failed(f),
            ...stats,
          });
        });
        return;
      }
      case 'create_file': {
        const f = file(args.filePath);
        const content = str(args.content);
        if (!f || content === undefined) return;
        this.emitEdit({ ...base, file: f, contents: content, failed: failed(f), added: lineCount(content), removed: 0 });
        return;
      }
      case 'apply_patch': {
        const patch = str(args.input) ?? str(args.patch);
        if (patch === undefined) return;
        for (const p of parseApplyPatch(patch)) {
          const f = file(p.moveTo ?? p.path);
          if (!f) continue;
          this.emitEdit({
            ...base,
            file: f,
            patch: p.text,
            contents: p.op === 'add' ? p.content : undefined,
            deleted: p.op === 'delete' || undefined,
            movedFrom: p.moveTo !== undefined ? file(p.path) : undefined,
            failed: failed(f),
            added: p.added,
            removed: p.removed,
          });
        }
        return;
      }
      case 'insert_edit_into_file': {
        // the `code` argument is a sketch: only the text the editor applied is claimed
        const f = file(args.filePath);
        if (!f) return;
        const applied = groups.get(key(f));
        if (!applied || applied.length === 0) {
          this.emit({ kind: 'tool', timestamp: ts, tool: call.name, toolUseId: id });
          return;
        }
        groups.delete(key(f));
        applied.forEach((newString, i) =>
          this.emitEdit({
            ...base,
            toolUseId: id !== undefined ? `${id}#${i}` : undefined,
            file: f,
            oldString: '',
            newString,
            failed: failed(f),
          }),
        );
        return;
      }
    }
  }
}

/** The tool call's `arguments`: a JSON string (or, tolerated, an object) of at most 4 MiB. */
function argumentsOf(raw: unknown): Record<string, unknown> | undefined {
  let v = raw;
  if (typeof raw === 'string') {
    if (raw.length > maxArgumentChars) return undefined;
    try {
      v = JSON.parse(raw) as unknown;
    } catch {
      return undefined;
    }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** A serialized URI (`{fsPath, path, scheme}`) or a string, as an absolute path. */
function uriPath(u: z.infer<typeof uriSchema>, cwd: string | undefined): string | undefined {
  if (typeof u === 'string') return normalizeAgentPath(u, cwd);
  if (u.scheme !== undefined && u.scheme !== 'file') return undefined;
  const p = u.fsPath ?? u.path;
  return p !== undefined ? normalizeAgentPath(p, cwd) : undefined;
}

/** A path as a map key (case-folded: the same file may be spelled `c:` and `C:`). */
function key(file: string): string {
  return /^[A-Za-z]:\\/.test(file) ? file.toLowerCase() : file;
}

/** The last request index at which each file's edits were reported undone (and not kept after). */
function undoneFiles(requests: readonly Request[], cwd: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  requests.forEach((r, i) => {
    for (const raw of r.editedFileEvents ?? []) {
      const e = editedFileEventSchema.safeParse(raw);
      if (!e.success) continue;
      const f = uriPath(e.data.uri, cwd);
      if (!f) continue;
      if (e.data.eventKind === undoKind) out.set(key(f), i);
      else if (e.data.eventKind === keepKind) out.delete(key(f));
    }
  });
  return out;
}

/**
 * The text the editor inserted per file in a request's `textEditGroup` parts: each TextEdit with
 * an empty range and a text that is not blank.
 */
function textEditGroups(parts: readonly unknown[], cwd: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const raw of parts) {
    if (!raw || typeof raw !== 'object' || (raw as { kind?: unknown }).kind !== 'textEditGroup') continue;
    const g = textEditGroupSchema.safeParse(raw);
    if (!g.success) continue;
    const f = uriPath(g.data.uri, cwd);
    if (!f) continue;
    const list = out.get(key(f)) ?? [];
    for (const edits of g.data.edits.slice(0, 10_000))
      for (const te of edits) {
        const t = textEditSchema.safeParse(te);
        if (!t.success || t.data.text.trim() === '' || list.length >= 10_000) continue;
        // only a pure insertion is surely new text: a replacement's old text is not in the record,
        // and Copilot rewrites unchanged lines with their own text (a claim of those would take a
        // person's line)
        const r = t.data.range;
        if (r.startLineNumber === r.endLineNumber && r.startColumn === r.endColumn) list.push(t.data.text);
      }
    out.set(key(f), list);
  }
  return out;
}

/** The markdown parts of a response (parts without `kind`, or `markdownContent`), joined. */
function responseText(parts: readonly unknown[]): string | undefined {
  const texts: string[] = [];
  for (const p of parts) {
    if (!p || typeof p !== 'object') continue;
    const o = p as { kind?: unknown; value?: unknown; content?: { value?: unknown } };
    if (o.kind === undefined && typeof o.value === 'string') texts.push(o.value);
    else if (o.kind === 'markdownContent' && typeof o.content?.value === 'string') texts.push(o.content.value);
  }
  const text = texts.join('').trim();
  return text === '' ? undefined : text;
}

/** `copilot/claude-sonnet-4` → `claude-sonnet-4`; `auto` only when nothing resolved it. */
function modelOf(modelId: string | undefined, resolved: string | undefined): string | undefined {
  const id = modelId?.startsWith('copilot/') ? modelId.slice('copilot/'.length) : modelId;
  if (id === 'auto') return resolved ?? undefined;
  return id || resolved;
}

function iso(ms: number | undefined): string | undefined {
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0 || ms > 8.64e15) return undefined;
  return new Date(ms).toISOString();
}

function hash(s: string): string {
  return createHash('sha1').update(s).digest('hex').slice(0, 16);
}

function remember(m: Map<string, string>, k: string, v: string): void {
  m.delete(k);
  m.set(k, v);
  if (m.size > maxRemembered) m.delete(m.keys().next().value!);
}
