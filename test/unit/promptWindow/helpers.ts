/** Shared helpers of the promptWindow tests: candidate rows, signatures, peer bundles. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PromptCandidate } from '../../../src/core/notes/promptWindow';
import { buildCommitSignature, type CommitSignature } from '../../../src/core/notes/selectionSignals';

/** A candidate row with defaults: agent claude, session s1, key `claude:s1:<turn>`. */
export function row(turn: number, prompt: string, extra: Partial<PromptCandidate> = {}): PromptCandidate {
  const agent = extra.agent ?? 'claude';
  const sessionId = extra.sessionId ?? 's1';
  return {
    key: `${agent}:${sessionId}:${turn}`,
    agent,
    sessionId,
    turn,
    promptId: `p${turn}`,
    prompt,
    response: null,
    filesTouched: [],
    isPrimary: false,
    hasEdits: false,
    ...extra,
  };
}

/** A primary edit row touching `files` with tool `Edit`. */
export function primary(turn: number, prompt: string, files: string[], extra: Partial<PromptCandidate> = {}): PromptCandidate {
  return row(turn, prompt, { isPrimary: true, hasEdits: true, filesTouched: files, tools: ['Edit'], ...extra });
}

/** Signature of a commit; the patch defaults to added lines naming nothing in particular. */
export function sig(subject: string, files: string[], patch = ''): CommitSignature {
  return buildCommitSignature({ subject, files, patch });
}

export const noConsumed = { maxConsumedTurn: 0, tailPromptIds: new Set<string>() };

const fixturesDir = resolve(__dirname, '../../../../test/fixtures/peer-repos');

/** A clone of one peer bundle in a temp dir, with git isolated from the machine's config. */
export class PeerRepo {
  readonly dir: string;
  private readonly home: string;

  constructor(name: string) {
    this.home = mkdtempSync(join(tmpdir(), 'an-h4-home-'));
    this.dir = join(this.home, name);
    this.git(['clone', '-q', join(fixturesDir, `${name}.bundle`), this.dir], this.home);
  }

  git(args: string[], cwd = this.dir): string {
    return execFileSync('git', ['-c', 'core.quotepath=off', ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, HOME: this.home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(this.home, 'none'), LC_ALL: 'C' },
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  /** SHA of the commit with exactly this subject. */
  shaOf(subject: string): string {
    const line = this.git(['log', '--format=%H%x09%s'])
      .split('\n')
      .find((l) => l.split('\t')[1] === subject);
    if (!line) throw new Error(`no commit ${subject}`);
    return line.split('\t')[0];
  }

  /** Subject, paths (diff-tree order) and `git show --patch --unified=0` text of a commit. */
  commit(sha: string): { subject: string; files: string[]; patch: string } {
    return {
      subject: this.git(['show', '-s', '--format=%s', sha]).trim(),
      files: this.git(['diff-tree', '-z', '--root', '--no-commit-id', '--name-only', '-r', sha]).split('\0').filter(Boolean),
      patch: this.git(['show', '--format=', '--patch', '--unified=0', '--no-color', '--no-ext-diff', sha]),
    };
  }

  dispose(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** Path of a peer note fixture. */
export function peerNotePath(repo: string, slug: string): string {
  return join(fixturesDir, repo, 'notes', `${slug}.json`);
}
