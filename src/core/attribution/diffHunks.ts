/**
 * Parser for `git diff --unified=0` and `git diff-tree --patch --unified=0` output
 * (docs/note-format.md §3.2). Only what line attribution needs is kept: hunk headers, per-file
 * sections, binary / submodule markers and "\ No newline at end of file".
 *
 * The parser is a small state machine: inside a hunk it consumes exactly the announced number of
 * old/new body lines, so a body line whose text happens to look like a header (`--- a/x`,
 * `diff --git …`, `@@ …`) can never be mistaken for one. Input that is not a diff yields no hunks;
 * nothing here throws.
 */

/** One hunk header `@@ -oldStart[,oldCount] +newStart[,newCount] @@` (a missing count means 1). */
export interface DiffHunk {
  /** First old-side line (1-based); 0 when the hunk only adds lines at the top of an empty side. */
  oldStart: number;
  oldCount: number;
  /** First new-side line (1-based); for pure deletions git reports the line before the gap. */
  newStart: number;
  newCount: number;
}

/** One `diff --git` section of a multi-file patch. */
export interface FileDiff {
  /** Repo-relative path (new side; the old side for deletions), unquoted, forward slashes. */
  path: string;
  /** Old-side path (equal to `path` without rename detection). */
  oldPath: string;
  /** `new file mode` / `deleted file mode` headers seen. */
  status: 'added' | 'deleted' | 'modified';
  /** `Binary files … differ` (or a `GIT binary patch`): git produced no hunks. */
  binary: boolean;
  /** A gitlink (mode 160000) is involved on either side. */
  submodule: boolean;
  hunks: DiffHunk[];
  /** Σ newCount over the hunks. */
  added: number;
  /** Σ oldCount over the hunks. */
  deleted: number;
  /** `\ No newline at end of file` after an old-side (`-`) / new-side (`+`) line. */
  oldNoNewlineAtEof: boolean;
  newNoNewlineAtEof: boolean;
  /** With `{ addedText: true }`: new-side line → text of each added (`+`) line. */
  addedText?: Map<number, string>;
}

const hunkHeaderRe = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses one hunk header line; undefined when the line is not a hunk header. */
export function parseHunkHeader(line: string): DiffHunk | undefined {
  const m = hunkHeaderRe.exec(line);
  if (!m) return undefined;
  return {
    oldStart: Number(m[1]),
    oldCount: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newCount: m[4] === undefined ? 1 : Number(m[4]),
  };
}

/**
 * Parses a (possibly multi-file) patch into per-file sections, in output order. Hunks that appear
 * before any `diff --git` header (bare hunk text) are returned in a section with an empty path.
 */
export function parseFileDiffs(text: string, opts: { addedText?: boolean } = {}): FileDiff[] {
  const files: FileDiff[] = [];
  let cur: FileDiff | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  /** New-side line number of the next `+` or context line of the current hunk. */
  let newLine = 0;
  let lastBody: '-' | '+' | ' ' | undefined;

  const section = (path: string, oldPath: string): FileDiff => {
    const f: FileDiff = {
      path,
      oldPath,
      status: 'modified',
      binary: false,
      submodule: false,
      hunks: [],
      added: 0,
      deleted: 0,
      oldNoNewlineAtEof: false,
      newNoNewlineAtEof: false,
    };
    files.push(f);
    return f;
  };

  for (const line of text.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      const c = line.charCodeAt(0);
      if (c === 0x2d /* - */ && oldLeft > 0) {
        oldLeft--;
        lastBody = '-';
        continue;
      }
      if (c === 0x2b /* + */ && newLeft > 0) {
        newLeft--;
        lastBody = '+';
        if (opts.addedText && cur) (cur.addedText ??= new Map()).set(newLine, line.slice(1));
        newLine++;
        continue;
      }
      if (c === 0x20 /* space */ && oldLeft > 0 && newLeft > 0) {
        oldLeft--;
        newLeft--;
        newLine++;
        lastBody = ' ';
        continue;
      }
      if (c !== 0x5c /* \ */) {
        // Truncated or hand-made input: the hunk ended early. Parse the line as a header.
        oldLeft = 0;
        newLeft = 0;
      }
    }
    if (line.startsWith('\\')) {
      if (cur && lastBody === '-') cur.oldNoNewlineAtEof = true;
      else if (cur && lastBody === '+') cur.newNoNewlineAtEof = true;
      else if (cur && lastBody === ' ') {
        cur.oldNoNewlineAtEof = true;
        cur.newNoNewlineAtEof = true;
      }
      continue;
    }
    lastBody = undefined;
    if (line.startsWith('diff --git ')) {
      const paths = parseDiffGitPaths(line.slice('diff --git '.length));
      cur = section(paths?.[1] ?? '', paths?.[0] ?? '');
      continue;
    }
    if (line.startsWith('@@')) {
      const h = parseHunkHeader(line);
      if (!h) continue;
      cur ??= section('', '');
      cur.hunks.push(h);
      cur.added += h.newCount;
      cur.deleted += h.oldCount;
      oldLeft = h.oldCount;
      newLeft = h.newCount;
      newLine = h.newStart;
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('new file mode ')) {
      cur.status = 'added';
      if (line.endsWith(' 160000')) cur.submodule = true;
    } else if (line.startsWith('deleted file mode ')) {
      cur.status = 'deleted';
      if (line.endsWith(' 160000')) cur.submodule = true;
    } else if (line.startsWith('old mode ') || line.startsWith('new mode ') || line.startsWith('index ')) {
      if (line.endsWith(' 160000')) cur.submodule = true;
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
      cur.binary = true;
    } else if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      // The header of the section is authoritative; when it could not be split (unquoted names
      // containing " b/"), take the name from the ---/+++ line (git appends a TAB after names
      // that contain a space).
      const name = parsePatchName(line.slice(4));
      if (name !== undefined) {
        if (line.startsWith('---') && !cur.oldPath) cur.oldPath = name;
        if (line.startsWith('+++') && !cur.path) cur.path = name;
      }
    }
  }
  for (const f of files) {
    if (!f.path) f.path = f.oldPath;
    if (!f.oldPath) f.oldPath = f.path;
  }
  return files;
}

/** All hunks of a diff, concatenated over its sections (for single-file / blob-to-blob diffs). */
export function parseDiffHunks(text: string): DiffHunk[] {
  return parseFileDiffs(text).flatMap((f) => f.hunks);
}

/** New-side line numbers (1-based, ascending) covered by the hunks: c … c+d-1 per hunk. */
export function addedLinePositions(hunks: readonly DiffHunk[]): number[] {
  const out: number[] = [];
  for (const h of hunks) for (let i = 0; i < h.newCount; i++) out.push(h.newStart + i);
  return out.sort((a, b) => a - b);
}

/** Σ newCount (added) and Σ oldCount (deleted). */
export function countDiffLines(hunks: readonly DiffHunk[]): { added: number; deleted: number } {
  let added = 0;
  let deleted = 0;
  for (const h of hunks) {
    added += h.newCount;
    deleted += h.oldCount;
  }
  return { added, deleted };
}

/**
 * Undoes git's C-style path quoting (`"a/t\303\251st\tx"`), as used for names with control
 * characters, `"` or `\` (and non-ASCII bytes unless core.quotepath=off). Octal escapes are
 * bytes of UTF-8. Returns undefined when `s` is not a well-formed quoted string.
 */
export function unquoteGitPath(s: string): string | undefined {
  if (s.length < 2 || !s.startsWith('"') || !s.endsWith('"')) return undefined;
  const r = readQuoted(s, 0);
  return r && r.end === s.length ? r.value : undefined;
}

const simpleEscapes: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Reads a quoted string starting at `s[start] === '"'`; returns its value and the index after it. */
function readQuoted(s: string, start: number): { value: string; end: number } | undefined {
  if (s[start] !== '"') return undefined;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = start + 1; i < s.length; i++) {
    const ch = s[i];
    if (ch === '"') return { value: new TextDecoder().decode(new Uint8Array(bytes)), end: i + 1 };
    if (ch !== '\\') {
      const cp = s.codePointAt(i) ?? 0;
      const chunk = String.fromCodePoint(cp);
      bytes.push(...encoder.encode(chunk));
      i += chunk.length - 1;
      continue;
    }
    const next = s[i + 1];
    if (next === undefined) return undefined;
    if (next in simpleEscapes) {
      bytes.push(simpleEscapes[next]);
      i++;
    } else if (/^[0-3][0-7][0-7]$/.test(s.slice(i + 1, i + 4))) {
      bytes.push(parseInt(s.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Splits the rest of a `diff --git ` line into [old, new] paths without their `a/` `b/` prefixes.
 * Unquoted names are split at the symmetric point (without renames both names are equal, which
 * keeps names containing " b/" intact); otherwise at the last " b/".
 */
function parseDiffGitPaths(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    const a = readQuoted(rest, 0);
    if (!a || rest[a.end] !== ' ') return undefined;
    const tail = rest.slice(a.end + 1);
    const b = tail.startsWith('"') ? unquoteGitPath(tail) : tail;
    if (b === undefined) return undefined;
    return [stripPrefix(a.value, 'a/'), stripPrefix(b, 'b/')];
  }
  if (rest.endsWith('"')) {
    const q = rest.lastIndexOf(' "');
    if (q < 0) return undefined;
    const b = unquoteGitPath(rest.slice(q + 1));
    if (b === undefined) return undefined;
    return [stripPrefix(rest.slice(0, q), 'a/'), stripPrefix(b, 'b/')];
  }
  if ((rest.length - 1) % 2 === 0) {
    const half = (rest.length - 1) / 2;
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (rest[half] === ' ' && a.startsWith('a/') && b.startsWith('b/') && a.slice(2) === b.slice(2)) {
      return [a.slice(2), b.slice(2)];
    }
  }
  const idx = rest.lastIndexOf(' b/');
  if (idx < 0 || !rest.startsWith('a/')) return undefined;
  return [rest.slice(2, idx), rest.slice(idx + 3)];
}

/** Name of a `--- ` / `+++ ` line: `/dev/null` ⇒ undefined; strips the prefix and git's trailing TAB. */
function parsePatchName(raw: string): string | undefined {
  const name = raw.startsWith('"') ? unquoteGitPath(raw.replace(/\t$/, '')) : raw.replace(/\t$/, '');
  if (name === undefined || name === '/dev/null') return undefined;
  if (name.startsWith('a/')) return name.slice(2);
  if (name.startsWith('b/')) return name.slice(2);
  return name;
}

function stripPrefix(s: string, prefix: string): string {
  return s.startsWith(prefix) ? s.slice(prefix.length) : s;
}
