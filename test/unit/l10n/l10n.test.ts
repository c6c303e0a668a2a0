import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { noteMarkdownDefaultStrings } from '../../../src/core/report/noteMarkdown';
import { noteDefaultStrings } from '../../../src/webviews/note/protocol';
import { timelineDefaultStrings } from '../../../src/webviews/timeline/protocol';

// The extractor is plain ESM (scripts/l10n-lib.mjs, shared with scripts/l10n-extract.mjs); these are
// the parts of its API the tests use.
interface Where {
  file: string;
  line: number;
}
interface FileCheck {
  locale: string;
  path: string;
  error?: string;
  missing: string[];
  stale: string[];
  invalid: string[];
  mismatched: { key: string; problems: string[] }[];
}
interface Collected {
  bundle: Record<string, string | { message: string; comment: string[] }>;
  sources: Record<string, string[]>;
  problems: (Where & { text: string; reason: string })[];
  indirect: (Where & { text: string })[];
  defaultObjects: { name: string; file: string; keys: string[] }[];
}
interface Report extends Collected {
  english: Collected['bundle'];
  englishBundle: { path: string; upToDate: boolean };
  bundles: FileCheck[];
  manifest: { error?: string; undefinedKeys: string[]; unusedKeys: string[]; invalid: string[] };
  nls: FileCheck[];
}
interface L10nLib {
  locales: string[];
  englishBundlePath: string;
  bundlePath(locale: string): string;
  nlsPath(locale: string): string;
  scanSource(
    text: string,
    fileName?: string,
  ): {
    messages: (Where & { key: string; message: string; comment?: string[] })[];
    problems: (Where & { text: string; reason: string })[];
    indirect: (Where & { text: string })[];
    defaultObjects: (Where & { name: string; entries: { prop: string; value: string; line: number }[] })[];
  };
  collectMessages(root: string): Collected;
  renderBundle(bundle: Collected['bundle']): string;
  placeholders(text: string): string[];
  compareProtected(english: string, translation: string): string[];
  compareTranslations(english: Record<string, unknown>, translated: Record<string, unknown>): Omit<FileCheck, 'locale' | 'path' | 'error'>;
  manifestKeys(manifest: unknown): string[];
  checkProject(root: string, collected?: Collected): Report;
  hasProblems(report: Report): boolean;
  formatReport(report: Report, opts?: { verbose?: boolean }): string[];
}

// out/test/unit/l10n → repository root.
const repoRoot = path.resolve(__dirname, '../../../..');
const extractScript = path.join(repoRoot, 'scripts/l10n-extract.mjs');

async function loadLib(): Promise<L10nLib> {
  return (await import(pathToFileURL(path.join(repoRoot, 'scripts/l10n-lib.mjs')).href)) as L10nLib;
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, unknown>;
}

/** Assertion message listing keys, so a failing run says exactly what to add or remove. */
function listed(what: string, keys: string[]): string {
  return `${what}:\n${keys.map((k) => `  ${JSON.stringify(k)}`).join('\n')}\n(run: node scripts/l10n-extract.mjs --check)`;
}

describe('l10n: extractor', () => {
  let lib: L10nLib;
  before(async () => {
    lib = await loadLib();
  });

  it('extracts the literal messages of vscode.l10n.t and l10n.t, cooked like tsc', () => {
    const src = [
      "import * as vscode from 'vscode';",
      "import { l10n } from 'vscode';",
      "vscode.l10n.t('Single {0}', x);",
      'vscode.l10n.t("Double \\"quoted\\"");',
      'vscode.l10n.t(`Template no subs`);',
      "vscode.l10n.t('It\\'s …\\u00e9');",
      "l10n.t('Named import');",
      "vscode.l10n.t({ message: 'With comment {0}', args: [1], comment: ['First', ' second'] });",
      "vscode.l10n.t({ message: 'Options without comment' });",
      "i18n.t('Not ours'); other.l10n.x('Nor this');",
    ].join('\n');
    const r = lib.scanSource(src, 'src/host/a.ts');
    assert.deepEqual(
      r.messages.map((m) => [m.key, m.line]),
      [
        ['Single {0}', 3],
        ['Double "quoted"', 4],
        ['Template no subs', 5],
        ["It's …é", 6],
        ['Named import', 7],
        ['With comment {0}/First second', 8],
        ['Options without comment', 9],
      ],
    );
    assert.deepEqual(r.messages[5].comment, ['First', ' second']);
    assert.equal(r.messages[5].message, 'With comment {0}');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.indirect, []);
  });

  it('ignores calls in comments and strings, and reports messages that cannot be extracted', () => {
    const src = [
      "// vscode.l10n.t('In a line comment')",
      "/* vscode.l10n.t('In a block comment') */",
      "const s = \"vscode.l10n.t('In a string')\";",
      'vscode.l10n.t(`Hello ${name}`);',
      "vscode.l10n.t('a' + b);",
      'vscode.l10n.t(labels.title);',
      'vscode.l10n.t(v);',
    ].join('\n');
    const r = lib.scanSource(src, 'src/host/b.ts');
    assert.deepEqual(r.messages, []);
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.text, p.reason]),
      [
        [4, 'vscode.l10n.t(`Hello ${name}`)', 'the message is not a string literal'],
        [5, "vscode.l10n.t('a' + b)", 'the message is not a string literal'],
      ],
    );
    assert.deepEqual(
      r.indirect.map((i) => [i.line, i.text]),
      [
        [6, 'labels.title'],
        [7, 'v'],
      ],
    );
  });

  it('reads exported …DefaultStrings object literals (as const / satisfies) and nothing else', () => {
    const src = [
      'export const fooDefaultStrings = {',
      "  title: 'Foo',",
      "  'quoted-key': \"Bar {0}\",",
      '} as const;',
      "export const barDefaultStrings = ({ a: 'A' }) satisfies Record<string, string>;",
      "const localDefaultStrings = { x: 'Not exported' };",
      "export const otherStrings = { y: 'Wrong name' };",
      "export const badDefaultStrings = { n: 1, ok: 'Ok' };",
    ].join('\n');
    const r = lib.scanSource(src, 'src/core/c.ts');
    assert.deepEqual(
      r.defaultObjects.map((o) => [o.name, o.entries.map((e) => [e.prop, e.value, e.line])]),
      [
        [
          'fooDefaultStrings',
          [
            ['title', 'Foo', 2],
            ["'quoted-key'", 'Bar {0}', 3],
          ],
        ],
        ['barDefaultStrings', [['a', 'A', 5]]],
        ['badDefaultStrings', [['ok', 'Ok', 8]]],
      ],
    );
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.text, p.reason]),
      [[8, 'badDefaultStrings.n', 'a …DefaultStrings value must be a string literal']],
    );
  });

  it('finds every value of the three default-strings objects of the extension', () => {
    const c = lib.collectMessages(repoRoot);
    const objects = Object.fromEntries(c.defaultObjects.map((o) => [o.name, o]));
    const expected: Record<string, [string, Record<string, string>]> = {
      timelineDefaultStrings: ['src/webviews/timeline/protocol.ts', timelineDefaultStrings],
      noteDefaultStrings: ['src/webviews/note/protocol.ts', noteDefaultStrings],
      noteMarkdownDefaultStrings: ['src/core/report/noteMarkdown.ts', noteMarkdownDefaultStrings],
    };
    for (const [name, [file, runtime]] of Object.entries(expected)) {
      assert.ok(objects[name], `${name} not found`);
      assert.equal(objects[name].file, file);
      // The source text parse agrees with the values the code actually uses.
      assert.deepEqual(objects[name].keys, Object.keys(runtime));
      for (const v of Object.values(runtime)) assert.equal(c.bundle[v], v, `${name}: ${v}`);
    }
  });

  it('placeholders and protected parts', () => {
    assert.deepEqual(lib.placeholders('{1} of {0}, {0} again, {name}'), ['{0}', '{0}', '{1}', '{name}']);
    assert.deepEqual(lib.compareProtected('{0} of {1}', '{1} de {0}'), []);
    assert.deepEqual(lib.compareProtected('{0} of {1}', '{0} de {0}'), ['placeholders ["{0}","{1}"] became ["{0}","{0}"]']);
    assert.deepEqual(lib.compareProtected('$(sparkle) Go', '$(sparkles) Ir'), ['codicons ["$(sparkle)"] became ["$(sparkles)"]']);
    assert.deepEqual(lib.compareProtected('See `#agentNote.codeLens.enabled#`.', 'Ver `#agentNote.codelens.enabled#`.')[0], 'settings ["#agentNote.codeLens.enabled#"] became ["#agentNote.codelens.enabled#"]');
    assert.deepEqual(lib.compareProtected('Read `~/.claude`.', 'Leer `~/.claude`.'), []);
    assert.deepEqual(lib.compareProtected('Read `~/.claude`.', 'Leer ~/.claude.'), ['code ["`~/.claude`"] became []']);
    assert.deepEqual(lib.compareProtected('Agent Note for Claude Code', 'Nota de agente para Claude Code'), ['names ["Agent Note","Claude Code"] became ["Claude Code"]']);
    // A code span showing rendered UI may be localized, but must stay a code span.
    assert.deepEqual(lib.compareProtected('e.g. `73% AI · 3 prompts`', 'p. ej. `73% IA · 3 indicaciones`'), []);
    assert.deepEqual(lib.compareProtected('e.g. `73% AI · 3 prompts`', 'p. ej. 73% IA · 3 indicaciones'), ['UI sample code spans: 1 became 0']);
  });

  it('compares a translation map with English: missing, stale, empty, broken', () => {
    const r = lib.compareTranslations({ a: 'A {0}', b: 'B', c: 'C', d: 'D' }, { a: 'X {1}', b: '', c: 7, old: 'Old' });
    assert.deepEqual(r, {
      missing: ['d'],
      stale: ['old'],
      invalid: ['b', 'c'],
      mismatched: [{ key: 'a', problems: ['placeholders ["{0}"] became ["{1}"]'] }],
    });
  });

  it('lists the %key% references of a manifest (whole values only)', () => {
    const manifest = { description: '%a%', contributes: { commands: [{ title: '%b.c%' }, { title: 'Literal %d% text' }], x: ['%e%', 3, null] } };
    assert.deepEqual(lib.manifestKeys(manifest), ['a', 'b.c', 'e']);
  });
});

describe('l10n: extract script on a scratch project', () => {
  let dir: string;
  let lib: L10nLib;
  before(async () => {
    lib = await loadLib();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentnote-l10n-'));
    const w = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    w('src/host/a.ts', "import * as vscode from 'vscode';\nvscode.l10n.t('Zeta {0}', 1);\nvscode.l10n.t('Alpha');\n");
    w('src/webviews/x/protocol.ts', "export const xDefaultStrings = { title: 'Mid', again: 'Alpha' } as const;\n");
    w('package.json', JSON.stringify({ contributes: { commands: [{ title: '%cmd%' }] } }));
    w('package.nls.json', JSON.stringify({ cmd: 'Do it {0}' }));
    for (const loc of lib.locales) {
      w(`l10n/bundle.l10n.${loc}.json`, JSON.stringify({ Alpha: `alpha-${loc}`, Mid: `mid-${loc}`, 'Zeta {0}': `zeta {0} ${loc}` }));
      w(`package.nls.${loc}.json`, JSON.stringify({ cmd: `do {0} ${loc}` }));
    }
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function run(...args: string[]): { status: number | null; stdout: string } {
    const r = spawnSync(process.execPath, [extractScript, '--root', dir, ...args], { encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout };
  }

  it('writes the sorted English bundle and passes --check when everything is translated', () => {
    const r = run('--check');
    assert.equal(r.status, 0, r.stdout);
    assert.equal(fs.readFileSync(path.join(dir, 'l10n/bundle.l10n.json'), 'utf8'), '{\n  "Alpha": "Alpha",\n  "Mid": "Mid",\n  "Zeta {0}": "Zeta {0}"\n}\n');
    assert.deepEqual(r.stdout.trim().split('\n'), ['wrote l10n/bundle.l10n.json', '3 runtime messages (including xDefaultStrings: 2)', 'ok: es, pt-br, it, zh-tw complete']);
  });

  it('fails --check on missing, stale and broken translations and on manifest drift, naming each', () => {
    fs.writeFileSync(path.join(dir, 'l10n/bundle.l10n.it.json'), JSON.stringify({ Alpha: 'alfa', Mid: 'medio', 'Zeta {0}': 'zeta', Gone: 'via' }));
    fs.rmSync(path.join(dir, 'l10n/bundle.l10n.zh-tw.json'));
    fs.writeFileSync(path.join(dir, 'package.nls.es.json'), JSON.stringify({}));
    fs.writeFileSync(path.join(dir, 'package.nls.json'), JSON.stringify({ cmd: 'Do it {0}', unused: 'x' }));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ contributes: { commands: [{ title: '%cmd%' }, { title: '%nope%' }] } }));
    const r = run('--check');
    assert.equal(r.status, 1);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(lines.slice(1), [
      '3 runtime messages (including xDefaultStrings: 2)',
      '! l10n/bundle.l10n.it.json: 1 stale (no longer used):',
      '    "Gone"',
      '! l10n/bundle.l10n.it.json: "Zeta {0}": placeholders ["{0}"] became []',
      '! l10n/bundle.l10n.zh-tw.json: file not found',
      '! package.json uses %nope% but package.nls.json does not define it',
      '! package.nls.json defines "unused" but package.json does not use it',
      '! package.nls.es.json: 2 missing:',
      '    "cmd"',
      '    "unused"',
      '! package.nls.pt-br.json: 1 missing:',
      '    "unused"',
      '! package.nls.it.json: 1 missing:',
      '    "unused"',
      '! package.nls.zh-tw.json: 1 missing:',
      '    "unused"',
    ]);
    // Without --check the same report exits 0.
    assert.equal(run().status, 0);
  });

  it('names new source strings missing from the bundles, with where they are used', () => {
    fs.appendFileSync(path.join(dir, 'src/host/a.ts'), "vscode.l10n.t('Brand new');\nvscode.l10n.t(`Bad ${x}`);\n");
    const r = run('--check');
    assert.equal(r.status, 1);
    assert.ok(r.stdout.includes('! src/host/a.ts:5: the message is not a string literal: vscode.l10n.t(`Bad ${x}`)'), r.stdout);
    for (const loc of lib.locales) assert.ok(r.stdout.includes(`! l10n/bundle.l10n.${loc}.json: 1 missing:\n    "Brand new"   ← src/host/a.ts:4`), r.stdout);
    const missing = execFileSync(process.execPath, [extractScript, '--root', dir, '--missing', 'pt-br'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    assert.deepEqual(JSON.parse(missing), { 'Brand new': 'Brand new' });
  });

  it('--dry-run writes nothing and reports the outdated English bundle', () => {
    const r = run('--dry-run', '--check');
    assert.equal(r.status, 1);
    assert.equal(fs.existsSync(path.join(dir, 'l10n/bundle.l10n.json')), false);
    assert.ok(r.stdout.includes('! l10n/bundle.l10n.json is not up to date'), r.stdout);
  });
});

describe('l10n: the extension is fully translated', () => {
  let lib: L10nLib;
  let report: Report;
  before(async () => {
    lib = await loadLib();
    report = lib.checkProject(repoRoot);
  });

  it('every l10n.t message can be extracted (string literal)', () => {
    assert.deepEqual(report.problems, []);
  });

  it('l10n/bundle.l10n.json is up to date with the sources', () => {
    const onDisk = fs.readFileSync(path.join(repoRoot, lib.englishBundlePath), 'utf8');
    assert.equal(onDisk, lib.renderBundle(report.english), 'run: node scripts/l10n-extract.mjs');
    // Plain messages map to themselves (the English text is the key).
    for (const [k, v] of Object.entries(report.english)) if (typeof v === 'string') assert.equal(v, k);
  });

  for (const locale of ['es', 'pt-br', 'it', 'zh-tw']) {
    describe(locale, () => {
      const bundle = () => report.bundles.find((b) => b.locale === locale)!;
      const nls = () => report.nls.find((b) => b.locale === locale)!;

      it('has a runtime bundle with every key and no stale keys', () => {
        const b = bundle();
        assert.equal(b.error, undefined);
        assert.deepEqual(b.missing, [], listed(`missing from ${b.path}`, b.missing));
        assert.deepEqual(b.stale, [], listed(`stale in ${b.path}`, b.stale));
        assert.deepEqual(b.invalid, [], listed(`empty in ${b.path}`, b.invalid));
      });

      it('keeps the {n} placeholders of every runtime message', () => {
        const translated = readJson(lib.bundlePath(locale));
        for (const key of Object.keys(report.english)) {
          const english = report.english[key];
          const text = typeof english === 'string' ? english : english.message;
          assert.deepEqual(lib.placeholders(String(translated[key])), lib.placeholders(text), `${locale}: ${JSON.stringify(key)} → ${JSON.stringify(translated[key])}`);
        }
      });

      it('keeps codicons, setting links, code spans and product names', () => {
        assert.deepEqual(bundle().mismatched, []);
        assert.deepEqual(nls().mismatched, []);
      });

      it('has package.nls.<locale>.json with exactly the keys and placeholders of package.nls.json', () => {
        const english = readJson('package.nls.json');
        const translated = readJson(lib.nlsPath(locale));
        assert.deepEqual(Object.keys(translated).sort(), Object.keys(english).sort());
        for (const k of Object.keys(english)) {
          assert.equal(typeof translated[k], 'string');
          assert.notEqual(String(translated[k]).trim(), '');
          assert.deepEqual(lib.placeholders(String(translated[k])), lib.placeholders(String(english[k])), `${locale}: ${k}`);
        }
      });
    });
  }

  it('every %key% of package.json is defined in package.nls.json, and every key there is used', () => {
    assert.equal(report.manifest.error, undefined);
    assert.deepEqual(report.manifest.undefinedKeys, []);
    assert.deepEqual(report.manifest.unusedKeys, []);
    const used = lib.manifestKeys(readJson('package.json'));
    assert.ok(used.includes('command.showTimeline') && used.includes('config.hovers.enabled'), used.join(','));
  });

  it('uses VS Code terminology for the recurring terms', () => {
    const b = (locale: string) => readJson(lib.bundlePath(locale));
    // zh-tw: the current VS Code git extension says 提交 for commit, 存放庫 for repository, 勾點 for hooks.
    assert.equal(b('zh-tw')['Commit'], '提交');
    assert.equal(readJson('package.nls.zh-tw.json')['command.installGitHooks'], '安裝 Git 勾點');
    assert.ok(String(b('zh-tw')['Agent Note: open a git repository to see its notes.']).includes('存放庫'));
    // es / pt-br / it keep "commit".
    for (const l of ['es', 'pt-br', 'it']) assert.equal(b(l)['Commit'], 'Commit');
    // The same English term is rendered the same way in every place of a language.
    assert.equal(b('es')['Open in Timeline'], 'Abrir en la escala de tiempo');
    assert.equal(b('pt-br')['Agent Timeline'], 'Linha do tempo do agente');
    assert.equal(b('it')['Click to open the session timeline.'], 'Fare clic per aprire la sequenza temporale della sessione.');
  });

  it('the CLI check passes on the repository', () => {
    const r = spawnSync(process.execPath, [extractScript, '--check', '--dry-run'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
