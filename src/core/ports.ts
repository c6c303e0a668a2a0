/** Interfaces the core and node layers need from their environment; injected so tests are deterministic. */

export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

export const nullLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
};

export interface Clock {
  now(): number;
}

/**
 * The wall clock: the one place in `src` that reads it (`test/unit/core/ports.test.ts` fails on any
 * other `Date.now()` or `new Date()`). Code that needs a pinned time in tests takes a `Clock`
 * option that defaults to this one.
 */
export const systemClock: Clock = { now: () => Date.now() };

/** Counters of skipped/failed work, surfaced in the log at info level (counts only, never contents). */
export class Counters {
  private readonly map = new Map<string, number>();
  inc(name: string, by = 1): void {
    this.map.set(name, (this.map.get(name) ?? 0) + by);
  }
  get(name: string): number {
    return this.map.get(name) ?? 0;
  }
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.map.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}
