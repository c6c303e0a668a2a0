/**
 * Notes that we write stay small on purpose (issue #14 part 3): a long response is cut with a
 * marker, and the whole note is kept under {@link noteWriteLimits}.maxBytes by cutting text
 * further, then dropping our additive per-line ranges. Ratios, files and the interaction list are
 * never changed, so the Agent Note CLI reads the same ratios. Pure.
 */
import { encodeNote } from './noteCodec';
import { noteWriteLimits, truncationMarker, utf8Length } from './noteLimits';
import type { AgentNoteV1, NoteInteraction } from './noteTypes';

export interface NoteWriteLimits {
  maxBytes: number;
  maxResponseChars: number;
  squeezedTextChars: number;
}

export interface FittedNote {
  note: AgentNoteV1;
  /** Encoded size in bytes. */
  bytes: number;
  /** False when even the smallest form is over `maxBytes` (the caller does not write it). */
  fits: boolean;
  /** What was done, for one clear log line ("cut 2 responses to 8,000 characters", …); empty when nothing. */
  steps: string[];
}

/** `text` cut to at most `max` code points plus the marker that says how much was left out. */
export function cutWithMarker(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const chars = Array.from(text);
  if (chars.length <= max) return { text, cut: false };
  return { text: chars.slice(0, max).join('') + truncationMarker(chars.length - max), cut: true };
}

function cutResponses(interactions: NoteInteraction[], max: number): number {
  let n = 0;
  for (const it of interactions) {
    if (typeof it.response !== 'string') continue;
    const r = cutWithMarker(it.response, max);
    if (r.cut) {
      it.response = r.text;
      n++;
    }
  }
  return n;
}

function cutAllText(interactions: NoteInteraction[], max: number): number {
  let n = cutResponses(interactions, max);
  for (const it of interactions) {
    const p = cutWithMarker(it.prompt, max);
    if (p.cut) {
      it.prompt = p.text;
      n++;
    }
    for (const c of it.contexts ?? []) {
      const t = cutWithMarker(c.text, max);
      if (t.cut) {
        c.text = t.text;
        n++;
      }
    }
  }
  return n;
}

const size = (note: AgentNoteV1) => utf8Length(encodeNote(note));

/** The note as we write it: within the write limits when possible (see the module comment). Does not modify `input`. */
export function fitNoteForWrite(input: AgentNoteV1, limits: NoteWriteLimits = noteWriteLimits): FittedNote {
  const note = structuredClone(input);
  const steps: string[] = [];
  const fmt = (n: number) => n.toLocaleString('en-US');
  const responses = cutResponses(note.interactions, limits.maxResponseChars);
  if (responses > 0) steps.push(`cut ${responses} response(s) to ${fmt(limits.maxResponseChars)} characters`);
  let bytes = size(note);
  if (bytes > limits.maxBytes) {
    const texts = cutAllText(note.interactions, limits.squeezedTextChars);
    if (texts > 0) steps.push(`cut ${texts} prompt/response/context text(s) to ${fmt(limits.squeezedTextChars)} characters`);
    bytes = size(note);
  }
  if (bytes > limits.maxBytes && note.files.some((f) => f.ai_ranges !== undefined)) {
    for (const f of note.files) delete f.ai_ranges;
    steps.push('left out the per-line AI ranges');
    bytes = size(note);
  }
  if (bytes > limits.maxBytes) {
    const texts = cutAllText(note.interactions, 200);
    if (texts > 0) steps.push('cut every text to 200 characters');
    bytes = size(note);
  }
  return { note, bytes, fits: bytes <= limits.maxBytes, steps };
}
