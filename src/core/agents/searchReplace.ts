/**
 * SEARCH/REPLACE blocks as Cline (`replace_in_file`), Roo Code and Kilo Code (`apply_diff`) and Aider
 * write them (docs/transcripts.md §7.2, §10.2):
 *
 * ```
 * ------- SEARCH        (Cline; `<<<<<<< SEARCH` is the older marker, also Roo's and Aider's)
 * :start_line:12        (Roo/Kilo only, optional, followed by a `-------` line)
 * old lines
 * =======
 * new lines
 * +++++++ REPLACE       (Cline; `>>>>>>> REPLACE` the older marker)
 * ```
 *
 * A block without its end marker (a cut reply) is dropped: a gap, never a guess.
 */
export interface SearchReplaceBlock {
  /** The text searched for ('' = a new file or an insertion at its start). */
  search: string;
  replace: string;
}

const searchStart = /^(?:-{3,}|<{3,}) ?SEARCH>?\s*$/;
const divider = /^={3,}\s*$/;
const replaceEnd = /^(?:\+{3,}|>{3,}) ?REPLACE>?\s*$/;
const lineHint = /^:(?:start|end)_line:\s*-?\d+\s*$/;
const hintEnd = /^-{3,}\s*$/;

export function isSearchStart(line: string): boolean {
  return searchStart.test(line);
}

/** The blocks of a diff text, in order. */
export function parseSearchReplace(diff: string): SearchReplaceBlock[] {
  const lines = diff.replace(/\r\n?/g, '\n').split('\n');
  const out: SearchReplaceBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!searchStart.test(lines[i])) {
      i++;
      continue;
    }
    i++;
    // Roo's line hints come before the old text, closed by a `-------` line
    let hinted = false;
    while (i < lines.length && lineHint.test(lines[i])) {
      hinted = true;
      i++;
    }
    if (hinted && i < lines.length && hintEnd.test(lines[i])) i++;
    const search: string[] = [];
    while (i < lines.length && !divider.test(lines[i]) && !searchStart.test(lines[i])) search.push(lines[i++]);
    if (i >= lines.length || !divider.test(lines[i])) continue;
    i++;
    const replace: string[] = [];
    while (i < lines.length && !replaceEnd.test(lines[i]) && !searchStart.test(lines[i])) replace.push(lines[i++]);
    if (i >= lines.length || !replaceEnd.test(lines[i])) continue;
    i++;
    out.push({ search: joinLines(search), replace: joinLines(replace) });
  }
  return out;
}

/** Lines of a block side as text: each line ends with a newline ('' for none). */
function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}
