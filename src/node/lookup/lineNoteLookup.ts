import { blameBlocks, isUncommitted, type BlameCommitInfo } from '../../core/blame/blamePorcelain';
import type { DecodedNote } from '../../core/notes/noteCodec';
import type { NoteAiRange } from '../../core/notes/noteTypes';
import type { BlameService } from '../blame/blameService';
import type { NoteStore } from '../notes/noteStore';

/** What Agent Note knows about one line of a file. */
export interface LineNoteInfo {
  /** The commit that last changed the line (all zeros when uncommitted). */
  sha: string;
  /** Line number in that commit's version of the file (1-based). */
  origLine: number;
  /** Path of the file in that commit (follows renames as blame does). */
  pathInCommit: string;
  commit: BlameCommitInfo | undefined;
  /** The commit's note: undefined when the commit has none. */
  note: DecodedNote | undefined;
  /**
   * From the note's per-line ranges (our additive field): true/false when the note says whether
   * this line was AI-written, undefined when the note has no per-line data for the file.
   */
  aiLine: boolean | undefined;
  /** The AI range containing the line, with its interaction index. */
  range: NoteAiRange | undefined;
}

export interface LookupTarget {
  /** Repo-relative path. */
  rel: string;
  /** Current HEAD sha (cache key). */
  head: string;
  /** Document version or content hash (cache key). */
  version: string;
  /** Buffer contents for dirty documents (blamed with --contents). */
  contents?: string;
}

/**
 * Line → commit → note, for hovers and CodeLens. A lookup waits only until the file's streaming
 * whole-file blame (started here, or earlier by `prefetch` when an editor showed the file) has
 * covered the hovered line; later lookups answer from the finished blame. Notes come from the
 * cached notes listing (one `git notes list` per notes-ref change) and the decoded-note LRU.
 */
export class LineNoteLookup {
  constructor(
    private readonly blame: BlameService,
    private readonly notes: NoteStore,
  ) {}

  /** Starts blaming the file in the background (an editor shows it), so the first hover finds it under way. */
  prefetch(target: LookupTarget): void {
    this.blame.prefetch(target.rel, target.head, target.version, target.contents);
    void this.notes.listNotedCommits().catch(() => undefined);
  }

  async lookup(target: LookupTarget, line: number): Promise<LineNoteInfo | undefined> {
    const [noted, bl] = await Promise.all([
      this.notes.listNotedCommits(),
      this.blame.blameLine(target.rel, target.head, target.version, line, target.contents),
    ]);
    if (!bl) return undefined;
    const { line: l, commit } = bl;
    const pathInCommit = commit?.filename || target.rel;
    if (isUncommitted(l.sha) || !noted.has(l.sha)) {
      return { sha: l.sha, origLine: l.origLine, pathInCommit, commit, note: undefined, aiLine: undefined, range: undefined };
    }
    const note = await this.notes.read(l.sha);
    const { aiLine, range } = lineInNote(note, pathInCommit, l.origLine);
    return { sha: l.sha, origLine: l.origLine, pathInCommit, commit, note, aiLine, range };
  }

  /** Contiguous blocks of lines from the same noted commit (for CodeLens). */
  async notedBlocks(target: LookupTarget): Promise<{ sha: string; start: number; end: number; commit: BlameCommitInfo | undefined }[]> {
    const [noted, result] = await Promise.all([
      this.notes.listNotedCommits(),
      this.blame.blameFile(target.rel, target.head, target.version, target.contents),
    ]);
    if (!result) return [];
    return blameBlocks(result.lines)
      .filter((b) => noted.has(b.sha))
      .map((b) => ({ ...b, commit: result.commits.get(b.sha) }));
  }
}

/** Whether the note's per-line ranges say that line `origLine` of `path` was AI-written. */
export function lineInNote(
  note: DecodedNote | undefined,
  path: string,
  origLine: number,
): { aiLine: boolean | undefined; range: NoteAiRange | undefined } {
  if (note?.kind !== 'valid') return { aiLine: undefined, range: undefined };
  const file = note.note.files.find((f) => f.path === path);
  if (!file) return { aiLine: undefined, range: undefined };
  if (!Array.isArray(file.ai_ranges)) return { aiLine: file.by_ai ? undefined : false, range: undefined };
  const range = file.ai_ranges.find((r) => r.start <= origLine && origLine <= r.end);
  return { aiLine: range !== undefined, range };
}
