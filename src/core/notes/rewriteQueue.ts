import { isObjectId } from '../git/objectId';

/**
 * The queue the post-rewrite hook appends to (`<git-dir>/agentnote/rewritten`): one line
 * `<kind> <old> <new>` per pair git reported after an amend or a rebase (issue #18). Pure.
 */
/** The queue file (under `<git-dir>/agentnote`) the post-rewrite hook appends `<kind> <old> <new>` lines to. */
export const rewriteQueueName = 'rewritten';

export type RewriteKind = 'amend' | 'rebase';

/** One new commit and the commits it was made from, oldest first (a squash or fixup gives several). */
export interface RewriteGroup {
  kind: RewriteKind;
  target: string;
  sources: string[];
}

export interface ParsedRewriteQueue {
  groups: RewriteGroup[];
  /** Lines that were not `<kind> <old> <new>` with full object ids (counted, never used). */
  skipped: number;
}

/**
 * Parses queue text into groups in the order their new commit first appears. A pair whose old
 * commit is also its new one (nothing rewritten) is left out. Lines are untrusted: only a known
 * kind and two full object ids make a pair.
 */
export function parseRewriteQueue(text: string): ParsedRewriteQueue {
  const groups: RewriteGroup[] = [];
  const byTarget = new Map<string, RewriteGroup>();
  let skipped = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const [kind, from, to, ...rest] = line.split(/\s+/);
    if ((kind !== 'amend' && kind !== 'rebase') || !from || !to || rest.length > 0 || !isObjectId(from) || !isObjectId(to)) {
      skipped++;
      continue;
    }
    const source = from.toLowerCase();
    const target = to.toLowerCase();
    if (source === target) continue;
    const key = `${kind} ${target}`;
    let g = byTarget.get(key);
    if (!g) {
      g = { kind, target, sources: [] };
      byTarget.set(key, g);
      groups.push(g);
    }
    if (!g.sources.includes(source)) g.sources.push(source);
  }
  return { groups, skipped };
}
