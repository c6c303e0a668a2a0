import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Every section reference (`docs/note-format.md §3.2`) in the tracked text files of src/, test/,
 * scripts/, docs/ and README.md must name a document of this repository and a numbered section
 * heading (`### 3.2 …`) that exists in it, and no file may point at material outside the
 * repository. The sign is written as an escape here so this file holds no reference itself.
 *
 * Which document a reference names: in code, the nearest document name before it in the file
 * (`docs/transcripts.md §1.2, §2.1` — the second one names the same document); in a Markdown
 * document, the nearest document name before it on the same line, else the document itself.
 */

const root = path.resolve(__dirname, '../../..');
const sign = '\u00a7';
const scanned = ['src', 'test', 'scripts', 'docs', 'README.md'];

export interface TextFile {
  /** Repository-relative, forward slashes. */
  path: string;
  text: string;
}

const docNameRe = /[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b/g;
const refRe = new RegExp(`${sign}\\s*(\\d+(?:\\.\\d+)*)?(?:\\s*[–-]\\s*(\\d+(?:\\.\\d+)*))?`, 'g');
const headingRe = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?(?:\s|$)/gm;
const outsideRe = new RegExp(['/work', 'shared'].join('/'), 'g');

/** Numbered section ids of a Markdown document: `## 3. Attribution` → 3, `### 3.2 …` → 3.2. */
export function sectionIds(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(headingRe)].map((m) => m[1]));
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Repository path of a document name as written in `from`, or undefined when it is not a project file. */
function resolveDoc(name: string, from: string, exists: (p: string) => boolean): string | undefined {
  const clean = name.replace(/^\.\//, '');
  const candidates = clean.includes('/')
    ? [clean, path.posix.join(path.posix.dirname(from), clean)]
    : [path.posix.join(path.posix.dirname(from), clean), `docs/${clean}`, clean];
  return candidates.map((c) => path.posix.normalize(c)).find(exists);
}

/** The problems of every file, as `path:line: message`. */
export function checkDocReferences(files: readonly TextFile[], readDoc: (repoPath: string) => string | undefined): string[] {
  const problems: string[] = [];
  const sections = new Map<string, Set<string> | undefined>();
  const sectionsOf = (p: string) => {
    if (!sections.has(p)) {
      const text = readDoc(p);
      sections.set(p, text === undefined ? undefined : sectionIds(text));
    }
    return sections.get(p);
  };
  const exists = (p: string) => sectionsOf(p) !== undefined;
  for (const file of files) {
    const { text } = file;
    const markdown = file.path.endsWith('.md');
    const names = [...text.matchAll(docNameRe)].map((m) => ({ name: m[0], index: m.index }));
    for (const m of text.matchAll(outsideRe))
      problems.push(`${file.path}:${lineOf(text, m.index)}: points outside the repository (${m[0]})`);
    for (const m of text.matchAll(refRe)) {
      const where = `${file.path}:${lineOf(text, m.index)}`;
      if (m[1] === undefined) {
        problems.push(`${where}: "${sign}" without a section number`);
        continue;
      }
      const lineStart = text.lastIndexOf('\n', m.index) + 1;
      const before = names.filter((n) => n.index + n.name.length <= m.index && (!markdown || n.index >= lineStart)).pop();
      let doc: string | undefined;
      if (before) {
        doc = resolveDoc(before.name, file.path, exists);
        if (!doc) {
          problems.push(`${where}: ${sign}${m[1]} names ${before.name}, which is not a document of this repository`);
          continue;
        }
      } else if (markdown) doc = file.path;
      else {
        problems.push(`${where}: ${sign}${m[1]} names no document (write e.g. docs/note-format.md ${sign}${m[1]})`);
        continue;
      }
      const ids = sectionsOf(doc) ?? new Set<string>();
      for (const id of [m[1], m[2]].filter((x): x is string => x !== undefined)) {
        if (!ids.has(id)) problems.push(`${where}: ${doc} has no section ${id}`);
      }
    }
  }
  return problems;
}

function trackedTextFiles(): { files: TextFile[]; tracked: Set<string> } {
  const out = execFileSync('git', ['ls-files', '-z', '--', ...scanned], { cwd: root, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  const all = out
    .toString('utf8')
    .split('\0')
    .filter((p) => p.length > 0);
  const files: TextFile[] = [];
  for (const p of all) {
    const bytes = readFileSync(path.join(root, p));
    if (bytes.includes(0)) continue; // binary (media/*.png and the like)
    files.push({ path: p, text: bytes.toString('utf8') });
  }
  return { files, tracked: new Set(all) };
}

describe('documentation references', function () {
  this.timeout(60_000);

  const docs: Record<string, string> = {
    'docs/note-format.md': '# Note\n\n## 1. Note\n\n### 1.1 Where\n\n### 1.2 Keys\n\n## 3. Attribution\n\n### 3.2 The 3-diff\n',
    'docs/other.md': '# Other\n\n## 2. Two\n\nSee ' + sign + '2 and docs/note-format.md ' + sign + '1.1.\n',
  };
  const readDoc = (p: string) => docs[p];

  it('accepts references to existing sections, ranges and chained references', () => {
    const files: TextFile[] = [
      { path: 'src/a.ts', text: `// docs/note-format.md ${sign}1.1, ${sign}3.2 step 7\n// ${sign}1.1–1.2\n` },
      { path: 'docs/other.md', text: docs['docs/other.md'] },
    ];
    assert.deepEqual(checkDocReferences(files, readDoc), []);
  });

  it('rejects a document that is not in the repository, a missing section and a bare sign', () => {
    const files: TextFile[] = [
      { path: 'src/a.ts', text: `// (agentnote-format.md ${sign}3.2)\n` },
      { path: 'src/b.ts', text: `/**\n * docs/note-format.md ${sign}3.3 and ${sign}1.1–1.4\n */\n` },
      { path: 'src/c.ts', text: `// see ${sign}1.1\n// ${sign} alone\n` },
      { path: 'src/d.ts', text: `// docs/missing.md ${sign}1 and ${['/work', 'shared', 'docs'].join('/')}/x.md\n` },
      { path: 'docs/other.md', text: `## 2. Two\n\n${sign}5 here\n` },
    ];
    assert.deepEqual(checkDocReferences(files, readDoc), [
      `src/a.ts:1: ${sign}3.2 names agentnote-format.md, which is not a document of this repository`,
      'src/b.ts:2: docs/note-format.md has no section 3.3',
      'src/b.ts:2: docs/note-format.md has no section 1.4',
      `src/c.ts:1: ${sign}1.1 names no document (write e.g. docs/note-format.md ${sign}1.1)`,
      `src/c.ts:2: "${sign}" without a section number`,
      `src/d.ts:1: points outside the repository (${['/work', 'shared'].join('/')})`,
      `src/d.ts:1: ${sign}1 names docs/missing.md, which is not a document of this repository`,
      'docs/other.md:3: docs/other.md has no section 5',
    ]);
  });

  it('every reference in the repository names an existing document and section', () => {
    const { files, tracked } = trackedTextFiles();
    assert.ok(files.length > 100, `only ${files.length} tracked text files found`);
    const read = (p: string) => (tracked.has(p) ? readFileSync(path.join(root, p), 'utf8') : undefined);
    const refs = files.reduce((n, f) => n + (f.text.match(refRe)?.length ?? 0), 0);
    assert.ok(refs > 50, `only ${refs} references found: is the scan looking at the right files?`);
    const problems = checkDocReferences(files, read);
    assert.deepEqual(problems, [], problems.join('\n'));
  });
});
