/**
 * The Timeline v2 data model, pure: a snapshot (sessions, prompts, edits, commits) becomes lanes
 * (one per session, plus one for the person's own edits and one for commits) and marks in time
 * order, each mark knowing its files and the commit it went into. Filters narrow the marks.
 * No DOM, no `vscode`: the webview's axis renderer and the benchmark both use it.
 */
import type { TimelineCommitEntry, TimelineEditEntry, TimelineEntry, TimelinePromptEntry, TimelineSession } from './timelineTypes';

export type TimelineMarkKind = 'session' | 'prompt' | 'edit' | 'uncommitted' | 'commit';

/** One horizontal lane of the axis. */
export interface TimelineLane {
  /** `session:<key>`, {@link humanLaneKey} or {@link commitLaneKey}. */
  key: string;
  kind: 'session' | 'human' | 'commits';
  /** The session's agent (null for the human and commit lanes). */
  agent: string | null;
  model: string | null;
  sessionId: string | null;
  sessionKey: string | null;
  active: boolean;
}

export interface TimelineMark {
  /** Unique id (the entry's id; `session:<key>` for a session start). */
  id: string;
  kind: TimelineMarkKind;
  /** Epoch ms. */
  t: number;
  /** Index into {@link TimelineModel.lanes}. */
  lane: number;
  agent: string | null;
  /** Repository-relative paths the mark touched (a prompt: the files of its turn's edits). */
  files: string[];
  /**
   * Ids of the commit marks the work went into: an edit's commit, a prompt's (the commits of its
   * turn's edits), a commit itself. Empty when not known (a gap, never a guess beyond the rule
   * of {@link buildTimelineModel}).
   */
  commits: string[];
  /** Input order (ties of equal times keep it). */
  seq: number;
  /** The prompt mark that led to an edit (same session and turn), if any. */
  promptId: string | null;
  entry: TimelineEntry | null;
  session: TimelineSession | null;
}

export interface TimelineModel {
  lanes: TimelineLane[];
  /** Every mark, by time; ties keep a session start before its prompt, then the input order. */
  marks: TimelineMark[];
  /** Per lane, indices into {@link marks}, in time order. */
  byLane: number[][];
  byId: Map<string, number>;
  /** Time span of all marks (0, 0 when empty). */
  start: number;
  end: number;
}

export interface TimelineModelFilters {
  /** Agents to keep; empty = all. */
  agents: readonly string[];
  file: string | null;
  branch: string | null;
  /** Inclusive epoch-ms bounds, or null. */
  from: number | null;
  to: number | null;
}

export interface TimelineModelInput {
  sessions: readonly TimelineSession[];
  entries: readonly TimelineEntry[];
  /** Current branch (uncommitted work counts as on it). */
  branch?: string;
  /** ISO time of HEAD's commit: an agent edit after it that no commit took is uncommitted. */
  headTime?: string;
}

export const humanLaneKey = 'human';
export const commitLaneKey = 'commits';

/** `NaN`-safe epoch ms of an ISO time (0 when unparsable). */
export function timeOf(iso: string | undefined): number {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

const kindRank: Record<TimelineMarkKind, number> = { session: 0, prompt: 1, edit: 2, uncommitted: 2, commit: 3 };

/** Time order; at equal times a session start comes before its prompt, edits before the commit; then input order. */
export function compareMarks(
  a: { t: number; kind: TimelineMarkKind; seq: number },
  b: { t: number; kind: TimelineMarkKind; seq: number },
): number {
  return a.t - b.t || kindRank[a.kind] - kindRank[b.kind] || a.seq - b.seq;
}

/**
 * The commit an edit went into: the earliest commit at or after the edit whose note lists the
 * edit's file. A commit without a note (no file list) is never claimed. Commit times have second
 * precision, so the edit time is compared at second precision too.
 */
function commitOfEdit(edit: TimelineEditEntry, t: number, commitsByFile: Map<string, { t: number; id: string }[]>): string | null {
  const list = commitsByFile.get(edit.file);
  if (!list) return null;
  const floor = Math.floor(t / 1000) * 1000;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].t < floor) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo].id : null;
}

/** Build lanes and marks from a snapshot (O(n log n)). */
export function buildTimelineModel(input: TimelineModelInput): TimelineModel {
  const lanes: TimelineLane[] = [];
  const laneOf = new Map<string, number>();
  const addLane = (lane: TimelineLane): number => {
    const existing = laneOf.get(lane.key);
    if (existing !== undefined) return existing;
    laneOf.set(lane.key, lanes.length);
    lanes.push(lane);
    return lanes.length - 1;
  };
  const sessions = new Map(input.sessions.map((s) => [s.key, s]));
  // Lanes: sessions by start time (stable), then the person's edits, then commits.
  const ordered = input.sessions.map((s, i) => ({ s, i, t: timeOf(s.startedAt) })).sort((a, b) => a.t - b.t || a.i - b.i);
  for (const { s } of ordered)
    addLane({
      key: `session:${s.key}`,
      kind: 'session',
      agent: s.agent,
      model: s.model,
      sessionId: s.sessionId,
      sessionKey: s.key,
      active: s.active,
    });
  const laneForSession = (key: string | null | undefined): number | undefined =>
    key && sessions.has(key) ? laneOf.get(`session:${key}`) : undefined;

  const commitsByFile = new Map<string, { t: number; id: string }[]>();
  const commitEntries: { e: TimelineCommitEntry; t: number }[] = [];
  for (const e of input.entries) {
    if (e.kind !== 'commit') continue;
    const t = timeOf(e.time);
    commitEntries.push({ e, t });
    for (const f of e.files ?? []) {
      let list = commitsByFile.get(f);
      if (!list) commitsByFile.set(f, (list = []));
      list.push({ t, id: e.id });
    }
  }
  for (const list of commitsByFile.values()) list.sort((a, b) => a.t - b.t);
  const headTime = input.headTime ? timeOf(input.headTime) : Math.max(0, ...commitEntries.map((c) => c.t));

  // `seq` (the input order, for stable ties) stays on the marks: no second copy of 10,000 objects
  type Draft = TimelineMark & { seq: number };
  const drafts: Draft[] = [];
  let seq = 0;
  const promptIds = new Map<string, string>();
  for (const e of input.entries)
    if (e.kind === 'prompt' && sessions.has(e.sessionKey)) promptIds.set(`${e.sessionKey}\u0000${e.turn}`, e.id);
  const turnFiles = new Map<string, Set<string>>();
  const turnCommits = new Map<string, Set<string>>();

  // A session starts no later than its earliest prompt or edit (a transcript's first turn may be
  // timed after an edit the editor saw, or carry no prompt): "started" never follows its own work.
  const earliest = new Map<string, number>();
  for (const e of input.entries) {
    if (e.kind === 'commit' || e.sessionKey === null) continue;
    const t = timeOf(e.time);
    const seen = earliest.get(e.sessionKey);
    if (seen === undefined || t < seen) earliest.set(e.sessionKey, t);
  }
  for (const s of input.sessions) {
    const lane = laneForSession(s.key);
    if (lane === undefined) continue;
    drafts.push({
      id: `session:${s.key}`,
      kind: 'session',
      t: Math.min(timeOf(s.startedAt), earliest.get(s.key) ?? Infinity),
      lane,
      agent: s.agent,
      files: [],
      commits: [],
      promptId: null,
      entry: null,
      session: s,
      seq: seq++,
    });
  }
  let humanLane: number | undefined;
  let commitLane: number | undefined;
  for (const e of input.entries) {
    const t = timeOf(e.time);
    if (e.kind === 'prompt') {
      const lane = laneForSession(e.sessionKey);
      if (lane === undefined) continue;
      const s = sessions.get(e.sessionKey) ?? null;
      drafts.push({
        id: e.id,
        kind: 'prompt',
        t,
        lane,
        agent: s?.agent ?? null,
        files: [],
        commits: [],
        promptId: null,
        entry: e,
        session: s,
        seq: seq++,
      });
    } else if (e.kind === 'edit') {
      let lane = laneForSession(e.sessionKey);
      if (lane === undefined) {
        humanLane ??= addLane({
          key: humanLaneKey,
          kind: 'human',
          agent: null,
          model: null,
          sessionId: null,
          sessionKey: null,
          active: false,
        });
        lane = humanLane;
      }
      const s = e.sessionKey ? (sessions.get(e.sessionKey) ?? null) : null;
      const commit = commitOfEdit(e, t, commitsByFile);
      const turnKey = e.sessionKey !== null && e.turn !== null ? `${e.sessionKey}\u0000${e.turn}` : null;
      if (turnKey) {
        let files = turnFiles.get(turnKey);
        if (!files) turnFiles.set(turnKey, (files = new Set()));
        files.add(e.file);
        if (commit) {
          let cs = turnCommits.get(turnKey);
          if (!cs) turnCommits.set(turnKey, (cs = new Set()));
          cs.add(commit);
        }
      }
      drafts.push({
        id: e.id,
        kind: commit === null && t > headTime ? 'uncommitted' : 'edit',
        t,
        lane,
        agent: s?.agent ?? null,
        files: [e.file],
        commits: commit ? [commit] : [],
        promptId: turnKey ? (promptIds.get(turnKey) ?? null) : null,
        entry: e,
        session: s,
        seq: seq++,
      });
    }
  }
  for (const { e, t } of commitEntries) {
    commitLane ??= addLane({
      key: commitLaneKey,
      kind: 'commits',
      agent: null,
      model: null,
      sessionId: null,
      sessionKey: null,
      active: false,
    });
    const s = e.sessionKey ? (sessions.get(e.sessionKey) ?? null) : null;
    drafts.push({
      id: e.id,
      kind: 'commit',
      t,
      lane: commitLane,
      agent: e.agent,
      files: e.files ?? [],
      commits: [e.id],
      promptId: null,
      entry: e,
      session: s,
      seq: seq++,
    });
  }
  for (const d of drafts) {
    if (d.kind !== 'prompt') continue;
    const p = d.entry as TimelinePromptEntry;
    const key = `${p.sessionKey}\u0000${p.turn}`;
    d.files = [...(turnFiles.get(key) ?? [])].sort();
    d.commits = [...(turnCommits.get(key) ?? [])];
  }
  drafts.sort(compareMarks);
  const marks: TimelineMark[] = drafts;
  const byLane: number[][] = lanes.map(() => []);
  const byId = new Map<string, number>();
  marks.forEach((m, i) => {
    byLane[m.lane].push(i);
    byId.set(m.id, i);
  });
  return { lanes, marks, byLane, byId, start: marks.length ? marks[0].t : 0, end: marks.length ? marks[marks.length - 1].t : 0 };
}

/** No filter narrows anything. */
export function emptyModelFilters(): TimelineModelFilters {
  return { agents: [], file: null, branch: null, from: null, to: null };
}

/**
 * Does the mark pass the filters? Branch: a commit passes when it is on the branch; other marks
 * when one of their commits is, or (not committed) when the branch is the current one.
 */
export function markPasses(model: TimelineModel, m: TimelineMark, f: TimelineModelFilters, currentBranch?: string): boolean {
  if (f.agents.length > 0 && (m.agent === null || !f.agents.includes(m.agent))) return false;
  if (f.from !== null && m.t < f.from) return false;
  if (f.to !== null && m.t > f.to) return false;
  if (f.file !== null && m.kind !== 'session' && !m.files.includes(f.file)) return false;
  if (f.file !== null && m.kind === 'session') return false;
  if (f.branch !== null) {
    const onBranch = (id: string) => {
      const i = model.byId.get(id);
      const c = i === undefined ? undefined : model.marks[i].entry;
      return c?.kind === 'commit' && (c.branches ?? []).includes(f.branch as string);
    };
    if (m.commits.length > 0) {
      if (!m.commits.some(onBranch)) return false;
    } else if (f.branch !== currentBranch) return false;
  }
  return true;
}

/** The model with only the marks that pass; lanes left without marks are dropped. */
export function filterTimelineModel(model: TimelineModel, f: TimelineModelFilters, currentBranch?: string): TimelineModel {
  const keep = model.marks.filter((m) => markPasses(model, m, f, currentBranch));
  const used = new Set(keep.map((m) => m.lane));
  const laneMap = new Map<number, number>();
  const lanes: TimelineLane[] = [];
  model.lanes.forEach((l, i) => {
    if (!used.has(i)) return;
    laneMap.set(i, lanes.length);
    lanes.push(l);
  });
  const marks = keep.map((m) => (laneMap.get(m.lane) === m.lane ? m : { ...m, lane: laneMap.get(m.lane) as number }));
  const byLane: number[][] = lanes.map(() => []);
  const byId = new Map<string, number>();
  marks.forEach((m, i) => {
    byLane[m.lane].push(i);
    byId.set(m.id, i);
  });
  return { lanes, marks, byLane, byId, start: marks.length ? marks[0].t : 0, end: marks.length ? marks[marks.length - 1].t : 0 };
}

/** Agents, files and branches offered by the filters (sorted; agents in first-seen lane order). */
export function timelineFilterOptions(model: TimelineModel): { agents: string[]; files: string[]; branches: string[] } {
  const agents = new Set<string>();
  const files = new Set<string>();
  const branches = new Set<string>();
  for (const m of model.marks) {
    if (m.agent) agents.add(m.agent);
    for (const f of m.files) files.add(f);
    if (m.entry?.kind === 'commit') for (const b of m.entry.branches ?? []) branches.add(b);
  }
  return { agents: [...agents], files: [...files].sort(), branches: [...branches].sort() };
}

/** The marks the selection relates to: a mark's commits and prompt, and (for a commit) the edits that went into it. */
export function relatedMarks(
  model: TimelineModel,
  id: string,
): { prompt: TimelineMark | null; commits: TimelineMark[]; edits: TimelineMark[] } {
  const i = model.byId.get(id);
  if (i === undefined) return { prompt: null, commits: [], edits: [] };
  const m = model.marks[i];
  const get = (x: string) => {
    const j = model.byId.get(x);
    return j === undefined ? undefined : model.marks[j];
  };
  const commits = m.commits.map(get).filter((c): c is TimelineMark => c !== undefined && c.kind === 'commit');
  const edits =
    m.kind === 'commit'
      ? model.marks.filter((x) => (x.kind === 'edit' || x.kind === 'uncommitted') && x.commits.includes(m.id))
      : m.kind === 'prompt'
        ? model.marks.filter((x) => x.promptId === m.id)
        : [];
  return { prompt: m.promptId ? (get(m.promptId) ?? null) : null, commits, edits };
}
