import { parseBlamePorcelain, type BlameResult } from '../../core/blame/blamePorcelain';
import type { GitRunner } from '../git/gitRunner';

/**
 * `git blame --porcelain` for one repository, with an LRU cache keyed by (file, HEAD, content
 * version). Dirty buffers are blamed with `--contents -` (the buffer on stdin) so line numbers
 * match what the user sees. Concurrent requests for the same key share one git process.
 */
export class BlameService {
  private readonly cache = new Map<string, Promise<BlameResult | undefined>>();

  constructor(
    private readonly git: GitRunner,
    private readonly maxEntries = 64,
  ) {}

  /** Whole-file blame (used by CodeLens and warm hovers). */
  blameFile(rel: string, head: string, version: string, contents?: string): Promise<BlameResult | undefined> {
    const key = `${rel}\0${head}\0${version}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const args = ['blame', '--porcelain', '--no-progress'];
    if (contents !== undefined) args.push('--contents', '-');
    args.push('--', rel);
    const p = this.git
      .run(args, contents !== undefined ? { input: contents } : {})
      .then((out) => parseBlamePorcelain(out))
      .catch(() => undefined);
    this.cache.set(key, p);
    // never keep a failed result
    void p.then((r) => {
      if (!r) this.cache.delete(key);
    });
    while (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
    return p;
  }

  /** Only one line (`-L n,n`), for a cold hover on a big file. */
  async blameLine(rel: string, line: number, contents?: string): Promise<BlameResult | undefined> {
    const args = ['blame', '--porcelain', '--no-progress', '-L', `${line},${line}`];
    if (contents !== undefined) args.push('--contents', '-');
    args.push('--', rel);
    try {
      return parseBlamePorcelain(await this.git.run(args, contents !== undefined ? { input: contents } : {}));
    } catch {
      return undefined;
    }
  }

  /** Cached whole-file blame if present and settled (for a warm hover). */
  peek(rel: string, head: string, version: string): Promise<BlameResult | undefined> | undefined {
    return this.cache.get(`${rel}\0${head}\0${version}`);
  }

  clear(): void {
    this.cache.clear();
  }
}
