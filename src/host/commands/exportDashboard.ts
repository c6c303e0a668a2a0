/**
 * "Agent Note: Export Dashboard…": writes the static dashboard of the current repository
 * (src/node/dashboard/) into a folder the user picks, then offers to open it in the browser.
 * Prompts are redacted again with the user's redaction patterns; the page's labels are localized.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { dashboardDefaultStrings } from '../../core/dashboard/dashboardStrings';
import { collectDashboard } from '../../node/dashboard/collectDashboard';
import { writeDashboardSite } from '../../node/dashboard/dashboardSite';
import { localizeStrings } from '../../webviews/webviewPanelHost';
import type { RepositoryService } from '../repositoryService';
import type { Services } from '../services';

export interface ExportDashboardArgs {
  /** The folder to write into (skips the folder picker; in-host tests). */
  folder?: string;
  /** Do not offer "Open in Browser" (in-host tests). */
  quiet?: boolean;
}

/** What the command did: the index.html written, or undefined when the user cancelled. */
export interface ExportDashboardResult {
  index: string;
  commits: number;
  noted: number;
}

export function parseExportArgs(raw: unknown): ExportDashboardArgs {
  if (!raw || typeof raw !== 'object') return {};
  const o = raw as Record<string, unknown>;
  return {
    folder: typeof o.folder === 'string' && path.isAbsolute(o.folder) ? o.folder : undefined,
    quiet: o.quiet === true,
  };
}

/** Runs the export for `repo`; errors are thrown to the command's guard (shown once, logged). */
export async function exportDashboard(
  services: Services,
  repo: RepositoryService,
  raw?: unknown,
): Promise<ExportDashboardResult | undefined> {
  const args = parseExportArgs(raw);
  let folder = args.folder;
  if (!folder) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      openLabel: vscode.l10n.t('Export Dashboard Here'),
      title: vscode.l10n.t('Agent Note: choose a folder for the dashboard'),
    });
    folder = picked?.[0]?.fsPath;
  }
  if (!folder) return undefined;
  const out = folder;
  const log = services.log.child('dashboard');
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Agent Note: exporting the dashboard'), cancellable: false },
    async (progress) => {
      let last = 0;
      const data = await collectDashboard(repo.git, {
        redactionExtraPatterns: services.config.redactionExtraPatterns,
        strings: localizeStrings(dashboardDefaultStrings),
        log,
        progress: (done, total) => {
          const pct = total ? Math.floor((done / total) * 100) : 100;
          if (pct > last) progress.report({ increment: pct - last, message: vscode.l10n.t('{0} of {1} notes', done, total) });
          last = pct;
        },
      });
      const index = await writeDashboardSite(out, data, {
        assetDir: path.join(services.context.extensionUri.fsPath, 'dist', 'webviews'),
        lang: vscode.env.language,
      });
      return { index, commits: data.commits.length, noted: data.commits.filter((c) => c.noted).length };
    },
  );
  log.info(`dashboard written to ${result.index} (${result.commits} commits, ${result.noted} noted)`);
  if (!args.quiet) {
    const open = vscode.l10n.t('Open in Browser');
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('Agent Note: dashboard of {0} commits ({1} with notes) exported.', result.commits, result.noted),
        open,
      )
      .then((pick) => (pick === open ? vscode.env.openExternal(vscode.Uri.file(result.index)) : undefined));
  }
  return result;
}
