import type { JournalPair } from '../../core/model/journalPairs';
import type { Counters, Logger } from '../../core/ports';
import { systemClock } from '../../core/ports';
import { CommitDiffs } from '../attribution/commitDiffs';
import type { BlobStore } from '../git/blobStore';
import type { GitRunner } from '../git/gitRunner';
import type { SessionJournal } from '../journal/sessionJournal';
import { errorText, sha1, type JournalGeneration } from './recorderUtil';
import { readSessionSnapshot } from './sessionSnapshot';
import { workingFileAttribution } from './workingFileAttribution';
import { isObjectId } from '../../core/git/objectId';
import { toPosixPath } from '../../core/git/repoPath';

/** One AI-written range of an uncommitted file (1-based, inclusive, lines of the given text). */
export interface UncommittedAiRange {
  start: number;
  end: number;
  interactionKey: string;
  agent: string;
  /** The prompt of that interaction (private: never log it). '' when the journal has no prompt for the turn. */
  prompt: string;
}

interface PairIndex {
  at: number;
  generation: number;
  pairs: JournalPair[];
  prompts: Map<string, string>;
}

const maxUncommittedBytes = 2 * 1024 * 1024;

export interface UncommittedAttributionDeps {
  git: GitRunner;
  log: Logger;
  counters: Counters;
  blobs: BlobStore;
  journal: SessionJournal;
  generation: JournalGeneration;
}

/**
 * Which lines of the current (possibly unsaved) text of a file an agent wrote since HEAD: the
 * unconsumed pairs of every session over the file's HEAD blob (workingFileAttribution). The pair
 * index is re-read when the recorder wrote to the journal and every 5 s for other writers (the
 * CLI's hooks); answers are cached per file, text, HEAD blob and journal state.
 */
export class UncommittedAttribution {
  private pairIndexCache: PairIndex | undefined;
  private readonly cache = new Map<string, UncommittedAiRange[]>();

  constructor(private readonly d: UncommittedAttributionDeps) {}

  /**
   * The AI ranges of `currentText` of `rel`, with the interaction that wrote them (a range only
   * known to be AI — an edit without pre-blob — is given to the file's latest edit). [] on any failure.
   */
  async ranges(rel: string, currentText: string): Promise<UncommittedAiRange[]> {
    if (currentText.length > maxUncommittedBytes) return [];
    const { git, log, blobs } = this.d;
    try {
      const file = toPosixPath(rel);
      const headBlob = (await git.tryRun(['rev-parse', '--verify', '-q', `HEAD:${file}`], { okExitCodes: [] }))?.trim();
      const diffs = new CommitDiffs(git, { log });
      const parentBlob = headBlob && isObjectId(headBlob) ? headBlob : await blobs.ensureEmptyBlob();
      // the pair index is re-read when we wrote to the journal, and every 5 s for other writers (the CLI's hooks)
      const index = await this.pairIndex();
      const cacheKey = [file, sha1(currentText), parentBlob, index.generation, index.at].join('\0');
      const hit = this.cache.get(cacheKey);
      if (hit) return hit.map((r) => ({ ...r }));
      const pairs = index.pairs.filter((p) => p.file === file && p.postBlob !== undefined);
      let ranges: UncommittedAiRange[] = [];
      if (pairs.length > 0 && !(await blobs.refusals([{ path: file, bytes: Buffer.byteLength(currentText) }]))[0]) {
        const [currentBlob] = await blobs.hashContents([{ path: file, content: currentText }]);
        const attributed = await workingFileAttribution(diffs, { path: file, parentBlob, currentBlob, pairs });
        const latest = [...pairs].sort((a, b) => a.time - b.time)[pairs.length - 1];
        const agentOf = new Map(pairs.map((p) => [p.interactionKey, p.agent] as const));
        ranges = attributed.ranges.map((r) => {
          const key = r.interactionKey ?? latest.interactionKey;
          return {
            start: r.start,
            end: r.end,
            interactionKey: key,
            agent: agentOf.get(key) ?? latest.agent,
            prompt: index.prompts.get(key) ?? '',
          };
        });
      }
      if (this.cache.size >= 200) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(cacheKey, ranges);
      return ranges.map((r) => ({ ...r }));
    } catch (e) {
      this.d.counters.inc('recorder.uncommittedFailures');
      log.debug(`uncommitted attribution failed: ${errorText(e)}`);
      return [];
    }
  }

  /** Unconsumed pairs and prompt texts of every session, re-read when the journal changed (or after 5 s). */
  private async pairIndex(): Promise<PairIndex> {
    const now = systemClock.now();
    const c = this.pairIndexCache;
    if (c && c.generation === this.d.generation.value && now - c.at < 5_000) return c;
    const pairs: JournalPair[] = [];
    const prompts = new Map<string, string>();
    for (const id of await this.d.journal.listSessionIds()) {
      const js = this.d.journal.session(id);
      if (!js) continue;
      const s = await readSessionSnapshot(js);
      pairs.push(...s.pairs.filter((p) => p.postBlob !== undefined));
      for (const p of s.prompts) prompts.set(`${s.agent}:${s.id}:${p.turn}`, p.prompt);
    }
    this.pairIndexCache = { at: now, generation: this.d.generation.value, pairs, prompts };
    return this.pairIndexCache;
  }
}
