// Extracts the runtime UI strings of the extension into l10n/bundle.l10n.json and checks every
// translation (l10n/bundle.l10n.<locale>.json, package.nls.<locale>.json).
//
//   node scripts/l10n-extract.mjs            rewrite l10n/bundle.l10n.json, report, exit 0
//   node scripts/l10n-extract.mjs --check    same, but exit 1 when anything is missing, stale or broken
//   node scripts/l10n-extract.mjs --dry-run  write nothing (an outdated English bundle is a problem)
//   --verbose                                also list l10n.t calls with a non-literal message
//   --missing <locale>                       print a JSON object of the keys <locale> lacks (English
//                                            values), to paste into its bundle and translate
//   --root <dir>                             check another checkout (default: this script's repository)
//
// Sources: `vscode.l10n.t('…')` calls in src/**/*.ts and the values of exported `…DefaultStrings`
// objects (see scripts/l10n-lib.mjs).
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bundlePath,
  checkProject,
  collectMessages,
  englishBundlePath,
  formatReport,
  hasProblems,
  locales,
  renderBundle,
} from './l10n-lib.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const dryRun = args.includes('--dry-run');
const verbose = args.includes('--verbose');
const missingIdx = args.indexOf('--missing');
const rootIdx = args.indexOf('--root');
const known = new Set(['--check', '--dry-run', '--verbose', '--missing', '--root']);
const values = new Set([missingIdx, rootIdx].filter((i) => i >= 0).map((i) => i + 1));
const unknown = args.filter((a, i) => !known.has(a) && !values.has(i));
if (unknown.length || (missingIdx >= 0 && !locales.includes(args[missingIdx + 1])) || (rootIdx >= 0 && !args[rootIdx + 1])) {
  console.error(`usage: node scripts/l10n-extract.mjs [--check] [--dry-run] [--verbose] [--missing <${locales.join('|')}>] [--root <dir>]`);
  process.exit(2);
}
const root = rootIdx >= 0 ? resolve(args[rootIdx + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');

const collected = collectMessages(root);
const target = join(root, englishBundlePath);
const text = renderBundle(collected.bundle);
if (!dryRun && (!existsSync(target) || readFileSync(target, 'utf8') !== text)) {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${englishBundlePath}`);
}

const report = checkProject(root, collected);
if (missingIdx >= 0) {
  const locale = args[missingIdx + 1];
  const entry = report.bundles.find((b) => b.locale === locale);
  if (!entry) {
    console.error(`no bundle for locale ${locale}: ${report.bundles.map((b) => b.locale).join(', ')}`);
    process.exit(1);
  }
  const out = Object.fromEntries(
    entry.missing.map((k) => [k, typeof report.english[k] === 'string' ? report.english[k] : report.english[k].message]),
  );
  console.error(`missing from ${bundlePath(locale)}: ${entry.missing.length}`);
  console.log(JSON.stringify(out, null, 2));
  process.exit(0);
}
for (const line of formatReport(report, { verbose })) console.log(line);
process.exitCode = check && hasProblems(report) ? 1 : 0;
