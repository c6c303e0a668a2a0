/**
 * Repository paths, the one home for their rules (issue #17 part 3): what git stores (POSIX,
 * relative to the work tree), what the editor and the agents give us (absolute, in the platform's
 * form), and how the two meet. macOS and Windows file systems ignore case by default, so there
 * a path under `/Users/Ann/Proj` belongs to the folder `/users/ann/proj`. Pure: the platform's
 * rules are passed in (`pathRulesFor(process.platform)`, once, in the node layer:
 * `src/node/util/hostPaths.ts`).
 */
import * as posix from 'node:path/posix';
import * as win32 from 'node:path/win32';

export interface PathRules {
  /** How absolute paths are spelled: `/a/b` or `C:\a\b`. */
  flavor: 'posix' | 'win32';
  /** Whether two spellings that differ only in case name the same file. */
  caseInsensitive: boolean;
}

/** The rules of a platform (`process.platform`): Windows and macOS compare paths without case. */
export function pathRulesFor(platform: string): PathRules {
  if (platform === 'win32') return { flavor: 'win32', caseInsensitive: true };
  return { flavor: 'posix', caseInsensitive: platform === 'darwin' };
}

function lib(rules: PathRules): typeof posix {
  return rules.flavor === 'win32' ? win32 : posix;
}

/** A relative path in git's spelling: `/` separators, no leading `./`. */
export function toPosixPath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
}

/** True when the repository-relative path `rel` is `.git` or inside it. */
export function isInGitDir(rel: string, rules?: PathRules): boolean {
  const first = toPosixPath(rel).split('/')[0];
  return rules?.caseInsensitive ? first.toLowerCase() === '.git' : first === '.git';
}

/** True when the absolute path `p` is `dir` itself or inside it (by the platform's case rule). */
export function isInsideDir(dir: string, p: string, rules: PathRules): boolean {
  return relativeInside(dir, p, rules) !== undefined;
}

/** `p` relative to `dir` in POSIX spelling ('' for `dir` itself), or undefined when `p` is outside or relative. */
function relativeInside(dir: string, p: string, rules: PathRules): string | undefined {
  const l = lib(rules);
  if (!l.isAbsolute(p) || !l.isAbsolute(dir)) return undefined;
  const d = l.resolve(dir);
  const a = l.resolve(p);
  const key = (s: string): string => (rules.caseInsensitive ? s.toLowerCase() : s);
  if (key(a) === key(d)) return '';
  const prefix = d.endsWith(l.sep) ? d : d + l.sep;
  if (!key(a).startsWith(key(prefix))) return undefined;
  return a.slice(prefix.length).split(l.sep).join('/');
}

/**
 * The repository-relative POSIX path of the absolute path `abs` inside the work tree `root`, or
 * undefined when it is outside, is the root itself, or is in `.git`.
 */
export function repoRelativePath(root: string, abs: string, rules: PathRules): string | undefined {
  const rel = relativeInside(root, abs, rules);
  if (!rel || isInGitDir(rel, rules)) return undefined;
  return rel;
}

/**
 * A repository-relative path from untrusted input: not empty, not absolute, no `..` segment, no
 * NUL, not inside `.git`. (Line breaks are legal in file names: git's `-z` and C-quoted `--stdin`
 * protocols carry them.)
 */
export function isSafeRelPath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096) return false;
  if (value.includes('\0')) return false;
  const p = value.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return false;
  const parts = p.split('/');
  if (parts.some((s) => s === '..')) return false;
  const first = parts.find((s) => s !== '' && s !== '.');
  return first !== undefined && first.toLowerCase() !== '.git';
}
