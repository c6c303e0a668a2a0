// Drives a RepositoryRecorder exactly as the host does: tailer batches (events with stable keys),
// content transitions from the editor/disk tracker, ticks, commits with real git.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ContentTransition, TransitionSource } from '../../../src/core/capture/editCapture';
import type { AgentEvent, AgentId, EditEvent } from '../../../src/core/model/agentEvents';
import { decodeNote } from '../../../src/core/notes/noteCodec';
import { aiLineNumbers, lineHash } from '../../../src/core/notes/lineHashes';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import type { Clock, Logger } from '../../../src/core/ports';
import { RepositoryRecorder, type RepositoryRecorderOptions } from '../../../src/node/recorder/repositoryRecorder';
import { GitRunner } from '../../../src/node/git/gitRunner';
import { git, runGit, type GitCallOptions, type GitResult } from '../../helpers/tempRepo';

/**
 * A throw-away repository: one `git init` and the local config written directly (these tests
 * spawn a lot of git; on a loaded machine every process counts). Git runs isolated (tempRepo.ts).
 */
export class TestRepo {
  private constructor(
    readonly dir: string,
    private readonly base: string,
  ) {}

  static async create(): Promise<TestRepo> {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'agentnote-recorder-'));
    const dir = path.join(base, 'repo');
    fs.mkdirSync(dir);
    await git(dir, ['init', '-q', '--initial-branch=main', '.']);
    fs.appendFileSync(
      path.join(dir, '.git', 'config'),
      '[user]\n\tname = Test User\n\temail = test@example.com\n[commit]\n\tgpgsign = false\n[core]\n\tautocrlf = false\n',
    );
    return new TestRepo(dir, base);
  }

  git(args: string[], opts: GitCallOptions = {}): Promise<string> {
    return git(this.dir, args, opts);
  }

  gitResult(args: string[], opts: GitCallOptions = {}): Promise<GitResult> {
    return runGit(this.dir, args, opts);
  }

  path(rel: string): string {
    return path.join(this.dir, ...rel.split('/'));
  }

  async write(rel: string, content: string | Buffer): Promise<void> {
    fs.mkdirSync(path.dirname(this.path(rel)), { recursive: true });
    fs.writeFileSync(this.path(rel), content);
  }

  async head(): Promise<string> {
    return (await this.git(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  }

  runner(): GitRunner {
    return new GitRunner(this.dir);
  }

  async remove(): Promise<void> {
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}

/** 2026-05-01T10:00:00Z */
export const T0 = Date.UTC(2026, 4, 1, 10, 0, 0);

export class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

export interface LogLine {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  text: string;
}

export function collectingLogger(lines: LogLine[]): Logger {
  const at =
    (level: LogLine['level']) =>
    (message: string, ...args: unknown[]) =>
      lines.push({ level, text: [message, ...args.map((a) => String(a))].join(' ') });
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export type Item = { event: AgentEvent; key: string; transcriptPath?: string };

/** One agent session writing a fake transcript: every event gets the next line offset as its key. */
export class AgentSession {
  private offset = 0;
  readonly transcriptPath: string;
  /** Everything sent so far (to replay it, as a tailer re-reading the file would). */
  readonly sent: Item[] = [];

  constructor(
    private readonly h: Harness,
    readonly agent: AgentId,
    readonly id: string,
    readonly model?: string,
  ) {
    this.transcriptPath = `/home/ann/.${agent}/transcripts/${id}.jsonl`;
  }

  /** Continues the fake transcript at this byte offset (after lines sent by hand). */
  seek(offset: number): void {
    this.offset = offset;
  }

  private item(event: AgentEvent): Item {
    const it = { event, key: `${this.transcriptPath}:${this.offset}:0`, transcriptPath: this.transcriptPath };
    this.offset += 100;
    return it;
  }

  private async send(...events: AgentEvent[]): Promise<void> {
    const items = events.map((e) => this.item(e));
    this.sent.push(...items);
    await this.h.recorder.onAgentEvents(items);
  }

  private base(): { agent: AgentId; sessionId: string; timestamp: string } {
    return { agent: this.agent, sessionId: this.id, timestamp: new Date(this.h.clock.now()).toISOString() };
  }

  start(extra: { priorTurns?: number } = {}): Promise<void> {
    return this.send({ ...this.base(), kind: 'session', cwd: this.h.repo.dir, ...(this.model ? { model: this.model } : {}), ...extra });
  }

  prompt(text: string, recordId?: string): Promise<void> {
    return this.send({
      ...this.base(),
      kind: 'prompt',
      text,
      ...(recordId ? { recordId } : {}),
      ...(this.model ? { model: this.model } : {}),
    });
  }

  respond(text: string): Promise<void> {
    return this.send({ ...this.base(), kind: 'response', text });
  }

  /** An edit record; `file` repo-relative (made absolute like the adapters do). */
  edit(file: string, e: Omit<EditEvent, 'kind' | 'agent' | 'sessionId' | 'file'> & { noTimestamp?: boolean }): Promise<void> {
    const { noTimestamp, ...rest } = e;
    const b = this.base();
    return this.send({
      agent: b.agent,
      sessionId: b.sessionId,
      ...(noTimestamp ? {} : { timestamp: b.timestamp }),
      kind: 'edit',
      file: this.h.repo.path(file),
      ...rest,
    });
  }

  rewind(turns: number): Promise<void> {
    return this.send({ ...this.base(), kind: 'rewind', turns });
  }

  /** Re-delivers everything sent so far (a tailer that lost its offset re-reads the file). */
  async replay(): Promise<void> {
    await this.h.recorder.onAgentEvents(this.sent);
  }
}

export class Harness {
  readonly log: LogLine[] = [];
  recorder!: RepositoryRecorder;
  private seq = 0;
  /** What the host last saw of each file (the tracker's snapshot). */
  private readonly known = new Map<string, string>();

  private constructor(
    readonly repo: TestRepo,
    readonly clock: FakeClock,
    private readonly extra: Partial<RepositoryRecorderOptions>,
  ) {}

  static async create(files: Record<string, string>, extra: Partial<RepositoryRecorderOptions> = {}): Promise<Harness> {
    const repo = await TestRepo.create();
    const h = new Harness(repo, new FakeClock(T0), extra);
    if (Object.keys(files).length > 0) {
      for (const [rel, content] of Object.entries(files)) await h.writeFile(rel, content);
      await h.commitAll('chore: initial', -60_000);
    }
    h.recorder = await RepositoryRecorder.open(h.options());
    return h;
  }

  /** The GitRunner of the current recorder (its counters count git processes). */
  runner!: GitRunner;

  options(): RepositoryRecorderOptions {
    this.runner = this.repo.runner();
    return { root: this.repo.dir, git: this.runner, log: collectingLogger(this.log), clock: this.clock, ...this.extra };
  }

  /** A new recorder over the same repository and journal (an editor reload). */
  async reopen(): Promise<void> {
    await this.recorder.dispose();
    this.recorder = await RepositoryRecorder.open(this.options());
  }

  session(agent: AgentId, id: string, model?: string): AgentSession {
    return new AgentSession(this, agent, id, model);
  }

  advance(ms: number): void {
    this.clock.t += ms;
  }

  /** Writes a file without telling the recorder (a setup step or a git checkout). */
  async writeFile(rel: string, content: string): Promise<void> {
    await this.repo.write(rel, content);
    this.known.set(rel, content);
  }

  /** Changes a file and reports the transition the host's tracker would emit. */
  async change(rel: string, after: string, source: TransitionSource): Promise<ContentTransition> {
    const before = this.known.get(rel) ?? (fs.existsSync(this.repo.path(rel)) ? fs.readFileSync(this.repo.path(rel), 'utf8') : '');
    if (after === '') fs.rmSync(this.repo.path(rel), { force: true });
    else await this.repo.write(rel, after);
    this.known.set(rel, after);
    const t: ContentTransition = { id: `tr-${++this.seq}`, file: rel, time: this.clock.now(), before, after, source };
    this.recorder.onTransition(t);
    return t;
  }

  async tick(): Promise<void> {
    await this.recorder.tick(this.clock.now());
  }

  /** Stages (all, or `paths`) and commits with the committer date = the fake clock. */
  async commitAll(message: string, offsetMs = 0, paths?: string[], extraArgs: string[] = []): Promise<string> {
    const date = `${Math.floor((this.clock.now() + offsetMs) / 1000)} +0000`;
    await this.repo.git(paths ? ['add', '--', ...paths] : ['add', '-A']);
    await this.repo.git(['commit', '-q', '--no-verify', '--allow-empty', ...extraArgs, '-m', message], {
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    return this.repo.head();
  }

  async amend(message?: string): Promise<string> {
    const date = `${Math.floor(this.clock.now() / 1000)} +0000`;
    await this.repo.git(['add', '-A']);
    await this.repo.git(['commit', '-q', '--no-verify', '--amend', ...(message ? ['-m', message] : ['--no-edit'])], {
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    return this.repo.head();
  }

  /** Exact note text from `git notes show`, undefined without a note. */
  async noteText(sha: string): Promise<string | undefined> {
    const r = await this.repo.gitResult(['notes', '--ref=agentnote', 'show', sha]);
    return r.code === 0 ? r.stdout : undefined;
  }

  /**
   * The note of `sha`. Its additive `ai_line_hashes` are checked here, for every note of every
   * recorder test: each AI file has one hash per AI line, equal to the hash of that line of the
   * committed blob. They are then left out of the returned note (`{ raw: true }` keeps them), so
   * that the tests compare the rest of `files[]` as the CLI's schema has it.
   */
  async note(sha: string, opts: { raw?: boolean } = {}): Promise<AgentNoteV1> {
    const text = await this.noteText(sha);
    if (text === undefined) throw new Error(`no note for ${sha}`);
    const d = decodeNote(text);
    if (d.kind !== 'valid') throw new Error(`invalid note: ${d.reason}`);
    if (opts.raw) return d.note;
    for (const f of d.note.files) {
      const lines = aiLineNumbers(f) ?? [];
      if (lines.length === 0) {
        if (f.ai_line_hashes !== undefined) throw new Error(`${f.path}: line hashes without AI lines`);
        continue;
      }
      if (!f.ai_line_hashes) throw new Error(`${f.path}: AI lines without line hashes in the note of ${sha}`);
      const blob = (await this.repo.git(['show', `${sha}:${f.path}`])).split('\n');
      const want = lines.map((l) => lineHash(blob[l - 1] ?? ''));
      if (JSON.stringify(want) !== JSON.stringify(f.ai_line_hashes))
        throw new Error(
          `${f.path}: line hashes ${JSON.stringify(f.ai_line_hashes)} are not those of lines ${lines.join(',')} of the commit (${JSON.stringify(want)})`,
        );
      delete f.ai_line_hashes;
    }
    return d.note;
  }

  /** Lines of a JSONL file of a session's journal. */
  journalLines(sessionId: string, file: string): Record<string, unknown>[] {
    const dir = path.join(this.repo.dir, '.git', 'agentnote', 'sessions', sessionId);
    const names = file.endsWith('*')
      ? fs
          .readdirSync(dir)
          .filter((n) => n.startsWith(file.slice(0, -1)))
          .sort()
      : [file];
    const out: Record<string, unknown>[] = [];
    for (const n of names) {
      const p = path.join(dir, n);
      if (!fs.existsSync(p)) continue;
      for (const line of fs.readFileSync(p, 'utf8').split('\n')) if (line.trim()) out.push(JSON.parse(line) as Record<string, unknown>);
    }
    return out;
  }

  journalFile(sessionId: string, file: string): string | undefined {
    const p = path.join(this.repo.dir, '.git', 'agentnote', 'sessions', sessionId, file);
    return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined;
  }

  async dispose(): Promise<void> {
    await this.recorder.dispose();
    await this.repo.remove();
  }
}
