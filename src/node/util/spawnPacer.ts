/**
 * Paces process starts on the extension host's thread. `child_process.spawn` is synchronous and,
 * in a process the size of an extension host, costs milliseconds each (fork + exec + pipes).
 * Recording a commit starts a dozen git processes, several of them from one `Promise.all`; started
 * in one turn of the event loop they stalled the UI for 50–110 ms (measured by the 500-file stall
 * test's CPU profile). The pacer lets the starts of one turn use at most `budgetMs`; the rest wait
 * for the next turn (`setImmediate`), so timers and UI messages run in between. One start is always
 * allowed per turn, however long it takes, so nothing waits forever.
 */
export class SpawnPacer {
  private spent = 0;
  private busy = false;
  private turnScheduled = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly budgetMs = 6) {}

  /**
   * Runs `start` (a synchronous process start) in a turn that still has budget, and returns its
   * result. A throw from `start` is passed on.
   */
  async start<T>(start: () => T): Promise<T> {
    if (this.busy || this.waiting.length > 0 || this.spent >= this.budgetMs)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy = true;
    this.scheduleTurn();
    const t0 = performance.now();
    try {
      return start();
    } finally {
      this.spent += performance.now() - t0;
      this.busy = false;
      if (this.spent < this.budgetMs) this.next();
    }
  }

  /**
   * Like `start`, for a process that a library starts a few microtasks later in the same turn
   * (simple-git): `begin` gets a `started` callback to call right after the process start; the
   * slot is held, and the time charged, from `begin` until `started` (or until the returned
   * promise settles, when the start never happens).
   */
  async startTracked<T>(begin: (started: () => void) => Promise<T>): Promise<T> {
    if (this.busy || this.waiting.length > 0 || this.spent >= this.budgetMs)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy = true;
    this.scheduleTurn();
    const t0 = performance.now();
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.spent += performance.now() - t0;
      this.busy = false;
      if (this.spent < this.budgetMs) this.next();
    };
    let result: Promise<T>;
    try {
      result = begin(release);
    } catch (e) {
      release();
      throw e;
    }
    return result.finally(release);
  }

  /** Hands the (single) start slot to the next waiter. */
  private next(): void {
    const resolve = this.waiting.shift();
    if (!resolve) return;
    this.busy = true;
    resolve();
  }

  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      this.spent = 0;
      if (!this.busy) this.next();
      if (this.waiting.length > 0 || this.busy) this.scheduleTurn();
    });
  }
}

/** The pacer of every git process this extension host starts. */
export const spawnPacer = new SpawnPacer();
