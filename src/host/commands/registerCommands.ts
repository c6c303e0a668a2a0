import * as vscode from 'vscode';
import type { Services } from '../services';
import { commands } from '../constants';

/**
 * Registers every command. Each handler is an error boundary: failures are logged and shown
 * (the user asked for something), never thrown into the workbench.
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
        const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Agent Note: {0}', e instanceof Error ? e.message : String(e)), showLog);
        if (pick === showLog) services.log.channel.show();
        return undefined;
      }
    };
  return [
    vscode.commands.registerCommand(commands.showNote, guard(commands.showNote, () => showNotePlaceholder(services))),
    vscode.commands.registerCommand(commands.showTimeline, guard(commands.showTimeline, () => showTimelinePlaceholder(services))),
    vscode.commands.registerCommand(commands.showLog, () => services.log.channel.show()),
  ];
}

async function showNotePlaceholder(services: Services): Promise<string> {
  const repo = services.registry.current();
  const msg = repo
    ? vscode.l10n.t('Agent Note: no note for {0} yet.', repo.headCommit?.slice(0, 7) ?? 'HEAD')
    : vscode.l10n.t('Agent Note: open a git repository to see its notes.');
  void vscode.window.showInformationMessage(msg);
  return msg;
}

async function showTimelinePlaceholder(services: Services): Promise<string> {
  const repo = services.registry.current();
  const msg = repo ? vscode.l10n.t('Agent Note: no agent sessions recorded yet.') : vscode.l10n.t('Agent Note: open a git repository to see its sessions.');
  void vscode.window.showInformationMessage(msg);
  return msg;
}
