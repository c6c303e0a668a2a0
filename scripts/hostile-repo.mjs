// The repository of the `hostile` in-host scenario (issue #14 parts 3 and 4): commits whose notes
// carry the hostile-string corpus (test/fixtures/hostile/strings.json) in every field, a
// 3,000-deep nesting, a 30 MB note, eleven more 30 MB notes, twenty notes just under the read limit,
// and a text note of another tool. The suite (test/suite/hostile) checks every surface on them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

const MB = 1024 * 1024;

/** @param {string} dir */
function gitIn(dir) {
  return /** @param {...string} args */ (...args) =>
    execFileSync('git', ['-c', 'user.name=Ann Dev', '-c', 'user.email=ann@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * MB,
    });
}

export function hostileStrings() {
  const doc = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/hostile/strings.json'), 'utf8'));
  const all = Object.values(doc.strings).join(' ');
  return { ...doc.strings, allInOne: all };
}

/** A v1 note with `s` in every string field; `file` is the committed file its ranges point at. */
/**
 * @param {string} s
 * @param {string} file
 */
export function hostileNoteJson(s, file) {
  return {
    v: 1,
    agent: s,
    session_id: s,
    timestamp: s,
    model: s,
    interactions: [
      {
        prompt: s,
        response: s,
        contexts: [{ kind: 'reference', source: 'previous_response', text: s }],
        files_touched: [file, s],
        selection: { schema: 1, source: s, signals: [s] },
        tools: [s],
      },
      { prompt: `second ${s}`, response: null },
    ],
    files: [
      { path: file, by_ai: true, ai_ranges: [{ start: 1, end: 3, interaction: 0 }] },
      { path: s, by_ai: false },
    ],
    attribution: { ai_ratio: 67, method: 'line', lines: { ai_added: 2, total_added: 3, deleted: 0 } },
  };
}

/** @param {string} dir */
export function makeHostileRepository(dir) {
  mkdirSync(dir, { recursive: true });
  const git = gitIn(dir);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# hostile notes\n');
  git('add', '.');
  git('commit', '-q', '-m', 'initial');
  const tmp = join(dir, '.git', 'hostile-note.json');
  /**
   * @param {string} file
   * @param {string} subject
   * @param {string} noteText
   */
  const commitWithNote = (file, subject, noteText) => {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), 'line one\nline two\nline three\n');
    git('add', '.');
    writeFileSync(tmp, subject);
    git('commit', '-q', '--cleanup=verbatim', '-F', tmp);
    writeFileSync(tmp, noteText);
    git('notes', '--ref=agentnote', 'add', '-F', tmp, 'HEAD');
  };
  /** @param {unknown} v */
  const pretty = (v) => `${JSON.stringify(v, null, 2)}\n`;

  // one commit per hostile string, plus all of them at once; the subject (from git) is hostile too
  for (const [name, s] of Object.entries(hostileStrings())) {
    const file = `cases/${name}.txt`;
    const subject = `case ${name}: $(alert) <img src=https://evil.example/s.png> [x](command:agentNote.copyPrompt) **b** ${s
      .split(/\r\n|[\n\r\u2028\u2029\u0085]/)[0]
      .replace(/\0/g, '')
      .slice(0, 80)}`;
    commitWithNote(file, subject, pretty(hostileNoteJson(s, file)));
  }
  commitWithNote('cases/benign.txt', 'case benign: plain words', pretty(hostileNoteJson('word', 'cases/benign.txt')));

  // a note nested 3,000 deep (a ~10 KB note made the readers throw a RangeError)
  const deep = '['.repeat(3000) + ']'.repeat(3000);
  commitWithNote(
    'deep.txt',
    'deep: 3,000-deep nesting',
    pretty(hostileNoteJson('deep', 'deep.txt')).replace('"prompt": "deep",', `"prompt": "deep", "x": ${deep},`),
  );

  // a 30 MB note, then eleven more (never loaded), then twenty just under the read limit (parsed)
  /**
   * @param {number} bytes
   * @param {string} file
   */
  const big = (bytes, file) => {
    const n = hostileNoteJson('big', file);
    n.interactions[0].response = `${'lorem ipsum dolor sit amet, '.repeat(Math.ceil(bytes / 28)).slice(0, bytes)} end`;
    return pretty(n);
  };
  commitWithNote('huge.txt', 'huge: a 30 MB note', big(30 * MB, 'huge.txt'));
  // the eleven share the huge note's blob (each is a separate note of a separate commit; hashing
  // 330 MB for the fixture would only make the setup slow)
  const hugeBlob = git('notes', '--ref=agentnote', 'list', 'HEAD').trim();
  for (let i = 0; i < 11; i++) {
    const file = `large/${i}.txt`;
    mkdirSync(join(dir, 'large'), { recursive: true });
    writeFileSync(join(dir, file), 'line one\nline two\nline three\n');
    git('add', '.');
    git('commit', '-q', '-m', `large ${i}: a 30 MB note`);
    git('notes', '--ref=agentnote', 'add', '-C', hugeBlob, 'HEAD');
  }
  for (let i = 0; i < 20; i++)
    commitWithNote(`near/${i}.txt`, `near ${i}: a note just under the limit`, big(1000 * 1024 - 1000 - i, `near/${i}.txt`));

  // a note of another tool
  commitWithNote('other.txt', 'other: a text note', 'Reviewed-by: Ann <ann@example.com>\n');
  rmSync(tmp, { force: true });
  git('gc', '-q', '--prune=now');
  return dir;
}
