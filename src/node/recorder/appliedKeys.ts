import { readFile } from 'node:fs/promises';
import { ensurePrivateDir } from '../util/privateFiles';
import * as path from 'node:path';
import { z } from 'zod';
import { Counters, type Logger, nullLogger } from '../../core/ports';
import { writeFileAtomic } from '../journal/jsonlFile';

/**
 * Which transcript events were already applied to the journal, persisted across reloads so a
 * tailer that re-reads a transcript (offset store lost, file rewritten, truncation) never
 * duplicates prompts, responses or edits.
 *
 * Event keys come from the tailer (src/node/transcripts/transcriptTailer.ts):
 * - `<file>:<line offset>:<index>` — line events. A file is read front to back, so one high-water
 *   mark `(offset, index)` per file is enough: a key at or below the mark was applied.
 * - `<file>:<offset>:resume<n>` — session re-announcements of a resumed tailer: never duplicates
 *   (they only restate metadata and prior turn counts, which are idempotent).
 * - anything else (`<file>:<offset>:flush<n>`, `<file>#<hash>` of whole-file formats): kept as
 *   exact keys, the newest `maxExactKeys`.
 */
export class AppliedKeys {
  private readonly marks = new Map<string, [number, number]>();
  private readonly exact = new Set<string>();
  private dirty = false;

  private constructor(
    private readonly file: string,
    private readonly log: Logger,
    private readonly maxExactKeys: number,
    private readonly maxFiles: number,
  ) {}

  /** Loads the state saved at `file` (missing or unreadable: empty, counted as `recorder.keysUnreadable`). */
  static async load(
    file: string,
    opts: { log?: Logger; counters?: Counters; maxExactKeys?: number; maxFiles?: number } = {},
  ): Promise<AppliedKeys> {
    const keys = new AppliedKeys(file, opts.log ?? nullLogger, opts.maxExactKeys ?? 5000, opts.maxFiles ?? 2000);
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return keys;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = stateSchema.safeParse(json);
    if (!parsed.success) {
      (opts.counters ?? new Counters()).inc('recorder.keysUnreadable');
      keys.log.debug('applied-keys file unreadable; starting empty');
      return keys;
    }
    for (const [f, m] of Object.entries(parsed.data.lines)) keys.marks.set(f, m);
    for (const k of parsed.data.keys) keys.exact.add(k);
    return keys;
  }

  /** True when the event with this key was applied already. */
  has(key: string): boolean {
    const k = parseKey(key);
    if (k.kind === 'resume') return false;
    if (k.kind === 'exact') return this.exact.has(key);
    const m = this.marks.get(k.file);
    return m !== undefined && (k.offset < m[0] || (k.offset === m[0] && k.index <= m[1]));
  }

  /** Records the event as applied. */
  add(key: string): void {
    const k = parseKey(key);
    if (k.kind === 'resume') return;
    this.dirty = true;
    if (k.kind === 'exact') {
      this.exact.delete(key);
      this.exact.add(key);
      while (this.exact.size > this.maxExactKeys) this.exact.delete(this.exact.values().next().value as string);
      return;
    }
    const m = this.marks.get(k.file);
    if (m && (k.offset < m[0] || (k.offset === m[0] && k.index <= m[1]))) return;
    this.marks.delete(k.file);
    this.marks.set(k.file, [k.offset, k.index]);
    while (this.marks.size > this.maxFiles) this.marks.delete(this.marks.keys().next().value as string);
  }

  /** Writes the state when it changed (atomic replace). */
  async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const state = { v: 1, lines: Object.fromEntries(this.marks), keys: [...this.exact] };
    try {
      await ensurePrivateDir(path.dirname(this.file));
      await writeFileAtomic(this.file, JSON.stringify(state));
    } catch (e) {
      this.dirty = true;
      this.log.warn(`could not save applied transcript keys: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

const stateSchema = z.object({
  v: z.literal(1),
  lines: z.record(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
  keys: z.array(z.string()),
});

type ParsedKey = { kind: 'line'; file: string; offset: number; index: number } | { kind: 'resume' } | { kind: 'exact' };

function parseKey(key: string): ParsedKey {
  const line = /^(.*):(\d+):(\d+)$/.exec(key);
  if (line) return { kind: 'line', file: line[1], offset: Number(line[2]), index: Number(line[3]) };
  if (/^.*:\d+:resume\d+$/.test(key)) return { kind: 'resume' };
  return { kind: 'exact' };
}
