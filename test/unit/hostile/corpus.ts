/**
 * The hostile-string corpus (test/fixtures/hostile/strings.json) and notes that carry it in every
 * field, for the per-surface escaping tests. The in-host `hostile` scenario uses the same file.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { projectRoot } from '../../helpers/tempRepo';

const file = path.join(projectRoot(), 'test', 'fixtures', 'hostile', 'strings.json');

/** name → hostile string; plus a 20,000-character line. */
export function hostileStrings(): Record<string, string> {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { strings: Record<string, string> };
  return { ...doc.strings, longLine: `${'A'.repeat(20_000)} <img src=https://evil.example/late.png>` };
}

/** Every hostile string joined (one string that trips every rule at once). */
export function allInOne(): string {
  return Object.values(hostileStrings()).join(' ');
}

/** A structurally valid note with `s` in every string field (paths, model, prompts, tools…). */
export function hostileNote(s: string): AgentNoteV1 {
  return {
    v: 1,
    agent: s,
    session_id: s,
    timestamp: s,
    model: s,
    interactions: [
      {
        prompt: s,
        response: s,
        contexts: [{ kind: 'reference', source: 'previous_response', text: s }],
        files_touched: [s],
        selection: { schema: 1, source: s, signals: [s] },
        tools: [s],
      } as AgentNoteV1['interactions'][number],
      { prompt: `second ${s}`, response: null },
    ],
    files: [
      { path: s, by_ai: true, ai_ranges: [{ start: 1, end: 3, interaction: 0 }] },
      { path: `dir/${s}`, by_ai: false },
    ],
    attribution: { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } },
  } as AgentNoteV1;
}

/** The same note with a harmless word in place of every hostile string (same structure). */
export function benignNote(): AgentNoteV1 {
  return hostileNote('word');
}

/** Markers that must never appear *as markup* in any rendered output. */
export const forbiddenTags = /<(?:img|script|iframe|span|a|details|summary|svg|style|link|meta|object|embed|input|form)\b/i;
