import * as fs from 'node:fs';
import * as path from 'node:path';
import { Counters, type Logger, nullLogger } from '../../core/ports';
import {
  type DiscoveredTranscript,
  type DiscoveryOptions,
  type DiscoveryResult,
  type RepoLocation,
  TranscriptDiscovery,
} from './transcriptDiscovery';
import type { OffsetStore } from './offsetStore';
import { type TailedEvent, TranscriptTailer } from './transcriptTailer';

export interface TranscriptWatcherOptions {
  repo: RepoLocation;
  discovery: DiscoveryOptions;
  offsetStore?: OffsetStore;
  /** Periodic rescan for new sessions. Default 30 s (0 disables). */
  rescanIntervalMs?: number;
  /** Directory change events trigger a rescan after this delay. Default 500 ms. */
  rescanDebounceMs?: number;
  /** At most this many transcripts are tailed (the newest). Default 64. */
  maxTailers?: number;
  /** Passed to each tailer. */
  useFsWatch?: boolean;
  pollIntervalMs?: number;
  debounceMs?: number;
  maxLineBytes?: number;
  log?: Logger;
  counters?: Counters;
}

/**
 * Ties discovery and tailing together for one repository: discovers the repository's transcripts,
 * tails the newest ones, rescans periodically and when a watched agent directory changes (so new
 * sessions appear without a reload), stops tailers of transcripts that disappeared or aged out, and
 * forwards every batch of events (with source info and stable keys) to its listeners.
 */
export class TranscriptWatcher {
  private readonly discovery: TranscriptDiscovery;
  private readonly tailers = new Map<string, TranscriptTailer>();
  private readonly listeners = new Set<(events: TailedEvent[]) => unknown>();
  private readonly dirWatchers = new Map<string, fs.FSWatcher>();
  private readonly log: Logger;
  readonly counters: Counters;
  private rescanTimer: NodeJS.Timeout | undefined;
  private debounceTimer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private rescanAgain = false;
  private disposed = false;
  private last: DiscoveryResult | undefined;

  constructor(private readonly opts: TranscriptWatcherOptions) {
    this.log = opts.log ?? nullLogger;
    this.counters = opts.counters ?? new Counters();
    this.discovery = new TranscriptDiscovery(opts.repo, {
      ...opts.discovery,
      log: opts.discovery.log ?? this.log,
      counters: opts.discovery.counters ?? this.counters,
    });
  }

  /** Subscribes to event batches; returns a disposable. */
  /** A listener's promise is awaited before its tailer reads on (back-pressure during catch-up). */
  onEvents(listener: (events: TailedEvent[]) => unknown): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Files currently tailed. */
  get tailedFiles(): string[] {
    return [...this.tailers.keys()];
  }

  /** The last discovery result. */
  get lastDiscovery(): DiscoveryResult | undefined {
    return this.last;
  }

  /** First discovery + tailing; then periodic rescans. */
  async start(): Promise<void> {
    await this.rescan();
    const every = this.opts.rescanIntervalMs ?? 30_000;
    if (every > 0 && !this.disposed) {
      this.rescanTimer = setInterval(() => void this.rescan(), every);
      this.rescanTimer.unref?.();
    }
  }

  /** Discovers again and starts/stops tailers (serialized; calls during a scan coalesce into one more). */
  rescan(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.scanning) {
      this.rescanAgain = true;
      return this.scanning;
    }
    const run = async () => {
      do {
        this.rescanAgain = false;
        try {
          await this.scanOnce();
        } catch (e) {
          this.counters.inc('watcher.scanErrors');
          this.log.warn(`transcript rescan failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      } while (this.rescanAgain && !this.disposed);
    };
    this.scanning = run().finally(() => {
      this.scanning = undefined;
    });
    return this.scanning;
  }

  /** Stops every tailer, watcher and timer. */
  dispose(): void {
    this.disposed = true;
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    for (const w of this.dirWatchers.values()) w.close();
    this.dirWatchers.clear();
    for (const t of this.tailers.values()) t.dispose();
    this.tailers.clear();
    this.listeners.clear();
  }

  private async scanOnce(): Promise<void> {
    const result = await this.discovery.scan();
    if (this.disposed) return;
    this.last = result;
    const wanted = result.transcripts.slice(0, this.opts.maxTailers ?? 64);
    const wantedPaths = new Set(wanted.map((t) => t.filePath));
    for (const [p, t] of this.tailers) {
      if (!wantedPaths.has(p) || t.stopped) {
        t.dispose();
        this.tailers.delete(p);
      }
    }
    this.updateDirWatchers(result.watchDirs);
    // catch-ups one after the other (newest transcripts first, as discovery orders them): each
    // tailer holds at most one batch of parsed events until the consumer took it, so memory stays
    // at one batch instead of one per transcript
    for (const t of wanted) {
      if (this.disposed) return;
      if (!this.tailers.has(t.filePath)) await this.startTailer(t);
    }
    this.reportSkips(result.stats);
    this.log.debug(`transcripts: ${result.transcripts.length} found, ${this.tailers.size} tailed`);
  }

  private lastSkipReport = '';

  /** Logs (info) what discovery skipped — counts by reason, never paths or contents — when it changed. */
  private reportSkips(stats: Record<string, number>): void {
    const parts = skipReasons.filter((k) => (stats[k] ?? 0) > 0).map((k) => `${stats[k]} ${skipLabels[k]}`);
    const report = parts.join(', ');
    if (report === this.lastSkipReport) return;
    this.lastSkipReport = report;
    if (report) this.log.info(`transcript discovery skipped: ${report}`);
  }

  private async startTailer(t: DiscoveredTranscript): Promise<void> {
    const tailer = new TranscriptTailer({
      agent: t.agent,
      filePath: t.filePath,
      sessionIdHint: t.sessionIdHint,
      cwdHint: t.cwdHint,
      sidechain: t.sidechain,
      offsetStore: this.opts.offsetStore,
      onEvents: (events) => this.forward(events),
      onGone: () => {
        if (this.tailers.get(t.filePath) === tailer) this.tailers.delete(t.filePath);
      },
      useFsWatch: this.opts.useFsWatch,
      pollIntervalMs: this.opts.pollIntervalMs,
      debounceMs: this.opts.debounceMs,
      maxLineBytes: this.opts.maxLineBytes,
      log: this.log,
      counters: this.counters,
    });
    this.tailers.set(t.filePath, tailer);
    await tailer.start();
    if (this.disposed) tailer.dispose();
  }

  private forward(events: TailedEvent[]): Promise<unknown> {
    const failed = (e: unknown) => {
      this.counters.inc('watcher.listenerErrors');
      this.log.error(`transcript listener failed: ${e instanceof Error ? e.message : String(e)}`);
    };
    const pending: Promise<unknown>[] = [];
    for (const l of [...this.listeners]) {
      try {
        const r = l(events);
        if (r instanceof Promise) pending.push(r.catch(failed));
      } catch (e) {
        failed(e);
      }
    }
    return Promise.all(pending);
  }

  private updateDirWatchers(dirs: readonly string[]): void {
    if (this.opts.useFsWatch === false) return;
    // A directory that does not exist yet (the agent was never run here, or today's Codex folder)
    // is covered by watching its nearest existing ancestor: creating it triggers a rescan at once
    // instead of waiting for the periodic one.
    const wanted = new Set(dirs.map((d) => nearestExisting(d)).filter((d): d is string => d !== undefined));
    for (const [d, w] of this.dirWatchers) {
      if (!wanted.has(d)) {
        w.close();
        this.dirWatchers.delete(d);
      }
    }
    for (const d of wanted) {
      if (this.dirWatchers.has(d)) continue;
      try {
        const w = fs.watch(d, { persistent: false }, (event, name) => {
          // an append to a transcript already tailed is its tailer's business, not discovery's
          if (event === 'change' && typeof name === 'string' && this.tailers.has(path.join(d, name))) {
            this.counters.inc('watcher.appendsIgnored');
            return;
          }
          this.scheduleRescan();
        });
        w.on('error', () => {
          w.close();
          this.dirWatchers.delete(d);
        });
        this.dirWatchers.set(d, w);
      } catch {
        // missing directory (e.g. Codex's folder for today) or no watch available: the periodic rescan covers it
        this.counters.inc('watcher.dirWatchFailures');
      }
    }
  }

  private scheduleRescan(): void {
    if (this.disposed) return;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      void this.rescan();
    }, this.opts.rescanDebounceMs ?? 500);
    this.debounceTimer.unref?.();
  }
}

const skipReasons = ['permissionDenied', 'symlinkEscapes', 'errors', 'capped', 'badMarkers'] as const;
const skipLabels: Record<(typeof skipReasons)[number], string> = {
  permissionDenied: 'unreadable (permission denied)',
  symlinkEscapes: 'symlink(s) leading outside the agent directory',
  errors: 'unreadable (other errors)',
  capped: 'over the file cap',
  badMarkers: 'unusable marker file(s)',
};

/** `dir` if it exists, else its closest existing ancestor (never above the filesystem root). */
function nearestExisting(dir: string): string | undefined {
  let d = dir;
  for (let i = 0; i < 8; i++) {
    try {
      if (fs.statSync(d).isDirectory()) return d;
    } catch {
      /* keep walking up */
    }
    const parent = path.dirname(d);
    if (parent === d) return undefined;
    d = parent;
  }
  return undefined;
}
