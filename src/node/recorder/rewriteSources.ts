import type { GitRunner } from '../git/gitRunner';
import type { NoteStore } from '../notes/noteStore';
import { isObjectId } from '../../core/git/objectId';
import {
  cherryPickedFrom,
  concatenatedParts,
  parseReflog,
  reflogRewrites,
  type RewriteCandidate,
  squashedFrom,
  maxResetRun,
} from '../../core/notes/rewriteEvidence';

/** HEAD reflog entries read per look (a rebase of that many commits is caught whole). */
const reflogWindow = 400;
/** At most this many commits of a reset (or between a squash's noted commits) are taken as sources. */
const maxResetSources = 50;

/** One new commit and the commits it was made from (oldest first). */
export interface RewriteGroup {
  kind: string;
  target: string;
  sources: string[];
}

/**
 * The rewrites git leaves evidence of without any hook of ours (issue #18; the pure reading is
 * src/core/notes/rewriteEvidence.ts): which new commits were made from which noted commits, from
 * the HEAD reflog, commit messages and the notes git copied. Used by RewriteRecorder.
 */
export class ReflogRewrites {
  /** The reflog's newest entry and the notes ref at the last look (unchanged: nothing new to find). */
  private lastLook: string | undefined;
  private waiting = false;
  private idents: { listing: ReadonlyMap<string, string>; map: Map<string, string> } | undefined;

  /** The last look found a rebased commit whose note git had not copied yet. */
  get waitingForCopy(): boolean {
    return this.waiting;
  }

  /** `seen`: commits the recorder handled already in this run (owned by the recorder). */
  constructor(
    private readonly git: GitRunner,
    private readonly notes: NoteStore,
    private readonly seen: Set<string>,
  ) {}

  /**
   * Groups found without our hook, from the HEAD reflog's newest entries: a rebase's commits whose
   * note is git's copy of other commits' notes (the same blob, or several concatenated), commits
   * `cherry-pick -x` or `merge --squash` named in their message, and a commit right after a reset
   * (the commits the reset left). Each commit once per run; a commit whose note is its own (recorded,
   * or recomputed already) has nothing to do.
   */
  async groups(): Promise<RewriteGroup[]> {
    const { git, notes } = this;
    this.waiting = false;
    const text = await git.tryRun(['log', '-g', '-n', String(reflogWindow), '--format=%H%x09%gs', 'HEAD'], { okExitCodes: [] });
    if (text === undefined) return [];
    // the listing at the ref's value now: the store may trust an older one (its watcher can be late)
    const { refValue, map: listing } = await notes.listNotedCommitsNow();
    const look = `${text.slice(0, text.indexOf('\n') + 1)}${refValue ?? ''}`;
    if (look === this.lastLook) return [];
    const entries = parseReflog(text);
    const { candidates, rebaseProducts } = reflogRewrites(entries);
    const todo = candidates.filter((c) => !this.seen.has(c.sha));
    if (todo.length === 0) {
      this.lastLook = look;
      return [];
    }
    let deferred = false;
    const byBlob = new Map<string, string[]>();
    for (const [commit, blob] of listing) {
      const list = byBlob.get(blob);
      if (list) list.push(commit);
      else byBlob.set(blob, [commit]);
    }
    const messages = await messagesOf(
      this.git,
      todo.filter((c) => c.kind !== 'rebase').map((c) => c.sha),
    );
    const groups: RewriteGroup[] = [];
    for (const c of todo) {
      // a rebase's commit gets git's copy only when the rebase finishes: looked at again until then
      // (this look is not remembered as done; the notes ref's watcher and the pipeline's tick ask again)
      if (c.kind === 'rebase' && !listing.has(c.sha)) {
        deferred = true;
        continue;
      }
      const sources = await this.sourcesOf(c, listing, byBlob, rebaseProducts, messages);
      if (sources === undefined || sources.length === 0) {
        this.seen.add(c.sha);
        continue;
      }
      groups.push({ kind: c.kind, target: c.sha, sources });
    }
    this.waiting = deferred;
    if (!deferred) this.lastLook = look;
    return groups;
  }

  /** The commits `c` was made from that have a note, oldest first; undefined: nothing to do. */
  private async sourcesOf(
    c: RewriteCandidate,
    listing: ReadonlyMap<string, string>,
    byBlob: ReadonlyMap<string, string[]>,
    rebaseProducts: ReadonlySet<string>,
    messages: ReadonlyMap<string, string>,
  ): Promise<string[] | undefined> {
    const { notes } = this;
    if (c.kind === 'rebase') {
      const blob = listing.get(c.sha);
      if (!blob) return undefined; // no copy: nothing claims anything on it
      const text = await notes.readRaw(c.sha);
      if (text === undefined) return undefined;
      const blobs = (await notes.read(c.sha))?.kind === 'valid' ? [blob] : await partBlobs(this.git, text);
      const out: string[] = [];
      for (const b of blobs) {
        // the commit the note was written for: not one this or an earlier rebase made, the oldest
        const others = (byBlob.get(b) ?? []).filter((o) => o !== c.sha && !rebaseProducts.has(o));
        const original = await this.oldest(others);
        if (original && !out.includes(original)) out.push(original);
      }
      return out.length > 1 ? this.withCommitsBetween(out) : out;
    }
    if (c.kind === 'cherry-pick' || c.kind === 'commit') {
      const message = messages.get(c.sha) ?? '';
      let named = c.kind === 'cherry-pick' ? cherryPickedFrom(message) : squashedFrom(message);
      if (named.length === 0 && c.reset) named = await this.resetSources(c.sha, c.reset);
      if (named.length === 0 && c.kind === 'cherry-pick') named = await this.pickedFrom(c.sha, listing, rebaseProducts);
      named = named.filter((s) => s !== c.sha);
      return named.some((s) => listing.has(s)) ? named : [];
    }
    return undefined;
  }

  /**
   * The noted commits of a squash plus the commits between the oldest and the newest of them (the
   * person's commits squashed in, which git's concatenated note does not name), when they are on
   * one line of history; else only the noted ones.
   */
  private async withCommitsBetween(noted: readonly string[]): Promise<string[]> {
    const sorted = await byCommitTime(this.git, noted);
    const out = await this.git.tryRun(
      [
        'rev-list',
        '--reverse',
        '--ancestry-path',
        '-n',
        String(maxResetSources + 1),
        '--end-of-options',
        `${sorted[sorted.length - 1]}`,
        `^${sorted[0]}`,
      ],
      { okExitCodes: [] },
    );
    const between = (out ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => isObjectId(l));
    if (between.length === 0 || between.length > maxResetSources) return [...noted];
    return [...new Set([sorted[0], ...between, ...noted])];
  }

  /**
   * A cherry-pick without `-x`: the noted commit with the same author, author date and subject
   * (git keeps all three), not one a rebase made, the oldest by committer time; [] when none.
   */
  private async pickedFrom(sha: string, listing: ReadonlyMap<string, string>, rebaseProducts: ReadonlySet<string>): Promise<string[]> {
    const format = '--format=%H%x00%an%x00%ae%x00%at%x00%s';
    const own = (await this.git.tryRun(['show', '-s', format, '--end-of-options', sha], { okExitCodes: [] }))?.trim();
    if (!own) return [];
    const key = own.slice(own.indexOf('\0'));
    const idents = await this.noteIdents(listing, format);
    const same = [...idents].filter(([c, k]) => k === key && c !== sha && !rebaseProducts.has(c)).map(([c]) => c);
    const original = await this.oldest(same);
    return original ? [original] : [];
  }

  /** Author, author date and subject of every noted commit (one `git log --stdin`), per notes listing. */
  private async noteIdents(listing: ReadonlyMap<string, string>, format: string): Promise<Map<string, string>> {
    if (this.idents?.listing === listing) return this.idents.map;
    const map = new Map<string, string>();
    if (listing.size > 0) {
      const out = await this.git.tryRun(['log', '--no-walk=unsorted', '--ignore-missing', format, '--stdin'], {
        input: [...listing.keys()].join('\n') + '\n',
        okExitCodes: [],
      });
      for (const line of (out ?? '').split('\n')) {
        const at = line.indexOf('\0');
        if (at > 0 && isObjectId(line.slice(0, at))) map.set(line.slice(0, at), line.slice(at));
      }
    }
    this.idents = { listing, map };
    return map;
  }

  /**
   * The commits a `reset` left out of HEAD that a commit of the run right after it re-commits: its
   * parent is the run's previous commit, and the run is one line of history on the reset base.
   */
  private async resetSources(sha: string, reset: { base: string; before: string; previous: string }): Promise<string[]> {
    const { git } = this;
    const parents = (await parentsOf(git, [sha])).get(sha);
    if (!parents || parents.length !== 1 || parents[0] !== reset.previous) return [];
    if (reset.previous !== reset.base) {
      const run = await git.tryRun(
        ['rev-list', '--first-parent', '--parents', '-n', String(maxResetRun + 1), '--end-of-options', sha, `^${reset.base}`],
        { okExitCodes: [] },
      );
      const inRun = (run ?? '').split('\n').filter((l) => isObjectId(l.trim().split(' ')[0] ?? ''));
      // one line of history on the reset base: the run's oldest commit has the base as its parent
      const oldest = inRun[inRun.length - 1]?.trim().split(' ');
      if (inRun.length === 0 || inRun.length > maxResetRun || oldest?.[1] !== reset.base) return [];
    }
    const out = await git.tryRun(
      ['rev-list', '--reverse', '--no-merges', '-n', String(maxResetSources + 1), '--end-of-options', reset.before, `^${reset.base}`],
      { okExitCodes: [] },
    );
    const list = (out ?? '')
      .split('\n')
      .filter((l) => isObjectId(l.trim()))
      .map((l) => l.trim());
    // more than the cap: not a recommit of a few commits (a gap rather than a guess)
    return list.length > maxResetSources ? [] : list;
  }

  /** The commit with the oldest committer time (ties: the first listed); undefined for none. */
  private async oldest(commits: readonly string[]): Promise<string | undefined> {
    return (await byCommitTime(this.git, commits))[0];
  }
}

/** Blob ids of the notes a concatenated note was made of (each part a valid note), in order. */
export async function partBlobs(git: GitRunner, text: string): Promise<string[]> {
  const out: string[] = [];
  for (const part of concatenatedParts(text)) {
    const id = (await git.tryRun(['hash-object', '--stdin'], { input: part, okExitCodes: [] }))?.trim();
    if (id && isObjectId(id)) out.push(id);
  }
  return out;
}

/** Each commit's parents (one `git rev-list` for all); a commit that is gone is left out. */
export async function parentsOf(
  git: GitRunner,
  commits: readonly string[],
  known?: ReadonlyMap<string, string[]>,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const ask = commits.filter((c) => {
    const k = known?.get(c);
    if (k) out.set(c, k);
    return !k && isObjectId(c);
  });
  if (ask.length === 0) return out;
  const text = await git.tryRun(['rev-list', '--no-walk=unsorted', '--parents', '--ignore-missing', '--stdin'], {
    input: ask.join('\n') + '\n',
    okExitCodes: [],
  });
  for (const line of (text ?? '').split('\n')) {
    const [sha, ...ps] = line.trim().split(' ');
    if (sha && isObjectId(sha)) out.set(sha, ps);
  }
  return out;
}

/** Each commit's message (one `git log` for all). */
export async function messagesOf(git: GitRunner, commits: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const ask = commits.filter((c) => isObjectId(c));
  if (ask.length === 0) return out;
  const text = await git.tryRun(['log', '--no-walk=unsorted', '--ignore-missing', '-z', '--format=%H%n%B', '--stdin'], {
    input: ask.join('\n') + '\n',
    okExitCodes: [],
  });
  for (const entry of (text ?? '').split('\0')) {
    const nl = entry.indexOf('\n');
    const sha = (nl < 0 ? entry : entry.slice(0, nl)).trim();
    if (isObjectId(sha)) out.set(sha, nl < 0 ? '' : entry.slice(nl + 1));
  }
  return out;
}

/** `commits` sorted by committer time, oldest first (stable: ties keep their order). */
export async function byCommitTime(git: GitRunner, commits: readonly string[], known?: ReadonlyMap<string, number>): Promise<string[]> {
  if (commits.length <= 1) return [...commits];
  const times = known && commits.every((c) => known.has(c)) ? known : await commitTimes(git, commits);
  return commits
    .map((c, i) => ({ c, i, t: times.get(c) ?? Number.MAX_SAFE_INTEGER }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map((x) => x.c);
}

/** Each commit's committer time in seconds (one `git log` for all); a commit that is gone is left out. */
export async function commitTimes(git: GitRunner, commits: readonly string[]): Promise<Map<string, number>> {
  if (commits.length === 0) return new Map();
  const ask = commits.filter((c) => isObjectId(c));
  if (ask.length === 0) return new Map();
  const out = await git.tryRun(['log', '--no-walk=unsorted', '--ignore-missing', '--format=%H %ct', '--stdin'], {
    input: ask.join('\n') + '\n',
    okExitCodes: [],
  });
  const times = new Map<string, number>();
  for (const line of (out ?? '').split('\n')) {
    const [sha, t] = line.trim().split(' ');
    if (sha && isObjectId(sha) && Number.isFinite(Number(t))) times.set(sha, Number(t));
  }
  return times;
}
