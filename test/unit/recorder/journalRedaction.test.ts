// Secrets never reach the session journal (`<git-dir>/agentnote/`): prompts and responses are
// redacted before they are written, with the same redactor (and user patterns) as the note, and
// the note built from that journal still carries the markers and counts them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRedactor } from '../../../src/core/redaction/redactor';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';
import { Harness } from './recorderHarness';

const SID = '5b7d3c1e-2a4f-4e6b-8c9d-0e1f2a3b4c5d';
// split so that no secret scanner flags this source file
const githubToken = ['ghp', '_', 'R8x2LmQ7vZp4KdW9sTn3YbHc6JfGa1Ue5Xo0'].join('');
const customSecret = ['ACME', '-', '449018'].join('');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

describe('RepositoryRecorder: journal redaction', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  it('a secret in a transcript prompt or response never reaches a file under agentnote/; the note keeps the markers and the count', async () => {
    const redactor = createRedactor({ extraPatterns: ['ACME-[0-9]{6}'] });
    const redact = (text: string) => {
      const r = redactor.redact(text);
      return { text: r.text, count: r.count };
    };
    h = await Harness.create({ 'deploy.ts': 'export {};\n' }, { redact });
    const s = h.session('claude', SID, 'claude-opus-4-6');
    await s.start();
    h.advance(1000);
    await s.prompt(`Deploy with token ${githubToken} and licence ${customSecret}, read it from env in deploy.ts`);
    h.advance(500);
    const after = 'export {};\nexport const token = process.env.DEPLOY_TOKEN;\n';
    await h.change('deploy.ts', after, 'disk');
    h.advance(100);
    await s.edit('deploy.ts', { tool: 'Write', toolUseId: 'toolu_1', contents: after });
    h.advance(500);
    await s.respond(`Done. I did not store ${githubToken} in the file.`);
    await h.tick();
    assert.equal(h.recorder.counters.get('recorder.journalRedactions'), 3, 'two secrets in the prompt, one in the response');
    // a reload re-reads the journal and the tailer delivers everything again
    await h.reopen();
    await s.replay();
    await h.tick();
    h.advance(3000);
    const sha = await h.commitAll('feat: deploy token from env');
    const outcome = await h.recorder.recordCommit(sha);
    assert.equal(outcome.kind, 'written');

    const journalRoot = path.join(h.repo.dir, '.git', 'agentnote');
    const files = filesUnder(journalRoot);
    assert.ok(
      files.some((f) => f.endsWith(`${path.sep}prompts.jsonl`)),
      'the prompt was journaled',
    );
    assert.ok(
      files.some((f) => f.endsWith(`${path.sep}events.jsonl`)),
      'the response was journaled',
    );
    for (const f of files) {
      const bytes = fs.readFileSync(f);
      for (const secret of [githubToken, customSecret]) {
        assert.equal(bytes.includes(Buffer.from(secret, 'utf8')), false, `${path.relative(journalRoot, f)} holds a secret`);
      }
    }
    const prompts = h.journalLines(SID, 'prompts*');
    assert.equal(prompts.length, 1);
    assert.equal(
      prompts[0].prompt,
      'Deploy with token [REDACTED:github-token] and licence [REDACTED:custom-1], read it from env in deploy.ts',
    );
    const responses = h.journalLines(SID, 'events.jsonl').filter((e) => e.event === 'response');
    assert.ok(responses.length >= 1);
    for (const r of responses) assert.equal(r.response, 'Done. I did not store [REDACTED:github-token] in the file.');

    const note = await h.note(sha);
    assert.equal(note.interactions[0].prompt, prompts[0].prompt);
    assert.equal(note.interactions[0].response, 'Done. I did not store [REDACTED:github-token] in the file.');
    assert.equal(outcome.kind === 'written' && outcome.redactions, 3, 'markers from the journal are counted in the note');
    const raw = (await h.noteText(sha))!;
    assert.ok(!raw.includes(githubToken) && !raw.includes(customSecret));
    for (const l of h.log)
      assert.ok(!l.text.includes(githubToken) && !l.text.includes('Deploy with'), `log leaks prompt text: ${l.level} ${l.text}`);
  });

  it('without a redactor the journal keeps the text as it is (the redaction above is what removes it)', async () => {
    h = await Harness.create({ 'a.ts': 'export {};\n' });
    const s = h.session('claude', SID);
    await s.start();
    h.advance(1000);
    await s.prompt(`token ${githubToken}`);
    await h.tick();
    assert.equal(h.journalLines(SID, 'prompts.jsonl')[0].prompt, `token ${githubToken}`);
  });
});
