// Long file: the tail state machine of one transcript (offsets, rotation, truncation, back-pressure, catch-up) is one unit whose states must be read together.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { concatenatedJsonRecords } from '../../core/agents/baseParser';
import { transcriptPathInfo } from '../../core/agents/registry/registry';
import { createTranscriptParser, type ParserStats, type TranscriptParser } from '../../core/agents/transcriptParser';
import type { AgentEvent, AgentId } from '../../core/model/agentEvents';
import { type Clock, Counters, type Logger, nullLogger, systemClock } from '../../core/ports';
import { LineSplitter } from '../../core/transcripts/lineSplitter';
import { parsePrint, printOf, type OffsetEntry, type OffsetStore } from './offsetStore';

/** An event with where it came from. `key` is stable across re-reads of the same bytes. */
export interface TailedEvent {
  event: AgentEvent;
  /** `<file>:<byte offset of the line>:<index of the event within the line>` (whole-file formats: `<file>#<content hash>`). */
  key: string;
  source: {
    agent: AgentId;
    filePath: string;
    /** Byte offset of the line that produced the event (0 for whole-file formats). */
    offset: number;
    index: number;
    /** Modification time of the file when the event was read (time of records without a timestamp). */
    fileTimeMs: number;
  };
}

export interface TailerOptions {
  agent: AgentId;
  filePath: string;
  sessionIdHint?: string;
  cwdHint?: string;
  sidechain?: boolean;
  offsetStore?: OffsetStore;
  /**
   * Receives every batch of events (at most ~1000 per call). A returned promise is awaited before
   * the next chunk is read: a slow consumer holds back a catch-up read instead of having a whole
   * backlog of parsed events pile up in memory.
   */
  onEvents: (events: TailedEvent[]) => unknown;
  /** Called once when the file disappeared; the tailer has stopped. */
  onGone?: () => void;
  /** Bytes read per read() call (each chunk is parsed in one synchronous stretch). Default 64 KiB. */
  chunkSize?: number;
  /** Longer lines are skipped (counted). Default 8 MiB. */
  maxLineBytes?: number;
  /** Whole-file formats larger than this are not parsed (counted). Default 64 MiB. */
  maxWholeFileBytes?: number;
  /**
   * A last line without a newline is read once the file has not changed for this long (its writer
   * is done: Cursor's `.txt` never ends its last line). Default 2,000 ms.
   */
  finalLineQuietMs?: number;
  /** Use fs.watch on the file's directory. Default true. */
  useFsWatch?: boolean;
  /** fs.watch events are coalesced for this long. Default 100 ms. */
  debounceMs?: number;
  /** Polling fallback: stat the file this often (0 disables). Default 1,000 ms. */
  pollIntervalMs?: number;
  log?: Logger;
  counters?: Counters;
  /** Where time is read (tests pin it). Default: the system clock. */
  clock?: Clock;
}

export interface TailerStats {
  reads: number;
  bytesRead: number;
  /** Re-reads from byte 0 after truncation, replacement or rotation. */
  resets: number;
  truncations: number;
  replacements: number;
  longLinesSkipped: number;
  nulBytesRemoved: number;
  /** Whole-file formats over maxWholeFileBytes. */
  oversizedFiles: number;
  /** Last lines without a newline read once the file was quiet. */
  finalLinesRead: number;
  watchErrors: number;
  resumedFromOffset: boolean;
}

const fingerprintBytes = 64;

/**
 * Tails one transcript file: reads only appended bytes from a saved offset (bounded chunks through
 * the LineSplitter into the agent parser), detects truncation (size below the read position) and
 * replacement/rotation (inode/device change, or the first 64 bytes differ from the saved
 * fingerprint) and then resets the parser and re-reads from byte 0 — re-emitted events keep their
 * keys, so consumers drop the duplicates. A deleted file stops the tailer quietly.
 *
 * Change detection: fs.watch on the directory (debounced) plus a polling stat as fallback; both
 * funnel into one serialized read loop.
 *
 * Persistence (OffsetStore): after each read the offset of the last complete line, file identity,
 * fingerprint and the parser's minimal state (ParserState) are saved. On start, a matching entry
 * resumes at the offset and the parser's restored state re-announces the session (id, cwd, model,
 * prior turn count) without re-reading the head. A mismatch (other inode, shrunk, different head)
 * re-reads from 0.
 *
 * Whole-file formats (Gemini legacy `.json`) are re-parsed on every change; the parser emits only
 * new or changed records.
 */
export class TranscriptTailer {
  readonly agent: AgentId;
  readonly filePath: string;
  private readonly parser: TranscriptParser;
  private splitter: LineSplitter;
  private readonly opts: TailerOptions;
  private readonly log: Logger;
  private readonly counters: Counters;
  /** Next byte to read. */
  private readPos = 0;
  private identity: { ino: string; dev: string } | undefined;
  private fingerprint: Buffer = Buffer.alloc(0);
  /** The bytes just before the committed offset: a rewrite that kept the head but changed what was read shows here. */
  private tailPrint: { offset: number; bytes: Buffer } | undefined;
  private lastSize = -1;
  private lastMtimeMs = -1;
  private watcher: fs.FSWatcher | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private debounceTimer: NodeJS.Timeout | undefined;
  /** A re-read when a last line without a newline has been quiet long enough. */
  private finalLineTimer: NodeJS.Timeout | undefined;
  /** Lines of this file are JSON records (not Cursor's `.txt`): a last line is read only once it parses. */
  private readonly jsonLines: boolean;
  private running: Promise<number> | undefined;
  private rerun = false;
  private disposed = false;
  private gone = false;
  /** Read chunk size; the buffer exists only while a read runs (20 idle tailers hold no chunk each). */
  private readonly chunkSize: number;
  /** Unusable records already reported in the log (see reportSkips). */
  private reportedSkips = 0;
  /** Records of unknown types already counted in `tailer.unknownRecords`. */
  private reportedUnknown = 0;
  readonly stats: TailerStats = {
    reads: 0,
    bytesRead: 0,
    resets: 0,
    truncations: 0,
    replacements: 0,
    longLinesSkipped: 0,
    nulBytesRemoved: 0,
    oversizedFiles: 0,
    finalLinesRead: 0,
    watchErrors: 0,
    resumedFromOffset: false,
  };

  constructor(opts: TailerOptions) {
    this.opts = opts;
    this.agent = opts.agent;
    this.filePath = opts.filePath;
    this.log = opts.log ?? nullLogger;
    this.counters = opts.counters ?? new Counters();
    this.parser = createTranscriptParser(opts.agent, {
      filePath: opts.filePath,
      sessionIdHint: opts.sessionIdHint,
      cwdHint: opts.cwdHint,
      sidechain: opts.sidechain,
    });
    this.splitter = new LineSplitter({ maxLineBytes: opts.maxLineBytes });
    this.chunkSize = opts.chunkSize ?? 64 * 1024;
    this.jsonLines = transcriptPathInfo(opts.agent, opts.filePath).format !== 'txt';
  }

  /** Parser statistics (records, skipped by reason). */
  get parserStats(): ParserStats {
    return this.parser.stats;
  }

  /** Bytes held for a partial last line (never more than maxLineBytes). */
  get bufferedBytes(): number {
    return this.splitter.bufferedBytes;
  }

  /** True once the file disappeared or dispose() was called. */
  get stopped(): boolean {
    return this.disposed || this.gone;
  }

  /**
   * Restores the saved offset (if it still matches the file), starts watching, then reads
   * everything available. Resolves after the first read. Watching starts first: the first read
   * waits for its consumer (back-pressure), and an append made meanwhile must trigger a re-read at
   * once instead of waiting for the next poll.
   */
  async start(): Promise<void> {
    await this.restore();
    if (!this.stopped) this.startWatching();
    await this.readNow();
  }

  /** Reads what was appended since the last read (serialized: concurrent calls coalesce). Returns the number of events emitted. */
  readNow(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    const run = async (): Promise<number> => {
      let total = 0;
      do {
        this.rerun = false;
        try {
          total += this.parser.mode === 'wholeFile' ? await this.readWholeFile() : await this.readAppended();
        } catch (e) {
          this.counters.inc('tailer.readErrors');
          this.log.warn(`reading ${this.filePath} failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      } while (this.rerun && !this.stopped);
      this.reportSkips();
      return total;
    };
    this.running = run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops watching and polling. */
  dispose(): void {
    this.disposed = true;
    this.stopWatching();
  }

  /** Unusable records so far: lines that are not JSON, records of a known type with a bad shape, lines over maxLineBytes. */
  get skippedRecords(): number {
    const k = this.parser.stats.skipped;
    return k.invalidJson + k.schemaMismatch + this.longLinesBeforeReset + this.splitter.longLinesSkipped;
  }

  /** Long lines and NUL bytes counted by splitters replaced on a reset (stats stay cumulative). */
  private longLinesBeforeReset = 0;
  private nulBytesBeforeReset = 0;

  /**
   * Logs (info) how many unusable records were skipped since the last report, as counts only —
   * never the content of a line. Unknown record types are not bad input (newer agent versions).
   */
  private reportSkips(): void {
    // F8: records of types no parser knows (a newer agent version) are skipped, and counted
    const unknown = this.parser.stats.skipped.unknownType;
    if (unknown > this.reportedUnknown) {
      this.counters.inc('tailer.unknownRecords', unknown - this.reportedUnknown);
      this.log.debug(`transcript ${this.agent} ${path.basename(this.filePath)}: ${unknown} record(s) of unknown type skipped so far`);
      this.reportedUnknown = unknown;
    }
    const total = this.skippedRecords;
    if (total <= this.reportedSkips) return;
    const k = this.parser.stats.skipped;
    const n = total - this.reportedSkips;
    this.reportedSkips = total;
    this.counters.inc('tailer.skippedRecords', n);
    this.log.info(
      `transcript ${this.agent} ${path.basename(this.filePath)}: skipped ${n} unusable record(s) (so far: ${k.invalidJson} not JSON, ${k.schemaMismatch} bad shape, ${this.longLinesBeforeReset + this.splitter.longLinesSkipped} too long, ${this.nulBytesBeforeReset + this.splitter.nulBytesRemoved} NUL byte(s) removed)`,
    );
  }

  // ─── restore ─────────────────────────────────────────────────────────────────────────────────

  private async restore(): Promise<void> {
    const entry = this.opts.offsetStore?.get(this.filePath);
    if (!entry) return;
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(this.filePath, 'r');
    } catch {
      return;
    }
    try {
      const st = await fh.stat({ bigint: true });
      const head = await readHead(fh, Math.min(fingerprintBytes, Number(st.size)));
      // the entry holds hashes of the bytes, never the bytes (transcript text stays in the transcript)
      const savedHead = parsePrint(entry.fingerprint);
      const savedTail = entry.tailFingerprint !== undefined ? parsePrint(entry.tailFingerprint) : undefined;
      const tailNow = savedTail ? await readAt(fh, entry.offset - savedTail.length, savedTail.length) : undefined;
      const same =
        String(st.ino) === entry.ino &&
        String(st.dev) === entry.dev &&
        Number(st.size) >= entry.offset &&
        savedHead !== undefined &&
        savedHead.length <= head.length &&
        savedHead.matches(head.subarray(0, savedHead.length)) &&
        (!savedTail || (tailNow !== undefined && tailNow.length === savedTail.length && savedTail.matches(tailNow)));
      if (this.parser.mode === 'wholeFile') {
        // message-id keyed diffing does not depend on the bytes: always resume the parser state
        await this.emitRestored(entry, this.parser.restoreState(entry.parserState));
        this.stats.resumedFromOffset = same;
        return;
      }
      if (!same) {
        this.counters.inc('tailer.staleOffsets');
        return;
      }
      this.identity = { ino: entry.ino, dev: entry.dev };
      this.fingerprint = head;
      if (savedTail && tailNow) this.tailPrint = { offset: entry.offset, bytes: tailNow };
      this.stats.resumedFromOffset = true;
      this.readPos = entry.offset;
      this.splitter = new LineSplitter({ maxLineBytes: this.opts.maxLineBytes, startOffset: entry.offset });
      await this.emitRestored(entry, this.parser.restoreState(entry.parserState));
    } finally {
      await fh.close();
    }
  }

  private async emitRestored(entry: OffsetEntry, announced: AgentEvent[]): Promise<void> {
    await this.emit(
      announced.map((event, index) => ({ event, index, offset: entry.offset, key: `${this.filePath}:${entry.offset}:resume${index}` })),
      entry.mtimeMs,
    );
  }

  // ─── append-only formats ─────────────────────────────────────────────────────────────────────

  private async readAppended(): Promise<number> {
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(this.filePath, 'r');
    } catch (e) {
      this.handleOpenError(e);
      return 0;
    }
    let emitted = 0;
    try {
      const st = await fh.stat({ bigint: true });
      const size = Number(st.size);
      const ino = String(st.ino);
      const dev = String(st.dev);
      const mtimeMs = mtimeOf(st);
      const head = await readHead(fh, Math.min(fingerprintBytes, size));
      if (this.identity && (this.identity.ino !== ino || this.identity.dev !== dev)) {
        this.stats.replacements++;
        this.reset('replaced');
      } else if (size < this.readPos) {
        this.stats.truncations++;
        this.reset('truncated');
      } else if (!prefixCompatible(this.fingerprint, head) || !(await this.tailStillThere(fh))) {
        this.stats.replacements++;
        this.reset('rewritten');
      }
      this.identity = { ino, dev };
      if (head.length > this.fingerprint.length) this.fingerprint = Buffer.from(head);
      this.lastSize = size;
      this.lastMtimeMs = mtimeMs;
      this.stats.reads++;
      const batch: { event: AgentEvent; offset: number; index: number; key: string }[] = [];
      const buffer = size > this.readPos ? Buffer.allocUnsafe(Math.min(this.chunkSize, size - this.readPos)) : undefined;
      while (buffer && this.readPos < size && !this.disposed) {
        const want = Math.min(buffer.length, size - this.readPos);
        const { bytesRead } = await fh.read(buffer, 0, want, this.readPos);
        if (bytesRead === 0) break;
        this.readPos += bytesRead;
        this.stats.bytesRead += bytesRead;
        for (const line of this.splitter.push(buffer.subarray(0, bytesRead))) {
          this.parser
            .push(line.text)
            .forEach((event, index) => batch.push({ event, offset: line.offset, index, key: `${this.filePath}:${line.offset}:${index}` }));
        }
        // deliver in bounded batches so a huge backlog does not pile up in memory
        if (batch.length >= 1000) emitted += await this.emit(batch.splice(0), mtimeMs);
      }
      for (const line of this.finalLine(mtimeMs)) {
        this.parser
          .push(line.text)
          .forEach((event, index) => batch.push({ event, offset: line.offset, index, key: `${this.filePath}:${line.offset}:${index}` }));
      }
      const committed = this.splitter.committedOffset;
      if (this.tailPrint?.offset !== committed) {
        const n = Math.min(fingerprintBytes, committed);
        this.tailPrint = { offset: committed, bytes: await readAt(fh, committed - n, n) };
      }
      this.parser
        .flush()
        .forEach((event, index) => batch.push({ event, offset: committed, index, key: `${this.filePath}:${committed}:flush${index}` }));
      this.stats.longLinesSkipped = this.longLinesBeforeReset + this.splitter.longLinesSkipped;
      this.stats.nulBytesRemoved = this.nulBytesBeforeReset + this.splitter.nulBytesRemoved;
      emitted += await this.emit(batch, mtimeMs);
      this.save(committed, size, ino, dev, mtimeMs);
    } finally {
      await fh.close();
    }
    return emitted;
  }

  /**
   * F6: the last line has no newline. It is read once the file has been quiet for
   * `finalLineQuietMs` (a JSON line only once it parses: a record still being written waits), and
   * only once: the splitter ends the line there, so bytes appended later start a new one. Until
   * then a re-read is scheduled for when the quiet time is over.
   */
  private finalLine(mtimeMs: number): { text: string; offset: number }[] {
    if (this.finalLineTimer) clearTimeout(this.finalLineTimer);
    this.finalLineTimer = undefined;
    if (this.splitter.bufferedBytes === 0 || this.disposed) return [];
    const quietMs = this.opts.finalLineQuietMs ?? 2000;
    const waited = (this.opts.clock ?? systemClock).now() - mtimeMs;
    if (waited < quietMs) {
      this.finalLineTimer = setTimeout(
        () => {
          this.finalLineTimer = undefined;
          void this.readNow();
        },
        Math.max(10, quietMs - waited + 10),
      );
      this.finalLineTimer.unref?.();
      return [];
    }
    const partial = this.splitter.peekPartial();
    if (partial === undefined || (this.jsonLines && !isJsonRecord(partial))) return [];
    this.stats.finalLinesRead++;
    this.counters.inc('tailer.finalLinesWithoutNewline');
    return this.splitter.takePartial();
  }

  private reset(reason: string): void {
    this.stats.resets++;
    this.counters.inc(`tailer.reset.${reason}`);
    this.log.debug(`transcript ${reason}, re-reading from 0: ${this.filePath}`);
    this.parser.reset();
    this.longLinesBeforeReset += this.splitter.longLinesSkipped;
    this.nulBytesBeforeReset += this.splitter.nulBytesRemoved;
    this.splitter = new LineSplitter({ maxLineBytes: this.opts.maxLineBytes });
    this.readPos = 0;
    this.fingerprint = Buffer.alloc(0);
    this.tailPrint = undefined;
  }

  private async tailStillThere(fh: fsp.FileHandle): Promise<boolean> {
    const t = this.tailPrint;
    if (!t || t.bytes.length === 0) return true;
    return (await readAt(fh, t.offset - t.bytes.length, t.bytes.length)).equals(t.bytes);
  }

  // ─── whole-file formats ──────────────────────────────────────────────────────────────────────

  private async readWholeFile(): Promise<number> {
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(this.filePath, 'r');
    } catch (e) {
      this.handleOpenError(e);
      return 0;
    }
    try {
      const st = await fh.stat({ bigint: true });
      const size = Number(st.size);
      const mtimeMs = mtimeOf(st);
      const ino = String(st.ino);
      const dev = String(st.dev);
      if (size === this.lastSize && mtimeMs === this.lastMtimeMs && this.identity?.ino === ino && this.identity.dev === dev) return 0;
      if (size > (this.opts.maxWholeFileBytes ?? 64 * 1024 * 1024)) {
        this.stats.oversizedFiles++;
        this.lastSize = size;
        this.lastMtimeMs = mtimeMs;
        return 0;
      }
      const bytes = await fh.readFile();
      this.stats.reads++;
      this.stats.bytesRead += bytes.length;
      const invalidBefore = this.parser.stats.skipped.invalidJson + this.parser.stats.skipped.schemaMismatch;
      const events = this.parser.parseWholeFile(bytes.toString('utf8'));
      const invalid = this.parser.stats.skipped.invalidJson + this.parser.stats.skipped.schemaMismatch > invalidBefore;
      // a half-written file is retried on the next change; a good parse is remembered
      if (!invalid) {
        this.identity = { ino, dev };
        this.lastSize = size;
        this.lastMtimeMs = mtimeMs;
        this.fingerprint = Buffer.from(bytes.subarray(0, fingerprintBytes));
      }
      const emitted = await this.emit(
        events.map((event, index) => ({ event, index, offset: 0, key: `${this.filePath}#${hashEvent(event)}` })),
        mtimeMs,
      );
      if (!invalid) this.save(size, size, ino, dev, mtimeMs);
      return emitted;
    } finally {
      await fh.close();
    }
  }

  // ─── shared ──────────────────────────────────────────────────────────────────────────────────

  private async emit(items: { event: AgentEvent; offset: number; index: number; key: string }[], fileTimeMs: number): Promise<number> {
    if (items.length === 0 || this.disposed) return 0;
    const batch: TailedEvent[] = items.map((i) => ({
      event: i.event,
      key: i.key,
      source: { agent: this.agent, filePath: this.filePath, offset: i.offset, index: i.index, fileTimeMs },
    }));
    try {
      await this.opts.onEvents(batch);
    } catch (e) {
      this.counters.inc('tailer.listenerErrors');
      this.log.error(`transcript event listener failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return batch.length;
  }

  private save(offset: number, size: number, ino: string, dev: string, mtimeMs: number): void {
    const store = this.opts.offsetStore;
    if (!store) return;
    const entry: OffsetEntry = {
      offset,
      size,
      ino,
      dev,
      fingerprint: printOf(this.fingerprint),
      mtimeMs,
      tailFingerprint: this.parser.mode === 'lines' && this.tailPrint?.offset === offset ? printOf(this.tailPrint.bytes) : undefined,
      parserState: this.parser.saveState(),
      updatedAt: (this.opts.clock ?? systemClock).now(),
    };
    const prev = store.get(this.filePath);
    if (prev && prev.offset === entry.offset && prev.size === entry.size && prev.ino === entry.ino && prev.mtimeMs === entry.mtimeMs)
      return;
    store.set(this.filePath, entry);
  }

  private handleOpenError(e: unknown): void {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      this.gone = true;
      this.stopWatching();
      this.opts.offsetStore?.delete(this.filePath);
      this.counters.inc('tailer.gone');
      this.log.debug(`transcript deleted, tailer stopped: ${this.filePath}`);
      this.opts.onGone?.();
      return;
    }
    this.counters.inc('tailer.openErrors');
    this.log.debug(`cannot open ${this.filePath}: ${String(e)}`);
  }

  // ─── watching ────────────────────────────────────────────────────────────────────────────────

  private startWatching(): void {
    if (this.opts.useFsWatch !== false) {
      const base = path.basename(this.filePath);
      try {
        this.watcher = fs.watch(path.dirname(this.filePath), { persistent: false }, (_event, name) => {
          if (name === null || name === base || name.toString() === base) this.schedule();
        });
        this.watcher.on('error', () => {
          // e.g. the directory was removed or the platform ran out of watches: polling continues
          this.stats.watchErrors++;
          this.watcher?.close();
          this.watcher = undefined;
        });
      } catch {
        this.stats.watchErrors++;
        this.watcher = undefined;
      }
    }
    const interval = this.opts.pollIntervalMs ?? 1000;
    if (interval > 0) {
      this.pollTimer = setInterval(() => void this.poll(), interval);
      this.pollTimer.unref?.();
    }
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = undefined;
    if (this.finalLineTimer) clearTimeout(this.finalLineTimer);
    this.finalLineTimer = undefined;
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      void this.readNow();
    }, this.opts.debounceMs ?? 100);
    this.debounceTimer.unref?.();
  }

  private async poll(): Promise<void> {
    if (this.stopped || this.running) return;
    try {
      const st = await fsp.stat(this.filePath, { bigint: true });
      const changed =
        Number(st.size) !== this.lastSize ||
        mtimeOf(st) !== this.lastMtimeMs ||
        (this.identity !== undefined && (String(st.ino) !== this.identity.ino || String(st.dev) !== this.identity.dev));
      if (changed) await this.readNow();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') await this.readNow();
    }
  }
}

/** Modification time in (fractional) epoch ms from a bigint stat. */
function mtimeOf(st: fs.BigIntStats): number {
  return Number(st.mtimeNs / 1000n) / 1000;
}

function readHead(fh: fsp.FileHandle, n: number): Promise<Buffer> {
  return readAt(fh, 0, n);
}

async function readAt(fh: fsp.FileHandle, position: number, n: number): Promise<Buffer> {
  if (n <= 0 || position < 0) return Buffer.alloc(0);
  const buf = Buffer.alloc(n);
  const { bytesRead } = await fh.read(buf, 0, n, position);
  return buf.subarray(0, bytesRead);
}

/** One of the two is a prefix of the other (a file that grew past a short fingerprint is still the same file). */
function prefixCompatible(a: Buffer, b: Buffer): boolean {
  const n = Math.min(a.length, b.length);
  return a.subarray(0, n).equals(b.subarray(0, n));
}

/** A complete JSON record (or several on one line). */
function isJsonRecord(text: string): boolean {
  if (concatenatedJsonRecords(text)) return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function hashEvent(event: AgentEvent): string {
  return createHash('sha1').update(JSON.stringify(event)).digest('hex').slice(0, 20);
}
