/**
 * Structural evidence about one prompt relative to one commit: the `selection.signals` of schema v1
 * (docs/note-format.md §4.2), the tokenizers they are built from, and the small
 * "commit signature" (paths, basenames, diff identifiers, subject tokens) shared by prompt-window
 * selection (§4.1), display contexts (§4.3) and render-time scoring.
 *
 * Everything here is language-neutral: no keyword lists of any natural language, only shapes
 * (paths, code identifiers, list markers, CJK/Hangul detection). The regular expressions mirror
 * the Agent Note CLI v1.0.8 so that the same prompt gets the same signals in both tools.
 */

import { selectionSignalOrder, type SelectionSignal, type SelectionSource } from './noteTypes';

/**
 * Words that never count as a commit anchor: generic verbs and file-format acronyms. Compared
 * lower-cased against diff identifiers (so `TODO`, `JSON`, `HTTP` are not identifiers) and
 * against context subject tokens.
 */
export const genericWords: ReadonlySet<string> = new Set([
  'agent',
  'agentnote',
  'add',
  'added',
  'adds',
  'build',
  'case',
  'change',
  'commit',
  'context',
  'diff',
  'file',
  'files',
  'fix',
  'html',
  'http',
  'https',
  'implement',
  'implemented',
  'implements',
  'json',
  'note',
  'prompt',
  'record',
  'remove',
  'removed',
  'removes',
  'response',
  'test',
  'tests',
  'todo',
  'turn',
  'update',
  'updated',
  'updates',
  'utf8',
  'yaml',
]);

const camelOrPascalIdentifier = /\b[A-Za-z_$]*[a-z][A-Za-z0-9_$]*[A-Z][A-Za-z0-9_$]*\b/g;
const snakeIdentifier = /\b[a-z][a-z0-9]*_[a-z][a-z0-9_]*[a-z0-9]\b/g;
const allCapsIdentifier = /\b[A-Z][A-Z0-9_]{2,}\b/g;
const wordRun = /[A-Za-z0-9_]+/g;
const cjkOrHangul = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Minimum length of a selection token, and of a sub-part split off on `./_-`. */
const selectionTokenMinChars = 2;
const selectionTokenPartMinChars = 3;
/** Minimum length of a context subject token. */
const subjectTokenMinChars = 3;
/** "Short prompt" bounds shared by the bridge signal and the render-time role. */
const shortPromptMaxChars = 120;
const shortPromptMaxWords = 12;
/** Quoted-history thresholds (§4.1). */
const quotedLabelMinChars = 300;
const quotedIndentMinChars = 500;
const quotedIndentMinLines = 8;

/** Escape a literal for use inside a RegExp source. */
export function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Last path segment (forward slashes). */
export function pathBasename(path: string): string {
  return path.split('/').pop() ?? path;
}

// ---------------------------------------------------------------------------------------------
// Tokenizers

/**
 * Tokens used for `commit_subject_overlap` and the prompt-window text score: camelCase is split,
 * every run of characters other than letters, digits and `_-./` becomes a space, the text is
 * lower-cased; tokens of ≥ 2 chars are kept, plus their sub-parts split on `./_-` of ≥ 3 chars.
 */
export function tokenizeSelectionText(text: string): Set<string> {
  const tokens = new Set<string>();
  const normalized = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[^\p{L}\p{N}_\-./]+/gu, ' ')
    .toLowerCase();
  for (const raw of normalized.split(/\s+/)) {
    if (raw.length < selectionTokenMinChars) continue;
    tokens.add(raw);
    for (const part of raw.split(/[./_-]/)) {
      if (part.length >= selectionTokenPartMinChars) tokens.add(part);
    }
  }
  return tokens;
}

/**
 * Subject tokens used by display contexts (§4.3): lower-cased, split on anything but letters,
 * digits, `_` and `-`, length ≥ 3, generic words removed, first-seen order, unique.
 */
export function tokenizeSubject(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}_-]+/u)) {
    const token = raw.trim();
    if (token.length < subjectTokenMinChars || genericWords.has(token) || seen.has(token)) continue;
    seen.add(token);
    out.push(token);
  }
  return out;
}

/**
 * Code identifiers of a commit patch (`git show --format= --patch --unified=0` output, headers
 * included): camel/Pascal case with a lower→upper transition, snake_case, ALL_CAPS of ≥ 3 chars;
 * generic words (compared lower-cased) are dropped. Insertion order, unique.
 */
export function extractDiffIdentifiers(patch: string): Set<string> {
  const identifiers = new Set<string>();
  for (const pattern of [camelOrPascalIdentifier, snakeIdentifier, allCapsIdentifier]) {
    for (const match of patch.matchAll(pattern)) {
      const identifier = match[0];
      if (genericWords.has(identifier.toLowerCase())) continue;
      identifiers.add(identifier);
    }
  }
  return identifiers;
}

/** True when the text contains a Han, Hiragana, Katakana or Hangul character. */
export function hasCjkOrHangul(text: string): boolean {
  return cjkOrHangul.test(text);
}

// ---------------------------------------------------------------------------------------------
// Commit signature

/**
 * Everything about the commit that prompt selection and contexts compare against, precomputed
 * once per commit. Build it with {@link buildCommitSignature}.
 */
export interface CommitSignature {
  readonly subject: string;
  /** Commit paths (forward slashes, unique, commit order). */
  readonly files: readonly string[];
  /** Non-empty basenames of `files`, unique. */
  readonly basenames: readonly string[];
  /** Diff identifiers (see {@link extractDiffIdentifiers}). */
  readonly identifiers: ReadonlySet<string>;
  /** Context subject tokens (see {@link tokenizeSubject}). */
  readonly subjectTokens: readonly string[];
  /** Selection tokens of the subject alone (commit_subject_overlap). */
  readonly subjectSelectionTokens: ReadonlySet<string>;
  /** Selection tokens of subject + paths (prompt-window text score). */
  readonly commitSelectionTokens: ReadonlySet<string>;
  /** Fast identifier matcher. */
  readonly identifierMatcher: IdentifierMatcher;
}

/** Commit facts a signature is built from. */
export interface CommitInfo {
  /** `git show -s --format=%s` */
  subject: string;
  /** Commit paths in diff-tree order (repo-relative). */
  files: readonly string[];
  /** `git show --format= --patch --unified=0 <sha>` output; only scanned for identifiers. */
  patch: string;
}

/** Build the commit signature (paths normalized to forward slashes). */
export function buildCommitSignature(commit: CommitInfo): CommitSignature {
  const files = unique(commit.files.map((f) => f.replaceAll('\\', '/')));
  const basenames = unique(files.map(pathBasename));
  const identifiers = extractDiffIdentifiers(commit.patch);
  return {
    subject: commit.subject,
    files,
    basenames,
    identifiers,
    subjectTokens: tokenizeSubject(commit.subject),
    subjectSelectionTokens: tokenizeSelectionText(commit.subject),
    commitSelectionTokens: tokenizeSelectionText(`${commit.subject}\n${files.join('\n')}`),
    identifierMatcher: new IdentifierMatcher(identifiers),
  };
}

/**
 * Word-bounded, case-sensitive identifier lookup (`\bID\b`). An identifier made only of word
 * characters matches exactly when it equals a maximal `[A-Za-z0-9_]+` run of the text, so those
 * are looked up in a set; identifiers containing `$` fall back to a RegExp.
 */
export class IdentifierMatcher {
  private readonly plain = new Set<string>();
  private readonly special: { id: string; re: RegExp }[] = [];

  constructor(identifiers: Iterable<string>) {
    for (const id of identifiers) {
      if (/^[A-Za-z0-9_]+$/.test(id)) this.plain.add(id);
      else this.special.push({ id, re: new RegExp(`\\b${escapeRegExp(id)}\\b`) });
    }
  }

  /** Number of distinct identifiers found in the text. */
  count(text: string): number {
    let hits = 0;
    if (this.plain.size > 0) {
      const seen = new Set<string>();
      for (const m of text.matchAll(wordRun)) {
        if (this.plain.has(m[0]) && !seen.has(m[0])) {
          seen.add(m[0]);
          hits += 1;
        }
      }
    }
    for (const s of this.special) if (s.re.test(text)) hits += 1;
    return hits;
  }

  /** True when at least one identifier occurs in the text. */
  any(text: string): boolean {
    if (this.plain.size > 0) {
      for (const m of text.matchAll(wordRun)) if (this.plain.has(m[0])) return true;
    }
    return this.special.some((s) => s.re.test(text));
  }
}

// ---------------------------------------------------------------------------------------------
// Text predicates

/** Prompt contains a committed path (case-insensitive substring). */
export function containsCommitPath(text: string, files: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return files.some((file) => lower.includes(file.toLowerCase()));
}

/** Text contains a committed basename (case-insensitive substring). */
export function containsCommitBasename(text: string, basenames: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return basenames.some((b) => b.length > 0 && lower.includes(b.toLowerCase()));
}

/** Any selection token shared by the prompt and the commit subject. */
export function hasCommitSubjectOverlap(prompt: string, sig: CommitSignature): boolean {
  for (const token of tokenizeSelectionText(prompt)) if (sig.subjectSelectionTokens.has(token)) return true;
  return false;
}

/** Some line starts with `-`, `*` or `N.` followed by whitespace. */
export function hasListOrChecklistShape(text: string): boolean {
  return /^\s*(?:[-*]|\d+\.)\s/m.test(text);
}

/** At least two non-blank lines. */
export function hasMultiLineInstruction(text: string): boolean {
  return (
    text
      .trim()
      .split('\n')
      .filter((line) => line.trim().length > 0).length >= 2
  );
}

const backtickSpan = /`[^`]+`/;
const pathLikeToken = /(^|\s)(?:\.{0,2}\/|~\/|[A-Za-z0-9_.-]+\/)[^\s]+/;
const cliFlag = /--[a-z0-9-]+/i;

/** A backtick span, a path-like token (`./`, `../`, `~/`, `word/…`) or a `--flag`. */
export function hasInlineCodeOrPathShape(text: string): boolean {
  return backtickSpan.test(text) || pathLikeToken.test(text) || cliFlag.test(text);
}

/**
 * ≥ 7 word tokens; or ≥ 4 tokens plus `?`/`？` or CJK/Hangul; or CJK/Hangul with ≥ 12 non-space
 * characters (code points).
 */
export function hasSubstantivePromptShape(text: string): boolean {
  const trimmed = text.trim();
  const compact = trimmed.replace(/\s+/g, '');
  if (!compact) return false;
  const words = text.match(/[\p{L}\p{N}_-]+/gu)?.length ?? 0;
  const cjk = hasCjkOrHangul(trimmed);
  if (words >= 7) return true;
  if (words >= 4 && (/[?？]/.test(trimmed) || cjk)) return true;
  return cjk && [...compact].length >= 12;
}

/** Short prompt: ≤ 120 chars and ≤ 12 whitespace-separated words (blank counts as short). */
export function isShortSelectionPrompt(prompt: string): boolean {
  const trimmed = prompt.trim();
  if (!trimmed) return true;
  return trimmed.length <= shortPromptMaxChars && trimmed.split(/\s+/).length <= shortPromptMaxWords;
}

/**
 * Copied prompt/response history (§4.1): both "🧑 Prompt" and "🤖 Response"; or both "Prompt: "
 * and "Response: " in a prompt longer than 300 chars; or a prompt longer than 500 chars with at
 * least 8 lines indented by ≥ 2 whitespace characters.
 */
export function isQuotedHistory(prompt: string): boolean {
  if (/🧑\s*Prompt/u.test(prompt) && /🤖\s*Response/u.test(prompt)) return true;
  if (/\bPrompt:\s/.test(prompt) && /\bResponse:\s/.test(prompt) && prompt.length > quotedLabelMinChars) return true;
  const indented = prompt.match(/^\s{2,}\S/gm)?.length ?? 0;
  return prompt.length > quotedIndentMinChars && indented >= quotedIndentMinLines;
}

/** A prompt of at most one character after trimming. */
export function isTinyPrompt(prompt: string): boolean {
  return prompt.trim().length <= 1;
}

/** Hard-excluded prompts (§4.1): not primary and quoted history or tiny. */
export function isHardExcludedPrompt(prompt: string, isPrimary: boolean): boolean {
  if (isPrimary) return false;
  return isQuotedHistory(prompt) || isTinyPrompt(prompt);
}

/** The response mentions a committed path, basename or diff identifier (window response anchor). */
export function responseAnchorsCommit(response: string | null | undefined, sig: CommitSignature): boolean {
  if (!response) return false;
  return containsCommitPath(response, sig.files) || containsCommitBasename(response, sig.basenames) || sig.identifierMatcher.any(response);
}

// ---------------------------------------------------------------------------------------------
// Signals

/** What the signals of one interaction are computed from. */
export interface SignalCandidate {
  prompt: string;
  /** The stored response (null when unknown). */
  response: string | null;
  source: SelectionSource;
  /** Turn equals the window's upper turn. */
  beforeCommitBoundary: boolean;
  /** The interaction at index −1 or +1 of the final list is not hard-excluded. */
  adjacentNonExcluded: boolean;
}

/**
 * All `selection.signals` of §4.2 that hold for the candidate, deduplicated, in canonical order.
 * `primary_edit_turn` is set exactly when the source is `primary`.
 */
export function collectSelectionSignals(c: SignalCandidate, sig: CommitSignature): SelectionSignal[] {
  const found = new Set<SelectionSignal>();
  const prompt = c.prompt;
  const response = c.response ?? '';
  if (c.source === 'primary') found.add('primary_edit_turn');
  if (containsCommitPath(prompt, sig.files)) found.add('exact_commit_path');
  if (containsCommitBasename(prompt, sig.basenames)) found.add('commit_file_basename');
  if (sig.identifierMatcher.any(prompt)) found.add('diff_identifier');
  if (response && containsCommitPath(response, sig.files)) found.add('response_exact_commit_path');
  if (response && (containsCommitBasename(response, sig.basenames) || sig.identifierMatcher.any(response))) {
    found.add('response_basename_or_identifier');
  }
  if (hasCommitSubjectOverlap(prompt, sig)) found.add('commit_subject_overlap');
  if (hasListOrChecklistShape(prompt)) found.add('list_or_checklist_shape');
  if (hasMultiLineInstruction(prompt)) found.add('multi_line_instruction');
  if (hasInlineCodeOrPathShape(prompt)) found.add('inline_code_or_path_shape');
  if (hasSubstantivePromptShape(prompt)) found.add('substantive_prompt_shape');
  if (c.beforeCommitBoundary) found.add('before_commit_boundary');
  if (c.adjacentNonExcluded && isShortSelectionPrompt(prompt)) found.add('between_non_excluded_prompts');
  return sortSignals(found);
}

/** Deduplicate and put signals in the canonical order; unknown names are dropped. */
export function sortSignals(signals: Iterable<string>): SelectionSignal[] {
  const set = new Set<string>(signals);
  return selectionSignalOrder.filter((s) => set.has(s));
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter((v) => v.length > 0))];
}
