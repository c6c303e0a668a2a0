import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { agentNote, readyRepository, waitFor } from '../helpers/host';
import { ClaudeSession, git } from '../helpers/agents';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const config = () => vscode.workspace.getConfiguration('agentNote');

/** Every prompt line the journal holds for a session (current turn and archives). */
function journaledPrompts(root: string, sessionId: string): string {
  const dir = path.join(root, git(root, 'rev-parse', '--git-path', 'agentnote').trim(), 'sessions', sessionId);
  if (!fs.existsSync(dir)) return '';
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('prompts'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('');
}

/**
 * Settings apply without a reload (issue #16): agents on/off stop and start their tailers,
 * redaction patterns apply to the next prompt, a shorter retention removes old journal sessions at once.
 */
describe('settings apply live', function () {
  this.timeout(120_000);
  let root: string;

  before(async () => {
    root = await readyRepository();
  });

  afterEach(async () => {
    for (const key of ['agents.claudeCode.enabled', 'redaction.extraPatterns', 'journal.retentionDays'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await (await agentNote()).idle();
  });

  it('turning an agent off stops its tailers at once; turning it on reads on without a reload', async () => {
    const api = await agentNote();
    const c = new ClaudeSession(root);
    const prompts = () => api.sessions(root).find((s) => s.agent === 'claude' && s.id === c.id)?.prompts ?? [];
    c.prompt('First prompt while Claude Code is on');
    await waitFor(() => (prompts().length === 1 ? true : undefined), 15_000, 'first prompt');
    assert.ok((api.tailedTranscripts(root).claude ?? 0) >= 1, 'Claude transcript tailed');
    await waitFor(() => (/Claude Code/.test(api.statusBarText()) ? true : undefined), 10_000, 'status bar shows the session');

    await config().update('agents.claudeCode.enabled', false, vscode.ConfigurationTarget.Global);
    await api.idle(); // waits until the change is applied
    assert.equal(api.settings(root)?.agents.claude, false);
    assert.equal(api.tailedTranscripts(root).claude ?? 0, 0, 'no Claude transcript tailed while it is off');
    c.prompt('Second prompt while Claude Code is off');
    await sleep(2500); // several poll intervals and a rescan debounce: nothing may read it
    assert.deepEqual(prompts(), ['First prompt while Claude Code is on']);
    await waitFor(
      () => (!/Claude Code/.test(api.statusBarText()) ? true : undefined),
      5000,
      'status bar no longer shows the Claude session',
    );

    await config().update('agents.claudeCode.enabled', true, vscode.ConfigurationTarget.Global);
    await api.idle();
    // read on from the stored offset, as after a reload: the prompt written meanwhile, then a new one
    await waitFor(() => (prompts().length === 2 ? true : undefined), 15_000, 'prompt written while off, read after on');
    c.prompt('Third prompt after turning it on again');
    await waitFor(() => (prompts().length === 3 ? true : undefined), 10_000, 'new prompt after on');
    assert.deepEqual(prompts(), [
      'First prompt while Claude Code is on',
      'Second prompt while Claude Code is off',
      'Third prompt after turning it on again',
    ]);
  });

  it('a new redaction pattern applies to the next prompt, and removing it stops redacting', async () => {
    const api = await agentNote();
    const c = new ClaudeSession(root);
    await config().update('redaction.extraPatterns', ['ZZTOP-[0-9]{5}'], vscode.ConfigurationTarget.Global);
    await api.idle();
    c.prompt('Deploy with build ZZTOP-12345 please');
    await waitFor(() => (journaledPrompts(root, c.id).includes('Deploy with build') ? true : undefined), 15_000, 'journaled prompt');
    const redacted = journaledPrompts(root, c.id);
    assert.ok(!redacted.includes('ZZTOP-12345'), 'the custom pattern is redacted before the journal');
    assert.match(redacted, /\[REDACTED:custom-1\]/);

    await config().update('redaction.extraPatterns', undefined, vscode.ConfigurationTarget.Global);
    await api.idle();
    c.prompt('Now build ZZTOP-67890 stays');
    await waitFor(() => (journaledPrompts(root, c.id).includes('ZZTOP-67890') ? true : undefined), 15_000, 'unredacted prompt');
  });

  it('a shorter retention removes old journal sessions at once', async () => {
    const api = await agentNote();
    const sessions = path.join(root, git(root, 'rev-parse', '--git-path', 'agentnote').trim(), 'sessions');
    // a finished session whose last activity was 5 days ago: kept by the default 14 days
    const id = randomUUID();
    const dir = path.join(sessions, id);
    fs.mkdirSync(dir, { recursive: true });
    const old = Date.now() - 5 * 86_400_000;
    fs.writeFileSync(path.join(dir, 'heartbeat'), String(old));
    fs.writeFileSync(path.join(dir, 'prompts.jsonl'), '');
    for (const f of ['heartbeat', 'prompts.jsonl', '.']) fs.utimesSync(path.join(dir, f), old / 1000, old / 1000);
    await config().update('journal.retentionDays', 30, vscode.ConfigurationTarget.Global);
    await api.idle();
    assert.ok(fs.existsSync(dir), 'kept with 30 days');
    assert.equal(api.settings(root)?.journalRetentionDays, 30);
    await config().update('journal.retentionDays', 3, vscode.ConfigurationTarget.Global);
    await api.idle();
    await waitFor(() => (!fs.existsSync(dir) ? true : undefined), 10_000, 'old session removed after retention 3 days');
  });
});
