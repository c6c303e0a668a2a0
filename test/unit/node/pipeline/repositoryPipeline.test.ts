// The per-repository recording pipeline (src/node/pipeline/repositoryPipeline.ts) with real git, a
// real transcript in a private HOME and a fake capture standing in for the host's EditTracker.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContentTransition } from '../../../../src/core/capture/editCapture';
import type { Logger } from '../../../../src/core/ports';
import {
  RepositoryPipeline,
  type PipelineCapture,
  type PipelineSettings,
  type RepositoryPipelineOptions,
} from '../../../../src/node/pipeline/repositoryPipeline';
import { SharingWorkerClient } from '../../../../src/node/sharing/sharingWorkerClient';
import { pushOffMarkerName } from '../../../../src/node/hooks/gitHooks';
import { ClaudeSession } from '../../../suite/helpers/agents';
import { TempRepo, useIsolatedGitEnv } from '../../../helpers/tempRepo';
import { makeTempDir, waitFor } from '../../transcripts/tempFiles';

/** Stands in for the host's EditTracker: the test reports each change on disk as the tracker would. */
class FakeCapture implements PipelineCapture {
  settles = 0;
  disposed = false;
  private seq = 0;

  constructor(private readonly emit: (t: ContentTransition) => void) {}

  changed(file: string, before: string, after: string): void {
    this.emit({ id: `fake-${++this.seq}`, file, before, after, time: Date.now(), source: 'disk' });
  }

  settle(): Promise<void> {
    this.settles++;
    return Promise.resolve();
  }

  dispose(): void {
    this.disposed = true;
  }
}

const quietLog: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

const defaults: PipelineSettings = {
  agents: { claude: true, cursor: false, codex: false, gemini: false, copilot: false, cline: false, roo: false, kilo: false, aider: false },
  extraTranscriptRoots: [],
  fetchWithBranch: true,
  sharingPush: 'withBranches',
  keepOnRewrite: true,
  journalRetentionDays: 14,
  redactionExtraPatterns: [],
};

describe('RepositoryPipeline', function () {
  this.timeout(90_000);
  useIsolatedGitEnv();
  let repo: TempRepo;
  let home: ReturnType<typeof makeTempDir>;
  let session: ClaudeSession;
  const pipelines: RepositoryPipeline<FakeCapture>[] = [];
  const captures: FakeCapture[] = [];
  const worker = new SharingWorkerClient({
    script: path.join(__dirname, '..', '..', '..', '..', 'src', 'node', 'sharing', 'sharingWorker.js'),
    idleMs: 500,
  });

  beforeEach(async () => {
    repo = await TempRepo.create({ initialFiles: { 'a.ts': 'one\n' } });
    home = makeTempDir('pipeline-home');
    session = new ClaudeSession(repo.dir, 'claude-sonnet-4-5', home.dir);
    session.prompt('PIPELINE-PROMPT: add a line to a.ts');
  });

  afterEach(async () => {
    for (const p of pipelines.splice(0)) p.dispose();
    captures.splice(0);
    home.cleanup();
    await repo.remove();
  });

  function pipeline(extra: Partial<RepositoryPipelineOptions<FakeCapture>> = {}): RepositoryPipeline<FakeCapture> {
    const p = new RepositoryPipeline<FakeCapture>({
      root: repo.dir,
      log: quietLog,
      settings: defaults,
      homeDir: home.dir,
      env: {},
      startCapture: (emit) => {
        const c = new FakeCapture(emit);
        captures.push(c);
        return c;
      },
      remoteNames: () => [],
      sharingWorker: worker,
      sharingDebounceMs: 20,
      transcriptTuning: { rescanIntervalMs: 0, rescanDebounceMs: 50, debounceMs: 20, pollIntervalMs: 100 },
      tickIntervalMs: 100,
      headSettleMs: 20,
      ...extra,
    });
    pipelines.push(p);
    return p;
  }

  /** Git as a terminal would run it (real dates: a capture after the commit time cannot be in it). */
  async function commitAll(message: string): Promise<string> {
    await repo.git(['add', '-A']);
    await repo.git(['commit', '-q', '-m', message]);
    return repo.head();
  }

  const noteOf = async (sha: string) => (await repo.gitResult(['notes', '--ref=agentnote', 'show', sha])).stdout;

  /** An agent edit of a.ts: the transcript record, the file on disk, and the capture's transition. */
  async function agentEdit(p: RepositoryPipeline<FakeCapture>, line: string): Promise<void> {
    const before = await repo.read('a.ts');
    const edits = () => (p.recorder?.timelineEdits() ?? []).filter((e) => e.origin === 'ai').length;
    const known = edits();
    session.edit('a.ts', before, `${before}${line}\n`);
    p.capture?.changed('a.ts', before, `${before}${line}\n`);
    await waitFor(() => edits() > known, 15_000, 'the agent edit matched');
  }

  it('an agent edit and a commit: one note and exactly one notesChanged per commit, however many signals', async () => {
    const p = pipeline();
    let notesChanged = 0;
    const heads: string[] = [];
    p.onDidChangeNotes(() => notesChanged++);
    p.onDidMoveHead((m) => heads.push(m.current));
    await p.start();
    assert.ok(p.capture, 'the capture was started');
    assert.equal(p.tailedTranscripts().claude, 1);

    for (const [i, line] of ['two', 'three'].entries()) {
      await agentEdit(p, line);
      const sha = await commitAll(`feat: ${line}`);
      p.repositoryChanged();
      p.headMoved(sha, 'main');
      p.headMoved(sha, 'main'); // the git extension reports the same HEAD again: no second move
      await p.idle();
      assert.match(await noteOf(sha), /PIPELINE-PROMPT/, `the note of commit ${i + 1}`);
      // the host's file watchers and sharing report the same move of the notes ref again
      p.notesRefChanged();
      p.notesRefChanged();
      p.remoteRefsChanged();
      await new Promise((r) => setTimeout(r, 300));
      await p.sharing?.idle();
      assert.equal(notesChanged, i + 1, `one notesChanged for commit ${i + 1}`);
      assert.deepEqual(heads.at(-1), sha);
    }
    assert.equal(heads.length, 2, 'one HEAD move per commit');
    assert.ok(captures[0].settles >= 2, 'the capture settled before each commit was recorded');

    // another tool writes a note (the CLI, a fetch): the tip moved, one event
    await repo.git(['notes', '--ref=agentnote', 'add', '-m', '{}', 'HEAD~2']);
    p.notesRefChanged();
    p.notesRefChanged();
    await waitFor(() => notesChanged === 3, 5000, 'the foreign note announced');
    // packing moves the ref into packed-refs without moving its tip: nothing to announce
    await repo.git(['pack-refs', '--all']);
    p.notesRefChanged();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(notesChanged, 3);
    assert.equal((await p.recordAgain('HEAD'))?.kind, 'exists');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(notesChanged, 3, 'recording an existing note again moves nothing');
  });

  it('a rebased commit whose note copy comes after the first look, with no notes-ref signal: recomputed for the new diff', async () => {
    const p = pipeline();
    await p.start();
    const base = await repo.head();
    await repo.git(['checkout', '-q', '-b', 'topic']);
    await agentEdit(p, 'two');
    const ai = await commitAll('feat: two');
    p.headMoved(ai, 'topic');
    await p.idle();
    const before = await noteOf(ai);
    assert.match(before, /PIPELINE-PROMPT/);
    // main inserts a line above: the rebased AI line moves from 2 to 3
    await repo.git(['checkout', '-q', '-b', 'side', base]);
    await repo.write('a.ts', 'zero\none\n');
    const side = await commitAll('chore: zero');
    p.headMoved(side, 'side');
    await p.idle();
    await repo.git(['checkout', '-q', 'topic']);
    p.headMoved(ai, 'topic');
    await p.idle();
    // git does not copy the note during the rebase: the first look finds no copy and waits for one
    await repo.git(['-c', 'notes.rewrite.rebase=false', 'rebase', '-q', 'side']);
    const rebased = await repo.head();
    assert.notEqual(rebased, ai);
    p.headMoved(rebased, 'topic');
    await p.idle();
    assert.equal((await repo.gitResult(['notes', '--ref=agentnote', 'show', rebased])).code, 1, 'no note before the copy');
    // the copy lands (as git's at the end of a rebase) and no watcher reports it: no notesRefChanged()
    await repo.git(['notes', '--ref=agentnote', 'copy', ai, rebased]);
    let note = '';
    for (const deadline = Date.now() + 15_000; note === '' || note === before; ) {
      if (Date.now() > deadline) assert.fail('timed out waiting for the rebased commit’s note, recomputed');
      await new Promise((r) => setTimeout(r, 100));
      note = (await repo.gitResult(['notes', '--ref=agentnote', 'show', rebased])).stdout;
    }
    await p.idle(); // the rewrite that wrote it has finished (nothing writes into the repository after the test)
    const parsed = JSON.parse(note) as { files: { path: string; ai_ranges?: unknown[] }[] };
    assert.deepEqual(parsed.files.find((f) => f.path === 'a.ts')?.ai_ranges?.length, 1);
    assert.match(JSON.stringify(parsed.files.find((f) => f.path === 'a.ts')), /"start":3,"end":3/);
  });

  it('dispose at every start-up step leaves nothing running and begins no later step', async () => {
    const full = pipeline();
    await full.start();
    const steps = full.startSteps;
    assert.ok(steps >= 5, `start-up has its await points (${steps})`);
    full.dispose();
    assert.deepEqual(full.leftAfterDispose(), []);
    assert.equal(captures[0].disposed, true, 'the capture is disposed with the pipeline');

    for (let step = 0; step < steps; step++) {
      const before = captures.length;
      const p: RepositoryPipeline<FakeCapture> = pipeline({
        onStartStep: (n) => {
          if (n === step) p.dispose();
        },
      });
      await p.start();
      await new Promise((r) => setTimeout(r, 50)); // a step that ignored the dispose would start its work now
      assert.deepEqual(p.leftAfterDispose(), [], `disposed at step ${step} of ${steps}: nothing left running`);
      assert.equal(p.startSteps, step + 1, `disposed at step ${step}: no later step began`);
      assert.ok(
        captures.slice(before).every((c) => c.disposed),
        `disposed at step ${step}: a capture started before is disposed`,
      );
    }
  });

  it('updateSettings applies at once: agents, redaction patterns and the sharing switch', async () => {
    const p = pipeline();
    let sessionsChanged = 0;
    p.onDidChangeSessions(() => sessionsChanged++);
    await p.start();
    const prompts = () => p.recorder?.sessions.get('claude', session.id)?.turns.map((t) => t.prompt) ?? [];
    await waitFor(() => prompts().length === 1, 10_000, 'the first prompt');

    const seen = sessionsChanged;
    await p.updateSettings({ ...defaults, agents: { ...defaults.agents, claude: false } });
    assert.equal(p.tailedTranscripts().claude ?? 0, 0, 'no Claude transcript tailed while it is off');
    assert.ok(sessionsChanged > seen, 'sessions announced after the agents changed');
    session.prompt('written while Claude Code is off');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(prompts().length, 1);

    await p.updateSettings({ ...defaults, redactionExtraPatterns: ['ZZTOP-[0-9]{5}'], sharingPush: 'off' });
    assert.equal(p.tailedTranscripts().claude, 1);
    await waitFor(() => prompts().length === 2, 10_000, 'the prompt written while off, read from the stored offset');
    session.prompt('Deploy with build ZZTOP-12345 please');
    const journal = () => {
      const dir = path.join(repo.dir, '.git', 'agentnote', 'sessions', session.id);
      return fs.existsSync(dir)
        ? fs
            .readdirSync(dir)
            .filter((f) => f.startsWith('prompts'))
            .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
            .join('')
        : '';
    };
    await waitFor(() => journal().includes('Deploy with build'), 10_000, 'the journaled prompt');
    assert.ok(!journal().includes('ZZTOP-12345'), 'the new pattern is redacted before the journal');
    assert.match(journal(), /\[REDACTED:custom-1\]/);
    assert.ok(fs.existsSync(path.join(repo.dir, '.git', pushOffMarkerName)), 'sharing.push off reached the pre-push switch');

    await p.updateSettings({ ...defaults });
    assert.ok(!fs.existsSync(path.join(repo.dir, '.git', pushOffMarkerName)), 'sharing.push back on');
  });
});
