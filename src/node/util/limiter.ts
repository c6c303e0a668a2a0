/**
 * Runs at most `max` tasks at once, the rest in arrival order. Used where an editor-side burst (an
 * agent writing hundreds of files) would otherwise start hundreds of file reads in one go, whose
 * completions then arrive together and hold the extension host's thread.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Tasks started or waiting. */
  get pending(): number {
    return this.running + this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
