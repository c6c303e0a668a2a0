// Builds: the extension bundle (node/cjs, `vscode` external), the sharing worker thread bundle, the dashboard CLI, the webview bundles (browser/iife),
// and a transpiled copy of src + tests under out/ (not bundled) for the unit and in-host test runners.
import { build } from 'esbuild';
import { readdirSync, statSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');

/**
 * @param {string} dir
 * @param {(path: string) => boolean} pred
 * @param {string[]} [acc]
 * @returns {string[]}
 */
function walk(dir, pred, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, pred, acc);
    else if (pred(p)) acc.push(p);
  }
  return acc;
}

// a production build starts from an empty dist/ (no source map or asset of a development build may be packaged)
if (production) rmSync('dist', { recursive: true, force: true });

const extension = build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  outfile: 'dist/extension.js',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
});

// The sharing worker thread (src/node/sharing/sharingWorkerClient.ts loads dist/sharingWorker.js).
const sharingWorker = build({
  entryPoints: ['src/node/sharing/sharingWorker.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/sharingWorker.js',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
});

// The dashboard CLI for CI jobs (`node dist/dashboard.js --repo . --out site/`, src/node/dashboard/cli.ts):
// it copies the dashboard app (dist/webviews/dashboard.js/.css) next to the data it writes.
const dashboardCli = build({
  entryPoints: ['src/node/dashboard/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/dashboard.js',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
});

const webviewEntries = walk('src/webviews/apps', (p) => /[/\\]main\.ts$/.test(p));
const webviews = webviewEntries.length
  ? build({
      entryPoints: Object.fromEntries(webviewEntries.map((p) => [p.split(/[/\\]/).slice(-2, -1)[0], p])),
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      outdir: 'dist/webviews',
      // the codicon font imported by shared/codicons.css is copied next to the app's CSS
      loader: { '.ttf': 'file' },
      assetNames: '[name]-[hash]',
      minify: production,
      sourcemap: !production,
      sourcesContent: false,
      logLevel: 'warning',
    })
  : Promise.resolve();

// Tests run from out/: every .ts of src (except the browser apps) and of test/ is transpiled 1:1,
// so unit tests import src modules directly and in-host tests `require` mocha from node_modules.
/** @type {Promise<unknown>} */
let tests = Promise.resolve();
if (!production) {
  rmSync('out', { recursive: true, force: true });
  const files = [
    ...walk('src', (p) => p.endsWith('.ts') && !p.endsWith('.d.ts') && !/[/\\]webviews[/\\]apps[/\\]/.test(p)),
    ...walk('test', (p) => p.endsWith('.ts') && !p.endsWith('.d.ts')),
  ];
  tests = build({
    entryPoints: files,
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: 'out',
    outbase: '.',
    sourcemap: true,
    logLevel: 'warning',
  });
}

const [ext] = await Promise.all([extension, webviews, tests, sharingWorker, dashboardCli]);
const bytes = Object.values(ext.metafile.outputs).find((o) => o.entryPoint === 'src/extension.ts')?.bytes ?? 0;
console.log(`built dist/extension.js (${(bytes / 1024).toFixed(0)} KB${production ? ', minified' : ''})`);
