/**
 * Render-time prompt importance (docs/note-format.md §4.5): a role,
 * a 0–100 score and a low/medium/high level recomputed from the persisted `selection` of an
 * interaction, plus the "compact" filter the hover, Show Note and the PR report use to hide
 * low-value prompts. Nothing here is ever written into a note. Mirrors the Agent Note CLI v1.0.8.
 */

import type { NoteInteraction, NoteSelection, SelectionSignal, SelectionSource } from './noteTypes';
import { hasSubstantivePromptShape, isShortSelectionPrompt, sortSignals } from './selectionSignals';

/** Runtime role of a prompt. */
export type PromptRole = 'primary' | 'direct_anchor' | 'scope' | 'tail' | 'anchored_bridge' | 'bridge' | 'background';

/** Display band. */
export type PromptLevel = 'low' | 'medium' | 'high';

/** Prompt display preset: `compact` hides low-level prompts, `full` shows everything. */
export type PromptDetail = 'compact' | 'full';

/** Role, score and level of one interaction. */
export interface PromptRuntime {
  role: PromptRole;
  score: number;
  level: PromptLevel;
}

const legacyScore = 100;
const highThreshold = 75;
const mediumThreshold = 45;
const primaryFloor = 80;
const bridgeMaxWithSubstantive = 55;
const bridgeMaxWithoutSubstantive = 44;
const anchoredBridgeMax = 65;
const unanchoredTailMax = 44;

const baseScores: Record<PromptRole, number> = {
  primary: 90,
  direct_anchor: 75,
  scope: 60,
  tail: 45,
  anchored_bridge: 45,
  bridge: 25,
  background: 15,
};

const clamps: Record<PromptRole, readonly [number, number]> = {
  primary: [80, 100],
  direct_anchor: [65, 95],
  scope: [50, 80],
  tail: [35, 70],
  anchored_bridge: [40, 65],
  bridge: [20, 55],
  background: [0, 30],
};

/** Signal weights, in canonical signal order. */
const signalWeights: Record<SelectionSignal, number> = {
  primary_edit_turn: 0,
  exact_commit_path: 30,
  commit_file_basename: 10,
  diff_identifier: 20,
  response_exact_commit_path: 18,
  response_basename_or_identifier: 10,
  commit_subject_overlap: 4,
  list_or_checklist_shape: 10,
  multi_line_instruction: 6,
  inline_code_or_path_shape: 6,
  substantive_prompt_shape: 12,
  before_commit_boundary: 5,
  between_non_excluded_prompts: 8,
};

/**
 * Role from provenance, signals and prompt shape: primary (source primary or
 * `primary_edit_turn`) → direct_anchor (`exact_commit_path`/`diff_identifier`) → anchored_bridge
 * (short prompt with a path/identifier/basename) → scope (list or multi-line) → tail (source
 * tail) → bridge (short and `between_non_excluded_prompts`) → background.
 */
export function resolvePromptRole(source: SelectionSource, signals: readonly SelectionSignal[], prompt: string): PromptRole {
  const has = (s: SelectionSignal): boolean => signals.includes(s);
  if (source === 'primary' || has('primary_edit_turn')) return 'primary';
  if (has('exact_commit_path') || has('diff_identifier')) return 'direct_anchor';
  const short = isShortSelectionPrompt(prompt);
  if (short && (has('exact_commit_path') || has('diff_identifier') || has('commit_file_basename'))) return 'anchored_bridge';
  if (has('list_or_checklist_shape') || has('multi_line_instruction')) return 'scope';
  if (source === 'tail') return 'tail';
  if (short && has('between_non_excluded_prompts')) return 'bridge';
  return 'background';
}

/**
 * Score: role base + signal weights, clamped to the role's range; primaries ≥ 80; bridges ≤ 55
 * (≤ 44 without `substantive_prompt_shape`); anchored bridges ≤ 65; a tail without a structural
 * anchor (path, basename, identifier, inline code/path, substantive shape) ≤ 44.
 */
export function scorePrompt(role: PromptRole, signals: readonly SelectionSignal[]): number {
  let score = baseScores[role];
  for (const s of signals) score += signalWeights[s] ?? 0;
  const [min, max] = clamps[role];
  score = Math.max(min, Math.min(score, max));
  if (role === 'primary') return Math.max(score, primaryFloor);
  if (role === 'bridge') {
    return Math.min(score, signals.includes('substantive_prompt_shape') ? bridgeMaxWithSubstantive : bridgeMaxWithoutSubstantive);
  }
  if (role === 'anchored_bridge') return Math.min(score, anchoredBridgeMax);
  if (role === 'tail' && !hasTailStructuralAnchor(signals)) return Math.min(score, unanchoredTailMax);
  return score;
}

/** Level: primary → high; (anchored) bridges → medium ≥ 45 else low; others high ≥ 75, medium ≥ 45, low. */
export function resolvePromptLevel(role: PromptRole, score: number): PromptLevel {
  if (role === 'primary') return 'high';
  if (role === 'bridge' || role === 'anchored_bridge') return score >= mediumThreshold ? 'medium' : 'low';
  if (score >= highThreshold) return 'high';
  if (score >= mediumThreshold) return 'medium';
  return 'low';
}

/**
 * Role/score/level of an interaction. A missing selection (legacy note) is a primary prompt with
 * score 100. `substantive_prompt_shape` is recomputed from the prompt text and added when it
 * holds; unknown signal names are ignored.
 */
export function evaluatePrompt(interaction: Pick<NoteInteraction, 'prompt' | 'selection'>): PromptRuntime {
  const selection = interaction.selection;
  if (!selection) return { role: 'primary', score: legacyScore, level: 'high' };
  const prompt = typeof interaction.prompt === 'string' ? interaction.prompt : '';
  const signals = sortSignals(Array.isArray(selection.signals) ? selection.signals : []);
  if (!signals.includes('substantive_prompt_shape') && hasSubstantivePromptShape(prompt)) {
    signals.push('substantive_prompt_shape');
  }
  const role = resolvePromptRole(selection.source, signals, prompt);
  const score = scorePrompt(role, signals);
  return { role, score, level: resolvePromptLevel(role, score) };
}

/**
 * Interactions to show for a preset. `full` keeps everything; `compact` hides `low` prompts and
 * "absorbed external review" prompts: window prompts without files whose only anchor is the
 * response, which reference an external `https://…/pull/N` or `…/issues/N` URL, and are followed
 * by a primary-edit interaction.
 */
export function filterInteractionsByDetail<T extends Pick<NoteInteraction, 'prompt' | 'selection' | 'files_touched'>>(
  interactions: readonly T[],
  detail: PromptDetail,
): T[] {
  if (detail === 'full') return [...interactions];
  return interactions.filter((it, i) => evaluatePrompt(it).level !== 'low' && !isAbsorbedExternalReview(it, interactions.slice(i + 1)));
}

/** Indexes (into the given list) of the interactions shown by a preset. */
export function visibleInteractionIndexes(
  interactions: readonly Pick<NoteInteraction, 'prompt' | 'selection' | 'files_touched'>[],
  detail: PromptDetail,
): number[] {
  const shown = new Set(filterInteractionsByDetail(interactions, detail));
  return interactions.flatMap((it, i) => (shown.has(it) ? [i] : []));
}

function hasTailStructuralAnchor(signals: readonly SelectionSignal[]): boolean {
  return (
    signals.includes('exact_commit_path') ||
    signals.includes('diff_identifier') ||
    signals.includes('commit_file_basename') ||
    signals.includes('inline_code_or_path_shape') ||
    signals.includes('substantive_prompt_shape')
  );
}

function isAbsorbedExternalReview(
  it: Pick<NoteInteraction, 'prompt' | 'selection' | 'files_touched'>,
  later: readonly Pick<NoteInteraction, 'selection' | 'files_touched'>[],
): boolean {
  const selection = it.selection;
  if (!selection || selection.source !== 'window') return false;
  if ((it.files_touched?.length ?? 0) > 0) return false;
  if (!/https?:\/\/\S+\/(?:pull|issues)\/\d+\b/i.test(it.prompt)) return false;
  const signals = selection.signals ?? [];
  if (!signals.includes('response_exact_commit_path') && !signals.includes('response_basename_or_identifier')) return false;
  const promptAnchors: SelectionSignal[] = [
    'primary_edit_turn',
    'exact_commit_path',
    'commit_file_basename',
    'diff_identifier',
    'list_or_checklist_shape',
    'multi_line_instruction',
    'inline_code_or_path_shape',
  ];
  if (promptAnchors.some((s) => signals.includes(s))) return false;
  return later.some(isPrimaryEdit);
}

function isPrimaryEdit(it: Pick<NoteInteraction, 'selection' | 'files_touched'>): boolean {
  if ((it.files_touched?.length ?? 0) > 0) return true;
  const selection: NoteSelection | undefined = it.selection;
  return selection?.source === 'primary' || selection?.signals?.includes('primary_edit_turn') === true;
}
