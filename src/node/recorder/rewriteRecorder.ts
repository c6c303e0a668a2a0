import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { isObjectId } from '../../core/git/objectId';
import { encodeNote } from '../../core/notes/noteCodec';
import { fitNoteForWrite } from '../../core/notes/noteSize';
import type { AgentNoteV1 } from '../../core/notes/noteTypes';
import { parseRewriteQueue, rewriteQueueName } from '../../core/notes/rewriteQueue';
import { byCommitTime, parentsOf, partBlobs, ReflogRewrites, type RewriteGroup } from './rewriteSources';
import { rewriteNote, type RewrittenFile, type RewriteSource } from '../../core/notes/rewriteNote';
import { parseFileDiffs, type DiffHunk } from '../../core/attribution/diffHunks';
import type { Clock, Counters, Logger } from '../../core/ports';
import { CommitDiffs } from '../attribution/commitDiffs';
import { key, readRewriteBatch, type RewriteBatch } from './rewriteBatch';
import { type GitRunner, pinnedDiffArgs } from '../git/gitRunner';
import type { NoteStore } from '../notes/noteStore';
import type { RecordOutcome } from './recordOutcome';
import { errorText, exists } from './recorderUtil';

/** A queue file larger than this is read only up to it (the rest is counted as skipped). */
const maxQueueBytes = 4 * 1024 * 1024;
/** Paths per `diff-tree` call (keeps the command line short on every platform). */
const pathsPerDiff = 200;
const takenSuffix = '.taking';

/** Groups planned at once (each runs a few short git processes). */
const planConcurrency = 4;

/** What to do for one rewritten commit: write `note`, or remove the copied note. */
interface Plan {
  result: RewriteResult;
  note?: AgentNoteV1;
  remove?: boolean;
}

type Group = RewriteGroup;

export interface RewriteRecorderDeps {
  root: string;
  /** `<git-dir>/agentnote` of this work tree (where the post-rewrite hook appends its queue). */
  journalRoot: string;
  git: GitRunner;
  log: Logger;
  clock: Clock;
  counters: Counters;
  notes: NoteStore;
}

/** What happened to one rewritten commit. */
export interface RewriteResult {
  target: string;
  outcome: RecordOutcome | { kind: 'removed' };
}

/**
 * Notes of commits made by a rebase (issue #18): the post-rewrite hook queues git's old → new
 * pairs; each new commit then gets a note computed for its own diff (src/core/notes/rewriteNote.ts)
 * from the notes of the commits it was made from, replacing the copy `notes.rewriteRef` made (its
 * `ai_ranges` and counts belong to the old diff). A new commit none of whose added lines keeps an
 * AI claim loses the copied note. Amend pairs are left to the CommitRecorder, which recomputes an
 * amended commit's note from the journal. A note the new commit got otherwise (recorded while the
 * rebase stopped for an edit) is kept as one more source, its ranges already in place.
 *
 * The queue is taken by renaming it first, so pairs the hook appends meanwhile wait for the next
 * run; a taken file is deleted only once every group in it was handled (a crash leaves it to be
 * taken again at the next start: recomputing a note gives the same note).
 */
export class RewriteRecorder {
  /** Reflog candidates already handled in this run (a commit left without a note is looked at once). */
  private readonly seen = new Set<string>();
  /** The reflog's newest entry and the notes ref at the last look (unchanged: nothing new to find). */
  private readonly reflog: ReflogRewrites;

  constructor(private readonly d: RewriteRecorderDeps) {
    this.reflog = new ReflogRewrites(d.git, d.notes, this.seen);
  }

  /** A rebased commit waits for git's note copy: look again soon, even if no signal comes. */
  get waitingForCopy(): boolean {
    return this.reflog.waitingForCopy;
  }

  /** Processes every queued rewrite; never throws (failures are counted and logged). */
  async process(onResult?: (r: RewriteResult) => void): Promise<RewriteResult[]> {
    const results: RewriteResult[] = [];
    try {
      if (await exists(this.queueFile)) {
        const taken = `${this.queueFile}.${this.d.clock.now()}-${randomBytes(4).toString('hex')}${takenSuffix}`;
        await rename(this.queueFile, taken).catch(() => undefined);
      }
      for (const file of await this.takenFiles()) {
        const text = await readCapped(file);
        const parsed = parseRewriteQueue(text.text);
        const skipped = parsed.skipped + (text.cut ? 1 : 0);
        if (skipped > 0) {
          this.d.counters.inc('rewrite.queueLinesSkipped', skipped);
          this.d.log.info(`rewrite queue: ${skipped} line(s) skipped (not "<kind> <old> <new>")`);
        }
        // the CommitRecorder recomputes an amend from the journal
        const complete = await this.runGroups(
          parsed.groups.filter((g) => g.kind !== 'amend'),
          results,
          onResult,
        );
        if (complete) await unlink(file).catch(() => undefined);
      }
      // without our hook (the default): what the reflog, the messages and git's note copies say
      await this.runGroups(await this.reflog.groups(), results, onResult);
    } catch (e) {
      this.d.counters.inc('rewrite.failures');
      this.d.log.warn(`rewrite queue not processed: ${errorText(e)}`);
    }
    return results;
  }

  /**
   * Plans the groups (up to `planConcurrency` at once), then writes their notes in one notes commit
   * and removes the copies left without an AI line. A group whose sources include an earlier
   * group's new commit (rebased twice before we looked) waits for that one's note to be written.
   * Returns false when any group failed (it is looked at again on the next run).
   */
  private async runGroups(groups: readonly Group[], results: RewriteResult[], onResult?: (r: RewriteResult) => void): Promise<boolean> {
    let complete = true;
    let at = 0;
    while (at < groups.length) {
      // a segment: groups that do not build on each other's new notes
      const targets = new Set<string>();
      let end = at;
      while (end < groups.length && !groups[end].sources.some((s) => targets.has(s))) targets.add(groups[end++].target);
      const segment = groups.slice(at, end);
      at = end;
      const plans: (Plan | undefined)[] = new Array(segment.length);
      const parents = await parentsOf(
        this.d.git,
        segment.map((g) => g.target),
      );
      // one reader of diffs for the segment, with its git reads done for all groups at once
      const diffs = new CommitDiffs(this.d.git, { log: this.d.log, worktreeRoot: this.d.root });
      const batch = await readRewriteBatch(this.d.git, this.d.notes, diffs, segment).catch((e: unknown) => {
        this.d.log.debug(`rewrite: batched reads failed, reading commit by commit: ${errorText(e)}`);
        return undefined;
      });
      let next = 0;
      const worker = async () => {
        while (next < segment.length) {
          const i = next++;
          const g = segment[i];
          try {
            plans[i] = await this.planOne(g, parents, diffs, batch);
            this.seen.add(g.target);
          } catch (e) {
            complete = false;
            this.d.counters.inc('rewrite.failures');
            this.d.log.warn(`note of rewritten commit ${g.target.slice(0, 8)} not recomputed: ${errorText(e)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(planConcurrency, segment.length) }, worker));
      const done = plans.filter((p): p is Plan => p !== undefined);
      const writes = done.filter((p) => p.note).map((p) => ({ commit: p.result.target, note: p.note! }));
      try {
        if (writes.length > 0) {
          await this.d.notes.writeMany(writes);
          this.d.counters.inc('rewrite.notesWritten', writes.length);
        }
        for (const p of done.filter((x) => x.remove)) {
          await this.d.notes.remove(p.result.target);
          this.d.counters.inc('rewrite.notesRemoved');
        }
      } catch (e) {
        complete = false;
        for (const p of done) this.seen.delete(p.result.target);
        this.d.counters.inc('rewrite.failures');
        this.d.log.warn(`notes of ${done.length} rewritten commit(s) not written: ${errorText(e)}`);
        continue;
      }
      for (const p of done) {
        results.push(p.result);
        onResult?.(p.result);
      }
    }
    return complete;
  }

  private get queueFile(): string {
    return path.join(this.d.journalRoot, rewriteQueueName);
  }

  private async takenFiles(): Promise<string[]> {
    const names = await readdir(this.d.journalRoot).catch(() => [] as string[]);
    return names
      .filter((n) => n.startsWith(`${rewriteQueueName}.`) && n.endsWith(takenSuffix))
      .sort()
      .map((n) => path.join(this.d.journalRoot, n));
  }

  /** True when the target's note is git's copy of source notes (the same blob, or only they concatenated). */
  private async isCopyOf(target: string, blob: string, sourceBlobs: ReadonlySet<string>): Promise<boolean> {
    if (sourceBlobs.has(blob)) return true;
    if ((await this.d.notes.read(target))?.kind !== 'invalid') return false;
    const text = await this.d.notes.readRaw(target);
    const parts = text === undefined ? [] : await partBlobs(this.d.git, text);
    return parts.length > 0 && parts.every((p) => sourceBlobs.has(p));
  }

  /** The note of one rewritten commit, to be written or removed by the caller (undefined: nothing to do). */
  private async planOne(
    g: Group,
    known: ReadonlyMap<string, string[]> | undefined,
    diffs: CommitDiffs,
    batch: RewriteBatch | undefined,
  ): Promise<Plan | undefined> {
    const { notes, log, counters } = this.d;
    if (!isObjectId(g.target)) return undefined;
    const parents = (await parentsOf(this.d.git, [g.target], known)).get(g.target);
    if (parents === undefined) return undefined; // the new commit is gone (a later rewrite, gc)
    if (parents.length > 1) return undefined; // a recreated merge: no note of ours describes it

    // the commits it came from in the order they were committed: those with a usable note claim
    // lines, the others (a person's commit squashed in) are later versions of those lines
    const sources: { sha: string | undefined; note: AgentNoteV1 | undefined }[] = [];
    const sourceBlobs = new Set<string>();
    for (const s of await byCommitTime(this.d.git, g.sources, batch?.times)) {
      const blob = await notes.noteBlob(s);
      const d = blob ? await notes.read(s) : undefined;
      if (blob && d?.kind === 'valid') {
        sources.push({ sha: s, note: d.note });
        sourceBlobs.add(blob);
      } else sources.push({ sha: s, note: undefined });
    }
    const targetBlob = await notes.noteBlob(g.target);
    if (sourceBlobs.size === 0) return undefined;
    const own = targetBlob && !sourceBlobs.has(targetBlob) ? await notes.read(g.target) : undefined;
    // recorded while the rebase stopped (edit), or by the recorder for a cherry-pick: its ranges are
    // the new commit's own (an identity mapping)
    if (own?.kind === 'valid') sources.push({ sha: undefined, note: own.note });

    const diff1 = batch?.own.get(g.target) ?? (await diffs.commitHunks(g.target));
    const claimed = new Set<string>();
    for (const s of sources) for (const f of s.note?.files ?? []) if (f.ai_ranges && f.ai_ranges.length > 0) claimed.add(f.path);
    const paths = [...diff1.keys()].filter((p) => claimed.has(p));
    const fromSource: Map<string, DiffHunk[] | undefined>[] = [];
    for (const s of sources) fromSource.push(s.sha ? await this.sourceHunks(s.sha, g.target, paths, diffs, batch) : identity(paths));

    const files: RewrittenFile[] = [...diff1.values()].map((f) => ({
      path: f.path,
      diff1: f.submodule ? undefined : f.hunks,
      fromSource: fromSource.map((m) => (f.submodule ? undefined : m.get(f.path))),
    }));
    const input: RewriteSource[] = sources.map((s) => ({ note: s.note }));
    const note = rewriteNote({ sources: input, files, clock: this.d.clock });
    if (!note) {
      // no AI line survived: a copied (or concatenated, invalid) note would claim what is not there
      if (targetBlob && (await this.isCopyOf(g.target, targetBlob, sourceBlobs))) {
        log.info(`rewritten commit ${g.target.slice(0, 8)}: no AI line of ${g.sources.length} source commit(s) left, copied note removed`);
        return { result: { target: g.target, outcome: { kind: 'removed' } }, remove: true };
      }
      return undefined;
    }
    const fitted = fitNoteForWrite(note);
    if (!fitted.fits) {
      counters.inc('recorder.notesTooLarge');
      return { result: { target: g.target, outcome: { kind: 'skipped', reason: 'note over the size cap' } } };
    }
    const a = fitted.note.attribution;
    log.info(
      `note of rebased commit ${g.target.slice(0, 8)} computed for its own diff from ${g.sources.length} commit(s): ${a.ai_ratio}% (${a.method})`,
    );
    return {
      result: {
        target: g.target,
        outcome: {
          kind: 'written',
          noteBytes: Buffer.byteLength(encodeNote(fitted.note), 'utf8'),
          aiRatio: a.ai_ratio,
          method: a.method,
          redactions: 0,
        },
      },
      note: fitted.note,
    };
  }

  /**
   * Per path: git's hunks of the source commit's version → the new commit's version; [] when both
   * are the same blob; undefined when the source has no such file (or a binary or submodule).
   */
  private async sourceHunks(
    source: string,
    target: string,
    paths: readonly string[],
    diffs: CommitDiffs,
    batch: RewriteBatch | undefined,
  ): Promise<Map<string, DiffHunk[] | undefined>> {
    const out = new Map<string, DiffHunk[] | undefined>();
    if (!isObjectId(source) || paths.length === 0) return out;
    // from the batch: the blobs at both sides, diffed blob to blob (queued for the whole batch)
    const rest: string[] = [];
    const own = batch?.own.get(target);
    for (const p of paths) {
      const a = batch?.blobs.get(key(source, p));
      const b = batch?.blobs.get(key(target, p));
      const f = own?.get(p);
      if (a === undefined || b === undefined || !f || f.binary || f.submodule) rest.push(p);
      else if (a === null || b === null) out.set(p, undefined);
      else out.set(p, a === b ? [] : await diffs.blobDiff(a, b));
    }
    for (let i = 0; i < rest.length; i += pathsPerDiff) {
      const chunk = rest.slice(i, i + pathsPerDiff);
      const text = await this.d.git.runBuffer(
        ['diff-tree', '--patch', '-r', '--no-renames', ...pinnedDiffArgs, source, target, '--', ...chunk],
        { env: { GIT_LITERAL_PATHSPECS: '1' } },
      );
      const seen = new Set<string>();
      for (const f of parseFileDiffs(text.toString('utf8'))) {
        seen.add(f.path);
        out.set(f.path, f.status === 'added' || f.binary || f.submodule ? undefined : f.hunks);
      }
      // not in the diff: the same blob on both sides (every path is in the new commit's own diff, so
      // a path neither side has cannot occur, and one deleted by the new commit adds no line)
      for (const p of chunk) if (!seen.has(p)) out.set(p, []);
    }
    return out;
  }
}

function identity(paths: readonly string[]): Map<string, DiffHunk[] | undefined> {
  return new Map(paths.map((p) => [p, []]));
}

async function readCapped(file: string): Promise<{ text: string; cut: boolean }> {
  const buf = await readFile(file).catch(() => Buffer.alloc(0));
  if (buf.length <= maxQueueBytes) return { text: buf.toString('utf8'), cut: false };
  const text = buf.subarray(0, maxQueueBytes).toString('utf8');
  return { text: text.slice(0, text.lastIndexOf('\n') + 1), cut: true };
}
