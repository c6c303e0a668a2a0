import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { claudeProjectDirName, cursorProjectSlug, geminiProjectHash, geminiProjectSlug } from '../../../src/core/transcripts/projectSlugs';
import { TranscriptDiscovery, type DiscoveryOptions, type RepoLocation } from '../../../src/node/transcripts/transcriptDiscovery';
import { nodeTranscriptFs, type TranscriptFs } from '../../../src/node/transcripts/transcriptFs';
import { transcriptLocations } from '../../../src/node/transcripts/transcriptLocations';
import { jsonl, makeTempDir, writeFile } from './tempFiles';

const NOW = Date.parse('2026-10-05T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('project slugs', () => {
  it('computes Cursor, Claude and Gemini directory names', () => {
    assert.equal(cursorProjectSlug('/Users/ann/dev/my.app'), 'Users-ann-dev-my-app');
    assert.equal(cursorProjectSlug('C:\\Users\\ann\\proj'), 'c-Users-ann-proj');
    assert.deepEqual(claudeProjectDirName('/Users/ann/my.proj'), { name: '-Users-ann-my-proj', truncated: false });
    assert.deepEqual(claudeProjectDirName('C:\\Users\\ann\\proj'), { name: 'C--Users-ann-proj', truncated: false });
    assert.deepEqual(claudeProjectDirName('/a/.worktrees/x'), { name: '-a--worktrees-x', truncated: false });
    assert.deepEqual(claudeProjectDirName('/é/x'), { name: '---x', truncated: false });
    const long = claudeProjectDirName('/' + 'a'.repeat(300));
    assert.equal(long.name.length, 200);
    assert.equal(long.truncated, true);
    assert.equal(geminiProjectSlug('/home/ann/My Project!'), 'my-project');
    assert.equal(geminiProjectSlug('/home/ann/___'), 'project');
    assert.equal(geminiProjectHash('/home/ann/proj'), '66feb5076bf8f31a4a0d61327c9b68f586ca3fce557eb279eaede482686d6dfe');
  });
});

describe('transcriptLocations', () => {
  it('uses the home directory, env overrides and extra roots', () => {
    const roots = transcriptLocations({
      homeDir: '/h',
      env: { CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '', GEMINI_CLI_HOME: '/g' },
      extraRoots: ['/extra'],
      enabledAgents: ['claude', 'codex', 'gemini', 'cursor'],
    });
    assert.deepEqual(
      roots.map((r) => `${r.agent} ${r.dir} ${r.source}`),
      [
        'claude /cfg/claude/projects env',
        'cursor /h/.cursor/projects default',
        'codex /h/.codex/sessions default',
        'gemini /g/.gemini/tmp env',
        'claude /extra/projects extra',
        'cursor /extra/projects extra',
        'codex /extra/sessions extra',
        'gemini /extra/tmp extra',
      ],
    );
    assert.deepEqual(
      transcriptLocations({ homeDir: '/h', enabledAgents: ['codex'] }).map((r) => r.dir),
      ['/h/.codex/sessions'],
    );
  });
});

describe('TranscriptDiscovery', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let home: string;
  let repo: string;
  beforeEach(() => {
    tmp = makeTempDir('discovery');
    home = path.join(tmp.dir, 'home');
    repo = path.join(tmp.dir, 'work', 'proj');
    fs.mkdirSync(path.join(repo, 'sub'), { recursive: true });
    fs.mkdirSync(path.join(tmp.dir, 'work', 'proj-old'), { recursive: true });
  });
  afterEach(() => tmp.cleanup());

  function discover(extra: Partial<DiscoveryOptions> = {}, loc: RepoLocation = { root: repo }) {
    return new TranscriptDiscovery(loc, { homeDir: home, env: {}, clock: { now: () => NOW }, caseInsensitive: false, ...extra }).scan();
  }

  const rel = (p: string) => path.relative(home, p);
  const claudeRec = (cwd: string) =>
    jsonl([
      { type: 'summary', summary: 's' },
      { type: 'user', uuid: 'u', sessionId: 'x', cwd, message: { content: 'hi' } },
    ]);

  it('Claude: accepts the repo and its subfolders, confirms lookalikes by cwd, never lists other projects', async () => {
    const projects = path.join(home, '.claude', 'projects');
    const enc = (p: string) => claudeProjectDirName(p).name;
    const mine = writeFile(path.join(projects, enc(repo), 'aaaaaaaa-0000-4000-8000-000000000001.jsonl'), claudeRec(repo), NOW - HOUR);
    const sub = writeFile(
      path.join(projects, enc(path.join(repo, 'sub')), 'aaaaaaaa-0000-4000-8000-000000000002.jsonl'),
      claudeRec(path.join(repo, 'sub')),
      NOW - 2 * HOUR,
    );
    writeFile(
      path.join(projects, enc(path.join(tmp.dir, 'work', 'proj-old')), 'aaaaaaaa-0000-4000-8000-000000000003.jsonl'),
      claudeRec(path.join(tmp.dir, 'work', 'proj-old')),
      NOW,
    );
    writeFile(
      path.join(projects, enc(path.join(tmp.dir, 'other')), 'aaaaaaaa-0000-4000-8000-000000000004.jsonl'),
      claudeRec('/other'),
      NOW,
    );
    const subagent = writeFile(
      path.join(projects, enc(repo), 'aaaaaaaa-0000-4000-8000-000000000001', 'subagents', 'agent-a1.jsonl'),
      claudeRec(repo),
      NOW - 3 * HOUR,
    );
    writeFile(path.join(projects, enc(repo), 'aaaaaaaa-0000-4000-8000-000000000005.jsonl'), claudeRec(repo), NOW - 8 * DAY);
    // same encoded directory, but a colliding project (`proj` vs `proj` with a dot would collide; here: other cwd)
    writeFile(path.join(projects, enc(repo), 'aaaaaaaa-0000-4000-8000-000000000006.jsonl'), claudeRec('/somewhere/else'), NOW);
    // no cwd in the head yet (new file): the exact directory is trusted
    const fresh = writeFile(
      path.join(projects, enc(repo), 'aaaaaaaa-0000-4000-8000-000000000007.jsonl'),
      jsonl([{ type: 'ai-title', aiTitle: 't' }]),
      NOW - 4 * HOUR,
    );

    const r = await discover({ enabledAgents: ['claude'] });
    assert.deepEqual(
      r.transcripts.map((t) => [rel(t.filePath), t.sessionIdHint ?? null, t.sidechain, t.cwdHint ?? null]),
      [
        [rel(mine), 'aaaaaaaa-0000-4000-8000-000000000001', false, repo],
        [rel(sub), 'aaaaaaaa-0000-4000-8000-000000000002', false, path.join(repo, 'sub')],
        [rel(subagent), 'aaaaaaaa-0000-4000-8000-000000000001', true, repo],
        [rel(fresh), 'aaaaaaaa-0000-4000-8000-000000000007', false, null],
      ],
    );
    assert.equal(r.stats.otherProjects, 1);
    assert.equal(r.stats.tooOld, 1);
    assert.equal(r.stats.otherProjectFiles, 2);
  });

  it('Claude: honours CLAUDE_CONFIG_DIR', async () => {
    const cfg = path.join(tmp.dir, 'cfg');
    const f = writeFile(
      path.join(cfg, 'projects', claudeProjectDirName(repo).name, 'bbbbbbbb-0000-4000-8000-000000000001.jsonl'),
      claudeRec(repo),
      NOW,
    );
    writeFile(
      path.join(home, '.claude', 'projects', claudeProjectDirName(repo).name, 'bbbbbbbb-0000-4000-8000-000000000002.jsonl'),
      claudeRec(repo),
      NOW,
    );
    const r = await discover({ enabledAgents: ['claude'], env: { CLAUDE_CONFIG_DIR: cfg } });
    assert.deepEqual(
      r.transcripts.map((t) => t.filePath),
      [f],
    );
  });

  it('Cursor: uses .workspace-trusted, accepts nested/flat/txt/subagent files, and checks parent workspaces by content', async () => {
    const projects = path.join(home, '.cursor', 'projects');
    const slug = cursorProjectSlug(repo);
    writeFile(path.join(projects, slug, '.workspace-trusted'), JSON.stringify({ trustedAt: 1, workspacePath: repo, trustMethod: 'x' }));
    const nested = writeFile(
      path.join(projects, slug, 'agent-transcripts', 'c1', 'c1.jsonl'),
      '{"role":"user","message":{"content":[]}}\n',
      NOW - HOUR,
    );
    const flat = writeFile(path.join(projects, slug, 'agent-transcripts', 'c2.txt'), 'user:\nhi\n', NOW - 2 * HOUR);
    const sub = writeFile(path.join(projects, slug, 'agent-transcripts', 'c1', 'subagents', 's1.jsonl'), '{}\n', NOW - 3 * HOUR);
    writeFile(path.join(projects, slug, 'agent-tools', 'x.txt'), 'tool output', NOW);
    // a workspace elsewhere
    writeFile(path.join(projects, 'elsewhere', '.workspace-trusted'), JSON.stringify({ workspacePath: path.join(tmp.dir, 'other') }));
    writeFile(path.join(projects, 'elsewhere', 'agent-transcripts', 'e1.jsonl'), '{}\n', NOW);
    // the parent folder opened as workspace: only transcripts touching the repo count
    const parentSlug = cursorProjectSlug(path.join(tmp.dir, 'work'));
    writeFile(path.join(projects, parentSlug, '.workspace-trusted'), JSON.stringify({ workspacePath: path.join(tmp.dir, 'work') }));
    const touching = writeFile(
      path.join(projects, parentSlug, 'agent-transcripts', 'p1', 'p1.jsonl'),
      jsonl([
        { role: 'assistant', message: { content: [{ type: 'tool_use', name: 'StrReplace', input: { path: path.join(repo, 'a.ts') } }] } },
      ]),
      NOW - 4 * HOUR,
    );
    writeFile(
      path.join(projects, parentSlug, 'agent-transcripts', 'p2', 'p2.jsonl'),
      jsonl([
        {
          role: 'assistant',
          message: { content: [{ type: 'tool_use', name: 'Write', input: { path: path.join(tmp.dir, 'work', 'proj-old', 'a.ts') } }] },
        },
      ]),
      NOW,
    );
    // no marker, slug of an unrelated folder: never listed
    writeFile(path.join(projects, '1791184440000', 'agent-transcripts', 'z.jsonl'), '{}\n', NOW);

    const r = await discover({ enabledAgents: ['cursor'] });
    assert.deepEqual(
      r.transcripts.map((t) => [rel(t.filePath), t.format, t.sessionIdHint, t.sidechain, t.cwdHint ?? null]),
      [
        [rel(nested), 'jsonl', 'c1', false, repo],
        [rel(flat), 'txt', 'c2', false, repo],
        [rel(sub), 'jsonl', 'c1', true, repo],
        [rel(touching), 'jsonl', 'p1', false, path.join(tmp.dir, 'work')],
      ],
    );
    assert.equal(r.stats.otherProjects, 2);
    assert.equal(r.stats.otherProjectFiles, 1);
    assert.ok(r.watchDirs.includes(path.join(projects, slug, 'agent-transcripts')));
  });

  it('Codex: reads each rollout head once for cwd (date dirs and legacy flat files), honours CODEX_HOME', async () => {
    const codexHome = path.join(tmp.dir, 'codex-home');
    const sessions = path.join(codexHome, 'sessions');
    const meta = (cwd: string) =>
      jsonl([{ timestamp: 't', type: 'session_meta', payload: { id: 'x', cwd, base_instructions: { text: 'x'.repeat(20_000) } } }]);
    const a = writeFile(
      path.join(sessions, '2026', '10', '05', 'rollout-2026-10-05T09-00-00-019a0000-0000-7000-8000-000000000001.jsonl'),
      meta(repo),
      NOW - HOUR,
    );
    writeFile(
      path.join(sessions, '2026', '10', '05', 'rollout-2026-10-05T09-30-00-019a0000-0000-7000-8000-000000000002.jsonl'),
      meta(path.join(tmp.dir, 'other')),
      NOW,
    );
    const legacy = writeFile(
      path.join(sessions, 'rollout-2025-05-02-2b7f6a1e-1111-4c2d-9e3f-445566778899.jsonl'),
      meta(path.join(repo, 'sub')),
      NOW - 2 * HOUR,
    );
    writeFile(path.join(sessions, '.hidden', 'rollout-x.jsonl'), meta(repo), NOW);
    const d = new TranscriptDiscovery(
      { root: repo },
      { homeDir: home, env: { CODEX_HOME: codexHome }, clock: { now: () => NOW }, enabledAgents: ['codex'] },
    );
    const r1 = await d.scan();
    assert.deepEqual(
      r1.transcripts.map((t) => [t.filePath, t.sessionIdHint, t.cwdHint]),
      [
        [a, '019a0000-0000-7000-8000-000000000001', repo],
        [legacy, '2b7f6a1e-1111-4c2d-9e3f-445566778899', path.join(repo, 'sub')],
      ],
    );
    assert.equal(r1.stats.headReads, 3);
    const r2 = await d.scan();
    assert.equal(r2.stats.headReads, undefined);
    assert.equal(r2.stats.cacheHits, 3);
    assert.equal(r2.transcripts.length, 2);
  });

  it('Gemini: hash dirs, .project_root markers, projects.json slugs and slug lookalikes confirmed by projectHash', async () => {
    const tmpDir = path.join(home, '.gemini', 'tmp');
    const legacy = writeFile(
      path.join(tmpDir, geminiProjectHash(repo), 'chats', 'session-2026-10-01T09-00-aaaaaaaa.json'),
      '{}',
      NOW - 5 * HOUR,
    );
    writeFile(path.join(tmpDir, 'proj', '.project_root'), repo + '\n');
    const main = writeFile(path.join(tmpDir, 'proj', 'chats', 'session-2026-10-05T09-00-bbbbbbbb.jsonl'), '{}\n', NOW - HOUR);
    const sub = writeFile(path.join(tmpDir, 'proj', 'chats', 'bbbbbbbb-1111-4222-8333-444455556666', 'sub1.jsonl'), '{}\n', NOW - 2 * HOUR);
    writeFile(path.join(tmpDir, 'proj', 'logs.json'), '[]');
    writeFile(path.join(tmpDir, 'other', '.project_root'), path.join(tmp.dir, 'other'));
    writeFile(path.join(tmpDir, 'other', 'chats', 'session-2026-10-05T09-00-cccccccc.jsonl'), '{}\n', NOW);
    writeFile(
      path.join(home, '.gemini', 'projects.json'),
      JSON.stringify({ projects: { [path.join(repo, 'sub')]: 'sub-slug', '/elsewhere': 'x' } }),
    );
    const mapped = writeFile(path.join(tmpDir, 'sub-slug', 'chats', 'session-2026-10-05T08-00-dddddddd.jsonl'), '{}\n', NOW - 3 * HOUR);
    const look = writeFile(
      path.join(tmpDir, 'proj-1', 'chats', 'session-2026-10-05T07-00-eeeeeeee.jsonl'),
      jsonl([{ sessionId: 'e', projectHash: geminiProjectHash(repo), startTime: 't' }]),
      NOW - 4 * HOUR,
    );
    writeFile(
      path.join(tmpDir, 'proj-2', 'chats', 'session-2026-10-05T07-00-ffffffff.jsonl'),
      jsonl([{ sessionId: 'f', projectHash: 'nope' }]),
      NOW,
    );
    writeFile(path.join(tmpDir, 'f'.repeat(64), 'chats', 'session-2026-10-05T07-00-99999999.json'), '{}', NOW);

    const r = await discover({ enabledAgents: ['gemini'] });
    assert.deepEqual(
      r.transcripts.map((t) => [rel(t.filePath), t.format, t.sidechain, t.sessionIdHint ?? null, t.cwdHint]),
      [
        [rel(main), 'jsonl', false, null, repo],
        [rel(sub), 'jsonl', true, 'bbbbbbbb-1111-4222-8333-444455556666', repo],
        [rel(mapped), 'jsonl', false, null, path.join(repo, 'sub')],
        [rel(look), 'jsonl', false, null, repo],
        [rel(legacy), 'json', false, null, repo],
      ],
    );
    assert.equal(r.stats.otherProjects, 2);
    assert.equal(r.stats.otherProjectFiles, 1);
  });

  it('accepts sessions of the main work tree for a linked worktree (git common dir)', async () => {
    const wt = path.join(repo, '.worktrees', 'x');
    fs.mkdirSync(wt, { recursive: true });
    const projects = path.join(home, '.claude', 'projects');
    const inMain = writeFile(
      path.join(projects, claudeProjectDirName(repo).name, 'cccccccc-0000-4000-8000-000000000001.jsonl'),
      claudeRec(repo),
      NOW - HOUR,
    );
    const inWt = writeFile(
      path.join(projects, claudeProjectDirName(wt).name, 'cccccccc-0000-4000-8000-000000000002.jsonl'),
      claudeRec(wt),
      NOW,
    );
    const r = await discover({ enabledAgents: ['claude'] }, { root: wt, gitCommonDir: path.join(repo, '.git') });
    assert.deepEqual(
      r.transcripts.map((t) => t.filePath),
      [inWt, inMain],
    );
    const alone = await discover({ enabledAgents: ['claude'] }, { root: wt });
    assert.deepEqual(
      alone.transcripts.map((t) => t.filePath),
      [inWt],
    );
  });

  it('does not follow symlinks out of the agent home, but follows those inside it', async () => {
    const dir = path.join(home, '.claude', 'projects', claudeProjectDirName(repo).name);
    const outside = writeFile(path.join(tmp.dir, 'outside', 'dddddddd-0000-4000-8000-000000000001.jsonl'), claudeRec(repo), NOW);
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(outside, path.join(dir, 'dddddddd-0000-4000-8000-000000000001.jsonl'));
    const inside = writeFile(path.join(home, '.claude', 'archive', 'dddddddd-0000-4000-8000-000000000002.jsonl'), claudeRec(repo), NOW);
    fs.symlinkSync(inside, path.join(dir, 'dddddddd-0000-4000-8000-000000000002.jsonl'));
    const r = await discover({ enabledAgents: ['claude'] });
    assert.deepEqual(
      r.transcripts.map((t) => path.basename(t.filePath)),
      ['dddddddd-0000-4000-8000-000000000002.jsonl'],
    );
    assert.equal(r.stats.symlinkEscapes, 1);
  });

  it('skips unreadable directories and counts them (injected EACCES; real chmod where the test is not root)', async () => {
    const projects = path.join(home, '.claude', 'projects');
    const good = writeFile(
      path.join(projects, claudeProjectDirName(repo).name, 'eeeeeeee-0000-4000-8000-000000000001.jsonl'),
      claudeRec(repo),
      NOW,
    );
    const lockedDir = path.join(projects, claudeProjectDirName(path.join(repo, 'sub')).name);
    writeFile(path.join(lockedDir, 'eeeeeeee-0000-4000-8000-000000000002.jsonl'), claudeRec(path.join(repo, 'sub')), NOW);
    const denying: TranscriptFs = {
      ...nodeTranscriptFs,
      readdir: (d) =>
        d === lockedDir
          ? Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }))
          : nodeTranscriptFs.readdir(d),
    };
    const r = await discover({ enabledAgents: ['claude'], fs: denying });
    assert.deepEqual(
      r.transcripts.map((t) => t.filePath),
      [good],
    );
    assert.equal(r.stats.permissionDenied, 1);

    // Real permissions: root ignores mode bits, so this part only proves something for other users.
    if (process.getuid?.() === 0) return;
    fs.chmodSync(lockedDir, 0o000);
    const real = await discover({ enabledAgents: ['claude'] });
    assert.deepEqual(
      real.transcripts.map((t) => t.filePath),
      [good],
    );
    assert.equal(real.stats.permissionDenied, 1);
  });

  it('stops at the file cap', async () => {
    const dir = path.join(home, '.claude', 'projects', claudeProjectDirName(repo).name);
    for (let i = 0; i < 10; i++) writeFile(path.join(dir, `ffffffff-0000-4000-8000-00000000000${i}.jsonl`), claudeRec(repo), NOW);
    const r = await discover({ enabledAgents: ['claude'], maxFiles: 4 });
    assert.equal(r.transcripts.length, 4);
    assert.equal(r.stats.capped, 6);
  });

  it('scans 10,000 sessions per agent directory quickly: other projects unlisted, old files stat-only, heads read once', async function () {
    this.timeout(60_000);
    const claudeDir = path.join(home, '.claude', 'projects', claudeProjectDirName(repo).name);
    const otherClaudeDir = path.join(home, '.claude', 'projects', claudeProjectDirName('/srv/other/project').name);
    const codexDay = path.join(home, '.codex', 'sessions', '2026', '10', '01');
    fs.mkdirSync(claudeDir, { recursive: true });
    fs.mkdirSync(codexDay, { recursive: true });
    fs.mkdirSync(otherClaudeDir, { recursive: true });
    const body = claudeRec(repo);
    const codexBody = jsonl([{ type: 'session_meta', payload: { id: 'x', cwd: '/elsewhere' } }]);
    const old = (NOW - 30 * DAY) / 1000;
    for (let i = 0; i < 10_000; i++) {
      const id = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
      const c = path.join(claudeDir, `${id}.jsonl`);
      fs.writeFileSync(c, body);
      const x = path.join(codexDay, `rollout-2026-10-01T00-00-00-${id}.jsonl`);
      fs.writeFileSync(x, codexBody);
      // another project's directory: never even listed (slug fast path)
      fs.writeFileSync(path.join(otherClaudeDir, `${id}.jsonl`), body);
      if (i % 1000 !== 0) {
        fs.utimesSync(c, old, old);
        fs.utimesSync(x, old, old);
      } else {
        fs.utimesSync(c, (NOW - i) / 1000, (NOW - i) / 1000);
        fs.utimesSync(x, (NOW - i) / 1000, (NOW - i) / 1000);
      }
    }
    const d = new TranscriptDiscovery(
      { root: repo },
      { homeDir: home, env: {}, clock: { now: () => NOW }, enabledAgents: ['claude', 'codex'] },
    );
    let started = Date.now();
    const r = await d.scan();
    const first = Date.now() - started;
    assert.equal(r.transcripts.length, 10);
    assert.equal(r.stats.filesStatted, 20_000);
    assert.equal(r.stats.tooOld, 19_980);
    assert.equal(r.stats.headReads, 20);
    assert.equal(r.stats.otherProjects, 1);
    started = Date.now();
    const again = await d.scan();
    const second = Date.now() - started;
    assert.equal(again.stats.headReads, undefined);
    console.log(`      30,000 files: first scan ${first} ms, rescan ${second} ms`);
    assert.ok(first < 8_000, `first scan took ${first} ms`);
    assert.ok(second < 8_000, `second scan took ${second} ms`);
  });
});
