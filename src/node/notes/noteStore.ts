import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { decodeNote, encodeNote, tooLargeNote, type DecodedNote } from '../../core/notes/noteCodec';
import { defaultNoteReadLimits, type NoteReadLimits } from '../../core/notes/noteLimits';
import type { AgentNoteV1 } from '../../core/notes/noteTypes';
import { type Logger, nullLogger, systemClock } from '../../core/ports';
import type { BlobStore } from '../git/blobStore';
import { GitError, type GitRunner } from '../git/gitRunner';
import { committerIdent, writeNotesCommit } from '../sharing/notesGit';
import { isObjectId, objectIdSource } from '../../core/git/objectId';

/** The notes ref of Agent Note (docs/note-format.md §1.1). */
export const agentNoteRef = 'refs/notes/agentnote';

export type NoteWriteResult = 'written' | 'exists';
export type NoteCopyResult = NoteWriteResult | 'missing';

export class NoteStoreError extends Error {
  constructor(
    /** `refLocked`: the notes ref stayed locked/contended after all retries; `badCommit`: not a commit; `failed`: git refused. */
    readonly reason: 'refLocked' | 'badCommit' | 'failed',
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
  static is(e: unknown, reason?: NoteStoreError['reason']): e is NoteStoreError {
    return e instanceof NoteStoreError && (reason === undefined || e.reason === reason);
  }
}

export interface NoteStoreOptions {
  /** Notes ref (default `refs/notes/agentnote`). */
  ref?: string;
  log?: Logger;
  /** Decoded notes kept in memory, keyed by note blob id (default 200). */
  cacheSize?: number;
  /**
   * Total note text (characters) the decoded-note cache may hold (default 4,000,000, i.e. a few
   * MB with the decoded objects): the cache never holds unbounded note text.
   */
  cacheChars?: number;
  /** Read limits (default noteLimits.ts): larger notes are "note too large" and never loaded. */
  limits?: Partial<NoteReadLimits>;
  /** Reads note blobs through this store's `cat-file --batch` instead of one git call each. */
  blobs?: BlobStore;
  /** Attempts to update a locked/moving notes ref before giving up (default 6). */
  writeAttempts?: number;
  /** First retry delay in ms, doubled per attempt (default 40). */
  retryDelayMs?: number;
  /**
   * When true, the notes listing is trusted until invalidate() is called (the caller watches the
   * notes ref, e.g. with a file watcher) instead of checking the ref with one git call per lookup.
   * Our own writes invalidate it. Default false (verify on every lookup).
   */
  trustCacheUntilInvalidated?: boolean;
}

/** Tiny LRU on top of Map's insertion order, bounded by entries and by the total cost of its values. */
class Lru<K, V> {
  private readonly map = new Map<K, { value: V; cost: number }>();
  private total = 0;
  constructor(
    private readonly max: number,
    private readonly maxCost = Number.POSITIVE_INFINITY,
  ) {}
  get(k: K): V | undefined {
    const e = this.map.get(k);
    if (e !== undefined) {
      this.map.delete(k);
      this.map.set(k, e);
    }
    return e?.value;
  }
  set(k: K, value: V, cost = 0): void {
    this.delete(k);
    if (cost > this.maxCost) return; // would evict everything else: not cached
    this.map.set(k, { value, cost });
    this.total += cost;
    while (this.map.size > this.max || this.total > this.maxCost) this.delete(this.map.keys().next().value as K);
  }
  /** Total cost held (tests and diagnostics). */
  get cost(): number {
    return this.total;
  }
  get size(): number {
    return this.map.size;
  }
  private delete(k: K): void {
    const e = this.map.get(k);
    if (!e) return;
    this.total -= e.cost;
    this.map.delete(k);
  }
}

const notesTreeEntry = new RegExp(`^\\d+ blob (${objectIdSource}) +(\\d+)\t(.+)$`, 's');

interface Listing {
  refValue: string | undefined;
  /** commit → note blob */
  map: Map<string, string>;
  /** note blob → size in bytes */
  sizes: Map<string, number>;
}

/**
 * Agent Note git notes of one repository (`refs/notes/agentnote`).
 *
 * Reads: `listNotedCommits()` runs ONE `git ls-tree -r -l` of the notes commit per value of the
 * notes ref (checked with `git rev-parse -q --verify <ref>` on each call, concurrent callers share
 * the calls), which also gives every note's size; note blobs are decoded once under read limits
 * (noteLimits.ts) and cached by blob id (an LRU bounded by entries and note text), and callers get
 * their own copy. A note above the size limit is never read: it decodes as "note too large".
 *
 * Writes never overwrite unless asked and are safe against concurrent writers: the note is added
 * with `git notes add -F -` (stdin, so any size works; git's stripspace gives the same blob as the
 * CLI's `-m`) on a temporary ref that starts at the current notes commit, and the notes ref is
 * then moved with a compare-and-swap `git update-ref <ref> <new> <old>`. A locked or moved ref is
 * retried with exponential backoff, re-checking first whether another writer already added a note
 * for the commit (then the result is `exists`). Plain `git notes add` would move the ref without
 * checking its old value and could silently drop a note written at the same moment.
 */
export class NoteStore {
  readonly ref: string;
  private readonly log: Logger;
  private readonly decoded: Lru<string, DecodedNote>;
  private readonly blobs: BlobStore | undefined;
  private readonly writeAttempts: number;
  private readonly retryDelayMs: number;
  /** Read limits of this store. */
  readonly limits: NoteReadLimits;
  private listCache: Listing | undefined;
  /**
   * Bumped by invalidate(): a listing read from a ref value taken before the bump is returned to
   * its caller but never kept as the trusted cache (the ref may have moved in between).
   */
  private generation = 0;
  private listInFlight: { refValue: string | undefined; promise: Promise<Listing> } | undefined;
  /** Sizes of note blobs seen in listings (bounded: cleared with a new listing). */
  private sizes = new Map<string, number>();
  private refInFlight: Promise<string | undefined> | undefined;
  private writeChain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly git: GitRunner,
    opts: NoteStoreOptions = {},
  ) {
    this.ref = opts.ref ?? agentNoteRef;
    this.log = opts.log ?? nullLogger;
    this.decoded = new Lru(opts.cacheSize ?? 200, opts.cacheChars ?? 4_000_000);
    this.limits = { ...defaultNoteReadLimits, ...opts.limits };
    this.blobs = opts.blobs;
    this.writeAttempts = opts.writeAttempts ?? 6;
    this.retryDelayMs = opts.retryDelayMs ?? 40;
    this.trustCache = opts.trustCacheUntilInvalidated ?? false;
  }

  private readonly trustCache: boolean;

  /** Current commit of the notes ref, undefined when there are no notes yet. */
  refValue(): Promise<string | undefined> {
    this.refInFlight ??= this.git
      .run(['rev-parse', '-q', '--verify', this.ref], { okExitCodes: [1] })
      .then((out) => out.trim() || undefined)
      .finally(() => (this.refInFlight = undefined));
    return this.refInFlight;
  }

  /** Map of annotated commit SHA → note blob SHA; cached (shared, read-only) until the notes ref moves. */
  async listNotedCommits(): Promise<ReadonlyMap<string, string>> {
    if (this.trustCache && this.listCache) return this.listCache.map;
    return (await this.listNow()).map;
  }

  /** The ref's value and the listing at it, read now (also where the cache is trusted). */
  private async listNow(): Promise<Listing> {
    const generation = this.generation;
    return this.listAt(await this.refValue(), generation);
  }

  /**
   * The listing of the notes ref at `refValue`, which the caller read when the store's generation
   * was `generation`: cached per value, kept as the cache only if no invalidate() came since.
   */
  private async listAt(refValue: string | undefined, generation: number): Promise<Listing> {
    if (this.listCache && this.listCache.refValue === refValue) return this.listCache;
    if (this.listInFlight && this.listInFlight.refValue === refValue) return this.listInFlight.promise;
    const promise = (async (): Promise<Listing> => {
      const map = new Map<string, string>();
      const sizes = new Map<string, number>();
      if (refValue && isObjectId(refValue)) {
        // `<mode> blob <id> <size>\t<fan-out path>` per note; the path is the commit id with slashes
        const out = await this.git.run(['ls-tree', '-r', '-l', '-z', '--end-of-options', refValue]);
        for (const entry of out.split('\0')) {
          const m = notesTreeEntry.exec(entry);
          if (!m) continue;
          const commit = m[3].replace(/\//g, '');
          if (!isObjectId(commit)) continue;
          map.set(commit, m[1]);
          sizes.set(m[1], Number(m[2]));
        }
      }
      return { refValue, map, sizes };
    })();
    this.listInFlight = { refValue, promise };
    try {
      const listing = await promise;
      if (generation === this.generation) {
        this.listCache = listing;
        this.sizes = listing.sizes;
      }
      return listing;
    } finally {
      if (this.listInFlight?.promise === promise) this.listInFlight = undefined;
    }
  }

  /** Size in bytes of the commit's note (from the listing), undefined when it has none. */
  async noteSize(commit: string): Promise<number | undefined> {
    const blob = await this.noteBlob(commit);
    return blob ? this.blobSize(blob) : undefined;
  }

  /** Forgets the cached list (the decoded-note cache is keyed by blob id and stays valid). */
  invalidate(): void {
    this.listCache = undefined;
    this.generation++;
  }

  /**
   * True when the commit has a note at the ref's current value, also where the cache is trusted
   * (one `rev-parse`; the listing is read again only when the ref moved).
   */
  async hasNow(commit: string): Promise<boolean> {
    return (await this.listNow()).map.has(commit);
  }

  /**
   * The notes ref's value now and the listing at it, also where the cache is trusted: one
   * `rev-parse`, and `ls-tree` only when the ref moved since the last listing.
   */
  async listNotedCommitsNow(): Promise<{ refValue: string | undefined; map: ReadonlyMap<string, string> }> {
    const listing = await this.listNow();
    return { refValue: listing.refValue, map: listing.map };
  }

  /** True when the commit has a note. */
  async has(commit: string): Promise<boolean> {
    return (await this.noteBlob(commit)) !== undefined;
  }

  /** Blob id of the commit's note, undefined if none (or the revision does not resolve). */
  async noteBlob(commit: string): Promise<string | undefined> {
    const sha = await this.resolveCommit(commit);
    if (!sha) return undefined;
    return (await this.listNotedCommits()).get(sha);
  }

  /**
   * Exact text of the commit's note (what `git notes show` prints), undefined if none or when it
   * is larger than the size limit (it is never loaded).
   */
  async readRaw(commit: string): Promise<string | undefined> {
    const blob = await this.noteBlob(commit);
    if (!blob) return undefined;
    const size = await this.blobSize(blob);
    if (size === undefined || size > this.limits.maxBytes) return undefined;
    return this.readBlobText(blob);
  }

  /**
   * The commit's note decoded (valid or invalid with a reason); undefined when there is no note.
   * A note over the size limit is not read at all (invalid, `violation.kind === 'tooLarge'`).
   */
  async read(commit: string): Promise<DecodedNote | undefined> {
    const blob = await this.noteBlob(commit);
    if (!blob) return undefined;
    let d = this.decoded.get(blob);
    if (!d) {
      const size = await this.blobSize(blob);
      if (size === undefined) return undefined;
      if (size > this.limits.maxBytes) d = tooLargeNote(size, this.limits);
      else {
        const text = await this.readBlobText(blob);
        if (text === undefined) return undefined;
        d = decodeNote(text, this.limits);
      }
      if (d.kind === 'invalid') {
        // once per note blob (decoded notes are cached): the reason names the problem, never the text
        this.git.counters.inc('notes.invalid');
        this.log.info(`note ${blob.slice(0, 12)} of ${commit.slice(0, 12)} is not a usable Agent Note: ${d.reason}`);
      }
      this.decoded.set(blob, d, d.raw.length);
    }
    return structuredClone(d);
  }

  /** Entries and note text held by the decoded-note cache (tests and diagnostics). */
  get cacheStats(): { entries: number; chars: number } {
    return { entries: this.decoded.size, chars: this.decoded.cost };
  }

  /**
   * Writes the note (encoded exactly like the CLI) unless the commit already has one
   * (`overwrite: true` replaces it). Throws NoteStoreError.
   */
  write(commit: string, note: AgentNoteV1, opts: { overwrite?: boolean } = {}): Promise<NoteWriteResult> {
    return this.writeText(commit, encodeNote(note), opts);
  }

  /** Writes a note from its text (git normalizes trailing whitespace like `git notes add`). */
  writeText(commit: string, text: string, opts: { overwrite?: boolean } = {}): Promise<NoteWriteResult> {
    return this.serialized(() => this.writeWith(commit, ['-F', '-'], text, opts.overwrite ?? false));
  }

  /** Makes an existing blob (e.g. a fetched note, never read) the note of `commit`. Throws NoteStoreError. */
  writeBlob(commit: string, blob: string, opts: { overwrite?: boolean } = {}): Promise<NoteWriteResult> {
    if (!isObjectId(blob)) return Promise.reject(new NoteStoreError('failed', `not a blob id: ${blob.slice(0, 80)}`));
    return this.serialized(() => this.writeWith(commit, ['-C', blob], undefined, opts.overwrite ?? false));
  }

  /** Copies the note of `fromCommit` (the very same blob) to `toCommit`. */
  async copy(fromCommit: string, toCommit: string, opts: { overwrite?: boolean } = {}): Promise<NoteCopyResult> {
    const blob = await this.noteBlob(fromCommit);
    if (!blob) return 'missing';
    return this.serialized(() => this.writeWith(toCommit, ['-C', blob], undefined, opts.overwrite ?? false));
  }

  /**
   * Writes (adds or replaces) the notes of many commits in one notes commit (one `git fast-import`,
   * whatever their number), with the same compare-and-swap retry as a single write. Commits must
   * be full object ids of existing commits (the caller resolved them). Throws NoteStoreError.
   */
  writeMany(entries: readonly { commit: string; note: AgentNoteV1 }[]): Promise<number> {
    const changes = entries.filter((e) => isObjectId(e.commit)).map((e) => ({ commit: e.commit.toLowerCase(), text: encodeNote(e.note) }));
    if (changes.length === 0) return Promise.resolve(0);
    return this.serialized(async () => {
      let lastError: unknown;
      for (let attempt = 0; attempt < this.writeAttempts; attempt++) {
        if (attempt > 0) await delay(this.retryDelayMs * 2 ** (attempt - 1));
        const old = await this.refValue();
        const next = await writeNotesCommit(this.git, {
          ...(old ? { from: old } : {}),
          changes,
          message: `Notes added by Agent Note (${changes.length} rewritten commit${changes.length === 1 ? '' : 's'})\n`,
          ident: await committerIdent(this.git, systemClock.now()),
        });
        try {
          await this.git.run(['update-ref', '-m', 'notes: Notes added by Agent Note', this.ref, next, old ?? '']);
          this.invalidate();
          this.log.debug(`${changes.length} note(s) written in one notes commit`);
          return changes.length;
        } catch (e) {
          lastError = e;
          this.git.counters.inc('notes.writeRetries');
        }
      }
      throw new NoteStoreError('refLocked', `${this.ref} stayed locked or kept moving after ${this.writeAttempts} attempts`, lastError);
    });
  }

  /**
   * Removes the note of `commit` ('missing' when it has none). Used for a rewritten commit whose
   * copied note no longer describes it (issue #18). Throws NoteStoreError.
   */
  remove(commit: string): Promise<'removed' | 'missing'> {
    return this.serialized(async () => {
      const sha = await this.resolveCommit(commit);
      if (!sha) throw new NoteStoreError('badCommit', `not a commit: ${commit}`);
      let lastError: unknown;
      for (let attempt = 0; attempt < this.writeAttempts; attempt++) {
        if (attempt > 0) await delay(this.retryDelayMs * 2 ** (attempt - 1));
        const generation = this.generation;
        const old = await this.refValue();
        if (!old || !(await this.listAt(old, generation)).map.has(sha)) return 'missing';
        const next = await this.buildNotesCommit(old, sha, [], undefined, false, 'remove');
        try {
          await this.git.run(['update-ref', '-m', "notes: Notes removed by 'git notes remove'", this.ref, next, old]);
          this.invalidate();
          this.log.debug(`note removed from ${sha.slice(0, 12)}`);
          return 'removed';
        } catch (e) {
          lastError = e;
          this.git.counters.inc('notes.writeRetries');
        }
      }
      throw new NoteStoreError('refLocked', `${this.ref} stayed locked or kept moving after ${this.writeAttempts} attempts`, lastError);
    });
  }

  // ── internals ──

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writeChain.then(fn, fn);
    this.writeChain = run.catch(() => undefined);
    return run;
  }

  private async resolveCommit(commit: string): Promise<string | undefined> {
    const c = commit.trim();
    if (isObjectId(c)) return c;
    if (!c || c.startsWith('-')) return undefined;
    const out = await this.git.run(['rev-parse', '-q', '--verify', '--end-of-options', `${c}^{commit}`], { okExitCodes: [1, 128] });
    const sha = out.trim();
    return isObjectId(sha) ? sha : undefined;
  }

  /** Size of a note blob: from the listing, else one `git cat-file -s`. */
  private async blobSize(blob: string): Promise<number | undefined> {
    const known = this.sizes.get(blob);
    if (known !== undefined) return known;
    if (!isObjectId(blob)) return undefined;
    const out = await this.git.tryRun(['cat-file', '-s', blob], { okExitCodes: [] });
    const n = Number(out?.trim());
    return out !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  }

  /** Text of a note blob whose size is within the limit (the read stops at the limit regardless). */
  private async readBlobText(blob: string): Promise<string | undefined> {
    if (!isObjectId(blob)) return undefined;
    if (this.blobs) return (await this.blobs.read(blob))?.toString('utf8');
    try {
      return (await this.git.runBuffer(['cat-file', 'blob', blob], { maxOutputBytes: this.limits.maxBytes + 1 })).toString('utf8');
    } catch (e) {
      this.log.debug(`note blob ${blob.slice(0, 12)} unreadable: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  private async writeWith(commit: string, sourceArgs: string[], input: string | undefined, overwrite: boolean): Promise<NoteWriteResult> {
    const sha = await this.resolveCommit(commit);
    if (!sha) throw new NoteStoreError('badCommit', `not a commit: ${commit}`);
    let lastError: unknown;
    for (let attempt = 0; attempt < this.writeAttempts; attempt++) {
      if (attempt > 0) await delay(this.retryDelayMs * 2 ** (attempt - 1));
      // the listing of exactly this ref value (a trusted cache may be older)
      const generation = this.generation;
      const old = await this.refValue();
      if (!overwrite && (await this.listAt(old, generation)).map.has(sha)) return 'exists';
      let next: string;
      try {
        next = await this.buildNotesCommit(old, sha, sourceArgs, input, overwrite);
      } catch (e) {
        // Most likely another writer added a note for this commit in between (re-checked above on
        // the next attempt); anything else (no identity, bad object) fails the same way again.
        lastError = e;
        this.invalidate();
        if (!overwrite && (await this.listNotedCommits()).has(sha)) return 'exists';
        throw new NoteStoreError('failed', `git notes add failed: ${e instanceof Error ? e.message : String(e)}`, e);
      }
      try {
        await this.git.run(['update-ref', '-m', "notes: Notes added by 'git notes add'", this.ref, next, old ?? '']);
        this.invalidate();
        this.log.debug(`note written for ${sha.slice(0, 12)}`);
        return 'written';
      } catch (e) {
        lastError = e;
        this.git.counters.inc('notes.writeRetries');
        this.log.debug(`notes ref busy (attempt ${attempt + 1}): ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    throw new NoteStoreError('refLocked', `${this.ref} stayed locked or kept moving after ${this.writeAttempts} attempts`, lastError);
  }

  /** Creates the next notes commit on a private temporary ref and returns its id. */
  private async buildNotesCommit(
    old: string | undefined,
    sha: string,
    sourceArgs: string[],
    input: string | undefined,
    overwrite: boolean,
    action: 'add' | 'remove' = 'add',
  ): Promise<string> {
    const tmp = `refs/notes/tmp/agentnote-${process.pid}-${randomBytes(6).toString('hex')}`;
    try {
      if (old) await this.git.run(['update-ref', '--no-deref', tmp, old, '']);
      if (action === 'remove') await this.git.run(['notes', `--ref=${tmp}`, 'remove', '--ignore-missing', sha], { okExitCodes: [] });
      else
        await this.git.run(
          ['notes', `--ref=${tmp}`, 'add', ...(overwrite ? ['-f'] : []), ...sourceArgs, sha],
          input !== undefined ? { input } : { okExitCodes: [] },
        );
      const next = (await this.git.run(['rev-parse', '--verify', tmp], { okExitCodes: [] })).trim();
      if (!isObjectId(next)) throw new GitError('failed', 'temporary notes ref did not resolve');
      return next;
    } finally {
      await this.git.tryRun(['update-ref', '-d', tmp], { okExitCodes: [] });
    }
  }
}
