/**
 * Writes the static dashboard: `index.html`, `dashboard-data.js` (the data as a script, so the page
 * works from `file://` where fetch() of a local file is refused), and the bundled app
 * (`dashboard.js`, `dashboard.css` from dist/webviews). No CDN, no server, no network: the page's
 * Content-Security-Policy allows only its own files.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { DashboardData } from '../../core/dashboard/dashboardData';
import { escapeHtml } from '../../core/text/escape';

/** Global the data script assigns; the app reads it (src/webviews/apps/dashboard/main.ts). */
export const dashboardDataGlobal = 'agentNoteDashboardData';

/** The files of a site, in the order they are written. */
export const dashboardSiteFiles = ['dashboard.js', 'dashboard.css', 'dashboard-data.js', 'index.html', '.nojekyll'] as const;

/** The page's policy: its own scripts and styles only; no connections, frames, forms or plugins. */
export const dashboardCsp =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'";

export function dashboardHtml(data: Pick<DashboardData, 'repository' | 'strings'>, lang = 'en'): string {
  const title = `${data.strings.title || 'Agent Note Dashboard'} — ${data.repository}`;
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang) ? lang : 'en')}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${dashboardCsp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="stylesheet" href="dashboard.css">',
    '</head>',
    '<body class="dashboard-page">',
    '<main id="app" aria-live="polite"><p class="loading">Loading…</p></main>',
    '<script src="dashboard-data.js"></script>',
    '<script src="dashboard.js"></script>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The data as a script. JSON is a valid JS expression; `<` is escaped anyway so the text is inert if ever inlined. */
export function dashboardDataScript(data: DashboardData): string {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `// Agent Note dashboard data (generated; schema ${data.schema}).\nglobalThis.${dashboardDataGlobal} = ${json};\n`;
}

/** Where the bundled app lives next to a bundle in dist/ (dist/extension.js or dist/dashboard.js). */
export function defaultAssetDir(bundleDir: string): string {
  return path.join(bundleDir, 'webviews');
}

/** Writes the site into `outDir` (created if missing; other files there are left alone). Returns the index.html path. */
export async function writeDashboardSite(outDir: string, data: DashboardData, opts: { assetDir: string; lang?: string }): Promise<string> {
  await fs.mkdir(outDir, { recursive: true });
  for (const asset of ['dashboard.js', 'dashboard.css']) {
    try {
      await fs.copyFile(path.join(opts.assetDir, asset), path.join(outDir, asset));
    } catch (e) {
      throw new Error(`the dashboard app (${asset}) is missing from ${opts.assetDir}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  await fs.writeFile(path.join(outDir, 'dashboard-data.js'), dashboardDataScript(data), 'utf8');
  const index = path.join(outDir, 'index.html');
  await fs.writeFile(index, dashboardHtml(data, opts.lang), 'utf8');
  // GitHub Pages: serve the files as they are (no Jekyll pass)
  await fs.writeFile(path.join(outDir, '.nojekyll'), '', 'utf8');
  return index;
}
