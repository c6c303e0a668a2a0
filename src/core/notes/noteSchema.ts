/**
 * zod schemas for Agent Note schema v1 (docs/note-format.md §1) and the tolerant
 * reader that turns any parsed JSON value into a typed AgentNoteV1.
 *
 * Two levels:
 * - `agentNoteV1Schema` (and the sub-schemas) describe a *canonical* v1 note: what the CLI and
 *   our writer produce. Unknown keys are allowed at every level (`passthrough`).
 * - `parseAgentNote` is what readers use. It accepts everything the peer CLI accepts (an object
 *   with an `interactions` array, a `files` array and a truthy `attribution`), the legacy
 *   interaction key `context` (§1.3) and pre-v1 flat notes (§1.8), and returns a normalized note:
 *   - required structure (interaction `prompt`, file `path`/`by_ai`, attribution
 *     `ai_ratio`/`method`) must be right, otherwise the note is invalid with a short reason;
 *   - optional decorations (`contexts`, `selection`, `tools`, `files_touched`, `lines`,
 *     `ai_ranges`, flags) that are malformed are dropped and reported in `issues`;
 *   - unknown keys survive at every level, in their original order, so a read-modify-write
 *     keeps data written by newer versions or other tools;
 *   - contexts are normalized as the peer reader does: legacy `context` first (as a
 *     `reference`/`previous_response` context), every text trimmed, blank ones dropped,
 *     duplicates (same trimmed text) removed.
 * Selection `source`/`signals` and context `kind`/`source` are kept as any string so values added
 * by a newer CLI survive; the TypeScript types list the values known today. Likewise `v` is not
 * checked (the CLI does not check it either): a missing `v` reads as 1, another number is kept.
 * Missing `agent`/`model` read as null, missing `session_id`/`timestamp` as "" (with an issue).
 */
import { z } from 'zod';
import { isObjectId } from '../git/objectId';
import { lineHashRe } from './lineHashes';
import type { AgentNoteV1, NoteAttribution, NoteContext, NoteFile, NoteInteraction } from './noteTypes';

export const noteContextSchema = z.object({ kind: z.string(), source: z.string(), text: z.string() }).passthrough();

export const noteSelectionSchema = z.object({ schema: z.number(), source: z.string(), signals: z.array(z.string()) }).passthrough();

/** Our additive `files[].ai_ranges[]` element: 1-based inclusive lines of the committed blob. */
export const noteAiRangeSchema = z
  .object({
    start: z.number().int().min(1),
    end: z.number().int().min(1),
    interaction: z.number().int().min(0).nullable(),
  })
  .passthrough()
  .refine((r) => r.end >= r.start, { message: 'end is before start' });

export const noteLinesSchema = z
  .object({
    ai_added: z.number().int().min(0),
    total_added: z.number().int().min(0),
    deleted: z.number().int().min(0),
  })
  .passthrough();

export const noteInteractionSchema = z
  .object({
    prompt: z.string(),
    response: z.string().nullable(),
    contexts: z.array(noteContextSchema).optional(),
    files_touched: z.array(z.string()).optional(),
    selection: noteSelectionSchema.optional(),
    tools: z.array(z.string()).nullable().optional(),
  })
  .passthrough();

export const noteFileSchema = z
  .object({
    path: z.string(),
    by_ai: z.boolean(),
    generated: z.literal(true).optional(),
    ai_ratio_excluded: z.literal(true).optional(),
    ai_ranges: z.array(noteAiRangeSchema).optional(),
    ai_line_hashes: z.array(z.string().regex(lineHashRe)).optional(),
  })
  .passthrough();

export const attributionMethodSchema = z.enum(['line', 'file', 'none']);

export const noteAttributionSchema = z
  .object({
    ai_ratio: z.number().int().min(0).max(100),
    method: attributionMethodSchema,
    lines: noteLinesSchema.optional(),
  })
  .passthrough();

/** A canonical v1 note (what the CLI writes), unknown keys allowed. */
export const agentNoteV1Schema = z
  .object({
    v: z.literal(1),
    agent: z.string().nullable(),
    session_id: z.string(),
    timestamp: z.string(),
    model: z.string().nullable(),
    interactions: z.array(noteInteractionSchema),
    files: z.array(noteFileSchema),
    attribution: noteAttributionSchema,
  })
  .passthrough();

/** Pre-v1 flat note (before 2026-04-09): only the keys the mapping reads are typed. */
export const legacyFlatNoteSchema = z
  .object({
    files_in_commit: z.array(z.string()).optional(),
    files_by_ai: z.array(z.string()).optional(),
    ai_ratio: z.number().optional(),
    ai_added_lines: z.number().optional(),
    total_added_lines: z.number().optional(),
    deleted_lines: z.number().optional(),
    prompts: z.array(z.string()).optional(),
  })
  .passthrough();

/** Keys of a flat note that the mapping consumes (not carried over as extras). */
const flatKeys = ['files_in_commit', 'files_by_ai', 'ai_ratio', 'ai_added_lines', 'total_added_lines', 'deleted_lines', 'prompts'];

// Structural envelopes: what must hold for the note to be usable at all.
const interactionEnvelope = z.object({ prompt: z.string() }).passthrough();
const fileEnvelope = z.object({ path: z.string(), by_ai: z.boolean() }).passthrough();
const attributionEnvelope = z.object({ ai_ratio: z.number(), method: attributionMethodSchema }).passthrough();

export type NoteLegacyForm = 'none' | 'context' | 'flat';

export type NoteParseResult = { ok: true; note: AgentNoteV1; legacy: NoteLegacyForm; issues: string[] } | { ok: false; reason: string };

type JsonObject = Record<string, unknown>;

function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Defines an own enumerable property (safe for a key named `__proto__`). */
function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Deep copy of a JSON value keeping key order (and `__proto__` as a plain key). */
function cloneJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(cloneJson);
  if (isPlainObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) setOwn(out, k, cloneJson(v[k]));
    return out;
  }
  return v;
}

function formatIssue(prefix: string, err: z.ZodError): string {
  const first = err.issues[0];
  if (!first) return `${prefix}: invalid`;
  const path = first.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  let what: string;
  if (first.code === 'invalid_enum_value') what = `unknown value ${JSON.stringify(first.received)}`;
  else if (first.code === 'invalid_type' && first.received === 'undefined') what = 'required';
  else if (first.code === 'invalid_type') what = `expected ${first.expected}, got ${first.received}`;
  else what = first.message.toLowerCase();
  return `${prefix}${path}: ${what}`;
}

/**
 * Normalizes an interaction's contexts like the peer reader: the legacy `context` string first
 * (as a reference context), then `contexts[]`; texts trimmed, blank dropped, duplicate texts
 * removed (first wins). Extra keys of a context object are kept.
 */
export function normalizeContexts(legacyContext: string | undefined, contexts: readonly NoteContext[]): NoteContext[] {
  const out: NoteContext[] = [];
  const seen = new Set<string>();
  const add = (c: NoteContext) => {
    const text = c.text.trim();
    if (!text || seen.has(text)) return;
    seen.add(text);
    out.push(text === c.text ? c : { ...c, text });
  };
  const legacy = legacyContext?.trim();
  if (legacy) add({ kind: 'reference', source: 'previous_response', text: legacy });
  for (const c of contexts) add(c);
  return out;
}

function normalizeInteraction(raw: JsonObject, at: string, issues: string[]): { interaction: NoteInteraction; hadLegacyContext: boolean } {
  const out = raw as NoteInteraction;
  if (!('response' in out)) setOwn(out, 'response', null);
  else if (out.response !== null && typeof out.response !== 'string') {
    issues.push(`${at}.response is not a string; read as null`);
    out.response = null;
  }

  let legacyContext: string | undefined;
  let hadLegacyContext = false;
  if ('context' in out) {
    if (typeof out.context === 'string') {
      legacyContext = out.context;
      hadLegacyContext = true;
    } else issues.push(`${at}.context is not a string; dropped`);
    delete out.context;
  }
  let contexts: NoteContext[] = [];
  if (out.contexts !== undefined) {
    if (Array.isArray(out.contexts)) {
      out.contexts.forEach((c, i) => {
        const r = noteContextSchema.safeParse(c);
        if (r.success) contexts.push(c as NoteContext);
        else issues.push(formatIssue(`${at}.contexts[${i}]`, r.error) + '; dropped');
      });
    } else issues.push(`${at}.contexts is not an array; dropped`);
  }
  contexts = normalizeContexts(legacyContext, contexts);
  if (contexts.length > 0) {
    if ('contexts' in out) out.contexts = contexts;
    else setOwn(out, 'contexts', contexts);
  } else delete out.contexts;

  if (out.files_touched !== undefined) {
    if (Array.isArray(out.files_touched)) {
      const files = out.files_touched.filter((f): f is string => typeof f === 'string');
      if (files.length !== out.files_touched.length) issues.push(`${at}.files_touched has non-string entries; dropped them`);
      out.files_touched = files;
    } else {
      issues.push(`${at}.files_touched is not an array; dropped`);
      delete out.files_touched;
    }
  }

  if (out.selection !== undefined) {
    const r = noteSelectionSchema.safeParse(out.selection);
    if (!r.success) {
      issues.push(formatIssue(`${at}.selection`, r.error) + '; dropped');
      delete out.selection;
    }
  }

  if (out.tools !== undefined && out.tools !== null) {
    if (Array.isArray(out.tools)) {
      const tools = out.tools.filter((t): t is string => typeof t === 'string');
      if (tools.length !== out.tools.length) issues.push(`${at}.tools has non-string entries; dropped them`);
      out.tools = tools;
    } else {
      issues.push(`${at}.tools is not an array; dropped`);
      delete out.tools;
    }
  }
  return { interaction: out, hadLegacyContext };
}

function normalizeFile(raw: JsonObject, at: string, issues: string[]): NoteFile {
  const out = raw as NoteFile;
  for (const flag of ['generated', 'ai_ratio_excluded'] as const) {
    if (out[flag] !== undefined && out[flag] !== true) {
      if (out[flag] !== false) issues.push(`${at}.${flag} is not a boolean; dropped`);
      delete out[flag];
    }
  }
  if (out.ai_ranges !== undefined) {
    if (Array.isArray(out.ai_ranges)) {
      const ranges = out.ai_ranges.filter((r, i) => {
        const p = noteAiRangeSchema.safeParse(r);
        if (!p.success) issues.push(formatIssue(`${at}.ai_ranges[${i}]`, p.error) + '; dropped');
        return p.success;
      });
      out.ai_ranges = ranges;
    } else {
      issues.push(`${at}.ai_ranges is not an array; dropped`);
      delete out.ai_ranges;
    }
  }
  if (out.ai_line_hashes !== undefined && !z.array(z.string().regex(lineHashRe)).safeParse(out.ai_line_hashes).success) {
    issues.push(`${at}.ai_line_hashes is not a list of line hashes; dropped`);
    delete out.ai_line_hashes;
  }
  return out;
}

function normalizeAttribution(raw: JsonObject, issues: string[]): NoteAttribution {
  const out = raw as NoteAttribution;
  if (out.lines !== undefined) {
    const r = noteLinesSchema.safeParse(out.lines);
    if (!r.success) {
      issues.push(formatIssue('attribution.lines', r.error) + '; dropped');
      delete out.lines;
    }
  }
  return out;
}

function normalizeHeader(obj: JsonObject, issues: string[]): void {
  if (!('v' in obj)) setOwn(obj, 'v', 1);
  else if (typeof obj.v !== 'number') {
    issues.push('v is not a number; read as 1');
    obj.v = 1;
  }
  for (const key of ['agent', 'model'] as const) {
    if (!(key in obj)) setOwn(obj, key, null);
    else if (obj[key] !== null && typeof obj[key] !== 'string') {
      issues.push(`${key} is not a string; read as null`);
      obj[key] = null;
    }
  }
  for (const key of ['session_id', 'timestamp'] as const) {
    if (!(key in obj)) {
      issues.push(`missing ${key}; read as ""`);
      setOwn(obj, key, '');
    } else if (typeof obj[key] !== 'string') {
      issues.push(`${key} is not a string; read as ""`);
      obj[key] = '';
    }
  }
}

function isFlatNote(obj: JsonObject): boolean {
  if (Array.isArray(obj.files) && obj.attribution) return false;
  return Array.isArray(obj.files_in_commit) || Array.isArray(obj.files_by_ai) || Array.isArray(obj.prompts);
}

/** Maps a pre-v1 flat note (§1.8) to v1 keys, in place; returns a failure reason or undefined. */
function mapFlat(obj: JsonObject, issues: string[]): string | undefined {
  const r = legacyFlatNoteSchema.safeParse(obj);
  if (!r.success) return formatIssue('flat note', r.error);
  const flat = r.data;
  const byAi = new Set(flat.files_by_ai ?? []);
  const files = (flat.files_in_commit ?? []).map((path) => ({ path, by_ai: byAi.has(path) }));
  let attribution: NoteAttribution;
  if (flat.ai_added_lines !== undefined && flat.total_added_lines !== undefined) {
    const lines = { ai_added: flat.ai_added_lines, total_added: flat.total_added_lines, deleted: flat.deleted_lines ?? 0 };
    attribution =
      flat.total_added_lines > 0
        ? { ai_ratio: flat.ai_ratio ?? Math.round((lines.ai_added / lines.total_added) * 100), method: 'line', lines }
        : { ai_ratio: 0, method: 'none', lines };
  } else {
    const eligible = files.length;
    const ai = files.filter((f) => f.by_ai).length;
    attribution = { ai_ratio: flat.ai_ratio ?? (eligible ? Math.round((ai / eligible) * 100) : 0), method: 'file' };
  }
  if (!Array.isArray(obj.interactions)) {
    if (obj.interactions !== undefined) issues.push('flat note interactions is not an array; used prompts');
    setOwn(
      obj,
      'interactions',
      (flat.prompts ?? []).map((prompt) => ({ prompt, response: null })),
    );
  }
  setOwn(obj, 'files', files);
  setOwn(obj, 'attribution', attribution);
  for (const k of flatKeys) delete obj[k];
  return undefined;
}

/**
 * Validates and normalizes a parsed note value (see the module comment). Never throws (a value
 * nested deeper than the stack allows is invalid; decodeNote caps nesting long before that).
 * The input is not modified.
 */
export function parseAgentNote(value: unknown): NoteParseResult {
  try {
    return parseAgentNoteValue(value);
  } catch (e) {
    return { ok: false, reason: `unreadable note structure (${e instanceof Error ? e.name : 'error'})` };
  }
}

function parseAgentNoteValue(value: unknown): NoteParseResult {
  if (Array.isArray(value)) return { ok: false, reason: 'not a JSON object (array)' };
  if (!isPlainObject(value)) return { ok: false, reason: `not a JSON object (${value === null ? 'null' : typeof value})` };
  const obj = cloneJson(value) as JsonObject;
  const issues: string[] = [];
  let legacy: NoteLegacyForm = 'none';

  if (isFlatNote(obj)) {
    const failure = mapFlat(obj, issues);
    if (failure) return { ok: false, reason: failure };
    legacy = 'flat';
  }
  if (!Array.isArray(obj.interactions)) return { ok: false, reason: 'missing interactions array' };
  if (!Array.isArray(obj.files)) return { ok: false, reason: 'missing files array' };
  if (!obj.attribution) return { ok: false, reason: 'missing attribution' };
  if (!isPlainObject(obj.attribution)) return { ok: false, reason: 'attribution is not an object' };

  for (const [i, it] of (obj.interactions as unknown[]).entries()) {
    const r = interactionEnvelope.safeParse(it);
    if (!r.success) return { ok: false, reason: formatIssue(`interactions[${i}]`, r.error) };
  }
  for (const [i, f] of (obj.files as unknown[]).entries()) {
    const r = fileEnvelope.safeParse(f);
    if (!r.success) return { ok: false, reason: formatIssue(`files[${i}]`, r.error) };
  }
  const attr = attributionEnvelope.safeParse(obj.attribution);
  if (!attr.success) return { ok: false, reason: formatIssue('attribution', attr.error) };

  normalizeHeader(obj, issues);
  const interactions = (obj.interactions as JsonObject[]).map((it, i) => {
    const { interaction, hadLegacyContext } = normalizeInteraction(it, `interactions[${i}]`, issues);
    if (hadLegacyContext && legacy === 'none') legacy = 'context';
    return interaction;
  });
  obj.interactions = interactions;
  obj.files = (obj.files as JsonObject[]).map((f, i) => normalizeFile(f, `files[${i}]`, issues));
  obj.attribution = normalizeAttribution(obj.attribution, issues);
  if (obj.derived_from !== undefined && !(Array.isArray(obj.derived_from) && obj.derived_from.every((c) => isObjectId(c)))) {
    issues.push('derived_from is not a list of commit ids; dropped');
    delete obj.derived_from;
  }
  return { ok: true, note: obj as AgentNoteV1, legacy, issues };
}
