/** Time formatting for the webview apps, injectable so pure render tests are deterministic. */

export interface TimeFormat {
  /** Grouping key of the day (e.g. `2026-03-02`). */
  dayKey(iso: string): string;
  /** Human label of the day. */
  dayLabel(iso: string): string;
  /** Short time of day. */
  time(iso: string): string;
  /** Date and time, for headers. */
  dateTime(iso: string): string;
}

function valid(iso: string): Date | undefined {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** UTC, locale-independent formatting (tests, and a fallback). */
export const utcTimeFormat: TimeFormat = {
  dayKey: (iso) => valid(iso)?.toISOString().slice(0, 10) ?? 'unknown',
  dayLabel: (iso) => valid(iso)?.toISOString().slice(0, 10) ?? '—',
  time: (iso) => valid(iso)?.toISOString().slice(11, 16) ?? '',
  dateTime: (iso) => {
    const d = valid(iso);
    return d ? `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC` : iso;
  },
};

/** The viewer's locale and time zone (the webview's `navigator.language` follows VS Code's display language). */
export function localTimeFormat(locale?: string): TimeFormat {
  const day = new Intl.DateTimeFormat(locale, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    dayKey: (iso) => {
      const d = valid(iso);
      return d ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : 'unknown';
    },
    dayLabel: (iso) => {
      const d = valid(iso);
      return d ? day.format(d) : '—';
    },
    time: (iso) => {
      const d = valid(iso);
      return d ? time.format(d) : '';
    },
    dateTime: (iso) => {
      const d = valid(iso);
      return d ? dateTime.format(d) : iso;
    },
  };
}
