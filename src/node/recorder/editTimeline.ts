import type { PairExtRecord } from './sessionSnapshot';
import type { UnclaimedEditRecord } from './captureStore';

/** One edit for the timeline: an agent's (`ai`), typed in the editor (`human`) or by a tool on disk (`other`). */
export interface TimelineEditRecord {
  /** The host's transition id when the change was observed, else the pair id of a record-only agent edit. */
  id: string;
  /** Epoch ms. */
  time: number;
  /** Repo-relative path. */
  file: string;
  origin: 'ai' | 'human' | 'other';
  agent?: string;
  sessionId?: string;
  turn?: number;
  interactionKey?: string;
  added?: number;
  removed?: number;
  /** Blob ids before / after (open a diff with them). */
  preBlob?: string;
  postBlob?: string;
}

const maxTimelineRecords = 20_000;

/**
 * The recorder's edits in time order (bounded to the newest 20,000), one per id: the first AI
 * classification of a transition wins, and human/other never replaces AI. Records are frozen.
 */
export class EditTimeline {
  private records: Readonly<TimelineEditRecord>[] = [];
  private readonly index = new Map<string, Readonly<TimelineEditRecord>>();

  get size(): number {
    return this.records.length;
  }

  add(record: TimelineEditRecord): void {
    const r = Object.freeze({ ...record });
    const prev = this.index.get(r.id);
    if (prev) {
      // the first AI classification of a transition wins; human/other never replaces AI
      if (prev.origin === 'ai' || r.origin !== 'ai') return;
      this.records[this.records.indexOf(prev)] = r;
      this.index.set(r.id, r);
      return;
    }
    this.records.push(r);
    this.index.set(r.id, r);
    if (this.records.length > 1 && r.time < this.records[this.records.length - 2].time) this.records.sort((a, b) => a.time - b.time);
    if (this.records.length > maxTimelineRecords) {
      for (const gone of this.records.splice(0, this.records.length - maxTimelineRecords)) this.index.delete(gone.id);
    }
  }

  /** Replaces everything with `records` (a reload). */
  reset(records: readonly TimelineEditRecord[]): void {
    this.records = [];
    this.index.clear();
    for (const r of [...records].sort((a, b) => a.time - b.time)) this.add(r);
  }

  /** Drops the records older than `cutoff` (retention). */
  prune(cutoff: number): void {
    if (!this.records.some((e) => e.time < cutoff)) return;
    this.records = this.records.filter((e) => e.time >= cutoff);
    this.index.clear();
    for (const r of this.records) this.index.set(r.id, r);
  }

  /** The records from `cutoff` on, oldest first: a new array. */
  since(cutoff: number): TimelineEditRecord[] {
    return this.records.length > 0 && this.records[0].time < cutoff ? this.records.filter((e) => e.time >= cutoff) : this.records.slice();
  }

  /** Every record, oldest first (not a copy: do not keep it across awaits). */
  all(): readonly Readonly<TimelineEditRecord>[] {
    return this.records;
  }
}

/** The timeline record of a journal pair we wrote (`ext/pairs.jsonl`). */
export function aiTimelineRecord(r: PairExtRecord, agent: string, sessionId: string): TimelineEditRecord {
  const out: TimelineEditRecord = {
    id: r.transitionId ?? r.pairId,
    time: r.time,
    file: r.file,
    origin: 'ai',
    agent,
    sessionId,
    turn: r.turn,
    interactionKey: r.interactionKey,
    postBlob: r.postBlob,
  };
  if (r.added !== undefined) out.added = r.added;
  if (r.removed !== undefined) out.removed = r.removed;
  if (r.preBlob) out.preBlob = r.preBlob;
  return out;
}

/** The timeline record of a human/other edit of the capture log (`capture/edits.jsonl`). */
export function unclaimedTimelineRecord(r: UnclaimedEditRecord): TimelineEditRecord {
  return {
    id: r.id,
    time: r.time,
    file: r.file,
    origin: r.origin,
    added: r.added,
    removed: r.removed,
    preBlob: r.preBlob,
    postBlob: r.postBlob,
  };
}
