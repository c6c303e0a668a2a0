// Long file: mirrors the CLI's `pr` output: the JSON roll-up and the Markdown renderer share the same per-commit rows and must stay in step.
/**
 * The PR report of a commit range, mirroring `agent-note pr` of the Agent Note CLI v1.0.8
 * (docs/note-format.md §5): the `--json` object (same keys, same order, same
 * roll-up rules) and the Markdown block (heading, Total AI Ratio bar, hidden reviewer context,
 * commit table, `<details>` prompts section). Pure: the caller lists the commits and reads notes.
 */
import { countEligibleFiles } from '../attribution/aiRatio';
import { normalizeInteractionContexts } from '../notes/interactionContexts';
import type { AgentNoteV1, NoteAttribution, NoteFile, NoteInteraction } from '../notes/noteTypes';
import { filterInteractionsByDetail, type PromptDetail } from '../notes/promptScoring';
import { defangMarkdown, githubInline, githubTableCell, htmlCommentText, markdownCodeSpan, escapeHtml } from '../text/escape';
import { isObjectId } from '../git/objectId';

/** One commit of the range, oldest first (`git log --reverse base..head`). */
export interface PrReportCommit {
  sha: string;
  short: string;
  /** Commit subject (`%s`). */
  subject: string;
  /** The commit's Agent Note, already parsed; absent when the commit has none (or it is invalid). */
  note?: AgentNoteV1;
  /** Why the commit's note was not used (invalid, too large, not read): listed under the table. */
  noteError?: string;
}

export interface PrReportOptions {
  /** The base as the user gave it (JSON `base`). Default null. */
  base?: string | null;
  /** Short SHA of the head (JSON `head`). Default: the short SHA of the last commit. */
  head?: string | null;
  /** `https://github.com/owner/repo` form of origin (see {@link prReportRepoUrl}); makes commit links. */
  repoUrl?: string | null;
  /** Dashboard link (only when the repository has the dashboard workflow). */
  dashboardUrl?: string | null;
  /** `compact` (default, hides low-level prompts) or `full`. */
  promptDetail?: PromptDetail;
  /** Include the hidden `<!-- agentnote-reviewer-context … -->` block (default true, as the CLI). */
  reviewerContext?: boolean;
}

export type OverallMethod = 'line' | 'file' | 'mixed' | 'none';

/** `commits[]` element of the JSON report (key order as the CLI). */
export interface PrReportCommitJson {
  sha: string;
  short: string;
  message: string;
  session_id: string | null;
  model: string | null;
  ai_ratio: number | null;
  attribution_method: string | null;
  prompts_count: number;
  /** Ratio-eligible files (not generated, not excluded, no generated path). */
  files_total: number;
  files_ai: number;
  /** The note's `files[]` as stored (flags and additive keys included). */
  files: NoteFile[];
  /** The note's `interactions[]` as stored. */
  interactions: NoteInteraction[];
  attribution: NoteAttribution | null;
  /** Only when the commit has a note that could not be used (ours; the CLI has no such key). */
  note_error?: string;
  /** Only for a derived note (a squash or rebase merge): the noted commits it came from (ours). */
  derived_from?: string[];
}

/** The JSON report (`agent-note pr --json`), key order as the CLI. */
export interface PrReportJson {
  base: string | null;
  head: string | null;
  repo_url: string | null;
  dashboard_url: string | null;
  total_commits: number;
  tracked_commits: number;
  total_prompts: number;
  total_files: number;
  total_files_ai: number;
  overall_ai_ratio: number;
  overall_method: OverallMethod;
  model: string | null;
  commits: PrReportCommitJson[];
}

export interface PrReport {
  json: PrReportJson;
  markdown: string;
}

const headerBarWidth = 8;
const tableBarWidth = 5;
const maxPromptChars = 500;
const maxResponseChars = 500;
const minPromptBodyLineChars = 10;

/**
 * The CLI's repo URL normalization of `git remote get-url origin`: drop `.git`, turn
 * `git@github.com:` and `ssh://git@github.com/` into `https://github.com/`.
 */
export function prReportRepoUrl(remoteUrl: string): string {
  return remoteUrl
    .trim()
    .replace(/\.git$/, '')
    .replace(/^git@github\.com:/, 'https://github.com/')
    .replace(/^ssh:\/\/git@github\.com\//, 'https://github.com/');
}

/** `█`/`░` bar: filled = round(clamp(ratio)/100 × width). */
export function progressBar(ratio: number, width: number): string {
  const r = Math.min(100, Math.max(0, ratio));
  const filled = Math.round((r / 100) * width);
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

function commitJson(c: PrReportCommit): PrReportCommitJson {
  const note = c.note;
  if (!note) {
    const row: PrReportCommitJson = {
      sha: c.sha,
      short: c.short,
      message: c.subject,
      session_id: null,
      model: null,
      ai_ratio: null,
      attribution_method: null,
      prompts_count: 0,
      files_total: 0,
      files_ai: 0,
      files: [],
      interactions: [],
      attribution: null,
    };
    if (c.noteError) row.note_error = c.noteError;
    return row;
  }
  const eligible = countEligibleFiles(note.files);
  return {
    sha: c.sha,
    short: c.short,
    message: c.subject,
    session_id: typeof note.session_id === 'string' ? note.session_id : null,
    model: typeof note.model === 'string' ? note.model : null,
    ai_ratio: note.attribution.ai_ratio,
    attribution_method: note.attribution.method,
    prompts_count: note.interactions.length,
    files_total: eligible.total,
    files_ai: eligible.ai,
    files: note.files,
    interactions: note.interactions,
    attribution: note.attribution,
    // a derived note's sources (parseAgentNote checked they are commit ids)
    ...(note.derived_from?.length ? { derived_from: note.derived_from } : {}),
  };
}

/**
 * Overall ratio and method over *tracked* commits (a note with a session id):
 * - `none` when every tracked commit is `none`, or no commit is eligible (ratio 0);
 * - `line` when every eligible commit is line-level with `total_added > 0`: Σai_added / Σtotal_added;
 * - `file` when only file-level commits: Σfiles_ai / Σfiles_total;
 * - `mixed`: Σ(ai_ratio × files_total) / Σfiles_total.
 * Line commits with `total_added == 0` are not eligible. All rounding is `Math.round`.
 */
export function rollUp(tracked: readonly PrReportCommitJson[]): { ratio: number; method: OverallMethod } {
  const lineEligible = tracked.filter(
    (c) => c.attribution?.method === 'line' && !!c.attribution.lines && c.attribution.lines.total_added > 0,
  );
  const fileOnly = tracked.filter((c) => c.attribution?.method === 'file');
  const excluded = tracked.filter((c) => c.attribution?.method === 'none');
  const eligible = [...lineEligible, ...fileOnly];
  let method: OverallMethod;
  if (tracked.length > 0 && excluded.length === tracked.length) method = 'none';
  else if (eligible.length === 0) method = 'none';
  else if (fileOnly.length === 0) method = 'line';
  else if (lineEligible.length === 0) method = 'file';
  else method = 'mixed';

  const sum = (cs: readonly PrReportCommitJson[], f: (c: PrReportCommitJson) => number) => cs.reduce((n, c) => n + f(c), 0);
  let ratio = 0;
  if (method === 'line') {
    const total = sum(lineEligible, (c) => c.attribution?.lines?.total_added ?? 0);
    ratio = total > 0 ? Math.round((sum(lineEligible, (c) => c.attribution?.lines?.ai_added ?? 0) / total) * 100) : 0;
  } else if (method === 'file') {
    const total = sum(eligible, (c) => c.files_total);
    ratio = total > 0 ? Math.round((sum(eligible, (c) => c.files_ai) / total) * 100) : 0;
  } else if (method === 'mixed') {
    const weight = sum(eligible, (c) => c.files_total);
    ratio = weight > 0 ? Math.round(sum(eligible, (c) => (c.ai_ratio ?? 0) * c.files_total) / weight) : 0;
  }
  return { ratio, method };
}

/**
 * Build the JSON report and its Markdown rendering for commits listed oldest first. An empty list
 * gives a report with zero commits (the CLI prints `no commits found` instead; callers decide).
 */
export function buildPrReport(commits: readonly PrReportCommit[], opts: PrReportOptions = {}): PrReport {
  const rows = commits.map(commitJson);
  const tracked = rows.filter((c) => c.session_id !== null);
  const { ratio, method } = rollUp(tracked);
  const json: PrReportJson = {
    base: opts.base ?? null,
    head: opts.head ?? commits[commits.length - 1]?.short ?? null,
    repo_url: opts.repoUrl ?? null,
    dashboard_url: opts.dashboardUrl ?? null,
    total_commits: rows.length,
    tracked_commits: tracked.length,
    total_prompts: tracked.reduce((n, c) => n + c.prompts_count, 0),
    total_files: tracked.reduce((n, c) => n + c.files_total, 0),
    total_files_ai: tracked.reduce((n, c) => n + c.files_ai, 0),
    overall_ai_ratio: ratio,
    overall_method: method,
    model: tracked.find((c) => c.model)?.model ?? null,
    commits: rows,
  };
  return { json, markdown: renderPrReportMarkdown(json, opts) };
}

// ---------------------------------------------------------------------------------------------
// Markdown

/** Only a plain https URL makes links (one from a remote's config could hold `)` or spaces). */
function safeRepoUrl(url: string | null): string | null {
  return url && /^https:\/\/[^\s()<>[\]`"']+$/.test(url) ? url : null;
}

function commitLink(c: PrReportCommitJson, repoUrl: string | null): string {
  const short = markdownCodeSpan(c.short);
  const url = safeRepoUrl(repoUrl);
  return url && isObjectId(c.sha) ? `[${short}](${url}/commit/${c.sha})` : short;
}

function basename(path: string): string {
  return path.split('/').pop() ?? path;
}

/** Cut at `max` UTF-16 units like the CLI, but never between the halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Prompt text for the report: a pasted Markdown heading is skipped to the first real body line. */
function cleanPrompt(prompt: string): string {
  const trimmed = prompt.trim();
  if (!trimmed) return '';
  const lines = trimmed.split('\n');
  const first = lines[0] ?? '';
  let body = trimmed;
  if (first.startsWith('## ') || first.startsWith('# ')) {
    const start = lines.findIndex(
      (l, i) => i > 0 && !l.startsWith('#') && !l.startsWith('```') && l.trim().length > minPromptBodyLineChars,
    );
    body = start !== -1 ? lines.slice(start).join('\n').trim() : first.replace(/^#+\s*/, '');
  }
  return cut(body, maxPromptChars);
}

/** A quoted block of untrusted Markdown: every line (CR, LF or CRLF) prefixed, HTML/images/links defanged. */
function quote(lines: string[], labelText: string, body: string): void {
  lines.push(`**${labelText}**`, `> ${defangMarkdown(body).split('\n').join('\n> ')}`);
}

/** All contexts of an interaction, reference before scope, joined by a blank line. */
function contextText(it: NoteInteraction): string {
  const order = { reference: 0, scope: 1 } as const;
  return normalizeInteractionContexts(it)
    .sort((a, b) => (order[a.kind] ?? 1) - (order[b.kind] ?? 1))
    .map((c) => c.text)
    .join('\n\n')
    .trim();
}

/** Legacy notes stored prompt-only rows before the row with the response: show them merged. */
function isPromptOnlyRow(it: NoteInteraction): boolean {
  return (
    it.response === null &&
    !(typeof it.context === 'string' && it.context) &&
    !(it.contexts && it.contexts.length > 0) &&
    !(it.files_touched && it.files_touched.length > 0) &&
    !it.selection &&
    it.tools === undefined
  );
}

function mergePromptOnlyRows(interactions: readonly NoteInteraction[]): NoteInteraction[] {
  const out: NoteInteraction[] = [];
  let pending: string[] = [];
  for (const it of interactions) {
    if (isPromptOnlyRow(it)) {
      pending.push(it.prompt);
      continue;
    }
    if (pending.length > 0) {
      out.push({ ...it, prompt: [...pending, it.prompt].join('\n\n') });
      pending = [];
      continue;
    }
    out.push(it);
  }
  for (const prompt of pending) out.push({ prompt, response: null });
  return out;
}

/** Interactions shown for each commit at the chosen detail level. */
function visibleInteractions(report: PrReportJson, detail: PromptDetail): Map<string, NoteInteraction[]> {
  const map = new Map<string, NoteInteraction[]>();
  for (const c of report.commits) map.set(c.sha, filterInteractionsByDetail(mergePromptOnlyRows(c.interactions), detail));
  return map;
}

// Reviewer context: changed areas by path, review focus per area, newest author intent.

type AreaId = 'docs' | 'tests' | 'workflow' | 'dependencies' | 'config' | 'generated' | 'scripts' | 'frontend' | 'backend' | 'source';

const dependencyFiles = new Set([
  'package.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'Cargo.toml',
  'Cargo.lock',
  'go.mod',
  'go.sum',
  'Gemfile',
  'Gemfile.lock',
  'pyproject.toml',
  'poetry.lock',
]);

/** First matching rule wins; `source` catches everything else. */
const areaRules: readonly { id: AreaId; label: string; matches: (p: string) => boolean }[] = [
  {
    id: 'tests',
    label: 'Tests',
    matches: (p) =>
      /\.(test|spec)\.[cm]?[jt]sx?$/.test(p) ||
      p.includes('/__tests__/') ||
      p.includes('/test/') ||
      p.includes('/tests/') ||
      p.startsWith('test/') ||
      p.startsWith('tests/'),
  },
  {
    id: 'workflow',
    label: 'Workflows',
    matches: (p) =>
      p === 'action.yml' ||
      p === 'action.yaml' ||
      p.startsWith('.github/workflows/') ||
      p.startsWith('.github/actions/') ||
      p === '.github/dependabot.yml',
  },
  {
    id: 'docs',
    label: 'Documentation',
    matches: (p) =>
      p === 'README.md' ||
      /^README\.[a-z-]+\.md$/i.test(p) ||
      p.startsWith('docs/') ||
      p.startsWith('website/src/content/docs/') ||
      /\.(md|mdx|rst|adoc)$/i.test(p),
  },
  {
    id: 'dependencies',
    label: 'Dependencies',
    matches: (p) => dependencyFiles.has(p) || p.endsWith('/package.json') || p.endsWith('/package-lock.json'),
  },
  {
    id: 'config',
    label: 'Configuration',
    matches: (p) =>
      /(^|\/)(tsconfig|jsconfig|eslint|prettier|biome|vite|webpack|rollup|astro|next|nuxt|tailwind|postcss|babel|jest|vitest|playwright|cypress|docker-compose)(\.|$)/i.test(
        p,
      ) ||
      p === 'Dockerfile' ||
      ['.config.js', '.config.ts', '.config.mjs', '.config.cjs'].some((s) => p.endsWith(s)),
  },
  {
    id: 'generated',
    label: 'Generated outputs',
    matches: (p) =>
      p.includes('/dist/') ||
      p.startsWith('dist/') ||
      p.includes('/build/') ||
      p.startsWith('build/') ||
      p.endsWith('.generated.ts') ||
      p.endsWith('.generated.js') ||
      p.includes('/generated/'),
  },
  {
    id: 'scripts',
    label: 'Scripts',
    matches: (p) => p.startsWith('scripts/') || p.startsWith('tools/') || p.startsWith('bin/') || p.includes('/scripts/'),
  },
  {
    id: 'frontend',
    label: 'Frontend',
    matches: (p) =>
      ['src/components/', 'src/pages/', 'src/app/', 'src/styles/', 'public/'].some((s) => p.startsWith(s)) ||
      ['/components/', '/pages/', '/app/', '/styles/'].some((s) => p.includes(s)) ||
      /\.(css|scss|sass|less|astro|svelte|vue)$/i.test(p),
  },
  {
    id: 'backend',
    label: 'Backend',
    matches: (p) =>
      ['api/', 'server/', 'routes/', 'controllers/', 'models/'].some((s) => p.startsWith(s)) ||
      ['/api/', '/server/', '/routes/', '/controllers/', '/models/'].some((s) => p.includes(s)),
  },
  { id: 'source', label: 'Source', matches: () => true },
];

const reviewFocus: Record<AreaId, string> = {
  docs: 'Check that docs and examples match the implemented behavior without exposing internal development terminology.',
  tests: 'Check that tests cover behavior, edge cases, and regression risks rather than only snapshots.',
  workflow: 'Check that automation is safe for forks, retries, permissions, and existing deployment workflows.',
  dependencies: 'Check that dependency or package metadata changes are intentional and compatible with release expectations.',
  config: 'Check that configuration changes are scoped, documented, and consistent with the affected tooling.',
  generated: 'Check that generated outputs are consistent with source changes and were not hand-edited accidentally.',
  scripts: 'Check that scripts remain safe, idempotent, and clear about the files or services they touch.',
  frontend: 'Check user-facing behavior, accessibility, layout, and build output for the changed UI paths.',
  backend: 'Check API or server behavior, data handling, error paths, and compatibility with existing clients.',
  source: 'Compare the stated intent with the changed source files and the prompt evidence below.',
};

const maxAreas = 4;
const maxAreaFiles = 3;
const maxCommitSignals = 2;
const maxSignals = 4;
const maxFocus = 4;
const maxSnippetChars = 150;

function snippet(value: string): string {
  const compact = value
    .split('\n')
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/^#+\s*/, '')
    .trim();
  if (!compact) return '';
  return compact.length > maxSnippetChars ? `${compact.slice(0, maxSnippetChars)}…` : compact;
}

function isPrimaryIntent(it: NoteInteraction): boolean {
  const signals: readonly string[] = it.selection?.signals ?? [];
  return (
    it.selection?.source === 'primary' ||
    signals.includes('primary_edit_turn') ||
    signals.includes('exact_commit_path') ||
    signals.includes('diff_identifier')
  );
}

function reviewerContext(report: PrReportJson, visible: Map<string, NoteInteraction[]>): string[] {
  if (report.tracked_commits === 0) return [];
  const trackedCommits = report.commits.filter((c) => c.session_id !== null);

  const areaFiles = new Map<AreaId, Set<string>>();
  for (const c of trackedCommits) {
    for (const f of c.files) {
      const id = (areaRules.find((r) => r.matches(f.path)) ?? areaRules[areaRules.length - 1]).id;
      let set = areaFiles.get(id);
      if (!set) areaFiles.set(id, (set = new Set()));
      set.add(f.path);
    }
  }
  const areas = [...areaFiles]
    .map(([id, files]) => ({
      id,
      label: areaRules.find((r) => r.id === id)?.label ?? 'Source',
      files: [...files].sort().slice(0, maxAreaFiles),
      total: files.size,
    }))
    .sort((a, b) => b.total - a.total || a.label.localeCompare(b.label))
    .slice(0, maxAreas);
  const focus = [...new Set(areas.map((a) => reviewFocus[a.id]))].slice(0, maxFocus);

  const signals: string[] = [];
  const seen = new Set<string>();
  const pushSignal = (raw: string): void => {
    const s = snippet(raw);
    if (!s || seen.has(s)) return;
    seen.add(s);
    signals.push(s);
  };
  const primary: string[] = [];
  const fallback: string[] = [];
  let commitSignals = 0;
  for (const c of [...trackedCommits].reverse()) {
    if (commitSignals < maxCommitSignals) {
      pushSignal(`Commit: ${c.message}`);
      commitSignals++;
    }
    // Newest intent first: the hidden context budget should describe the final task.
    for (const it of visible.get(c.sha) ?? []) {
      const target = isPrimaryIntent(it) ? primary : fallback;
      const ctx = contextText(it);
      if (ctx) target.push(`Context: ${ctx}`);
      target.push(`Prompt: ${it.prompt}`);
    }
  }
  for (const s of [...primary, ...fallback]) {
    if (signals.length >= maxSignals) break;
    pushSignal(s);
  }

  if (areas.length === 0 && focus.length === 0 && signals.length === 0) return [];
  const body = [
    'Generated from Agent Note data. Use this as intent and review focus, not as proof that the implementation is correct.',
    '',
  ];
  if (areas.length > 0) {
    body.push('Changed areas:', '');
    for (const a of areas) {
      const files = a.files.map((f) => `\`${f.split('`').join('\\`')}\``);
      if (a.total > a.files.length) files.push(`${a.total - a.files.length} more`);
      body.push(`- ${a.label}: ${files.join(', ')}`);
    }
    body.push('');
  }
  if (focus.length > 0) {
    body.push('Review focus:', '');
    for (const f of focus) body.push(`- ${f}`);
    body.push('');
  }
  if (signals.length > 0) {
    body.push('Author intent signals:', '');
    for (const s of signals) body.push(`- ${s}`);
    body.push('');
  }
  // Inside an HTML comment: `--` would end it early, `<`/`>` could open markup; one line each.
  return ['<!-- agentnote-reviewer-context', ...body.map((l) => htmlCommentText(l.replace(/[\r\n]+/g, ' '))), '-->', ''];
}

/** A ratio as the report prints it: what the note says when it is an integer 0–100, else clamped and rounded. */
function ratioText(ratio: number): number {
  return Number.isFinite(ratio) ? Math.max(0, Math.min(100, Math.round(ratio))) : 0;
}

/** Render the Markdown block of a report (what `agent-note pr` prints, without the final newline). */
export function renderPrReportMarkdown(report: PrReportJson, opts: Pick<PrReportOptions, 'promptDetail' | 'reviewerContext'> = {}): string {
  const detail = opts.promptDetail ?? 'compact';
  const visible = visibleInteractions(report, detail);
  const visibleCount = [...visible.values()].reduce((n, list) => n + list.length, 0);
  const lines: string[] = ['## 🧑💬🤖 Agent Note', ''];

  if (report.total_commits > 0 && report.tracked_commits === 0) {
    lines.push('**Total AI Ratio:** —', '**Agent Note data:** No tracked commits');
  } else {
    lines.push(`**Total AI Ratio:** ${progressBar(report.overall_ai_ratio, headerBarWidth)} ${report.overall_ai_ratio}%`);
    if (report.model) lines.push(`**Model:** ${markdownCodeSpan(report.model)}`);
  }
  lines.push('');
  if (opts.reviewerContext !== false) lines.push(...reviewerContext(report, visible));

  lines.push('| Commit | AI Ratio | Prompts | Files |', '|---|---|---|---|');
  for (const c of report.commits) {
    const cell = `${commitLink(c, report.repo_url).split('|').join('\\|')} ${githubTableCell(c.message)}`;
    if (c.ai_ratio === null) {
      lines.push(`| ${cell} | — | — | — |`);
      continue;
    }
    const files = githubTableCell(c.files.map((f) => `${basename(f.path)} ${f.by_ai ? '🤖' : '👤'}`).join(', '));
    lines.push(`| ${cell} | ${progressBar(c.ai_ratio, tableBarWidth)} ${ratioText(c.ai_ratio)}% | ${c.prompts_count} | ${files} |`);
  }
  lines.push('');
  const unread = report.commits.filter((c) => c.note_error);
  if (unread.length > 0) {
    const list = unread.map((c) => `${markdownCodeSpan(c.short)} (${githubInline(c.note_error ?? '', 160)})`).join(', ');
    lines.push(`_Notes not used: ${list}_`, '');
  }
  const derived = report.commits.filter((c) => c.derived_from?.length);
  if (derived.length > 0) {
    const list = derived
      .map((c) => `${markdownCodeSpan(c.short)} ← ${(c.derived_from ?? []).map((x) => markdownCodeSpan(x.slice(0, 7))).join(', ')}`)
      .join('; ');
    lines.push(`_Derived from the noted commits of a squash or rebase merge: ${list}_`, '');
  }
  if (report.dashboard_url && /^https:\/\//.test(report.dashboard_url)) {
    lines.push(
      `<div align="right"><a href="${escapeHtml(report.dashboard_url)}" target="_blank" rel="noopener noreferrer">Open Dashboard ↗</a></div>`,
      '',
    );
  }

  if (report.total_prompts > 0) {
    const summary =
      detail === 'full' || visibleCount === report.total_prompts
        ? `${report.total_prompts} total`
        : `${visibleCount} shown / ${report.total_prompts} total`;
    lines.push('<details>', `<summary>💬 Prompts & Responses (${summary})</summary>`, '');
    const withPrompts = report.commits.filter((c) => (visible.get(c.sha)?.length ?? 0) > 0);
    if (withPrompts.length === 0) {
      lines.push('_No prompts are shown at the current `prompt_detail` setting. Use `full` to show every stored prompt._', '');
    }
    for (const c of withPrompts) {
      lines.push(`### ${commitLink(c, report.repo_url)} ${githubInline(c.message)}`, '');
      for (const it of visible.get(c.sha) ?? []) {
        const ctx = contextText(it);
        if (ctx) {
          quote(lines, '📝 Context', ctx);
          lines.push('>');
        }
        quote(lines, '🧑 Prompt', cleanPrompt(it.prompt));
        if (it.response) {
          lines.push('>');
          quote(lines, '🤖 Response', cut(it.response, maxResponseChars));
        }
        lines.push('');
      }
    }
    lines.push('</details>');
  }
  return lines.join('\n');
}
