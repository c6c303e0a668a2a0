import * as vscode from 'vscode';
import type { AgentSession } from '../../core/session/sessionModel';
import { agentDisplayName, escapeMarkdown, firstLine, relativeTime } from '../../core/format/textFormat';
import { plainLabel } from '../../core/text/escape';
import type { RepositoryRegistry } from '../repositoryRegistry';
import { commands } from '../constants';
import { systemClock } from '../../core/ports';
import { findAgentDefinition } from '../../core/agents/registry/registry';

/** The tooltip (Markdown) is rebuilt at most this often. */
const tooltipIntervalMs = 2000;

/**
 * The live agent session of the current repository: `$(icon) Cursor · 4 prompts · 3 files`, an
 * idle state, hidden outside git repositories and when no session exists. Click: timeline.
 */
export class SessionStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly registry: RepositoryRegistry) {
    this.item = vscode.window.createStatusBarItem('agentNote.session', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('Agent Note Session');
    this.item.command = commands.showTimeline;
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
    );
    // idle state is time-based: re-evaluate every 30 s
    this.timer = setInterval(() => this.update(), 30_000);
    this.update();
  }

  private shown = false;

  /** The tooltip as last assigned (for tests and the API). */
  get tooltipMarkdown(): vscode.MarkdownString | undefined {
    return this.shown && this.item.tooltip instanceof vscode.MarkdownString ? this.item.tooltip : undefined;
  }

  /** Current text, '' when hidden (for tests and the API). */
  get visibleText(): string {
    return this.shown ? this.item.text : '';
  }

  private pending: NodeJS.Timeout | undefined;

  /** Throttled from session change events (a transcript burst causes one update per 300 ms). */
  scheduleUpdate(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.update();
    }, 300);
  }

  update(): void {
    const repo = this.registry.current();
    // a session of an agent turned off in the settings is no longer shown as the live one
    const agents: Readonly<Record<string, boolean>> = repo?.settings.agents ?? {};
    const session = latestSession((repo?.recorder?.sessions.list() ?? []).filter((x) => agents[x.agent] !== false));
    if (!repo || !session) {
      this.item.hide();
      this.shown = false;
      return;
    }
    const prompts = session.turns.filter((t) => t.prompt !== undefined).length;
    const files = new Set(session.turns.flatMap((t) => t.files)).size;
    const name = plainLabel(agentDisplayName(session.agent), 40);
    const icon = session.active ? (findAgentDefinition(session.agent)?.codicon ?? 'hubot') : 'circle-outline';
    const parts = [
      name,
      prompts === 1 ? vscode.l10n.t('1 prompt') : vscode.l10n.t('{0} prompts', prompts),
      files === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', files),
    ];
    if (!session.active) parts.push(vscode.l10n.t('idle'));
    // every property change re-sends the whole item (its Markdown tooltip included): change only what changed
    const text = `$(${icon}) ${parts.join(' · ')}`;
    if (this.item.text !== text) {
      this.item.text = text;
      this.item.accessibilityInformation = { label: vscode.l10n.t('Agent session: {0}', parts.join(', ')) };
    }
    this.scheduleTooltip(repo, session);
    this.item.show();
    this.shown = true;
  }

  private tooltipTimer: NodeJS.Timeout | undefined;
  private tooltipAt = 0;
  private tooltipValue = '';

  /**
   * The tooltip is Markdown that VS Code parses on every assignment (tens of ms for the extension
   * host during a burst of agent edits): rebuilt at most every 2 s, and assigned only when it changed.
   */
  private scheduleTooltip(repo: NonNullable<ReturnType<RepositoryRegistry['current']>>, session: Readonly<AgentSession>): void {
    const wait = this.tooltipAt + tooltipIntervalMs - systemClock.now();
    if (wait > 0) {
      this.tooltipTimer ??= setTimeout(() => {
        this.tooltipTimer = undefined;
        this.update();
      }, wait);
      return;
    }
    this.tooltipAt = systemClock.now();
    const name = agentDisplayName(session.agent);
    const md = new vscode.MarkdownString('', true);
    md.appendMarkdown(
      `**${escapeMarkdown(name, 40)}**${session.model ? ` · ${escapeMarkdown(session.model, 80)}` : ''} · ${session.active ? vscode.l10n.t('active') : vscode.l10n.t('idle')} · ${relativeTime(session.heartbeat, systemClock.now(), vscode.env.language)}\n\n`,
    );
    const last = [...session.turns].reverse().find((t) => t.prompt);
    if (last?.prompt) md.appendMarkdown(`${vscode.l10n.t('Last prompt:')} “${escapeMarkdown(firstLine(last.prompt, 160))}”\n\n`);
    const pending = repo.recorder?.timelineEdits().filter((e) => e.origin === 'ai' && e.time > (repo.headTime ?? 0)) ?? [];
    const pendingFiles = new Set(pending.map((e) => e.file));
    const added = pending.reduce((s, e) => s + (e.added ?? 0), 0);
    md.appendMarkdown(
      pendingFiles.size
        ? vscode.l10n.t('AI edits pending commit: {0} lines added in {1} files', added, pendingFiles.size)
        : vscode.l10n.t('No AI edits pending commit.'),
    );
    md.appendMarkdown(`\n\n${vscode.l10n.t('Click to open the session timeline.')}`);
    if (md.value === this.tooltipValue) return;
    this.tooltipValue = md.value;
    this.item.tooltip = md;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.tooltipTimer) clearTimeout(this.tooltipTimer);
    if (this.pending) clearTimeout(this.pending);
    for (const d of this.disposables) d.dispose();
  }
}

function latestSession(list: readonly Readonly<AgentSession>[]): Readonly<AgentSession> | undefined {
  let best: Readonly<AgentSession> | undefined;
  for (const s of list) if (!best || s.heartbeat > best.heartbeat) best = s;
  return best;
}
