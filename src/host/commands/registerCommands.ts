import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Services } from '../services';
import type { RepositoryService } from '../repositoryService';
import { commands } from '../constants';
import { NotePanel } from '../../webviews/note/notePanel';
import type { NoteViewInput } from '../../webviews/note/protocol';
import { TimelinePanel } from '../../webviews/timeline/timelinePanel';
import { RepoTimelineSource } from '../timeline/repoTimelineSource';
import { commitSummary, logCommits, rangeCommits } from '../gitQueries';
import { lookupTarget, relPath } from '../hover/noteHoverProvider';
import { isUncommitted } from '../../core/blame/blamePorcelain';
import { buildPrReport } from '../../core/report/prReport';
import { agentDisplayName } from '../../core/format/textFormat';
import { isSafeRevision } from '../../core/git/gitArgs';
import { isObjectId } from '../../core/git/objectId';
import { notificationText, plainLabel } from '../../core/text/escape';
import { type HookNote, installHooks, removeHooks } from '../../node/hooks/gitHooks';
import { reportIssue, showStatus } from '../diagnostics';
import { exportDashboard } from './exportDashboard';

/** Arguments of command links (hover, CodeLens, timeline): validated, never trusted blindly. */
interface CommitArg {
  root?: string;
  sha?: string;
  index?: number;
}

function parseArg(a: unknown): CommitArg {
  if (!a || typeof a !== 'object') return {};
  const o = a as Record<string, unknown>;
  return {
    root: typeof o.root === 'string' ? o.root : undefined,
    sha: isObjectId(o.sha) ? o.sha : undefined,
    index: typeof o.index === 'number' && Number.isInteger(o.index) && o.index >= 0 ? o.index : undefined,
  };
}

/**
 * Registers every command. Each handler is an error boundary: failures are logged and shown
 * (the user asked for something), never thrown into the workbench. Handlers return what they
 * showed or copied, which the in-host tests assert on.
 */
export function registerCommands(services: Services): vscode.Disposable[] {
  const log = services.log.child('commands');
  const guard =
    <A extends unknown[]>(id: string, fn: (...args: A) => unknown) =>
    async (...args: A) => {
      try {
        return await fn(...args);
      } catch (e) {
        log.error(`${id} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        const showLog = vscode.l10n.t('Show Log');
        const pick = await vscode.window.showErrorMessage(
          vscode.l10n.t('Agent Note: {0}', notificationText(e instanceof Error ? e.message : String(e))),
          showLog,
        );
        if (pick === showLog) services.log.channel.show();
        return undefined;
      }
    };
  const repoFor = (arg: CommitArg): RepositoryService | undefined =>
    (arg.root ? services.registry.all.find((r) => r.root === arg.root) : undefined) ?? services.registry.current();
  const noRepo = () => {
    const msg = vscode.l10n.t('Agent Note: open a git repository to see its notes.');
    void vscode.window.showInformationMessage(msg);
    return msg;
  };

  return [
    vscode.commands.registerCommand(
      commands.showNote,
      guard(commands.showNote, async (raw?: unknown) => {
        const arg = parseArg(raw);
        const repo = repoFor(arg);
        if (!repo) return noRepo();
        const sha = arg.sha ?? (await pickCommit(repo));
        if (!sha) return undefined;
        const input = await noteViewInput(repo, sha);
        if (!input) {
          const msg = vscode.l10n.t('Agent Note: commit {0} has no note.', sha.slice(0, 7));
          void vscode.window.showInformationMessage(msg);
          return msg;
        }
        NotePanel.show(
          services.context.extensionUri,
          input,
          {
            openInTimeline: (s) => void vscode.commands.executeCommand(commands.showTimeline, { root: repo.root, sha: s }),
            openFile: (p) => void vscode.window.showTextDocument(vscode.Uri.file(path.join(repo.root, p))),
          },
          log,
        );
        return input;
      }),
    ),
    vscode.commands.registerCommand(
      commands.showTimeline,
      guard(commands.showTimeline, async (raw?: unknown) => {
        const arg = parseArg(raw);
        const repo = repoFor(arg);
        if (!repo) {
          const msg = vscode.l10n.t('Agent Note: open a git repository to see its sessions.');
          void vscode.window.showInformationMessage(msg);
          return msg;
        }
        await repo.start();
        const source = new RepoTimelineSource(repo);
        const focus = arg.sha ? { sha: arg.sha } : undefined;
        TimelinePanel.show(services.context.extensionUri, source, log, focus);
        return source.getState();
      }),
    ),
    vscode.commands.registerCommand(
      commands.copyPrompt,
      guard(commands.copyPrompt, async (raw?: unknown) => {
        const arg = parseArg(raw);
        const repo = repoFor(arg);
        if (!repo || !arg.sha) return undefined;
        const d = await repo.notes.read(arg.sha);
        const prompt = d?.kind === 'valid' ? d.note.interactions[arg.index ?? 0]?.prompt : undefined;
        if (prompt === undefined) return undefined;
        await vscode.env.clipboard.writeText(prompt);
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Prompt copied'), 2000);
        return prompt;
      }),
    ),
    vscode.commands.registerCommand(
      commands.copyPrReport,
      guard(commands.copyPrReport, async (raw?: unknown) => {
        const repo = repoFor(parseArg(raw));
        if (!repo) return noRepo();
        const base = await pickBase(repo, (raw as { base?: unknown } | undefined)?.base);
        if (!base) return undefined;
        const commits = await rangeCommits(repo.git, base, 'HEAD', prReportMaxCommits);
        const rows = [];
        // every note is read under the store's limits, and the report as a whole loads at most
        // prReportMaxNoteBytes of note text: the rest are listed as not read, with the reason
        let loaded = 0;
        for (const c of commits) {
          const size = await repo.notes.noteSize(c.sha);
          if (size !== undefined && size <= repo.notes.limits.maxBytes && loaded + size > prReportMaxNoteBytes) {
            rows.push({ sha: c.sha, short: c.short, subject: c.subject, noteError: 'not read: the report reached its size limit' });
            continue;
          }
          const d = size === undefined ? undefined : await repo.notes.read(c.sha);
          if (d?.kind === 'valid') loaded += size ?? 0;
          rows.push({
            sha: c.sha,
            short: c.short,
            subject: c.subject,
            note: d?.kind === 'valid' ? d.note : undefined,
            ...(d?.kind === 'invalid' ? { noteError: d.reason } : {}),
          });
        }
        const report = buildPrReport(rows, { base, head: commits[commits.length - 1]?.short });
        const format = (raw as { format?: string } | undefined)?.format ?? 'markdown';
        const text = format === 'json' ? `${JSON.stringify(report.json, null, 2)}\n` : report.markdown;
        await vscode.env.clipboard.writeText(text);
        void vscode.window.showInformationMessage(vscode.l10n.t('Agent Note: PR report for {0} commits copied.', commits.length));
        return text;
      }),
    ),
    ...(
      [
        [commands.installGitHooks, installHooks],
        [commands.removeGitHooks, removeHooks],
      ] as const
    ).map(([id, run]) =>
      vscode.commands.registerCommand(
        id,
        guard(id, async (raw?: unknown) => {
          const repo = repoFor(parseArg(raw));
          if (!repo) return noRepo();
          const r = await run(repo.git, { log: repo.log });
          const summary = Object.entries(r.results)
            .map(([hook, outcome]) => `${hook}: ${outcome}`)
            .join(', ');
          const details = r.notes.map(hookNoteText).join(' ');
          const text = vscode.l10n.t('Agent Note: git hooks in {0} — {1}', r.hooksDir, summary) + (details ? ` ${details}` : '');
          const conflict = Object.values(r.results).includes('conflict');
          void (conflict ? vscode.window.showWarningMessage(text) : vscode.window.showInformationMessage(text));
          return r;
        }),
      ),
    ),
    vscode.commands.registerCommand(
      commands.exportDashboard,
      guard(commands.exportDashboard, async (raw?: unknown) => {
        const repo = services.registry.current();
        if (!repo) return noRepo();
        return exportDashboard(services, repo, raw);
      }),
    ),
    vscode.commands.registerCommand(commands.showLog, () => services.log.channel.show()),
    vscode.commands.registerCommand(
      commands.showStatus,
      guard(commands.showStatus, () => showStatus(services)),
    ),
    vscode.commands.registerCommand(
      commands.reportIssue,
      guard(commands.reportIssue, () => reportIssue(services)),
    ),
  ];
}

/** The PR report covers at most this many commits (the newest of the range). */
const prReportMaxCommits = 1000;
/** …and loads at most this much note text in all. */
const prReportMaxNoteBytes = 16 * 1024 * 1024;

/** A hook install/remove note in the user's language. */
function hookNoteText(n: HookNote): string {
  const hook = n.hook ?? '';
  const p = n.path ?? '';
  switch (n.kind) {
    case 'notRegularFile':
      return vscode.l10n.t("{0}: {1} is not a regular file; it was left alone and Agent Note's hook was not installed.", hook, p);
    case 'backupTaken':
      return vscode.l10n.t('{0}: {1} already exists, so the current hook cannot be chained safely; nothing was changed.', hook, p);
    case 'legacyTaken':
      return vscode.l10n.t("{0}: pre-commit's {0}.legacy and {1} are both taken; nothing was changed.", hook, p);
    case 'viaPreCommit':
      return vscode.l10n.t('{0}: installed as {1}, which pre-commit runs.', hook, p);
    case 'chainedExisting':
      return vscode.l10n.t('{0}: the existing hook keeps running first (kept as {1}).', hook, p);
    case 'foreignInOwnDir':
      return vscode.l10n.t('{0}: {1} was written by someone else; it was left alone.', hook, p);
    case 'hooksPathOverride':
      return vscode.l10n.t(
        'core.hooksPath now points at {0}; each hook there runs the one in {1} first, so none of them is disabled. Remove Git Hooks restores core.hooksPath.',
        p,
        n.value ?? '',
      );
    case 'missingRecord':
      return vscode.l10n.t('core.hooksPath points at {0}, but the record of the hooks it chains is missing; nothing was changed.', p);
    case 'cliHooks':
      return vscode.l10n.t("The Agent Note CLI's hooks are installed in {0}; nothing was changed.", p);
    case 'hooksPathRestored':
      return n.value ? vscode.l10n.t('core.hooksPath is {0} again.', n.value) : vscode.l10n.t('core.hooksPath is unset again.');
    case 'staleOwnDirRemoved':
      return vscode.l10n.t('Removed {0}, which core.hooksPath no longer pointed at.', p);
  }
}

/** The commit of the current line if it has a note, else HEAD if noted, else a pick among noted commits. */
async function pickCommit(repo: RepositoryService): Promise<string | undefined> {
  const noted = await repo.notes.listNotedCommits();
  const editor = vscode.window.activeTextEditor;
  const rel = editor && relPath(repo.root, editor.document.uri.fsPath);
  if (editor && rel && repo.headCommit) {
    const doc = editor.document;
    const info = await repo.lookup.lookup(lookupTarget(doc, rel, repo.headCommit), editor.selection.active.line + 1);
    if (info && !isUncommitted(info.sha) && noted.has(info.sha)) return info.sha;
  }
  if (repo.headCommit && noted.has(repo.headCommit)) return repo.headCommit;
  const recent = (await logCommits(repo.git, 'HEAD', 300)).filter((c) => noted.has(c.sha));
  if (recent.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Agent Note: no commit on this branch has a note yet.'));
    return undefined;
  }
  const items = await noteQuickPickItems(repo, recent);
  const pick = await vscode.window.showQuickPick(items, {
    placeHolder: vscode.l10n.t('Pick a commit with an Agent Note'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return pick?.sha;
}

/**
 * The Show Note picker's items for commits with notes (default: the newest 100 on HEAD), one note
 * read at a time under the store's limits; every label renders `$(icon)`, so text is escaped.
 */
export async function noteQuickPickItems(
  repo: RepositoryService,
  commits?: Awaited<ReturnType<typeof logCommits>>,
): Promise<(vscode.QuickPickItem & { sha: string })[]> {
  let list = commits;
  if (!list) {
    const noted = await repo.notes.listNotedCommits();
    list = (await logCommits(repo.git, 'HEAD', 300)).filter((c) => noted.has(c.sha));
  }
  const items: (vscode.QuickPickItem & { sha: string })[] = [];
  for (const c of list.slice(0, 100)) {
    let description: string;
    try {
      const d = await repo.notes.read(c.sha);
      description =
        d?.kind === 'valid'
          ? `${vscode.l10n.t('{0}% AI', d.note.attribution.ai_ratio)} · ${plainLabel(agentDisplayName(d.note.agent), 40)}`
          : vscode.l10n.t('invalid note: {0}', plainLabel(d?.reason ?? '', 120));
    } catch (e) {
      description = vscode.l10n.t('invalid note: {0}', plainLabel(e instanceof Error ? e.message : String(e), 120));
    }
    items.push({
      label: plainLabel(c.subject, 200),
      description,
      detail: plainLabel(`${c.short} · ${c.author} · ${c.date.slice(0, 10)}`, 200),
      sha: c.sha,
    });
  }
  return items;
}

async function pickBase(repo: RepositoryService, given?: unknown): Promise<string | undefined> {
  if (given !== undefined) {
    if (isSafeRevision(given)) return given;
    throw new Error(vscode.l10n.t('not a usable base revision: {0}', notificationText(String(given), 80)));
  }
  const candidates = ['origin/main', 'origin/master', 'origin/develop', 'main', 'master'];
  const existing: string[] = [];
  for (const c of candidates) if (await repo.git.tryRun(['rev-parse', '-q', '--verify', `${c}^{commit}`])) existing.push(c);
  const branch = repo.branch;
  const items = existing.filter((c) => c !== branch);
  if (items.length === 0) {
    return vscode.window
      .showInputBox({
        prompt: vscode.l10n.t('Base revision for the PR report (commits in base..HEAD)'),
        value: 'HEAD~10',
        validateInput: (v) => (isSafeRevision(v.trim()) ? undefined : vscode.l10n.t('Enter a revision such as main or HEAD~10.')),
      })
      .then((v) => v?.trim() || undefined);
  }
  if (items.length === 1) return items[0];
  return vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Base of the pull request') });
}

/** Everything the Show Note panel needs for one commit, undefined when it has no note. */
export async function noteViewInput(repo: RepositoryService, sha: string): Promise<NoteViewInput | undefined> {
  const [decoded, c] = await Promise.all([repo.notes.read(sha), commitSummary(repo.git, sha)]);
  if (!decoded) return undefined;
  const commit = { sha, short: c?.short ?? sha.slice(0, 7), subject: c?.subject ?? '', author: c?.author, date: c?.date };
  const redactions = (decoded.raw.match(/\[REDACTED:[a-z0-9-]+\]/g) ?? []).length;
  // a note over the size limit was never loaded: the panel shows the reason, no text
  if (decoded.kind === 'invalid')
    return { commit, invalidReason: decoded.reason, ...(decoded.raw ? { raw: decoded.raw } : {}), redactions, strings: {} };
  return { commit, note: decoded.note, raw: decoded.raw, redactions, strings: {} };
}
