// Test helpers for attribution: isolated temp git repositories and the test/fixtures/diffs cases.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommitAttribution } from '../../../src/core/attribution/commitAttribution';

/** out/test/unit/attribution → repo root. */
export const repoRoot = path.resolve(__dirname, '../../../..');
export const fixturesDir = path.join(repoRoot, 'test/fixtures/diffs');
export const peerReposDir = path.join(repoRoot, 'test/fixtures/peer-repos');

const isolatedKeys = ['HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL'] as const;

/**
 * Points HOME / global git config at an empty temp dir for the duration of a `describe` block, so
 * neither the helpers nor the GitRunner under test see the machine's git configuration.
 */
export function useIsolatedGitEnv(): void {
  const saved: Partial<Record<(typeof isolatedKeys)[number], string | undefined>> = {};
  let home = '';
  before(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'an-attr-home-'));
    for (const k of isolatedKeys) saved[k] = process.env[k];
    process.env.HOME = home;
    process.env.XDG_CONFIG_HOME = path.join(home, '.config');
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    process.env.GIT_CONFIG_GLOBAL = path.join(home, '.gitconfig');
  });
  after(() => {
    for (const k of isolatedKeys) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    fs.rmSync(home, { recursive: true, force: true });
  });
}

/** A throw-away repository (use inside useIsolatedGitEnv). */
export class TempRepo {
  private constructor(readonly dir: string) {}

  static create(prefix = 'an-attr-'): TempRepo {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const repo = new TempRepo(dir);
    repo.git(['-c', 'init.defaultBranch=main', 'init', '-q']);
    // Written directly: one git process less per repository (these tests spawn a lot of git).
    fs.appendFileSync(
      path.join(dir, '.git', 'config'),
      '[user]\n\tname = Test User\n\temail = test@example.com\n[commit]\n\tgpgsign = false\n[core]\n\tautocrlf = false\n',
    );
    return repo;
  }

  /** Clones a peer bundle with its notes. */
  static fromBundle(bundle: string): TempRepo {
    const repo = TempRepo.create('an-attr-peer-');
    try {
      repo.git(['fetch', '-q', '--update-head-ok', bundle, '+refs/heads/*:refs/heads/*', 'refs/notes/agentnote:refs/notes/agentnote']);
      repo.git(['reset', '-q', '--hard', 'main']);
    } catch (e) {
      repo.dispose();
      throw e;
    }
    return repo;
  }

  git(args: string[], input?: string | Buffer): string {
    return this.gitBuffer(args, input).toString('utf8');
  }

  gitBuffer(args: string[], input?: string | Buffer): Buffer {
    return execFileSync('git', args, {
      cwd: this.dir,
      input,
      env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' },
      stdio: ['pipe', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  write(rel: string, content: string | Buffer): void {
    const p = path.join(this.dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }

  remove(rel: string): void {
    fs.rmSync(path.join(this.dir, rel), { force: true });
  }

  hashObject(content: string | Buffer): string {
    return this.git(['hash-object', '-w', '--stdin'], content).trim();
  }

  /** `hash-object -w` of existing files, one git process; ids in input order. */
  hashFiles(files: readonly string[]): string[] {
    if (files.length === 0) return [];
    return this.git(['hash-object', '-w', '--', ...files])
      .trim()
      .split('\n');
  }

  /** `git add -A` + commit; returns the new HEAD. */
  commitAll(message: string, beforeCommit?: () => void): string {
    this.git(['add', '-A']);
    beforeCommit?.();
    this.git(['commit', '-q', '--allow-empty', '-m', message]);
    return this.head();
  }

  /** HEAD's commit id, read from the ref files of this fresh repository when possible. */
  head(): string {
    const head = fs.readFileSync(path.join(this.dir, '.git', 'HEAD'), 'utf8').trim();
    const ref = head.startsWith('ref: ') ? path.join(this.dir, '.git', head.slice(5)) : undefined;
    if (!ref) return head;
    return fs.existsSync(ref) ? fs.readFileSync(ref, 'utf8').trim() : this.git(['rev-parse', 'HEAD']).trim();
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface CaseFile {
  parent?: string;
  committed?: string;
  gitlink?: string;
}

export interface CaseEdit {
  file: string;
  pre?: string;
  post: string;
  interaction: string;
  agent: string;
  editAdded?: number;
  editDeleted?: number;
}

export interface ExpectedFile {
  path: string;
  by_ai: boolean;
  generated?: true;
  ai_ratio_excluded?: true;
  level: string;
  basis?: string;
  lines?: { ai_added: number; total_added: number; deleted: number };
  added_lines?: number[];
  ai_lines?: number[];
  ranges?: { start: number; end: number; interactionKey: string | null }[];
}

export interface Expected {
  files: ExpectedFile[];
  attribution: { ai_ratio: number; method: string; lines?: { ai_added: number; total_added: number; deleted: number } };
  summary: string;
  contributing: string[];
}

export interface FixtureCase {
  name: string;
  dir: string;
  description: string;
  files: Record<string, CaseFile>;
  edits: CaseEdit[];
  expected: Expected;
}

/** Every case under test/fixtures/diffs, in name order. */
export function loadCases(): FixtureCase[] {
  return fs
    .readdirSync(fixturesDir)
    .filter((n) => fs.existsSync(path.join(fixturesDir, n, 'case.json')))
    .sort()
    .map((name) => {
      const dir = path.join(fixturesDir, name);
      const c = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as Omit<FixtureCase, 'name' | 'dir' | 'expected'>;
      const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
      return { ...c, name, dir, expected };
    });
}

/** Blob ids of fixture file references (`@empty` ⇒ the empty blob), hashed in one git call. */
export function hashRefs(repo: TempRepo, c: FixtureCase, refs: readonly string[]): Map<string, string> {
  const files = [...new Set(refs.filter((r) => r !== '@empty'))];
  const ids = repo.hashFiles(files.map((r) => path.join(c.dir, r)));
  const map = new Map(files.map((r, i) => [r, ids[i]] as const));
  map.set('@empty', 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  return map;
}

/** Every file reference of a case (file states and edit blobs). */
export function caseRefs(c: FixtureCase): string[] {
  const refs: string[] = [];
  for (const f of Object.values(c.files)) refs.push(...[f.parent, f.committed].filter((r): r is string => r !== undefined));
  for (const e of c.edits) refs.push(...[e.pre, e.post].filter((r): r is string => r !== undefined));
  return refs;
}

/** Content of a fixture file reference; `@empty` is the empty file. */
export function caseContent(c: FixtureCase, ref: string): Buffer {
  return ref === '@empty' ? Buffer.alloc(0) : fs.readFileSync(path.join(c.dir, ref));
}

/** Paths the fixture commit changes, in git's (byte) order. */
export function changedPaths(c: FixtureCase): string[] {
  return Object.entries(c.files)
    .filter(([, f]) => f.gitlink !== undefined || f.parent !== f.committed)
    .map(([p]) => p)
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** Builds the fixture's parent and committed commits in `repo`; returns the committed sha. */
export function commitCase(repo: TempRepo, c: FixtureCase): string {
  const withParent = Object.entries(c.files).filter(([, f]) => f.parent !== undefined);
  if (withParent.length > 0) {
    for (const [p, f] of withParent) repo.write(p, caseContent(c, f.parent as string));
    repo.commitAll('parent');
  }
  for (const [p, f] of Object.entries(c.files)) {
    if (f.committed !== undefined) repo.write(p, caseContent(c, f.committed));
    else repo.remove(p);
  }
  return repo.commitAll('committed', () => {
    for (const [p, f] of Object.entries(c.files)) {
      if (f.gitlink) repo.git(['update-index', '--add', '--cacheinfo', `160000,${f.gitlink},${p}`]);
    }
  });
}

/** The comparable part of a CommitAttribution, in the shape of expected.json. */
export function toExpectedShape(result: CommitAttribution): Expected {
  return {
    files: result.files.map((f) => {
      const e: ExpectedFile = { path: f.path, by_ai: f.byAi, level: f.level };
      if (f.generated) e.generated = true;
      if (f.ignored) e.ai_ratio_excluded = true;
      if (f.basis) e.basis = f.basis;
      if (f.lines && f.detail) {
        e.lines = f.lines;
        e.added_lines = f.detail.addedLines;
        e.ai_lines = f.detail.aiLines;
        e.ranges = f.ranges;
      }
      return e;
    }),
    attribution: result.attribution as Expected['attribution'],
    summary: result.summary,
    contributing: result.contributingInteractionKeys,
  };
}
