/**
 * Cooperative time slicing for long loops on the extension host's thread: `maybeYield()` returns
 * at once until `budgetMs` of work has passed since the last yield, then lets the event loop run
 * (timers, UI messages, I/O completions) before the loop goes on. Checking costs one clock read.
 */
export class TimeSlice {
  private last = performance.now();

  constructor(private readonly budgetMs = 8) {}

  /** True once the budget of this slice is used up. */
  get due(): boolean {
    return performance.now() - this.last >= this.budgetMs;
  }

  /** Yields to the event loop when the slice's budget is used up. */
  async maybeYield(): Promise<void> {
    if (!this.due) return;
    await yieldToEventLoop();
    this.last = performance.now();
  }
}

/** Lets the event loop run once (after pending I/O callbacks and timers that are due). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
