/**
 * `node dist/dashboard.js --repo . --out site/`: the dashboard without the editor (CI, GitHub
 * Pages). Exit codes: 0 written, 1 failed (not a repository, unknown branch, unwritable folder),
 * 2 bad usage. Errors go to stderr, the written path to stdout.
 */
import * as path from 'node:path';
import { GitRunner } from '../git/gitRunner';
import { collectDashboard, DashboardError } from './collectDashboard';
import { defaultAssetDir, writeDashboardSite } from './dashboardSite';

export const dashboardUsage = `Usage: node dashboard.js [--repo <dir>] --out <dir> [--branch <name>]... [--all-notes]
                         [--title <text>] [--redact <regex>]... [--lang <tag>]

Writes a static Agent Note dashboard (index.html + data, no network) of the repository's notes
(refs/notes/agentnote; fetch them first in CI: git fetch origin refs/notes/agentnote:refs/notes/agentnote).

  --repo <dir>       repository (default: the current directory)
  --out <dir>        output folder (created if missing)
  --branch <name>    branch or revision to export; repeat for several (default: the current branch,
                     else origin's default branch)
  --all-notes        also export notes of commits that are on none of the branches
  --title <text>     title (default: the repository folder's name)
  --redact <regex>   an extra redaction pattern (repeatable); built-in secret patterns always apply
  --lang <tag>       the page's language tag (default: en)
  --help             this text
`;

export interface CliArgs {
  repo: string;
  out: string;
  branches: string[];
  allNotes: boolean;
  title?: string;
  redact: string[];
  lang?: string;
}

/** Parses argv (without node and the script); a string is a usage error. `help` asks for the usage text. */
export function parseCliArgs(argv: readonly string[]): CliArgs | 'help' | string {
  const a: Partial<CliArgs> & { branches: string[]; redact: string[] } = { branches: [], redact: [], allNotes: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const [name, inline] = arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case '--help':
      case '-h':
        return 'help';
      case '--all-notes':
        a.allNotes = true;
        break;
      case '--repo':
      case '--out':
      case '--branch':
      case '--title':
      case '--redact':
      case '--lang': {
        const v = value();
        if (v === undefined || v === '') return `${name} needs a value`;
        if (name === '--repo') a.repo = v;
        else if (name === '--out') a.out = v;
        else if (name === '--branch') a.branches.push(v);
        else if (name === '--title') a.title = v;
        else if (name === '--redact') a.redact.push(v);
        else a.lang = v;
        break;
      }
      default:
        return `unknown argument: ${arg}`;
    }
  }
  if (!a.out) return '--out is required';
  return {
    repo: a.repo ?? '.',
    out: a.out,
    branches: a.branches,
    allNotes: a.allNotes ?? false,
    title: a.title,
    redact: a.redact,
    lang: a.lang,
  };
}

export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  cwd: string;
  /** Folder holding dashboard.js/css (default: dist/webviews next to this bundle). */
  assetDir: string;
}

/** Runs the CLI; resolves with the exit code. */
export async function runDashboardCli(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseCliArgs(argv);
  if (args === 'help') {
    io.stdout(dashboardUsage);
    return 0;
  }
  if (typeof args === 'string') {
    io.stderr(`agent-note dashboard: ${args}\n\n${dashboardUsage}`);
    return 2;
  }
  const repo = path.resolve(io.cwd, args.repo);
  const out = path.resolve(io.cwd, args.out);
  try {
    const git = new GitRunner(repo, { timeoutMs: 120_000 });
    const data = await collectDashboard(git, {
      branches: args.branches,
      allNotes: args.allNotes,
      repository: args.title,
      redactionExtraPatterns: args.redact,
      log: { trace() {}, debug() {}, info() {}, warn: (m) => io.stderr(`warning: ${m}\n`), error: (m) => io.stderr(`error: ${m}\n`) },
    });
    const index = await writeDashboardSite(out, data, { assetDir: io.assetDir, lang: args.lang });
    const noted = data.commits.filter((c) => c.noted).length;
    io.stdout(`${index}\n${data.commits.length} commits, ${noted} with notes, branches: ${data.branches.join(', ')}\n`);
    return 0;
  } catch (e) {
    io.stderr(`agent-note dashboard: ${e instanceof DashboardError || e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

export { defaultAssetDir };
