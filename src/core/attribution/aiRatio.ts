import type { AttributionMethod, NoteAttribution, NoteLines } from '../notes/noteTypes';
import { isGeneratedPath } from './generatedFiles';

/**
 * `attribution.ai_ratio` and `method` exactly as the Agent Note CLI computes them
 * (docs/note-format.md §1.6, §3.4).
 */

/** The per-file facts the ratio needs (a note `files[]` entry has them). */
export interface RatioFile {
  path: string;
  by_ai: boolean;
  generated?: boolean;
  ai_ratio_excluded?: boolean;
}

/**
 * A file counts in the file-level ratio unless it is flagged generated, flagged excluded by
 * `.agentnoteignore`, or matches the generated-path heuristic (readers re-apply it even when the
 * flag is absent).
 */
export function isRatioEligible(file: RatioFile): boolean {
  return !file.generated && !file.ai_ratio_excluded && !isGeneratedPath(file.path);
}

/** Eligible files and how many of them are by AI. */
export function countEligibleFiles(files: readonly RatioFile[]): { total: number; ai: number } {
  let total = 0;
  let ai = 0;
  for (const f of files) {
    if (!isRatioEligible(f)) continue;
    total++;
    if (f.by_ai) ai++;
  }
  return { total, ai };
}

/**
 * `Math.round((part / whole) * 100)` in IEEE doubles, division first — the CLI's order. It matters:
 * 29/200 ⇒ 14.499999999999998 ⇒ 14 (integer math would give 15); `Math.round` is half-up (12.5 ⇒ 13).
 * 0 when `whole` is 0.
 */
export function percent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((part / whole) * 100);
}

/**
 * The commit's `attribution` object (key order `ai_ratio`, `method`, `lines`):
 * - no line counts ⇒ method `file`, ratio over eligible files;
 * - line counts with `total_added > 0` ⇒ method `line`, ratio over lines;
 * - line counts with `total_added == 0` (deletion-only, rename-only, binary-only) ⇒ `file` with the
 *   file ratio when eligible files exist, else `none` with ratio 0. `lines` is kept whenever counts
 *   were computed, so deletion-only commits store `{ai_added: 0, total_added: 0, deleted: N}`.
 */
export function aiRatio(files: readonly RatioFile[], lines?: NoteLines): NoteAttribution {
  const eligible = countEligibleFiles(files);
  let method: AttributionMethod;
  if (!lines) method = 'file';
  else if (lines.total_added > 0) method = 'line';
  else method = eligible.total > 0 ? 'file' : 'none';

  let ratio = 0;
  if (method === 'line' && lines) ratio = percent(lines.ai_added, lines.total_added);
  else if (method === 'file') ratio = percent(eligible.ai, eligible.total);

  const attribution: NoteAttribution = { ai_ratio: ratio, method };
  if (lines) attribution.lines = { ai_added: lines.ai_added, total_added: lines.total_added, deleted: lines.deleted };
  return attribution;
}
