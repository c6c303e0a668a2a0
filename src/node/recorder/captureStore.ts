import { ensurePrivateDir } from '../util/privateFiles';
import * as path from 'node:path';
import { z } from 'zod';
import type { CommittedPairLine } from '../../core/model/journal';
import { Counters, type Logger, nullLogger } from '../../core/ports';
import { appendJsonlLine, readJsonlFile, writeFileAtomic } from '../journal/jsonlFile';

/**
 * Repository-level capture files of the recorder under `<git-dir>/agentnote/capture/` (ours; the
 * Agent Note CLI never reads them):
 * - `edits.jsonl` — edits nobody claimed (typed in the editor: `human`; written on disk by tools,
 *   checkouts, formatters: `other`) with their before/after blobs, for the timeline and diffs;
 * - `commits.jsonl` — per recorded commit, the `committed_pairs.jsonl` lines appended to each
 *   session, so an amend can give the amended commit's pairs and prompts back;
 * - `applied-keys.json` — see AppliedKeys.
 * Lines are validated on read (bad ones skipped and counted); old lines are pruned by retention.
 */
export class CaptureStore {
  readonly editsFile: string;
  readonly commitsFile: string;
  readonly keysFile: string;
  private readonly log: Logger;
  private readonly counters: Counters;

  constructor(
    /** Absolute `<git-dir>/agentnote/capture` directory. */
    readonly dir: string,
    opts: { log?: Logger; counters?: Counters } = {},
  ) {
    this.editsFile = path.join(dir, 'edits.jsonl');
    this.commitsFile = path.join(dir, 'commits.jsonl');
    this.keysFile = path.join(dir, 'applied-keys.json');
    this.log = opts.log ?? nullLogger;
    this.counters = opts.counters ?? new Counters();
  }

  /** Appends unclaimed edits (one line each). */
  async appendEdits(records: readonly UnclaimedEditRecord[]): Promise<void> {
    if (records.length === 0) return;
    await ensurePrivateDir(this.dir);
    for (const r of records) await appendJsonlLine(this.editsFile, { v: 1, ...r });
  }

  /** Every valid unclaimed-edit line, in file order. */
  async readEdits(): Promise<UnclaimedEditRecord[]> {
    return this.readValid(this.editsFile, unclaimedEditSchema, 'edits');
  }

  /** Appends the record of one written note. */
  async appendCommit(record: CommitLogRecord): Promise<void> {
    await ensurePrivateDir(this.dir);
    await appendJsonlLine(this.commitsFile, { v: 1, ...record });
  }

  /** The newest record of a commit, undefined if the recorder never wrote its note. */
  async findCommit(sha: string): Promise<CommitLogRecord | undefined> {
    const all = await this.readValid(this.commitsFile, commitLogSchema, 'commits');
    for (let i = all.length - 1; i >= 0; i--) if (all[i].sha === sha) return all[i];
    return undefined;
  }

  /** The newest `limit` commit records, oldest first. */
  async recentCommits(limit: number): Promise<CommitLogRecord[]> {
    return (await this.readValid(this.commitsFile, commitLogSchema, 'commits')).slice(-limit);
  }

  /** Drops lines whose `time` is before `cutoff` (epoch ms) from both logs. Returns how many were dropped. */
  async prune(cutoff: number): Promise<number> {
    let dropped = 0;
    for (const file of [this.editsFile, this.commitsFile]) {
      const r = await readJsonlFile(file);
      const keep = r.values.filter((v) => typeof v.time === 'number' && v.time >= cutoff);
      const gone = r.values.length - keep.length + r.skipped;
      if (gone === 0) continue;
      dropped += gone;
      try {
        await writeFileAtomic(file, keep.map((v) => `${JSON.stringify(v)}\n`).join(''));
      } catch (e) {
        this.log.warn(`capture log pruning failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return dropped;
  }

  private async readValid<T>(file: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>, what: string): Promise<T[]> {
    const r = await readJsonlFile(file);
    const out: T[] = [];
    let bad = r.skipped;
    for (const v of r.values) {
      const p = schema.safeParse(v);
      if (p.success) out.push(p.data);
      else bad++;
    }
    if (bad > 0) {
      this.counters.inc('recorder.captureLinesSkipped', bad);
      this.log.debug(`capture ${what}: skipped ${bad} unusable line(s)`);
    }
    return out;
  }
}

/** An edit no agent claimed. */
export interface UnclaimedEditRecord {
  /** Transition id (the host's). */
  id: string;
  /** Epoch ms the change was observed. */
  time: number;
  /** Repo-relative path. */
  file: string;
  origin: 'human' | 'other';
  /** How the host saw it: typing / bulk (editor) or disk. */
  source: string;
  preBlob: string;
  postBlob: string;
  added: number;
  removed: number;
}

/** What recording one commit's note appended, per session id. */
export interface CommitLogRecord {
  sha: string;
  /** Epoch ms of recording. */
  time: number;
  /** The note was copied from this commit (amend without content change). */
  copiedFrom?: string;
  /** `committed_pairs.jsonl` lines appended, per session id. */
  sessions: Record<string, CommittedPairLine[]>;
}

const unclaimedEditSchema = z.object({
  id: z.string().min(1),
  time: z.number().finite(),
  file: z.string().min(1),
  origin: z.enum(['human', 'other']),
  source: z.string().optional().default(''),
  preBlob: z.string(),
  postBlob: z.string(),
  added: z.number().int().nonnegative().optional().default(0),
  removed: z.number().int().nonnegative().optional().default(0),
});

const committedLineSchema = z.object({
  turn: z.number().int().min(0),
  prompt_id: z.string().nullable().optional(),
  file: z.string().nullable(),
  prompt_scope: z.enum(['window', 'tail']).optional(),
  change_id: z.string().nullable(),
  tool_use_id: z.string().nullable(),
});

const commitLogSchema = z.object({
  sha: z.string().min(1),
  time: z.number().finite(),
  copiedFrom: z.string().optional(),
  sessions: z.record(z.array(committedLineSchema)),
});
