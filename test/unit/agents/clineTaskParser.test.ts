import * as assert from 'node:assert/strict';
import type { AgentEvent, EditEvent, PromptEvent } from '../../../src/core/model/agentEvents';
import { ClineParser } from '../../../src/core/agents/cline/parser';
import { RooParser } from '../../../src/core/agents/roo/parser';
import { KiloParser } from '../../../src/core/agents/kilo/parser';
import { parseClineTime } from '../../../src/core/agents/cline/clineTaskParser';
import { parseSearchReplace } from '../../../src/core/agents/searchReplace';
import { expectedFor, haveRealworld, readRealworld } from './realworldSamples';

const edits = (events: AgentEvent[]) => events.filter((e): e is EditEvent => e.kind === 'edit');
const prompts = (events: AgentEvent[]) => events.filter((e): e is PromptEvent => e.kind === 'prompt');

describe('Cline family task parser (docs/transcripts.md §7–§9)', () => {
  for (const task of ['1769064454592', '1769053680585']) {
    const file = `cline/online-card-arch--${task}--api_conversation_history.json`;
    it(`reads the genuine Cline task ${task}: session, cwd, model, the <task> prompt and every edit with its lines`, function () {
      if (!haveRealworld(this, 'cline')) return;
      const expected = expectedFor(file);
      const p = new ClineParser({ filePath: `/u/globalStorage/saoudrizwan.claude-dev/tasks/${task}/api_conversation_history.json` });
      assert.equal(p.mode, 'wholeFile');
      const events = p.parseWholeFile(readRealworld(file));
      const session = events.find((e) => e.kind === 'session');
      assert.equal(session?.sessionId, task);
      assert.ok(events.some((e) => e.kind === 'session' && e.cwd === '/workspaces/Online-Card-Architecture'));
      assert.ok(events.some((e) => e.kind === 'session' && e.model === expected.models[0]));
      const ps = prompts(events);
      assert.equal(ps.length, expected.prompts.length);
      assert.ok(ps[0].text.startsWith(expected.prompts[0].text), ps[0].text.slice(0, 80));
      assert.ok(!ps[0].text.includes('<environment_details>'));
      // one edit per tool call (each has one SEARCH/REPLACE block), in order, lines as expected
      const es = edits(events);
      assert.deepEqual(
        es.map((e) => [e.toolUseId, e.tool, e.file, e.failed ?? false]),
        expected.edits.map((x) => [x.id, x.tool, x.file, false]),
      );
      es.forEach((e, i) => {
        const x = expected.edits[i];
        // writes are exact; a replacement's display counts are an upper bound (replacementStats)
        if (e.tool === 'write_to_file') assert.deepEqual([e.added, e.removed ?? 0], [x.linesAdded, x.linesRemoved], e.file);
        else assert.ok(e.added! >= x.linesAdded && e.removed! >= x.linesRemoved, e.file);
      });
      // every edit carries the file as saved (<final_file_content>) and a time from `# Current Time`
      for (const e of es) {
        assert.equal(typeof e.resultContent, 'string', e.file);
        assert.match(e.timestamp ?? '', /^2026-01-22T\d\d:\d\d:\d\d\.000Z$/);
      }
      const replace = es.find((e) => e.tool === 'replace_in_file')!;
      assert.ok(replace.resultContent!.includes(replace.newString!.trimEnd()));
      // a re-parse of the same file emits nothing; a new state resumes without repeats
      assert.deepEqual(p.parseWholeFile(readRealworld(file)), []);
      const q = new ClineParser({ filePath: `/u/tasks/${task}/api_conversation_history.json` });
      q.restoreState(JSON.parse(JSON.stringify(p.saveState())));
      assert.deepEqual(
        q.parseWholeFile(readRealworld(file)).filter((e) => e.kind !== 'session'),
        [],
      );
    });
  }

  it('emits an edit once its result arrives, only new events on each rewrite, and nothing for a denied or user-changed edit', () => {
    const p = new ClineParser({ filePath: '/u/tasks/1700000000000/api_conversation_history.json' });
    const env = (time: string) =>
      `<environment_details>\n# Current Time\n${time}\n\n# Current Working Directory (/w/repo) Files\na.ts\n</environment_details>`;
    const msgs: unknown[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<task>\nAdd b\n</task>' },
          { type: 'text', text: env('12/7/2026, 11:05:09 PM (Europe/Berlin, UTC+1:00)') },
        ],
      },
    ];
    let ev = p.parseWholeFile(JSON.stringify(msgs));
    assert.deepEqual(
      prompts(ev).map((e) => [e.text, e.timestamp]),
      [['Add b', '2026-12-07T22:05:09.000Z']],
    );
    assert.ok(ev.some((e) => e.kind === 'session' && e.cwd === '/w/repo'));
    msgs.push({
      role: 'assistant',
      modelInfo: { modelId: 'claude-sonnet-4-5' },
      content: [
        { type: 'text', text: 'Adding b.' },
        {
          type: 'tool_use',
          id: 'tu1',
          name: 'replace_in_file',
          input: {
            absolutePath: '/w/repo/a.ts',
            diff: '------- SEARCH\nconst a = 1;\n=======\nconst a = 1;\nconst b = 2;\n+++++++ REPLACE',
          },
        },
      ],
    });
    ev = p.parseWholeFile(JSON.stringify(msgs));
    assert.deepEqual(
      ev.map((e) => e.kind),
      ['session', 'response'],
    );
    assert.equal(p.inFlightText(), true);
    msgs.push({
      role: 'user',
      content: [
        {
          type: 'text',
          text: '[replace_in_file for \'/w/repo/a.ts\'] Result:\nThe content was successfully saved to /w/repo/a.ts.\n\nHere is the full, updated content of the file that was saved:\n\n<final_file_content path="/w/repo/a.ts">\nconst a = 1;\nconst b = 2;\n\n</final_file_content>\n\nIMPORTANT: …',
        },
        { type: 'text', text: env('12/7/2026, 11:06:00 PM (Europe/Berlin, UTC+1:00)') },
      ],
    });
    ev = p.parseWholeFile(JSON.stringify(msgs));
    assert.deepEqual(
      edits(ev).map((e) => [e.file, e.oldString, e.newString, e.resultContent, e.added, e.removed, e.model, e.timestamp]),
      [
        [
          '/w/repo/a.ts',
          'const a = 1;\n',
          'const a = 1;\nconst b = 2;\n',
          'const a = 1;\nconst b = 2;\n',
          1,
          0,
          'claude-sonnet-4-5',
          '2026-12-07T22:06:00.000Z',
        ],
      ],
    );
    assert.equal(p.inFlightText(), false);
    // a denied write and a write the person changed in the diff view: failed, nothing claimed
    msgs.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'tu2', name: 'write_to_file', input: { absolutePath: '/w/repo/b.ts', content: 'x\n' } }],
    });
    msgs.push({
      role: 'user',
      content: [
        {
          type: 'text',
          text: "[write_to_file for '/w/repo/b.ts'] Result:\nThe user denied this operation. The user provided the following feedback:\n<feedback>\nname it c.ts\n</feedback>",
        },
      ],
    });
    msgs.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'tu3', name: 'write_to_file', input: { absolutePath: '/w/repo/c.ts', content: 'x\n' } }],
    });
    msgs.push({
      role: 'user',
      content: [
        {
          type: 'text',
          text: '[write_to_file for \'/w/repo/c.ts\'] Result:\nThe user made the following updates to your content:\n\n@@ -1 +1 @@\n-x\n+y\n\nThe updated content … <final_file_content path="c.ts">\ny\n</final_file_content>',
        },
      ],
    });
    ev = p.parseWholeFile(JSON.stringify(msgs));
    assert.deepEqual(
      edits(ev).map((e) => [e.toolUseId, e.failed, e.resultContent]),
      [
        ['tu2', true, undefined],
        ['tu3', true, undefined],
      ],
    );
    assert.deepEqual(
      prompts(ev).map((e) => e.text),
      ['name it c.ts'],
    );
    assert.deepEqual(p.parseWholeFile(JSON.stringify(msgs)), []);
  });

  it('re-reads only the messages not final yet on a rewrite (bounded cost), everything again after a cut', () => {
    const p = new ClineParser({ filePath: '/u/tasks/2/api_conversation_history.json', cwdHint: '/w/repo' });
    const msgs: { role: string; content: string }[] = [{ role: 'user', content: '<task>\none\n</task>' }];
    for (let i = 0; i < 50; i++) msgs.push({ role: i % 2 ? 'user' : 'assistant', content: `text ${i}` });
    p.parseWholeFile(JSON.stringify(msgs));
    assert.equal(p.stats.records, 51);
    msgs.push({ role: 'assistant', content: 'more' });
    const ev = p.parseWholeFile(JSON.stringify(msgs));
    // the previous last message (it might still have changed) and the new one
    assert.equal(p.stats.records, 53);
    assert.deepEqual(
      ev.filter((e) => e.kind === 'response').map((e) => (e as { text: string }).text),
      ['more'],
    );
    // a restored checkpoint cuts the history and goes on from there: read from the start, no repeats
    const cut = msgs.slice(0, 20);
    cut.push({ role: 'assistant', content: 'after the restore' });
    const again = p.parseWholeFile(JSON.stringify(cut));
    assert.equal(p.stats.records, 53 + 21);
    assert.deepEqual(
      again.filter((e) => e.kind === 'response').map((e) => (e as { text: string }).text),
      ['after the restore'],
    );
  });

  it('reads XML tool calls of older Cline tasks and several SEARCH/REPLACE blocks as one edit each', () => {
    const p = new ClineParser({ filePath: '/u/tasks/1/api_conversation_history.json', cwdHint: '/w/repo' });
    const msgs = [
      { role: 'user', content: [{ type: 'text', text: '<task>\nfix it\n</task>' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: '<thinking>hm</thinking>\nFixing.\n<replace_in_file>\n<path>src/x.ts</path>\n<diff>\n<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nc\n=======\nC\n>>>>>>> REPLACE\n</diff>\n</replace_in_file>',
          },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'text', text: "[replace_in_file for 'src/x.ts'] Result:\nThe content was successfully saved to src/x.ts." }],
      },
    ];
    const ev = p.parseWholeFile(JSON.stringify(msgs));
    assert.deepEqual(
      edits(ev).map((e) => [e.toolUseId, e.file, e.oldString, e.newString]),
      [
        ['m1:x0#0', '/w/repo/src/x.ts', 'a\n', 'A\n'],
        ['m1:x0#1', '/w/repo/src/x.ts', 'c\n', 'C\n'],
      ],
    );
    assert.deepEqual(
      ev.filter((e) => e.kind === 'response').map((e) => (e as { text: string }).text),
      ['Fixing.'],
    );
  });

  it('reads a Roo Code task: native tool_result blocks, apply_diff with line hints, insert_content, edit_file, a failed result', () => {
    const p = new RooParser({
      filePath: '/u/globalStorage/rooveterinaryinc.roo-cline/tasks/6f1c0a4e-0000-4000-8000-000000000001/api_conversation_history.json',
    });
    assert.equal(p.agent, 'roo');
    const msgs = [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<task>\nTidy up\n</task>' },
          { type: 'text', text: '<environment_details>\n# Current Workspace Directory (/w/repo) Files\n</environment_details>' },
        ],
      },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'r1',
            name: 'apply_diff',
            input: { path: 'a.ts', diff: '<<<<<<< SEARCH\n:start_line:3\n-------\nold\n=======\nnew\n>>>>>>> REPLACE' },
          },
          { type: 'tool_use', id: 'r2', name: 'insert_content', input: { path: 'b.ts', line: 1, content: '// head' } },
          { type: 'tool_use', id: 'r3', name: 'edit_file', input: { file_path: 'c.ts', old_string: '', new_string: 'new file\n' } },
          { type: 'tool_use', id: 'r4', name: 'write_to_file', input: { path: 'd.ts', content: 'd\n' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'r1', content: [{ type: 'text', text: '{"path":"a.ts","operation":"modified"}' }] },
          { type: 'tool_result', tool_use_id: 'r2', content: 'ok' },
          { type: 'tool_result', tool_use_id: 'r3', content: 'ok' },
          { type: 'tool_result', tool_use_id: 'r4', content: 'The user denied this operation.', is_error: true },
          { type: 'text', text: '<user_message>\nthanks, now the README\n</user_message>' },
        ],
      },
    ];
    const ev = p.parseWholeFile(JSON.stringify(msgs));
    assert.deepEqual(
      edits(ev).map((e) => [e.tool, e.file, e.oldString, e.newString, e.contents, e.failed]),
      [
        ['apply_diff', '/w/repo/a.ts', 'old\n', 'new\n', undefined, undefined],
        ['insert_content', '/w/repo/b.ts', '', '// head\n', undefined, undefined],
        ['edit_file', '/w/repo/c.ts', undefined, undefined, 'new file\n', undefined],
        ['write_to_file', '/w/repo/d.ts', undefined, undefined, 'd\n', true],
      ],
    );
    assert.deepEqual(
      prompts(ev).map((e) => e.text),
      ['Tidy up', 'thanks, now the README'],
    );
    assert.ok(ev.every((e) => e.agent === 'roo'));
  });

  it('reads a Kilo Code legacy task with its own agent id', () => {
    const p = new KiloParser({
      filePath: '/u/globalStorage/kilocode.kilo-code/tasks/k1/api_conversation_history.json',
      cwdHint: '/w/repo',
    });
    const ev = p.parseWholeFile(
      JSON.stringify([
        { role: 'user', content: '<task>\nhello\n</task>' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'k', name: 'search_replace', input: { file_path: 'x.ts', old_string: 'a', new_string: 'b' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'k', content: 'done' }] },
      ]),
    );
    assert.deepEqual(
      edits(ev).map((e) => [e.agent, e.sessionId, e.file, e.oldString, e.newString]),
      [['kilo', 'k1', '/w/repo/x.ts', 'a', 'b']],
    );
  });

  it('counts a file that is not a JSON array as bad input, never throws', () => {
    const p = new ClineParser({ filePath: '/u/tasks/1/api_conversation_history.json' });
    assert.deepEqual(p.parseWholeFile('[{"role":"user"'), []);
    assert.deepEqual(p.parseWholeFile('{"a":1}'), []);
    assert.equal(p.stats.skipped.invalidJson, 1);
    assert.equal(p.stats.skipped.schemaMismatch, 1);
  });

  it('parses SEARCH/REPLACE markers of Cline, the older ones and Roo line hints; drops a cut block', () => {
    assert.deepEqual(
      parseSearchReplace(
        '------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n<<<<<<< SEARCH\n:start_line:2\n:end_line:2\n-------\nc\n=======\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nd\n==',
      ),
      [
        { search: 'a\n', replace: 'b\n' },
        { search: 'c\n', replace: '' },
      ],
    );
    assert.equal(parseClineTime('# Current Time\n1/22/2026, 7:25:03 AM (UTC, UTC+0:00)'), '2026-01-22T07:25:03.000Z');
    assert.equal(parseClineTime('# Current Time\n1/22/2026, 12:05:03 AM (America/New_York, UTC-5:00)'), '2026-01-22T05:05:03.000Z');
    assert.equal(parseClineTime('# Current Time\n22.1.2026, 07:25:03'), undefined);
  });
});
