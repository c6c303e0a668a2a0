import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  isAbbreviatedObjectId,
  isNullObjectId,
  isObjectId,
  objectFormatOf,
  objectIdPattern,
  objectIdSource,
} from '../../../src/core/git/objectId';
import { isUncommitted, parseBlamePorcelain } from '../../../src/core/blame/blamePorcelain';
import { IncrementalBlameParser } from '../../../src/core/blame/blameIncremental';

const root = path.resolve(__dirname, '../../../..');
const sha1 = 'a'.repeat(40);
const sha256 = 'b'.repeat(64);

/** The one file allowed to spell an object id's shape. */
const home = 'src/core/git/objectId.ts';
/** Files whose hex patterns are not object ids, each with its reason. */
const notObjectIds: Record<string, string> = {
  'src/node/transcripts/offsetStore.ts': 'a SHA-256 digest of transcript bytes',
  'src/node/transcripts/transcriptDiscovery.ts': "Gemini's project folder name: the SHA-256 of the project path",
};
/** Files with an unbounded hex pattern (`[0-9a-f]+`) that is not an object id, each with its reason. */
const unboundedHexAllowed: Record<string, string> = {
  'src/node/hooks/gitHooks.ts': "the hook's shell pre-filter of rewrite pairs; each id is checked with isObjectId when the queue is read",
  'src/node/journal/sessionJournal.ts': 'the random hex suffix of a temp file name',
};

/**
 * Object-id-shaped regexes in a source text: a hex character class with a quantifier that can
 * match 4–7 (abbreviated ids), 24 (the SHA-256 tail), 40 or 64 digits. UUIDs ({8}, {4}, {12}) and
 * the redaction patterns of secret formats are not object ids.
 */
export function objectIdRegexes(text: string, allowDigest: boolean): string[] {
  const found: string[] = [];
  const hexClass = /\[(?:0-9a-f|a-f0-9|0-9a-fA-F|0-9A-Fa-f|a-fA-F0-9|A-Fa-f0-9)\]\{(\d+)(?:,(\d*))?\}/g;
  for (const m of text.matchAll(hexClass)) {
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[2] === '' ? Infinity : Number(m[2]);
    const hits = (n: number): boolean => min <= n && n <= max;
    const abbreviated = min >= 4 && min <= 7 && max >= 7;
    if (abbreviated || hits(24) || hits(40) || (hits(64) && !allowDigest)) found.push(m[0]);
  }
  return found;
}

/** Unbounded hex patterns (`[0-9a-f]+`, `[0-9a-f]*`): an object id parsed without its length check. */
export function unboundedHexRegexes(text: string): string[] {
  return [...text.matchAll(/\[(?:0-9a-f|a-f0-9|0-9a-fA-F|0-9A-Fa-f|a-fA-F0-9|A-Fa-f0-9)\][+*]/g)].map((m) => m[0]);
}

describe('object ids: one home (issue #17 part 3)', () => {
  it('no object-id regex outside src/core/git/objectId.ts', () => {
    const files = execFileSync('git', ['ls-files', '-z', '--', 'src'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f) && f !== home && !f.startsWith('src/core/redaction/'));
    assert.ok(files.length > 100, `scanned ${files.length} files`);
    const offenders = files.flatMap((f) =>
      objectIdRegexes(readFileSync(path.join(root, f), 'utf8'), f in notObjectIds).map((r) => `${f}: ${r}`),
    );
    assert.deepEqual(offenders, [], 'use src/core/git/objectId.ts instead');
    const unbounded = files
      .filter((f) => !(f in unboundedHexAllowed))
      .flatMap((f) => unboundedHexRegexes(readFileSync(path.join(root, f), 'utf8')).map((r) => `${f}: ${r}`));
    assert.deepEqual(unbounded, [], 'an id read from git is checked with isObjectId, not [0-9a-f]+');
    assert.deepEqual(unboundedHexRegexes('/^([0-9a-f]+) (\\S+)$/'), ['[0-9a-f]+'], 'the scanner finds the shape');
  });

  it('the scanner catches the copies it is meant to catch, and leaves UUIDs alone', () => {
    assert.deepEqual(objectIdRegexes('/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/', false), ['[0-9a-f]{40}', '[0-9a-f]{64}']);
    assert.deepEqual(objectIdRegexes('/^[0-9a-f]{40,64}$/', true), ['[0-9a-f]{40,64}']);
    assert.deepEqual(objectIdRegexes('/^[0-9a-fA-F]{4,64}$/', true), ['[0-9a-fA-F]{4,64}']);
    assert.deepEqual(objectIdRegexes('/([0-9a-f]{40}(?:[0-9a-f]{24})?)/', true), ['[0-9a-f]{40}', '[0-9a-f]{24}']);
    assert.deepEqual(objectIdRegexes('/^[a-f0-9]{7,}$/', false), ['[a-f0-9]{7,}']);
    assert.deepEqual(objectIdRegexes('/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/', false), []);
    assert.deepEqual(objectIdRegexes('/^sha256:([0-9a-f]{64})$/', true), []);
  });

  it('full ids: SHA-1 and SHA-256 only, lower case', () => {
    assert.ok(isObjectId(sha1) && isObjectId(sha256));
    for (const bad of ['a'.repeat(39), 'a'.repeat(41), 'a'.repeat(63), 'a'.repeat(65), 'A'.repeat(40), `${'a'.repeat(39)}g`, '', 42, null])
      assert.equal(isObjectId(bad), false, String(bad));
    assert.ok(objectIdPattern.test(sha256));
    assert.ok(new RegExp(`^(${objectIdSource}) x$`).test(`${sha256} x`));
    assert.equal(new RegExp(`^(${objectIdSource})$`).test('c'.repeat(50)), false);
    assert.equal(objectFormatOf(sha1), 'sha1');
    assert.equal(objectFormatOf(sha256), 'sha256');
    assert.equal(objectFormatOf('abc'), undefined);
  });

  it('abbreviated ids: 4–64 hex digits, either case', () => {
    assert.ok(isAbbreviatedObjectId('abcd') && isAbbreviatedObjectId('ABCDEF1') && isAbbreviatedObjectId(sha256));
    for (const bad of ['abc', 'a'.repeat(65), 'xyz1', 'abcd ', '', undefined]) assert.equal(isAbbreviatedObjectId(bad), false, String(bad));
  });

  it('the null id in both hashes; blame marks uncommitted lines with it', () => {
    assert.ok(isNullObjectId('0'.repeat(40)) && isNullObjectId('0'.repeat(64)));
    assert.equal(isNullObjectId('0'.repeat(50)), false);
    assert.equal(isNullObjectId(`${'0'.repeat(39)}1`), false);
    assert.ok(isUncommitted('0'.repeat(64)));
  });

  it('blame of a SHA-256 repository parses (porcelain and incremental)', () => {
    const porcelain = `${sha256} 1 1 1\nauthor Ann\nauthor-time 1700000000\nsummary s\nfilename a.txt\n\tx\n${'0'.repeat(64)} 2 2 1\nauthor Not Committed Yet\nfilename a.txt\n\ty\n`;
    const r = parseBlamePorcelain(porcelain);
    assert.deepEqual(
      r.lines.map((l) => [l.sha, l.line]),
      [
        [sha256, 1],
        ['0'.repeat(64), 2],
      ],
    );
    assert.ok(isUncommitted(r.lines[1].sha));
    const seen: string[] = [];
    const p = new IncrementalBlameParser((e) => seen.push(`${e.sha.length}:${e.line}+${e.count}`));
    p.push(`${sha256} 1 1 2\nauthor Ann\nsummary s\nfilename a.txt\n${'c'.repeat(50)} 3 3 1\nfilename a.txt\n`);
    assert.deepEqual(seen, ['64:1+2']);
  });
});
