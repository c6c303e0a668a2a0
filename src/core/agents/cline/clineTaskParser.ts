// Long file: the one parser of the Cline family's task histories (Cline, Roo Code, Kilo Code), with its native and XML tool shapes, results, prompts and times.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AgentEvent, AgentId } from '../../model/agentEvents';
import type { TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';
import { normalizeAgentPath } from '../agentPath';
import { parseApplyPatch, patchTextOf } from '../applyPatch';
import { BaseParser, type RecordResult, str } from '../baseParser';
import { lineCount, replacementStats } from '../editStats';
import type { TranscriptContext } from '../parserTypes';
import { sanitizePrompt } from '../promptSanitizer';
import type { EditToolSpec } from '../registry/agentDefinition';
import { parseSearchReplace } from '../searchReplace';

/**
 * Task histories of Cline and its forks (`<storage>/tasks/<taskId>/api_conversation_history.json`,
 * docs/transcripts.md §7–§9): one JSON array of Anthropic-style messages `{role, content[],
 * modelInfo?, ts?}`, rewritten whole on every change.
 *
 * - Re-parsed on change (`wholeFile`); only events not emitted before are returned (keys of
 *   prompts, responses and tool uses, bounded). Messages before the last one are final: a re-parse
 *   starts at the first message not yet final when the one before it is unchanged (its hash), so a
 *   change costs the JSON parse plus the new messages, not a walk of the whole task.
 * - Prompts: the `<task>` of the first message, `<feedback>`, `<answer>` and `<user_message>` texts of
 *   later ones (typed after a completion, a question, a resumption); injected text
 *   (`<environment_details>`, `[TASK RESUMPTION]`, tool results) is not a prompt.
 * - Edit tools (the fork's list, `./tools.ts`): native `tool_use` blocks or the XML of older tasks
 *   (`<write_to_file><path>…</path><content>…</content></write_to_file>` in the text). An edit is
 *   emitted when its result arrives in the next user message: a text `[tool for 'path'] Result:`
 *   (Cline writes results as text even for native tools) or a `tool_result` block (Roo, Kilo).
 *   A denied or failed tool, and one the user changed in the diff view before saving, is failed (no
 *   claim: the person's lines are in the same save). `<final_file_content>` is the file as saved.
 * - Time: each user message's `# Current Time` line (environment details, `M/D/YYYY, h:mm:ss AM
 *   (zone, UTC±h:mm)`) or the message's `ts`; else the file's modification time.
 */

const message = z
  .object({
    role: z.string(),
    content: z.union([z.string(), z.array(z.unknown())]),
    modelInfo: z.object({ modelId: z.string().optional() }).passthrough().optional(),
    ts: z.number().optional(),
  })
  .passthrough();
const stateSchema = z.object({ keys: z.array(z.string()) });

interface ToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
  model?: string;
}

const maxKeys = 4000;
const promptTags = ['task', 'feedback', 'answer', 'user_message'] as const;
const resultHeader = /^\[([A-Za-z_][\w-]*)(?: for '([^\n]*?)')?\] Result:/;
const failedResult =
  /The user denied this operation|The tool execution failed|^\s*<error>|SEARCH block content doesn't match|No sufficiently similar match|failed to apply/im;
const userEditedResult = /The user made the following updates to your content/;
const finalContent = /<final_file_content path="[^"\n]*">\n([\s\S]*?)\n?<\/final_file_content>/;
const cwdLine = /# Current (?:Working|Workspace) Directory \(([^\n]+?)\) Files/;
const timeLine =
  /# Current Time\s*\n\s*(\d{1,2})\/(\d{1,2})\/(\d{4}),? (\d{1,2}):(\d{2}):(\d{2})\s*([AP]M)?[^\n]*?UTC([+-]\d{1,2})(?::(\d{2}))?/;
const shellTools = new Set(['execute_command']);
const answerTools: Record<string, string> = {
  attempt_completion: 'result',
  plan_mode_respond: 'response',
  ask_followup_question: 'question',
};

export class ClineTaskParser extends BaseParser {
  private readonly editTools: ReadonlySet<string>;
  private keys = new Set<string>();
  private pending = new Map<string, ToolUse>();
  /** Messages final and handled, and the hash of the last of them. */
  private done = 0;
  private doneHash: string | undefined;
  private time: string | undefined;

  constructor(agent: AgentId, ctx: TranscriptContext, pathInfo: (p: string) => TranscriptPathInfo, tools: readonly EditToolSpec[]) {
    super(agent, ctx, pathInfo, () => true);
    this.editTools = new Set(tools.map((t) => t.name));
  }

  protected handleLine(): RecordResult {
    return 'unknownType';
  }

  protected resetAgentState(): void {
    this.keys.clear();
    this.pending.clear();
    this.done = 0;
    this.doneHash = undefined;
    this.time = undefined;
  }

  protected override saveAgentState(): unknown {
    return { keys: [...this.keys].slice(-maxKeys) };
  }

  protected override restoreAgentState(state: unknown): void {
    const p = stateSchema.safeParse(state);
    if (p.success) this.keys = new Set(p.data.keys);
  }

  override inFlightText(): boolean {
    return this.pending.size > 0;
  }

  override parseWholeFile(text: string): AgentEvent[] {
    const json = this.parseJson(text);
    if (!json) {
      this.stats.skipped.invalidJson++;
      return [];
    }
    if (!Array.isArray(json.value)) {
      this.stats.skipped.schemaMismatch++;
      return [];
    }
    const messages = json.value as unknown[];
    return this.collect(() => {
      let from = 0;
      if (this.done > 0 && messages.length >= this.done && hashOf(messages[this.done - 1]) === this.doneHash) from = this.done;
      else this.pending.clear();
      if (this.sessionId) this.noteSession({ cwd: this.cwd });
      for (let i = from; i < messages.length; i++) {
        const r = this.handleMessage(messages[i], i);
        if (r === 'ok') this.stats.records++;
        else this.stats.skipped[r]++;
      }
      // the last message may still change (a streaming leftover): it is read again next time
      this.done = Math.max(0, messages.length - 1);
      this.doneHash = this.done > 0 ? hashOf(messages[this.done - 1]) : undefined;
    });
  }

  private seen(key: string): boolean {
    if (this.keys.has(key)) return true;
    this.keys.add(key);
    if (this.keys.size > maxKeys) this.keys.delete(this.keys.values().next().value!);
    return false;
  }

  private handleMessage(raw: unknown, index: number): RecordResult {
    const p = message.safeParse(raw);
    if (!p.success) return 'schemaMismatch';
    const m = p.data;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (m.ts !== undefined && Number.isFinite(m.ts)) this.time = new Date(m.ts).toISOString();
    if (m.role === 'user') return this.handleUser(blocks, index);
    if (m.role === 'assistant') return this.handleAssistant(blocks, index, m.modelInfo?.modelId);
    return 'unknownType';
  }

  private handleUser(blocks: readonly unknown[], index: number): RecordResult {
    const texts: string[] = [];
    const results: { id?: string; text: string; isError: boolean }[] = [];
    for (const b of blocks) {
      if (!b || typeof b !== 'object') continue;
      const o = b as Record<string, unknown>;
      if (o.type === 'text' && typeof o.text === 'string') texts.push(o.text);
      else if (o.type === 'tool_result') {
        const text = typeof o.content === 'string' ? o.content : Array.isArray(o.content) ? textBlocks(o.content).join('\n') : '';
        results.push({ id: str(o.tool_use_id), text, isError: o.is_error === true });
      }
    }
    const all = texts.join('\n');
    const cwd = cwdLine.exec(all)?.[1];
    const time = parseClineTime(all);
    if (time) this.time = time;
    this.noteSession({ cwd: cwd && !this.cwd ? cwd.trim() : undefined, timestamp: this.time });
    // tool results first: they close the previous turn's tool uses
    for (const r of results) {
      const tu = r.id !== undefined ? this.pending.get(r.id) : undefined;
      if (tu) this.finishTool(tu, r.text, r.isError);
    }
    for (const t of texts) {
      const h = resultHeader.exec(t);
      if (!h) continue;
      const tu = [...this.pending.values()].find((x) => x.name === h[1]);
      if (tu) this.finishTool(tu, t, false);
    }
    // tool uses left without a result were not run (one tool per message) or were interrupted
    this.pending.clear();
    const prompts: string[] = [];
    for (const t of [...texts, ...results.map((r) => r.text)]) {
      for (const tag of promptTags) {
        if (tag === 'task' && index > 0 && !t.trimStart().startsWith('<task>')) continue;
        const re = new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`, 'g');
        for (let mm = re.exec(t); mm; mm = re.exec(t)) if (mm[1].trim()) prompts.push(mm[1]);
      }
    }
    if (prompts.length > 0) {
      const text = sanitizePrompt(prompts.join('\n\n'));
      // keyed by place and text: a restored checkpoint reuses places for new prompts
      const recordId = text !== undefined ? `m${index}:${hashOf(text).slice(0, 8)}` : undefined;
      if (text !== undefined && recordId !== undefined && !this.seen(`p:${recordId}`))
        this.emit({ kind: 'prompt', timestamp: this.time, text, recordId, model: this.model });
    }
    return 'ok';
  }

  private handleAssistant(blocks: readonly unknown[], index: number, model: string | undefined): RecordResult {
    this.noteSession({ model, timestamp: this.time });
    const texts: string[] = [];
    let xml = 0;
    for (const b of blocks) {
      if (!b || typeof b !== 'object') continue;
      const o = b as Record<string, unknown>;
      if (o.type === 'text' && typeof o.text === 'string') {
        const { rest, tools } = this.xmlTools(o.text);
        if (rest.trim()) texts.push(rest.trim());
        for (const t of tools)
          this.startTool({ id: `m${index}:x${xml++}`, name: t.name, input: t.input, model: model ?? this.model }, texts);
      } else if (o.type === 'tool_use' && typeof o.id === 'string' && typeof o.name === 'string') {
        const input = o.input && typeof o.input === 'object' ? (o.input as Record<string, unknown>) : {};
        this.startTool({ id: o.id, name: o.name, input, model: model ?? this.model }, texts);
      }
    }
    const text = texts.join('\n\n');
    if (text && !this.seen(`r:${index}:${hashOf(text)}`))
      this.emit({ kind: 'response', timestamp: this.time, text, mergeKey: `m${index}`, model: model ?? this.model });
    return 'ok';
  }

  private startTool(tu: ToolUse, texts: string[]): void {
    const answerKey = answerTools[tu.name];
    if (answerKey !== undefined) {
      const a = str(tu.input[answerKey]);
      if (a?.trim()) texts.push(a.trim());
    }
    if (this.editTools.has(tu.name)) {
      this.pending.set(tu.id, tu);
      return;
    }
    if (this.seen(`t:${tu.id}`)) return;
    if (shellTools.has(tu.name)) this.emitShell(tu.name, str(tu.input.command), tu.id, this.time);
    else this.emit({ kind: 'tool', timestamp: this.time, tool: tu.name, toolUseId: tu.id });
  }

  /** The edit tool `tu` got its result: one edit per file (and per SEARCH/REPLACE block). */
  private finishTool(tu: ToolUse, result: string, isError: boolean): void {
    this.pending.delete(tu.id);
    if (this.seen(`t:${tu.id}`)) return;
    const failed = isError || failedResult.test(result) || userEditedResult.test(result) ? (true as const) : undefined;
    const saved = finalContent.exec(result)?.[1];
    const input = tu.input;
    const rawPath = str(input.absolutePath) ?? str(input.path) ?? str(input.file_path) ?? str(input.target_file);
    const file = rawPath !== undefined ? normalizeAgentPath(rawPath.trim(), this.cwd) : undefined;
    const base = { timestamp: this.time, tool: tu.name, failed, model: tu.model, resultContent: failed ? undefined : saved };
    const replace = (pairs: readonly { search: string; replace: string }[], replaceAll?: boolean) => {
      if (!file) return;
      pairs.forEach((b, k) => {
        const stats = replacementStats(b.search, b.replace);
        this.emitEdit({
          ...base,
          file,
          toolUseId: pairs.length > 1 ? `${tu.id}#${k}` : tu.id,
          oldString: b.search,
          newString: b.replace,
          replaceAll,
          added: stats.added,
          removed: stats.removed,
        });
      });
    };
    switch (tu.name) {
      case 'write_to_file':
      case 'new_rule': {
        const contents = stripFences(str(input.content));
        if (!file || contents === undefined) return;
        this.emitEdit({ ...base, file, toolUseId: tu.id, contents, added: lineCount(contents) });
        return;
      }
      case 'replace_in_file':
      case 'apply_diff': {
        const ops = Array.isArray(input.operations) ? input.operations : undefined;
        if (ops) replace(ops.flatMap((o) => searchReplaceOp(o)));
        else replace(parseSearchReplace(str(input.diff) ?? ''));
        return;
      }
      case 'search_and_replace': {
        if (input.use_regex === true) return;
        const ops = Array.isArray(input.operations) ? input.operations : [input];
        replace(ops.flatMap((o) => searchReplaceOp(o)));
        return;
      }
      case 'search_replace':
      case 'edit':
      case 'edit_file': {
        const oldString = str(input.old_string) ?? str(input.old_str);
        const newString = str(input.new_string) ?? str(input.new_str);
        if (!file || newString === undefined) return;
        if (!oldString) {
          this.emitEdit({ ...base, file, toolUseId: tu.id, contents: newString, added: lineCount(newString) });
          return;
        }
        const many = input.replace_all === true || (typeof input.expected_replacements === 'number' && input.expected_replacements > 1);
        replace([{ search: oldString, replace: newString }], many || undefined);
        return;
      }
      case 'editor': {
        const newText = str(input.new_text);
        if (!file || newText === undefined) return;
        const oldText = str(input.old_text);
        if (oldText) replace([{ search: oldText, replace: newText }]);
        else if (typeof input.insert_line === 'number') this.emitInsert(base, file, tu.id, newText);
        return;
      }
      case 'insert_content': {
        const content = str(input.content);
        if (!file || content === undefined) return;
        this.emitInsert(base, file, tu.id, content);
        return;
      }
      case 'apply_patch': {
        const patch = patchTextOf(input.patch) ?? patchTextOf(input.input) ?? str(input.diff);
        if (patch === undefined) return;
        const files = parseApplyPatch(patch);
        files.forEach((f, k) => {
          const target = normalizeAgentPath(f.moveTo ?? f.path, this.cwd);
          if (!target) return;
          this.emitEdit({
            ...base,
            resultContent: undefined,
            file: target,
            toolUseId: files.length > 1 ? `${tu.id}#${k}` : tu.id,
            patch: f.op === 'update' ? f.text : undefined,
            contents: f.op === 'add' ? f.content : undefined,
            deleted: f.op === 'delete' || undefined,
            movedFrom: f.moveTo !== undefined ? normalizeAgentPath(f.path, this.cwd) : undefined,
            added: f.added,
            removed: f.removed,
          });
        });
        return;
      }
      default:
        this.emit({ kind: 'tool', timestamp: this.time, tool: tu.name, toolUseId: tu.id });
    }
  }

  private emitInsert(
    base: { timestamp?: string; tool: string; failed?: true; model?: string },
    file: string,
    id: string,
    text: string,
  ): void {
    const newString = text.endsWith('\n') ? text : text + '\n';
    this.emitEdit({ ...base, file, toolUseId: id, oldString: '', newString, added: lineCount(newString), removed: 0 });
  }

  /** Edit tools written as XML in the text (tasks before native tool calls); the text without them. */
  private xmlTools(text: string): { rest: string; tools: { name: string; input: Record<string, unknown> }[] } {
    const tools: { name: string; input: Record<string, unknown> }[] = [];
    let rest = text;
    for (const name of this.editTools) {
      const open = `<${name}>`;
      const close = `</${name}>`;
      for (let at = rest.indexOf(open); at !== -1; at = rest.indexOf(open)) {
        const end = rest.lastIndexOf(close);
        if (end < at) break;
        tools.push({ name, input: xmlParams(rest.slice(at + open.length, end)) });
        rest = rest.slice(0, at) + rest.slice(end + close.length);
      }
    }
    return { rest: rest.replace(/<thinking>[\s\S]*?<\/thinking>/g, ''), tools };
  }
}

/** `<name>value</name>` parameters; `content` and `diff` run to their last closing tag (they may hold tags). */
function xmlParams(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [
    'content',
    'diff',
    'path',
    'absolutePath',
    'file_path',
    'old_string',
    'new_string',
    'line',
    'search',
    'replace',
    'patch',
  ]) {
    const open = `<${key}>`;
    const at = body.indexOf(open);
    if (at === -1) continue;
    const long = key === 'content' || key === 'diff' || key === 'patch';
    const end = long ? body.lastIndexOf(`</${key}>`) : body.indexOf(`</${key}>`, at);
    if (end < at) continue;
    let v = body.slice(at + open.length, end);
    v = long ? v.replace(/^\n/, '').replace(/\n$/, '') + (v.endsWith('\n') ? '\n' : '') : v.trim();
    out[key] = key === 'line' && /^\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}

function searchReplaceOp(o: unknown): { search: string; replace: string }[] {
  if (!o || typeof o !== 'object') return [];
  const r = o as Record<string, unknown>;
  const search = str(r.search) ?? str(r.old_string);
  const replace = str(r.replace) ?? str(r.new_string);
  return search !== undefined && replace !== undefined ? [{ search, replace }] : [];
}

/** Models sometimes wrap a whole file in a fence; Cline removes it before writing. */
function stripFences(content: string | undefined): string | undefined {
  if (content === undefined) return undefined;
  let c = content;
  if (c.startsWith('```')) c = c.slice(c.indexOf('\n') + 1);
  if (/\n```\s*$/.test(c)) c = c.replace(/```\s*$/, '');
  return c;
}

function textBlocks(content: readonly unknown[]): string[] {
  return content.flatMap((c) =>
    c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string' ? [(c as { text: string }).text] : [],
  );
}

/** The `# Current Time` of Cline's environment details as ISO UTC, or undefined (another locale's format). */
export function parseClineTime(text: string): string | undefined {
  const m = timeLine.exec(text);
  if (!m) return undefined;
  const [, mo, d, y, h, mi, s, ampm, offH, offM] = m;
  let hour = Number(h);
  if (ampm === 'PM' && hour < 12) hour += 12;
  if (ampm === 'AM' && hour === 12) hour = 0;
  const sign = offH.startsWith('-') ? -1 : 1;
  const offset = sign * (Math.abs(Number(offH)) * 60 + Number(offM ?? 0));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), hour, Number(mi), Number(s)) - offset * 60_000;
  return Number.isFinite(utc) ? new Date(utc).toISOString() : undefined;
}

function hashOf(v: unknown): string {
  return createHash('sha1')
    .update(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))
    .digest('hex')
    .slice(0, 16);
}
