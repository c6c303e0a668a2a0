/**
 * Parser for the Codex `apply_patch` grammar (also used by Cursor's `ApplyPatch` tool):
 * `*** Begin Patch` / `*** Add File: p` / `*** Delete File: p` / `*** Update File: p`
 * [`*** Move to: q`] / `@@` hunks / `*** End of File` / `*** End Patch` (docs/transcripts.md §3.3).
 */

export interface PatchFile {
  op: 'add' | 'update' | 'delete';
  /** Path as written in the patch (relative to the turn cwd, or absolute). */
  path: string;
  /** Update with rename: the new path. */
  moveTo?: string;
  /** This file's section of the patch, header included, `\n`-terminated. */
  text: string;
  /** Full contents of an added file (the `+` lines). */
  content?: string;
  added: number;
  removed: number;
}

const header = /^\*\*\* (Add|Delete|Update) File:\s*(.+?)\s*$/;
const moveTo = /^\*\*\* Move to:\s*(.+?)\s*$/;

/**
 * Parses the file sections of a patch. Text before `*** Begin Patch` (e.g. a shell heredoc line) is
 * ignored; a missing `*** End Patch` ends at the last line. Returns [] when the text has no section.
 */
export function parseApplyPatch(patch: string): PatchFile[] {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  const begin = lines.findIndex((l) => l.trim() === '*** Begin Patch');
  const files: PatchFile[] = [];
  let cur: { file: PatchFile; lines: string[]; body: string[] } | undefined;
  const close = () => {
    if (!cur) return;
    cur.file.text = cur.lines.join('\n') + '\n';
    if (cur.file.op === 'add') cur.file.content = cur.body.length ? cur.body.join('\n') + '\n' : '';
    files.push(cur.file);
    cur = undefined;
  };
  for (let i = begin >= 0 ? begin + 1 : 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '*** End Patch') break;
    const h = header.exec(line);
    if (h) {
      close();
      const op = h[1] === 'Add' ? 'add' : h[1] === 'Delete' ? 'delete' : 'update';
      cur = { file: { op, path: h[2], text: '', added: 0, removed: 0 }, lines: [line], body: [] };
      continue;
    }
    if (!cur) continue;
    const mv = moveTo.exec(line);
    if (mv && cur.file.op === 'update' && cur.lines.length === 1) {
      cur.file.moveTo = mv[1];
      cur.lines.push(line);
      continue;
    }
    if (line.startsWith('***')) {
      // `*** End of File` and unknown markers belong to the section but are not content
      cur.lines.push(line);
      continue;
    }
    cur.lines.push(line);
    if (line.startsWith('+')) {
      cur.file.added++;
      cur.body.push(line.slice(1));
    } else if (line.startsWith('-')) {
      cur.file.removed++;
    }
  }
  close();
  return files;
}

/** Extracts patch text from tool arguments of the various eras (string, `{input}`, `{patch}`, `{command:[…]}`). */
export function patchTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const t = value.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        return patchTextOf(JSON.parse(t) as unknown);
      } catch {
        // not JSON: may still be a raw patch
      }
    }
    return value.includes('*** Begin Patch') ? value : undefined;
  }
  if (Array.isArray(value)) {
    for (const v of value) {
      const p = patchTextOf(v);
      if (p) return p;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k of ['input', 'patch', 'command', 'arguments', 'content', 'text', 'cmd']) {
      const p = patchTextOf(o[k]);
      if (p) return p;
    }
  }
  return undefined;
}
