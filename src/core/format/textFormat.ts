import { cutText } from '../text/escape';
import { findAgentDefinition } from '../agents/registry/registry';

/** Small formatting helpers shared by the hover, CodeLens, status bar and webviews (pure). */

/** "3 days ago" in the given locale (Intl.RelativeTimeFormat). */
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

export function relativeTime(thenMs: number, nowMs: number, locale = 'en'): string {
  const s = Math.round((thenMs - nowMs) / 1000);
  const abs = Math.abs(s);
  // building a formatter costs milliseconds (locale data); the status bar asks often
  let fmt = relativeFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale, fmt);
  }
  if (abs < 60) return fmt.format(s, 'second');
  if (abs < 3600) return fmt.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return fmt.format(Math.round(s / 3600), 'hour');
  if (abs < 86400 * 30) return fmt.format(Math.round(s / 86400), 'day');
  if (abs < 86400 * 365) return fmt.format(Math.round(s / (86400 * 30)), 'month');
  return fmt.format(Math.round(s / (86400 * 365)), 'year');
}

/**
 * First non-empty line, whitespace-collapsed, cut at `max` characters (with …), surrogate-safe.
 * Looks at no more of the text than it needs (a prompt or response can be a megabyte long).
 */
export function firstLine(text: string, max = 120): string {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    // enough of the line for `max` characters even after whitespace collapses
    const line = text
      .slice(start, Math.min(end, start + max * 4 + 256))
      .replace(/\r$/, '')
      .trim();
    if (line.length > 0) {
      const collapsed = line.replace(/\s+/g, ' ');
      return end - start > max * 4 + 256 ? cut(`${collapsed}…`, max) : cut(collapsed, max);
    }
    start = end + 1;
  }
  return '';
}

/** `text` cut to `max` code points with a trailing … (surrogate-safe, linear in `max`). */
export const cut = cutText;

/** A ratio bar of `width` cells, filled = round(ratio/100 × width). */
export function ratioBar(ratio: number, width = 10): string {
  const filled = Math.max(0, Math.min(width, Math.round((ratio / 100) * width)));
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

/** Escapes one line of untrusted text for a VS Code MarkdownString (see src/core/text/escape.ts). */
export { escapeMarkdown } from '../text/escape';

/** The display name of an agent id read from a note or a session (an unknown id is shown as written). */
export function agentDisplayName(agent: string | null | undefined): string {
  return findAgentDefinition(agent)?.displayName ?? agent ?? '';
}
