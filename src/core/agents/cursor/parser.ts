import { z } from 'zod';
import type { AgentEvent } from '../../model/agentEvents';
import { normalizeAgentPath } from '../agentPath';
import { parseApplyPatch, patchTextOf } from '../applyPatch';
import { BaseParser, type RecordResult, str } from '../baseParser';
import { replacementStats } from '../editStats';
import { parseCursorTimestamp, sanitizeCursorPrompt, unwrapCursorUserText } from '../promptSanitizer';
import type { TranscriptContext } from '../parserTypes';
import { cursorPathInfo } from './pathInfo';

/**
 * Cursor agent transcripts (`~/.cursor/projects/<slug>/agent-transcripts/…`, docs/transcripts.md §1.2).
 *
 * JSONL (2026): `{role, message:{content:[text | tool_use]}}` plus `turn_ended`/`error` lines. No
 * timestamps (except the `<timestamp>` tag of newer user messages), no model, no tool ids, no
 * tool results. Prompts are the `<user_query>` bodies; every assistant record's text is one
 * response segment; edit tools (`StrReplace`, `Write`, `ApplyPatch`, `Delete`, `Edit`, `MultiEdit`
 * and the DB-era snake_case names) become edit events; `Shell` becomes a tool (+ commit) event.
 *
 * Legacy `.txt`: `user:` / `assistant:` blocks, `[Tool call] Name` followed by `  key: value`
 * lines (multi-line values continue unindented), `[Tool result]` and `[Thinking]` markers. A block
 * is complete when the next marker arrives; flush() releases held-back assistant text (and a user
 * block whose `</user_query>` was seen) at the end of the available input. Old/new strings parsed
 * from `.txt` are low confidence (docs/transcripts.md §1.2).
 */

const jsonRecord = z
  .object({
    role: z.string().optional(),
    type: z.string().optional(),
    message: z
      .object({ role: z.string().optional(), content: z.union([z.string(), z.array(z.unknown())]) })
      .passthrough()
      .optional(),
  })
  .passthrough();

const textPart = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
const toolUsePart = z.object({ type: z.literal('tool_use'), name: z.string(), input: z.unknown().optional() }).passthrough();

const knownLineTypes = new Set(['turn_ended', 'error']);

type TxtState = 'none' | 'user' | 'userDone' | 'assistant' | 'tool' | 'result' | 'thinking';

interface TxtTool {
  name: string;
  fields: [string, string[]][];
}

const txtStateSchema = z.object({
  state: z.enum(['none', 'user', 'userDone', 'assistant', 'tool', 'result', 'thinking']),
  userLines: z.array(z.string()),
  textLines: z.array(z.string()),
  tool: z.object({ name: z.string(), fields: z.array(z.tuple([z.string(), z.array(z.string())])) }).optional(),
  /** The block's earlier lines were not saved (never transcript text in the persisted state). */
  lost: z.boolean().optional(),
});

export class CursorParser extends BaseParser {
  private readonly txt: boolean;
  private state: TxtState = 'none';
  private userLines: string[] = [];
  private textLines: string[] = [];
  private tool: TxtTool | undefined;
  /** The current block began before a resume: its earlier lines are unknown (see saveAgentState). */
  private lost = false;

  constructor(ctx: TranscriptContext) {
    super('cursor', ctx, cursorPathInfo);
    this.txt = /\.txt$/i.test(ctx.filePath);
  }

  protected override linesAreJson(): boolean {
    return !this.txt;
  }

  protected resetAgentState(): void {
    this.state = 'none';
    this.userLines = [];
    this.textLines = [];
    this.tool = undefined;
    this.lost = false;
  }

  /**
   * The block state at the cut, without its lines (the state is persisted in
   * `transcript-offsets.json`, which holds no transcript text). After a resume inside a block, a
   * response or tool block is not emitted, a prompt is emitted with what follows the cut after
   * `… ` (so turns keep their numbers).
   */
  protected override saveAgentState(): unknown {
    if (!this.txt || this.state === 'none') return undefined;
    const inBlock = this.userLines.length > 0 || this.textLines.length > 0 || this.tool !== undefined || this.lost;
    return { state: this.state, userLines: [], textLines: [], ...(inBlock ? { lost: true } : {}) };
  }

  override inFlightText(): boolean {
    return this.txt && (this.lost || this.userLines.length > 0 || this.textLines.length > 0 || this.tool !== undefined);
  }

  protected override restoreAgentState(state: unknown): void {
    const p = txtStateSchema.safeParse(state);
    if (!this.txt || !p.success) return;
    this.state = p.data.state;
    this.userLines = p.data.userLines;
    this.textLines = p.data.textLines;
    this.tool = p.data.tool;
    this.lost = p.data.lost === true;
    // a tool block split by the resume: its later fields still need somewhere to go (it is not emitted)
    if (this.state === 'tool' && !this.tool) this.tool = { name: '', fields: [] };
  }

  /**
   * Cursor `.txt` lines are text, not JSON; a JSONL file may still hold a stray non-JSON line
   * (counted as invalidJson).
   */
  protected handleLine(line: string): RecordResult {
    return this.txt ? this.handleTxtLine(line) : this.handleJsonLine(line);
  }

  override flush(): AgentEvent[] {
    if (!this.txt) return [];
    return this.collect(() => {
      if (this.state === 'assistant') this.finishText();
      else if (this.state === 'user' && this.userLines.some((l) => /<\/user_query>/i.test(l))) {
        this.finishUser();
        this.state = 'userDone';
      }
    });
  }

  // ─── JSONL ───────────────────────────────────────────────────────────────────────────────────

  private handleJsonLine(line: string): RecordResult {
    const json = this.parseJson(line);
    if (!json) return 'invalidJson';
    const parsed = jsonRecord.safeParse(json.value);
    if (!parsed.success) return 'schemaMismatch';
    const r = parsed.data;
    const role = (r.role ?? r.message?.role)?.toLowerCase();
    if (role === undefined) {
      if (r.type !== undefined) return knownLineTypes.has(r.type) ? 'ok' : 'unknownType';
      return 'schemaMismatch';
    }
    if (!r.message) return 'schemaMismatch';
    const content = r.message.content;
    if (role === 'user' || role === 'human') {
      const text = typeof content === 'string' ? content : joinParts(content);
      this.noteSession({});
      if (text !== undefined) this.emitPrompt(text);
      return 'ok';
    }
    if (role !== 'assistant' && role !== 'model') return 'unknownType';
    this.noteSession({});
    if (typeof content === 'string') {
      if (content.trim()) this.emit({ kind: 'response', text: content });
      return 'ok';
    }
    let texts: string[] = [];
    const flushText = () => {
      if (texts.length) this.emit({ kind: 'response', text: texts.join('\n') });
      texts = [];
    };
    for (const part of content) {
      const t = textPart.safeParse(part);
      if (t.success) {
        if (t.data.text.trim()) texts.push(t.data.text);
        continue;
      }
      const u = toolUsePart.safeParse(part);
      if (!u.success) continue;
      flushText();
      this.handleTool(u.data.name, u.data.input);
    }
    flushText();
    return 'ok';
  }

  private emitPrompt(raw: string): void {
    const { timestampText } = unwrapCursorUserText(raw);
    const text = sanitizeCursorPrompt(raw);
    if (text === undefined) return;
    const timestamp = timestampText !== undefined ? parseCursorTimestamp(timestampText) : undefined;
    this.emit({ kind: 'prompt', timestamp, text });
  }

  // ─── tools (shared by JSONL and .txt) ─────────────────────────────────────────────────────────

  private handleTool(name: string, rawInput: unknown): void {
    const input = (rawInput && typeof rawInput === 'object' && !Array.isArray(rawInput) ? rawInput : {}) as Record<string, unknown>;
    const pathOf = (o: Record<string, unknown>) => {
      const p = str(o.path) ?? str(o.file_path) ?? str(o.target_file) ?? str(o.filePath) ?? str(o.relativeWorkspacePath);
      return p !== undefined ? normalizeAgentPath(p, this.cwd) : undefined;
    };
    switch (name.toLowerCase()) {
      case 'strreplace':
      case 'search_replace':
      case 'edit_file_v2_search_replace':
      case 'edit': {
        const file = pathOf(input);
        if (!file) break;
        const oldString = str(input.old_string) ?? str(input.oldString);
        const newString = str(input.new_string) ?? str(input.newString);
        const replaceAll = typeof input.replace_all === 'boolean' ? input.replace_all : input.replace_all === 'true' ? true : undefined;
        const stats = oldString !== undefined && newString !== undefined ? replacementStats(oldString, newString) : undefined;
        this.emitEdit({ file, tool: name, oldString, newString, replaceAll, added: stats?.added, removed: stats?.removed });
        return;
      }
      case 'multiedit': {
        const file = pathOf(input);
        if (!file || !Array.isArray(input.edits)) break;
        for (const e of input.edits as unknown[]) {
          const o = (e && typeof e === 'object' ? e : {}) as Record<string, unknown>;
          const oldString = str(o.old_string);
          const newString = str(o.new_string);
          const stats = oldString !== undefined && newString !== undefined ? replacementStats(oldString, newString) : undefined;
          this.emitEdit({ file, tool: name, oldString, newString, added: stats?.added, removed: stats?.removed });
        }
        return;
      }
      case 'write':
      case 'write_file': {
        const file = pathOf(input);
        if (!file) break;
        this.emitEdit({ file, tool: name, contents: str(input.contents) ?? str(input.content) });
        return;
      }
      case 'applypatch':
      case 'apply_patch':
      case 'edit_file_v2_apply_patch': {
        const patch = patchTextOf(rawInput);
        if (!patch) break;
        for (const f of parseApplyPatch(patch)) {
          const file = normalizeAgentPath(f.moveTo ?? f.path, this.cwd);
          if (!file) continue;
          const movedFrom = f.moveTo !== undefined ? normalizeAgentPath(f.path, this.cwd) : undefined;
          this.emitEdit({
            file,
            tool: name,
            patch: f.text,
            contents: f.op === 'add' ? f.content : undefined,
            deleted: f.op === 'delete' || undefined,
            movedFrom,
            added: f.added,
            removed: f.removed,
          });
        }
        return;
      }
      case 'delete':
      case 'delete_file': {
        const file = pathOf(input);
        if (!file) break;
        this.emitEdit({ file, tool: name, deleted: true });
        return;
      }
      case 'shell':
      case 'run_terminal_cmd':
      case 'run_terminal_command':
        this.emitShell(name, str(input.command) ?? (typeof rawInput === 'string' ? rawInput : undefined), undefined, undefined);
        return;
    }
    this.emit({ kind: 'tool', tool: name });
  }

  // ─── legacy .txt ─────────────────────────────────────────────────────────────────────────────

  protected override handleBlankLine(): void {
    if (!this.txt) return;
    if (this.state === 'thinking') this.state = 'assistant';
    else if (this.state === 'user' || this.state === 'assistant') (this.state === 'user' ? this.userLines : this.textLines).push('');
    else if (this.state === 'tool' && this.tool!.fields.length > 0) this.tool!.fields[this.tool!.fields.length - 1][1].push('');
  }

  private handleTxtLine(line: string): RecordResult {
    const marker = line.trimEnd();
    if (marker === 'user:' || marker === 'human:') {
      this.finishBlock();
      this.noteSession({});
      this.state = 'user';
      return 'ok';
    }
    if (marker === 'assistant:' || marker === 'ai:') {
      this.finishBlock();
      this.noteSession({});
      this.state = 'assistant';
      return 'ok';
    }
    const toolCall = /^\[Tool call\]\s*(.+)$/.exec(marker);
    if (toolCall) {
      this.finishBlock();
      this.tool = { name: toolCall[1].trim(), fields: [] };
      this.state = 'tool';
      return 'ok';
    }
    if (/^\[Tool result\]/.test(marker)) {
      this.finishBlock();
      this.state = 'result';
      return 'ok';
    }
    if (/^\[Thinking\]/.test(marker)) {
      this.finishBlock();
      this.state = 'thinking';
      return 'ok';
    }
    switch (this.state) {
      case 'user':
        this.userLines.push(line);
        break;
      case 'assistant':
        this.textLines.push(line);
        break;
      case 'tool': {
        const kv = /^ {2}([A-Za-z_][\w-]*):(?: (.*))?$/.exec(line);
        if (kv) this.tool!.fields.push([kv[1], [kv[2] ?? '']]);
        else if (this.tool!.fields.length > 0) this.tool!.fields[this.tool!.fields.length - 1][1].push(line);
        break;
      }
      default:
        // `[Tool result]` bodies, text after a flushed user block, text before the first marker
        break;
    }
    return 'ok';
  }

  private finishBlock(): void {
    if (this.state === 'user') this.finishUser();
    else if (this.state === 'assistant') this.finishText();
    else if (this.state === 'tool') this.finishTool();
    this.state = 'none';
    this.lost = false;
  }

  private finishUser(): void {
    const text = this.userLines.join('\n');
    this.userLines = [];
    const lost = this.lost;
    this.lost = false;
    if (lost) this.emitPrompt(`… ${text.trim()}`);
    else if (text.trim()) this.emitPrompt(text);
  }

  private finishText(): void {
    const text = this.textLines.join('\n').trim();
    this.textLines = [];
    // a block split by a resume stays silent until it ends (finishBlock clears `lost`)
    if (this.lost) return;
    if (text) this.emit({ kind: 'response', text });
  }

  private finishTool(): void {
    const tool = this.tool;
    this.tool = undefined;
    if (this.lost) {
      this.lost = false;
      return;
    }
    if (!tool) return;
    const input: Record<string, unknown> = {};
    for (const [k, lines] of tool.fields) {
      while (lines.length > 1 && lines[lines.length - 1].trim() === '') lines.pop();
      input[k] = lines.join('\n');
    }
    const patch = input.patch ?? input.input;
    this.handleTool(tool.name, typeof patch === 'string' && /applypatch|apply_patch/i.test(tool.name) ? patch : input);
  }
}

function joinParts(content: unknown[]): string | undefined {
  const texts: string[] = [];
  for (const p of content) {
    const t = textPart.safeParse(p);
    if (t.success) texts.push(t.data.text);
  }
  return texts.length ? texts.join('\n') : undefined;
}
