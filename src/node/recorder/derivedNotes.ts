/**
 * Derived notes (issue #18 part 2): after a fetch or pull brings commits that have no note — a
 * hosting service's "Squash and merge" or "Rebase and merge" of a feature branch whose commits
 * are noted — find the noted commits whose AI lines they contain (core/notes/derivedNote.ts, from
 * the notes' `ai_line_hashes` and the new commit's own diff, so it works in a clone that never had
 * the branch) and write a note with `derived_from` for each.
 *
 * Runs in the sharing worker thread (sharingOps.ts `derive`), never on the extension host's. Cost:
 * one `for-each-ref` and one `rev-list` when nothing is new; otherwise one `diff-tree --stdin` for
 * the commits looked at, the notes added or changed since the last look read once (the index of
 * sources is kept while the worker lives and updated from the notes listing), and one notes
 * commit (`fast-import`) for all derived notes. Looked at: the commits reachable from the
 * remote-tracking refs since the last look (`<git-common-dir>/agentnote/derived-seen.json`; the
 * first look takes the newest 500). One that gets no note stays pending (at most 500, the newest):
 * it is looked at again only when a new source shares one of its distinctive lines (the hashes of
 * its added lines are kept in memory), so a recorded commit costs a few set lookups, not a diff.
 * Never derived twice: a commit with any note is skipped, and a derived note is never a source.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { parseFileDiffs } from '../../core/attribution/diffHunks';
import { isObjectId } from '../../core/git/objectId';
import { derivedNote, type DerivationSource } from '../../core/notes/derivedNote';
import { decodeNote, encodeNote } from '../../core/notes/noteCodec';
import { fileLineHashes, isDistinctiveLine, lineHash, withLineHashes } from '../../core/notes/lineHashes';
import type { AgentNoteV1 } from '../../core/notes/noteTypes';
import { systemClock, type Logger } from '../../core/ports';
import { pinnedDiffArgs, type GitRunner } from '../git/gitRunner';
import { agentNoteRef } from '../notes/noteStore';
import { casRef, committerIdent, isAncestor, objectInfo, readBlobs, readNotesTree, revParse, writeNotesCommit } from '../sharing/notesGit';

export interface DeriveResult {
  /** New or pending commits looked at. */
  looked: number;
  /** Of those, commits without a note. */
  unnoted: number;
  /** Commits that got a derived note. */
  derived: string[];
  /** Why nothing was looked at, if so. */
  skipped?: string;
}

export interface DeriveOptions {
  log: Logger;
  /** Absolute git common dir (the state file lives in its `agentnote/`). */
  commonDir: string;
  now?: number;
}

/** New commits looked at per look at most (the newest first). */
export const maxNewCommits = 500;
/** Pending commits kept for a later look at most. */
const maxPending = 500;
/** Output of the one `diff-tree --stdin` at most; a commit cut off is left pending. */
const maxDiffBytes = 64 * 1024 * 1024;
/** Notes without line hashes whose hashes are computed from their commits, per index update at most. */
const maxHashlessSources = 2000;
/** Note blobs larger than this are not read as sources. */
const maxSourceNoteBytes = 2 * 1024 * 1024;

const stateSchema = z.object({
  v: z.literal(1),
  tips: z.array(z.string().refine((s) => isObjectId(s))).max(100_000),
  notesTip: z.string().nullable(),
  pending: z.array(z.string().refine((s) => isObjectId(s))).max(maxPending),
});
type DeriveState = z.infer<typeof stateSchema>;

interface SourceIndex {
  notesTip: string;
  /** annotated commit → note blob, of every note read (sources or not) */
  blobs: Map<string, string>;
  /** annotated commit → the source and its AI lines' hashes */
  sources: Map<string, { source: DerivationSource; hashes: Set<string> }>;
  /** hash of an AI line → the sources that have it */
  byHash: Map<string, Set<string>>;
}

export async function deriveNotes(git: GitRunner, opts: DeriveOptions): Promise<DeriveResult> {
  const { log } = opts;
  const stateFile = path.join(opts.commonDir, 'agentnote', 'derived-seen.json');
  const state = await readState(stateFile);
  const tips = await currentTips(git);
  const notesTip = (await revParse(git, agentNoteRef)) ?? null;
  const tipsKey = [...tips].sort().join(',');
  const sameTips = state !== undefined && [...state.tips].sort().join(',') === tipsKey;
  const notesMoved = state === undefined || state.notesTip !== notesTip;
  if (sameTips && !notesMoved) return { looked: 0, unnoted: 0, derived: [], skipped: 'nothing new' };

  // the commits new since the last look (the first look: the newest maxNewCommits)
  let fresh: string[] = [];
  if (!sameTips && tips.length > 0) {
    const args = ['rev-list', '--no-merges', `--max-count=${maxNewCommits}`, ...tips];
    const known = (state?.tips ?? []).filter((t) => !tips.includes(t));
    const exists = await objectInfo(git, known);
    const stop = known.filter((t) => exists.get(t)?.type === 'commit');
    if (state) args.push('--not', ...stop, ...tips.filter((t) => state.tips.includes(t)));
    fresh = (await git.run(args, { okExitCodes: [] })).split('\n').filter((l) => isObjectId(l));
  }
  const notes = await readNotesTree(git, notesTip ?? undefined);
  const memory = memoryOf(opts.commonDir);
  // the pending ones: looked at before without a source, waiting for one (the state file keeps
  // the list; their added lines' hashes are in memory once read)
  for (const c of state?.pending ?? []) if (!memory.pending.has(c)) memory.pending.set(c, undefined);
  for (const c of [...memory.pending.keys()]) if (notes.has(c) || !(state?.pending ?? []).includes(c)) forgetPending(memory, c);
  const freshUnnoted = fresh.filter((c) => !notes.has(c));
  const save = async (tip: string | null) => {
    const list = [...new Set([...freshUnnoted, ...(state?.pending ?? [])])].filter((c) => memory.pending.has(c)).slice(0, maxPending);
    for (const c of [...memory.pending.keys()]) if (!list.includes(c)) forgetPending(memory, c);
    await writeState(stateFile, { v: 1, tips, notesTip: tip, pending: list });
  };
  for (const c of freshUnnoted) if (!memory.pending.has(c)) memory.pending.set(c, undefined);
  const result: DeriveResult = { looked: freshUnnoted.length, unnoted: freshUnnoted.length, derived: [] };
  if (memory.pending.size === 0 || notes.size === 0) {
    await save(notesTip);
    return result;
  }

  const { index, added } = await sourceIndex(git, memory, notesTip!, notes);
  // looked at now: the new commits, and the pending ones a new source may be the source of (or
  // whose lines are not known here yet: the first look after the worker started)
  const look = new Set(freshUnnoted);
  for (const c of memory.again) if (memory.pending.has(c)) look.add(c);
  memory.again.clear();
  if (added.length > 0) {
    const newHashes = new Set<string>();
    for (const c of added) for (const h of index.sources.get(c)?.hashes ?? []) newHashes.add(h);
    for (const [c, hashes] of memory.pending) {
      if (hashes === undefined) look.add(c);
      else if (countHits(hashes, newHashes, 1)) look.add(c);
    }
  }
  result.looked = look.size;
  if (look.size === 0 || index.sources.size === 0) {
    await save(notesTip);
    return result;
  }
  const diffs = await commitDiffs(git, [...look]);
  const targets: { commit: string; files: TargetFiles }[] = [];
  for (const target of look) {
    const files = diffs.get(target);
    if (!files) continue; // cut off by the output cap: still pending, its lines unknown
    setPending(memory, target, files);
    targets.push({ commit: target, files });
  }
  const written = await deriveAll(git, targets, index, opts);
  if (written.length === 0) {
    await save(notesTip);
    return result;
  }
  const ident = await committerIdent(git, opts.now ?? systemClock.now());
  const next = await writeNotesCommit(git, {
    ...(notesTip ? { from: notesTip } : {}),
    changes: written.map((w) => ({ commit: w.commit, text: encodeNote(w.note) })),
    message: `Notes derived by Agent Note for ${written.length} commit(s) made by a squash or rebase merge\n`,
    ident,
  });
  if (!(await casRef(git, agentNoteRef, next, notesTip ?? undefined, 'agentnote: derived notes'))) {
    // the notes moved meanwhile (a note was recorded): the next look does it again
    log.info('derived notes not written: the notes ref moved meanwhile; looking again later');
    for (const w of written) memory.again.add(w.commit);
    await save(state?.notesTip ?? null);
    return { ...result, skipped: 'notes ref moved' };
  }
  result.derived = written.map((w) => w.commit);
  for (const w of written) forgetPending(memory, w.commit);
  await save(next);
  log.info(
    `derived notes written for ${written.length} commit(s) of a squash or rebase merge: ${written.map((w) => `${w.commit.slice(0, 8)} ← ${(w.note.derived_from ?? []).map((s) => s.slice(0, 8)).join(', ')}`).join('; ')}`,
  );
  return result;
}

/** What the worker keeps per repository between looks. */
interface RepositoryMemory {
  index?: SourceIndex;
  /** pending commit → the hashes of its distinctive added lines (undefined: not read yet) */
  pending: Map<string, Set<string> | undefined>;
  /** commits whose derived note was not written (the notes ref moved): looked at next time */
  again: Set<string>;
}

const memories = new Map<string, RepositoryMemory>();

function memoryOf(commonDir: string): RepositoryMemory {
  let m = memories.get(commonDir);
  if (!m) memories.set(commonDir, (m = { pending: new Map(), again: new Set() }));
  return m;
}

/** Hashes kept per pending commit at most (a vendored or generated commit is not kept whole). */
const maxPendingHashes = 20_000;

function setPending(memory: RepositoryMemory, commit: string, files: TargetFiles): void {
  const hashes = new Set<string>();
  for (const f of files)
    for (const text of f.added.values()) {
      if (hashes.size >= maxPendingHashes) break;
      if (isDistinctiveLine(text)) hashes.add(lineHash(text));
    }
  memory.pending.set(commit, hashes);
}

function forgetPending(memory: RepositoryMemory, commit: string): void {
  memory.pending.delete(commit);
}

function countHits(a: ReadonlySet<string>, b: ReadonlySet<string>, atLeast: number): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const h of small) if (large.has(h) && ++n >= atLeast) return true;
  return false;
}

type TargetFiles = { path: string; diff1: ReturnType<typeof parseFileDiffs>[number]['hunks'] | undefined; added: Map<number, string> }[];

async function deriveAll(
  git: GitRunner,
  targets: readonly { commit: string; files: TargetFiles }[],
  index: SourceIndex,
  opts: DeriveOptions,
): Promise<{ commit: string; note: AgentNoteV1 }[]> {
  // the sources worth matching per target: those with at least two of its distinctive added lines
  const candidates = new Map<string, string[]>();
  for (const t of targets) {
    const hits = new Map<string, number>();
    for (const f of t.files)
      for (const text of f.added.values()) {
        if (!isDistinctiveLine(text)) continue;
        for (const c of index.byHash.get(lineHash(text)) ?? []) hits.set(c, (hits.get(c) ?? 0) + 1);
      }
    const list = [...hits].filter(([c, n]) => n >= 2 && index.sources.has(c)).map(([c]) => c);
    if (list.length > 0) candidates.set(t.commit, list);
  }
  if (candidates.size === 0) return [];
  const related = await relatedPairs(git, candidates);
  const out: { commit: string; note: AgentNoteV1 }[] = [];
  for (const t of targets) {
    const picked = (candidates.get(t.commit) ?? [])
      .filter((c) => !related.has(`${c} ${t.commit}`))
      .map((c) => index.sources.get(c)!.source)
      .sort((a, b) => a.note.timestamp.localeCompare(b.note.timestamp) || a.commit.localeCompare(b.commit));
    if (picked.length === 0) continue;
    const r = derivedNote({
      sources: picked,
      files: t.files.map((f) => ({ path: f.path, diff1: f.diff1, added: f.added })),
      clock: { now: () => opts.now ?? systemClock.now() },
    });
    for (const m of r.matches)
      opts.log.debug(
        `derive ${t.commit.slice(0, 8)} ← ${m.commit.slice(0, 8)}: ${m.matched}/${m.hashed} AI lines matched (${m.distinctive} distinctive)${m.qualified ? '' : ', not a source'}`,
      );
    if (r.note) out.push({ commit: t.commit, note: r.note });
  }
  return out;
}

/**
 * The (source, target) pairs, as `"<source> <target>"`, where one is in the other's history: a
 * source there is not what the target was squashed or rebased from. Sources missing here are in
 * no history here. Two `rev-list` walks decide for all pairs at once (a target no source reaches,
 * a source no target reaches, the usual case); only a commit that one of the other side reaches
 * is checked pair by pair (`merge-base --is-ancestor`).
 */
async function relatedPairs(git: GitRunner, candidates: ReadonlyMap<string, readonly string[]>): Promise<Set<string>> {
  const related = new Set<string>();
  const info = await objectInfo(git, [...candidates.values()].flat());
  const sources = [...new Set([...candidates.values()].flat())].filter((c) => info.get(c)?.type === 'commit');
  if (sources.length === 0) return related;
  const targets = [...candidates.keys()];
  const walk = async (from: string[], not: string[]) =>
    new Set(
      (await git.run(['rev-list', '--stdin'], { input: `${[...from, ...not.map((c) => `^${c}`)].join('\n')}\n`, okExitCodes: [] }))
        .split('\n')
        .filter((l) => isObjectId(l)),
    );
  // targets reachable from no source, sources reachable from no target
  const targetsFree = await walk(targets, sources);
  const sourcesFree = await walk(sources, targets);
  const present = new Set(sources);
  for (const [t, list] of candidates)
    for (const c of list) {
      if (!present.has(c) || (targetsFree.has(t) && sourcesFree.has(c))) continue;
      if (c === t || (await isAncestor(git, c, t)) || (await isAncestor(git, t, c))) related.add(`${c} ${t}`);
    }
  return related;
}

/**
 * The notes usable as sources (not derived, with line hashes), indexed by their hashes. Kept per
 * repository while the worker lives and brought up to date from the notes listing: only notes
 * added or changed since the index's tip are read and decoded, so after a pull the cost is that
 * of the new notes, not of the history. A note without `ai_line_hashes` (written before they
 * existed, or by the Agent Note CLI) gets them from its own commit's diff when that commit is
 * here: the text of the lines its `ai_ranges` name, as the recorder would have hashed them.
 */
async function sourceIndex(
  git: GitRunner,
  memory: RepositoryMemory,
  notesTip: string,
  notes: Map<string, string>,
): Promise<{ index: SourceIndex; added: string[] }> {
  const added: string[] = [];
  const cached = memory.index;
  if (cached?.notesTip === notesTip) return { index: cached, added };
  const index: SourceIndex = cached ?? { notesTip, blobs: new Map(), sources: new Map(), byHash: new Map() };
  index.notesTip = notesTip;
  const addSource = (source: DerivationSource) => {
    if (indexSource(index, source)) added.push(source.commit);
  };
  const changed: [string, string][] = [];
  for (const [commit, blob] of notes) if (index.blobs.get(commit) !== blob) changed.push([commit, blob]);
  for (const commit of index.blobs.keys()) if (!notes.has(commit)) dropSource(index, commit);
  for (const [commit] of changed) dropSource(index, commit);
  memory.index = index;
  if (changed.length === 0) return { index, added };

  const sizes = await objectInfo(
    git,
    changed.map(([, b]) => b),
  );
  const texts = await readBlobs(
    git,
    changed.map(([, b]) => b).filter((b) => (sizes.get(b)?.size ?? Infinity) <= maxSourceNoteBytes),
  );
  const hashless: DerivationSource[] = [];
  for (const [commit, blob] of changed) {
    index.blobs.set(commit, blob);
    const text = texts.get(blob);
    if (!text || !text.includes('"ai_ranges"')) continue;
    const d = decodeNote(text);
    if (d.kind !== 'valid' || d.note.derived_from !== undefined) continue;
    if (d.note.files.some((f) => fileLineHashes(f))) addSource({ commit, note: d.note });
    else if (d.note.files.some((f) => (f.ai_ranges?.length ?? 0) > 0)) hashless.push({ commit, note: d.note });
  }
  if (hashless.length > 0) {
    // the newest first, at most maxHashlessSources per update; their commits' diffs in one diff-tree
    hashless.sort((a, b) => b.note.timestamp.localeCompare(a.note.timestamp));
    const present = await objectInfo(
      git,
      hashless.map((h) => h.commit),
    );
    const here = hashless.filter((h) => present.get(h.commit)?.type === 'commit').slice(0, maxHashlessSources);
    const diffs =
      here.length > 0
        ? await commitDiffs(
            git,
            here.map((h) => h.commit),
          )
        : new Map<string, TargetFiles>();
    for (const h of here) {
      const files = diffs.get(h.commit);
      if (!files) continue;
      const note = withLineHashes(h.note, new Map(files.map((f) => [f.path, f.added])));
      if (note.files.some((f) => fileLineHashes(f))) addSource({ commit: h.commit, note });
    }
  }
  return { index, added };
}

/** Adds a source to the index; false when it has no hashes. */
function indexSource(index: SourceIndex, source: DerivationSource): boolean {
  const hashes = new Set<string>();
  for (const f of source.note.files) for (const h of fileLineHashes(f)?.values() ?? []) hashes.add(h);
  if (hashes.size === 0) return false;
  index.sources.set(source.commit, { source, hashes });
  for (const h of hashes) {
    const set = index.byHash.get(h);
    if (set) set.add(source.commit);
    else index.byHash.set(h, new Set([source.commit]));
  }
  return true;
}

function dropSource(index: SourceIndex, commit: string): void {
  index.blobs.delete(commit);
  const s = index.sources.get(commit);
  if (!s) return;
  index.sources.delete(commit);
  for (const h of s.hashes) {
    const set = index.byHash.get(h);
    set?.delete(commit);
    if (set?.size === 0) index.byHash.delete(h);
  }
}

/** Forgets what the worker keeps in memory (the bench measures a first look after start). */
export function forgetDerivationMemory(): void {
  memories.clear();
}

/** parent → commit diffs with the added lines' text, for many commits in one `diff-tree --stdin`. */
async function commitDiffs(git: GitRunner, commits: readonly string[]): Promise<Map<string, TargetFiles>> {
  const out = await git.runBuffer(['diff-tree', '--stdin', '--patch', '--root', '-r', '--no-renames', ...pinnedDiffArgs], {
    input: `${commits.join('\n')}\n`,
    maxOutputBytes: maxDiffBytes,
    okExitCodes: [],
  });
  const truncated = out.length >= maxDiffBytes;
  const sections = new Map<string, string[]>();
  let cur: string[] | undefined;
  for (const line of out.toString('utf8').split('\n')) {
    if (isObjectId(line)) {
      sections.set(line, (cur = []));
      continue;
    }
    cur?.push(line);
  }
  const map = new Map<string, TargetFiles>();
  const last = [...sections.keys()].pop();
  for (const [commit, lines] of sections) {
    if (truncated && commit === last) continue;
    map.set(
      commit,
      parseFileDiffs(lines.join('\n'), { addedText: true }).map((f) => ({
        path: f.path,
        diff1: f.binary || f.submodule ? undefined : f.hunks,
        added: f.addedText ?? new Map(),
      })),
    );
  }
  // a commit that changes nothing has no section: nothing to derive, not pending
  for (const c of commits) if (!map.has(c) && !(truncated && !sections.has(c))) map.set(c, []);
  return map;
}

/**
 * The remote-tracking refs that point at commits: what a hosting service made arrives there (a
 * fetch, or the fetch of a pull). Commits made here (a commit, amend, rebase or cherry-pick) are
 * the recorders' until they are pushed; the coordinator waits for recording before a look.
 */
async function currentTips(git: GitRunner): Promise<string[]> {
  const out = await git.run(['for-each-ref', '--format=%(objectname) %(objecttype)', 'refs/remotes'], { okExitCodes: [] });
  const tips = new Set<string>();
  for (const line of out.split('\n')) {
    const [id, type] = line.split(' ');
    if (type === 'commit' && isObjectId(id)) tips.add(id);
  }
  return [...tips];
}

async function readState(file: string): Promise<DeriveState | undefined> {
  try {
    const r = stateSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

async function writeState(file: string, state: DeriveState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(state));
  await rename(tmp, file);
}
