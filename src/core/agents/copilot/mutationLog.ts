import { z } from 'zod';

/**
 * Replays VS Code's chat session mutation log (`chatSessions/<id>.jsonl`, VS Code ≥ 1.109; the
 * writer is `ObjectMutationLog` in microsoft/vscode
 * `src/vs/workbench/contrib/chat/common/model/objectMutationLog.ts`): one JSON entry per line,
 * - `{kind: 0, v}` the whole state (first line, and again when the log is compacted: rewritten
 *   from scratch after a few hundred entries),
 * - `{kind: 1, k: path, v}` set the value at `path` (an empty path replaces the state),
 * - `{kind: 2, k: path, v?: items, i?}` truncate the array at `path` to `i` (when given), then
 *   append `items`,
 * - `{kind: 3, k: path}` delete the value at `path`.
 * Pure and bounded: at most `maxEntries` lines are applied, paths deeper than 32 segments, keys
 * that would reach an object's prototype and entries before the first `kind: 0` are skipped and
 * counted (the rest of the log still applies).
 */

const pathSchema = z.array(z.union([z.string(), z.number().int().nonnegative()])).max(32);
const entrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal(0), v: z.unknown() }).passthrough(),
  z.object({ kind: z.literal(1), k: pathSchema, v: z.unknown() }).passthrough(),
  z
    .object({ kind: z.literal(2), k: pathSchema, v: z.array(z.unknown()).optional(), i: z.number().int().nonnegative().optional() })
    .passthrough(),
  z.object({ kind: z.literal(3), k: pathSchema }).passthrough(),
]);

export interface ReplayResult {
  /** The state after the last entry (undefined when no `kind: 0` entry was found). */
  state: unknown;
  /** Entries applied. */
  applied: number;
  /** Lines that are not JSON. */
  invalidJson: number;
  /** JSON lines that are not a valid entry, or that could not be applied (bad path, no state yet). */
  rejected: number;
  /** The last non-blank line is not JSON (a write in progress). */
  lastLineInvalid: boolean;
  /** Entries applied per kind. */
  kinds: Record<0 | 1 | 2 | 3, number>;
}

const forbidden = new Set(['__proto__', 'constructor', 'prototype']);

export function replayMutationLog(text: string, opts: { maxEntries?: number } = {}): ReplayResult {
  const maxEntries = opts.maxEntries ?? 100_000;
  const r: ReplayResult = {
    state: undefined,
    applied: 0,
    invalidJson: 0,
    rejected: 0,
    lastLineInvalid: false,
    kinds: { 0: 0, 1: 0, 2: 0, 3: 0 },
  };
  let start = 0;
  let seen = 0;
  while (start < text.length && seen < maxEntries) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === '') continue;
    seen++;
    let raw: unknown;
    r.lastLineInvalid = false;
    try {
      raw = JSON.parse(line);
    } catch {
      r.invalidJson++;
      r.lastLineInvalid = true;
      continue;
    }
    const e = entrySchema.safeParse(raw);
    if (!e.success) {
      r.rejected++;
      continue;
    }
    const entry = e.data;
    if (entry.kind === 0) {
      r.state = entry.v;
    } else if (r.state === undefined || entry.k.some((s) => typeof s === 'string' && forbidden.has(s))) {
      r.rejected++;
      continue;
    } else if (entry.kind === 1 || entry.kind === 3) {
      const value = entry.kind === 1 ? entry.v : undefined;
      if (entry.k.length === 0) {
        if (entry.kind === 1) r.state = value;
        else r.rejected++;
      } else if (!setAt(r.state, entry.k, value, entry.kind === 3)) {
        r.rejected++;
        continue;
      }
    } else if (!pushAt(r.state, entry.k, entry.v, entry.i)) {
      r.rejected++;
      continue;
    }
    r.applied++;
    r.kinds[entry.kind]++;
  }
  return r;
}

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

/** The container that holds the last segment of `path`, or undefined when a step is missing. */
function parentOf(state: unknown, path: readonly (string | number)[]): Container | undefined {
  let cur: unknown = state;
  for (let i = 0; i < path.length - 1; i++) {
    if (!isContainer(cur)) return undefined;
    cur = getOwn(cur, path[i]);
  }
  return isContainer(cur) ? cur : undefined;
}

function getOwn(c: Container, key: string | number): unknown {
  return Object.prototype.hasOwnProperty.call(c, key) ? (c as Record<string | number, unknown>)[key] : undefined;
}

function setAt(state: unknown, path: readonly (string | number)[], value: unknown, del: boolean): boolean {
  const parent = parentOf(state, path);
  if (!parent) return false;
  const key = path[path.length - 1];
  if (Array.isArray(parent)) {
    if (typeof key !== 'number' || key > parent.length) return false;
    parent[key] = value;
  } else if (del) delete parent[key];
  else parent[key] = value;
  return true;
}

function pushAt(
  state: unknown,
  path: readonly (string | number)[],
  items: readonly unknown[] | undefined,
  truncateAt: number | undefined,
): boolean {
  if (path.length === 0) return false;
  const parent = parentOf(state, path);
  if (!parent) return false;
  const key = path[path.length - 1];
  const existing = getOwn(parent, key);
  if (existing !== undefined && !Array.isArray(existing)) return false;
  const arr = (existing as unknown[] | undefined) ?? [];
  if (truncateAt !== undefined && truncateAt < arr.length) arr.length = truncateAt;
  if (items) for (const item of items) arr.push(item);
  (parent as Record<string | number, unknown>)[key] = arr;
  return true;
}
