// Extraction and consistency checks for the extension's localization files, shared by
// scripts/l10n-extract.mjs (the CLI) and test/unit/l10n/l10n.test.ts.
//
// Runtime strings: every `vscode.l10n.t(<string literal>, …)` in src/**/*.ts, plus every value of an
// exported `…DefaultStrings` object literal (webview / Markdown labels the host passes through
// `vscode.l10n.t(englishDefault)`). The English text is the key. Sources are parsed with the
// TypeScript compiler API, so comments, escapes and template literals are handled like tsc does.
//
// Manifest strings: `%key%` values in package.json, resolved from package.nls.json and
// package.nls.<locale>.json.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';

// require() rather than `import ts from 'typescript'`: importing the 9 MB CommonJS file from ESM
// makes Node scan it for named exports, which costs most of a second.
/** @type {typeof import('typescript')} */
const ts = createRequire(import.meta.url)('typescript');

/** @typedef {import('typescript').Node} TsNode */
/** @typedef {import('typescript').Expression} TsExpression */
/** @typedef {import('typescript').SourceFile} TsSourceFile */
/** @typedef {import('typescript').StringLiteral | import('typescript').NoSubstitutionTemplateLiteral} TsStringLike */
/** @typedef {string | { message: string, comment: string[] }} BundleValue an English bundle value */
/** @typedef {{ file: string, line: number }} Where */
/** @typedef {Where & { key: string, message: string, comment?: string[] }} Message */
/** @typedef {Where & { text: string, reason: string }} Problem */
/** @typedef {Where & { text: string }} Indirect */
/** @typedef {ReturnType<typeof compareTranslations> & { locale: string, path: string, error?: string }} FileCheck */
/** @typedef {ReturnType<typeof checkProject>} Report */

/** VS Code display-language ids we ship translations for (file suffixes of the bundles). */
export const locales = ['es', 'pt-br', 'it', 'zh-tw'];

/** Where the English runtime bundle lives, relative to the repository root. */
export const englishBundlePath = 'l10n/bundle.l10n.json';

/** Path of the runtime bundle of a locale, relative to the repository root. */
/** @param {string} locale */
export function bundlePath(locale) {
  return `l10n/bundle.l10n.${locale}.json`;
}

/** Path of the manifest translation of a locale, relative to the repository root. */
/** @param {string} locale */
export function nlsPath(locale) {
  return `package.nls.${locale}.json`;
}

const defaultStringsName = /DefaultStrings$/;

/**
 * @param {TsSourceFile} sf
 * @param {TsNode} node
 */
function lineOf(sf, node) {
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

/** `vscode.l10n.t` or `l10n.t` (named import). */
/** @param {TsExpression} callee */
function isL10nT(callee) {
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 't') return false;
  const target = callee.expression;
  if (ts.isIdentifier(target)) return target.text === 'l10n';
  return ts.isPropertyAccessExpression(target) && target.name.text === 'l10n';
}

/**
 * @param {TsNode} node
 * @returns {node is TsStringLike}
 */
function isStringLike(node) {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
}

/** @param {TsExpression} node */
function unwrap(node) {
  let n = node;
  while (n && (ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isParenthesizedExpression(n) || ts.isTypeAssertionExpression(n)))
    n = n.expression;
  return n;
}

/** The `{ message, comment }` form of `l10n.t`: key is `message/comment` (comment lines joined), as VS Code looks it up. */
/** @param {import('typescript').ObjectLiteralExpression} obj */
function optionsMessage(obj) {
  let message;
  let comment;
  for (const p of obj.properties) {
    if (!ts.isPropertyAssignment(p) || !p.name || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) continue;
    const init = unwrap(p.initializer);
    if (p.name.text === 'message') message = isStringLike(init) ? init.text : null;
    if (p.name.text === 'comment') {
      if (isStringLike(init)) comment = [init.text];
      else if (ts.isArrayLiteralExpression(init) && init.elements.every(isStringLike))
        comment = init.elements.filter(isStringLike).map((e) => e.text);
      else comment = null;
    }
  }
  if (typeof message !== 'string' || comment === null) return undefined;
  return comment && comment.length ? { key: `${message}/${comment.join('')}`, message, comment } : { key: message, message };
}

/**
 * Scans one TypeScript source text.
 * Returns the literal `l10n.t` messages, the `…DefaultStrings` values, and the calls whose message
 * cannot be extracted: `problems` (a template with `${}` or a concatenation: never translatable)
 * and `indirect` (an identifier or property: fine when it holds a default-strings value).
 */
/**
 * @param {string} text
 * @param {string} [fileName]
 */
export function scanSource(text, fileName = 'source.ts') {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  /** @type {Message[]} */
  const messages = [];
  /** @type {Problem[]} */
  const problems = [];
  /** @type {Indirect[]} */
  const indirect = [];
  /** @type {(Where & { name: string, entries: { prop: string, value: string, line: number }[] })[]} */
  const defaultObjects = [];
  /** @param {TsNode} node */
  const visit = (node) => {
    if (ts.isCallExpression(node) && isL10nT(node.expression)) {
      const where = { file: fileName, line: lineOf(sf, node) };
      const arg = node.arguments[0] ? unwrap(node.arguments[0]) : undefined;
      const options = arg && ts.isObjectLiteralExpression(arg) ? optionsMessage(arg) : undefined;
      if (arg && isStringLike(arg)) messages.push({ key: arg.text, message: arg.text, ...where });
      else if (options) messages.push({ ...options, ...where });
      else if (arg && (ts.isIdentifier(arg) || ts.isPropertyAccessExpression(arg) || ts.isElementAccessExpression(arg)))
        indirect.push({ ...where, text: arg.getText(sf) });
      else problems.push({ ...where, text: node.getText(sf).slice(0, 120), reason: 'the message is not a string literal' });
    }
    if (ts.isVariableStatement(node) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      for (const d of node.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !defaultStringsName.test(d.name.text)) continue;
        const init = d.initializer ? unwrap(d.initializer) : undefined;
        const where = { file: fileName, line: lineOf(sf, d) };
        if (!init || !ts.isObjectLiteralExpression(init)) {
          problems.push({ ...where, text: d.name.text, reason: 'a …DefaultStrings export must be an object literal' });
          continue;
        }
        /** @type {{ prop: string, value: string, line: number }[]} */
        const entries = [];
        for (const p of init.properties) {
          const init2 = ts.isPropertyAssignment(p) ? unwrap(p.initializer) : undefined;
          if (init2 && isStringLike(init2) && p.name) entries.push({ prop: p.name.getText(sf), value: init2.text, line: lineOf(sf, p) });
          else
            problems.push({
              file: fileName,
              line: lineOf(sf, p),
              text: `${d.name.text}.${p.name?.getText(sf) ?? '?'}`,
              reason: 'a …DefaultStrings value must be a string literal',
            });
        }
        defaultObjects.push({ name: d.name.text, ...where, entries });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { messages, problems, indirect, defaultObjects };
}

/**
 * @param {string} dir
 * @param {string[]} [acc]
 * @returns {string[]}
 */
function walkTs(dir, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walkTs(p, acc);
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) acc.push(p);
  }
  return acc;
}

/** @param {string} p */
function posix(p) {
  return p.split(sep).join('/');
}

/**
 * Collects every runtime message of the sources under `<root>/src`.
 * `bundle` is the English bundle (sorted keys; value = English text, or `{ message, comment }` for
 * the commented form); `sources` maps each key to the `file:line` places that use it.
 */
/** @param {string} root */
export function collectMessages(root) {
  /** @type {Map<string, BundleValue>} */
  const bundle = new Map();
  /** @type {Map<string, string[]>} */
  const sources = new Map();
  /** @type {Problem[]} */
  const problems = [];
  /** @type {Indirect[]} */
  const indirect = [];
  /** @type {{ name: string, file: string, keys: string[] }[]} */
  const defaultObjects = [];
  /**
   * @param {string} key
   * @param {BundleValue} value
   * @param {string} where
   */
  const add = (key, value, where) => {
    if (!bundle.has(key)) bundle.set(key, value);
    let places = sources.get(key);
    if (!places) sources.set(key, (places = []));
    places.push(where);
  };
  for (const file of walkTs(join(root, 'src'))) {
    const rel = posix(relative(root, file));
    const text = readFileSync(file, 'utf8');
    // Parsing is the slow part: skip files that cannot contain either form.
    if (!text.includes('l10n') && !text.includes('DefaultStrings')) continue;
    const r = scanSource(text, rel);
    for (const m of r.messages) add(m.key, m.comment ? { message: m.message, comment: m.comment } : m.message, `${rel}:${m.line}`);
    for (const o of r.defaultObjects) {
      defaultObjects.push({ name: o.name, file: rel, keys: o.entries.map((e) => e.prop) });
      for (const e of o.entries) add(e.value, e.value, `${rel}:${e.line} (${o.name}.${e.prop})`);
    }
    problems.push(...r.problems);
    indirect.push(...r.indirect);
  }
  const sorted = Object.fromEntries([...bundle.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    bundle: sorted,
    sources: Object.fromEntries([...sources.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    problems,
    indirect,
    defaultObjects,
  };
}

/** The text of the English bundle file for `bundle` (2-space JSON, trailing newline). */
/** @param {Record<string, BundleValue>} bundle */
export function renderBundle(bundle) {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

/** Names that stay untranslated in every language. */
const productNames = /Agent Note|Claude Code|Cursor|Codex|Gemini|CodeLens|Markdown|JSON/g;

/** `{0}` / `{name}` placeholders of a message, sorted (repeats kept). */
/** @param {string} text */
export function placeholders(text) {
  return (text.match(/\{[A-Za-z0-9_]+\}/g) ?? []).sort();
}

/**
 * The parts of a message a translation must keep: placeholders, codicons `$(name)`, setting links
 * `#agentNote.x.y#`, product and agent names, and inline code spans. A code span showing rendered
 * UI (containing ` · `) only has to exist, its content may be localized like the UI it shows.
 */
/** @param {string} text */
export function protectedParts(text) {
  const codeSpans = text.match(/`[^`]+`/g) ?? [];
  return {
    placeholders: placeholders(text),
    codicons: (text.match(/\$\([a-z0-9~-]+\)/g) ?? []).sort(),
    settings: (text.match(/#[A-Za-z][\w-]*(?:\.[\w-]+)+#/g) ?? []).sort(),
    names: (text.match(productNames) ?? []).sort(),
    code: codeSpans.filter((c) => !c.includes(' · ')).sort(),
    uiSamples: codeSpans.filter((c) => c.includes(' · ')).length,
  };
}

/** Differences between the protected parts of an English message and its translation (empty = fine). */
/**
 * @param {string} english
 * @param {string} translation
 */
export function compareProtected(english, translation) {
  const a = protectedParts(english);
  const b = protectedParts(translation);
  const out = [];
  for (const k of /** @type {const} */ (['placeholders', 'codicons', 'settings', 'names', 'code'])) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out.push(`${k} ${JSON.stringify(a[k])} became ${JSON.stringify(b[k])}`);
  }
  if (a.uiSamples !== b.uiSamples) out.push(`UI sample code spans: ${a.uiSamples} became ${b.uiSamples}`);
  return out;
}

/** Reads a flat JSON object file. Never throws: `{ ok: false, error }` when absent or malformed. */
/**
 * @param {string} file
 * @returns {{ ok: true, value: Record<string, unknown> } | { ok: false, error: string }}
 */
export function readJsonObject(file) {
  if (!existsSync(file)) return { ok: false, error: 'file not found' };
  let value;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return { ok: false, error: `not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'not a JSON object' };
  return { ok: true, value };
}

/** @param {unknown} v an English value: the text, or `{ message, comment }` */
function englishText(v) {
  if (typeof v === 'string') return v;
  const message = v && typeof v === 'object' && 'message' in v ? v.message : undefined;
  return typeof message === 'string' ? message : '';
}

/**
 * Compares a translation map with the English one: keys missing from it, keys it has that English
 * no longer has (stale), values that are not non-empty strings, and broken protected parts.
 */
/**
 * @param {Record<string, unknown>} english
 * @param {Record<string, unknown>} translated
 */
export function compareTranslations(english, translated) {
  const missing = Object.keys(english).filter((k) => !Object.prototype.hasOwnProperty.call(translated, k));
  const stale = Object.keys(translated).filter((k) => !Object.prototype.hasOwnProperty.call(english, k));
  /** @type {string[]} */
  const invalid = [];
  /** @type {{ key: string, problems: string[] }[]} */
  const mismatched = [];
  for (const [k, v] of Object.entries(translated)) {
    if (!Object.prototype.hasOwnProperty.call(english, k)) continue;
    if (typeof v !== 'string' || v.trim() === '') {
      invalid.push(k);
      continue;
    }
    const diffs = compareProtected(englishText(english[k]), v);
    if (diffs.length) mismatched.push({ key: k, problems: diffs });
  }
  return { missing, stale, invalid, mismatched };
}

/** `%key%` references anywhere in package.json (whole-string values, as VS Code resolves them). */
/** @param {unknown} manifest */
export function manifestKeys(manifest) {
  /** @type {Set<string>} */
  const keys = new Set();
  /** @param {unknown} v */
  const walk = (v) => {
    if (typeof v === 'string') {
      const m = /^%([^%\s]+)%$/.exec(v);
      if (m) keys.add(m[1]);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(manifest);
  return [...keys].sort();
}

/**
 * Runs every check for the repository at `root`.
 * `bundle` is the freshly extracted English bundle (defaults to extracting it now).
 */
/**
 * @param {string} root
 * @param {ReturnType<typeof collectMessages>} [collected]
 */
export function checkProject(root, collected = collectMessages(root)) {
  const english = collected.bundle;
  const onDisk = readJsonObject(join(root, englishBundlePath));
  const englishBundle = {
    path: englishBundlePath,
    upToDate: onDisk.ok && readFileSync(join(root, englishBundlePath), 'utf8') === renderBundle(english),
  };
  const bundles = locales.map((locale) => {
    const path = bundlePath(locale);
    const r = readJsonObject(join(root, path));
    if (!r.ok) return { locale, path, error: r.error, missing: Object.keys(english), stale: [], invalid: [], mismatched: [] };
    return { locale, path, ...compareTranslations(english, r.value) };
  });

  const manifest = readJsonObject(join(root, 'package.json'));
  const nlsBase = readJsonObject(join(root, 'package.nls.json'));
  const nlsEnglish = nlsBase.ok ? nlsBase.value : {};
  const used = manifest.ok ? manifestKeys(manifest.value) : [];
  const manifestCheck = {
    error: !manifest.ok ? `package.json: ${manifest.error}` : !nlsBase.ok ? `package.nls.json: ${nlsBase.error}` : undefined,
    undefinedKeys: used.filter((k) => !Object.prototype.hasOwnProperty.call(nlsEnglish, k)),
    unusedKeys: Object.keys(nlsEnglish).filter((k) => !used.includes(k)),
    invalid: Object.keys(nlsEnglish).filter((k) => typeof nlsEnglish[k] !== 'string' || nlsEnglish[k].trim() === ''),
  };
  const nls = locales.map((locale) => {
    const path = nlsPath(locale);
    const r = readJsonObject(join(root, path));
    if (!r.ok) return { locale, path, error: r.error, missing: Object.keys(nlsEnglish), stale: [], invalid: [], mismatched: [] };
    return { locale, path, ...compareTranslations(nlsEnglish, r.value) };
  });
  return {
    english,
    sources: collected.sources,
    problems: collected.problems,
    indirect: collected.indirect,
    defaultObjects: collected.defaultObjects,
    englishBundle,
    bundles,
    manifest: manifestCheck,
    nls,
  };
}

/** True when `checkProject` found anything to fix (`--check` fails on it). */
/** @param {Report} report */
export function hasProblems(report) {
  /** @param {FileCheck} f */
  const fileBad = (f) => f.error || f.missing.length || f.stale.length || f.invalid.length || f.mismatched.length;
  return Boolean(
    !report.englishBundle.upToDate ||
      report.problems.length ||
      report.bundles.some(fileBad) ||
      report.nls.some(fileBad) ||
      report.manifest.error ||
      report.manifest.undefinedKeys.length ||
      report.manifest.unusedKeys.length ||
      report.manifest.invalid.length,
  );
}

/** Human-readable report lines (keys quoted as JSON, so they can be pasted into a bundle). */
/**
 * @param {Report} report
 * @param {{ verbose?: boolean }} [opts]
 */
export function formatReport(report, { verbose = false } = {}) {
  /** @type {string[]} */
  const out = [];
  const q = (/** @type {string} */ s) => JSON.stringify(s);
  const objects = report.defaultObjects.map((o) => `${o.name}: ${o.keys.length}`).join(', ');
  out.push(`${Object.keys(report.english).length} runtime messages (including ${objects || 'no …DefaultStrings objects'})`);
  if (!report.englishBundle.upToDate) out.push(`! ${report.englishBundle.path} is not up to date (run without --dry-run to rewrite it)`);
  for (const p of report.problems) out.push(`! ${p.file}:${p.line}: ${p.reason}: ${p.text}`);
  if (verbose) for (const i of report.indirect) out.push(`  (indirect) ${i.file}:${i.line}: l10n.t(${i.text})`);
  /** @param {FileCheck} f */
  const section = (f) => {
    if (f.error) out.push(`! ${f.path}: ${f.error}`);
    if (f.missing.length && !f.error) {
      out.push(`! ${f.path}: ${f.missing.length} missing:`);
      for (const k of f.missing) out.push(`    ${q(k)}${report.sources[k] ? `   ← ${report.sources[k][0]}` : ''}`);
    }
    if (f.stale.length) {
      out.push(`! ${f.path}: ${f.stale.length} stale (no longer used):`);
      for (const k of f.stale) out.push(`    ${q(k)}`);
    }
    if (f.invalid.length) {
      out.push(`! ${f.path}: ${f.invalid.length} empty or non-string:`);
      for (const k of f.invalid) out.push(`    ${q(k)}`);
    }
    for (const m of f.mismatched) out.push(`! ${f.path}: ${q(m.key)}: ${m.problems.join('; ')}`);
  };
  report.bundles.forEach(section);
  if (report.manifest.error) out.push(`! ${report.manifest.error}`);
  for (const k of report.manifest.undefinedKeys) out.push(`! package.json uses %${k}% but package.nls.json does not define it`);
  for (const k of report.manifest.unusedKeys) out.push(`! package.nls.json defines ${q(k)} but package.json does not use it`);
  for (const k of report.manifest.invalid) out.push(`! package.nls.json: ${q(k)} is empty or not a string`);
  report.nls.forEach(section);
  if (!hasProblems(report)) out.push(`ok: ${locales.join(', ')} complete`);
  return out;
}
