import { isObjectId } from '../../core/git/objectId';
import { parseFileDiffs, type FileDiff } from '../../core/attribution/diffHunks';
import type { CommitDiffs } from '../attribution/commitDiffs';
import { type GitRunner, pinnedDiffArgs } from '../git/gitRunner';
import type { NoteStore } from '../notes/noteStore';
import { commitTimes } from './rewriteSources';

/** One rewritten commit and the commits it was made from (see RewriteRecorder). */
export interface BatchGroup {
  target: string;
  sources: readonly string[];
}

/**
 * What the notes of a batch of rewritten commits need from git, read for the whole batch at once
 * (issue #18, "Cost"): a 30-commit rebase costs a handful of git processes instead of a few per
 * commit. Each read falls back to the per-commit call in RewriteRecorder when it has no answer.
 */
export interface RewriteBatch {
  /** Committer time of every source (seconds). */
  times: ReadonlyMap<string, number>;
  /** Each target's own diff (parent → commit), keyed by path; a target git printed nothing for is absent. */
  own: ReadonlyMap<string, ReadonlyMap<string, FileDiff>>;
  /**
   * `<commit>\0<path>` → the blob id at that path in that commit (`null`: no such file, or not a
   * blob — a submodule); pairs of these were queued on the batch's CommitDiffs.
   */
  blobs: ReadonlyMap<string, string | null>;
}

/** Reads the batch: commit times, the targets' own diffs, and the blobs of every claimed path. */
export async function readRewriteBatch(
  git: GitRunner,
  notes: NoteStore,
  diffs: CommitDiffs,
  groups: readonly BatchGroup[],
): Promise<RewriteBatch> {
  const targets = groups.map((g) => g.target).filter(isObjectId);
  const sources = [...new Set(groups.flatMap((g) => g.sources))].filter(isObjectId);
  const [times, own] = await Promise.all([commitTimes(git, sources), ownDiffs(git, targets)]);
  // the paths each group's sources claim AI lines in that its target's own diff has
  const lookups: { commit: string; path: string }[] = [];
  const pairs: { source: string; target: string; path: string }[] = [];
  for (const g of groups) {
    const diff1 = own.get(g.target);
    if (!diff1) continue;
    for (const s of g.sources) {
      const d = await notes.read(s);
      if (d?.kind !== 'valid') continue;
      for (const f of d.note.files) {
        if (!f.ai_ranges?.length || !diff1.has(f.path) || f.path.includes('\n')) continue;
        pairs.push({ source: s, target: g.target, path: f.path });
        lookups.push({ commit: s, path: f.path }, { commit: g.target, path: f.path });
      }
    }
  }
  const blobs = await blobsAt(git, lookups);
  diffs.prefetchBlobDiffs(
    pairs.flatMap((p) => {
      const a = blobs.get(key(p.source, p.path));
      const b = blobs.get(key(p.target, p.path));
      return a && b ? [[a, b] as const] : [];
    }),
  );
  return { times, own, blobs };
}

/** The key of `RewriteBatch.blobs`. */
export function key(commit: string, path: string): string {
  return `${commit}\0${path}`;
}

/**
 * Every target's own diff from ONE `git diff-tree --stdin --patch` (the options of
 * CommitDiffs.commitHunks): git prints each commit's id, then its patch; a commit whose diff is
 * empty prints nothing (and gets an empty map), a merge prints nothing (never a target).
 */
async function ownDiffs(git: GitRunner, targets: readonly string[]): Promise<Map<string, Map<string, FileDiff>>> {
  const out = new Map<string, Map<string, FileDiff>>();
  if (targets.length === 0) return out;
  const text = (
    await git.runBuffer(['diff-tree', '--stdin', '--patch', '--root', '-r', '--no-renames', ...pinnedDiffArgs], {
      input: targets.join('\n') + '\n',
    })
  ).toString('utf8');
  const wanted = new Set(targets);
  for (const t of targets) out.set(t, new Map());
  let current: string | undefined;
  let start = 0;
  const flush = (end: number) => {
    if (current === undefined) return;
    const map = out.get(current)!;
    for (const f of parseFileDiffs(text.slice(start, end))) map.set(f.path, f);
  };
  // a header is a line that is exactly a commit id (patch lines never are: they have a prefix)
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(at, end);
    if (wanted.has(line)) {
      flush(at);
      current = line;
      start = end + 1;
    }
    at = end + 1;
  }
  flush(text.length);
  return out;
}

/** The blob at each `<commit>:<path>` from ONE `git cat-file --batch-check` (null: none, or not a blob). */
async function blobsAt(git: GitRunner, lookups: readonly { commit: string; path: string }[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const todo = [...new Map(lookups.map((l) => [key(l.commit, l.path), l])).values()];
  if (todo.length === 0) return out;
  const text = await git.tryRun(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    input: todo.map((l) => `${l.commit}:${l.path}`).join('\n') + '\n',
    okExitCodes: [],
  });
  if (text === undefined) return out;
  const lines = text.split('\n');
  for (const [i, l] of todo.entries()) {
    const [id, type] = (lines[i] ?? '').split(' ');
    out.set(key(l.commit, l.path), type === 'blob' && isObjectId(id ?? '') ? id! : null);
  }
  return out;
}
