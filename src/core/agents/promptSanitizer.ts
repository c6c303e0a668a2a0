/**
 * Prompt sanitization: the common rules of docs/note-format.md §4.4 (applied to every agent's
 * prompts) plus the per-agent rules of docs/transcripts.md (Claude §2.4, Cursor §1.3, Codex §3.4).
 * Pure string functions: `undefined` means "not a user prompt, drop it".
 */

const leadingEnvironmentContext =
  /^<environment_context(?:\s[^>]*)?\/>|^<environment_context(?:\s[^>]*)?>[\s\S]*?<\/environment_context\s*>/i;

/** Exactly one element (with optional attributes, self-closing or with a body) and nothing else. */
const singleInjectedElement =
  /^<(task-notification|system-reminder|teammate-message)(?:\s[^>]*)?(?:\/>|>(?:(?!<\/\1\s*>)[\s\S])*<\/\1\s*>)$/i;

/**
 * docs/note-format.md §4.4: trim; strip leading `<environment_context>` blocks (repeatedly);
 * drop text that is exactly one `<task-notification>`, `<system-reminder>` or `<teammate-message>`
 * element. Returns the sanitized prompt, or undefined when it must be dropped.
 */
export function sanitizePrompt(text: string): string | undefined {
  let t = text.trim();
  if (!t) return undefined;
  for (;;) {
    const m = leadingEnvironmentContext.exec(t);
    if (!m) break;
    t = t.slice(m[0].length).trim();
  }
  if (!t) return undefined;
  if (singleInjectedElement.test(t)) return undefined;
  return t;
}

// ─── Claude Code (docs/transcripts.md §2.4) ────────────────────────────────────────────────────

/**
 * Prefixes of user text written by Claude Code itself (slash commands, local shell, notices).
 * `<system-reminder>`/`<task-notification>` are not here: reminders are stripped first and a text
 * that is only one such element is dropped by docs/note-format.md §4.4, while user text after one is kept.
 */
const claudeLocalMarkers = [
  '<command-name>',
  '<command-message>',
  '<command-args>',
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  '<bash-input>',
  '<bash-stdout>',
  '<bash-stderr>',
  'Caveat: The messages below',
  '[Request interrupted by user',
];

const systemReminderBlock = /<system-reminder(?:\s[^>]*)?>[\s\S]*?<\/system-reminder\s*>|<system-reminder(?:\s[^>]*)?\/>/gi;

/**
 * Context the IDE extensions (VS Code, JetBrains) put in front of a typed prompt: the file that is
 * open, the selection, the diagnostics. Not typed by the user: removed wherever it stands.
 */
const ideContextBlock =
  /<(ide_opened_file|ide_selection|ide_diagnostics|ide_context)(?:\s[^>]*)?>[\s\S]*?<\/\1\s*>|<(?:ide_opened_file|ide_selection|ide_diagnostics|ide_context)(?:\s[^>]*)?\/>/gi;

/** Fields of a Claude `user` record that decide whether it is a typed prompt. */
export interface ClaudePromptFlags {
  isMeta?: unknown;
  isCompactSummary?: unknown;
  isVisibleInTranscriptOnly?: unknown;
  promptSource?: unknown;
  origin?: unknown;
}

/** True when a Claude user record is flagged as not typed by the user (meta, summary, SDK, …). */
export function isClaudeInjectedRecord(flags: ClaudePromptFlags): boolean {
  if (flags.isMeta === true || flags.isCompactSummary === true || flags.isVisibleInTranscriptOnly === true) return true;
  if (typeof flags.promptSource === 'string' && flags.promptSource !== 'typed') return true;
  const origin = flags.origin;
  if (origin && typeof origin === 'object' && 'kind' in origin) {
    const kind = (origin as { kind?: unknown }).kind;
    if (typeof kind === 'string' && kind !== 'human') return true;
  }
  return false;
}

/**
 * Claude prompt text: drops local-command/notice texts, strips embedded `<system-reminder>` blocks,
 * then applies docs/note-format.md §4.4. The record-level flags are checked separately by isClaudeInjectedRecord.
 */
export function sanitizeClaudePrompt(text: string): string | undefined {
  const stripped = text.replace(systemReminderBlock, '').replace(ideContextBlock, '');
  const start = stripped.trimStart();
  if (claudeLocalMarkers.some((m) => start.startsWith(m))) return undefined;
  return sanitizePrompt(stripped);
}

// ─── Cursor (docs/transcripts.md §1.3) ─────────────────────────────────────────────────────────

const cursorTimestampTag = /<timestamp>([\s\S]*?)<\/timestamp>/i;
const cursorUserQuery = /<user_query>([\s\S]*?)<\/user_query>/gi;

/** The text of a Cursor user message without its wrapper, plus the `<timestamp>` tag text if any. */
export interface CursorUnwrapped {
  text: string;
  /** Raw `<timestamp>` tag text, e.g. `Monday, Oct 5, 2026, 9:14 AM (UTC+2)`. */
  timestampText?: string;
}

/**
 * Unwraps a Cursor user message: keeps only the `<user_query>` bodies (joined by a blank line) when
 * present, else the text without a `<timestamp>` tag. Text without the wrapper is kept as is.
 */
export function unwrapCursorUserText(text: string): CursorUnwrapped {
  const ts = cursorTimestampTag.exec(text);
  const bodies = [...text.matchAll(cursorUserQuery)].map((m) => m[1].trim()).filter((b) => b.length > 0);
  const body = bodies.length > 0 ? bodies.join('\n\n') : text.replace(cursorTimestampTag, '');
  return ts ? { text: body, timestampText: ts[1].trim() } : { text: body };
}

/** Cursor prompt: unwrap then docs/note-format.md §4.4. */
export function sanitizeCursorPrompt(text: string): string | undefined {
  return sanitizePrompt(unwrapCursorUserText(text).text);
}

const months: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

/**
 * Parses Cursor's human-readable `<timestamp>` text (`Tuesday, Sep 8, 2026, 1:56 PM (UTC-7)`) into
 * an ISO-8601 UTC string (minute resolution). Returns undefined when the text has another shape.
 */
export function parseCursorTimestamp(text: string): string | undefined {
  const m =
    /(?:^|,\s*)([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s*(\d{4}),\s*(\d{1,2}):(\d{2})\s*([AP]M)\s*\(UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?\)/i.exec(
      text,
    );
  if (!m) return undefined;
  const month = months[m[1].toLowerCase()];
  if (month === undefined) return undefined;
  let hour = Number(m[4]) % 12;
  if (m[6].toUpperCase() === 'PM') hour += 12;
  const offsetMin = m[7] ? (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9] ?? 0)) : 0;
  const utc = Date.UTC(Number(m[3]), month, Number(m[2]), hour, Number(m[5])) - offsetMin * 60_000;
  return Number.isFinite(utc) ? new Date(utc).toISOString() : undefined;
}

// ─── Codex CLI (docs/transcripts.md §3.4) ──────────────────────────────────────────────────────

/** Prefixes of `role:"user"` response items that Codex injects itself. */
const codexInjectedPrefixes = [
  '<user_instructions',
  '# AGENTS.md instructions for',
  '<turn_aborted',
  '<user_shell_command',
  '<skill',
  '<permissions instructions',
  '<INSTRUCTIONS>',
  '<plugin',
  '<subagent_notification',
  '<recommended_plugins',
  '<user_action',
];

const codexRequestHeader = '## My request for Codex:';

/**
 * Codex user text → prompt: drops injected items (AGENTS.md, user instructions, aborted-turn
 * notices, shell-command echoes…), keeps only what follows the last `## My request for Codex:`
 * header of IDE/Desktop clients, then applies docs/note-format.md §4.4 (which strips `<environment_context>`).
 */
export function sanitizeCodexPrompt(text: string): string | undefined {
  const start = text.trimStart();
  if (codexInjectedPrefixes.some((p) => start.startsWith(p))) return undefined;
  const at = text.lastIndexOf(codexRequestHeader);
  return sanitizePrompt(at >= 0 ? text.slice(at + codexRequestHeader.length) : text);
}
