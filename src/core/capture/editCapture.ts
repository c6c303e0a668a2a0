import type { AgentId, EditEvent } from '../model/agentEvents';
import { crlfOnly, normalizeEol, transitionMatchesEdit } from './editMatcher';
import { isolateEffect } from './editIsolation';

/**
 * Who made each change of a file. The host feeds two unordered streams:
 * - content transitions it observed (buffer changes, disk writes), with the text before and after;
 * - agent edit claims read from transcripts, which may arrive seconds before or after the change.
 * A claim matched to a transition (same file, within the window, effect visible) makes that
 * transition AI-written; transitions nobody claims become human (typed in the editor) or
 * "other" (disk writes by tools, checkouts, formatters). A late claim re-classifies a transition.
 * Pure and deterministic: time is passed in by the caller.
 */

export type TransitionSource = 'typing' | 'bulk' | 'disk';

export interface ContentTransition {
  /** Unique id (the host's sequence). */
  id: string;
  /** Repo-relative path, forward slashes. */
  file: string;
  /** When the change was observed (epoch ms). */
  time: number;
  before: string;
  after: string;
  source: TransitionSource;
}

export interface AgentClaim {
  /** Stable key of the transcript event (dedupe across re-reads). */
  key: string;
  /** Repo-relative path. */
  file: string;
  agent: AgentId;
  sessionId: string;
  turn: number;
  /** `${agent}:${sessionId}:${turn}` — the interaction that made the edit. */
  interactionKey: string;
  edit: EditEvent;
  /** When the record was read (epoch ms). */
  receivedAt: number;
}

export type CaptureOutput =
  /** A transition proven AI-written by a claim. May re-classify an earlier human/other output. */
  | { kind: 'ai'; transition: ContentTransition; claim: AgentClaim }
  /** A claim no observed transition matched: before/after derived from the record where possible. */
  | { kind: 'ai-record'; claim: AgentClaim; before?: string; after?: string }
  | { kind: 'human'; transition: ContentTransition }
  | { kind: 'other'; transition: ContentTransition };

export interface EditCaptureOptions {
  /** How far apart (ms) a claim and the transition it explains may be. */
  matchWindowMs?: number;
  /** How long (ms) an unclaimed transition waits before it is called human/other. */
  graceMs?: number;
  /** How long (ms) transitions are kept for late claims. */
  retainMs?: number;
  /**
   * Whether an agent's claim that no observed change explains may stand on its record alone (an
   * `ai-record` output). Default: yes. No for agents whose edits arrive through the editor
   * (`editsArrive: 'editor'`, Copilot): their edit is applied to the document, so a claim no
   * captured change confirms was never applied, rejected or undone — not AI.
   */
  recordFallback?: (agent: AgentId) => boolean;
}

interface TransitionEntry {
  t: ContentTransition;
  classified: 'pending' | 'ai' | 'human' | 'other';
  claimedBy: Set<string>;
}

interface ClaimEntry {
  c: AgentClaim;
  matched: boolean;
  fellBack: boolean;
}

export class EditCapture {
  private readonly transitions = new Map<string, TransitionEntry[]>();
  private readonly claims = new Map<string, ClaimEntry>();
  /** Claims no change explains yet, per file: a new change is tried against these only. */
  private readonly unmatched = new Map<string, Set<ClaimEntry>>();
  private readonly matchWindowMs: number;
  private readonly graceMs: number;
  private readonly retainMs: number;
  private readonly recordFallback: (agent: AgentId) => boolean;
  /** Parts carved out of transitions so far (their ids must be unique: the timeline keys on them). */
  private parts = 0;

  constructor(opts: EditCaptureOptions = {}) {
    this.matchWindowMs = opts.matchWindowMs ?? 120_000;
    this.graceMs = opts.graceMs ?? 5_000;
    this.retainMs = opts.retainMs ?? 15 * 60_000;
    this.recordFallback = opts.recordFallback ?? (() => true);
  }

  /** Adds an observed change; returns AI outputs for pending claims it satisfies. */
  addTransition(t: ContentTransition): CaptureOutput[] {
    if (t.before === t.after) return [];
    const entry: TransitionEntry = { t, classified: 'pending', claimedBy: new Set() };
    const list = this.transitions.get(t.file) ?? [];
    list.push(entry);
    this.transitions.set(t.file, list);
    return this.matchWaiting(entry);
  }

  /**
   * Binds the claims still waiting for a change to `entry`, oldest first. Each part a claim takes
   * leaves a smaller remainder, so the others are tried again until none matches.
   */
  private matchWaiting(entry: TransitionEntry): CaptureOutput[] {
    const out: CaptureOutput[] = [];
    for (let progress = true; progress; ) {
      progress = false;
      const t = entry.t;
      const waiting = [...(this.unmatched.get(t.file) ?? [])]
        .filter((ce) => Math.abs(t.time - this.refTime(ce.c)) <= this.matchWindowMs)
        .sort((x, y) => this.refTime(x.c) - this.refTime(y.c));
      for (const ce of waiting) {
        const m = this.matchIn(ce.c, entry);
        if (!m) continue;
        out.push(this.bindMatch(entry, m, ce));
        if ('part' in m && entry.classified === 'pending') {
          progress = true;
          break;
        }
      }
    }
    return out;
  }

  /** Adds an agent edit read from a transcript; returns its match if the change was already seen. */
  addClaim(c: AgentClaim): CaptureOutput[] {
    if (this.claims.has(c.key) || c.edit.failed) return [];
    const ce: ClaimEntry = { c, matched: false, fellBack: false };
    this.claims.set(c.key, ce);
    const waiting = this.unmatched.get(c.file) ?? new Set<ClaimEntry>();
    waiting.add(ce);
    this.unmatched.set(c.file, waiting);
    const best = this.bestTransitionFor(c);
    if (!best) return [];
    const out = [this.bindMatch(best.entry, best.match, ce)];
    // a part taken from a change nobody explained yet: the rest may be another waiting claim's
    if ('part' in best.match && best.entry.classified === 'pending') out.push(...this.matchWaiting(best.entry));
    return out;
  }

  /**
   * Advances time: unclaimed transitions older than the grace period become human/other;
   * claims still unmatched after the window fall back to their record's own content.
   * `force` resolves every pending claim and change now (used right before a commit is recorded).
   */
  tick(now: number, force = false): CaptureOutput[] {
    const out: CaptureOutput[] = [];
    for (const [file, list] of this.transitions) {
      for (const e of list) {
        // before a commit (`force`) every change is classified: the file states the commit's
        // revert check reads must include a person's undo made a moment before the commit (a late
        // claim still re-classifies the change)
        if (e.classified === 'pending' && (force || now - e.t.time >= this.graceMs)) {
          e.classified = e.t.source === 'disk' ? 'other' : 'human';
          out.push({ kind: e.classified, transition: e.t });
        }
      }
      const kept = list.filter((e) => now - e.t.time < this.retainMs);
      if (kept.length) this.transitions.set(file, kept);
      else this.transitions.delete(file);
    }
    for (const [key, ce] of this.claims) {
      const age = now - this.refTime(ce.c);
      if (!ce.matched && !ce.fellBack && (force || age > this.matchWindowMs)) {
        ce.fellBack = true;
        if (this.recordFallback(ce.c.agent)) out.push({ kind: 'ai-record', claim: ce.c, ...recordContent(ce.c.edit) });
      }
      if (age > this.retainMs) {
        this.claims.delete(key);
        this.settled(ce);
      }
    }
    return out;
  }

  /** Transitions currently kept for a file (for uncommitted attribution and tests). */
  transitionsOf(file: string): readonly ContentTransition[] {
    return (this.transitions.get(file) ?? []).map((e) => e.t);
  }

  private refTime(c: AgentClaim): number {
    const ts = c.edit.timestamp ? Date.parse(c.edit.timestamp) : NaN;
    return Number.isFinite(ts) ? Math.min(ts, c.receivedAt) : c.receivedAt;
  }

  /**
   * How a claim explains a transition: the whole change, or only part of it (`mid → after`, see
   * `isolateEffect`) when the change also holds someone else's work — a coalesced disk write of two
   * agents, or a person's write followed at once by an agent's. A change another claim already
   * explains is only shared when this claim's own part cannot be isolated.
   */
  private matchIn(c: AgentClaim, e: TransitionEntry): Match | undefined {
    const mid = isolateEffect(c.edit, e.t.before, e.t.after);
    if (mid !== undefined && mid !== e.t.before) return { part: mid };
    if (mid !== undefined || transitionMatchesEdit(c.edit, e.t.before, e.t.after)) return { whole: true, shared: e.claimedBy.size > 0 };
    return undefined;
  }

  private bestTransitionFor(c: AgentClaim): { entry: TransitionEntry; match: Match } | undefined {
    const ref = this.refTime(c);
    let best: { entry: TransitionEntry; match: Match } | undefined;
    let bestScore = Infinity;
    for (const e of this.transitions.get(c.file) ?? []) {
      const dt = Math.abs(e.t.time - ref);
      if (dt > this.matchWindowMs) continue;
      const match = this.matchIn(c, e);
      if (!match) continue;
      // prefer a change this claim explains alone, then a part of one, then a shared one; then the
      // closest in time
      const score = dt + ('whole' in match ? (match.shared ? 2 * this.matchWindowMs : 0) : this.matchWindowMs);
      if (score < bestScore) {
        best = { entry: e, match };
        bestScore = score;
      }
    }
    return best;
  }

  private bindMatch(entry: TransitionEntry, match: Match, ce: ClaimEntry): CaptureOutput {
    if ('whole' in match) return this.bind(entry, ce);
    // The claim's part becomes a transition of its own, just after the whole one (so that its pair
    // is the later one and owns its lines). The rest stays with the parent: still pending, it is the
    // person's or another claim's; already explained, it keeps its claim.
    const t = entry.t;
    const part: TransitionEntry = {
      t: { ...t, id: `${t.id}~${++this.parts}`, time: t.time + 1, before: match.part },
      classified: 'pending',
      claimedBy: new Set(),
    };
    if (entry.classified === 'pending') entry.t = { ...t, after: match.part };
    this.transitions.get(t.file)?.push(part);
    return this.bind(part, ce);
  }

  /** The claim no longer waits for a change (matched, or dropped after the retention period). */
  private settled(ce: ClaimEntry): void {
    const waiting = this.unmatched.get(ce.c.file);
    if (!waiting) return;
    waiting.delete(ce);
    if (waiting.size === 0) this.unmatched.delete(ce.c.file);
  }

  private bind(entry: TransitionEntry, ce: ClaimEntry): CaptureOutput {
    ce.matched = true;
    this.settled(ce);
    entry.claimedBy.add(ce.c.key);
    entry.classified = 'ai';
    return { kind: 'ai', transition: entry.t, claim: ce.c };
  }
}

type Match = { whole: true; shared: boolean } | { part: string };

/** before/after text an edit record carries by itself (when no change was observed). */
export function recordContent(edit: EditEvent): { before?: string; after?: string } {
  const before = edit.originalContent;
  let after = edit.resultContent ?? edit.contents;
  if (after === undefined && before !== undefined && edit.newString !== undefined) {
    const b = normalizeEol(before);
    const o = normalizeEol(edit.oldString ?? '');
    const n = normalizeEol(edit.newString);
    if (o === '') after = b.length === 0 ? n : undefined;
    else if (b.includes(o)) after = edit.replaceAll ? b.split(o).join(n) : b.replace(o, () => n);
    // the strings are matched on LF; a file written with CRLF throughout keeps CRLF (as the agent
    // writes it back), else its post-edit blob would differ from the committed one on every line
    if (after !== undefined && crlfOnly(before)) after = after.replace(/\n/g, '\r\n');
  }
  if (edit.deleted) after = '';
  return { before, after };
}
