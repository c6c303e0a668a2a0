// Long file: all git reads of one commit's attribution (batched trees, diff-tree, cat-file) in one place, so a note costs a fixed number of git processes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentnoteIgnore, type IgnoreRejection } from '../../core/attribution/agentnoteIgnore';
import {
  commitAttribution,
  type CommitAttribution,
  type CommitFileInput,
  type FileEditEvidence,
} from '../../core/attribution/commitAttribution';
import { parseDiffHunks, parseFileDiffs, type DiffHunk, type FileDiff } from '../../core/attribution/diffHunks';
import { generatedHeaderText, hasGeneratedHeader, isGeneratedPath } from '../../core/attribution/generatedFiles';
import type { EditPairDiff } from '../../core/attribution/lineAttribution';
import { emptyBlobId } from '../../core/model/journal';
import { type Logger, nullLogger } from '../../core/ports';
import { GitError, type GitRunner, pinnedDiffArgs } from '../git/gitRunner';
import { TimeSlice } from '../util/timeSlice';
import { isObjectId, objectFormatOf, objectIdPattern } from '../../core/git/objectId';

/**
 * The git side of commit attribution (docs/note-format.md §3.1–3.2, §3.6–3.7, §6):
 * commit paths and blobs from diff-tree, committed hunks from ONE diff-tree call, blob-to-blob diffs
 * for the edit pairs, generated-file headers, `.agentnoteignore` — then `analyzeCommit` feeds the
 * pure core (src/core/attribution). Every diff runs with pinned options (no external diff, no
 * textconv, no colour, Myers with the indent heuristic, no inter-hunk context, fixed a/ b/
 * prefixes, no renames), so user config such as `diff.algorithm=patience` or `diff.external`
 * cannot change results; with git's defaults they equal the Agent Note CLI's.
 */

/** Bytes read from the start of a blob: git's own binary probe (NUL in the first 8000 bytes). */
const headerProbeBytes = 8000;
/** Blobs up to this size are read in one `cat-file --batch` call; larger ones one by one, limited. */
const batchReadMaxBytes = 64 * 1024;
/** Cap for whole-file reads (`.agentnoteignore`). */
const wholeReadMaxBytes = 1024 * 1024;
const zeroId = /^0+$/;
const gitlinkMode = '160000';
/** From this many blob pairs on, their diffs run as one tree-to-tree diff (see prefetchBlobDiffs). */
const minBatchPairs = 3;

/** One agent edit of one file, as recorded by the edit journal. */
export interface EditPairInput {
  /** Repo-relative path, forward slashes. */
  file: string;
  /** Blob before the edit (the empty blob for a new file); undefined ⇒ only count/post evidence. */
  preBlob?: string;
  /** Blob after the edit. */
  postBlob: string;
  /** Key of the interaction (prompt turn) that made the edit. */
  interactionKey: string;
  agent: string;
  /** Edit time (ms); pairs are processed in this order (stable for ties). */
  timestamp: number;
  /** Lines the edit added / deleted as reported by the agent (Cursor `edits[]`). */
  editAdded?: number;
  editDeleted?: number;
  /** Optional stable id; defaults to `p<index in the input>`. */
  pairId?: string;
}

const blobIdSchema = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.string().regex(objectIdPattern));
const countSchema = z.number().int().nonnegative().optional();
const editPairInputSchema = z.object({
  file: z.string().min(1),
  preBlob: z.preprocess((v) => (v === '' || v === null ? undefined : v), blobIdSchema.optional()),
  postBlob: blobIdSchema,
  interactionKey: z.string(),
  agent: z.string(),
  timestamp: z.number().finite(),
  editAdded: countSchema,
  editDeleted: countSchema,
  pairId: z.string().min(1).optional(),
});

export type DegradedCode =
  | 'tooManyFiles'
  | 'blobTooLarge'
  | 'pairBlobTooLarge'
  | 'missingBlob'
  | 'diffFailed'
  | 'pairDiffFailed'
  | 'invalidPair';

/** Why (part of) the line attribution was reduced. Never contains file contents or prompts. */
export interface DegradedReason {
  reason: DegradedCode;
  path?: string;
  pairId?: string;
  detail?: string;
}

export interface CommitAttributionResult extends CommitAttribution {
  /** Full commit id. */
  sha: string;
  degraded: DegradedReason[];
  /** Where `.agentnoteignore` came from: the commit's tree, else the working tree (the CLI's only source). */
  ignoreSource: 'commit' | 'worktree' | 'none';
  /** Patterns of `.agentnoteignore` dropped as too complex. */
  ignoreRejected: readonly IgnoreRejection[];
}

export interface CommitDiffsOptions {
  /** Commits with more paths than this get no line attribution (default 500). */
  maxFiles?: number;
  /** Blobs bigger than this are not diffed (default 5 MB). */
  maxBlobBytes?: number;
  /** Working tree root for the `.agentnoteignore` fallback (default: the runner's cwd). */
  worktreeRoot?: string;
  log?: Logger;
}

export interface AnalyzeCommitOptions extends CommitDiffsOptions {
  /** Extra AI files (e.g. transcript `files_touched`) besides the files that have edit pairs. */
  aiFiles?: readonly string[];
  /** Reuse the reads (and caches) of the caller's CommitDiffs; its own limits then apply. */
  diffs?: CommitDiffs;
}

/** One `diff-tree --raw` entry. */
export interface CommitBlobEntry {
  path: string;
  status: string;
  oldMode: string;
  newMode: string;
  /** Parent blob; the empty blob for added files. */
  parentBlob: string;
  /** Committed blob; the empty blob for deleted files. */
  committedBlob: string;
  /** A gitlink on either side. */
  submodule: boolean;
}

/** Git reads of one commit, with a cache of blob-to-blob diffs. */
export class CommitDiffs {
  readonly maxFiles: number;
  readonly maxBlobBytes: number;
  private readonly log: Logger;
  private readonly diffCache = new Map<string, Promise<DiffHunk[]>>();
  /** Pairs queued by prefetchBlobDiffs whose result nobody asked for yet, with their batch. */
  private readonly batched = new Map<string, Promise<Map<string, DiffHunk[]>>>();
  /** diff-tree --raw of full commit ids (a commit's content never changes). */
  private readonly blobsCache = new Map<string, Promise<CommitBlobEntry[]>>();
  /** Full ids known to name a commit. */
  private readonly commits = new Set<string>();
  private emptyBlobValue = emptyBlobId;
  private emptyBlobWritten = false;

  constructor(
    readonly git: GitRunner,
    private readonly opts: CommitDiffsOptions = {},
  ) {
    this.maxFiles = opts.maxFiles ?? 500;
    this.maxBlobBytes = opts.maxBlobBytes ?? 5 * 1024 * 1024;
    this.log = opts.log ?? nullLogger;
  }

  /** Full id of a commit-ish; rejects (GitError) when it does not name a commit. */
  async resolveCommit(rev: string): Promise<string> {
    if (rev.startsWith('-')) throw new GitError('failed', `not a revision: ${rev}`);
    // a full id names the same object forever: asked once per instance
    if (this.commits.has(rev)) return rev;
    const full = (await this.git.run(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim();
    if (full === rev) this.commits.add(full);
    return full;
  }

  /** Records that the full id `sha` names a commit (the caller read it as one): resolveCommit(sha) then needs no git. */
  markCommit(sha: string): void {
    if (isObjectId(sha)) this.commits.add(sha);
  }

  /** Id of the empty blob (SHA-1 constant until ensureEmptyBlob asked git, which also covers SHA-256 repos). */
  get emptyBlob(): string {
    return this.emptyBlobValue;
  }

  /** Writes the empty blob into the object store (blob diffs of new files need it); returns its id. */
  async ensureEmptyBlob(): Promise<string> {
    if (!this.emptyBlobWritten) {
      this.emptyBlobValue = (await this.git.run(['hash-object', '-w', '--stdin'], { input: '' })).trim();
      this.emptyBlobWritten = true;
    }
    return this.emptyBlobValue;
  }

  /** Every path of the commit in git's order (`diff-tree -z --root --no-commit-id --name-only -r`); merges list nothing. */
  async commitFiles(sha: string): Promise<string[]> {
    // the paths of the (cached) --raw listing are the same, in the same order
    if (this.blobsCache.has(sha)) return (await this.commitBlobs(sha)).map((e) => e.path);
    const out = await this.git.runBuffer(['diff-tree', '-z', '--root', '--no-commit-id', '--name-only', '-r', '--no-renames', sha]);
    return out
      .toString('utf8')
      .split('\0')
      .filter((p) => p.length > 0);
  }

  /** Parent/committed blob per path (`diff-tree --raw -z --root -r`); the all-zero id maps to the empty blob. */
  async commitBlobs(sha: string): Promise<CommitBlobEntry[]> {
    if (!isObjectId(sha)) return this.readCommitBlobs(sha);
    let p = this.blobsCache.get(sha);
    if (!p) {
      p = this.readCommitBlobs(sha);
      this.blobsCache.set(sha, p);
      p.catch(() => this.blobsCache.delete(sha));
    }
    return (await p).map((e) => ({ ...e }));
  }

  private async readCommitBlobs(sha: string): Promise<CommitBlobEntry[]> {
    const out = await this.git.runBuffer([
      'diff-tree',
      '--raw',
      '-z',
      '--root',
      '--no-commit-id',
      '-r',
      '--no-renames',
      '--no-abbrev',
      sha,
    ]);
    const tokens = out.toString('utf8').split('\0');
    // SHA-256 repositories: learn their empty blob id from git (SHA-1 uses the constant).
    if (tokens.some((t) => t.startsWith(':') && objectFormatOf(t.split(' ')[2] ?? '') === 'sha256')) await this.ensureEmptyBlob();
    const entries: CommitBlobEntry[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const meta = tokens[i];
      if (!meta.startsWith(':')) continue;
      const [oldMode, newMode, oldId, newId, status] = meta.slice(1).split(' ');
      let path = tokens[++i] ?? '';
      if (/^[RC]/.test(status ?? '')) path = tokens[++i] ?? path;
      if (!path || !oldId || !newId) continue;
      entries.push({
        path,
        status: status ?? '',
        oldMode: oldMode ?? '',
        newMode: newMode ?? '',
        parentBlob: zeroId.test(oldId) ? this.emptyBlob : oldId,
        committedBlob: zeroId.test(newId) ? this.emptyBlob : newId,
        submodule: oldMode === gitlinkMode || newMode === gitlinkMode,
      });
    }
    return entries;
  }

  /**
   * parent → committed hunks of the commit's files from one `diff-tree --patch` call, keyed by
   * path. `paths` restricts the diff (literal pathspecs); omitted ⇒ every file.
   */
  async commitHunks(sha: string, paths?: readonly string[]): Promise<Map<string, FileDiff>> {
    const args = ['diff-tree', '--patch', '--root', '--no-commit-id', '-r', '--no-renames', ...pinnedDiffArgs, sha];
    if (paths) {
      if (paths.length === 0) return new Map();
      args.push('--', ...paths);
    }
    const out = await this.git.runBuffer(args, paths ? { env: { GIT_LITERAL_PATHSPECS: '1' } } : {});
    const map = new Map<string, FileDiff>();
    for (const f of parseFileDiffs(out.toString('utf8'))) map.set(f.path, f);
    return map;
  }

  /** parent → committed hunks of one file of the commit; undefined when the file is not in it. */
  async fileHunks(sha: string, path: string): Promise<FileDiff | undefined> {
    return (await this.commitHunks(sha, [path])).get(path);
  }

  /**
   * Hunks of `git diff <a> <b>` (blob to blob, pinned options). Identical or empty ids
   * short-circuit to no hunks, like the CLI. Cached per pair of ids; rejects on git failure
   * (e.g. a missing object) and does not cache the failure.
   */
  blobDiff(a: string, b: string): Promise<DiffHunk[]> {
    if (!a || !b || a === b) return Promise.resolve([]);
    const key = `${a}..${b}`;
    let p = this.diffCache.get(key);
    if (!p) {
      const batch = this.batched.get(key);
      this.batched.delete(key);
      p = batch
        ? batch.then(
            (m) => m.get(key) ?? this.diffOne(a, b),
            () => this.diffOne(a, b),
          )
        : this.diffOne(a, b);
      this.diffCache.set(key, p);
      p.catch(() => this.diffCache.delete(key));
    }
    return p;
  }

  /**
   * Queues the blob-to-blob diffs of many pairs so that they cost a constant number of git
   * processes instead of one each: ONE `git mktree --batch` builds two synthetic trees (pair i's
   * `a` in the left tree and its `b` in the right one, under the same entry name), and ONE
   * `git diff-tree --patch` between them, with the same pinned options as `blobDiff`, yields the
   * hunks of every pair — git's own diff of the same two blobs, so the hunks equal
   * `git diff <a> <b>`'s. The entry names are made of the two ids (`<a>-<b>`), as neutral for
   * `.gitattributes` as the bare ids `git diff <a> <b>` uses as names. Later `blobDiff(a, b)` calls
   * get the queued result; a pair the batch could not answer (a missing object, a failed batch)
   * falls back to its own `git diff` when asked for, with the same rejection as before. Only ids
   * that look like object ids are batched; fewer than `minBatchPairs` pairs are left to
   * `blobDiff` (no gain). The two trees are unreachable loose
   * objects, like the pre/post blobs of the edit journal; `git gc` prunes them.
   */
  prefetchBlobDiffs(pairs: Iterable<readonly [string, string]>): void {
    const todo = new Map<string, readonly [string, string]>();
    for (const [a, b] of pairs) {
      if (!a || !b || a === b || !isObjectId(a) || !isObjectId(b)) continue;
      const key = `${a}..${b}`;
      if (!this.diffCache.has(key) && !this.batched.has(key)) todo.set(key, [a, b]);
    }
    if (todo.size < minBatchPairs) return;
    const batch = this.diffBatch([...todo.values()]);
    batch.catch((e: unknown) =>
      this.log.debug(`[attribution] batched pair diff failed, diffing pairs one by one: ${e instanceof Error ? e.message : String(e)}`),
    );
    for (const key of todo.keys()) this.batched.set(key, batch);
  }

  private async diffOne(a: string, b: string): Promise<DiffHunk[]> {
    // blob ids come from the journal (a file on disk): only full object ids reach git, never an option
    if (!isObjectId(a) || !isObjectId(b)) throw new GitError('failed', 'not a blob id');
    if (a === this.emptyBlob || b === this.emptyBlob) await this.ensureEmptyBlob();
    const out = await this.git.runBuffer(['diff', ...pinnedDiffArgs, a, b], { okExitCodes: [1] });
    return parseDiffHunks(out.toString('utf8'));
  }

  /** Hunks of every pair from one `mktree --batch` and one `diff-tree --patch`, keyed `<a>..<b>`. */
  private async diffBatch(pairs: readonly (readonly [string, string])[]): Promise<Map<string, DiffHunk[]>> {
    if (pairs.some(([a, b]) => !isObjectId(a) || !isObjectId(b))) throw new GitError('failed', 'not a blob id');
    if (pairs.some(([a, b]) => a === this.emptyBlob || b === this.emptyBlob)) await this.ensureEmptyBlob();
    const entry = (id: string, name: string): string => `100644 blob ${id}\t${name}`;
    const left = pairs.map(([a, b]) => entry(a, `${a}-${b}`));
    const right = pairs.map(([a, b]) => entry(b, `${a}-${b}`));
    const trees = (await this.git.run(['mktree', '--batch'], { input: `${left.join('\n')}\n\n${right.join('\n')}\n` }))
      .split('\n')
      .filter((l) => l.length > 0);
    const [leftTree, rightTree] = trees;
    if (trees.length !== 2 || !isObjectId(leftTree) || !isObjectId(rightTree))
      throw new GitError('failed', 'git mktree --batch returned an unexpected answer');
    this.git.counters.inc('attribution.batchedPairDiffs', pairs.length);
    const out = await this.git.runBuffer(['diff-tree', '--patch', '--no-renames', ...pinnedDiffArgs, leftTree, rightTree]);
    const hunks = new Map<string, DiffHunk[]>();
    for (const f of parseFileDiffs(out.toString('utf8'))) {
      const dash = f.path.indexOf('-');
      if (dash > 0) hunks.set(`${f.path.slice(0, dash)}..${f.path.slice(dash + 1)}`, f.hunks);
    }
    return hunks;
  }

  /**
   * Type, id and size of objects or `<rev>:<path>` expressions in one `cat-file --batch-check`
   * call; undefined for missing ones. The empty blob is always known (we write it lazily).
   */
  async objectInfo(exprs: readonly string[]): Promise<Map<string, { id: string; type: string; size: number } | undefined>> {
    const unique = [...new Set(exprs)].filter((e) => e.length > 0 && !/[\r\n]/.test(e));
    const info = new Map<string, { id: string; type: string; size: number } | undefined>();
    const ask = unique.filter((e) => e !== this.emptyBlob);
    if (unique.includes(this.emptyBlob)) info.set(this.emptyBlob, { id: this.emptyBlob, type: 'blob', size: 0 });
    if (ask.length === 0) return info;
    const out = await this.git.run(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
      input: ask.join('\n') + '\n',
    });
    const lines = out.split('\n');
    ask.forEach((expr, i) => {
      const [id, type, size] = (lines[i] ?? '').split(' ');
      info.set(expr, isObjectId(id) && type && /^\d+$/.test(size ?? '') ? { id, type, size: Number(size) } : undefined);
    });
    return info;
  }

  /** Blob sizes (one `cat-file --batch-check`); undefined for missing objects and non-blobs. */
  async blobSizes(ids: readonly string[]): Promise<Map<string, number | undefined>> {
    const info = await this.objectInfo(ids.filter((id) => isObjectId(id)));
    return new Map([...info].map(([id, o]) => [id, o && o.type === 'blob' ? o.size : undefined]));
  }

  /**
   * First bytes (≤ 8000) of each blob — the whole content for ids in `whole` — small blobs in one
   * `cat-file --batch` call, larger ones by a limited read each. Missing or unreadable blobs are
   * absent from the map.
   */
  async blobHeaders(
    ids: readonly string[],
    sizes: ReadonlyMap<string, number | undefined>,
    whole: ReadonlySet<string> = new Set(),
  ): Promise<Map<string, Uint8Array>> {
    const headers = new Map<string, Uint8Array>();
    const unique = [...new Set(ids)].filter((id) => sizes.get(id) !== undefined);
    const small = unique.filter((id) => (sizes.get(id) ?? 0) <= batchReadMaxBytes);
    const large = unique.filter((id) => (sizes.get(id) ?? 0) > batchReadMaxBytes);
    if (small.length > 0) {
      try {
        const out = await this.git.runBuffer(['cat-file', '--batch'], { input: small.join('\n') + '\n' });
        let pos = 0;
        for (const id of small) {
          const nl = out.indexOf(0x0a, pos);
          if (nl < 0) break;
          const m = /^(\S+) (\S+) (\d+)$/.exec(out.subarray(pos, nl).toString('utf8'));
          if (!m) {
            pos = nl + 1;
            continue;
          }
          const size = Number(m[3]);
          headers.set(id, new Uint8Array(out.subarray(nl + 1, nl + 1 + (whole.has(id) ? size : Math.min(size, headerProbeBytes)))));
          pos = nl + 1 + size + 1;
        }
      } catch (e) {
        this.log.debug(`[attribution] cat-file --batch failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    for (const id of large) {
      const bytes = await this.blobHeader(id, whole.has(id) ? wholeReadMaxBytes : headerProbeBytes);
      if (bytes) headers.set(id, bytes);
    }
    return headers;
  }

  /** The first `maxBytes` bytes of a blob (limited read); undefined when unreadable. */
  async blobHeader(id: string, maxBytes = headerProbeBytes): Promise<Uint8Array | undefined> {
    if (!isObjectId(id)) return undefined;
    try {
      return new Uint8Array(await this.git.runBuffer(['cat-file', 'blob', id], { maxOutputBytes: maxBytes }));
    } catch {
      return undefined;
    }
  }

  /** The first bytes of `<sha>:<path>` (the committed content); undefined for deleted / unreadable paths. */
  async committedHeader(sha: string, path: string, maxBytes = headerProbeBytes): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await this.git.runBuffer(['cat-file', 'blob', `${sha}:${path}`], { maxOutputBytes: maxBytes }));
    } catch {
      return undefined;
    }
  }

  /**
   * `.agentnoteignore` of the commit's tree; if the commit has none, the working tree's (which is
   * all the CLI ever reads — docs/note-format.md §3.7: its result then depends on when it records).
   */
  async agentnoteIgnore(sha: string): Promise<{ text: string; source: 'commit' | 'worktree' | 'none' }> {
    try {
      const out = await this.git.runBuffer(['cat-file', 'blob', `${sha}:${AgentnoteIgnore.fileName}`]);
      return { text: out.toString('utf8'), source: 'commit' };
    } catch {
      // not in the commit: fall through
    }
    return this.worktreeIgnore();
  }

  /** `.agentnoteignore` of the working tree (the CLI's source). */
  async worktreeIgnore(): Promise<{ text: string; source: 'worktree' | 'none' }> {
    try {
      const text = await readFile(join(this.opts.worktreeRoot ?? this.git.cwd, AgentnoteIgnore.fileName), 'utf8');
      return { text, source: 'worktree' };
    } catch {
      return { text: '', source: 'none' };
    }
  }
}

/** Options of every diff we run (on top of the runner's pinned config). */
/** An input pair that passed validation, with its id resolved. */
type ValidPair = EditPairInput & { pairId: string };

/**
 * Line attribution of one commit: `files[]` flags and ranges, `attribution` and the contributing
 * interactions, with the per-file fallback rules of `commitAttribution` (src/core). Bounded work:
 * a commit with more than `maxFiles` paths, or a text blob bigger than `maxBlobBytes`, degrades
 * (listed in `degraded`); oversized binary blobs are recognised by their first 8000 bytes and
 * count 0 lines as git would. Invalid pair inputs are skipped and listed. Rejects (GitError) only
 * when the commit itself cannot be read.
 */
export async function analyzeCommit(
  git: GitRunner,
  sha: string,
  pairs: readonly EditPairInput[],
  opts: AnalyzeCommitOptions = {},
): Promise<CommitAttributionResult> {
  const diffs = opts.diffs ?? new CommitDiffs(git, opts);
  const log = opts.log ?? nullLogger;
  const degraded: DegradedReason[] = [];

  const valid: ValidPair[] = [];
  // validated in time slices: a 500-file commit has a thousand pairs (40 ms in one go on the host)
  const slice = new TimeSlice();
  for (let index = 0; index < pairs.length; index++) {
    if (slice.due) await slice.pause();
    const parsed = editPairInputSchema.safeParse(pairs[index]);
    if (!parsed.success) {
      git.counters.inc('attribution.invalidPairs');
      degraded.push({ reason: 'invalidPair', pairId: `p${index}`, detail: parsed.error.issues.map((i) => i.path.join('.')).join(',') });
      continue;
    }
    valid.push({ ...parsed.data, pairId: parsed.data.pairId ?? `p${index}` });
  }
  // Stable: Array.prototype.sort keeps the input order of equal timestamps.
  valid.sort((a, b) => a.timestamp - b.timestamp);

  const fullSha = await diffs.resolveCommit(sha);
  const entries = await diffs.commitBlobs(fullSha);

  const commitPaths = new Set(entries.map((e) => e.path));
  const pairsByFile = new Map<string, ValidPair[]>();
  for (const p of valid) {
    if (!commitPaths.has(p.file)) continue;
    const list = pairsByFile.get(p.file) ?? [];
    list.push(p);
    pairsByFile.set(p.file, list);
  }
  const aiFiles = new Set([...pairsByFile.keys(), ...(opts.aiFiles ?? []).filter((f) => commitPaths.has(f))]);

  const ids: string[] = [];
  for (const e of entries) if (!e.submodule) ids.push(e.parentBlob, e.committedBlob);
  for (const list of pairsByFile.values()) for (const p of list) ids.push(p.postBlob, ...(p.preBlob ? [p.preBlob] : []));
  // One batch-check for every blob plus the commit's .agentnoteignore, one batch read for headers.
  const ignoreExpr = `${fullSha}:${AgentnoteIgnore.fileName}`;
  const info = await diffs.objectInfo([...ids.filter((id) => isObjectId(id)), ignoreExpr]);
  const sizes = new Map([...info].map(([id, o]) => [id, o && o.type === 'blob' ? o.size : undefined]));
  const ignoreBlob = info.get(ignoreExpr)?.type === 'blob' ? info.get(ignoreExpr)?.id : undefined;
  if (ignoreBlob) sizes.set(ignoreBlob, info.get(ignoreExpr)?.size);

  const headerIds = entries
    .filter((e) => !e.submodule && e.committedBlob !== diffs.emptyBlob && !isGeneratedPath(e.path))
    .map((e) => e.committedBlob);
  const big = entries.filter(
    (e) => !e.submodule && Math.max(sizes.get(e.parentBlob) ?? 0, sizes.get(e.committedBlob) ?? 0) > diffs.maxBlobBytes,
  );
  for (const e of big) headerIds.push(e.parentBlob, e.committedBlob);
  if (ignoreBlob) headerIds.push(ignoreBlob);
  const headers = await diffs.blobHeaders(headerIds, sizes, new Set(ignoreBlob ? [ignoreBlob] : []));
  const ignoreBytes = ignoreBlob ? headers.get(ignoreBlob) : undefined;
  const ignoreFile = ignoreBytes
    ? { text: new TextDecoder().decode(ignoreBytes), source: 'commit' as const }
    : await diffs.worktreeIgnore();
  const ignore = AgentnoteIgnore.parse(ignoreFile.text);

  const generated = new Map<string, boolean>();
  for (const e of entries) {
    if (isGeneratedPath(e.path)) generated.set(e.path, true);
    else {
      const bytes = e.submodule ? undefined : headers.get(e.committedBlob);
      const text = bytes && e.committedBlob !== diffs.emptyBlob ? generatedHeaderText(bytes) : undefined;
      generated.set(e.path, text !== undefined && hasGeneratedHeader(text));
    }
  }

  // Which files need diff1, and which are degraded before any diff runs.
  const tooMany = entries.length > diffs.maxFiles;
  if (tooMany) degraded.push({ reason: 'tooManyFiles', detail: `${entries.length} > ${diffs.maxFiles}` });
  const diff1ByPath = new Map<string, readonly DiffHunk[] | 'degraded'>();
  const toDiff: string[] = [];
  for (const e of entries) {
    if (generated.get(e.path) || ignore.ignores(e.path) || e.submodule) continue;
    if (tooMany) {
      diff1ByPath.set(e.path, 'degraded');
    } else if (big.includes(e)) {
      const binary = [e.parentBlob, e.committedBlob].some((id) => headers.get(id)?.includes(0));
      if (binary) diff1ByPath.set(e.path, []);
      else {
        diff1ByPath.set(e.path, 'degraded');
        degraded.push({ reason: 'blobTooLarge', path: e.path });
      }
    } else {
      toDiff.push(e.path);
    }
  }
  // Every pre → committed and post → committed diff that fullPairs below will ask for, queued as
  // one batch (two git processes for any number of files and pairs) that runs alongside diff-tree.
  const diffed = new Set(toDiff);
  diffs.prefetchBlobDiffs(
    entries.flatMap((e) => {
      if (!diffed.has(e.path)) return [];
      return (pairsByFile.get(e.path) ?? [])
        .filter(
          (p) =>
            p.preBlob &&
            [p.preBlob, p.postBlob, e.committedBlob].every(
              (id) => sizes.get(id) !== undefined && (sizes.get(id) ?? 0) <= diffs.maxBlobBytes,
            ),
        )
        .flatMap((p) => [[p.preBlob as string, e.committedBlob] as const, [p.postBlob, e.committedBlob] as const]);
    }),
  );
  if (toDiff.length > 0) {
    const allListed = toDiff.length === entries.length;
    try {
      const sections = await diffs.commitHunks(fullSha, allListed ? undefined : toDiff);
      for (const path of toDiff) {
        const section = sections.get(path);
        if (section) {
          diff1ByPath.set(path, section.hunks);
          continue;
        }
        // Not found in the patch (a name we could not parse): diff the two blobs instead.
        const e = entries.find((x) => x.path === path);
        try {
          diff1ByPath.set(path, e ? await diffs.blobDiff(e.parentBlob, e.committedBlob) : 'degraded');
        } catch {
          diff1ByPath.set(path, 'degraded');
          degraded.push({ reason: 'diffFailed', path });
        }
      }
    } catch (e) {
      log.warn(`[attribution] diff-tree failed for ${fullSha.slice(0, 8)}: ${e instanceof Error ? e.message : String(e)}`);
      for (const path of toDiff) diff1ByPath.set(path, 'degraded');
      degraded.push({ reason: 'diffFailed', detail: 'diff-tree' });
    }
  }

  const files: CommitFileInput[] = [];
  for (const e of entries) {
    const list = pairsByFile.get(e.path) ?? [];
    const edits: FileEditEvidence[] = list.map((p) => ({
      interactionKey: p.interactionKey,
      agent: p.agent,
      postBlob: p.postBlob,
      ...(p.editAdded !== undefined && p.editDeleted !== undefined ? { editAdded: p.editAdded, editDeleted: p.editDeleted } : {}),
      ...(p.preBlob ? { pairId: p.pairId } : {}),
    }));
    const d1 = diff1ByPath.get(e.path);
    const input: CommitFileInput = {
      path: e.path,
      byAi: aiFiles.has(e.path),
      generated: generated.get(e.path) ?? false,
      ignored: ignore.ignores(e.path),
      committedBlob: e.committedBlob,
      pairs: [],
      edits,
    };
    if (e.submodule) input.unavailable = 'submodule';
    else if (d1 === 'degraded' || d1 === undefined) input.unavailable = 'degraded';
    else input.diff1 = d1;
    if (input.diff1 && !input.generated && !input.ignored) {
      // An oversized binary committed blob: every pair diff against it is "Binary files differ",
      // i.e. no hunks — exactly what git would answer, without reading the blobs.
      const binaryCommitted = big.includes(e) && (headers.get(e.committedBlob)?.includes(0) ?? false);
      input.pairs = binaryCommitted
        ? list
            .filter((p) => p.preBlob)
            .map((p) => ({
              pairId: p.pairId,
              preBlob: p.preBlob as string,
              postBlob: p.postBlob,
              diff2: [],
              diff3: [],
              interactionKey: p.interactionKey,
              agent: p.agent,
            }))
        : await fullPairs(diffs, e, list, sizes, degraded);
    }
    files.push(input);
  }

  const result = commitAttribution({ files, hasEditData: valid.length > 0 && entries.length > 0 });
  log.debug(
    `[attribution] ${fullSha.slice(0, 8)}: ${entries.length} files, ${valid.length} edits, ${result.summary}, ` +
      `ratio ${result.attribution.ai_ratio} (${result.attribution.method}), ${degraded.length} degraded`,
  );
  return { ...result, sha: fullSha, degraded, ignoreSource: ignoreFile.source, ignoreRejected: ignore.rejected };
}

/** The pairs of one file whose blobs exist and fit the bounds, with diff2 / diff3 computed. */
async function fullPairs(
  diffs: CommitDiffs,
  entry: CommitBlobEntry,
  list: readonly ValidPair[],
  sizes: ReadonlyMap<string, number | undefined>,
  degraded: DegradedReason[],
): Promise<EditPairDiff[]> {
  const out: EditPairDiff[] = [];
  const committedSize = sizes.get(entry.committedBlob);
  for (const p of list) {
    if (!p.preBlob) continue;
    const missing = [p.preBlob, p.postBlob].find((id) => sizes.get(id) === undefined);
    if (missing) {
      degraded.push({ reason: 'missingBlob', path: entry.path, pairId: p.pairId });
      continue;
    }
    if ([p.preBlob, p.postBlob].some((id) => (sizes.get(id) ?? 0) > diffs.maxBlobBytes) || (committedSize ?? 0) > diffs.maxBlobBytes) {
      degraded.push({ reason: 'pairBlobTooLarge', path: entry.path, pairId: p.pairId });
      continue;
    }
    try {
      const [diff2, diff3] = await Promise.all([
        diffs.blobDiff(p.preBlob, entry.committedBlob),
        diffs.blobDiff(p.postBlob, entry.committedBlob),
      ]);
      out.push({
        pairId: p.pairId,
        preBlob: p.preBlob,
        postBlob: p.postBlob,
        diff2,
        diff3,
        interactionKey: p.interactionKey,
        agent: p.agent,
      });
    } catch {
      degraded.push({ reason: 'pairDiffFailed', path: entry.path, pairId: p.pairId });
    }
  }
  return out;
}
