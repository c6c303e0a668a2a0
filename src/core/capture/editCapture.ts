import type { AgentId, EditEvent } from '../model/agentEvents';
import { normalizeEol, transitionMatchesEdit } from './editMatcher';

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
  private readonly matchWindowMs: number;
  private readonly graceMs: number;
  private readonly retainMs: number;

  constructor(opts: EditCaptureOptions = {}) {
    this.matchWindowMs = opts.matchWindowMs ?? 120_000;
    this.graceMs = opts.graceMs ?? 5_000;
    this.retainMs = opts.retainMs ?? 15 * 60_000;
  }

  /** Adds an observed change; returns AI outputs for pending claims it satisfies. */
  addTransition(t: ContentTransition): CaptureOutput[] {
    if (t.before === t.after) return [];
    const entry: TransitionEntry = { t, classified: 'pending', claimedBy: new Set() };
    const list = this.transitions.get(t.file) ?? [];
    list.push(entry);
    this.transitions.set(t.file, list);
    const out: CaptureOutput[] = [];
    for (const ce of this.claims.values()) {
      if (ce.matched || ce.c.file !== t.file) continue;
      if (Math.abs(t.time - this.refTime(ce.c)) > this.matchWindowMs) continue;
      if (transitionMatchesEdit(ce.c.edit, t.before, t.after)) out.push(this.bind(entry, ce));
    }
    return out;
  }

  /** Adds an agent edit read from a transcript; returns its match if the change was already seen. */
  addClaim(c: AgentClaim): CaptureOutput[] {
    if (this.claims.has(c.key) || c.edit.failed) return [];
    const ce: ClaimEntry = { c, matched: false, fellBack: false };
    this.claims.set(c.key, ce);
    const entry = this.bestTransitionFor(c);
    return entry ? [this.bind(entry, ce)] : [];
  }

  /**
   * Advances time: unclaimed transitions older than the grace period become human/other;
   * claims still unmatched after the window fall back to their record's own content.
   * `force` resolves every pending claim now (used right before a commit is recorded).
   */
  tick(now: number, force = false): CaptureOutput[] {
    const out: CaptureOutput[] = [];
    for (const [file, list] of this.transitions) {
      for (const e of list) {
        if (e.classified === 'pending' && now - e.t.time >= this.graceMs) {
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
        out.push({ kind: 'ai-record', claim: ce.c, ...recordContent(ce.c.edit) });
      }
      if (age > this.retainMs) this.claims.delete(key);
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

  private bestTransitionFor(c: AgentClaim): TransitionEntry | undefined {
    const ref = this.refTime(c);
    let best: TransitionEntry | undefined;
    let bestScore = Infinity;
    for (const e of this.transitions.get(c.file) ?? []) {
      const dt = Math.abs(e.t.time - ref);
      if (dt > this.matchWindowMs) continue;
      if (!transitionMatchesEdit(c.edit, e.t.before, e.t.after)) continue;
      // prefer unclaimed transitions, then the closest in time
      const score = dt + (e.claimedBy.size > 0 ? this.matchWindowMs : 0);
      if (score < bestScore) {
        best = e;
        bestScore = score;
      }
    }
    return best;
  }

  private bind(entry: TransitionEntry, ce: ClaimEntry): CaptureOutput {
    ce.matched = true;
    entry.claimedBy.add(ce.c.key);
    entry.classified = 'ai';
    return { kind: 'ai', transition: entry.t, claim: ce.c };
  }
}

/** Every line break of `text` is CRLF (and there is at least one). */
function crlfOnly(text: string): boolean {
  return text.includes('\r\n') && !/(?:^|[^\r])\n/.test(text);
}

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
