import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { Counters, type Logger, nullLogger } from '../../core/ports';
import { printOf, type OffsetEntry, type OffsetStore } from './offsetStore';
import { ensurePrivateDir, ensurePrivateDirSync, privateFileMode } from '../util/privateFiles';

const entrySchema = z
  .object({
    offset: z.number().int().nonnegative(),
    size: z.number().int().nonnegative(),
    ino: z.string(),
    dev: z.string(),
    fingerprint: z.string(),
    mtimeMs: z.number(),
    tailFingerprint: z.string().optional(),
    parserState: z.unknown().optional(),
    updatedAt: z.number(),
  })
  .passthrough();

const fileSchema = z.object({ version: z.literal(1), files: z.record(z.unknown()) }).passthrough();

export interface JsonOffsetStoreOptions {
  /** Writes are delayed by this much so a burst of appends costs one write. Default 500 ms. */
  debounceMs?: number;
  /** Only the most recently updated entries are kept. Default 2,000. */
  maxEntries?: number;
  log?: Logger;
  counters?: Counters;
}

/**
 * Older versions stored the head/tail fingerprints as base64 bytes of the transcript and the
 * parsers' text (pending tool input, message text) in `parserState`: the prints become hashes
 * (same check, offsetStore.printOf) and that parser state is dropped (a tool call or message
 * in flight at that moment is then not completed: a gap, never a wrong claim). True if changed.
 */
function withoutTranscriptBytes(entry: OffsetEntry): boolean {
  let changed = false;
  if (!entry.fingerprint.startsWith('sha256:')) {
    entry.fingerprint = printOf(Buffer.from(entry.fingerprint, 'base64'));
    changed = true;
  }
  if (entry.tailFingerprint !== undefined && !entry.tailFingerprint.startsWith('sha256:')) {
    entry.tailFingerprint = printOf(Buffer.from(entry.tailFingerprint, 'base64'));
    changed = true;
  }
  const ps = entry.parserState as { agentState?: unknown; v?: unknown } | undefined;
  if (changed && ps && typeof ps === 'object' && 'agentState' in ps) {
    delete ps.agentState;
  }
  return changed;
}

/**
 * OffsetStore persisted as one JSON file (`{"version":1,"files":{path: entry}}`), written
 * atomically (temp file + rename) and debounced. A missing, unreadable or invalid file starts
 * empty (counted), and invalid entries are dropped one by one: offsets are a cache, never a
 * reason to fail.
 */
export class JsonOffsetStore implements OffsetStore {
  private readonly entries = new Map<string, OffsetEntry>();
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private writing: Promise<void> = Promise.resolve();
  private readonly debounceMs: number;
  private readonly maxEntries: number;
  private readonly log: Logger;
  readonly counters: Counters;

  private constructor(
    readonly file: string,
    opts: JsonOffsetStoreOptions,
  ) {
    this.debounceMs = opts.debounceMs ?? 500;
    this.maxEntries = opts.maxEntries ?? 2000;
    this.log = opts.log ?? nullLogger;
    this.counters = opts.counters ?? new Counters();
  }

  /** Loads the store from `file` (which need not exist yet). */
  static async open(file: string, opts: JsonOffsetStoreOptions = {}): Promise<JsonOffsetStore> {
    const store = new JsonOffsetStore(file, opts);
    let text: string | undefined;
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        store.counters.inc('offsets.loadErrors');
        store.log.warn(`offset store ${file} could not be read: ${String(e)}`);
      }
    }
    if (text !== undefined) store.load(text);
    return store;
  }

  private load(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.counters.inc('offsets.invalidFile');
      return;
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      this.counters.inc('offsets.invalidFile');
      return;
    }
    let migrated = 0;
    for (const [p, raw] of Object.entries(parsed.data.files)) {
      const e = entrySchema.safeParse(raw);
      if (!e.success) {
        this.counters.inc('offsets.invalidEntries');
        continue;
      }
      const entry = e.data as OffsetEntry;
      if (withoutTranscriptBytes(entry)) migrated++;
      this.entries.set(p, entry);
    }
    // an older version kept bytes of the transcripts here: rewrite the file with hashes only
    if (migrated > 0) {
      this.counters.inc('offsets.migratedEntries', migrated);
      this.schedule();
    }
  }

  get(filePath: string): OffsetEntry | undefined {
    return this.entries.get(filePath);
  }

  set(filePath: string, entry: OffsetEntry): void {
    this.entries.delete(filePath);
    this.entries.set(filePath, entry);
    this.schedule();
  }

  delete(filePath: string): void {
    if (this.entries.delete(filePath)) this.schedule();
  }

  /** Number of entries. */
  get size(): number {
    return this.entries.size;
  }

  /** Writes now if anything changed (waits for a write already under way). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const text = this.serialize();
    this.writing = this.writing.then(() => this.writeAtomic(text));
    return this.writing;
  }

  /** Stops the timer and writes synchronously when something is pending (extension shutdown). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    try {
      ensurePrivateDirSync(path.dirname(this.file));
      const tmp = this.tempName();
      fs.writeFileSync(tmp, this.serialize(), { mode: privateFileMode });
      fs.renameSync(tmp, this.file);
    } catch (e) {
      this.counters.inc('offsets.writeErrors');
      this.log.warn(`offset store ${this.file} could not be written: ${String(e)}`);
    }
  }

  private schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => undefined);
    }, this.debounceMs);
    this.timer.unref?.();
  }

  private serialize(): string {
    const all = [...this.entries.entries()].sort((a, b) => b[1].updatedAt - a[1].updatedAt).slice(0, this.maxEntries);
    if (all.length < this.entries.size) {
      this.entries.clear();
      for (const [k, v] of all.reverse()) this.entries.set(k, v);
    }
    return JSON.stringify({ version: 1, files: Object.fromEntries(this.entries) });
  }

  private tempName(): string {
    return `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  }

  private async writeAtomic(text: string): Promise<void> {
    const tmp = this.tempName();
    try {
      await ensurePrivateDir(path.dirname(this.file));
      await fsp.writeFile(tmp, text, { mode: privateFileMode });
      await fsp.rename(tmp, this.file);
      this.counters.inc('offsets.writes');
    } catch (e) {
      this.counters.inc('offsets.writeErrors');
      this.log.warn(`offset store ${this.file} could not be written: ${String(e)}`);
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
    }
  }
}
