import { createHash } from 'node:crypto';
import type { AgentNoteV1, NoteFile } from './noteTypes';

/**
 * Short hashes of AI lines (issue #18 part 2): the additive `files[].ai_line_hashes` of a note,
 * one per AI line, so that a clone with only the notes (a feature branch squashed and deleted on
 * the server) can find those lines again in a commit the hosting service made. Pure.
 *
 * A hash is the first 12 hex digits of SHA-256 over the line's text with trailing white space
 * (and a CR) removed. 48 bits: a false match between two given lines is 1 in 2.8 × 10^14; the
 * matching rule (derivedNote.ts) also needs several distinctive lines in order.
 */
export const lineHashLength = 12;
export const lineHashRe = /^[0-9a-f]{12}$/;

/** At most this many AI lines per file are expanded from `ai_ranges` (a hostile note's range 1–10^9). */
export const maxHashedLinesPerFile = 200_000;

export function lineHash(text: string): string {
  return createHash('sha256').update(text.replace(/\s+$/, ''), 'utf8').digest('hex').slice(0, lineHashLength);
}

/**
 * A line that can count as evidence of a match: at least 8 characters once trimmed, with a letter
 * or digit. `}`, `});`, `return;`, blank lines and the like are in every file and prove nothing.
 */
export function isDistinctiveLine(text: string): boolean {
  const t = text.trim();
  return t.length >= 8 && /[\p{L}\p{N}]/u.test(t);
}

/** The AI lines of a note's file, ascending and without repeats; undefined past the cap. */
export function aiLineNumbers(file: { ai_ranges?: readonly { start: number; end: number }[] }): number[] | undefined {
  const set = new Set<number>();
  for (const r of file.ai_ranges ?? []) {
    if (r.end - r.start + 1 + set.size > maxHashedLinesPerFile) return undefined;
    for (let l = r.start; l <= r.end; l++) set.add(l);
  }
  return [...set].sort((a, b) => a - b);
}

/**
 * Line → hash of a note's file, when its `ai_line_hashes` has exactly one hash per AI line;
 * undefined otherwise (absent, or not lined up: written by another tool, or tampered with).
 */
export function fileLineHashes(file: Pick<NoteFile, 'ai_ranges' | 'ai_line_hashes'>): Map<number, string> | undefined {
  const hashes = file.ai_line_hashes;
  if (!Array.isArray(hashes) || hashes.length === 0) return undefined;
  const lines = aiLineNumbers(file);
  if (!lines || lines.length !== hashes.length) return undefined;
  const map = new Map<number, string>();
  lines.forEach((l, i) => map.set(l, hashes[i]));
  return map;
}

/**
 * The note with `ai_line_hashes` on every AI file whose AI lines all have their text in `added`
 * (path → line → text of the lines the commit adds, from its patch); a file with a line missing
 * (a patch cut at its size cap, a binary file) gets none. Other fields are unchanged.
 */
export function withLineHashes(note: AgentNoteV1, added: ReadonlyMap<string, ReadonlyMap<number, string>>): AgentNoteV1 {
  const files = note.files.map((f) => {
    if (!f.ai_ranges || f.ai_ranges.length === 0) return f;
    const text = added.get(f.path);
    const lines = aiLineNumbers(f);
    if (!text || !lines || lines.length === 0) return f;
    const hashes: string[] = [];
    for (const l of lines) {
      const t = text.get(l);
      if (t === undefined) return f;
      hashes.push(lineHash(t));
    }
    return { ...f, ai_line_hashes: hashes };
  });
  return { ...note, files };
}
