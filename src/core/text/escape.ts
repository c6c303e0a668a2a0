/**
 * Escaping of untrusted text (note fields, transcript text, commit subjects, paths) for each surface
 * that shows it (issue #14 part 4). Pure; shared by the hover, status bar, CodeLens, quick picks,
 * the PR report, "Copy as Markdown" and the webviews. Pick the helper by surface:
 *
 * | Surface | Helper |
 * | --- | --- |
 * | VS Code `MarkdownString` (hover, status bar tooltip), one line | {@link escapeMarkdown} |
 * | Plain labels that render `$(icon)` (CodeLens title, status bar text, quick pick items) | {@link plainLabel} |
 * | HTML (webviews), element text and quoted attributes | {@link escapeHtml} |
 * | GitHub Markdown (PR report, Copy as Markdown): inline code | {@link markdownCodeSpan} |
 * | GitHub Markdown: one-line text (headings, list items) | {@link githubInline} |
 * | GitHub Markdown: a table cell | {@link githubTableCell} |
 * | GitHub Markdown: a quoted multi-line block that keeps its Markdown | {@link githubQuote} |
 *
 * Every one-line helper first applies {@link singleLine}: CR, LF and the other line and paragraph
 * separators become spaces, control and bidirectional-override characters are removed.
 */

/** Line breaks of any kind (CommonMark's CR/LF plus VT, FF, NEL, LINE/PARAGRAPH SEPARATOR). */
const lineBreaks = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
/** C0/C1 controls (but tab and line breaks, handled apart), DEL, and bidi embedding/override/isolate marks. */
// eslint-disable-next-line no-control-regex
const invisibleControls = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` cut to `max` code points with a trailing … (surrogate-safe, linear in `max`, not in the text). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let i = 0;
  let points = 0;
  while (i < text.length && points < max - 1) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
    points++;
  }
  if (i >= text.length) return text;
  // the rest holds at least one more code point: fits only if exactly one remains
  const rest = text.length - i;
  const c = text.charCodeAt(i);
  if (rest === 1 || (rest === 2 && c >= 0xd800 && c <= 0xdbff)) return text;
  return `${text.slice(0, i)}…`;
}

/**
 * One line of plain text: line breaks and tabs become spaces, control and bidi-override
 * characters are removed, runs of whitespace collapse, the ends are trimmed; cut at `maxChars`.
 */
export function singleLine(text: string, maxChars = Number.POSITIVE_INFINITY): string {
  let source = String(text ?? '');
  // only as much of a long text as the cut can keep (a response can be a megabyte long)
  if (Number.isFinite(maxChars) && source.length > maxChars * 4 + 256) source = `${source.slice(0, maxChars * 4 + 256)}…`;
  const line = source
    .replace(lineBreaks, ' ')
    .replace(invisibleControls, '')
    .replace(/[\t ]+/g, ' ')
    .trim();
  return Number.isFinite(maxChars) ? cutText(line, maxChars) : line;
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[&<>"']/g, (c) => htmlEntities[c]);
}

/**
 * One line of untrusted text for a VS Code `MarkdownString` (hover, tooltips; theme icons on or off):
 * - every character that can start inline Markdown is backslash-escaped (emphasis, code, links,
 *   images, raw HTML such as `<span>` — which a trusted MarkdownString would keep —, entities,
 *   tables, strikethrough), and `:` and `@` too, so no bare `https://…` or e-mail autolink forms,
 *   and the `.` of `www.`;
 * - a character that would start a block at the beginning (`-`, `#`, `>`, `1.`…) is escaped there;
 * - `$` is written as `&#36;`: VS Code replaces `$(icon)` in the *rendered* HTML, where a
 *   backslash escape is already gone; the entity is decoded only afterwards, as plain text;
 * - line breaks become spaces ({@link singleLine}), so the text cannot open a new block.
 * Hyphens, dots and slashes elsewhere stay as they are (`claude-opus-4-6`, `src/a.ts`).
 */
export function escapeMarkdown(text: string, maxChars?: number): string {
  return singleLine(text, maxChars)
    .replace(/[\\`*_{}[\]()#+!|<>~&:@"'^=]/g, (c) => `\\${c}`)
    .replace(/\$/g, '&#36;')
    .replace(/(www)\./gi, '$1\\.')
    .replace(/^(\d{1,9})([.)])/, '$1\\$2')
    .replace(/^[-=]/, (c) => `\\${c}`);
}

/**
 * `$(name)` icon syntax neutralized for plain labels that render icons (CodeLens titles, status
 * bar text, quick pick labels/descriptions/details): `\$(name)` shows the text `$(name)`.
 */
export function escapeCodicons(text: string): string {
  return text.replace(/\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/g, (m) => `\\${m}`);
}

/** One line for a plain label: {@link singleLine} + {@link escapeCodicons}. */
export function plainLabel(text: string, maxChars?: number): string {
  return escapeCodicons(singleLine(text, maxChars));
}

/**
 * Text for a notification (`showErrorMessage`…), which renders `[text](link)` as a link and
 * `$(icon)`: one line, icons escaped, `](` broken up so no link forms.
 */
export function notificationText(text: string, maxChars = 500): string {
  return plainLabel(text, maxChars).replace(/\]\(/g, '] (');
}

/**
 * GitHub/CommonMark inline code of one line: a backtick fence longer than any run of backticks in
 * the value, padded with a space where the value starts or ends with a backtick or a space (so
 * the padding CommonMark strips is ours). Nothing inside a code span is interpreted (no HTML,
 * no links). An empty value gives an empty string.
 */
export function markdownCodeSpan(value: string): string {
  const line = singleLine(value);
  if (!line) return '';
  const runs = line.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = /^[` ]|[` ]$/.test(line) ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * Markdown kept as Markdown (emphasis, lists, code) but without what can reach outside its text:
 * - raw HTML: `<` before a letter, `/`, `!` or `?` (a tag, comment, declaration, processing
 *   instruction or autolink) becomes `&lt;`, so `</details>`, `<img src=…>` and `<!--` are text;
 * - images: `![` becomes `!\[` (no remote image is ever fetched);
 * - links: a `]` followed by `(`, `[` or `:` is escaped, so no inline link, reference link or
 *   link reference definition forms;
 * - lone CRs become LFs (a CR is a line break in CommonMark; callers prefix lines they split at LF).
 * Inside code spans and fences the escapes show literally: a small cost that only hostile-looking
 * text pays.
 */
export function defangMarkdown(text: string): string {
  return String(text ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(invisibleControls, '')
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;')
    .replace(/!\[/g, '!\\[')
    .replace(/\](?=[([:])/g, '\\]');
}

/** One line of GitHub Markdown text (a heading, a list item): {@link singleLine} + {@link defangMarkdown}. */
export function githubInline(text: string, maxChars?: number): string {
  return defangMarkdown(singleLine(text, maxChars));
}

/** A GitHub table cell: one line, defanged, `|` escaped (GFM honours `\|` inside code spans in tables too). */
export function githubTableCell(text: string): string {
  return githubInline(text).split('|').join('\\|');
}

/**
 * A block quote of untrusted multi-line Markdown: every line (split at CR, LF or CRLF) starts
 * with `> `, so a line can never leave the quote (an unclosed fence or HTML block ends with it),
 * and the text is defanged ({@link defangMarkdown}).
 */
export function githubQuote(text: string): string {
  return `> ${defangMarkdown(text).split('\n').join('\n> ')}`;
}

/**
 * Text inside an HTML comment (`<!-- … -->`): `<`/`>` as entities, `--` broken up, so the comment
 * cannot end early or open markup.
 */
export function htmlCommentText(text: string): string {
  return String(text ?? '')
    .replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))
    .replace(/-(?=-)/g, '- ');
}
