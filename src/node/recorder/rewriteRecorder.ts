import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { isObjectId } from '../../core/git/objectId';
import { encodeNote } from '../../core/notes/noteCodec';
import { fitNoteForWrite } from '../../core/notes/noteSize';
import type { AgentNoteV1 } from '../../core/notes/noteTypes';
import { parseRewriteQueue, rewriteQueueName } from '../../core/notes/rewriteQueue';
import {
  cherryPickedFrom,
  concatenatedParts,
  parseReflog,
  reflogRewrites,
  type RewriteCandidate,
  squashedFrom,
} from '../../core/notes/rewriteEvidence';
import { rewriteNote, type RewrittenFile, type RewriteSource } from '../../core/notes/rewriteNote';
import { parseFileDiffs, type DiffHunk } from '../../core/attribution/diffHunks';
import type { Clock, Counters, Logger } from '../../core/ports';
import { CommitDiffs } from '../attribution/commitDiffs';
import { type GitRunner, pinnedDiffArgs } from '../git/gitRunner';
import type { NoteStore } from '../notes/noteStore';
import type { RecordOutcome } from './recordOutcome';
import { errorText } from './recorderUtil';

/** A queue file larger than this is read only up to it (the rest is counted as skipped). */
const maxQueueBytes = 4 * 1024 * 1024;
/** Paths per `diff-tree` call (keeps the command line short on every platform). */
const pathsPerDiff = 200;
const takenSuffix = '.taking';
/** HEAD reflog entries read per look (a rebase of that many commits is caught whole). */
const reflogWindow = 400;
/** At most this many commits of a reset are taken as the sources of the commit after it. */
const maxResetSources = 50;

/** One new commit and the commits it was made from (oldest first). */
interface Group {
  kind: string;
  target: string;
  sources: string[];
}

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
  private lastLook: string | undefined;
  private idents: { listing: ReadonlyMap<string, string>; map: Map<string, string> } | undefined;

  constructor(private readonly d: RewriteRecorderDeps) {}

  /** True when there is a hook queue to process (one `stat`). */
  async pending(): Promise<boolean> {
    if (await exists(this.queueFile)) return true;
    return (await this.takenFiles()).length > 0;
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
        let complete = true;
        for (const g of parsed.groups) {
          if (g.kind === 'amend') continue; // the CommitRecorder recomputes an amend from the journal
          try {
            const r = await this.rewriteOne(g);
            this.seen.add(g.target);
            if (r) {
              results.push(r);
              onResult?.(r);
            }
          } catch (e) {
            complete = false;
            this.d.counters.inc('rewrite.failures');
            this.d.log.warn(`note of rebased commit ${g.target.slice(0, 8)} not recomputed: ${errorText(e)}`);
          }
        }
        if (complete) await unlink(file).catch(() => undefined);
      }
      // without our hook (the default): what the reflog, the messages and git's note copies say
      for (const g of await this.fromReflog()) {
        try {
          const r = await this.rewriteOne(g);
          this.seen.add(g.target);
          if (r) {
            results.push(r);
            onResult?.(r);
          }
        } catch (e) {
          this.d.counters.inc('rewrite.failures');
          this.d.log.warn(`note of rewritten commit ${g.target.slice(0, 8)} not recomputed: ${errorText(e)}`);
        }
      }
    } catch (e) {
      this.d.counters.inc('rewrite.failures');
      this.d.log.warn(`rewrite queue not processed: ${errorText(e)}`);
    }
    return results;
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

  /**
   * Groups found without our hook, from the HEAD reflog's newest entries: a rebase's commits whose
   * note is git's copy of other commits' notes (the same blob, or several concatenated), commits
   * `cherry-pick -x` or `merge --squash` named in their message, and a commit right after a reset
   * (the commits the reset left). Each commit once per run; a commit whose note is its own (recorded,
   * or recomputed already) has nothing to do.
   */
  private async fromReflog(): Promise<Group[]> {
    const { git, notes } = this.d;
    const text = await git.tryRun(['log', '-g', '-n', String(reflogWindow), '--format=%H%x09%gs', 'HEAD'], { okExitCodes: [] });
    if (text === undefined) return [];
    const look = `${text.slice(0, text.indexOf('\n') + 1)}${(await notes.refValue()) ?? ''}`;
    if (look === this.lastLook) return [];
    this.lastLook = look;
    const entries = parseReflog(text);
    const { candidates, rebaseProducts } = reflogRewrites(entries);
    const todo = candidates.filter((c) => !this.seen.has(c.sha));
    if (todo.length === 0) return [];
    const listing = await notes.listNotedCommits();
    const byBlob = new Map<string, string[]>();
    for (const [commit, blob] of listing) {
      const list = byBlob.get(blob);
      if (list) list.push(commit);
      else byBlob.set(blob, [commit]);
    }
    const groups: Group[] = [];
    for (const c of todo) {
      // a rebase's commit gets git's copy only when the rebase finishes: looked at again until then
      if (c.kind === 'rebase' && !listing.has(c.sha)) continue;
      const sources = await this.sourcesOf(c, listing, byBlob, rebaseProducts);
      if (sources === undefined || sources.length === 0) {
        this.seen.add(c.sha);
        continue;
      }
      groups.push({ kind: c.kind, target: c.sha, sources });
    }
    return groups;
  }

  /** The commits `c` was made from that have a note, oldest first; undefined: nothing to do. */
  private async sourcesOf(
    c: RewriteCandidate,
    listing: ReadonlyMap<string, string>,
    byBlob: ReadonlyMap<string, string[]>,
    rebaseProducts: ReadonlySet<string>,
  ): Promise<string[] | undefined> {
    const { git, notes } = this.d;
    if (c.kind === 'rebase') {
      const blob = listing.get(c.sha);
      if (!blob) return undefined; // no copy: nothing claims anything on it
      const text = await notes.readRaw(c.sha);
      if (text === undefined) return undefined;
      const blobs = (await notes.read(c.sha))?.kind === 'valid' ? [blob] : await this.partBlobs(text);
      const out: string[] = [];
      for (const b of blobs) {
        // the commit the note was written for: not one this or an earlier rebase made, the oldest
        const others = (byBlob.get(b) ?? []).filter((o) => o !== c.sha && !rebaseProducts.has(o));
        const original = await this.oldest(others);
        if (original && !out.includes(original)) out.push(original);
      }
      return out.length > 1 ? this.withCommitsBetween(out) : out;
    }
    if (c.kind === 'cherry-pick' || c.kind === 'commit') {
      const message = (await git.tryRun(['show', '-s', '--format=%B', '--end-of-options', c.sha], { okExitCodes: [] })) ?? '';
      let named = c.kind === 'cherry-pick' ? cherryPickedFrom(message) : squashedFrom(message);
      if (named.length === 0 && c.reset) named = await this.resetSources(c.sha, c.reset);
      if (named.length === 0 && c.kind === 'cherry-pick') named = await this.pickedFrom(c.sha, listing, rebaseProducts);
      named = named.filter((s) => s !== c.sha);
      return named.some((s) => listing.has(s)) ? named : [];
    }
    return undefined;
  }

  /**
   * The noted commits of a squash plus the commits between the oldest and the newest of them (the
   * person's commits squashed in, which git's concatenated note does not name), when they are on
   * one line of history; else only the noted ones.
   */
  private async withCommitsBetween(noted: readonly string[]): Promise<string[]> {
    const sorted = await this.byCommitTime(noted);
    const out = await this.d.git.tryRun(
      [
        'rev-list',
        '--reverse',
        '--ancestry-path',
        '-n',
        String(maxResetSources + 1),
        '--end-of-options',
        `${sorted[sorted.length - 1]}`,
        `^${sorted[0]}`,
      ],
      { okExitCodes: [] },
    );
    const between = (out ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => isObjectId(l));
    if (between.length === 0 || between.length > maxResetSources) return [...noted];
    return [...new Set([sorted[0], ...between, ...noted])];
  }

  /**
   * A cherry-pick without `-x`: the noted commit with the same author, author date and subject
   * (git keeps all three), not one a rebase made, the oldest by committer time; [] when none.
   */
  private async pickedFrom(sha: string, listing: ReadonlyMap<string, string>, rebaseProducts: ReadonlySet<string>): Promise<string[]> {
    const format = '--format=%H%x00%an%x00%ae%x00%at%x00%s';
    const own = (await this.d.git.tryRun(['show', '-s', format, '--end-of-options', sha], { okExitCodes: [] }))?.trim();
    if (!own) return [];
    const key = own.slice(own.indexOf('\0'));
    const idents = await this.noteIdents(listing, format);
    const same = [...idents].filter(([c, k]) => k === key && c !== sha && !rebaseProducts.has(c)).map(([c]) => c);
    const original = await this.oldest(same);
    return original ? [original] : [];
  }

  /** Author, author date and subject of every noted commit (one `git log --stdin`), per notes listing. */
  private async noteIdents(listing: ReadonlyMap<string, string>, format: string): Promise<Map<string, string>> {
    if (this.idents?.listing === listing) return this.idents.map;
    const map = new Map<string, string>();
    if (listing.size > 0) {
      const out = await this.d.git.tryRun(['log', '--no-walk=unsorted', '--ignore-missing', format, '--stdin'], {
        input: [...listing.keys()].join('\n') + '\n',
        okExitCodes: [],
      });
      for (const line of (out ?? '').split('\n')) {
        const at = line.indexOf('\0');
        if (at > 0 && isObjectId(line.slice(0, at))) map.set(line.slice(0, at), line.slice(at));
      }
    }
    this.idents = { listing, map };
    return map;
  }

  /** The commits a `reset` left out of HEAD that the next commit re-commits (its parent is the reset base). */
  private async resetSources(sha: string, reset: { base: string; before: string }): Promise<string[]> {
    const { git } = this.d;
    const parents = (await git.tryRun(['rev-list', '--no-walk', '--parents', '--end-of-options', sha], { okExitCodes: [] }))
      ?.trim()
      .split(' ')
      .slice(1);
    if (!parents || parents.length !== 1 || parents[0] !== reset.base) return [];
    const out = await git.tryRun(
      ['rev-list', '--reverse', '--no-merges', '-n', String(maxResetSources + 1), '--end-of-options', reset.before, `^${reset.base}`],
      { okExitCodes: [] },
    );
    const list = (out ?? '')
      .split('\n')
      .filter((l) => isObjectId(l.trim()))
      .map((l) => l.trim());
    // more than the cap: not a recommit of a few commits (a gap rather than a guess)
    return list.length > maxResetSources ? [] : list;
  }

  /** True when the target's note is git's copy of source notes (the same blob, or only they concatenated). */
  private async isCopyOf(target: string, blob: string, sourceBlobs: ReadonlySet<string>): Promise<boolean> {
    if (sourceBlobs.has(blob)) return true;
    if ((await this.d.notes.read(target))?.kind !== 'invalid') return false;
    const text = await this.d.notes.readRaw(target);
    const parts = text === undefined ? [] : await this.partBlobs(text);
    return parts.length > 0 && parts.every((p) => sourceBlobs.has(p));
  }

  /** Blob ids of the notes a concatenated note was made of (each part a valid note), in order. */
  private async partBlobs(text: string): Promise<string[]> {
    const out: string[] = [];
    for (const part of concatenatedParts(text)) {
      const id = (await this.d.git.tryRun(['hash-object', '--stdin'], { input: part, okExitCodes: [] }))?.trim();
      if (id && isObjectId(id)) out.push(id);
    }
    return out;
  }

  /** `commits` sorted by committer time, oldest first (stable: ties keep their order). */
  private async byCommitTime(commits: readonly string[]): Promise<string[]> {
    if (commits.length <= 1) return [...commits];
    const times = await this.commitTimes(commits);
    return commits
      .map((c, i) => ({ c, i, t: times.get(c) ?? Number.MAX_SAFE_INTEGER }))
      .sort((a, b) => a.t - b.t || a.i - b.i)
      .map((x) => x.c);
  }

  private async commitTimes(commits: readonly string[]): Promise<Map<string, number>> {
    const out = await this.d.git.tryRun(['log', '--no-walk=unsorted', '--format=%H %ct', '--end-of-options', ...commits], {
      okExitCodes: [],
    });
    const times = new Map<string, number>();
    for (const line of (out ?? '').split('\n')) {
      const [sha, t] = line.trim().split(' ');
      if (sha && isObjectId(sha) && Number.isFinite(Number(t))) times.set(sha, Number(t));
    }
    return times;
  }

  /** The commit with the oldest committer time (ties: the first listed); undefined for none. */
  private async oldest(commits: readonly string[]): Promise<string | undefined> {
    return (await this.byCommitTime(commits))[0];
  }

  /** The note of one rewritten commit (undefined: nothing to do). */
  private async rewriteOne(g: Group): Promise<RewriteResult | undefined> {
    const { git, notes, log, counters } = this.d;
    if (!isObjectId(g.target)) return undefined;
    const parents = (await git.tryRun(['rev-list', '--no-walk', '--parents', '--end-of-options', g.target], { okExitCodes: [] }))
      ?.trim()
      .split(' ')
      .slice(1);
    if (parents === undefined) return undefined; // the new commit is gone (a later rewrite, gc)
    if (parents.length > 1) return undefined; // a recreated merge: no note of ours describes it

    // the commits it came from in the order they were committed: those with a usable note claim
    // lines, the others (a person's commit squashed in) are later versions of those lines
    const sources: { sha: string | undefined; note: AgentNoteV1 | undefined }[] = [];
    const sourceBlobs = new Set<string>();
    for (const s of await this.byCommitTime(g.sources)) {
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

    const diffs = new CommitDiffs(git, { log, worktreeRoot: this.d.root });
    const diff1 = await diffs.commitHunks(g.target);
    const claimed = new Set<string>();
    for (const s of sources) for (const f of s.note?.files ?? []) if (f.ai_ranges && f.ai_ranges.length > 0) claimed.add(f.path);
    const paths = [...diff1.keys()].filter((p) => claimed.has(p));
    const fromSource: Map<string, DiffHunk[] | undefined>[] = [];
    for (const s of sources) fromSource.push(s.sha ? await this.sourceHunks(s.sha, g.target, paths) : identity(paths));

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
        await notes.remove(g.target);
        counters.inc('rewrite.notesRemoved');
        log.info(`rebased commit ${g.target.slice(0, 8)}: no AI line of ${g.sources.length} source commit(s) left, copied note removed`);
        return { target: g.target, outcome: { kind: 'removed' } };
      }
      return undefined;
    }
    const fitted = fitNoteForWrite(note);
    if (!fitted.fits) {
      counters.inc('recorder.notesTooLarge');
      return { target: g.target, outcome: { kind: 'skipped', reason: 'note over the size cap' } };
    }
    await notes.write(g.target, fitted.note, { overwrite: true });
    counters.inc('rewrite.notesWritten');
    const a = fitted.note.attribution;
    log.info(
      `note of rebased commit ${g.target.slice(0, 8)} computed for its own diff from ${g.sources.length} commit(s): ${a.ai_ratio}% (${a.method})`,
    );
    return {
      target: g.target,
      outcome: {
        kind: 'written',
        noteBytes: Buffer.byteLength(encodeNote(fitted.note), 'utf8'),
        aiRatio: a.ai_ratio,
        method: a.method,
        redactions: 0,
      },
    };
  }

  /**
   * Per path: git's hunks of the source commit's version → the new commit's version; [] when both
   * are the same blob; undefined when the source has no such file (or a binary or submodule).
   */
  private async sourceHunks(source: string, target: string, paths: readonly string[]): Promise<Map<string, DiffHunk[] | undefined>> {
    const out = new Map<string, DiffHunk[] | undefined>();
    if (!isObjectId(source) || paths.length === 0) return out;
    const exists = await this.pathsIn(source, paths);
    for (let i = 0; i < paths.length; i += pathsPerDiff) {
      const chunk = paths.slice(i, i + pathsPerDiff);
      const text = await this.d.git.runBuffer(
        ['diff-tree', '--patch', '-r', '--no-renames', ...pinnedDiffArgs, source, target, '--', ...chunk],
        { env: { GIT_LITERAL_PATHSPECS: '1' } },
      );
      const seen = new Set<string>();
      for (const f of parseFileDiffs(text.toString('utf8'))) {
        seen.add(f.path);
        out.set(f.path, f.status === 'added' || f.binary || f.submodule ? undefined : f.hunks);
      }
      for (const p of chunk) if (!seen.has(p)) out.set(p, exists.has(p) ? [] : undefined);
    }
    return out;
  }

  /** Which of `paths` exist in `commit`'s tree. */
  private async pathsIn(commit: string, paths: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < paths.length; i += pathsPerDiff) {
      const chunk = paths.slice(i, i + pathsPerDiff);
      const out = await this.d.git.runBuffer(['ls-tree', '-z', '--name-only', '-r', commit, '--', ...chunk], {
        env: { GIT_LITERAL_PATHSPECS: '1' },
      });
      for (const p of out.toString('utf8').split('\0')) if (p) found.add(p);
    }
    return found;
  }
}

function identity(paths: readonly string[]): Map<string, DiffHunk[] | undefined> {
  return new Map(paths.map((p) => [p, []]));
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

async function readCapped(file: string): Promise<{ text: string; cut: boolean }> {
  const buf = await readFile(file).catch(() => Buffer.alloc(0));
  if (buf.length <= maxQueueBytes) return { text: buf.toString('utf8'), cut: false };
  const text = buf.subarray(0, maxQueueBytes).toString('utf8');
  return { text: text.slice(0, text.lastIndexOf('\n') + 1), cut: true };
}
