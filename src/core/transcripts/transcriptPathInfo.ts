/** What a transcript's path says about it (docs/transcripts.md §1.2, §2.1, §3.1, §4.1). */
export interface TranscriptPathInfo {
  /** Session id from the file/directory name (the parent session for subagent files). */
  sessionId?: string;
  /** A subagent/sidechain transcript. */
  sidechain: boolean;
  /** `txt`: Cursor legacy flat text; `json`: a whole-file JSON document (Gemini legacy); else JSONL. */
  format: 'jsonl' | 'txt' | 'json';
}

/** The parts of a transcript path that the agents' `pathInfo` read (either separator). */
export interface PathParts {
  /** File name without its extension. */
  stem: string;
  /** Lower-cased extension without the dot ('' when none). */
  ext: string;
  /** The parent folder's name. */
  parent?: string;
  /** The grandparent folder's name. */
  grand?: string;
  format: TranscriptPathInfo['format'];
}

export function pathParts(filePath: string): PathParts {
  const parts = filePath.split(/[\\/]+/).filter((p) => p.length > 0);
  const name = parts[parts.length - 1] ?? '';
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const format: TranscriptPathInfo['format'] = ext === 'txt' ? 'txt' : ext === 'json' ? 'json' : 'jsonl';
  return { stem, ext, parent: parts[parts.length - 2], grand: parts[parts.length - 3], format };
}
