import {
  EditCapture,
  recordContent,
  type AgentClaim,
  type CaptureOutput,
  type ContentTransition,
  type EditCaptureOptions,
} from '../../core/capture/editCapture';
import { replacementStats } from '../../core/agents/editStats';
import { agentDefinition } from '../../core/agents/registry/registry';
import type { Counters, Logger } from '../../core/ports';
import { CommitDiffs } from '../attribution/commitDiffs';
import type { BlobItem, BlobStore } from '../git/blobStore';
import type { GitRunner } from '../git/gitRunner';
import type { CaptureStore, UnclaimedEditRecord } from './captureStore';
import { aiTimelineRecord, unclaimedTimelineRecord, type EditTimeline } from './editTimeline';
import { freshExtIndex, type LiveSession, type LiveSessions } from './liveSession';
import { errorText, sha1, type JournalGeneration } from './recorderUtil';
import { extFiles, readPairExt, type PairExtRecord } from './sessionSnapshot';

const maxRememberedClaims = 20_000;

export interface CaptureSinkDeps {
  git: GitRunner;
  log: Logger;
  counters: Counters;
  blobs: BlobStore;
  store: CaptureStore;
  timeline: EditTimeline;
  live: LiveSessions;
  generation: JournalGeneration;
  capture?: EditCaptureOptions;
}

/**
 * Edit capture of one repository: agent claims (from transcript edit records) and the host's
 * content transitions go into EditCapture; its outputs are hashed into the object store in one
 * BlobStore batch per tick and become
 * - for an AI output: a CLI-shaped pre_blob + file_change pair (same `tool_use_id`) in the claim's
 *   session journal plus our `ext/pairs.jsonl` record — one pair per claim, decided under the
 *   session lock when a second window sees the same change;
 * - for a human/other output: a line of `capture/edits.jsonl`;
 * and every one an entry of the edit timeline. Gitignored, symlinked and huge files are refused by
 * the blob store (their edits are not captured).
 */
export class CaptureSink {
  private readonly capture: EditCapture;
  private pending: CaptureOutput[] = [];
  /** Blob of the file at HEAD/index when a claim without record `before` was read. */
  private readonly claimBase = new Map<string, string>();
  /** Claims that produced a journal pair (one pair per claim). */
  private readonly claimsWithPair = new Set<string>();

  constructor(private readonly d: CaptureSinkDeps) {
    // an agent that edits through the editor only makes AI lines where a captured change shows its edit
    this.capture = new EditCapture({ recordFallback: (agent) => agentDefinition(agent).editsArrive === 'disk', ...d.capture });
  }

  /** A content change the host observed (buffer or disk); classified at the next tick. */
  addTransition(t: ContentTransition): void {
    this.pending.push(...this.capture.addTransition(t));
  }

  /** Remembers the HEAD/index blob of claims without record `before` (their fallback pre-blob), then adds them. */
  async addClaims(claims: readonly AgentClaim[]): Promise<void> {
    if (claims.length === 0) return;
    const needBase = claims.filter((c) => recordContent(c.edit).before === undefined);
    if (needBase.length > 0) {
      try {
        const diffs = new CommitDiffs(this.d.git, { log: this.d.log });
        const info = await diffs.objectInfo(needBase.flatMap((c) => [`:${c.file}`, `HEAD:${c.file}`]));
        const empty = await this.d.blobs.ensureEmptyBlob();
        for (const c of needBase) {
          const o = [info.get(`:${c.file}`), info.get(`HEAD:${c.file}`)].find((x) => x?.type === 'blob');
          this.claimBase.set(c.key, o?.id ?? empty);
        }
      } catch (e) {
        this.d.log.debug(`base blobs of agent edits unavailable: ${errorText(e)}`);
      }
    }
    for (const c of claims) this.pending.push(...this.capture.addClaim(c));
    this.d.counters.inc('recorder.claims', claims.length);
  }

  /** Processes what EditCapture has ready at `now`; `settle` resolves pending claims now. */
  async flush(now: number, settle = false): Promise<void> {
    this.pending.push(...this.capture.tick(now, settle));
    await this.processOutputs();
  }

  /** One pair per claim (a late 'ai' match after a record fallback only updates the timeline). Bounded. */
  rememberPairedClaim(key: string): void {
    this.claimsWithPair.add(key);
    this.claimBase.delete(key);
    if (this.claimsWithPair.size > maxRememberedClaims) this.claimsWithPair.delete(this.claimsWithPair.values().next().value as string);
  }

  private async processOutputs(): Promise<void> {
    const { blobs, counters, log } = this.d;
    const outputs = this.pending.splice(0);
    if (outputs.length === 0) return;
    const contents: BlobItem[] = [];
    const contentIndex = new Map<string, number>();
    const content = (file: string, text: string): number => {
      const k = `${file}\0${sha1(text)}`;
      let i = contentIndex.get(k);
      if (i === undefined) {
        i = contents.length;
        contents.push({ path: file, content: text });
        contentIndex.set(k, i);
      }
      return i;
    };
    const currentFiles: string[] = [];
    type Ref = { content: number } | { file: number } | { blob: string } | undefined;
    const plans: { o: CaptureOutput; pre: Ref; post: Ref; timelineOnly: boolean }[] = [];
    for (const o of outputs) {
      if (o.kind === 'human' || o.kind === 'other') {
        plans.push({
          o,
          pre: { content: content(o.transition.file, o.transition.before) },
          post: { content: content(o.transition.file, o.transition.after) },
          timelineOnly: false,
        });
      } else if (o.kind === 'ai') {
        const timelineOnly = this.claimsWithPair.has(o.claim.key);
        plans.push({
          o,
          pre: { content: content(o.transition.file, o.transition.before) },
          post: { content: content(o.transition.file, o.transition.after) },
          timelineOnly,
        });
      } else {
        if (this.claimsWithPair.has(o.claim.key)) continue;
        let post: Ref;
        let pre: Ref;
        if (o.after === undefined) {
          // counts only: the file as it is now, no pre-blob (the evidence rule decides at commit time)
          currentFiles.push(o.claim.file);
          post = { file: currentFiles.length - 1 };
        } else {
          post = { content: content(o.claim.file, o.after) };
          if (o.before !== undefined) pre = { content: content(o.claim.file, o.before) };
          else {
            const base = this.claimBase.get(o.claim.key);
            pre = base ? { blob: base } : undefined;
          }
        }
        plans.push({ o, pre, post, timelineOnly: false });
      }
    }
    let ids: (string | undefined)[] = [];
    let fileIds: (string | undefined)[] = [];
    let empty: string;
    const refused = { content: new Set<number>(), file: new Set<number>() };
    try {
      // gitignored, symlinked and huge files never go into the object store (their edits are not captured)
      // one check (one git process) for both kinds
      const all = await blobs.refusals([
        ...contents.map((c) => ({ path: c.path, bytes: Buffer.byteLength(c.content) })),
        ...currentFiles.map((f) => ({ path: f })),
      ]);
      const contentRefusals = all.slice(0, contents.length);
      const fileRefusals = all.slice(contents.length);
      const reasons = new Map<string, number>();
      contentRefusals.forEach((r, i) => r && (refused.content.add(i), reasons.set(r, (reasons.get(r) ?? 0) + 1)));
      fileRefusals.forEach((r, i) => r && (refused.file.add(i), reasons.set(r, (reasons.get(r) ?? 0) + 1)));
      if (reasons.size > 0) {
        for (const [r, n] of reasons) counters.inc(`recorder.blobsRefused.${r}`, n);
        log.info(`not stored in the object store: ${[...reasons].map(([r, n]) => `${n} ${r}`).join(', ')} (those edits are not captured)`);
      }
      const hashed = await blobs.hashContents(contents.filter((_, i) => !refused.content.has(i)));
      let k = 0;
      ids = contents.map((_, i) => (refused.content.has(i) ? undefined : hashed[k++]));
      const hashedFiles = await blobs.hashFiles(currentFiles.filter((_, i) => !refused.file.has(i)));
      k = 0;
      fileIds = currentFiles.map((_, i) => (refused.file.has(i) ? undefined : hashedFiles[k++]));
      empty = await blobs.ensureEmptyBlob();
    } catch (e) {
      counters.inc('recorder.hashFailures');
      log.warn(`could not store edit blobs (${outputs.length} edit(s) dropped): ${errorText(e)}`);
      return;
    }
    const isRefused = (r: Ref): boolean =>
      !!r && (('content' in r && refused.content.has(r.content)) || ('file' in r && refused.file.has(r.file)));
    const resolve = (r: Ref): string | undefined => {
      if (!r) return undefined;
      if ('content' in r) return ids[r.content];
      if ('file' in r) return fileIds[r.file] ?? empty;
      return r.blob;
    };
    const unclaimed: UnclaimedEditRecord[] = [];
    for (const p of plans) {
      if (isRefused(p.pre) || isRefused(p.post)) continue;
      const preBlob = resolve(p.pre);
      const postBlob = resolve(p.post);
      if (!postBlob) continue;
      try {
        if (p.o.kind === 'human' || p.o.kind === 'other') {
          const t = p.o.transition;
          const counts = replacementStats(t.before, t.after);
          const rec: UnclaimedEditRecord = {
            id: t.id,
            time: t.time,
            file: t.file,
            origin: p.o.kind,
            source: t.source,
            preBlob: preBlob ?? empty,
            postBlob,
            ...countsOf(counts),
          };
          unclaimed.push(rec);
          this.d.timeline.add(unclaimedTimelineRecord(rec));
        } else if (p.timelineOnly && p.o.kind === 'ai') {
          const t = p.o.transition;
          const c = p.o.claim;
          this.d.timeline.add({
            id: t.id,
            time: t.time,
            file: t.file,
            origin: 'ai',
            agent: c.agent,
            sessionId: c.sessionId,
            turn: c.turn,
            interactionKey: c.interactionKey,
            ...countsOf(replacementStats(t.before, t.after)),
            ...(preBlob ? { preBlob } : {}),
            postBlob,
          });
        } else if (p.o.kind === 'ai' || p.o.kind === 'ai-record') {
          await this.writePair(p.o, preBlob, postBlob, empty);
        }
      } catch (e) {
        counters.inc('recorder.journalFailures');
        log.warn(`could not journal a captured edit: ${errorText(e)}`);
      }
    }
    if (unclaimed.length > 0) {
      try {
        await this.d.store.appendEdits(unclaimed);
      } catch (e) {
        counters.inc('recorder.journalFailures');
        log.warn(`could not write the capture log: ${errorText(e)}`);
      }
    }
    counters.inc('recorder.outputs', outputs.length);
  }

  /** A CLI-shaped pre_blob + file_change pair (same tool_use_id) in the claim's session, plus our ext record. */
  private async writePair(
    o: Extract<CaptureOutput, { kind: 'ai' | 'ai-record' }>,
    preBlob: string | undefined,
    postBlob: string,
    emptyBlob: string,
  ): Promise<void> {
    const c = o.claim;
    const live = this.d.live.get(`${c.agent}:${c.sessionId}`);
    if (!live) return;
    // A second window on this repository tails the same transcript and sees the same file change:
    // the agent record (claim key) decides, under the session lock, which window journals the pair.
    await live.js.withLock(async () => {
      const claims = (live.pairClaims = await freshExtIndex(
        live.js,
        extFiles.pairs,
        live.pairClaims,
        async () => new Set((await readPairExt(live.js)).map((r) => r.claimKey)),
      ));
      if (claims.value.has(c.key)) {
        this.d.counters.inc('recorder.pairsJournaledElsewhere');
        this.rememberPairedClaim(c.key);
        return;
      }
      await this.writePairLocked(live, o, preBlob, postBlob, emptyBlob);
      claims.value.add(c.key);
      claims.size = await live.js.extSize(extFiles.pairs);
    });
  }

  private async writePairLocked(
    live: LiveSession,
    o: Extract<CaptureOutput, { kind: 'ai' | 'ai-record' }>,
    preBlob: string | undefined,
    postBlob: string,
    emptyBlob: string,
  ): Promise<void> {
    const c = o.claim;
    const transition = o.kind === 'ai' ? o.transition : undefined;
    const pairId = `an-${sha1(`${c.key}\0${transition?.id ?? 'record'}`).slice(0, 24)}`;
    const promptId = live.promptIds.get(c.turn) ?? null;
    const time = transition?.time ?? claimTime(c);
    const known = c.edit.added !== undefined && c.edit.removed !== undefined;
    const before = transition?.before ?? (o.kind === 'ai-record' ? (o.before ?? (preBlob === emptyBlob ? '' : undefined)) : undefined);
    const after = transition?.after ?? (o.kind === 'ai-record' ? o.after : undefined);
    const counts = known
      ? { added: c.edit.added as number, removed: c.edit.removed as number }
      : before !== undefined && after !== undefined
        ? replacementStats(before, after)
        : undefined;
    if (preBlob)
      await live.js.appendPreBlob({
        event: 'pre_blob',
        turn: c.turn,
        prompt_id: promptId,
        file: c.file,
        blob: preBlob,
        tool_use_id: pairId,
      });
    await live.js.appendChange({
      event: 'file_change',
      timestamp: new Date(time).toISOString(),
      tool: c.edit.tool,
      file: c.file,
      session_id: c.sessionId,
      turn: c.turn,
      prompt_id: promptId,
      blob: postBlob,
      change_id: null,
      edit_added: known ? (c.edit.added as number) : null,
      edit_deleted: known ? (c.edit.removed as number) : null,
      tool_use_id: pairId,
    });
    const ext: PairExtRecord = {
      pairId,
      time,
      file: c.file,
      turn: c.turn,
      interactionKey: c.interactionKey,
      claimKey: c.key,
      tool: c.edit.tool,
      postBlob,
    };
    if (transition) ext.transitionId = transition.id;
    if (counts) {
      ext.added = counts.added;
      ext.removed = counts.removed;
    }
    if (preBlob) ext.preBlob = preBlob;
    await live.js.appendJsonl(extFiles.pairs, ext);
    this.rememberPairedClaim(c.key);
    this.d.generation.bump();
    this.d.timeline.add(aiTimelineRecord(ext, c.agent, c.sessionId));
  }
}

function claimTime(c: AgentClaim): number {
  const t = c.edit.timestamp ? Date.parse(c.edit.timestamp) : NaN;
  return Number.isFinite(t) ? Math.min(t, c.receivedAt) : c.receivedAt;
}

function countsOf(c: { added: number; removed: number }): { added: number; removed: number } {
  return { added: c.added, removed: c.removed };
}
