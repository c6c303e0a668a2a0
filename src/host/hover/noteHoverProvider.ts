import * as vscode from 'vscode';
import type { AgentNoteV1 } from '../../core/notes/noteTypes';
import { normalizeInteractionContexts } from '../../core/notes/interactionContexts';
import { isUncommitted } from '../../core/blame/blamePorcelain';
import { agentDisplayName, cut, escapeMarkdown, firstLine, ratioBar, relativeTime } from '../../core/format/textFormat';
import { formatBytes } from '../../core/notes/noteLimits';
import type { Logger } from '../../core/ports';
import type { LineNoteInfo, LookupTarget } from '../../node/lookup/lineNoteLookup';
import type { RepositoryRegistry } from '../repositoryRegistry';
import type { RepositoryService } from '../repositoryService';
import { commands, linkableCommands } from '../constants';
import { repoRelativePath } from '../../core/git/repoPath';
import { hostPathRules } from '../../node/util/hostPaths';
import { systemClock } from '../../core/ports';

/**
 * Hover on any line of a tracked file: answers as soon as the file's streaming blame has reached the line,
 * finds the commit's note and shows agent, model, AI Ratio, whether this very line was AI-written
 * and by which prompt, the commit's prompts and a response excerpt, with links to our commands.
 * Lines whose commit has no note get no hover (nothing extra is shown).
 */
export class NoteHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly registry: RepositoryRegistry,
    private readonly log: Logger,
  ) {}

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    if (document.uri.scheme !== 'file') return undefined;
    const repo = this.registry.forUri(document.uri);
    const head = repo?.headCommit;
    if (!repo || !head) return undefined;
    const rel = relPath(repo.root, document.uri.fsPath);
    if (!rel) return undefined;
    const line = position.line + 1;
    try {
      const info = await repo.lookup.lookup(lookupTarget(document, rel, head), line);
      if (token.isCancellationRequested || !info) return undefined;
      if (isUncommitted(info.sha)) return await this.uncommittedHover(repo, rel, document, line);
      if (!info.note) return undefined;
      return new vscode.Hover(renderNoteHover(info, repo.root));
    } catch (e) {
      this.log.debug(`hover failed: ${String(e)}`);
      return undefined;
    }
  }

  private async uncommittedHover(
    repo: RepositoryService,
    rel: string,
    document: vscode.TextDocument,
    line: number,
  ): Promise<vscode.Hover | undefined> {
    const ranges = await repo.recorder?.uncommittedAi(rel, document.getText());
    const r = ranges?.find((x) => x.start <= line && line <= x.end);
    if (!r) return undefined;
    const md = trustedMarkdown();
    md.appendMarkdown(
      `**${vscode.l10n.t('Agent Note')}** · ${escapeMarkdown(agentDisplayName(r.agent))} · _${vscode.l10n.t('uncommitted')}_\n\n`,
    );
    md.appendMarkdown(
      `$(hubot) ${vscode.l10n.t('This line was written by the AI for the prompt:')} “${escapeMarkdown(firstLine(r.prompt, 160))}”\n\n`,
    );
    md.appendMarkdown(`[$(list-tree) ${vscode.l10n.t('Open in Timeline')}](${commandUri(commands.showTimeline, [{ root: repo.root }])})`);
    return new vscode.Hover(md);
  }
}

function trustedMarkdown(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', true);
  md.isTrusted = { enabledCommands: [...linkableCommands] };
  md.supportHtml = false;
  return md;
}

/**
 * A `command:` link target with arguments we encode: JSON, then percent-encoded including the
 * characters encodeURIComponent leaves (`(`, `)`, `!`, `'`, `*`), so no value (a folder name with
 * a `)`) can end the Markdown link destination early.
 */
export function commandUri(command: string, args: unknown[]): string {
  const encoded = encodeURIComponent(JSON.stringify(args)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `command:${command}?${encoded}`;
}

/** Hover Markdown of a noted line (exported for tests). */
export function renderNoteHover(info: LineNoteInfo, root: string, now = systemClock.now()): vscode.MarkdownString {
  const md = trustedMarkdown();
  const short = info.sha.slice(0, 7);
  if (info.note?.kind !== 'valid') {
    md.appendMarkdown(`**${vscode.l10n.t('Agent Note')}** · \`${short}\`\n\n`);
    const v = info.note?.violation;
    md.appendMarkdown(
      v?.kind === 'tooLarge'
        ? `$(warning) ${vscode.l10n.t('This commit has a note too large to read ({0}; the limit is {1}). It was not loaded.', formatBytes(v.size), formatBytes(v.limit))}\n\n`
        : `$(warning) ${vscode.l10n.t('This commit has a note that is not a valid Agent Note: {0}', escapeMarkdown(info.note?.reason ?? '', 200))}\n\n`,
    );
    md.appendMarkdown(`[${vscode.l10n.t('Show Note')}](${commandUri(commands.showNote, [{ root, sha: info.sha }])})`);
    return md;
  }
  const note: AgentNoteV1 = info.note.note;
  const a = note.attribution;
  const head = [`**${vscode.l10n.t('Agent Note')}**`];
  if (note.agent) head.push(escapeMarkdown(agentDisplayName(note.agent), 40));
  if (note.model) head.push(escapeMarkdown(note.model, 80));
  md.appendMarkdown(`${head.join(' · ')}\n\n`);
  const lines = a.method === 'line' && a.lines ? ` (${vscode.l10n.t('{0}/{1} lines', a.lines.ai_added, a.lines.total_added)})` : '';
  md.appendMarkdown(
    `${vscode.l10n.t('AI Ratio')} \`${ratioBar(a.ai_ratio)}\` **${a.ai_ratio}%** · ${vscode.l10n.t('method: {0}', a.method)}${lines}\n\n`,
  );
  const derived = note.derived_from?.length ?? 0;
  if (derived > 0)
    md.appendMarkdown(
      `$(git-merge) _${derived === 1 ? vscode.l10n.t('derived from 1 commit (a squash or rebase merge)') : vscode.l10n.t('derived from {0} commits (a squash or rebase merge)', derived)}_\n\n`,
    );
  const when = info.commit?.authorTime ? ` · ${relativeTime(info.commit.authorTime, now, vscode.env.language)}` : '';
  md.appendMarkdown(`\`${short}\` ${escapeMarkdown(info.commit?.summary ?? '')}${when}\n\n`);
  if (info.aiLine === true) {
    const idx = info.range?.interaction;
    const p = idx !== null && idx !== undefined ? note.interactions[idx] : undefined;
    md.appendMarkdown(
      p
        ? `$(hubot) ${vscode.l10n.t('This line was written by the AI — prompt {0}:', (idx ?? 0) + 1)} “${escapeMarkdown(firstLine(p.prompt, 160))}”\n\n`
        : `$(hubot) ${vscode.l10n.t('This line was written by the AI.')}\n\n`,
    );
  } else if (info.aiLine === false) {
    md.appendMarkdown(`$(person) ${vscode.l10n.t('This line was written by a person.')}\n\n`);
  }
  if (note.interactions.length) {
    md.appendMarkdown(`**${vscode.l10n.t('Prompts ({0})', note.interactions.length)}**\n\n`);
    note.interactions.slice(0, 5).forEach((it, i) => {
      md.appendMarkdown(`${i + 1}. ${escapeMarkdown(firstLine(it.prompt, 120))}\n`);
      for (const c of normalizeInteractionContexts(it).slice(0, 1))
        md.appendMarkdown(`   $(note) _${vscode.l10n.t('Context')}:_ ${escapeMarkdown(firstLine(c.text, 100))}\n`);
    });
    if (note.interactions.length > 5) md.appendMarkdown(`\n${vscode.l10n.t('…and {0} more', note.interactions.length - 5)}\n`);
    md.appendMarkdown('\n');
    const last = [...note.interactions].reverse().find((i) => i.response);
    if (last?.response) md.appendMarkdown(`> ${escapeMarkdown(cut(firstLine(last.response, 400), 200))}\n\n`);
  }
  const links = [
    `[$(note) ${vscode.l10n.t('Show Note')}](${commandUri(commands.showNote, [{ root, sha: info.sha }])})`,
    `[$(list-tree) ${vscode.l10n.t('Open in Timeline')}](${commandUri(commands.showTimeline, [{ root, sha: info.sha }])})`,
  ];
  const promptIdx = info.range?.interaction ?? (note.interactions.length ? 0 : null);
  if (promptIdx !== null && promptIdx !== undefined)
    links.push(
      `[$(copy) ${vscode.l10n.t('Copy Prompt')}](${commandUri(commands.copyPrompt, [{ root, sha: info.sha, index: promptIdx }])})`,
    );
  md.appendMarkdown(links.join(' · '));
  return md;
}

/** Blame target of a document: dirty buffers are blamed with their contents, keyed by version. */
export function lookupTarget(document: vscode.TextDocument, rel: string, head: string): LookupTarget {
  return document.isDirty
    ? { rel, head, version: `d${document.version}`, contents: document.getText() }
    : { rel, head, version: `s${document.version}` };
}

/** Repo-relative POSIX path of a file inside `root`, else undefined (never inside .git). */
export function relPath(root: string, fsPath: string): string | undefined {
  return repoRelativePath(root, fsPath, hostPathRules);
}
