import type { CommitAttribution } from '../attribution/commitAttribution';
import { revertedEdits, type FileState, type RevertibleEdit } from '../attribution/revertedEdits';
import type { CommittedPairLine } from '../model/journal';
import { canonicalLine, consumptionKey, type JournalPair, type JournalSessionData } from '../model/journalPairs';
import type { Clock, Logger } from '../ports';
import { countRedactionMarkers } from '../redaction/redactor';
import { attributionInputFrom, buildNote, type BuiltNote, type RedactFn } from './noteBuilder';
import { markerToCommittedPairLine, type PromptWindowMarker } from './promptWindow';
import { sessionRows } from './sessionRows';

/**
 * The note of one commit composed from the journal and the commit's diff (pure; the recorder
 * reads the journal and git, src/node/recorder/commitRecorder.ts). The steps, in order:
 * 1. selectCommitPairs — which unconsumed pairs of which sessions this commit uses;
 * 2. editPairInputs — those pairs as the input of the 3-diff attribution (analyzeCommit);
 * 3. composeNote — prompt-window rows per session + the attribution → the note (buildNote);
 * 4. consumptionLines — once the note is written, the `committed_pairs.jsonl` lines per session.
 */

/** One file of the commit: its blob in the commit and in the parent (the empty blob for a new file). */
export interface CommitFileBlobs {
  path: string;
  committedBlob: string;
  parentBlob: string;
}

/** A state of a file observed by the recorder (its edit timeline: human, other and AI edits). */
export interface ObservedEdit {
  file: string;
  time: number;
  postBlob?: string;
}

export interface CommitPairSelection<S extends JournalSessionData> {
  /** Sessions with pairs used by the commit (only sessions with at least one). */
  inCommit: Map<S, JournalPair[]>;
  /** Pairs left out as reverted before the commit, as `${sessionId}/${pairId}`. */
  reverted: Set<string>;
}

/**
 * The unconsumed pairs of the commit's files captured up to `latest` (the commit time plus the
 * allowed skew), minus
 * - an edit that started from exactly the committed content of its file: it was made after this
 *   commit (it belongs to a later one), so this commit never uses, and consumes, it;
 * - edits whose work was thrown away before the commit (revertedEdits: the file went back to the
 *   edit's pre-blob or the parent's version and did not come back). States: every journal pair
 *   and every observed edit, up to the commit. They stay unconsumed.
 */
export function selectCommitPairs<S extends JournalSessionData>(
  sessions: readonly S[],
  files: readonly CommitFileBlobs[],
  latest: number,
  observed: readonly ObservedEdit[],
): CommitPairSelection<S> {
  const fileSet = new Set(files.map((e) => e.path));
  const committed = new Map(files.map((e) => [e.path, e.committedBlob]));
  const reverted = revertedPairs(sessions, fileSet, new Map(files.map((e) => [e.path, e.parentBlob])), latest, observed);
  const inCommit = new Map<S, JournalPair[]>();
  for (const s of sessions) {
    const pairs = s.pairs.filter(
      (p) =>
        fileSet.has(p.file) &&
        p.time <= latest &&
        !(p.preBlob !== undefined && p.preBlob === committed.get(p.file) && p.postBlob !== p.preBlob) &&
        !reverted.has(`${s.id}/${p.pairId}`),
    );
    if (pairs.length > 0) inCommit.set(s, pairs);
  }
  return { inCommit, reverted };
}

function revertedPairs(
  sessions: readonly JournalSessionData[],
  files: ReadonlySet<string>,
  parentBlobs: ReadonlyMap<string, string>,
  latest: number,
  observed: readonly ObservedEdit[],
): Set<string> {
  const edits: RevertibleEdit[] = [];
  const states: FileState[] = [];
  for (const s of sessions) {
    for (const p of s.pairs) {
      if (!files.has(p.file) || p.time > latest) continue;
      edits.push({
        id: `${s.id}/${p.pairId}`,
        file: p.file,
        time: p.time,
        ...(p.preBlob ? { preBlob: p.preBlob } : {}),
        ...(p.postBlob ? { postBlob: p.postBlob } : {}),
      });
      if (p.postBlob) states.push({ file: p.file, time: p.time, blob: p.postBlob });
    }
  }
  if (edits.length === 0) return new Set();
  for (const r of observed)
    if (r.postBlob && files.has(r.file) && r.time <= latest) states.push({ file: r.file, time: r.time, blob: r.postBlob });
  return revertedEdits(edits, states, parentBlobs);
}

/** One edit pair for the attribution: the shape analyzeCommit takes (EditPairInput, src/node/attribution/commitDiffs.ts). */
export interface AttributionPair {
  file: string;
  preBlob?: string;
  postBlob: string;
  interactionKey: string;
  agent: string;
  timestamp: number;
  editAdded?: number;
  editDeleted?: number;
  /** `${sessionId}/${pairId}` */
  pairId: string;
}

/**
 * The selected pairs as attribution input. A pair without a post-blob (a pre-blob without its
 * change) has no content: its file is only known to be AI-touched (`aiFiles`, once per pair).
 */
export function editPairInputs(inCommit: ReadonlyMap<JournalSessionData, readonly JournalPair[]>): {
  inputs: AttributionPair[];
  aiFiles: string[];
} {
  const inputs: AttributionPair[] = [];
  const aiFiles: string[] = [];
  for (const [s, pairs] of inCommit) {
    for (const p of pairs) {
      if (p.postBlob === undefined) {
        aiFiles.push(p.file);
        continue;
      }
      const input: AttributionPair = {
        file: p.file,
        postBlob: p.postBlob,
        interactionKey: p.interactionKey,
        agent: p.agent,
        timestamp: p.time,
        pairId: `${s.id}/${p.pairId}`,
      };
      if (p.preBlob) input.preBlob = p.preBlob;
      if (p.editAdded !== undefined && p.editDeleted !== undefined) {
        input.editAdded = p.editAdded;
        input.editDeleted = p.editDeleted;
      }
      inputs.push(input);
    }
  }
  return { inputs, aiFiles };
}

export interface NoteCompositionInput {
  commit: { subject: string; patch: string };
  inCommit: ReadonlyMap<JournalSessionData, readonly JournalPair[]>;
  attribution: CommitAttribution;
  clock: Clock;
  /** The journal's redactor; the note's redaction count is every marker in its text (see noteRedaction). */
  redact?: RedactFn;
  log?: Logger;
}

/**
 * The note of the commit (buildNote over one prompt-window row set per session), or undefined
 * when there is none to write: no file is AI (a human-only commit) or buildNote skips it.
 */
export function composeNote(input: NoteCompositionInput): BuiltNote | undefined {
  const result = input.attribution;
  if (!result.files.some((f) => f.byAi)) return undefined;
  const sessions = [...input.inCommit].map(([s, pairs]) => sessionRows(s, pairs, result.contributingInteractionKeys));
  return buildNote({
    commit: { subject: input.commit.subject, files: result.files.map((f) => f.path), patch: input.commit.patch },
    sessions,
    attribution: attributionInputFrom(result),
    clock: input.clock,
    ...(input.redact ? { redact: noteRedaction(input.redact) } : {}),
    ...(input.log ? { log: input.log } : {}),
  });
}

/** The note-time redactor: its count is every marker in the result, also those the journal already holds. */
export function noteRedaction(redact: RedactFn): RedactFn {
  return (text) => {
    const r = redact(text);
    return { text: r.text, count: countRedactionMarkers(r.text) };
  };
}

/**
 * The `committed_pairs.jsonl` lines each session appends once the note is written: every entry of
 * the pairs used (once per consumption key, canonical shape), then the session's prompt-window
 * markers. Every session of `inCommit` gets an entry, in its order.
 */
export function consumptionLines<S extends JournalSessionData>(
  inCommit: ReadonlyMap<S, readonly JournalPair[]>,
  markers: readonly PromptWindowMarker[],
): Map<S, CommittedPairLine[]> {
  const out = new Map<S, CommittedPairLine[]>();
  for (const [s, pairs] of inCommit) {
    const seen = new Set<string>();
    const lines: CommittedPairLine[] = [];
    for (const p of pairs) {
      for (const l of p.consumeLines) {
        const k = consumptionKey(l);
        if (seen.has(k)) continue;
        seen.add(k);
        lines.push(canonicalLine(l));
      }
    }
    for (const m of markers) if (m.sessionId === s.id) lines.push(canonicalLine(markerToCommittedPairLine(m)));
    out.set(s, lines);
  }
  return out;
}
