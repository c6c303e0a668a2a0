/**
 * One Agent Note as readable Markdown ("Copy as Markdown" of the Show Note panel): header,
 * AI Ratio, every interaction with full prompt, contexts and response, and the files table.
 * Prompt and response text is quoted as Markdown (like the CLI's PR report) but defanged (no raw
 * HTML, images or links, src/core/text/escape.ts); one-line values, table cells and inline code are
 * escaped so untrusted text cannot break the structure. Pure.
 */
import { normalizeInteractionContexts } from '../notes/interactionContexts';
import type { AgentNoteV1, NoteAiRange, NoteFile, NoteInteraction } from '../notes/noteTypes';
import { evaluatePrompt } from '../notes/promptScoring';
import { progressBar } from './prReport';
import { githubInline, githubQuote, githubTableCell, markdownCodeSpan } from '../text/escape';

/** The commit a note belongs to. */
export interface NoteCommitInfo {
  sha: string;
  short: string;
  subject: string;
  /** Author name (`%an`). */
  author?: string;
  /** Author date, ISO-8601 (`%aI`). */
  date?: string;
}

/** English defaults of the Markdown labels; `{0}`… are placeholders. */
export const noteMarkdownDefaultStrings = {
  title: 'Agent Note',
  commit: 'Commit',
  author: 'Author',
  date: 'Date',
  agent: 'Agent',
  model: 'Model',
  session: 'Session',
  recorded: 'Recorded',
  derivedFrom: 'Derived from (squash or rebase merge)',
  aiRatio: 'AI Ratio',
  lines: '{0}/{1} added lines by AI, {2} deleted',
  prompts: 'Prompts ({0})',
  prompt: 'Prompt {0}',
  context: 'Context',
  response: 'Response',
  noResponse: 'No response recorded.',
  filesTouched: 'Files',
  tools: 'Tools',
  selection: 'Selection',
  level: 'level {0}',
  files: 'Files ({0})',
  file: 'File',
  by: 'By',
  flags: 'Flags',
  aiLines: 'AI lines',
  ai: 'AI',
  human: 'Human',
  generated: 'generated',
  excluded: 'excluded from AI Ratio',
  promptRef: 'prompt {0}',
  noPrompts: 'No prompts recorded.',
} as const;

export type NoteMarkdownStringKey = keyof typeof noteMarkdownDefaultStrings;

function fmt(template: string, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
}

/** Inline code that survives backticks, line breaks and HTML in the value (markdownCodeSpan). */
export function inlineCode(value: string): string {
  return markdownCodeSpan(value) || '` `';
}

/** Text for one table cell: one line, `|` escaped, no HTML/images/links. */
function cell(value: string): string {
  return githubTableCell(value);
}

/** Inline text (subject, author): one line, no HTML, images or links. */
function inline(value: string): string {
  return githubInline(value);
}

function quoteBlock(text: string): string {
  return githubQuote(text);
}

/** `12–18` or `7`. */
export function formatRange(r: NoteAiRange): string {
  return r.start === r.end ? String(r.start) : `${r.start}–${r.end}`;
}

/** Render a note as Markdown. `strings` overrides labels (localized by the host). */
export function noteToMarkdown(
  commit: NoteCommitInfo,
  note: AgentNoteV1,
  strings: Partial<Record<NoteMarkdownStringKey, string>> = {},
): string {
  const s = (key: NoteMarkdownStringKey, ...args: (string | number)[]) => fmt(strings[key] || noteMarkdownDefaultStrings[key], ...args);
  const out: string[] = [];
  out.push(`## 🧑💬🤖 ${s('title')}: ${inlineCode(commit.short)} ${inline(commit.subject)}`, '');

  const meta: [string, string][] = [[s('commit'), inlineCode(commit.sha)]];
  if (commit.author) meta.push([s('author'), inline(commit.author)]);
  if (commit.date) meta.push([s('date'), inline(commit.date)]);
  if (note.agent) meta.push([s('agent'), inline(note.agent)]);
  if (note.model) meta.push([s('model'), inlineCode(note.model)]);
  if (note.session_id) meta.push([s('session'), inlineCode(note.session_id)]);
  if (note.timestamp) meta.push([s('recorded'), inline(note.timestamp)]);
  if (note.derived_from?.length) meta.push([s('derivedFrom'), note.derived_from.map(inlineCode).join(', ')]);
  for (const [k, v] of meta) out.push(`- **${k}:** ${v}`);
  out.push('');

  const a = note.attribution;
  const ratioParts = [`${progressBar(a.ai_ratio, 8)} ${a.ai_ratio}%`, a.method];
  if (a.lines) ratioParts.push(s('lines', a.lines.ai_added, a.lines.total_added, a.lines.deleted));
  out.push(`**${s('aiRatio')}:** ${ratioParts.join(' · ')}`, '');

  out.push(`### 💬 ${s('prompts', note.interactions.length)}`, '');
  if (note.interactions.length === 0) out.push(`_${s('noPrompts')}_`, '');
  note.interactions.forEach((it, i) => out.push(...interactionMarkdown(it, i, s)));

  out.push(`### 📄 ${s('files', note.files.length)}`, '');
  if (note.files.length > 0) {
    out.push(`| ${s('file')} | ${s('by')} | ${s('flags')} | ${s('aiLines')} |`, '|---|---|---|---|');
    for (const f of note.files) out.push(fileRow(f, s));
    out.push('');
  }
  return out.join('\n');
}

type Label = (key: NoteMarkdownStringKey, ...args: (string | number)[]) => string;

function interactionMarkdown(it: NoteInteraction, index: number, s: Label): string[] {
  const out: string[] = [`#### 🧑 ${s('prompt', index + 1)}`, ''];
  for (const c of normalizeInteractionContexts(it)) out.push(`**📝 ${s('context')}** (${c.kind})`, quoteBlock(c.text), '');
  out.push(quoteBlock(it.prompt), '');
  if (typeof it.response === 'string' && it.response !== '') out.push(`**🤖 ${s('response')}**`, quoteBlock(it.response), '');
  else out.push(`_${s('noResponse')}_`, '');
  const facts: string[] = [];
  if (it.files_touched?.length) facts.push(`📄 ${s('filesTouched')}: ${it.files_touched.map(inlineCode).join(', ')}`);
  if (it.tools?.length) facts.push(`🔧 ${s('tools')}: ${it.tools.map(inline).join(', ')}`);
  if (it.selection) {
    const level = evaluatePrompt(it).level;
    const signals = it.selection.signals.length ? ` (${it.selection.signals.map(inline).join(', ')})` : '';
    facts.push(`🧭 ${s('selection')}: ${inline(it.selection.source)}${signals} · ${s('level', level)}`);
  }
  if (facts.length) out.push(facts.join('  \n'), '');
  return out;
}

function fileRow(f: NoteFile, s: Label): string {
  const flags: string[] = [];
  if (f.generated) flags.push(s('generated'));
  if (f.ai_ratio_excluded) flags.push(s('excluded'));
  const ranges = (f.ai_ranges ?? [])
    .map((r) => (r.interaction !== null ? `${formatRange(r)} (${s('promptRef', r.interaction + 1)})` : formatRange(r)))
    .join(', ');
  return `| ${inlineCode(f.path).split('|').join('\\|')} | ${f.by_ai ? `🤖 ${s('ai')}` : `👤 ${s('human')}`} | ${cell(flags.join(', '))} | ${cell(ranges)} |`;
}
