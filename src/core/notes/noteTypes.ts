/**
 * Agent Note schema v1 as plain types (docs/note-format.md §1). The zod schema that
 * validates untrusted notes lives in noteSchema.ts; the byte-exact encoder in noteCodec.ts.
 * Key order of every object here is the order the CLI writes.
 */

export type SelectionSource = 'primary' | 'window' | 'tail' | 'fallback';

export const selectionSignalOrder = [
  'primary_edit_turn',
  'exact_commit_path',
  'commit_file_basename',
  'diff_identifier',
  'response_exact_commit_path',
  'response_basename_or_identifier',
  'commit_subject_overlap',
  'list_or_checklist_shape',
  'multi_line_instruction',
  'inline_code_or_path_shape',
  'substantive_prompt_shape',
  'before_commit_boundary',
  'between_non_excluded_prompts',
] as const;
export type SelectionSignal = (typeof selectionSignalOrder)[number];

export interface NoteContext {
  kind: 'reference' | 'scope';
  source: 'previous_response' | 'current_response';
  text: string;
}

export interface NoteSelection {
  schema: 1;
  source: SelectionSource;
  signals: SelectionSignal[];
}

export interface NoteInteraction {
  prompt: string;
  response: string | null;
  contexts?: NoteContext[];
  files_touched?: string[];
  selection?: NoteSelection;
  tools?: string[] | null;
  /** Extension-only (additive): an Agent Note CLI ignores unknown keys. */
  [extra: string]: unknown;
}

/**
 * Additive, optional (ours): AI-written line ranges of the committed blob, 1-based inclusive,
 * each with the index into `interactions[]` of the prompt that produced it (null if unknown).
 */
export interface NoteAiRange {
  start: number;
  end: number;
  interaction: number | null;
}

export interface NoteFile {
  path: string;
  by_ai: boolean;
  generated?: true;
  ai_ratio_excluded?: true;
  /** Additive (ours), see NoteAiRange. Written after the v1 keys. */
  ai_ranges?: NoteAiRange[];
  /**
   * Additive (ours): a short hash of each AI line's text (lineHashes.ts), one per line of
   * `ai_ranges` in line order. Lets a clone that has only the notes find the AI lines again in a
   * commit a hosting service made (a squash or rebase merge). Ignored unless it has exactly one
   * hash per AI line.
   */
  ai_line_hashes?: string[];
  [extra: string]: unknown;
}

export type AttributionMethod = 'line' | 'file' | 'none';

export interface NoteLines {
  ai_added: number;
  total_added: number;
  deleted: number;
}

export interface NoteAttribution {
  ai_ratio: number;
  method: AttributionMethod;
  lines?: NoteLines;
  [extra: string]: unknown;
}

export interface AgentNoteV1 {
  v: 1;
  agent: string | null;
  session_id: string;
  timestamp: string;
  model: string | null;
  interactions: NoteInteraction[];
  files: NoteFile[];
  attribution: NoteAttribution;
  /**
   * Additive (ours), only on a derived note: the noted commits whose AI lines this commit (made by
   * a hosting service's squash or rebase merge) contains, oldest first (derivedNote.ts).
   */
  derived_from?: string[];
  [extra: string]: unknown;
}
