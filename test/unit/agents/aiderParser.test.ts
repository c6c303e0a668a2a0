import * as assert from 'node:assert/strict';
import type { AgentEvent, EditEvent, PromptEvent } from '../../../src/core/model/agentEvents';
import { AiderParser } from '../../../src/core/agents/aider/parser';
import { expectedFor, haveRealworld, readRealworld } from './realworldSamples';

const edits = (events: AgentEvent[]) => events.filter((e): e is EditEvent => e.kind === 'edit');
const prompts = (events: AgentEvent[]) => events.filter((e): e is PromptEvent => e.kind === 'prompt');

function parseAll(text: string, cwd = '/w/repo'): { p: AiderParser; events: AgentEvent[] } {
  const p = new AiderParser({ filePath: `${cwd}/.aider.chat.history.md`, cwdHint: cwd });
  const events: AgentEvent[] = [];
  for (const line of text.split('\n')) events.push(...p.push(line));
  events.push(...p.flush());
  return { p, events };
}

describe('Aider chat history parser (docs/transcripts.md §10)', () => {
  for (const name of ['metadata-aider--0.86.1', 'health-analyzer-poc--0.83.1', 'simple-calculator--0.82.2']) {
    const file = `aider/${name}--aider.chat.history.md`;
    it(`reads the genuine history ${name}: typed prompts, models, and edits only for blocks aider applied`, function () {
      if (!haveRealworld(this, 'aider')) return;
      const expected = expectedFor(file);
      const { events } = parseAll(readRealworld(file));
      const ps = prompts(events);
      assert.equal(ps.length, expected.prompts.length);
      ps.forEach((p, i) => assert.ok(p.text.startsWith(expected.prompts[i].text.trimEnd()), `${i}: ${p.text.slice(0, 60)}`));
      for (const m of new Set(expected.models))
        assert.ok(
          events.some((e) => e.kind === 'session' && e.model === m),
          m,
        );
      const es = edits(events);
      assert.ok(es.length > 0);
      const applied = new Set((expected.appliedEdits ?? []).map((a) => `/w/repo/${a.file}`));
      const blockFiles = new Set(expected.edits.map((x) => `/w/repo/${x.file}`));
      for (const e of es) {
        assert.ok(applied.has(e.file), `${e.file} was applied`);
        // expected.json lists SEARCH/REPLACE blocks; a whole-file listing aider applied may be missing there
        if (e.tool === 'search_replace') assert.ok(blockFiles.has(e.file), `${e.file} has a block`);
        assert.equal(e.agent, 'aider');
        assert.ok(e.tool === 'search_replace' ? e.newString !== undefined : e.contents !== undefined);
      }
      // every applied file gets at least one edit, unless its blocks could not be read
      assert.ok([...applied].filter((f) => es.some((e) => e.file === f)).length >= Math.ceil(applied.size / 2));
      assert.ok(ps.every((p) => !p.text.startsWith('/')));
    });
  }

  it('follows the edit formats: diff, diff-fenced and whole; a failed match and an unapplied block give nothing', () => {
    const text = [
      '',
      '# aider chat started at 2026-12-07 10:00:00',
      '',
      '> Model: gpt-x with diff edit format  ',
      '',
      '#### add b  ',
      '#### and c  ',
      '',
      'Here:',
      '',
      'src/a.py',
      '```python',
      '<<<<<<< SEARCH',
      'a = 1',
      '=======',
      'a = 1',
      'b = 2',
      '>>>>>>> REPLACE',
      '```',
      '',
      'other.py',
      '```python',
      '<<<<<<< SEARCH',
      'x',
      '=======',
      'y',
      '>>>>>>> REPLACE',
      '```',
      '',
      '#### If you are using **npm**:',
      '',
      '> Tokens: 1k sent, 10 received.  ',
      '> Applied edit to src/a.py  ',
      '> Commit 1b2614a feat: add b  ',
      '',
      '#### /model gpt-y  ',
      '',
      '> Model: gpt-y with whole edit format  ',
      '',
      '#### rewrite c.py  ',
      '',
      'c.py',
      '```',
      'print("c")',
      '```',
      '',
      '> Applied edit to c.py  ',
      '',
      '#### try again  ',
      '',
      '```',
      'd.py',
      '<<<<<<< SEARCH',
      'd',
      '=======',
      'D',
      '>>>>>>> REPLACE',
      '```',
      '',
      '> # 1 SEARCH/REPLACE block failed to match!',
      '> Applied edit to d.py  ',
    ].join('\n');
    const { events } = parseAll(text);
    assert.deepEqual(
      prompts(events).map((p) => p.text),
      ['add b\nand c', 'rewrite c.py', 'try again'],
    );
    assert.deepEqual(
      edits(events).map((e) => [e.tool, e.file, e.oldString, e.newString, e.contents, e.model, e.sessionId]),
      [
        ['search_replace', '/w/repo/src/a.py', 'a = 1\n', 'a = 1\nb = 2\n', undefined, 'gpt-x', 'aider-20261207100000'],
        ['whole', '/w/repo/c.py', undefined, undefined, 'print("c")\n', 'gpt-y', 'aider-20261207100000'],
      ],
    );
    // the model's Markdown heading is part of its reply, not a prompt
    assert.ok(events.some((e) => e.kind === 'response' && e.text.includes('#### If you are using **npm**:')));
  });

  it('resumes after a saved state without a turn count reset', () => {
    const { p } = parseAll('# aider chat started at 2026-12-07 10:00:00\n\n#### one  \n\nok\n\n> Tokens: 1  \n');
    const q = new AiderParser({ filePath: '/w/repo/.aider.chat.history.md', cwdHint: '/w/repo' });
    const announced = q.restoreState(JSON.parse(JSON.stringify(p.saveState())));
    assert.deepEqual(
      announced.map((e) => [e.kind, e.sessionId, (e as { priorTurns?: number }).priorTurns]),
      [['session', 'aider-20261207100000', 1]],
    );
  });
});
