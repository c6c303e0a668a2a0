/**
 * Two clones through a bare remote on disk, and the checks the sharing tests make on them:
 * line-exact note listings of both sides, and a scan of every object reachable from the
 * remote's notes ref (for privacy assertions).
 */
import type { AgentNoteV1 } from '../../src/core/notes/noteTypes';
import { encodeNote } from '../../src/core/notes/noteCodec';
import { NoteStore } from '../../src/node/notes/noteStore';
import { TempRepo } from './tempRepo';

export interface Clones {
  remote: TempRepo;
  a: TempRepo;
  b: TempRepo;
  /** First commit (on main, pushed). */
  c1: string;
  remove(): Promise<void>;
}

export async function twoClones(): Promise<Clones> {
  const remote = await TempRepo.create({ bare: true });
  const a = await TempRepo.create();
  const c1 = await a.commit({ 'a.txt': 'one\n' }, 'first');
  await a.git(['remote', 'add', 'origin', remote.dir]);
  await a.git(['push', '-q', '-u', 'origin', 'main']);
  const b = await TempRepo.clone(remote.dir);
  return { remote, a, b, c1, remove: async () => void (await Promise.all([remote.remove(), a.remove(), b.remove()])) };
}

export function aNote(prompt: string, timestamp = '2026-03-01T10:00:00.000Z', extra: Partial<AgentNoteV1> = {}): AgentNoteV1 {
  return {
    v: 1,
    agent: 'claude',
    session_id: 'sess-1',
    timestamp,
    model: 'claude-sonnet-4-5',
    interactions: [{ prompt, response: `done: ${prompt}` }],
    files: [{ path: 'a.txt', by_ai: true }],
    attribution: { ai_ratio: 100, method: 'file' },
    ...extra,
  };
}

export async function writeNote(repo: TempRepo, commit: string, note: AgentNoteV1 | string): Promise<void> {
  const store = new NoteStore(repo.runner());
  if (typeof note === 'string') await store.writeText(commit, note, { overwrite: true });
  else await store.write(commit, note, { overwrite: true });
}

/** `<commit>\t<exact note text>` per note of refs/notes/agentnote (or `ref`), sorted: compares both sides line for line. */
export async function noteLines(repo: TempRepo, ref = 'refs/notes/agentnote'): Promise<string[]> {
  const ok = await repo.gitResult(['rev-parse', '-q', '--verify', ref]);
  if (ok.code !== 0) return [];
  const list = (await repo.git(['notes', `--ref=${ref}`, 'list']))
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' '));
  const texts = await blobTexts(
    repo,
    list.map(([blob]) => blob),
  );
  const out = list.map(([blob, commit]) => `${commit}\t${texts.get(blob)}`);
  return out.sort();
}

/** Blob id → text, with one `cat-file --batch`. */
async function blobTexts(repo: TempRepo, ids: string[]): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  if (ids.length === 0) return map;
  const buf = await repo.gitBuffer(['cat-file', '--batch'], { input: `${ids.join('\n')}\n` });
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    const [id, , size] = buf.subarray(pos, nl).toString('utf8').split(' ');
    map.set(id, buf.subarray(nl + 1, nl + 1 + Number(size)).toString('utf8'));
    pos = nl + 1 + Number(size) + 1;
  }
  return map;
}

/** `<commit>\t<encoded note>` for expectations. */
export function expectLine(commit: string, note: AgentNoteV1 | string): string {
  return `${commit}\t${typeof note === 'string' ? note : encodeNote(note)}`;
}

/**
 * Every object reachable from `ref` (or `--all`: every ref) in `repo` — commits, trees, blobs of
 * the whole history — whose content contains `token`. Empty when the ref does not exist.
 */
export async function objectsContaining(repo: TempRepo, ref: string, token: string): Promise<string[]> {
  if (ref !== '--all') {
    const ok = await repo.gitResult(['rev-parse', '-q', '--verify', ref]);
    if (ok.code !== 0) return [];
  }
  const ids = (await repo.git(['rev-list', '--objects', ref]))
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter(Boolean);
  const buf = await repo.gitBuffer(['cat-file', '--batch'], { input: `${ids.join('\n')}\n` });
  const hits: string[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    const [id, , size] = buf.subarray(pos, nl).toString('utf8').split(' ');
    const body = buf.subarray(nl + 1, nl + 1 + Number(size));
    if (body.includes(token)) hits.push(id);
    pos = nl + 1 + Number(size) + 1;
  }
  return hits;
}
