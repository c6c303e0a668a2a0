/**
 * Number and date formatting for the charts (locale-aware through Intl; `locale` undefined = the
 * viewer's). Pure: Node tests pass a fixed locale.
 */

const numberFormats = new Map<string, Intl.NumberFormat>();
function nf(locale: string | undefined, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}|${JSON.stringify(opts)}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, opts)));
  return f;
}

/** A 0–100 ratio as a whole percent (`42%`, locale-aware); null/NaN → `none` (default `—`). */
export function formatPercent(ratio: number | null | undefined, locale?: string, none = '—'): string {
  if (typeof ratio !== 'number' || !Number.isFinite(ratio)) return none;
  return nf(locale, { style: 'percent', maximumFractionDigits: 0 }).format(Math.round(ratio) / 100);
}

/** The integer percent {@link formatPercent} shows (what tests compare against). */
export function roundPercent(ratio: number | null | undefined): number | null {
  return typeof ratio === 'number' && Number.isFinite(ratio) ? Math.round(ratio) : null;
}

/** A count with grouping (`5,000`). */
export function formatCount(n: number, locale?: string): string {
  return nf(locale, { maximumFractionDigits: 0 }).format(n);
}

/** A `YYYY-MM-DD` day (UTC) as a short local date; anything else is returned as is. */
export function formatDay(day: string, locale?: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
}
