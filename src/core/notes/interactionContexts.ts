/**
 * Display-only contexts of an interaction (docs/note-format.md §1.3, §4.3):
 *
 * - **reference**: up to two paragraphs of the *previous* turn's response that anchor the commit
 *   (a committed path, basename or diff identifier), for a prompt that has no anchor of its own
 *   and whose previous turn is not itself in the note;
 * - **scope**: one or two sentences of the *current* response that say what a short prompt
 *   ("go ahead", "continue") actually did.
 *
 * The combined block is capped at 900 characters; contexts are dropped, never truncated.
 * Contexts never influence attribution or prompt selection. Behaviour mirrors the Agent Note CLI
 * v1.0.8 so that notes written by either tool carry the same contexts.
 */

import type { NoteContext } from './noteTypes';
import { escapeRegExp, tokenizeSubject, type CommitSignature } from './selectionSignals';

/** Cap of the combined context block (texts + 2 chars per separator). */
export const maxContextChars = 900;
const separatorChars = 2;
const maxReferenceParagraphs = 2;
const maxScopePromptChars = 120;
const maxScopePromptLines = 3;
const maxScopeLines = 10;
const maxScopeSentences = 4;
const minScopeScore = 2;
const referenceRank = 3;
const structuralWeight = 2;
const scopedTitleMinSubjectHits = 2;
const sentenceLookaheadChars = 16;

const issueOrPrReference = /\b(?:PR|Issue|GH)[\s#-]*\d+\b|#\d+\b/iu;
const markdownFileReference = /(?:^|[\s("'`])(?:\.{0,2}\/)?[A-Za-z0-9_.-]+\/[^\s"'`]+\.[A-Za-z0-9]{1,8}\b/;
const localAbsolutePath = /(?:^|[\s("'`])(?:\/Users\/|\/home\/|[A-Za-z]:\\)/;

/** A context with the priority used when the 900-char budget forces a choice. */
export interface RankedContext extends NoteContext {
  /** reference: 3; scope: its structural score. Higher survives first. */
  rank: number;
}

// ---------------------------------------------------------------------------------------------
// Text splitting

/**
 * Paragraphs separated by blank lines; a blank line inside a ``` fence does not split. Lines are
 * right-trimmed, paragraphs trimmed, empty ones dropped.
 */
export function splitParagraphs(text: string): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let inFence = false;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line.trim().startsWith('```')) {
      inFence = !inFence;
      current.push(line);
      continue;
    }
    if (!inFence && line.trim() === '') {
      if (current.length > 0) {
        paragraphs.push(current.join('\n').trim());
        current = [];
      }
      continue;
    }
    current.push(line);
  }
  if (current.length > 0) paragraphs.push(current.join('\n').trim());
  return paragraphs.filter((p) => p.length > 0);
}

/**
 * Scope candidates of a response: its first 10 non-empty lines (list and quote markers
 * stripped) joined by spaces, split into sentences (`.`/`!`/`?` followed by whitespace, except a
 * dot that looks like a file or domain dot; `。！？` always; nothing inside backticks), the first
 * 4 sentences, returned as windows of one and two consecutive sentences in order
 * (s1, s1+s2, s2, s2+s3, …).
 */
export function splitScopeSentences(response: string): string[] {
  const lines = response
    .split('\n')
    .map((line) => stripListOrQuoteMarker(line.trim()))
    .filter(Boolean)
    .slice(0, maxScopeLines);
  const text = lines.join(' ');
  const sentences: string[] = [];
  let current = '';
  let inBacktick = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    current += ch;
    if (ch === '`') {
      inBacktick = !inBacktick;
      continue;
    }
    if (inBacktick) continue;
    if (isSentenceBoundary(text, i)) {
      const sentence = current.trim();
      if (sentence) sentences.push(sentence);
      current = '';
    }
  }
  const rest = current.trim();
  if (rest) sentences.push(rest);

  const leading = sentences.slice(0, maxScopeSentences);
  const windows: string[] = [];
  for (let i = 0; i < leading.length; i++) {
    windows.push(leading[i]);
    const next = leading[i + 1];
    if (next) windows.push(`${leading[i]} ${next}`);
  }
  return windows;
}

function stripListOrQuoteMarker(line: string): string {
  return line
    .replace(/^>\s*/, '')
    .replace(/^(?:[-*]|\d+[.)])\s+/, '')
    .trim();
}

function isSentenceBoundary(text: string, index: number): boolean {
  const ch = text[index];
  if (ch === '。' || ch === '！' || ch === '？') return true;
  if (ch !== '.' && ch !== '!' && ch !== '?') return false;
  const next = text[index + 1] ?? '';
  if (next && !/\s/.test(next)) return false;
  if (ch === '.' && looksLikeFileOrDomainDot(text, index)) return false;
  return true;
}

/**
 * Peer-compatible heuristic: the dot is treated as part of a name when the 32 chars before it,
 * the dot and the next 15 chars end in `name.ext`-like text and the lookahead has a word char.
 */
function looksLikeFileOrDomainDot(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 32), index);
  const after = text.slice(index + 1, index + sentenceLookaheadChars);
  return /[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(`${before}.${after}`) && /\w/.test(after);
}

// ---------------------------------------------------------------------------------------------
// Rejection rules and hit counting

/**
 * Paragraphs/sentences never used as context: an odd number of ``` fences, a Markdown heading or
 * a line ending in `:`/`：` (an intro), operational noise ("working tree", "ready for review",
 * "git diff --check", or "ci" together with pass/passed/green/failed/failure), or a local
 * absolute path (`/Users/`, `/home/`, `X:\`).
 */
export function isRejectedContextText(text: string): boolean {
  return hasBrokenFence(text) || isIntroOnly(text) || isOperationalNoise(text) || localAbsolutePath.test(text);
}

function hasBrokenFence(text: string): boolean {
  return (text.match(/```/g) ?? []).length % 2 !== 0;
}

function isIntroOnly(text: string): boolean {
  const trimmed = text.trim();
  return /^#{1,6}\s+\S/.test(trimmed) || /[:：]\s*$/.test(trimmed);
}

function isOperationalNoise(text: string): boolean {
  const lower = text.toLowerCase();
  return (
    lower.includes('working tree') ||
    lower.includes('ready for review') ||
    (/\bci\b/.test(lower) && /\b(pass|passed|green|failed|failure)\b/.test(lower)) ||
    lower.includes('git diff --check')
  );
}

interface LiteralMatcher {
  re: RegExp;
  /** The literal lower-cased, when it is ASCII: a text without it as a substring cannot match `re`. */
  lower: string | undefined;
}

const literalMatchers = new WeakMap<readonly string[], LiteralMatcher[]>();

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Case-insensitive literal matchers bounded by non-path characters, cached per literal list. */
function matchersFor(literals: readonly string[]): LiteralMatcher[] {
  let res = literalMatchers.get(literals);
  if (!res) {
    res = literals
      .filter((l) => l.length > 0)
      .map((l) => ({
        re: new RegExp(`(^|[^A-Za-z0-9_./-])${escapeRegExp(l)}($|[^A-Za-z0-9_/-])`, 'i'),
        // without the u flag, case-insensitive matching folds ASCII only with ASCII: the substring test is exact
        lower: isAscii(l) ? l.toLowerCase() : undefined,
      }));
    literalMatchers.set(literals, res);
  }
  return res;
}

/**
 * Number of literals (paths or basenames) occurring in the text as whole path-like tokens. A
 * substring test screens out most literals before their regex runs (a 500-file commit has 1,000).
 */
export function countLiteralHits(text: string, literals: readonly string[]): number {
  let hits = 0;
  const lower = text.toLowerCase();
  for (const m of matchersFor(literals)) {
    if (m.lower !== undefined && !lower.includes(m.lower)) continue;
    if (m.re.test(text)) hits += 1;
  }
  return hits;
}

/** Number of context subject tokens of the commit found among the text's subject tokens. */
export function countSubjectTokenHits(text: string, subjectTokens: readonly string[]): number {
  const textTokens = new Set(tokenizeSubject(text));
  return subjectTokens.filter((t) => textTokens.has(t)).length;
}

/** The prompt has a strong anchor of its own: a committed path, basename or diff identifier. */
export function hasStrongAnchor(text: string, sig: CommitSignature): boolean {
  return countLiteralHits(text, sig.files) > 0 || countLiteralHits(text, sig.basenames) > 0 || sig.identifierMatcher.any(text);
}

function isShortScopePrompt(prompt: string): boolean {
  const trimmed = prompt.trim();
  const lines = trimmed
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return trimmed.length <= maxScopePromptChars && lines.length <= maxScopePromptLines;
}

// ---------------------------------------------------------------------------------------------
// Reference context

/** Inputs of the reference context of one interaction. */
export interface ReferenceCandidate {
  prompt: string;
  /** Response of turn − 1 of the same session (trimmed), or null. */
  previousResponse: string | null;
  /** Turn − 1 is itself an interaction of this note. */
  previousTurnSelected: boolean;
}

interface ParagraphScore {
  paragraph: string;
  index: number;
  exactPathHits: number;
  basenameHits: number;
  identifierHits: number;
  subjectTokenHits: number;
}

/**
 * Reference text from the previous response, or undefined. Paragraphs that are not rejected and
 * have at least one path, basename or identifier hit are ranked by exact-path, basename,
 * identifier and subject-token hits, then position; the top two are taken in original order while
 * they fit into min(900, previous response length) characters (joined by a blank line).
 */
export function selectReferenceContext(c: ReferenceCandidate, sig: CommitSignature): string | undefined {
  if (c.previousTurnSelected) return undefined;
  if (!c.previousResponse) return undefined;
  if (hasStrongAnchor(c.prompt, sig)) return undefined;

  const scored: ParagraphScore[] = splitParagraphs(c.previousResponse)
    .filter((p) => !isRejectedContextText(p))
    .map((paragraph, index) => ({
      paragraph,
      index,
      exactPathHits: countLiteralHits(paragraph, sig.files),
      basenameHits: countLiteralHits(paragraph, sig.basenames),
      identifierHits: sig.identifierMatcher.count(paragraph),
      subjectTokenHits: countSubjectTokenHits(paragraph, sig.subjectTokens),
    }))
    .filter((s) => s.exactPathHits > 0 || s.basenameHits > 0 || s.identifierHits > 0)
    .sort(
      (a, b) =>
        b.exactPathHits - a.exactPathHits ||
        b.basenameHits - a.basenameHits ||
        b.identifierHits - a.identifierHits ||
        b.subjectTokenHits - a.subjectTokenHits ||
        a.index - b.index,
    );
  if (scored.length === 0) return undefined;

  const budget = Math.min(maxContextChars, c.previousResponse.length);
  const picked = scored.slice(0, maxReferenceParagraphs).sort((a, b) => a.index - b.index);
  const out: string[] = [];
  let length = 0;
  for (const item of picked) {
    const next = length + item.paragraph.length + (out.length > 0 ? separatorChars : 0);
    if (next > budget) continue;
    out.push(item.paragraph);
    length = next;
  }
  return out.length > 0 ? out.join('\n\n') : undefined;
}

/** Wrap reference text as a ranked context (undefined for blank text). */
export function toReferenceContext(text: string | undefined): RankedContext | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  return { kind: 'reference', source: 'previous_response', text: trimmed, rank: referenceRank };
}

// ---------------------------------------------------------------------------------------------
// Scope context

/** Inputs of the scope context of one interaction. */
export interface ScopeCandidate {
  prompt: string;
  response: string | null;
}

interface ScopeScore {
  context: RankedContext;
  fileHits: number;
  identifierHits: number;
  scopedTitleHits: number;
  issueScopedTitleHits: number;
  markdownIssueHits: number;
  subjectTokenHits: number;
  issueRefHits: number;
  index: number;
}

/**
 * Scope context from the current response, only for a short prompt (≤ 120 chars, ≤ 3 non-blank
 * lines) without a strong anchor. Each sentence window is scored
 * 2×identifier hits + 2×(≥ 2 subject tokens) + 2×(issue/PR ref and ≥ 1 subject token)
 * + 2×(issue ref and Markdown file path) + file hits; it must score ≥ 2 and be structurally
 * valid (file hits need an identifier, a scoped title or issue+file; otherwise a scoped title,
 * issue+file, issue+identifier or identifier+subject token). The best window wins.
 */
export function selectScopeContext(c: ScopeCandidate, sig: CommitSignature): RankedContext | undefined {
  if (!c.response) return undefined;
  if (!isShortScopePrompt(c.prompt)) return undefined;
  if (hasStrongAnchor(c.prompt, sig)) return undefined;

  const scored = splitScopeSentences(c.response)
    .map((sentence, index) => ({ sentence, index }))
    .filter(({ sentence }) => !isRejectedContextText(sentence))
    .map(({ sentence, index }) => scoreScopeSentence(sentence, index, sig))
    .filter(isValidScopeScore)
    .sort(
      (a, b) =>
        b.context.rank - a.context.rank ||
        b.issueScopedTitleHits - a.issueScopedTitleHits ||
        b.markdownIssueHits - a.markdownIssueHits ||
        b.identifierHits - a.identifierHits ||
        b.scopedTitleHits - a.scopedTitleHits ||
        a.index - b.index,
    );
  return scored[0]?.context;
}

function scoreScopeSentence(sentence: string, index: number, sig: CommitSignature): ScopeScore {
  const fileHits = countLiteralHits(sentence, sig.files) + countLiteralHits(sentence, sig.basenames);
  const identifierHits = sig.identifierMatcher.count(sentence);
  const subjectTokenHits = countSubjectTokenHits(sentence, sig.subjectTokens);
  const issueRefHits = issueOrPrReference.test(sentence) ? 1 : 0;
  const scopedTitleHits = subjectTokenHits >= scopedTitleMinSubjectHits ? 1 : 0;
  const issueScopedTitleHits = issueRefHits > 0 && subjectTokenHits > 0 ? 1 : 0;
  const markdownIssueHits = issueRefHits > 0 && markdownFileReference.test(sentence) ? 1 : 0;
  const rank =
    identifierHits * structuralWeight +
    scopedTitleHits * structuralWeight +
    issueScopedTitleHits * structuralWeight +
    markdownIssueHits * structuralWeight +
    fileHits;
  return {
    context: { kind: 'scope', source: 'current_response', text: sentence, rank },
    fileHits,
    identifierHits,
    scopedTitleHits,
    issueScopedTitleHits,
    markdownIssueHits,
    subjectTokenHits,
    issueRefHits,
    index,
  };
}

function isValidScopeScore(s: ScopeScore): boolean {
  if (s.context.rank < minScopeScore) return false;
  const scopedTitle = s.scopedTitleHits > 0 || s.issueScopedTitleHits > 0;
  const issueIdentifier = s.issueRefHits > 0 && s.identifierHits > 0;
  const identifierSubject = s.identifierHits > 0 && s.subjectTokenHits > 0;
  if (s.fileHits > 0) return s.identifierHits > 0 || scopedTitle || s.markdownIssueHits > 0;
  return scopedTitle || s.markdownIssueHits > 0 || issueIdentifier || identifierSubject;
}

// ---------------------------------------------------------------------------------------------
// Composition and legacy conversion

const kindOrder = { reference: 0, scope: 1 } as const;

/**
 * Final contexts of one interaction: blank ones dropped, duplicates (same trimmed text) removed,
 * and, when the block (texts + 2 chars per separator) exceeds `maxChars`, the highest-ranked
 * contexts that still fit are kept (ties: reference first). Display order: reference, then scope.
 */
export function composeContexts(contexts: ReadonlyArray<RankedContext | undefined>, maxChars = maxContextChars): NoteContext[] {
  const uniq = dedupeRanked(contexts.filter((c): c is RankedContext => c !== undefined));
  if (uniq.length === 0) return [];
  if (blockLength(uniq) <= maxChars) return sortForDisplay(uniq).map(stripRank);

  const kept: RankedContext[] = [];
  const byRank = [...uniq].sort((a, b) => b.rank - a.rank || kindOrder[a.kind] - kindOrder[b.kind]);
  for (const c of byRank) {
    if (c.text.length > maxChars) continue;
    if (blockLength([...kept, c]) <= maxChars) kept.push(c);
  }
  return sortForDisplay(kept).map(stripRank);
}

/**
 * Reader-side normalisation of an interaction's contexts (§1.3): a legacy `context` string
 * becomes a `reference`/`previous_response` context placed before `contexts[]`; texts are
 * trimmed, blank ones dropped, duplicates (same trimmed text) removed, first one wins.
 * Malformed entries (non-object, unknown kind or source, non-string text) are skipped.
 */
export function normalizeInteractionContexts(interaction: { context?: unknown; contexts?: unknown }): NoteContext[] {
  const out: NoteContext[] = [];
  const seen = new Set<string>();
  const add = (kind: NoteContext['kind'], source: NoteContext['source'], text: string): void => {
    const trimmed = text.trim();
    if (!trimmed || seen.has(trimmed)) return;
    seen.add(trimmed);
    out.push({ kind, source, text: trimmed });
  };
  if (typeof interaction.context === 'string') add('reference', 'previous_response', interaction.context);
  if (Array.isArray(interaction.contexts)) {
    for (const c of interaction.contexts as unknown[]) {
      if (!c || typeof c !== 'object') continue;
      const { kind, source, text } = c as Record<string, unknown>;
      if (typeof text !== 'string') continue;
      if (kind !== 'reference' && kind !== 'scope') continue;
      if (source !== 'previous_response' && source !== 'current_response') continue;
      add(kind, source, text);
    }
  }
  return out;
}

function dedupeRanked(contexts: RankedContext[]): RankedContext[] {
  const seen = new Set<string>();
  const out: RankedContext[] = [];
  for (const c of contexts) {
    const text = c.text.trim();
    if (!text || seen.has(text)) continue;
    seen.add(text);
    out.push({ ...c, text });
  }
  return out;
}

function blockLength(contexts: readonly RankedContext[]): number {
  return contexts.reduce((n, c, i) => n + c.text.length + (i > 0 ? separatorChars : 0), 0);
}

function sortForDisplay(contexts: RankedContext[]): RankedContext[] {
  return [...contexts].sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind] || b.rank - a.rank);
}

function stripRank(c: RankedContext): NoteContext {
  return { kind: c.kind, source: c.source, text: c.text };
}
