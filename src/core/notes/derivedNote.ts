import type { DiffHunk } from '../attribution/diffHunks';
import type { Clock } from '../ports';
import { fileLineHashes, isDistinctiveLine, lineHash } from './lineHashes';
import type { AgentNoteV1 } from './noteTypes';
import { composeOwnedNote, type LineOwner, type OwnedFile } from './rewriteNote';

/**
 * The derived note of a commit a hosting service made (issue #18 part 2): "Squash and merge" or
 * "Rebase and merge" wrote new commits, with other messages, committers and dates, that contain
 * lines the AI wrote in noted commits of the feature branch. Those commits may be gone (the branch
 * was deleted) or never fetched, so the match uses only the notes (`ai_line_hashes`) and the new
 * commit's own diff. Pure: the caller asks git for the diff and reads the notes.
 *
 * The rule (a gap is acceptable, a wrong claim is not). A noted commit S is a source of commit C
 * when, in files of the same path, the lines C adds contain S's AI lines in S's order:
 * - first the distinctive ones (≥ 8 characters with a letter or digit, see isDistinctiveLine),
 *   each matched to the first later added line with the same hash;
 * - then the others (`}`, blank lines) only between two matched lines, or next to one in the same
 *   block of added lines;
 * - and S counts only when at least 2 distinctive lines matched and at least half of all its AI
 *   lines that have hashes did. An unrelated commit that happens to contain one of S's lines,
 *   or a few common ones, gets nothing.
 * A matched line of C is AI, with the prompt of S's range; where two sources match the same line,
 * the later one (in `sources` order, oldest first) owns it. Everything else C adds is the person's.
 */

/** A noted commit that may be a source (oldest first); notes that are derived themselves are not sources. */
export interface DerivationSource {
  commit: string;
  note: AgentNoteV1;
}

/** One file of the new commit (diff-tree order). */
export interface DerivationFile {
  path: string;
  /** parent → new commit hunks; undefined: not diffed (binary, submodule): no AI claim. */
  diff1: readonly DiffHunk[] | undefined;
  /** new-side line → text of every line the commit adds. */
  added: ReadonlyMap<number, string>;
}

export interface DerivedNoteInput {
  sources: readonly DerivationSource[];
  files: readonly DerivationFile[];
  clock: Clock;
}

/** How one source matched (for logs and tests). */
export interface SourceMatch {
  commit: string;
  /** AI lines of the source that have hashes. */
  hashed: number;
  matched: number;
  distinctive: number;
  qualified: boolean;
}

export interface DerivedNoteResult {
  note: AgentNoteV1 | undefined;
  matches: SourceMatch[];
}

/** Minimum distinctive lines of a source matched in order. */
export const minDistinctiveMatches = 2;
/** Minimum share of a source's hashed AI lines matched. */
export const minMatchedShare = 0.5;

/** One line the new commit adds, in line order. */
export interface TargetLine {
  line: number;
  hash: string;
  distinctive: boolean;
}

export function derivedNote(input: DerivedNoteInput): DerivedNoteResult {
  const targets = new Map<string, TargetLine[]>();
  for (const f of input.files) {
    if (!f.diff1) continue;
    const list = [...f.added.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([line, text]) => ({ line, hash: lineHash(text), distinctive: isDistinctiveLine(text) }));
    targets.set(f.path, list);
  }

  const perSource = input.sources.map((s) => matchSource(s.note, targets));
  const matches: SourceMatch[] = perSource.map((m, i) => ({
    commit: input.sources[i].commit,
    hashed: m.hashed,
    matched: m.matched,
    distinctive: m.distinctive,
    qualified: m.distinctive >= minDistinctiveMatches && m.matched >= m.hashed * minMatchedShare,
  }));

  const owners = new Map<string, Map<number, LineOwner>>();
  perSource.forEach((m, si) => {
    if (!matches[si].qualified) return;
    for (const [path, lines] of m.byFile) {
      let map = owners.get(path);
      if (!map) owners.set(path, (map = new Map()));
      for (const [line, o] of lines) map.set(line, { source: si, interaction: o.interaction, hash: o.hash });
    }
  });
  if (owners.size === 0) return { note: undefined, matches };
  const owned: OwnedFile[] = input.files.map((f) => ({ path: f.path, diff1: f.diff1, owners: owners.get(f.path) ?? new Map() }));
  const note = composeOwnedNote(
    input.sources.map((s) => ({ note: s.note })),
    owned,
    input.clock,
  );
  if (!note) return { note: undefined, matches };
  const used = new Set<number>();
  for (const map of owners.values()) for (const o of map.values()) used.add(o.source);
  note.derived_from = input.sources.filter((_, i) => used.has(i)).map((s) => s.commit);
  return { note, matches };
}

interface SourceLines {
  hashed: number;
  matched: number;
  distinctive: number;
  byFile: Map<string, Map<number, { interaction: number | null; hash: string }>>;
}

function matchSource(note: AgentNoteV1, targets: ReadonlyMap<string, TargetLine[]>): SourceLines {
  const out: SourceLines = { hashed: 0, matched: 0, distinctive: 0, byFile: new Map() };
  for (const f of note.files) {
    if (!f.ai_ranges || f.ai_ranges.length === 0) continue;
    const hashes = fileLineHashes(f);
    if (!hashes) continue;
    out.hashed += hashes.size;
    const tgt = targets.get(f.path);
    if (!tgt || tgt.length === 0) continue;
    const interactionOf = new Map<number, number | null>();
    for (const r of f.ai_ranges) for (let l = r.start; l <= r.end; l++) interactionOf.set(l, r.interaction);
    const src = [...hashes.entries()].sort((a, b) => a[0] - b[0]).map(([line, hash]) => ({ line, hash }));
    const at = alignInOrder(
      src.map((s) => s.hash),
      tgt,
    );
    const lines = new Map<number, { interaction: number | null; hash: string }>();
    at.forEach((ti, si) => {
      if (ti === undefined) return;
      out.matched++;
      if (tgt[ti].distinctive) out.distinctive++;
      lines.set(tgt[ti].line, { interaction: interactionOf.get(src[si].line) ?? null, hash: src[si].hash });
    });
    if (lines.size > 0) out.byFile.set(f.path, lines);
  }
  return out;
}

/**
 * For each source hash (in order), the index of the target line it matches, or undefined. Matches
 * are strictly increasing in both sequences (see the module comment for the two passes).
 */
export function alignInOrder(src: readonly string[], tgt: readonly TargetLine[]): (number | undefined)[] {
  const at: (number | undefined)[] = src.map(() => undefined);
  // pass 1: distinctive target lines, first later occurrence of the same hash
  const positions = new Map<string, number[]>();
  tgt.forEach((t, i) => {
    if (!t.distinctive) return;
    const list = positions.get(t.hash);
    if (list) list.push(i);
    else positions.set(t.hash, [i]);
  });
  let last = -1;
  src.forEach((h, si) => {
    const list = positions.get(h);
    if (!list) return;
    const i = firstAbove(list, last);
    if (i === undefined) return;
    at[si] = i;
    last = i;
  });
  // pass 2: the other lines, between two anchors (or next to one, in the same block of added lines)
  const anchors = at.flatMap((t, si) => (t === undefined ? [] : [si]));
  if (anchors.length === 0) return at;
  const adjacent = (a: number, b: number) => tgt[b].line - tgt[a].line === b - a;
  for (let k = 0; k + 1 < anchors.length; k++) {
    const [sa, sb] = [anchors[k], anchors[k + 1]];
    let ti = at[sa]! + 1;
    const end = at[sb]!;
    for (let si = sa + 1; si < sb && ti < end; si++) {
      let j = ti;
      while (j < end && tgt[j].hash !== src[si]) j++;
      if (j < end) {
        at[si] = j;
        ti = j + 1;
      }
    }
  }
  // before the first anchor, walking back through the same block
  const first = anchors[0];
  for (let si = first - 1, ti = at[first]! - 1; si >= 0 && ti >= 0 && adjacent(ti, at[first]!); si--, ti--) {
    if (tgt[ti].hash !== src[si]) break;
    at[si] = ti;
  }
  // after the last anchor, walking on through the same block
  const lastA = anchors[anchors.length - 1];
  for (let si = lastA + 1, ti = at[lastA]! + 1; si < src.length && ti < tgt.length && adjacent(at[lastA]!, ti); si++, ti++) {
    if (tgt[ti].hash !== src[si]) break;
    at[si] = ti;
  }
  return at;
}

/** The first value of the ascending `list` above `min`. */
function firstAbove(list: readonly number[], min: number): number | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= min) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : undefined;
}
