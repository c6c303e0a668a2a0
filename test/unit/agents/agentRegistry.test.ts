import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { agentDefinition, agentDefinitions, findAgentDefinition, transcriptPathInfo } from '../../../src/core/agents/registry/registry';
import { agentIds, isAgentId } from '../../../src/core/agents/registry/agentIds';
import { agentDisplayName } from '../../../src/core/format/textFormat';
import { transcriptLocations } from '../../../src/node/transcripts/transcriptLocations';

const repoRoot = resolve(__dirname, '../../../..');
const read = (p: string) => readFileSync(join(repoRoot, p), 'utf8');

describe('agent registry (src/core/agents/registry)', () => {
  it('has one definition per id, in the ids order, with unique names, icons and settings', () => {
    assert.deepEqual(
      agentDefinitions.map((d) => d.id),
      [...agentIds],
    );
    for (const key of ['displayName', 'settingKey'] as const) {
      const values = agentDefinitions.map((d) => d[key]);
      assert.equal(new Set(values).size, values.length, `${key} is unique`);
    }
    for (const d of agentDefinitions) {
      assert.equal(agentDefinition(d.id), d);
      assert.equal(findAgentDefinition(d.id), d);
      assert.match(d.settingKey, /^agents\.[A-Za-z]+\.enabled$/);
      assert.match(d.codicon, /^[a-z][a-z-]*$/);
      assert.ok(d.editTools.length > 0, `${d.id} lists its edit tools`);
      assert.equal(agentDisplayName(d.id), d.displayName);
    }
  });

  it('reads ids from untrusted text without inheriting from Object.prototype', () => {
    for (const bad of ['constructor', '__proto__', 'toString', 'Claude', '', null, undefined]) {
      assert.equal(findAgentDefinition(bad), undefined, String(bad));
      assert.equal(isAgentId(bad), false);
    }
    assert.equal(agentDisplayName('some-new-agent'), 'some-new-agent');
  });

  it('gives every agent an on-by-default boolean setting in package.json, described in every nls file', () => {
    const pkg = JSON.parse(read('package.json')) as {
      contributes: {
        configuration:
          | { properties: Record<string, { type?: string; default?: unknown; markdownDescription?: string }> }[]
          | { properties: Record<string, unknown> };
      };
    };
    const configs = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
    const props: Record<string, { type?: string; default?: unknown; markdownDescription?: string }> = Object.assign(
      {},
      ...configs.map((c) => c.properties),
    );
    const agentSettings = Object.keys(props).filter((k) => /^agentNote\.agents\.[^.]+\.enabled$/.test(k));
    assert.deepEqual(agentSettings.sort(), agentDefinitions.map((d) => `agentNote.${d.settingKey}`).sort());
    const nlsFiles = readdirSync(repoRoot).filter((f) => /^package\.nls(\..+)?\.json$/.test(f));
    assert.ok(nlsFiles.length > 0);
    for (const d of agentDefinitions) {
      const p = props[`agentNote.${d.settingKey}`];
      assert.equal(p.type, 'boolean');
      assert.equal(p.default, true, `${d.id} is on by default`);
      const nlsKey = /^%(.+)%$/.exec(p.markdownDescription ?? '')?.[1];
      assert.ok(nlsKey, `${d.id}: localized description`);
      for (const f of nlsFiles) assert.ok(nlsKey in (JSON.parse(read(f)) as Record<string, string>), `${f} has ${nlsKey}`);
    }
  });

  it('documents every agent and each of its edit tools in docs/transcripts.md', () => {
    const doc = read('docs/transcripts.md');
    const headings = doc.split('\n').filter((l) => /^## \d+\. /.test(l));
    for (const d of agentDefinitions) {
      assert.ok(
        headings.some((h) => h.includes(d.displayName)),
        `a "## N. ${d.displayName}…" section`,
      );
      for (const t of d.editTools) assert.ok(doc.includes('`' + t.name + '`'), `${d.id}'s tool ${t.name} is documented`);
    }
  });

  it('puts every agent home store where the definition says, also moved by its environment variable', () => {
    const home = '/home/u';
    const roots = transcriptLocations({ homeDir: home, env: {} });
    for (const d of agentDefinitions) {
      const store = d.store;
      if (store.kind !== 'agentHome') continue;
      const mine = roots.filter((r) => r.agent === d.id);
      assert.deepEqual(
        mine.map((r) => [r.dir, r.source]),
        [[join(home, store.dirName, store.sessionsDir), 'default']],
      );
      if (store.envVar) {
        const moved = transcriptLocations({ homeDir: home, env: { [store.envVar]: '/elsewhere' }, enabledAgents: [d.id] });
        const expected =
          store.envNames === 'parent' ? join('/elsewhere', store.dirName, store.sessionsDir) : join('/elsewhere', store.sessionsDir);
        assert.deepEqual(
          moved.map((r) => [r.dir, r.source]),
          [[expected, 'env']],
        );
      }
    }
    // an editor-hosted agent: this window's workspaceStorage first, then every editor user folder's
    const copilot = transcriptLocations({
      homeDir: home,
      env: {},
      platform: 'linux',
      enabledAgents: ['copilot'],
      editorStorage: { userDir: '/data/User', workspaceStorageDir: '/data/User/workspaceStorage/abc123' },
    }).map((r) => [r.dir, r.source]);
    assert.deepEqual(copilot[0], ['/data/User/workspaceStorage', 'editor']);
    assert.ok(copilot.some(([dir]) => dir === join(home, '.config', 'Code', 'User', 'workspaceStorage')));
    assert.ok(copilot.some(([dir]) => dir === join(home, '.vscode-server', 'data', 'User', 'workspaceStorage')));
    assert.equal(new Set(copilot.map(([dir]) => dir)).size, copilot.length, 'no folder twice');
    assert.deepEqual(
      transcriptLocations({ homeDir: home, enabledAgents: ['codex'] }).map((r) => r.agent),
      ['codex'],
    );
  });

  it('puts editor-extension stores in every editor user folder (the running editor first) and a moved storage first of all', () => {
    const home = '/home/u';
    const user = '/srv/code/User';
    const roots = transcriptLocations({
      homeDir: home,
      env: {},
      platform: 'linux',
      enabledAgents: ['cline', 'roo'],
      editorStorage: { userDir: user, customStoragePaths: { 'roo-cline.customStoragePath': '/data/roo' } },
    });
    const cline = roots.filter((r) => r.agent === 'cline');
    assert.deepEqual(cline[0], {
      agent: 'cline',
      dir: join(user, 'globalStorage/saoudrizwan.claude-dev/tasks'),
      home: join(user, 'globalStorage/saoudrizwan.claude-dev'),
      source: 'editor',
      current: true,
    });
    assert.ok(cline.some((r) => r.dir === join(home, '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks')));
    const roo = roots.filter((r) => r.agent === 'roo');
    assert.deepEqual(roo[0], { agent: 'roo', dir: '/data/roo/tasks', home: '/data/roo', source: 'setting' });
    assert.equal(roo[1].dir, join(user, 'globalStorage/rooveterinaryinc.roo-cline/tasks'));
    // a relative custom path is not guessed at
    const rel = transcriptLocations({
      homeDir: home,
      enabledAgents: ['roo'],
      editorStorage: { customStoragePaths: { 'roo-cline.customStoragePath': 'roo' } },
    });
    assert.ok(rel.every((r) => r.source === 'editor'));
    // Aider's file is in the work tree, known only with a repository
    assert.deepEqual(transcriptLocations({ homeDir: home, enabledAgents: ['aider'] }), []);
    assert.deepEqual(
      transcriptLocations({ homeDir: home, enabledAgents: ['aider'], repoRoot: '/w/repo' }).map((r) => [r.dir, r.source]),
      [['/w/repo', 'repository']],
    );
  });

  it('maps a transcript path to its session through the agent’s own rules', () => {
    assert.deepEqual(
      transcriptPathInfo('codex', '/h/.codex/sessions/2026/01/02/rollout-2026-01-02T10-00-00-0199aaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee.jsonl'),
      {
        sessionId: '0199aaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
        sidechain: false,
        format: 'jsonl',
      },
    );
    assert.equal(agentDefinition('gemini').createParser({ filePath: '/h/.gemini/tmp/p/chats/session-1.json' }).mode, 'wholeFile');
    assert.equal(agentDefinition('gemini').createParser({ filePath: '/h/.gemini/tmp/p/chats/session-1.jsonl' }).mode, 'lines');
    assert.equal(agentDefinition('claude').createParser({ filePath: '/h/.claude/projects/-r/a.jsonl' }).agent, 'claude');
  });
});
