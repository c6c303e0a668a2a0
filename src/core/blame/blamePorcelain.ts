import { isNullObjectId, objectIdSource } from '../git/objectId';

/** One blamed line of `git blame --porcelain` output. */
export interface BlameLine {
  /** Commit that last changed the line; all zeros for uncommitted lines. */
  sha: string;
  /** Line number in that commit's version of the file (1-based). */
  origLine: number;
  /** Line number in the blamed version (1-based). */
  line: number;
}

export interface BlameCommitInfo {
  sha: string;
  author: string;
  authorTime: number;
  summary: string;
  filename: string;
  /**
   * Set when blame stopped at this commit because its parents were outside the blamed range: the
   * lines blamed to it may come from it or from an older commit.
   */
  boundary?: boolean;
}

export interface BlameResult {
  lines: BlameLine[];
  commits: Map<string, BlameCommitInfo>;
}

/** What blame reports for lines that are not committed yet (SHA-1 length; see `isUncommitted`). */
export const uncommittedSha = '0000000000000000000000000000000000000000';

/** True for blame's id of uncommitted lines, in a SHA-1 or a SHA-256 repository. */
export function isUncommitted(sha: string): boolean {
  return isNullObjectId(sha);
}

const headerPattern = new RegExp(`^(${objectIdSource}) (\\d+) (\\d+)(?: \\d+)?$`);

/** Parses `git blame --porcelain` (headers repeat commit info only on first appearance). */
export function parseBlamePorcelain(text: string): BlameResult {
  const lines: BlameLine[] = [];
  const commits = new Map<string, BlameCommitInfo>();
  const rows = text.split('\n');
  let current: BlameCommitInfo | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const header = headerPattern.exec(row);
    if (header) {
      const sha = header[1];
      current = commits.get(sha);
      if (!current) {
        current = { sha, author: '', authorTime: 0, summary: '', filename: '' };
        commits.set(sha, current);
      }
      lines.push({ sha, origLine: Number(header[2]), line: Number(header[3]) });
      continue;
    }
    if (!current) continue;
    if (row.startsWith('\t')) continue; // the line's content
    const sp = row.indexOf(' ');
    const key = sp === -1 ? row : row.slice(0, sp);
    const value = sp === -1 ? '' : row.slice(sp + 1);
    if (key === 'author') current.author = value;
    else if (key === 'author-time') current.authorTime = Number(value) * 1000;
    else if (key === 'summary') current.summary = value;
    else if (key === 'filename') current.filename = value;
    else if (key === 'boundary') current.boundary = true;
  }
  return { lines, commits };
}

/** Contiguous runs of lines blamed to the same commit: [startLine, endLine] (1-based inclusive). */
export function blameBlocks(lines: readonly BlameLine[]): { sha: string; start: number; end: number }[] {
  const sorted = [...lines].sort((a, b) => a.line - b.line);
  const out: { sha: string; start: number; end: number }[] = [];
  for (const l of sorted) {
    const last = out[out.length - 1];
    if (last && last.sha === l.sha && last.end === l.line - 1) last.end = l.line;
    else out.push({ sha: l.sha, start: l.line, end: l.line });
  }
  return out;
}
