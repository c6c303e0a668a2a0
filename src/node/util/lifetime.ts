/**
 * The lifetime of an object that starts asynchronously and can be disposed at any moment, also in
 * the middle of its start-up. Every await of a start-up goes through {@link Lifetime.step}: when the
 * lifetime ended while the step was pending, the step disposes what it produced (when told how)
 * and throws {@link LifetimeEnded}, so nothing after it runs: no watcher, timer or process is
 * started after `dispose()`. Resources registered with {@link Lifetime.own} are disposed at the
 * end, in reverse order; one registered after the end is disposed at once.
 */
export class Lifetime {
  private ended = false;
  private readonly owned: Array<{ dispose(): unknown }> = [];
  private steps = 0;

  /** `onStep(n)` runs as step `n` (0-based) begins: a test seam to end the lifetime at every await point. */
  constructor(private readonly onStep?: (step: number) => void) {}

  get isEnded(): boolean {
    return this.ended;
  }

  /** Steps begun so far. */
  get stepCount(): number {
    return this.steps;
  }

  /** Resources registered and not yet disposed (0 once ended). */
  get live(): number {
    return this.ended ? 0 : this.owned.length;
  }

  /** Throws {@link LifetimeEnded} once the lifetime ended. */
  check(): void {
    if (this.ended) throw new LifetimeEnded();
  }

  /** Registers a resource to dispose at the end (at once when the lifetime already ended). */
  own<T extends { dispose(): unknown }>(resource: T): T {
    if (this.ended) disposeQuietly(resource);
    else this.owned.push(resource);
    return resource;
  }

  /**
   * Awaits one start-up step. When the lifetime ends while it is pending, `release` gets the
   * step's result (e.g. a store that was opened) and the step throws {@link LifetimeEnded}.
   */
  async step<T>(work: Promise<T> | (() => Promise<T>), release?: (value: T) => unknown): Promise<T> {
    this.check();
    const n = this.steps++;
    const pending = typeof work === 'function' ? work() : work;
    this.onStep?.(n);
    const value = await pending;
    if (this.ended) {
      if (release) {
        try {
          await release(value);
        } catch {
          // the lifetime is over: a failed release has nobody left to tell (it is counted by its owner)
        }
      }
      throw new LifetimeEnded();
    }
    return value;
  }

  /** Ends the lifetime: disposes what was registered, newest first. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const r of this.owned.splice(0).reverse()) disposeQuietly(r);
  }
}

/** Thrown by {@link Lifetime.step} and {@link Lifetime.check} after the lifetime ended (not a failure). */
export class LifetimeEnded extends Error {
  constructor() {
    super('disposed');
    this.name = 'LifetimeEnded';
  }
}

function disposeQuietly(r: { dispose(): unknown }): void {
  try {
    const p = r.dispose();
    if (p instanceof Promise) p.catch(() => undefined);
  } catch {
    // disposal must go on with the other resources
  }
}
