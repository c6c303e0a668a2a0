/**
 * `.agentnoteignore` (docs/note-format.md §3.7), matching the Agent Note CLI exactly.
 * Matched files are flagged `ai_ratio_excluded: true`: they stay in `files[]` with their `by_ai`
 * but leave line counting, the completeness check and the file-level denominator.
 *
 * Syntax (a gitignore look-alike, deliberately smaller):
 * - lines split on `\r?\n` and trimmed; blank lines and `#` comments are skipped;
 * - a leading `!` negates (the rest is trimmed again; empty or `#…` ⇒ skipped);
 * - a trailing `/` makes a directory pattern, a leading `/` anchors it; then all leading and
 *   trailing slashes are stripped;
 * - `**` matches anything including `/`, `*` anything but `/`, `?` one non-`/` character; every
 *   other character is literal (no `[…]` classes, no backslash escapes);
 * - a pattern containing `/` (or anchored) must match from the start of the path, otherwise it may
 *   start after any `/`; a directory pattern or a pattern without `/` also matches everything
 *   below the match (`/…`), otherwise it must match to the end;
 * - case-sensitive; the last matching pattern wins.
 * Patterns are rejected as too complex when longer than 200 characters, with more than 10 wildcard
 * tokens (`**` and `*` count once each), or containing `***` or the literal `*.*` (so `dist/*.*`
 * is dropped — a CLI quirk we keep for identical results). Note that `**\/x` does not match a
 * top-level `x` (the pattern contains `/`, so it is anchored and needs a `/` before `x`).
 */
import { toPosixPath } from '../git/repoPath';

export interface IgnorePattern {
  /** The line as written (trimmed). */
  source: string;
  /** 1-based line number in the file. */
  line: number;
  negated: boolean;
  regex: RegExp;
}

export type IgnoreRejectReason = 'tooLong' | 'tooManyWildcards' | 'overlappingWildcards';

export interface IgnoreRejection {
  source: string;
  line: number;
  reason: IgnoreRejectReason;
}

const maxPatternLength = 200;
const maxWildcardTokens = 10;

export class AgentnoteIgnore {
  /** The file name, at the repository root. */
  static readonly fileName = '.agentnoteignore';
  static readonly empty = new AgentnoteIgnore([], []);

  private constructor(
    readonly patterns: readonly IgnorePattern[],
    readonly rejected: readonly IgnoreRejection[],
  ) {}

  /** Parses the file contents. Never throws; complex patterns end up in `rejected`. */
  static parse(text: string): AgentnoteIgnore {
    const patterns: IgnorePattern[] = [];
    const rejected: IgnoreRejection[] = [];
    text.split(/\r?\n/).forEach((raw, index) => {
      const line = index + 1;
      const trimmed = raw.trim();
      if (!trimmed || trimmed.startsWith('#')) return;
      const negated = trimmed.startsWith('!');
      const body = negated ? trimmed.slice(1).trim() : trimmed;
      if (!body || body.startsWith('#')) return;
      const directory = body.endsWith('/');
      const anchored = body.startsWith('/');
      const pattern = body.replace(/^\/+/, '').replace(/\/+$/, '');
      if (!pattern) return;
      const reason = complexity(pattern);
      if (reason) {
        rejected.push({ source: trimmed, line, reason });
        return;
      }
      const hasSlash = pattern.includes('/');
      const prefix = anchored || hasSlash ? '^' : '(?:^|/)';
      const suffix = directory || !hasSlash ? '(?:/.*)?$' : '$';
      patterns.push({ source: trimmed, line, negated, regex: new RegExp(`${prefix}${globToRegex(pattern)}${suffix}`) });
    });
    return new AgentnoteIgnore(patterns, rejected);
  }

  /** True when the repo-relative path is excluded (last matching pattern wins). */
  ignores(path: string): boolean {
    const normalized = toPosixPath(path);
    let ignored = false;
    for (const p of this.patterns) if (p.regex.test(normalized)) ignored = !p.negated;
    return ignored;
  }
}

function complexity(pattern: string): IgnoreRejectReason | undefined {
  if (pattern.length > maxPatternLength) return 'tooLong';
  if ((pattern.match(/\*\*|\*/g)?.length ?? 0) > maxWildcardTokens) return 'tooManyWildcards';
  if (/\*{3,}|\*\.\*/.test(pattern)) return 'overlappingWildcards';
  return undefined;
}

function globToRegex(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        out += '.*';
        i++;
      } else {
        out += '[^/]*';
      }
    } else if (ch === '?') {
      out += '[^/]';
    } else {
      out += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return out;
}
