/**
 * Runs the sharing operations (sharingOps.ts) in a worker thread, so that reading and merging
 * notes — possibly thousands, from any remote — never runs on the extension host's thread.
 *
 * One worker for the whole extension host, started on first use and stopped after `idleMs`
 * without work; requests of all repositories go through it (each names its repository), and run
 * concurrently inside it (each is mostly waiting for git). The worker's heap is capped
 * (`maxHeapMb`): a hostile note cannot take the host's memory. If the worker cannot start (its
 * file is missing) or dies, the request fails with an error; nothing runs on the host's thread.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { type Logger, nullLogger } from '../../core/ports';
import type { RepoRef, SharingOp, SharingOps } from './sharingOps';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface WorkerRequest {
  id: number;
  op: SharingOp;
  repo: RepoRef;
  args: unknown;
}

export type WorkerReply =
  | { id: number; log: { level: LogLevel; message: string } }
  | { id: number; result: unknown; threadId: number }
  | { id: number; error: string; threadId: number };

type Result<K extends SharingOp> = Awaited<ReturnType<SharingOps[K]>>;

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  log: Logger;
}

export interface SharingWorkerOptions {
  /** The worker's script (default: sharingWorker.js next to this module, i.e. dist/ in the bundle). */
  script?: string;
  /** Stop the worker after this long without work (default 60 s). */
  idleMs?: number;
  /** Heap cap of the worker (default 512 MiB). */
  maxHeapMb?: number;
}

export class SharingWorkerClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idleTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly script: string;
  /** Thread id of the worker that answered last (never 0, the main thread). */
  lastThreadId: number | undefined;
  /** Requests answered by the worker. */
  completed = 0;

  constructor(private readonly opts: SharingWorkerOptions = {}) {
    this.script = opts.script ?? path.join(__dirname, 'sharingWorker.js');
  }

  run<K extends SharingOp>(op: K, repo: RepoRef, args: Parameters<SharingOps[K]>[1], log: Logger = nullLogger): Promise<Result<K>> {
    if (this.disposed) return Promise.reject(new Error('sharing worker disposed'));
    let worker: Worker;
    try {
      worker = this.ensureWorker();
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const id = this.nextId++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    return new Promise<Result<K>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, log });
      worker.postMessage({ id, op, repo, args } satisfies WorkerRequest);
    });
  }

  /** True while a worker thread is running. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.stop(new Error('sharing worker disposed'));
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    if (!existsSync(this.script)) throw new Error(`sharing worker script missing: ${this.script}`);
    const worker = new Worker(this.script, {
      env: SHARE_ENV,
      resourceLimits: { maxOldGenerationSizeMb: this.opts.maxHeapMb ?? 512 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    worker.on('message', (m: WorkerReply) => this.onReply(m));
    worker.on('error', (e) => this.stop(e));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.stop(new Error(`sharing worker exited (${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private onReply(m: WorkerReply): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    if ('log' in m) {
      p.log[m.log.level](m.log.message);
      return;
    }
    this.pending.delete(m.id);
    this.lastThreadId = m.threadId;
    this.completed++;
    if ('error' in m) p.reject(new Error(m.error));
    else p.resolve(m.result);
    if (this.pending.size === 0) this.scheduleIdleStop();
  }

  private scheduleIdleStop(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0) this.stop();
    }, this.opts.idleMs ?? 60_000);
    this.idleTimer.unref();
  }

  private stop(error?: Error): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(error ?? new Error('sharing worker stopped'));
    this.pending.clear();
    void w?.terminate();
  }
}
