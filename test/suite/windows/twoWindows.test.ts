import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ClaudeSession, commitAll, git, waitForNote } from '../helpers/agents';
import { readyRepository, recorded, waitFor } from '../helpers/host';

/** Every Agent Note log file of this code-server (one per window's extension host). */
function agentNoteLogs(): string[] {
  const base = process.env.VSH_FIXTURE_BASE;
  assert.ok(base, 'VSH_FIXTURE_BASE is set by the integration runner');
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'Agent Note.log') out.push(p);
    }
  };
  walk(path.join(base, 'user-data', 'logs'));
  return out;
}

/** Commits on refs/notes/agentnote (0 while the ref does not exist). */
function noteRefCommits(root: string): number {
  try {
    return git(root, 'log', '--format=%H', 'refs/notes/agentnote', '--').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '');

/**
 * Issue #7, "two windows": two workbench windows on the same repository, each with its own
 * extension host running Agent Note (the runner opens the second one). An agent turn and a commit
 * from a terminal must give one note (one notes-ref commit) and a journal with every prompt, edit
 * and consumption line once.
 */
describe('two editor windows on one repository', function () {
  this.timeout(120_000);

  it('records each prompt and edit once and writes the note once', async () => {
    const root = await readyRepository();
    // both extension hosts have started capture on this repository
    const logs = await waitFor(
      () => {
        const l = agentNoteLogs().filter((f) => /capture started/.test(read(f)));
        return l.length >= 2 ? l : undefined;
      },
      60_000,
      'Agent Note running in both windows',
    );
    assert.equal(logs.length, 2, `one Agent Note log per window: ${logs.join(', ')}`);

    const notesBefore = noteRefCommits(root);
    fs.writeFileSync(path.join(root, 'calc.ts'), 'export const a = 1;\n');
    const base = commitAll(root, 'chore: calc');
    await recorded(root, base);

    const s = new ClaudeSession(root);
    s.prompt('add b to calc.ts');
    s.edit('calc.ts', 'export const a = 1;\n', 'export const a = 1;\nexport const b = 2;\n');
    s.respond('Added b.');
    const journal = path.join(root, '.git', 'agentnote', 'sessions', s.id);
    // both windows have read the turn (each journals through the per-session lock)
    await waitFor(() => fs.existsSync(path.join(journal, 'ext', 'pairs.jsonl')) || undefined, 20_000, 'the edit journaled');
    await new Promise((r) => setTimeout(r, 2500)); // both hosts' 1 s ticks and tailer polls have run

    const sha = commitAll(root, 'feat: b');
    const note = await waitForNote(root, sha, 30_000);
    assert.equal(note.interactions.length, 1);
    assert.equal(note.interactions[0].prompt, 'add b to calc.ts');
    assert.deepEqual(
      note.files.map((f) => [f.path, f.by_ai]),
      [['calc.ts', true]],
    );
    // the other window has looked at the commit too (it logs the outcome: written or exists)
    const short = sha.slice(0, 7);
    await waitFor(() => logs.every((f) => read(f).includes(`commit ${short}:`)) || undefined, 30_000, 'both windows recorded the commit');

    assert.equal(noteRefCommits(root) - notesBefore, 1, 'exactly one notes-ref commit for the commit');
    const outcomes = logs.map((f) => new RegExp(`commit ${short}: (\\S+)`).exec(read(f))?.[1]).sort();
    assert.deepEqual(outcomes, ['exists', 'written'], 'one window wrote the note, the other found it');

    const lines = (rel: string) => {
      const f = path.join(journal, rel);
      return fs.existsSync(f)
        ? fs
            .readFileSync(f, 'utf8')
            .split('\n')
            .filter((l) => l.trim())
        : [];
    };
    for (const rel of ['prompts.jsonl', 'changes.jsonl', 'committed_pairs.jsonl', 'ext/prompts.jsonl', 'ext/pairs.jsonl']) {
      for (const l of lines(rel)) assert.doesNotThrow(() => JSON.parse(l), `${rel}: a whole JSON line`);
    }
    assert.equal(lines('prompts.jsonl').length, 1, 'the prompt is journaled once');
    assert.equal(lines('ext/prompts.jsonl').length, 1);
    assert.equal(lines('changes.jsonl').length, 1, 'the edit is journaled once');
    assert.equal(lines('ext/pairs.jsonl').length, 1);
    const consumed = lines('committed_pairs.jsonl');
    assert.ok(consumed.length >= 1);
    assert.equal(new Set(consumed).size, consumed.length, 'no consumption line twice');
  });
});
