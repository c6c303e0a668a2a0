/**
 * The sharing policy of one repository, testable without the editor; the host only forwards
 * events (`poke()`) and reads settings when asked.
 *
 * - start(): repairs and sets the fetch refspecs (fetchConfig.ts), takes the push detector's
 *   baseline (pushes made before are never acted on: opening a folder pushes nothing), and runs
 *   one sync (fetched notes, forced updates; notesSync.ts).
 * - poke(): after any change in the repository (the git extension's state, a ref watcher). Cheap
 *   when nothing happened: file reads only, no git process. A new `update by push` reflog entry
 *   of a remote-tracking ref (a real push, pushDetector.ts) shares the notes of what is now on that
 *   remote (notesShare.ts), if `pushMode()` says `withBranches` at that moment; a change of the
 *   notes refs (a fetch brought notes, another tool wrote or replaced the notes ref) runs a sync.
 * Syncs and shares of the repository run one at a time, in the sharing worker thread
 * (sharingWorkerClient.ts): nothing of it runs on the caller's thread.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { type Logger, nullLogger } from '../../core/ports';
import type { GitRunner } from '../git/gitRunner';
import { setHookPushEnabled } from '../hooks/gitHooks';
import { configureNotesFetch, remoteNames } from './fetchConfig';
import type { DeriveResult } from '../recorder/derivedNotes';
import type { ShareResult } from './notesShare';
import type { SyncResult } from './notesSync';
import { PushDetector } from './pushDetector';
import type { RepoRef } from './sharingOps';
import type { SharingWorkerClient } from './sharingWorkerClient';

export type SharingPushMode = 'withBranches' | 'off';

export interface CoordinatorOptions {
  repo: RepoRef & { commonDir: string };
  /** Git for configuration reads/writes (on the caller's thread: a few short processes). */
  git: GitRunner;
  worker: Pick<SharingWorkerClient, 'run'> & { lastThreadId?: number };
  log?: Logger;
  /** agentNote.sharing.push, read at the moment of use. */
  pushMode(): SharingPushMode;
  /** The configured remote names without a git process (the host: the git extension's state); default `git remote`. */
  remoteNames?(): readonly string[];
  /** agentNote.notes.fetchWithBranch, read at the moment of use. */
  fetchEnabled(): boolean;
  /** Awaited before a share or a derive (e.g. the note of the commit just pushed is still being written). */
  beforeShare?(): Promise<void>;
  /** The local notes ref changed because of a sync or a share. */
  onNotesChanged?(): void;
  /** Pause between a poke and the work it causes (default 200 ms): a burst of events is one check. */
  debounceMs?: number;
}

export class NotesSharingCoordinator {
  private readonly log: Logger;
  private readonly detector: PushDetector;
  private remotes: string[] = [];
  private fingerprint: string | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private started: Promise<void> | undefined;
  /** Results of the last sync and share (tests, diagnostics). */
  lastSync: SyncResult | undefined;
  lastShare: { remote: string; result: ShareResult } | undefined;
  /** Thread that answered the last request (the sharing worker's; tests). */
  get lastWorkerThreadId(): number | undefined {
    return this.opts.worker.lastThreadId;
  }
  /** Counts of what ran. */
  readonly stats = { syncs: 0, shares: 0, pushesDetected: 0, sharesSkippedOff: 0, derives: 0 };
  lastDerive: DeriveResult | undefined;
  /** deriveFingerprint() when derive() last ran. */
  private derivedAt: string | undefined;

  constructor(private readonly opts: CoordinatorOptions) {
    this.log = opts.log ?? nullLogger;
    this.detector = new PushDetector(opts.repo.commonDir, () => opts.remoteNames?.() ?? this.remotes);
  }

  start(): Promise<void> {
    this.started ??= this.doStart().catch((e) => this.log.warn(`notes sharing start failed: ${String(e)}`));
    return this.started;
  }

  private async doStart(): Promise<void> {
    await this.detector.start();
    await this.configure();
    this.fingerprint = await this.refsFingerprint();
    await this.enqueue(() => this.sync());
    await this.enqueue(() => this.derive(this.deriveFingerprint(this.fingerprint ?? '')));
  }

  /** Settings may have changed: fetch refspecs and the hook's switch follow them. */
  async configure(): Promise<void> {
    try {
      this.remotes = await remoteNames(this.opts.git);
      const enabled = this.opts.fetchEnabled();
      for (const r of this.remotes) {
        const change = await configureNotesFetch(this.opts.git, r, enabled);
        if (change?.removed.length) this.log.info(`remote ${r}: removed fetch refspec ${change.removed.join(', ')}`);
        if (change?.added.length) this.log.info(`remote ${r}: notes now arrive with git fetch (${change.added.join(', ')})`);
      }
      await setHookPushEnabled(this.opts.repo.commonDir, this.opts.pushMode() !== 'off');
    } catch (e) {
      this.log.warn(`notes sharing configuration failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Something in the repository changed (module comment). */
  poke(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.start().then(() => this.enqueue(() => this.check()));
    }, this.opts.debounceMs ?? 200);
  }

  /** Runs the checks of poke() now and waits for the work they cause (tests). */
  async checkNow(): Promise<void> {
    await this.start();
    await this.enqueue(() => this.check());
  }

  /** Waits until queued syncs and shares have finished. */
  async idle(): Promise<void> {
    await this.start();
    for (;;) {
      const c = this.chain;
      await c;
      if (c === this.chain && !this.timer) return;
      if (this.timer) await new Promise((r) => setTimeout(r, this.opts.debounceMs ?? 200));
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T | undefined> {
    const run = this.chain.then(() => (this.disposed ? undefined : fn()));
    this.chain = run.catch((e) => this.log.warn(`notes sharing: ${e instanceof Error ? e.message : String(e)}`));
    return run.catch(() => undefined);
  }

  private async check(): Promise<void> {
    if (!this.opts.remoteNames) this.remotes = await remoteNames(this.opts.git).catch(() => this.remotes);
    else {
      // a remote added (or removed) since: give it its refspec
      const now = [...this.opts.remoteNames()].sort().join('\n');
      if (now && now !== [...this.remotes].sort().join('\n')) await this.configure();
    }
    const pushes = await this.detector.check();
    const fp = await this.refsFingerprint();
    if (fp !== this.fingerprint) {
      this.fingerprint = fp;
      await this.sync();
    }
    // new commits (a fetch, a pull, a push) or new notes: commits of a squash or rebase merge may now get derived notes
    const at = this.deriveFingerprint(this.fingerprint ?? fp);
    if (at !== this.derivedAt) await this.derive(at);
    for (const p of pushes) {
      this.stats.pushesDetected++;
      if (this.opts.pushMode() === 'off') {
        this.stats.sharesSkippedOff++;
        this.log.info(`push to ${p.remote} seen; notes not shared (agentNote.sharing.push is off)`);
        continue;
      }
      await this.share(p.remote);
    }
  }

  private async sync(): Promise<void> {
    this.stats.syncs++;
    const r = await this.opts.worker.run('sync', this.opts.repo, {}, this.log);
    this.lastSync = r;
    if (r.changed) this.opts.onNotesChanged?.();
    if (r.merged.length) this.log.info(`notes fetched: ${r.merged.map((m) => `${m.from} (${m.status})`).join(', ')}`);
    this.fingerprint = await this.refsFingerprint();
  }

  /**
   * Derived notes for new commits that a hosting service's squash or rebase merge made
   * (recorder/derivedNotes.ts), in the worker. Failures are logged; the next change looks again.
   */
  private async derive(at: string): Promise<void> {
    await this.opts.beforeShare?.();
    this.stats.derives++;
    this.derivedAt = at;
    try {
      const r = await this.opts.worker.run('derive', this.opts.repo, {}, this.log);
      this.lastDerive = r;
      if (r.derived.length > 0) {
        // our own notes commit: not a change to look at again
        this.fingerprint = await this.refsFingerprint();
        this.derivedAt = this.deriveFingerprint(this.fingerprint);
        this.opts.onNotesChanged?.();
      }
    } catch (e) {
      this.log.warn(`deriving notes failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** The remote-tracking reflogs as the push detector saw them at its last check, and the notes refs (`refs`: refsFingerprint()). */
  private deriveFingerprint(refs: string): string {
    return `${this.detector.fingerprint}\n${refs}`;
  }

  private async share(remote: string): Promise<void> {
    await this.opts.beforeShare?.();
    this.stats.shares++;
    const result = await this.opts.worker.run('share', this.opts.repo, { remote }, this.log);
    this.lastShare = { remote, result };
    this.log.info(`notes for ${remote}: ${JSON.stringify(result).slice(0, 300)}`);
    if (result.status === 'pushed') this.opts.onNotesChanged?.();
    this.fingerprint = await this.refsFingerprint();
  }

  /**
   * What the notes refs are now, from files only: the loose refs of refs/notes/agentnote, our
   * tracking refs and our last-local ref, and packed-refs' identity.
   */
  private async refsFingerprint(): Promise<string> {
    const dir = this.opts.repo.commonDir;
    const files = [path.join(dir, 'refs', 'notes', 'agentnote'), path.join(dir, 'refs', 'agentnote', 'last-local')];
    try {
      for (const r of await readdir(path.join(dir, 'refs', 'notes', 'remotes')))
        files.push(path.join(dir, 'refs', 'notes', 'remotes', r, 'agentnote'));
    } catch {
      /* no tracking refs */
    }
    const parts: string[] = [];
    for (const f of files) parts.push(`${f}=${(await readFile(f, 'utf8').catch(() => '')).trim()}`);
    const packed = await stat(path.join(dir, 'packed-refs')).catch(() => undefined);
    parts.push(`packed=${packed ? `${packed.ino}:${packed.size}:${packed.mtimeMs}` : ''}`);
    return parts.join('\n');
  }
}
