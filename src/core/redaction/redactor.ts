/**
 * Secret redaction for everything written into a note or a session journal: prompts, responses,
 * contexts. Secrets are replaced by `[REDACTED:<pattern id>]`; key names and the rest of the text
 * stay readable. Pure and synchronous; linear in the text length.
 */
import type { Logger } from '../ports';
import { assessAssignment } from './assessAssignment';
import { compileCustomPatterns, type CustomPatternError } from './customPatterns';
import { secretPatterns, type SecretPattern } from './secretPatterns';
import { alternateViews } from './encodedForms';
import { shannonEntropy } from './shannonEntropy';

export interface RedactionResult {
  readonly text: string;
  /** Number of markers inserted. */
  readonly count: number;
  /** Markers inserted per pattern id. */
  readonly byId: Record<string, number>;
}

export interface DeepRedactionResult<T> {
  /** A redacted copy; the input is never mutated. */
  readonly value: T;
  readonly count: number;
  readonly byId: Record<string, number>;
}

export interface RedactorOptions {
  /** User regex sources (e.g. from a setting); ids `custom-<n>`. Invalid ones are reported in `errors`, not thrown. */
  readonly extraPatterns?: readonly string[];
  /** Built-in pattern ids to switch off (e.g. a heuristic that misfires on a project's data). */
  readonly disabledIds?: readonly string[];
  /** Gets a warning per invalid custom pattern (never any redacted text). */
  readonly logger?: Logger;
}

export interface Redactor {
  /** Redacts one text. Idempotent: redacting a redacted text changes nothing. */
  redact(text: string): RedactionResult;
  /**
   * Redacts every string of a JSON-ish value (plain objects, arrays), returning a copy. A string
   * field whose key is secret-named (`password`, `apiKey`, …) and whose whole value looks like a
   * secret is replaced by `[REDACTED:dotenv-secret]` even without any `key=` context in the string.
   */
  redactDeep<T>(value: T): DeepRedactionResult<T>;
  /** Ids of the active patterns, in priority order. */
  readonly patternIds: readonly string[];
  /** Custom patterns that were ignored, and why. */
  readonly errors: readonly CustomPatternError[];
}

/** The marker that replaces a secret. */
export function redactionMarker(id: string): string {
  return `[REDACTED:${id}]`;
}

const ownMarker = /\[REDACTED:[A-Za-z0-9_.-]{1,64}\]/g;

/**
 * Number of `[REDACTED:<id>]` markers in a text: what a note built from an already redacted
 * journal reports as its redaction count (the journal is redacted before it is written).
 */
export function countRedactionMarkers(text: string): number {
  let n = 0;
  ownMarker.lastIndex = 0;
  while (ownMarker.exec(text) !== null) n++;
  return n;
}

/** Existing markers (ours, and bare `[REDACTED]` placeholders some agents write): never touched again. */
const existingMarker = /\[REDACTED(?::[A-Za-z0-9_.-]{1,64})?\]/g;
const maxDepth = 1000;
/** Views of views (a base64 run inside URL-encoded text…) are followed this deep. */
const maxViewDepth = 2;
const runStop = /[\s"'`\\]/;

interface CompiledPattern {
  readonly id: string;
  readonly regex: RegExp;
  readonly groups: readonly (number | string)[];
  readonly keywords?: readonly string[];
  readonly precheck?: SecretPattern['precheck'];
  readonly validate?: SecretPattern['validate'];
  readonly runCap?: number;
  readonly heuristic: boolean;
  /** Built-in (gets the filler guard); user patterns are taken as they are. */
  readonly builtin: boolean;
  readonly priority: number;
}

interface Span {
  start: number;
  end: number;
  id: string;
  priority: number;
  /** A pre-existing marker: kept as is, and any candidate touching it is dropped. */
  marker: boolean;
}

/**
 * Non-overlapping spans sorted by start. A candidate inside an accepted span is dropped. A
 * credential-format candidate partly overlapping accepted spans is merged with them (keeping the
 * higher-priority id) so no part of a secret stays visible; a heuristic one (its value runs to the
 * next blank, so the overhang is usually URL/connection-string context) is dropped instead. A
 * candidate touching an existing marker is always dropped (idempotence).
 */
class SpanSet {
  readonly spans: Span[] = [];

  add(start: number, end: number, id: string, priority: number, mergeable: boolean, marker = false): void {
    const spans = this.spans;
    let lo = 0;
    let hi = spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid].end <= start) lo = mid + 1;
      else hi = mid;
    }
    let last = lo;
    while (last < spans.length && spans[last].start < end) last++;
    if (last === lo) {
      spans.splice(lo, 0, { start, end, id, priority, marker });
      return;
    }
    const overlapping = spans.slice(lo, last);
    if (!mergeable || overlapping.some((s) => s.marker)) return;
    if (overlapping.length === 1 && overlapping[0].start <= start && overlapping[0].end >= end) return;
    const best = overlapping.reduce((a, b) => (b.priority < a.priority ? b : a));
    const merged: Span = {
      start: Math.min(start, overlapping[0].start),
      end: Math.max(end, overlapping[overlapping.length - 1].end),
      id: best.priority <= priority ? best.id : id,
      priority: Math.min(best.priority, priority),
      marker: false,
    };
    spans.splice(lo, last - lo, merged);
  }
}

/**
 * Documentation fillers in a credential format (`ghp_xxxx…`, `sk_test_XXXX…`, `T00000000/B00000000/XXXX…`):
 * one character makes up half the candidate, or a long candidate has under 2.5 bits/char of entropy.
 * Real generated credentials never look like this.
 */
function looksLikeFiller(secret: string): boolean {
  const counts = new Map<number, number>();
  let max = 0;
  for (let i = 0; i < secret.length; i++) {
    const c = secret.charCodeAt(i);
    const n = (counts.get(c) ?? 0) + 1;
    counts.set(c, n);
    if (n > max) max = n;
  }
  if (max * 2 >= secret.length) return true;
  return secret.length >= 16 && shannonEntropy(secret) < 2.5;
}

function compile(pattern: SecretPattern, priority: number, builtin: boolean): CompiledPattern {
  const flags = new Set(pattern.regex.flags.split(''));
  flags.add('g');
  flags.add('d');
  flags.delete('y');
  const g = pattern.secretGroup ?? 0;
  return {
    id: pattern.id,
    regex: new RegExp(pattern.regex.source, [...flags].join('')),
    groups: typeof g === 'number' || typeof g === 'string' ? [g] : g,
    keywords: pattern.keywords?.map((k) => k.toLowerCase()),
    precheck: pattern.precheck,
    validate: pattern.validate,
    runCap: pattern.runCap,
    heuristic: pattern.heuristic === true,
    builtin,
    priority,
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Start/end of the secret group of a match (`d` flag), or undefined when none participated. */
function secretRange(m: RegExpExecArray, groups: readonly (number | string)[]): [number, number] | undefined {
  const indices = m.indices;
  if (!indices) return undefined;
  for (const g of groups) {
    const r = typeof g === 'number' ? indices[g] : indices.groups?.[g];
    if (r !== undefined) return [r[0], r[1]];
  }
  return undefined;
}

/**
 * The part of a secret on the next line after a break: more random token characters (a digit or
 * mixed case, no `=` but trailing padding), not a word, a key name or an assignment.
 */
function looksLikeTokenContinuation(part: string): boolean {
  if (part.length === 0) return false;
  if (/=[^=]/.test(part)) return false;
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(part)) return false;
  return /[0-9]/.test(part) || (/[a-z]/.test(part) && /[A-Z]/.test(part) && part.length >= 8);
}

/**
 * Builds a redactor from the built-in patterns plus optional user patterns. Order: credential
 * formats, then user patterns, then the context heuristics (key names, entropy).
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const disabled = new Set(options.disabledIds ?? []);
  const custom = compileCustomPatterns(options.extraPatterns ?? []);
  for (const e of custom.errors) options.logger?.warn(`[Redaction] ignoring custom pattern ${e.id} (${e.reason}): ${e.message}`);
  const builtins = secretPatterns.filter((p) => !disabled.has(p.id));
  const customSet = new Set<SecretPattern>(custom.patterns);
  const ordered = [...builtins.filter((p) => !p.heuristic), ...custom.patterns, ...builtins.filter((p) => p.heuristic)];
  const compiled = ordered.map((p, i) => compile(p, i, !customSet.has(p)));
  const keyedFieldsEnabled = !disabled.has('dotenv-secret');
  // One pass over the text finds which prefilter keywords occur (instead of one indexOf per keyword).
  // The alternation picks the longest keyword at a position, so the shorter ones it starts with are
  // added too, and the scan resumes one character later so overlapping keywords are seen as well.
  const allKeywords = [...new Set(compiled.flatMap((p) => p.keywords ?? []))].sort((a, b) => b.length - a.length);
  const keywordScan = allKeywords.length > 0 ? new RegExp(allKeywords.map(escapeRegExp).join('|'), 'gi') : undefined;
  const prefixesOf = new Map(allKeywords.map((k) => [k, allKeywords.filter((other) => k.startsWith(other))]));
  const presentKeywords = (text: string): Set<string> => {
    const found = new Set<string>();
    if (!keywordScan) return found;
    keywordScan.lastIndex = 0;
    for (let m = keywordScan.exec(text); m !== null; m = keywordScan.exec(text)) {
      for (const k of prefixesOf.get(m[0].toLowerCase()) ?? []) found.add(k);
      keywordScan.lastIndex = m.index + 1;
    }
    return found;
  };

  // re-joined runs are only scanned when a credential format's keyword is in them
  const credentialKeywords = [...new Set(compiled.filter((p) => !p.heuristic).flatMap((p) => p.keywords ?? []))];
  const viewOptions = {
    worthScanning: (s: string) => {
      const lower = s.toLowerCase();
      return credentialKeywords.some((k) => lower.includes(k));
    },
    mayHoldMultiLineSecret: (s: string) => /private[ _]key/i.test(s),
  };

  /**
   * Runs every pattern over `text` (only the credential formats with `credentialOnly`); each
   * accepted candidate goes to `onSpan` (positions in `text`).
   */
  function scan(text: string, onSpan: (start: number, end: number, p: CompiledPattern) => void, credentialOnly = false): void {
    const present = presentKeywords(text);
    for (const p of compiled) {
      if (credentialOnly && p.heuristic) continue;
      if (p.keywords && !p.keywords.some((k) => present.has(k))) continue;
      const regex = p.regex;
      regex.lastIndex = 0;
      for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
        if (m[0].length === 0) {
          regex.lastIndex++;
          continue;
        }
        if (p.precheck && !p.precheck(m)) continue;
        const range = secretRange(m, p.groups);
        if (!range || range[1] <= range[0]) continue;
        const secret = text.slice(range[0], range[1]);
        if (p.validate) {
          let ok = true;
          try {
            ok = p.validate(secret, m, text);
          } catch {
            ok = true; // fail closed: a broken validator must not let a candidate through
          }
          if (!ok) continue;
        }
        if (p.builtin && looksLikeFiller(secret)) continue;
        let end = range[1];
        if (p.runCap !== undefined && end - range[0] >= p.runCap) {
          while (end < text.length && !runStop.test(text[end])) end++;
        }
        onSpan(range[0], end, p);
      }
    }
  }

  /** Spans of `text` to redact: the patterns on the text itself, then on its other readings (encodedForms.ts). */
  function spansOf(text: string, depth: number, credentialOnly = false): SpanSet {
    const set = new SpanSet();
    existingMarker.lastIndex = 0;
    for (let m = existingMarker.exec(text); m !== null; m = existingMarker.exec(text)) {
      set.add(m.index, m.index + m[0].length, '', -1, false, true);
    }
    scan(text, (start, end, p) => set.add(start, end, p.id, p.priority, !p.heuristic), credentialOnly);
    if (depth < maxViewDepth) {
      for (const view of alternateViews(text, viewOptions)) {
        // a decoded text is redacted like any text (its own views included, bounded); re-joined
        // lines only by the credential formats (a key name and the next line's word are not a secret)
        const found = spansOf(view.text, depth + 1, view.seams !== undefined).spans.filter((sp) => !sp.marker);
        if (found.length === 0) continue;
        if (view.whole) {
          // an encoded run holding a secret goes as a whole (its bytes do not map one to one)
          const best = found.reduce((a, b) => (b.priority < a.priority ? b : a));
          set.add(view.whole[0], view.whole[1], best.id, best.priority, true);
          continue;
        }
        for (const sp of found) {
          const start = view.start(sp.start);
          let end = view.end(sp.end - 1);
          if (view.seams) {
            // a re-joined line: only a secret across a line break is new, and a line's continuation
            // counts only when it looks like more of a token (not a word, a key name or an assignment)
            let cut = sp.end;
            const crossed = view.seams.filter((at) => sp.start < at && at < sp.end);
            for (const at of crossed) {
              const next = view.seams.find((x) => x > at) ?? view.text.length;
              if (!looksLikeTokenContinuation(view.text.slice(at, Math.min(next, sp.end)))) {
                cut = at;
                break;
              }
            }
            if (!crossed.some((at) => at < cut)) continue;
            end = view.end(cut - 1);
          }
          set.add(start, end, sp.id, sp.priority, true);
        }
      }
    }
    return set;
  }

  function redact(text: string): RedactionResult {
    if (typeof text !== 'string' || text.length === 0) return { text, count: 0, byId: {} };
    const set = spansOf(text, 0);
    const byId: Record<string, number> = {};
    let count = 0;
    let out = '';
    let pos = 0;
    for (const s of set.spans) {
      if (s.marker) continue;
      out += text.slice(pos, s.start) + redactionMarker(s.id);
      pos = s.end;
      count++;
      byId[s.id] = (byId[s.id] ?? 0) + 1;
    }
    if (count === 0) return { text, count: 0, byId };
    return { text: out + text.slice(pos), count, byId };
  }

  function redactDeep<T>(value: T): DeepRedactionResult<T> {
    const byId: Record<string, number> = {};
    let count = 0;
    const seen = new Map<object, unknown>();
    const tally = (id: string, n: number): void => {
      byId[id] = (byId[id] ?? 0) + n;
      count += n;
    };
    const field = (text: string, key: string | undefined): string => {
      const r = redact(text);
      if (r.count > 0) {
        for (const [id, n] of Object.entries(r.byId)) tally(id, n);
        return r.text;
      }
      if (keyedFieldsEnabled && key !== undefined && assessAssignment(key, text, { quoted: true, style: 'field' })) {
        tally('dotenv-secret', 1);
        return redactionMarker('dotenv-secret');
      }
      return text;
    };
    const visit = (v: unknown, key: string | undefined, depth: number): unknown => {
      if (typeof v === 'string') return field(v, key);
      if (v === null || typeof v !== 'object') return v;
      const known = seen.get(v);
      if (known !== undefined) return known;
      if (depth > maxDepth) {
        tally('too-deep', 1);
        return redactionMarker('too-deep');
      }
      if (Array.isArray(v)) {
        const out: unknown[] = [];
        seen.set(v, out);
        for (const item of v) out.push(visit(item, undefined, depth + 1));
        return out;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return v;
      const out: Record<string, unknown> = {};
      seen.set(v, out);
      for (const [k, item] of Object.entries(v)) out[k] = visit(item, k, depth + 1);
      return out;
    };
    const result = visit(value, undefined, 0) as T;
    return { value: result, count, byId };
  }

  return {
    redact,
    redactDeep,
    patternIds: [...new Set(compiled.map((p) => p.id))],
    errors: custom.errors,
  };
}
