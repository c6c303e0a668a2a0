import { StringDecoder } from 'node:string_decoder';
import type { BlameCommitInfo, BlameLine, BlameResult } from '../../core/blame/blamePorcelain';
import { IncrementalBlameParser } from '../../core/blame/blameIncremental';
import type { GitRunner } from '../git/gitRunner';

/** The blame of one line and its commit's header. */
export interface LineBlame {
  line: BlameLine;
  commit: BlameCommitInfo | undefined;
}

/**
 * One whole-file `git blame --incremental` run. Git blames the most recent changes first and
 * writes every group of lines as soon as it is known, so a line can be answered long before the
 * whole file is done: waiters for a line are resolved as the stream covers it.
 */
class BlameJob {
  readonly lines: (BlameLine | undefined)[] = [];
  readonly parser: IncrementalBlameParser;
  readonly result: Promise<BlameResult | undefined>;
  private readonly waiters = new Map<number, ((l: LineBlame | undefined) => void)[]>();
  private readonly abort = new AbortController();
  done = false;
  failed = false;

  constructor(
    git: GitRunner,
    readonly rel: string,
    readonly dirty: boolean,
    contents: string | undefined,
  ) {
    this.parser = new IncrementalBlameParser((e) => {
      for (let i = 0; i < e.count; i++) {
        const l: BlameLine = { sha: e.sha, origLine: e.origLine + i, line: e.line + i };
        this.lines[l.line] = l;
        const w = this.waiters.get(l.line);
        if (w) {
          this.waiters.delete(l.line);
          const answer = { line: l, commit: this.parser.commits.get(l.sha) };
          for (const r of w) r(answer);
        }
      }
    });
    const args = ['blame', '--incremental', '--no-progress'];
    if (contents !== undefined) args.push('--contents', '-');
    args.push('--', rel);
    const decoder = new StringDecoder('utf8');
    git.counters.inc('blame.runs');
    this.result = git
      .runBuffer(args, {
        ...(contents !== undefined ? { input: contents } : {}),
        onStdout: (chunk) => this.parser.push(decoder.write(chunk)),
        signal: this.abort.signal,
        timeoutMs: 120_000,
      })
      .then(() => {
        this.parser.push(decoder.end());
        this.parser.end();
        this.done = true;
        const lines = this.lines.filter((l): l is BlameLine => l !== undefined);
        return { lines, commits: this.parser.commits };
      })
      .catch(() => {
        this.failed = true;
        this.done = true;
        return undefined;
      })
      .finally(() => {
        // lines the stream never covered (past the end of the file, or git failed)
        for (const w of this.waiters.values()) for (const r of w) r(undefined);
        this.waiters.clear();
      });
  }

  /** The blame of `line` (1-based) as soon as the stream has covered it. */
  line(line: number): Promise<LineBlame | undefined> {
    const l = this.lines[line];
    if (l) return Promise.resolve({ line: l, commit: this.parser.commits.get(l.sha) });
    if (this.done) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const w = this.waiters.get(line);
      if (w) w.push(resolve);
      else this.waiters.set(line, [resolve]);
    });
  }

  cancel(): void {
    if (!this.done) this.abort.abort();
  }
}

/**
 * `git blame` for one repository: one streaming whole-file `git blame --incremental` per (file,
 * HEAD, content version), kept in an LRU. Hovers wait only until the stream has covered their
 * line; CodeLens and warm hovers use the finished result. The blame of a file can be started
 * ahead of the first hover (`prefetch`, when an editor shows the file). Dirty buffers are blamed
 * with `--contents -` (the buffer on stdin) so line numbers match what the user sees; a newer
 * version of a dirty buffer cancels the unfinished blame of the older one. Concurrent requests
 * for the same key share one git process.
 */
export class BlameService {
  private readonly cache = new Map<string, BlameJob>();

  constructor(
    private readonly git: GitRunner,
    private readonly maxEntries = 64,
  ) {}

  private job(rel: string, head: string, version: string, contents: string | undefined): BlameJob {
    const key = `${rel}\0${head}\0${version}`;
    const hit = this.cache.get(key);
    if (hit && !hit.failed) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    if (contents !== undefined) {
      // an unfinished blame of an older version of the same dirty buffer is of no use any more
      for (const [k, j] of this.cache) {
        if (j.rel === rel && j.dirty && !j.done) {
          j.cancel();
          this.cache.delete(k);
        }
      }
    }
    const job = new BlameJob(this.git, rel, contents !== undefined, contents);
    this.cache.set(key, job);
    void job.result.then((r) => {
      if (!r && this.cache.get(key) === job) this.cache.delete(key); // never keep a failed result
    });
    while (this.cache.size > this.maxEntries) {
      const [oldKey, old] = this.cache.entries().next().value as [string, BlameJob];
      old.cancel();
      this.cache.delete(oldKey);
    }
    return job;
  }

  /** Whole-file blame (CodeLens, warm hovers); shares the stream a hover or prefetch started. */
  blameFile(rel: string, head: string, version: string, contents?: string): Promise<BlameResult | undefined> {
    return this.job(rel, head, version, contents).result;
  }

  /** Starts the whole-file blame in the background (an editor shows the file: the first hover will find it under way). */
  prefetch(rel: string, head: string, version: string, contents?: string): void {
    this.job(rel, head, version, contents);
  }

  /** The blame of one line (1-based), as soon as the whole-file stream has reached it. */
  blameLine(rel: string, head: string, version: string, line: number, contents?: string): Promise<LineBlame | undefined> {
    return this.job(rel, head, version, contents).line(line);
  }

  /** Whole-file blame if one was started for this key (finished or not), without starting one. */
  peek(rel: string, head: string, version: string): Promise<BlameResult | undefined> | undefined {
    return this.cache.get(`${rel}\0${head}\0${version}`)?.result;
  }

  /** Forgets everything and stops unfinished blames (HEAD moved). */
  clear(): void {
    for (const j of this.cache.values()) j.cancel();
    this.cache.clear();
  }
}
