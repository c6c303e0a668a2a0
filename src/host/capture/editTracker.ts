import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import type { ContentTransition, TransitionSource } from '../../core/capture/editCapture';
import { FileSnapshots } from '../../node/capture/fileSnapshots';
import type { GitRunner } from '../../node/git/gitRunner';
import type { BlobStore } from '../../node/git/blobStore';
import { DocumentMirror } from './documentMirror';
import { Limiter } from '../../node/util/limiter';
import { isReloadFromDisk } from '../../core/capture/reloadCheck';
import { repoRelativePath } from '../../core/git/repoPath';
import { hostPathRules } from '../../node/util/hostPaths';
import { systemClock } from '../../core/ports';

/**
 * Observes every change to the files of one repository — typing, paste, agent WorkspaceEdits,
 * formatters (open documents), and writes on disk by CLI agents and tools (file watcher) — and
 * turns them into content transitions (text before → after). Who made them is decided later by
 * EditCapture against the transcripts. No git process and no full-text copy per keystroke:
 * typing is coalesced per document and flushed at save, after a pause, at a bulk change and
 * before a commit is recorded.
 */
/** What the tracker needs of its repository (a narrow view, so the tracker does not depend on RepositoryService). */
export interface TrackedRepository {
  readonly root: string;
  readonly git: GitRunner;
  readonly blobs: Pick<BlobStore, 'read'>;
}

export class EditTracker implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly mirrors = new Map<string, DocumentMirror>();
  /** Documents whose pending typing run is a run of undo/redo changes. */
  private readonly undoRuns = new Set<string>();
  private readonly snapshots: FileSnapshots;
  private readonly diskTimers = new Map<string, NodeJS.Timeout>();
  /** Files changed on disk are read a few at a time (an agent writing 500 files must not start 500 reads at once). */
  private readonly diskReads = new Limiter(8);
  private readonly diskInFlight = new Map<string, Promise<void>>();
  private idleTimer: NodeJS.Timeout | undefined;
  private seq = 0;
  /** Time spent in the change handler (ms), for the benchmark: totals and the last 1,024 samples. */
  handlerStats = { calls: 0, totalMs: 0, maxMs: 0 };
  /**
   * Reloads from disk told apart from edits, changes of documents adopted without an open event, and
   * disk writes recorded from a reload (before the file watcher reported them).
   */
  readonly counters = { reloads: 0, adopted: 0, reloadTransitions: 0 };
  private readonly handlerSamples = new Float64Array(1024);

  /** Median of the recent change-handler durations (ms). */
  get handlerMedianMs(): number {
    const n = Math.min(this.handlerStats.calls, this.handlerSamples.length);
    if (n === 0) return 0;
    const sorted = Array.from(this.handlerSamples.subarray(0, n)).sort((a, b) => a - b);
    return sorted[Math.floor(n / 2)];
  }

  constructor(
    private readonly repo: TrackedRepository,
    private readonly emit: (t: ContentTransition) => void,
    private readonly log: Logger,
    private readonly idleFlushMs = 1500,
  ) {
    this.snapshots = new FileSnapshots(repo.root, repo.git, (name) => repo.blobs.read(name));
    for (const doc of vscode.workspace.textDocuments) this.track(doc);
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.track(d)),
      vscode.workspace.onDidCloseTextDocument((d) => this.untrack(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.onChange(e)),
      vscode.workspace.onDidSaveTextDocument((d) => this.onSave(d)),
    );
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(repo.root), '**/*'));
    this.disposables.push(
      watcher,
      watcher.onDidChange((u) => this.onDisk(u)),
      watcher.onDidCreate((u) => this.onDisk(u)),
      watcher.onDidDelete((u) => this.onDisk(u)),
    );
  }

  /** Repo-relative path of a file URI inside this repository, else undefined. */
  relPath(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    const rel = repoRelativePath(this.repo.root, uri.fsPath, hostPathRules);
    if (!rel || rel.includes('/node_modules/') || rel.startsWith('node_modules/')) return undefined;
    return rel;
  }

  private track(doc: vscode.TextDocument): void {
    const rel = this.relPath(doc.uri);
    if (!rel || this.mirrors.has(doc.uri.toString())) return;
    this.mirrors.set(doc.uri.toString(), new DocumentMirror(doc.getText()));
    if (!doc.isDirty) this.snapshots.set(rel, doc.getText());
  }

  private untrack(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const m = this.mirrors.get(key);
    if (m?.hasPending) this.flushDoc(doc, m);
    this.mirrors.delete(key);
    this.undoRuns.delete(key);
  }

  private onChange(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0) return;
    const t0 = performance.now();
    const key = e.document.uri.toString();
    let m = this.mirrors.get(key);
    const rel = this.relPath(e.document.uri);
    if (!m && rel) m = this.adopt(e.document, rel);
    if (m && rel) {
      const now = systemClock.now();
      const clean = !e.document.isDirty && e.reason === undefined;
      const disk = clean ? this.snapshots.readCurrentSync(rel) : undefined;
      if (clean && isReloadFromDisk(e.document.getText(), disk)) {
        // the editor reloaded the document after its file changed on disk (the buffer now equals the
        // file): never an edit in the editor. A clean document's FIRST edit (VS Code reports it with
        // isDirty === false too) leaves the buffer different from the file and goes on below like any
        // other change.
        if (m.hasPending) this.flushDoc(e.document, m, m.materialize());
        m.checkpoint(e.document.getText());
        this.counters.reloads++;
        // The reload is itself proof of the disk write: record it now rather than wait for the file
        // watcher, whose event can come late (or not at all for quick successive writes). Waiting
        // lost the write when the document was edited and saved before the watcher spoke: the save
        // updated the snapshot and the watcher's read then found nothing changed (issue #15).
        if (typeof disk === 'string') this.diskSeen(rel, disk, now);
      } else if (this.looksLikeTyping(e)) {
        // undo/redo presses are a run of their own: the state they return to is observed, so an
        // agent edit the person undid (Copilot's, applied through the editor) is seen as reverted
        // even when the person types right after (src/core/attribution/revertedEdits.ts)
        const undo = e.reason !== undefined;
        if (m.hasPending && this.undoRuns.has(key) !== undo) this.flushDoc(e.document, m, m.materialize());
        if (undo) this.undoRuns.add(key);
        else this.undoRuns.delete(key);
        m.push(e.contentChanges, now);
        this.scheduleIdleFlush();
      } else {
        // bulk change (agent WorkspaceEdit, format, multi-cursor, paste away from the cursor):
        // close the typing run first, then emit this change on its own
        const before = m.materialize();
        if (m.hasPending) this.emitTransition(rel, m.checkpointText, before, m.pendingSince ?? now, 'typing');
        const after = e.document.getText();
        this.emitTransition(rel, before, after, now, 'bulk');
        m.checkpoint(after);
      }
    }
    const dt = performance.now() - t0;
    this.handlerSamples[this.handlerStats.calls % this.handlerSamples.length] = dt;
    this.handlerStats.calls++;
    this.handlerStats.totalMs += dt;
    if (dt > this.handlerStats.maxMs) this.handlerStats.maxMs = dt;
  }

  /**
   * A change to a repository file whose document was never tracked (its open event was missed): the
   * text before the change is the file's last known or on-disk content when the document was clean;
   * the change itself is then recorded like any other. Counted, never silently dropped.
   */
  private adopt(doc: vscode.TextDocument, rel: string): DocumentMirror {
    const known = this.snapshots.get(rel) ?? this.snapshots.readCurrentSync(rel) ?? '';
    const m = new DocumentMirror(known);
    this.mirrors.set(doc.uri.toString(), m);
    this.counters.adopted++;
    return m;
  }

  /** Typing and paste: one change at a selection of the focused active editor. */
  private looksLikeTyping(e: vscode.TextDocumentChangeEvent): boolean {
    if (e.reason !== undefined) return true; // undo/redo of the user's own edits
    if (e.contentChanges.length !== 1) return false;
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document !== e.document) return false;
    const c = e.contentChanges[0];
    return editor.selections.some((s) => Math.abs(s.active.line - c.range.start.line) <= 1);
  }

  private scheduleIdleFlush(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.flushTyping(), this.idleFlushMs);
  }

  /** Emits coalesced typing of every open document (at a pause, a save, a turn or a commit). */
  flushTyping(): void {
    for (const doc of vscode.workspace.textDocuments) {
      const m = this.mirrors.get(doc.uri.toString());
      if (m?.hasPending) this.flushDoc(doc, m);
    }
  }

  private flushDoc(doc: vscode.TextDocument, m: DocumentMirror, text = doc.getText()): void {
    const rel = this.relPath(doc.uri);
    if (rel) this.emitTransition(rel, m.checkpointText, text, m.pendingSince ?? systemClock.now(), 'typing');
    m.checkpoint(text);
  }

  private onSave(doc: vscode.TextDocument): void {
    const rel = this.relPath(doc.uri);
    if (!rel) return;
    const m = this.mirrors.get(doc.uri.toString());
    if (m?.hasPending) this.flushDoc(doc, m);
    // what is on disk now is what the editor wrote: not a disk transition of its own
    this.snapshots.set(rel, doc.getText());
  }

  private onDisk(uri: vscode.Uri): void {
    const rel = this.relPath(uri);
    if (!rel) return;
    const prev = this.diskTimers.get(rel);
    if (prev) clearTimeout(prev);
    this.diskTimers.set(
      rel,
      setTimeout(() => {
        this.diskTimers.delete(rel);
        this.queueDiskRead(rel);
      }, 50),
    );
  }

  /** Reads `rel` after its read in flight (one at a time per file, a few files at a time overall). */
  private queueDiskRead(rel: string): void {
    const run = (this.diskInFlight.get(rel) ?? Promise.resolve()).then(() => this.diskReads.run(() => this.readDisk(rel)));
    this.diskInFlight.set(rel, run);
    void run.finally(() => {
      if (this.diskInFlight.get(rel) === run) this.diskInFlight.delete(rel);
    });
  }

  private async readDisk(rel: string): Promise<void> {
    try {
      const now = systemClock.now();
      const current = await this.snapshots.readCurrent(rel);
      if (current === undefined) return;
      const before = await this.snapshots.previous(rel);
      const after = current ?? '';
      if (before === after) return;
      if (current === null) this.snapshots.forget(rel);
      else this.snapshots.set(rel, after);
      this.emitTransition(rel, before, after, now, 'disk');
    } catch (e) {
      this.log.debug(`disk read failed for a file: ${String(e)}`);
    }
  }

  /** A write on disk seen by other means than the watcher: the transition from the last known text. */
  private diskSeen(rel: string, after: string, now: number): void {
    const before = this.snapshots.get(rel);
    if (before === undefined || before === after) return; // unknown: the watcher's read decides
    this.snapshots.set(rel, after);
    this.counters.reloadTransitions++;
    this.emitTransition(rel, before, after, now, 'disk');
  }

  /** Waits for pending disk reads and flushes typing (called before a commit is recorded). */
  async settle(): Promise<void> {
    this.flushTyping();
    for (const [rel, timer] of this.diskTimers) {
      clearTimeout(timer);
      this.diskTimers.delete(rel);
      this.queueDiskRead(rel);
    }
    await Promise.all([...this.diskInFlight.values()]);
  }

  private emitTransition(file: string, before: string, after: string, time: number, source: TransitionSource): void {
    if (before === after) return;
    this.emit({ id: `${systemClock.now().toString(36)}-${++this.seq}`, file, before, after, time, source });
  }

  dispose(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const t of this.diskTimers.values()) clearTimeout(t);
    for (const d of this.disposables.reverse()) d.dispose();
  }
}
