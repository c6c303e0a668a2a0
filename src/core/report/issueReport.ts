/**
 * The text of "Agent Note: Report Issue": versions, operating system, agents detected, counters of
 * skipped and failed work, the settings that differ from their defaults, and the last errors.
 *
 * Privacy rule: the report never contains prompts, responses, file contents or paths outside the
 * repositories. Everything it shows is a number, a version, a fixed word, or an error message that
 * went through {@link scrubText} (secrets redacted, known prompt/response text removed, absolute
 * paths made repository-relative or replaced, length capped). Settings that hold paths or patterns
 * are given as counts only; repositories are numbered, not named.
 */
import { toPosixPath } from '../git/repoPath';

export interface IssueReportRepository {
  /** e.g. `main`, or undefined (detached HEAD). Never a path. */
  branch?: string;
  notedCommits?: number;
  sessions: number;
  activeSessions: number;
  /** Transcripts tailed, per agent. */
  transcripts: Readonly<Record<string, number>>;
  /** Counters of work done, skipped and failed (names and numbers only). */
  counters: Readonly<Record<string, number>>;
}

export interface IssueReportAgent {
  agent: string;
  enabled: boolean;
  /** Its transcript directory exists. */
  found: boolean;
  /** Where the directory came from: `default`, `env` (an environment variable), `extra` (a setting). */
  source: string;
}

export interface IssueReportError {
  time: number;
  level: 'warn' | 'error';
  text: string;
}

export interface IssueReportInput {
  extension: { id: string; version: string };
  host: { appName: string; version: string; uiKind: string; remoteName?: string; language: string };
  os: { platform: string; release: string; arch: string };
  node: string;
  git?: string;
  workspace: { trusted: boolean; folders: number };
  repositories: readonly IssueReportRepository[];
  agents: readonly IssueReportAgent[];
  /** Settings that differ from their defaults (arrays are reduced to their length). */
  settings: Readonly<Record<string, boolean | number | string>>;
  errors: readonly IssueReportError[];
  /** Report time (epoch ms). */
  now: number;
}

export interface ScrubOptions {
  /** Absolute roots of the repositories: paths inside them are shown relative (`<repo>/src/a.ts`). */
  repoRoots: readonly string[];
  /** Prompts and responses known to the extension: any of their text found in a message is removed. */
  sensitive: readonly string[];
  /** Secret redaction (the extension's redactor). */
  redact?: (text: string) => string;
  /** Longest message kept (default 300 characters). */
  maxLength?: number;
}

// An absolute path: POSIX (`/a/b`), home (`~/a`), Windows (`C:\a`, `\\server\share`) or a file URI;
// not the `//host` of a URL and not a relative path.
const pathRe = /(?<![\w:.\-/\\~])(?:file:\/\/)?(?:~(?=[/\\])|[A-Za-z]:(?=[/\\])|\\\\(?=\w))?[/\\][^\s'"`<>|:;,()[\]{}]*/g;

function normalize(p: string): string {
  return toPosixPath(p).replace(/\/+$/, '');
}

/** Text fragments of a prompt or response worth searching for (whole text, its lines, its head). */
function fragments(text: string): string[] {
  const out = new Set<string>();
  const t = text.trim();
  if (t.length >= 8) out.add(t);
  for (const line of t.split(/\r?\n/)) {
    const l = line.trim();
    if (l.length >= 12) out.add(l);
    if (l.length > 40) out.add(l.slice(0, 40));
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** Makes one message safe for the report (see the file comment). */
export function scrubText(text: string, opts: ScrubOptions): string {
  let s = opts.redact ? opts.redact(text) : text;
  for (const known of opts.sensitive) for (const f of fragments(known)) if (s.includes(f)) s = s.split(f).join('[prompt text removed]');
  const roots = opts.repoRoots.map(normalize).sort((a, b) => b.length - a.length);
  s = s.replace(pathRe, (m) => {
    const p = normalize(m.replace(/^file:\/\//, ''));
    const root = roots.find((r) => p === r || p.startsWith(`${r}/`));
    return root !== undefined ? `<repo>${p.slice(root.length)}` : '<path>';
  });
  const max = opts.maxLength ?? 300;
  s = s.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Counter names that say something was skipped, failed or retried. */
const troubleRe = /fail|error|invalid|skip|timeout|stale|mismatch|gone|restart|retr|broken|degraded|outside/i;

function table(rows: readonly (readonly (string | number)[])[]): string[] {
  if (rows.length < 2) return [];
  const esc = (c: string | number) => String(c).replace(/\|/g, '\\|');
  return [
    `| ${rows[0].map(esc).join(' | ')} |`,
    `| ${rows[0].map(() => '---').join(' | ')} |`,
    ...rows.slice(1).map((r) => `| ${r.map(esc).join(' | ')} |`),
  ];
}

/** Title and Markdown body of the report. `scrub` is applied to every error message. */
export function buildIssueReport(input: IssueReportInput, scrub: ScrubOptions): { title: string; body: string } {
  const lines: string[] = [];
  lines.push(
    '<!-- Describe what happened and what you expected above this line. Everything below was collected by Agent Note: -->',
    '<!-- versions, agents and counters only — no prompts, responses, file contents or paths outside your repositories. -->',
    '',
    '## What happened',
    '',
    '',
    '',
    '## Environment',
    '',
  );
  const host = input.host;
  lines.push(
    ...table([
      ['', ''],
      ['Agent Note', `${input.extension.id} ${input.extension.version}`],
      [
        'Editor',
        `${host.appName} ${host.version} (${host.uiKind}${host.remoteName ? `, remote: ${host.remoteName}` : ''}, ${host.language})`,
      ],
      ['OS', `${input.os.platform} ${input.os.release} ${input.os.arch}`],
      ['Node (extension host)', input.node],
      ['git', input.git ?? 'unknown'],
      [
        'Workspace',
        `${input.workspace.folders} folder(s), ${input.repositories.length} repositor${input.repositories.length === 1 ? 'y' : 'ies'}, ${input.workspace.trusted ? 'trusted' : 'Restricted Mode'}`,
      ],
    ]),
    '',
    '## Agents detected',
    '',
  );
  const tailed = (agent: string) => input.repositories.reduce((n, r) => n + (r.transcripts[agent] ?? 0), 0);
  lines.push(
    ...table([
      ['Agent', 'Enabled', 'Transcripts found', 'Tailed in this workspace'],
      ...input.agents.map((a) => [a.agent, a.enabled ? 'yes' : 'no', a.found ? `yes (${a.source})` : 'no', tailed(a.agent)]),
    ]),
    '',
  );
  input.repositories.forEach((r, i) => {
    lines.push(`## Repository ${i + 1}`, '');
    lines.push(
      `Branch: ${r.branch ? `\`${r.branch.replace(/`/g, '')}\`` : 'detached'} · noted commits: ${r.notedCommits ?? 'unknown'} · sessions: ${r.sessions} (${r.activeSessions} active)`,
      '',
    );
    const entries = Object.entries(r.counters)
      .filter(([, v]) => v > 0)
      .sort(([a], [b]) => a.localeCompare(b));
    const trouble = entries.filter(([k]) => troubleRe.test(k));
    const work = entries.filter(([k]) => !troubleRe.test(k));
    lines.push(`Skipped and failed work: ${trouble.length ? trouble.map(([k, v]) => `\`${k}\` ${v}`).join(', ') : 'none'}`, '');
    if (work.length) lines.push(`Work done: ${work.map(([k, v]) => `\`${k}\` ${v}`).join(', ')}`, '');
  });
  const settings = Object.entries(input.settings);
  lines.push(
    '## Settings changed from their defaults',
    '',
    settings.length ? settings.map(([k, v]) => `- \`${k}\`: ${JSON.stringify(v)}`).join('\n') : 'none',
    '',
  );
  lines.push('## Last errors and warnings', '');
  if (input.errors.length === 0) lines.push('none');
  else {
    lines.push('```text');
    for (const e of input.errors)
      lines.push(`${new Date(e.time).toISOString()} ${e.level} ${scrubText(e.text, scrub).replace(/```/g, "'''")}`);
    lines.push('```');
  }
  lines.push('', `<sub>Report generated ${new Date(input.now).toISOString()}.</sub>`, '');
  return { title: `[${input.extension.version}] `, body: lines.join('\n') };
}
