import * as vscode from 'vscode';
import * as os from 'node:os';
import type { Services } from './services';
import type { RepositoryService } from './repositoryService';
import { commands, contextKeys } from './constants';
import { agentIds } from '../core/model/agentEvents';
import { agentDefinition } from '../core/agents/registry/registry';
import { agentDisplayName } from '../core/format/textFormat';
import { plainLabel } from '../core/text/escape';
import { buildIssueReport, type IssueReportInput } from '../core/report/issueReport';
import { createRedactor } from '../core/redaction/redactor';
import { detectAgentHomes, type AgentHomeStatus } from '../node/transcripts/agentDetection';
import { configSection } from './config';
import { systemClock } from '../core/ports';

export interface RepositoryStatus {
  root: string;
  branch: string | undefined;
  notedCommits: number | undefined;
  sessions: number;
  activeSessions: number;
  transcripts: Partial<Record<string, number>>;
}

export interface AgentStatus extends AgentHomeStatus {
  enabled: boolean;
  /** Transcripts tailed in this workspace. */
  tailed: number;
  sessions: number;
  activeSessions: number;
}

/** What Agent Note found: the repositories it follows and, per agent, its transcripts (Show Status, walkthrough). */
export interface AgentNoteStatus {
  trusted: boolean;
  repositories: RepositoryStatus[];
  agents: AgentStatus[];
}

async function repositoryStatus(r: RepositoryService): Promise<RepositoryStatus> {
  const sessions = r.recorder?.sessions.list() ?? [];
  const noted = await r.notes.listNotedCommits().then(
    (s) => s.size,
    () => undefined,
  );
  return {
    root: r.root,
    branch: r.branch,
    notedCommits: noted,
    sessions: sessions.length,
    activeSessions: sessions.filter((s) => s.active).length,
    transcripts: r.tailedTranscripts(),
  };
}

export async function collectStatus(services: Services): Promise<AgentNoteStatus> {
  await Promise.race([services.ready, new Promise((r) => setTimeout(r, 2000))]);
  const repos = services.registry.all;
  const repositories = await Promise.all(repos.map(repositoryStatus));
  const homes = await detectAgentHomes({
    homeDir: os.homedir(),
    env: process.env,
    extraRoots: services.config.extraTranscriptRoots,
    editorStorage: services.editorStorage,
  });
  const agents = homes.map((h) => {
    const sessions = repos.flatMap((r) => r.recorder?.sessions.list() ?? []).filter((s) => s.agent === h.agent);
    return {
      ...h,
      enabled: services.config.agents[h.agent],
      tailed: repositories.reduce((n, r) => n + (r.transcripts[h.agent] ?? 0), 0),
      sessions: sessions.length,
      activeSessions: sessions.filter((s) => s.active).length,
    };
  });
  return { trusted: vscode.workspace.isTrusted, repositories, agents };
}

/** "Agent Note: Show Status": repositories and agents in a quick pick; picking one opens its timeline or setting. */
export async function showStatus(services: Services): Promise<AgentNoteStatus> {
  const status = await collectStatus(services);
  type Item = vscode.QuickPickItem & { run?: () => unknown };
  const items: Item[] = [{ label: vscode.l10n.t('Repositories'), kind: vscode.QuickPickItemKind.Separator }];
  if (!status.trusted)
    items.push({
      label: `$(shield) ${vscode.l10n.t('Restricted Mode: Agent Note starts once you trust this workspace')}`,
      run: () => vscode.commands.executeCommand('workbench.trust.manage'),
    });
  if (status.repositories.length === 0)
    items.push({
      label: `$(info) ${vscode.l10n.t('No git repository is open')}`,
      run: () => vscode.commands.executeCommand('workbench.action.files.openFolder'),
    });
  for (const r of status.repositories)
    items.push({
      label: `$(repo) ${plainLabel(vscode.workspace.asRelativePath(r.root, true) || r.root, 200)}`,
      description: [
        r.branch ? plainLabel(r.branch, 100) : undefined,
        r.notedCommits === undefined ? undefined : vscode.l10n.t('{0} noted commits', r.notedCommits),
      ]
        .filter(Boolean)
        .join(' · '),
      detail: vscode.l10n.t(
        '{0} sessions ({1} active), {2} transcripts tailed',
        r.sessions,
        r.activeSessions,
        Object.values(r.transcripts).reduce<number>((a, b) => a + (b ?? 0), 0),
      ),
      run: () => vscode.commands.executeCommand(commands.showTimeline, { root: r.root }),
    });
  items.push({ label: vscode.l10n.t('Agents'), kind: vscode.QuickPickItemKind.Separator });
  for (const a of status.agents) {
    const found = a.dirs.find((d) => d.exists)?.dir ?? a.dirs[0]?.dir ?? '';
    items.push({
      label: `$(${!a.enabled ? 'circle-slash' : a.found ? 'pass' : 'circle-large-outline'}) ${agentDisplayName(a.agent)}`,
      description: !a.enabled
        ? vscode.l10n.t('turned off in the settings')
        : a.found
          ? vscode.l10n.t('{0} transcripts in this workspace · {1} sessions ({2} active)', a.tailed, a.sessions, a.activeSessions)
          : vscode.l10n.t('no transcripts found'),
      detail: found
        ? vscode.l10n.t('{0} ({1})', plainLabel(found, 300), a.found ? vscode.l10n.t('found') : vscode.l10n.t('not found'))
        : undefined,
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', `${configSection}.${agentDefinition(a.agent).settingKey}`),
    });
  }
  items.push({ label: vscode.l10n.t('Help'), kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: `$(output) ${vscode.l10n.t('Show Log')}`, run: () => vscode.commands.executeCommand(commands.showLog) });
  items.push({ label: `$(report) ${vscode.l10n.t('Report Issue')}`, run: () => vscode.commands.executeCommand(commands.reportIssue) });
  void vscode.window
    .showQuickPick(items, { title: vscode.l10n.t('Agent Note: what was found'), matchOnDescription: true, matchOnDetail: true })
    .then((pick) => pick?.run?.());
  return status;
}

/** Settings of the window that differ from their defaults; lists and patterns as counts. */
function changedSettings(): Record<string, boolean | number | string> {
  const c = vscode.workspace.getConfiguration(configSection);
  const out: Record<string, boolean | number | string> = {};
  const pkg = vscode.extensions.getExtension('agentnote.agent-note')?.packageJSON as
    | { contributes?: { configuration?: { properties?: Record<string, { default?: unknown }> }[] } }
    | undefined;
  for (const group of pkg?.contributes?.configuration ?? []) {
    for (const [key, def] of Object.entries(group.properties ?? {})) {
      const value = c.get(key.slice(configSection.length + 1));
      if (JSON.stringify(value) === JSON.stringify(def.default)) continue;
      if (Array.isArray(value)) out[key] = `${value.length} entr${value.length === 1 ? 'y' : 'ies'}`;
      else if (typeof value === 'boolean' || typeof value === 'number') out[key] = value;
      else out[key] = 'changed';
    }
  }
  return out;
}

/** Everything the issue report shows, plus what must be scrubbed from its messages. */
export async function issueReportInput(services: Services): Promise<{ input: IssueReportInput; sensitive: string[]; roots: string[] }> {
  const status = await collectStatus(services);
  const repos = services.registry.all;
  const git = repos[0] ? (await repos[0].git.tryRun(['--version']))?.trim().replace(/^git version /, '') : undefined;
  const ext = services.context.extension;
  const input: IssueReportInput = {
    extension: { id: ext.id, version: String((ext.packageJSON as { version?: string }).version ?? '') },
    host: {
      appName: vscode.env.appName,
      version: vscode.version,
      uiKind: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
      remoteName: vscode.env.remoteName,
      language: vscode.env.language,
    },
    os: { platform: os.platform(), release: os.release(), arch: os.arch() },
    node: process.versions.node,
    git,
    workspace: { trusted: status.trusted, folders: vscode.workspace.workspaceFolders?.length ?? 0 },
    repositories: repos.map((r, i) => ({
      branch: status.repositories[i]?.branch,
      notedCommits: status.repositories[i]?.notedCommits,
      sessions: status.repositories[i]?.sessions ?? 0,
      activeSessions: status.repositories[i]?.activeSessions ?? 0,
      transcripts: Object.fromEntries(Object.entries(r.tailedTranscripts()).map(([k, v]) => [k, v ?? 0])),
      counters: r.counters(),
    })),
    agents: status.agents.map((a) => ({ agent: a.agent, enabled: a.enabled, found: a.found, source: a.source })),
    settings: changedSettings(),
    errors: [...services.log.recentProblems],
    now: systemClock.now(),
  };
  const sensitive = repos.flatMap((r) =>
    (r.recorder?.sessions.list() ?? []).flatMap((s) => s.turns.flatMap((t) => [t.prompt ?? '', t.response]).filter((x) => x.length > 0)),
  );
  return { input, sensitive, roots: repos.map((r) => r.root) };
}

/** The report's Markdown, scrubbed (see src/core/report/issueReport.ts). */
export async function buildReport(services: Services): Promise<{ title: string; body: string }> {
  const { input, sensitive, roots } = await issueReportInput(services);
  const redactor = createRedactor({ extraPatterns: services.config.redactionExtraPatterns });
  return buildIssueReport(input, { repoRoots: roots, sensitive, redact: (t) => redactor.redact(t).text });
}

/**
 * "Agent Note: Report Issue": the report opens as an untitled Markdown document for the user to read
 * (and edit) first; "Open GitHub Issue" opens a prefilled new issue, "Copy" puts it on the clipboard.
 */
export async function reportIssue(services: Services): Promise<string> {
  const report = await buildReport(services);
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: report.body });
  await vscode.window.showTextDocument(doc, { preview: false });
  const bugs = (services.context.extension.packageJSON as { bugs?: { url?: string } }).bugs?.url;
  const open = vscode.l10n.t('Open GitHub Issue');
  const copy = vscode.l10n.t('Copy');
  void vscode.window
    .showInformationMessage(
      vscode.l10n.t(
        'Agent Note: review the report (it holds no prompts, responses, file contents or paths outside your repositories), then send it.',
      ),
      ...(bugs ? [open] : []),
      copy,
    )
    .then(async (pick) => {
      const text = doc.isClosed ? report.body : doc.getText();
      if (pick === copy) await vscode.env.clipboard.writeText(text);
      if (pick === open && bugs) {
        // a URL carries a few thousand characters at most: a longer report goes through the clipboard
        const body = text.length > 6000 ? vscode.l10n.t('(The report is on the clipboard: paste it here.)') : text;
        if (text.length > 6000) await vscode.env.clipboard.writeText(text);
        await vscode.env.openExternal(
          vscode.Uri.parse(`${bugs}/new?title=${encodeURIComponent(report.title)}&body=${encodeURIComponent(body)}`),
        );
      }
    });
  return report.body;
}

/**
 * Context keys of the walkthrough's completion events: `agentNote.agentDetected` (a transcript of an
 * enabled agent is tailed) and `agentNote.hasNote` (a repository has a noted commit).
 */
export class WalkthroughContext implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private last = { agent: false, note: false };

  constructor(private readonly services: Services) {
    const watch = (r: RepositoryService) => {
      this.disposables.push(
        r.onDidChangeSessions(() => this.schedule()),
        r.onDidChangeNotes(() => this.schedule()),
      );
      this.schedule();
    };
    this.disposables.push(services.registry.onDidOpen(watch));
    for (const r of services.registry.all) watch(r);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.update();
    }, 1000);
  }

  private async update(): Promise<void> {
    const repos = this.services.registry.all;
    const agent = repos.some((r) => agentIds.some((a) => (r.tailedTranscripts()[a] ?? 0) > 0));
    let note = this.last.note;
    if (!note) {
      for (const r of repos) {
        if ((await r.notes.listNotedCommits().catch(() => new Set<string>())).size > 0) {
          note = true;
          break;
        }
      }
    }
    if (agent !== this.last.agent) void vscode.commands.executeCommand('setContext', contextKeys.agentDetected, agent);
    if (note !== this.last.note) void vscode.commands.executeCommand('setContext', contextKeys.hasNote, note);
    this.last = { agent, note };
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
