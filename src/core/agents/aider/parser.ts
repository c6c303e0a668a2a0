import { z } from 'zod';
import { normalizeAgentPath } from '../agentPath';
import { BaseParser, type RecordResult } from '../baseParser';
import { lineCount, replacementStats } from '../editStats';
import type { TranscriptContext } from '../parserTypes';
import { sanitizePrompt } from '../promptSanitizer';
import { isSearchStart, parseSearchReplace } from '../searchReplace';
import { aiderPathInfo } from './pathInfo';

/**
 * Aider's chat history (`.aider.chat.history.md`, appended as the chat goes; docs/transcripts.md §10).
 *
 * - `# aider chat started at <local time>` starts a session (id `aider-<digits of that time>`).
 * - `#### text` lines that end with two spaces are typed lines; consecutive ones are one prompt
 *   (a Markdown heading of the model has no trailing spaces). Slash commands are not prompts
 *   (`/code X` is followed by the `#### X` that was sent).
 * - `> …` lines are aider's output: `Model:`/`Main model:` name the model and edit format;
 *   `Applied edit to <path>` is the proof that a block was written: only blocks of the reply
 *   before it, for that path, become edits; `SEARCH/REPLACE block failed to match` drops the
 *   reply's blocks (aider applied none it reports).
 * - Anything else is the model's reply: SEARCH/REPLACE blocks with their file name on one of the
 *   three lines before (`diff`, `diff-fenced`), or, in the `whole` format, a file name line followed
 *   by a fenced listing; `<think>` sections are skipped.
 * - No timestamps: records take the file's modification time. Paths are relative to the work tree.
 */

interface Block {
  file: string;
  tool: 'search_replace' | 'whole';
  search?: string;
  replace?: string;
  contents?: string;
  id: string;
}

const stateSchema = z.object({ line: z.number().int().nonnegative(), format: z.string().optional() });
const sessionHeader = /^# aider chat started at (.+?)\s*$/;
const modelLine = /^> (?:Main model|Model): (\S+) with (\S+) edit format/;
const appliedLine = /^> Applied edit to (.+?)\s*$/;
const failedLine = /^> # \d+ SEARCH\/REPLACE blocks? failed to match!/;

export class AiderParser extends BaseParser {
  private line = 0;
  private format: string | undefined;
  private promptLines: string[] | undefined;
  private promptLine = 0;
  private reply: string[] = [];
  private replyLine = 0;
  private pending: Block[] = [];

  constructor(ctx: TranscriptContext) {
    super('aider', ctx, aiderPathInfo);
    this.sessionId ??= 'aider';
  }

  protected resetAgentState(): void {
    this.line = 0;
    this.format = undefined;
    this.promptLines = undefined;
    this.reply = [];
    this.pending = [];
    this.sessionId ??= 'aider';
  }

  protected override saveAgentState(): unknown {
    return { line: this.line, format: this.format };
  }

  protected override restoreAgentState(state: unknown): void {
    const p = stateSchema.safeParse(state);
    if (!p.success) return;
    this.line = p.data.line;
    this.format = p.data.format;
  }

  override inFlightText(): boolean {
    return this.promptLines !== undefined || this.reply.length > 0 || this.pending.length > 0;
  }

  protected override handleBlankLine(): void {
    this.line++;
    this.endPrompt();
    if (this.reply.length > 0) this.reply.push('');
  }

  override flush(): ReturnType<BaseParser['flush']> {
    return this.collect(() => this.endPrompt());
  }

  protected handleLine(raw: string): RecordResult {
    this.line++;
    const line = raw.replace(/\r$/, '');
    const session = sessionHeader.exec(line);
    if (session) {
      this.endPrompt();
      this.endReply();
      this.pending = [];
      this.noteSession({ sessionId: `aider-${session[1].replace(/\D/g, '')}`, cwd: this.ctx.cwdHint });
      return 'ok';
    }
    if (line.startsWith('#### ') && /\S? {2}$|^#### {2,}$/.test(line) && line.endsWith('  ')) {
      this.endReply();
      this.pending = [];
      if (this.promptLines === undefined) {
        this.promptLines = [];
        this.promptLine = this.line;
      }
      this.promptLines.push(line.slice(5, -2));
      return 'ok';
    }
    if (line === '>' || line.startsWith('> ')) {
      this.endPrompt();
      this.endReply();
      this.aiderOutput(line);
      return 'ok';
    }
    this.endPrompt();
    if (this.reply.length === 0) this.replyLine = this.line;
    this.reply.push(line);
    return 'ok';
  }

  private aiderOutput(line: string): void {
    const model = modelLine.exec(line);
    if (model) {
      this.format = model[2];
      this.noteSession({ model: model[1], cwd: this.ctx.cwdHint });
      return;
    }
    if (failedLine.test(line)) {
      this.pending = [];
      return;
    }
    const applied = appliedLine.exec(line);
    if (!applied) return;
    const path = applied[1];
    const file = normalizeAgentPath(path, this.cwd ?? this.ctx.cwdHint);
    if (!file) return;
    const mine = this.pending.filter((b) => b.file === path);
    this.pending = this.pending.filter((b) => b.file !== path);
    for (const b of mine) {
      if (b.tool === 'whole') {
        this.emitEdit({ file, tool: 'whole', toolUseId: b.id, contents: b.contents, added: lineCount(b.contents ?? '') });
        continue;
      }
      const stats = replacementStats(b.search ?? '', b.replace ?? '');
      this.emitEdit({
        file,
        tool: 'search_replace',
        toolUseId: b.id,
        oldString: b.search,
        newString: b.replace,
        added: stats.added,
        removed: stats.removed,
      });
    }
  }

  private endPrompt(): void {
    const lines = this.promptLines;
    if (lines === undefined) return;
    this.promptLines = undefined;
    const text = lines.join('\n');
    if (text.trimStart().startsWith('/')) return;
    const clean = sanitizePrompt(text);
    if (clean === undefined) return;
    this.noteSession({ cwd: this.ctx.cwdHint });
    this.emit({ kind: 'prompt', text: clean, recordId: `l${this.promptLine}`, model: this.model });
  }

  /** The reply is complete (aider output or a prompt follows): its text, and its blocks wait for `Applied edit`. */
  private endReply(): void {
    const lines = this.reply;
    if (lines.length === 0) return;
    this.reply = [];
    const text = lines.join('\n').trim();
    if (text) this.emit({ kind: 'response', text, model: this.model });
    this.pending.push(...findBlocks(lines, this.format === 'whole', `${this.sessionId ?? 'aider'}:${this.replyLine}`));
  }
}

/** The edit blocks of one reply. */
export function findBlocks(lines: readonly string[], whole: boolean, idPrefix: string): Block[] {
  const out: Block[] = [];
  let think = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^\s*<think>/.test(l)) think = true;
    if (think) {
      if (l.includes('</think>')) think = false;
      continue;
    }
    if (isSearchStart(l)) {
      const file = fileNameBefore(lines, i);
      let j = i + 1;
      while (j < lines.length && !/^(?:>{3,}|\+{3,}) ?REPLACE>?\s*$/.test(lines[j])) j++;
      if (j >= lines.length) break;
      if (file)
        for (const b of parseSearchReplace(lines.slice(i, j + 1).join('\n')))
          out.push({ file, tool: 'search_replace', ...b, id: `${idPrefix}:${i}` });
      i = j;
      continue;
    }
    if (whole && /^```/.test(l)) {
      let j = i + 1;
      while (j < lines.length && !lines[j].startsWith('```')) j++;
      if (j >= lines.length) break;
      const file = i > 0 ? stripFileName(lines[i - 1]) : undefined;
      const body = lines.slice(i + 1, j);
      if (file && !body.some((b) => isSearchStart(b)))
        out.push({ file, tool: 'whole', contents: body.length ? body.join('\n') + '\n' : '', id: `${idPrefix}:${i}` });
      i = j;
    }
  }
  return out;
}

/** Aider looks for the file name on the (up to) three lines before a block, skipping fences. */
function fileNameBefore(lines: readonly string[], at: number): string | undefined {
  for (let k = at - 1; k >= Math.max(0, at - 3); k--) {
    const l = lines[k].trim();
    if (!l || l.startsWith('```')) continue;
    return stripFileName(l);
  }
  return undefined;
}

function stripFileName(line: string): string | undefined {
  let s = line.trim();
  if (s === '...' || s.startsWith('```')) return undefined;
  s = s
    .replace(/^#+\s*/, '')
    .replace(/:$/, '')
    .replace(/^[`*]+|[`*]+$/g, '')
    .trim();
  return s.length > 0 && s.length < 512 ? s : undefined;
}
