// Checks a packaged .vsix the way the VS Code Marketplace and Open VSX look at it, offline (neither
// `vsce publish` nor `ovsx publish` has a dry run that works without their servers):
//   - the files of the package (`vsce ls` of the manifest, and the archive itself): only the bundle,
//     the dashboard CLI, webview assets, media, l10n, README/CHANGELOG/LICENSE — no sources, tests or node_modules;
//   - the manifest fields both galleries read (identity, engines, repository, bugs, homepage, license,
//     icon as a 128×128 PNG inside the package, categories, keywords, galleryBanner, capabilities,
//     localized %keys% resolvable from package.nls.json, contributed walkthrough media present);
//   - extension.vsixmanifest agrees with package.json (what Open VSX's server parses);
//   - the README shown on the gallery pages: no SVG or non-https images (both reject them).
// Prints `vsix: N passed, N failed` and exits non-zero on a failure.
//   node scripts/check-vsix.mjs dist/agent-note-<version>.vsix
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

/**
 * Entries of a zip archive: name → Buffer (stored or deflated; what vsce writes).
 * @param {Buffer} buf
 * @returns {Map<string, Buffer>}
 */
export function readZip(buf) {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(dataAt, dataAt + size);
    files.set(name, method === 0 ? raw : inflateRawSync(raw));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

/**
 * Width and height of a PNG, or undefined if it is not one.
 * @param {Buffer | undefined} buf
 */
export function pngSize(buf) {
  if (!buf || buf.length < 24 || buf.toString('latin1', 1, 4) !== 'PNG') return undefined;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

// The Marketplace's category list (Open VSX accepts these too).
const categories = new Set([
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Education',
  'Extension Packs',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Other',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
]);

/**
 * Every check for the archive at `vsixPath`; returns [{ name, ok, detail }].
 * @param {string} vsixPath
 * @param {{ listed?: string[] }} [opts]
 */
export function checkVsix(vsixPath, { listed } = {}) {
  const files = readZip(readFileSync(vsixPath));
  /** @type {{ name: string, ok: boolean, detail: string }[]} */
  const results = [];
  /**
   * @param {string} name
   * @param {unknown} ok
   * @param {string} [detail]
   */
  const check = (name, ok, detail = '') => results.push({ name, ok: !!ok, detail });
  const text = (/** @type {string} */ n) => files.get(n)?.toString('utf8');
  const pkg = JSON.parse(text('extension/package.json') ?? '{}');
  const nls = JSON.parse(text('extension/package.nls.json') ?? '{}');
  const names = [...files.keys()];

  check('[Content_Types].xml and extension.vsixmanifest present', files.has('[Content_Types].xml') && files.has('extension.vsixmanifest'));
  const unexpected = names.filter(
    (n) =>
      !/^(\[Content_Types\]\.xml|extension\.vsixmanifest)$/.test(n) &&
      !/^extension\/(package\.json|package\.nls(\.[a-z-]+)?\.json|readme\.md|changelog\.md|LICENSE\.txt|LICENSE)$/i.test(n) &&
      !/^extension\/dist\/(extension\.js|dashboard\.js|[a-z][A-Za-z]*Worker\.js|webviews\/[^/]+\.(js|css|ttf))$/.test(n) &&
      !/^extension\/(media|l10n)\//.test(n),
  );
  check(
    'only the bundle, its workers, webview assets, media, l10n and docs are packaged',
    unexpected.length === 0,
    unexpected.slice(0, 10).join(', '),
  );
  // Every worker thread the bundle starts (new Worker(path.join(…, 'xWorker.js'))) must be in the package.
  const bundle = text('extension/dist/extension.js') ?? '';
  const workers = [...new Set([...bundle.matchAll(/["'`]([a-z][A-Za-z]*Worker\.js)["'`]/g)].map((m) => m[1]))];
  const absent = workers.filter((w) => !files.has(`extension/dist/${w}`));
  check('every worker the bundle starts is packaged', absent.length === 0, absent.join(', '));
  // The dashboard CLI (`node dist/dashboard.js`, CI jobs) copies the dashboard app next to its data.
  check(
    'the dashboard CLI and its app are packaged',
    files.has('extension/dist/dashboard.js') &&
      files.has('extension/dist/webviews/dashboard.js') &&
      files.has('extension/dist/webviews/dashboard.css'),
  );
  check('no source maps, sources, tests or node_modules', !names.some((n) => /\.map$|\/src\/|\/test\/|node_modules/.test(n)));
  if (listed) {
    const inZip = new Set(names.filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length).toLowerCase()));
    // vsce stores LICENSE as LICENSE.txt
    const missing = listed.filter((f) => !inZip.has(f.toLowerCase()) && !inZip.has(`${f.toLowerCase()}.txt`));
    check('`vsce ls` lists exactly what is in the archive', missing.length === 0, missing.join(', '));
  }

  check('name is lowercase letters, digits and dashes', /^[a-z0-9][a-z0-9-]*$/.test(pkg.name ?? ''), pkg.name);
  check('publisher is a valid namespace', /^[a-z0-9][a-z0-9-]*$/i.test(pkg.publisher ?? ''), pkg.publisher);
  check('version is semver', /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(pkg.version ?? ''), pkg.version);
  check('engines.vscode is set', /^\^?\d+\.\d+\.\d+$/.test(pkg.engines?.vscode ?? ''), pkg.engines?.vscode);
  const resolveNls = (/** @type {unknown} */ v) => (typeof v === 'string' && /^%.+%$/.test(v) ? nls[v.slice(1, -1)] : v);
  check('displayName and description are set (localized keys resolve)', !!resolveNls(pkg.displayName) && !!resolveNls(pkg.description));
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  check('repository is an https git URL', /^https:\/\/[^/]+\/.+/.test(repo ?? ''), repo);
  check('bugs and homepage are https URLs', /^https:\/\//.test(pkg.bugs?.url ?? pkg.bugs ?? '') && /^https:\/\//.test(pkg.homepage ?? ''));
  check(
    'license is an SPDX id and a LICENSE file is packaged',
    /^[A-Za-z0-9.-]+$/.test(pkg.license ?? '') && names.some((n) => /^extension\/LICENSE/i.test(n)),
  );
  const icon = pkg.icon && files.get(`extension/${pkg.icon}`);
  const size = pngSize(icon);
  check('icon is a 128×128 PNG inside the package', size?.width === 128 && size?.height === 128, pkg.icon);
  check(
    'categories are from the gallery list',
    Array.isArray(pkg.categories) && pkg.categories.length > 0 && pkg.categories.every((/** @type {string} */ c) => categories.has(c)),
    (pkg.categories ?? []).join(', '),
  );
  check('1 to 30 keywords', Array.isArray(pkg.keywords) && pkg.keywords.length > 0 && pkg.keywords.length <= 30);
  check(
    'galleryBanner has a hex colour and a dark/light theme',
    /^#[0-9a-f]{6}$/i.test(pkg.galleryBanner?.color ?? '') && ['dark', 'light'].includes(pkg.galleryBanner?.theme),
  );
  const cap = pkg.capabilities ?? {};
  check(
    'capabilities declare untrusted and virtual workspace support',
    ['limited', true, false].includes(cap.untrustedWorkspaces?.supported) &&
      (cap.untrustedWorkspaces?.supported !== 'limited' || !!resolveNls(cap.untrustedWorkspaces.description)) &&
      cap.virtualWorkspaces !== undefined,
  );
  /** @typedef {{ title?: string, description?: string, media?: { markdown?: unknown, image?: unknown, svg?: unknown } }} WalkStep */
  /** @type {{ title?: string, steps: WalkStep[] }[]} the manifest's walkthroughs (untyped JSON) */
  const walk = pkg.contributes?.walkthroughs ?? [];
  const walkMedia = walk.flatMap((w) =>
    w.steps.flatMap((s) =>
      [s.media?.markdown, s.media?.image, s.media?.svg].flatMap((m) => (m && typeof m === 'object' ? Object.values(m) : m ? [m] : [])),
    ),
  );
  check(
    'walkthrough steps have titles and their media is packaged',
    walk.length > 0 &&
      walk.every((w) => resolveNls(w.title) && w.steps.every((s) => resolveNls(s.title) && resolveNls(s.description))) &&
      walkMedia.every((m) => files.has(`extension/${m}`)),
    walkMedia.filter((m) => !files.has(`extension/${m}`)).join(', '),
  );
  /** @type {string[]} */
  const missingNls = [];
  JSON.stringify(pkg, (_k, v) => {
    if (typeof v === 'string' && /^%[^%\s]+%$/.test(v) && nls[v.slice(1, -1)] === undefined) missingNls.push(v);
    return v;
  });
  check('every %key% of the manifest is in package.nls.json', missingNls.length === 0, missingNls.join(', '));

  const manifest = text('extension.vsixmanifest') ?? '';
  const identity = /<Identity[^>]*Id="([^"]+)"[^>]*Version="([^"]+)"[^>]*Publisher="([^"]+)"/.exec(manifest);
  check(
    'extension.vsixmanifest identity matches package.json',
    identity && identity[1] === pkg.name && identity[2] === pkg.version && identity[3] === pkg.publisher,
  );
  check(
    'extension.vsixmanifest names the icon, license and repository',
    manifest.includes('Microsoft.VisualStudio.Services.Icons.Default') &&
      /Microsoft\.VisualStudio\.Services\.Content\.License/.test(manifest) &&
      manifest.includes('Links.Source'),
  );

  const readme = text('extension/readme.md') ?? text('extension/README.md') ?? '';
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g), ...readme.matchAll(/<img[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  check(
    'README has images, all https and none SVG',
    images.length > 0 && images.every((u) => /^https:\/\//.test(u) && !/\.svg($|\?)/i.test(u)),
    images.filter((u) => !/^https:\/\//.test(u) || /\.svg/i.test(u)).join(', '),
  );
  check('package is under 10 MB', readFileSync(vsixPath).length < 10 * 1024 * 1024);
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const vsix = process.argv[2];
  if (!vsix) {
    console.error('usage: node scripts/check-vsix.mjs <file.vsix>');
    process.exit(2);
  }
  // what vsce itself would package, from the manifest and .vscodeignore (no network)
  const vsce = join(ROOT, 'node_modules', '.bin', 'vsce');
  const ls = spawnSync(vsce, ['ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
  const listed =
    ls.status === 0
      ? ls.stdout
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
      : undefined;
  const results = checkVsix(vsix, { listed });
  if (ls.status !== 0) results.push({ name: '`vsce ls` runs', ok: false, detail: (ls.stderr || ls.stdout).trim().split('\n').pop() ?? '' });
  for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.detail && !r.ok ? ` — ${r.detail}` : ''}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`vsix: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
