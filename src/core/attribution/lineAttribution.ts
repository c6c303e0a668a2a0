import { addedLinePositions, countDiffLines, type DiffHunk } from './diffHunks';

/**
 * The "3-diff" line attribution of one committed file (docs/note-format.md §3.2).
 *
 * All three diffs end at the committed blob, so their new-side line numbers are comparable:
 * - diff1 = parent → committed: the lines this commit added (denominator) and deleted;
 * - diff2 = pre_T → committed: lines changed since just before the agent's edit T;
 * - diff3 = post_T → committed: lines changed since just after edit T (i.e. by someone else, later).
 * Lines in diff2 but not in diff3 were produced by edit T. A committed added line is AI when any
 * pair claims it: ai = diff1-added ∩ ∪_T (diff2_T-added \ diff3_T-added). Deletions are never
 * attributed (old-side numbers of different diffs are not comparable); they are only counted.
 *
 * Consequences that are the algorithm, not bugs: a human whitespace-only change to an AI line makes
 * it human (git sees a changed line); a formatter run after the agent's edit makes every line it
 * reformatted human (those lines differ between post_T and committed).
 */

/** One agent edit of the file with its two diffs against the committed blob. */
export interface EditPairDiff {
  /** Stable id of the pair (unique within the commit). */
  pairId: string;
  /** Blob of the file just before / just after the edit. Informational here. */
  preBlob: string;
  postBlob: string;
  /** diff2: pre → committed hunks. */
  diff2: readonly DiffHunk[];
  /** diff3: post → committed hunks. */
  diff3: readonly DiffHunk[];
  /** Key of the interaction (prompt turn) that made the edit. */
  interactionKey: string;
  agent: string;
}

/** AI-written lines of the committed file: 1-based, inclusive, contiguous lines of one owner. */
export interface AiRange {
  start: number;
  end: number;
  /** Interaction that produced the lines; null when only known to be AI (count upgrade). */
  interactionKey: string | null;
}

/** Result of attributing one file. */
export interface LineAttribution {
  /** Lines added by the commit (diff1 Σ newCount). */
  totalAdded: number;
  /** Lines deleted by the commit (diff1 Σ oldCount). */
  deleted: number;
  /** Added lines attributed to an agent. */
  aiAdded: number;
  /** diff1 new-side positions, ascending. */
  addedLines: number[];
  /** The AI subset of addedLines, ascending. */
  aiLines: number[];
  /** Owner of every AI line (same order as aiLines): the latest pair claiming it, or the fallback owner. */
  owners: (string | null)[];
  /** aiLines merged into ranges of contiguous lines with the same owner. */
  ranges: AiRange[];
  /** Pairs (ids, in input order) with at least one diff1-added line in their diff2 \ diff3 (§3.2 step 7). */
  contributingPairIds: string[];
  /** Interaction keys of the contributing pairs, first-seen order, deduplicated. */
  contributingInteractionKeys: string[];
}

export interface LineAttributionOptions {
  /**
   * Treat every added line as AI (Cursor exact-count upgrade, §3.3, or our committed-equals-post
   * evidence). Lines claimed by a pair keep the pair's owner; the others get this owner.
   */
  claimAllAdded?: { interactionKey: string | null };
}

/**
 * Attributes the added lines of one committed file to edit pairs. `pairs` must be in
 * chronological order: when several pairs claim a line, the latest one owns it.
 */
export function attributeLines(
  diff1: readonly DiffHunk[],
  pairs: readonly EditPairDiff[],
  opts: LineAttributionOptions = {},
): LineAttribution {
  const { added: totalAdded, deleted } = countDiffLines(diff1);
  const addedLines = addedLinePositions(diff1);
  const added = new Set(addedLines);
  const ownerByLine = new Map<number, string>();
  const contributingPairIds: string[] = [];
  const contributingKeys: string[] = [];

  for (const pair of pairs) {
    const after = new Set(addedLinePositions(pair.diff3));
    let contributes = false;
    for (const line of addedLinePositions(pair.diff2)) {
      if (after.has(line) || !added.has(line)) continue;
      ownerByLine.set(line, pair.interactionKey);
      contributes = true;
    }
    if (contributes) {
      contributingPairIds.push(pair.pairId);
      if (!contributingKeys.includes(pair.interactionKey)) contributingKeys.push(pair.interactionKey);
    }
  }

  const aiLines: number[] = [];
  const owners: (string | null)[] = [];
  for (const line of addedLines) {
    const owner = ownerByLine.get(line);
    if (owner !== undefined) {
      aiLines.push(line);
      owners.push(owner);
    } else if (opts.claimAllAdded) {
      aiLines.push(line);
      owners.push(opts.claimAllAdded.interactionKey);
    }
  }
  const fallbackKey = opts.claimAllAdded?.interactionKey;
  if (opts.claimAllAdded && fallbackKey && aiLines.length > 0 && !contributingKeys.includes(fallbackKey)) {
    contributingKeys.push(fallbackKey);
  }

  return {
    totalAdded,
    deleted,
    aiAdded: aiLines.length,
    addedLines,
    aiLines,
    owners,
    ranges: mergeRanges(aiLines, owners),
    contributingPairIds,
    contributingInteractionKeys: contributingKeys,
  };
}

/** Merges ascending line numbers with owners into ranges of contiguous lines with equal owners. */
export function mergeRanges(lines: readonly number[], owners: readonly (string | null)[]): AiRange[] {
  const ranges: AiRange[] = [];
  for (let i = 0; i < lines.length; i++) {
    const last = ranges[ranges.length - 1];
    if (last && last.end + 1 === lines[i] && last.interactionKey === owners[i]) last.end = lines[i];
    else ranges.push({ start: lines[i], end: lines[i], interactionKey: owners[i] ?? null });
  }
  return ranges;
}
