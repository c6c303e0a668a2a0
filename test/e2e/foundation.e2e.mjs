import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeGitFixture, codeServerCli } from '../../scripts/harness.mjs';
import { openWorkbench, runCommand, shot } from './workbench.mjs';

describe('Agent Note in code-server (packaged .vsix)', function () {
  /** @type {Awaited<ReturnType<typeof openWorkbench>>} set by `before` */
  let wb;

  before(async function () {
    wb = await openWorkbench({ setup: ({ base }) => makeGitFixture(join(base, 'workspace')) });
  });

  after(async function () {
    await wb?.close();
  });

  it('is installed from the .vsix', function () {
    const out = codeServerCli(['--list-extensions', '--show-versions'], wb.dirs);
    assert.match(out, /agentnote\.agent-note@\d+\.\d+\.\d+/);
  });

  it('runs "Agent Note: Show Timeline" from the command palette', async function () {
    await runCommand(wb.page, 'Agent Note: Show Timeline');
    await wb.page
      .locator('.notifications-toasts .notification-toast.notification-fade-in-done, .webview, iframe.webview')
      .first()
      .waitFor({ timeout: 30_000 });
    await shot(wb.page, 'foundation-show-timeline');
  });

  it('runs "Agent Note: Show Note" from the command palette', async function () {
    await runCommand(wb.page, 'Agent Note: Show Note');
    await wb.page
      .locator('.notifications-toasts .notification-toast.notification-fade-in-done, .webview, iframe.webview')
      .first()
      .waitFor({ timeout: 30_000 });
    await shot(wb.page, 'foundation-show-note');
  });
});
