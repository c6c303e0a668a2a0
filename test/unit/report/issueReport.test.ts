import * as assert from 'node:assert/strict';
import { buildIssueReport, scrubText, type IssueReportInput } from '../../../src/core/report/issueReport';
import { createRedactor } from '../../../src/core/redaction/redactor';

const repo = '/work/projects/shop';
const prompt = 'Refactor the PLANTED-PROMPT-7f3a billing module so that invoices round half to even';
const response = 'I changed PLANTED-RESPONSE-91c2 in src/billing.ts and added tests.';
const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const redactor = createRedactor();
const scrub = { repoRoots: [repo], sensitive: [prompt, response], redact: (t: string) => redactor.redact(t).text };

function input(over: Partial<IssueReportInput> = {}): IssueReportInput {
  return {
    extension: { id: 'agentnote.agent-note', version: '0.1.0' },
    host: { appName: 'Visual Studio Code', version: '1.100.3', uiKind: 'desktop', language: 'en' },
    os: { platform: 'linux', release: '6.1.0', arch: 'x64' },
    node: '20.19.0',
    git: '2.39.5',
    workspace: { trusted: true, folders: 1 },
    repositories: [
      {
        branch: 'main',
        notedCommits: 4,
        sessions: 2,
        activeSessions: 1,
        transcripts: { claude: 2 },
        counters: { 'git.calls': 120, 'tailer.skippedRecords': 3, 'notes.invalid': 1, 'recorder.recordFailures': 0 },
      },
    ],
    agents: [
      { agent: 'claude', enabled: true, found: true, source: 'default' },
      { agent: 'cursor', enabled: false, found: false, source: 'default' },
    ],
    settings: { 'agentNote.journal.retentionDays': 3, 'agentNote.transcripts.extraRoots': '1 entry' },
    errors: [
      { time: 0, level: 'warn', text: `[repo:shop] recording abc1234 failed: ENOENT: no such file, open '${repo}/src/billing.ts'` },
      {
        time: 1,
        level: 'error',
        text: `[commands] agentNote.showNote failed: Error: bad\n    at x (/home/ann/.vscode/extensions/agentnote/dist/extension.js:1:2)`,
      },
      {
        time: 2,
        level: 'warn',
        text: `[transcripts] unexpected record near "${prompt}" in /home/ann/.claude/projects/-work-projects-shop/s.jsonl`,
      },
      { time: 3, level: 'warn', text: `[sharing] push failed: remote said token ${secret} is invalid; response was ${response}` },
      { time: 4, level: 'warn', text: `C:\\Users\\ann\\AppData\\x.log and file:///home/ann/notes.txt and ~/.codex/sessions/a.jsonl` },
    ],
    now: Date.UTC(2026, 11, 3),
    ...over,
  };
}

describe('issue report (Report Issue)', () => {
  const { title, body } = buildIssueReport(input(), scrub);

  it('has versions, OS, agents detected and counters', () => {
    assert.match(title, /^\[0\.1\.0\] /);
    assert.match(body, /agentnote\.agent-note 0\.1\.0/);
    assert.match(body, /Visual Studio Code 1\.100\.3 \(desktop, en\)/);
    assert.match(body, /linux 6\.1\.0 x64/);
    assert.match(body, /\| git \| 2\.39\.5 \|/);
    assert.match(body, /\| claude \| yes \| yes \(default\) \| 2 \|/);
    assert.match(body, /\| cursor \| no \| no \| 0 \|/);
    assert.match(body, /Skipped and failed work: `notes\.invalid` 1, `tailer\.skippedRecords` 3/);
    assert.match(body, /Work done: `git\.calls` 120/);
    assert.ok(!body.includes('recorder.recordFailures'), 'zero counters are left out');
    assert.match(body, /`agentNote\.journal\.retentionDays`: 3/);
    assert.match(body, /`agentNote\.transcripts\.extraRoots`: "1 entry"/);
  });

  it('never contains the planted prompt, response, secret or a path outside the repository', () => {
    for (const bad of [
      'PLANTED-PROMPT',
      'PLANTED-RESPONSE',
      secret,
      '/home/ann',
      'C:\\Users',
      'AppData',
      '~/.codex',
      '.claude/projects',
      'file://',
    ])
      assert.ok(!body.includes(bad), `report contains ${bad}`);
    assert.ok(!body.includes('/work/projects'), 'no absolute repository path either');
  });

  it('keeps paths inside the repository, relative, and says what was removed', () => {
    assert.match(body, /open '<repo>\/src\/billing\.ts'/);
    assert.match(body, /\(<path>:1:2\)/);
    assert.match(body, /\[prompt text removed\]/);
    assert.match(body, /\[REDACTED:github-token\]/);
    assert.match(body, /<path> and <path> and <path>/);
  });

  it('puts each error on one line, capped', () => {
    const long = scrubText(`x ${'y'.repeat(1000)}`, scrub);
    assert.equal(long.length, 300);
    const errors = body.split('```text\n')[1].split('\n```')[0].split('\n');
    assert.equal(errors.length, 5);
  });

  it('removes a prompt even when only its first line or head appears', () => {
    const multi = 'First line of a long planted request that goes on and on and on\nsecond line here';
    assert.equal(scrubText(`oops: ${multi.slice(0, 45)}…`, { ...scrub, sensitive: [multi] }).includes('planted request'), false);
  });

  it('does not mangle URLs or relative paths', () => {
    assert.equal(scrubText('see https://github.com/a/b/issues and src/a.ts', scrub), 'see https://github.com/a/b/issues and src/a.ts');
  });

  it('says none when nothing went wrong', () => {
    const r = buildIssueReport(input({ errors: [], settings: {} }), scrub).body;
    assert.match(r, /## Last errors and warnings\n\nnone/);
    assert.match(r, /## Settings changed from their defaults\n\nnone/);
  });
});
