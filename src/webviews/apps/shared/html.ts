/** Pure HTML helpers shared by the webview apps. Every piece of data goes through {@link escapeHtml}. */
import { escapeHtml } from '../../../core/text/escape';

/** Escape text for element content and (double- or single-quoted) attribute values (src/core/text/escape.ts). */
export { escapeHtml };

/** Replace `{0}`, `{1}`… in a (localized) template. Arguments are inserted as-is: escape the result. */
export function formatTemplate(template: string, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
}

/** A localized label: the host's string if it sent one, else the English default. */
export function label<K extends string>(
  strings: Record<string, string>,
  defaults: Record<K, string>,
  key: K,
  ...args: (string | number)[]
): string {
  const template = typeof strings[key] === 'string' && strings[key] !== '' ? strings[key] : defaults[key];
  return formatTemplate(template, ...args);
}

/** CSS class suffix for an agent name (`agent-claude`); anything unusual becomes `agent-other`. */
export function agentClass(agent: string | null | undefined): string {
  if (!agent) return 'agent-none';
  return /^[a-z][a-z0-9-]{0,30}$/.test(agent) ? `agent-${agent}` : 'agent-other';
}

/** Integer 0–100 for a ratio bar; null/NaN become 0. */
export function clampRatio(ratio: number | null | undefined): number {
  if (typeof ratio !== 'number' || !Number.isFinite(ratio)) return 0;
  return Math.max(0, Math.min(100, Math.round(ratio)));
}

/**
 * A ratio bar. Widths cannot be inline `style` attributes (the CSP has no 'unsafe-inline'), so
 * the fill carries `data-ratio` and the app sets the width through the CSSOM after rendering.
 */
export function ratioBar(ratio: number, accessibleLabel: string, extraClass = ''): string {
  const r = clampRatio(ratio);
  return `<span class="ratio-bar${extraClass ? ` ${extraClass}` : ''}" role="img" aria-label="${escapeHtml(accessibleLabel)}"><span class="ratio-fill" data-ratio="${r}"></span></span>`;
}
