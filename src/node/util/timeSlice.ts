/**
 * Cooperative time slicing for long loops on the extension host's thread:
 * `if (slice.due) await slice.pause();` — `due` turns true once `budgetMs` of work has passed since
 * the last pause (one clock read, no await per iteration); `pause()` lets the event loop run
 * (timers, UI messages, I/O completions) before the loop goes on.
 */
export class TimeSlice {
  private last = performance.now();

  constructor(private readonly budgetMs = 8) {}

  /** True once the budget of this slice is used up. */
  get due(): boolean {
    return performance.now() - this.last >= this.budgetMs;
  }

  /** Yields to the event loop and starts a new slice. */
  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.last = performance.now();
  }
}

/** Lets the event loop run once (after pending I/O callbacks and timers that are due). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
