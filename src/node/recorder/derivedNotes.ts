/**
 * Derived notes (issue #18 part 2): after a fetch or pull brings commits that have no note — a
 * hosting service's "Squash and merge" or "Rebase and merge" of a feature branch whose commits
 * are noted — find the noted commits whose AI lines they contain (core/notes/derivedNote.ts, from
 * the notes' `ai_line_hashes` and the new commit's own diff, so it works in a clone that never had
 * the branch) and write a note with `derived_from` for each.
 *
 * Runs in the sharing worker thread (sharingOps.ts `derive`), never on the extension host's. Cost:
 * one `for-each-ref` and one `rev-list` when nothing is new; otherwise one `diff-tree --stdin` for
 * all new commits, the notes read once per notes tip (kept while the worker lives), and one
 * notes commit (`fast-import`) for all derived notes. New commits are those reachable from the
 * remote-tracking refs since the last look (`<git-common-dir>/agentnote/
 * derived-seen.json`); the first look takes the newest 500. New commits that got no note are looked
 * at once more when the notes next change (their sources may come a moment later); at most 500.
 * Never derived twice: a commit with any note is skipped, and a derived note is never a source.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { parseFileDiffs } from '../../core/attribution/diffHunks';
import { isObjectId } from '../../core/git/objectId';
import { derivedNote, type DerivationSource } from '../../core/notes/derivedNote';
import { decodeNote, encodeNote } from '../../core/notes/noteCodec';
import { fileLineHashes, isDistinctiveLine, lineHash } from '../../core/notes/lineHashes';
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
  sources: DerivationSource[];
  /** hash of a distinctive-looking AI line → indexes into sources */
  byHash: Map<string, number[]>;
}

/** The index of the last notes tip read (per repository), kept while the worker lives. */
const indexes = new Map<string, SourceIndex>();

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

  // the commits to look at: new since the last look, and the pending ones when the notes moved
  let fresh: string[] = [];
  if (!sameTips && tips.length > 0) {
    const args = ['rev-list', '--no-merges', `--max-count=${maxNewCommits}`, ...tips];
    const known = (state?.tips ?? []).filter((t) => !tips.includes(t));
    const exists = await objectInfo(git, known);
    const stop = known.filter((t) => exists.get(t)?.type === 'commit');
    if (state) args.push('--not', ...stop, ...tips.filter((t) => state.tips.includes(t)));
    fresh = (await git.run(args, { okExitCodes: [] })).split('\n').filter((l) => isObjectId(l));
  }
  // notes of commits this clone does not have arrived (a fetch of the notes of a branch squashed
  // and deleted on the server): the newest commits are looked at again, noted or not before
  if (state && notesMoved && tips.length > 0 && (await foreignNotesArrived(git, state.notesTip, notesTip))) {
    const again = await git.run(['rev-list', '--no-merges', `--max-count=${maxNewCommits}`, ...tips], { okExitCodes: [] });
    fresh = [...new Set([...fresh, ...again.split('\n').filter((l) => isObjectId(l))])];
  }
  const candidates = [...new Set([...fresh, ...(notesMoved ? (state?.pending ?? []) : [])])];
  const notes = await readNotesTree(git, notesTip ?? undefined);
  const unnoted = candidates.filter((c) => !notes.has(c));
  const result: DeriveResult = { looked: candidates.length, unnoted: unnoted.length, derived: [] };
  // pending: the new commits of this look that got no note, looked at once more when the notes
  // move (a fetch can bring a squash commit a moment before the notes it came from). Not the
  // backlog of a first look, and not a commit looked at again already: each notes move (every
  // recorded commit) would diff them all again.
  const retry = new Set(state ? fresh : []);
  const save = (left: string[], tip: string | null) =>
    writeState(stateFile, { v: 1, tips, notesTip: tip, pending: left.filter((c) => retry.has(c)).slice(0, maxPending) });
  if (unnoted.length === 0 || notes.size === 0) {
    await save(unnoted, notesTip);
    return result;
  }

  const index = await sourceIndex(git, opts.commonDir, notesTip!, notes);
  if (index.sources.length === 0) {
    await save(unnoted, notesTip);
    return result;
  }
  const diffs = await commitDiffs(git, unnoted);
  const pending: string[] = [];
  const written: { commit: string; note: AgentNoteV1 }[] = [];
  for (const target of unnoted) {
    const files = diffs.get(target);
    if (!files) {
      pending.push(target);
      continue;
    }
    const note = await deriveOne(git, target, files, index, opts);
    if (note) written.push({ commit: target, note });
    else pending.push(target);
  }
  if (written.length === 0) {
    await save(pending, notesTip);
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
    return { ...result, skipped: 'notes ref moved' };
  }
  result.derived = written.map((w) => w.commit);
  await save(pending, next);
  log.info(
    `derived notes written for ${written.length} commit(s) of a squash or rebase merge: ${written.map((w) => `${w.commit.slice(0, 8)} ← ${(w.note.derived_from ?? []).map((s) => s.slice(0, 8)).join(', ')}`).join('; ')}`,
  );
  return result;
}

type TargetFiles = { path: string; diff1: ReturnType<typeof parseFileDiffs>[number]['hunks'] | undefined; added: Map<number, string> }[];

async function deriveOne(
  git: GitRunner,
  target: string,
  files: TargetFiles,
  index: SourceIndex,
  opts: DeriveOptions,
): Promise<AgentNoteV1 | undefined> {
  // the sources worth matching: those with at least two of the commit's distinctive added lines
  const hits = new Map<number, number>();
  for (const f of files)
    for (const text of f.added.values()) {
      if (!isDistinctiveLine(text)) continue;
      for (const si of index.byHash.get(lineHash(text)) ?? []) hits.set(si, (hits.get(si) ?? 0) + 1);
    }
  let picked = [...hits].filter(([, n]) => n >= 2).map(([si]) => si);
  if (picked.length === 0) return undefined;
  // a source in the commit's own history (or the other way round) is not what it was squashed from
  const present = await objectInfo(
    git,
    picked.map((si) => index.sources[si].commit),
  );
  const kept: number[] = [];
  for (const si of picked) {
    const c = index.sources[si].commit;
    if (present.get(c)?.type === 'commit' && ((await isAncestor(git, c, target)) || (await isAncestor(git, target, c)))) continue;
    kept.push(si);
  }
  picked = kept.sort((a, b) => index.sources[a].note.timestamp.localeCompare(index.sources[b].note.timestamp) || a - b);
  if (picked.length === 0) return undefined;
  const r = derivedNote({
    sources: picked.map((si) => index.sources[si]),
    files: files.map((f) => ({ path: f.path, diff1: f.diff1, added: f.added })),
    clock: { now: () => opts.now ?? systemClock.now() },
  });
  for (const m of r.matches)
    opts.log.debug(
      `derive ${target.slice(0, 8)} ← ${m.commit.slice(0, 8)}: ${m.matched}/${m.hashed} AI lines matched (${m.distinctive} distinctive)${m.qualified ? '' : ', not a source'}`,
    );
  return r.note;
}

/** The notes usable as sources (line hashes, not derived), with an index of their distinctive-looking hashes. */
async function sourceIndex(git: GitRunner, commonDir: string, notesTip: string, notes: Map<string, string>): Promise<SourceIndex> {
  const cached = indexes.get(commonDir);
  if (cached?.notesTip === notesTip) return cached;
  const sizes = await objectInfo(git, notes.values());
  const blobs = await readBlobs(
    git,
    [...new Set(notes.values())].filter((b) => (sizes.get(b)?.size ?? Infinity) <= maxSourceNoteBytes),
  );
  const sources: DerivationSource[] = [];
  const byHash = new Map<string, number[]>();
  for (const [commit, blob] of notes) {
    const text = blobs.get(blob);
    if (!text || !text.includes('"ai_line_hashes"')) continue;
    const d = decodeNote(text);
    if (d.kind !== 'valid' || d.note.derived_from !== undefined) continue;
    const si = sources.length;
    let any = false;
    for (const f of d.note.files) {
      const hashes = fileLineHashes(f);
      if (!hashes) continue;
      any = true;
      for (const h of new Set(hashes.values())) {
        const list = byHash.get(h);
        if (!list) byHash.set(h, [si]);
        else if (list[list.length - 1] !== si) list.push(si);
      }
    }
    if (any) sources.push({ commit, note: d.note });
  }
  const index = { notesTip, sources, byHash };
  indexes.set(commonDir, index);
  return index;
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

/** True when the notes commit `to` has notes, added since `from`, of commits missing here. */
async function foreignNotesArrived(git: GitRunner, from: string | null, to: string | null): Promise<boolean> {
  if (!to) return false;
  let added: string[];
  if (!from) added = [...(await readNotesTree(git, to)).keys()];
  else {
    const out = await git.run(['diff-tree', '-r', '--no-renames', '--diff-filter=AM', '--name-only', '--no-commit-id', from, to], {
      okExitCodes: [],
    });
    added = out
      .split('\n')
      .map((p) => p.replace(/\//g, ''))
      .filter((c) => isObjectId(c));
  }
  if (added.length === 0) return false;
  const info = await objectInfo(git, added);
  return added.some((c) => info.get(c)?.type !== 'commit');
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
