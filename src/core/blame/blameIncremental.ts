import type { BlameCommitInfo } from './blamePorcelain';
import { objectIdSource } from '../git/objectId';

/** One group of `git blame --incremental` output: `count` consecutive lines from one commit. */
export interface BlameEntry {
  sha: string;
  /** First line of the group in the commit's version of the file (1-based). */
  origLine: number;
  /** First line of the group in the blamed version (1-based). */
  line: number;
  count: number;
  /** Path of the file in that commit. */
  filename: string;
}

const entryHeader = new RegExp(`^(${objectIdSource}) (\\d+) (\\d+) (\\d+)$`);

/**
 * Streaming parser of `git blame --incremental`: feed it text as git writes it; every complete
 * entry (header line … `filename` line) is reported at once, so a caller can answer for a line as
 * soon as git has blamed it. Commit headers (author, summary, boundary…) come only with a commit's
 * first entry; they are collected in `commits`.
 */
export class IncrementalBlameParser {
  readonly commits = new Map<string, BlameCommitInfo>();
  private rest = '';
  private current: { sha: string; origLine: number; line: number; count: number; info: BlameCommitInfo } | undefined;

  constructor(private readonly onEntry: (e: BlameEntry, info: BlameCommitInfo) => void) {}

  push(text: string): void {
    let start = 0;
    const data = this.rest + text;
    for (;;) {
      const nl = data.indexOf('\n', start);
      if (nl === -1) break;
      this.row(data.slice(start, nl));
      start = nl + 1;
    }
    this.rest = data.slice(start);
  }

  /** End of output (a last row without newline is still parsed). */
  end(): void {
    if (this.rest) this.row(this.rest);
    this.rest = '';
    this.current = undefined;
  }

  private row(row: string): void {
    const cur = this.current;
    if (!cur) {
      const m = entryHeader.exec(row);
      if (!m) return;
      const sha = m[1];
      let info = this.commits.get(sha);
      if (!info) {
        info = { sha, author: '', authorTime: 0, summary: '', filename: '' };
        this.commits.set(sha, info);
      }
      this.current = { sha, origLine: Number(m[2]), line: Number(m[3]), count: Number(m[4]), info };
      return;
    }
    const sp = row.indexOf(' ');
    const key = sp === -1 ? row : row.slice(0, sp);
    const value = sp === -1 ? '' : row.slice(sp + 1);
    const info = cur.info;
    if (key === 'filename') {
      // ends the entry (always present in incremental mode)
      if (!info.filename) info.filename = value;
      this.current = undefined;
      this.onEntry({ sha: cur.sha, origLine: cur.origLine, line: cur.line, count: cur.count, filename: value }, info);
    } else if (key === 'author') info.author = value;
    else if (key === 'author-time') info.authorTime = Number(value) * 1000;
    else if (key === 'summary') info.summary = value;
    else if (key === 'boundary') info.boundary = true;
  }
}
