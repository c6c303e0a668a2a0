import type { CommittedPairLine } from '../../core/model/journal';
import type { RedactFn } from '../../core/notes/noteBuilder';
import { encodeNote } from '../../core/notes/noteCodec';
import { composeNote, consumptionLines, editPairInputs, selectCommitPairs } from '../../core/notes/noteComposer';
import { noteWriteLimits } from '../../core/notes/noteLimits';
import { fitNoteForWrite } from '../../core/notes/noteSize';
import type { Clock, Counters, Logger } from '../../core/ports';
import { analyzeCommit, CommitDiffs } from '../attribution/commitDiffs';
import type { GitRunner } from '../git/gitRunner';
import type { SessionJournal } from '../journal/sessionJournal';
import type { NoteStore } from '../notes/noteStore';
import { yieldToEventLoop } from '../util/timeSlice';
import type { CaptureStore } from './captureStore';
import { CommitWatcher } from './commitWatcher';
import type { EditTimeline } from './editTimeline';
import type { RecordOutcome } from './recordOutcome';
import { errorText, type JournalGeneration } from './recorderUtil';
import { RewriteHandler, type AmendedCommit } from './rewriteHandler';
import { readSessionSnapshot, type SessionSnapshot } from './sessionSnapshot';
import { isObjectId } from '../../core/git/objectId';
import { parseFileDiffs } from '../../core/attribution/diffHunks';
import { withLineHashes } from '../../core/notes/lineHashes';
import { pinnedDiffArgs } from '../git/gitRunner';

const patchProbeBytes = 1024 * 1024;

export interface CommitRecorderDeps {
  /** Work tree root. */
  root: string;
  git: GitRunner;
  log: Logger;
  clock: Clock;
  counters: Counters;
  redact?: RedactFn;
  /** A pair captured more than this (ms) after a commit's committer time cannot be in it. */
  commitTimeSkewMs: number;
  journal: SessionJournal;
  notes: NoteStore;
  store: CaptureStore;
  timeline: EditTimeline;
  generation: JournalGeneration;
  /** Writes every pending capture output to the journal (called first). */
  settle: () => Promise<void>;
}

/**
 * The note of one commit: settle the capture, ask the CommitWatcher whether this HEAD move needs a
 * note, read every journal session (minus what replaced commits consumed, RewriteHandler), select
 * the commit's pairs, run the 3-diff attribution (analyzeCommit), compose the note (pure,
 * src/core/notes/noteComposer.ts), fit it under the write cap, write it with NoteStore (never
 * overwriting, except an amend), then append the consumption lines and prompt-window markers to
 * each session's `committed_pairs.jsonl` and the commit to `capture/commits.jsonl`.
 */
export class CommitRecorder {
  private readonly watcher: CommitWatcher;
  private readonly rewrites: RewriteHandler;

  constructor(private readonly d: CommitRecorderDeps) {
    this.watcher = new CommitWatcher(d.git, d.notes, d.store);
    this.rewrites = new RewriteHandler({ git: d.git, log: d.log, clock: d.clock, notes: d.notes, store: d.store });
  }

  /** Records the note of `sha`; failures are an outcome (counted and logged), never thrown. */
  async record(sha: string, opts: { amendedFrom?: string }): Promise<RecordOutcome> {
    const { git, log, counters, notes, store } = this.d;
    const short = sha.slice(0, 8);
    try {
      await this.d.settle();
      const diffs = new CommitDiffs(git, { log, worktreeRoot: this.d.root });
      const full = isObjectId(sha) ? sha : await diffs.resolveCommit(sha);
      // the first reads run side by side (each is one short git process); their results are used in order
      const infoRead = this.watcher.commitInfo(full);
      const entriesRead = diffs.commitBlobs(full);
      for (const p of [infoRead, entriesRead]) p.catch(() => undefined); // not awaited when the note exists
      const verdict = await this.watcher.classify(full, opts, infoRead);
      if (verdict.kind === 'done') return verdict.outcome;
      const { info, amendedFrom } = verdict;
      const amend = amendedFrom !== undefined;

      let old: AmendedCommit | undefined;
      if (amendedFrom !== undefined) {
        old = await this.rewrites.amended(amendedFrom, (rev) => diffs.resolveCommit(rev));
        if (await this.rewrites.unchangedAmend(old, info.tree)) return await this.rewrites.copyNote(old.sha, full, old.log);
      }

      diffs.markCommit(full); // commitInfo read it as a commit (`^{commit}`)
      const commitEntries = await entriesRead;
      const fileSet = new Set(commitEntries.map((e) => e.path));
      const exclude = await this.rewrites.excludedLines(full, info.parents, fileSet, old?.log);
      const snapshots: SessionSnapshot[] = [];
      for (const id of await this.d.journal.listSessionIds()) {
        const js = this.d.journal.session(id);
        if (!js) continue;
        snapshots.push(await readSessionSnapshot(js, { exclude: exclude.get(id) ?? [] }));
      }
      // the phases below are synchronous stretches of a few ms each for a large commit: the
      // extension host's thread gets a turn in between (yieldToEventLoop)
      await yieldToEventLoop();
      const latest = info.time + this.d.commitTimeSkewMs;
      const { inCommit, reverted } = selectCommitPairs(snapshots, commitEntries, latest, this.d.timeline.all());
      if (reverted.size > 0) {
        counters.inc('recorder.revertedEdits', reverted.size);
        log.debug(`${reverted.size} reverted agent edit(s) left out of the commit`);
      }
      if (inCommit.size === 0) return old?.hasNote ? await this.rewrites.copyNote(old.sha, full, old.log) : await this.humanOnly(full);

      const { inputs, aiFiles } = editPairInputs(inCommit);
      // the patch scanned for identifiers is read while the attribution runs
      const patchRead = this.commitPatch(full);
      const result = await analyzeCommit(git, full, inputs, { log, worktreeRoot: this.d.root, aiFiles, diffs });
      if (result.degraded.length > 0) {
        counters.inc('recorder.degradedCommits');
        log.info(`commit ${short}: attribution degraded (${[...new Set(result.degraded.map((d) => d.reason))].join(', ')})`);
      }
      if (!result.files.some((f) => f.byAi)) return await this.humanOnly(full);

      const patch = await patchRead;
      await yieldToEventLoop();
      const built = composeNote({
        commit: { subject: info.subject, patch },
        inCommit,
        attribution: result,
        clock: this.d.clock,
        ...(this.d.redact ? { redact: this.d.redact } : {}),
        log,
      });
      if (!built) return await this.humanOnly(full);
      await yieldToEventLoop();
      // the AI lines' hashes (additive), from the patch already read, so that a squash or rebase
      // merge on the server can be matched later; counted in the note's size below
      built.note = withLineHashes(built.note, addedTexts(patch));
      // our notes stay small on purpose: long responses cut with a marker, the note under the write cap
      const fitted = fitNoteForWrite(built.note);
      if (fitted.steps.length > 0)
        log.info(`note for ${short} kept under ${noteWriteLimits.maxBytes.toLocaleString('en-US')} bytes: ${fitted.steps.join('; ')}`);
      if (!fitted.fits) {
        counters.inc('recorder.notesTooLarge');
        log.warn(
          `note for ${short} not written: ${fitted.bytes.toLocaleString('en-US')} bytes (${built.note.files.length} files) is over the cap of ${noteWriteLimits.maxBytes.toLocaleString('en-US')} bytes even after cutting its text`,
        );
        return { kind: 'skipped', reason: 'note over the size cap' };
      }
      built.note = fitted.note;
      const written = await notes.write(full, built.note, { overwrite: amend });
      if (written === 'exists') return { kind: 'exists' };

      // consumption: every pair used by this commit, then the prompt-window markers
      const appended: Record<string, CommittedPairLine[]> = {};
      for (const [s, lines] of consumptionLines(inCommit, built.markers)) {
        for (const l of lines) await s.session.appendCommittedPair(l);
        appended[s.id] = lines;
      }
      await store.appendCommit({ sha: full, time: this.d.clock.now(), sessions: appended });
      this.d.generation.bump();
      const a = built.note.attribution;
      log.info(
        `note written for ${short}: ${a.ai_ratio}% (${a.method}), ${built.note.interactions.length} interaction(s), ${inputs.length} edit(s), ${built.redactions} redaction(s)`,
      );
      return {
        kind: 'written',
        noteBytes: Buffer.byteLength(encodeNote(built.note), 'utf8'),
        aiRatio: a.ai_ratio,
        method: a.method,
        redactions: built.redactions,
      };
    } catch (e) {
      counters.inc('recorder.recordFailures');
      const reason = errorText(e);
      log.warn(`recording the note of ${short} failed: ${reason}`);
      return { kind: 'failed', reason };
    }
  }

  /**
   * No AI line found for `full`. Another window (or a second recording here) may have written its
   * note and consumed the edits after this one looked for a note: then the outcome is "exists",
   * never a human-only claim about a commit that has a note.
   */
  private async humanOnly(full: string): Promise<RecordOutcome> {
    return (await this.d.notes.hasNow(full)) ? { kind: 'exists' } : { kind: 'human-only' };
  }

  /**
   * `git show --patch --unified=0` of the commit (pinned options), capped: scanned for identifiers,
   * and the text of its added lines gives the AI lines' hashes.
   */
  private async commitPatch(sha: string): Promise<string> {
    try {
      const out = await this.d.git.runBuffer(['show', '--format=', '--patch', ...pinnedDiffArgs, sha], {
        maxOutputBytes: patchProbeBytes,
      });
      // cut at the cap: the last line may be a part of one
      const text = out.toString('utf8');
      return out.length >= patchProbeBytes ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
    } catch {
      return '';
    }
  }
}

/** path → line → text of the lines a patch adds. */
export function addedTexts(patch: string): Map<string, Map<number, string>> {
  const map = new Map<string, Map<number, string>>();
  for (const f of parseFileDiffs(patch, { addedText: true })) if (f.addedText) map.set(f.path, f.addedText);
  return map;
}
