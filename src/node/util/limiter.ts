/**
 * Runs at most `max` tasks at once, the rest in arrival order. A finishing task hands its slot
 * straight to the next waiting one, so a caller arriving in between cannot take it as well.
 * Used by GitRunner (git processes per runner) and where an editor-side burst (an agent writing
 * hundreds of files) would otherwise start hundreds of file reads whose completions arrive together.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly max: number;

  constructor(max: number) {
    this.max = Math.max(1, max);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes to the next caller
      else this.active--;
    }
  }
}
