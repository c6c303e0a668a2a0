import * as assert from 'node:assert/strict';
import { LineSplitter, type SplitLine } from '../../../src/core/transcripts/lineSplitter';

function bytes(...parts: (string | number[])[]): Uint8Array {
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
}

function run(
  chunks: Uint8Array[],
  maxLineBytes?: number,
): { lines: SplitLine[]; committed: number; buffered: number; skipped: number; nul: number } {
  const s = new LineSplitter({ maxLineBytes });
  const lines = chunks.flatMap((c) => s.push(c));
  return { lines, committed: s.committedOffset, buffered: s.bufferedBytes, skipped: s.longLinesSkipped, nul: s.nulBytesRemoved };
}

/** Every split of `buf` into two chunks, and one byte at a time, must give `expected`. */
function assertChunkingInvariant(buf: Uint8Array, maxLineBytes?: number): ReturnType<typeof run> {
  const whole = run([buf], maxLineBytes);
  for (let k = 0; k <= buf.length; k++) {
    assert.deepEqual(run([buf.subarray(0, k), buf.subarray(k)], maxLineBytes), whole, `split at ${k}`);
  }
  for (let a = 1; a < buf.length; a += 3) {
    for (let b = a + 1; b < buf.length; b += 5) {
      assert.deepEqual(run([buf.subarray(0, a), buf.subarray(a, b), buf.subarray(b)], maxLineBytes), whole, `split at ${a},${b}`);
    }
  }
  const singles: Uint8Array[] = [];
  for (let i = 0; i < buf.length; i++) singles.push(buf.subarray(i, i + 1));
  assert.deepEqual(run(singles, maxLineBytes), whole, 'one byte at a time');
  return whole;
}

describe('LineSplitter', () => {
  it('returns complete lines with byte offsets and buffers the partial last line', () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push(bytes('ab\ncd')), [{ text: 'ab', offset: 0, end: 3 }]);
    assert.equal(s.committedOffset, 3);
    assert.equal(s.bufferedBytes, 2);
    assert.deepEqual(s.push(bytes('e\n\nf')), [
      { text: 'cde', offset: 3, end: 7 },
      { text: '', offset: 7, end: 8 },
    ]);
    assert.equal(s.committedOffset, 8);
    assert.equal(s.nextOffset, 9);
  });

  it('handles CRLF, multi-byte UTF-8, invalid UTF-8, NUL bytes and a BOM identically at every byte boundary', () => {
    const buf = bytes(
      [0xef, 0xbb, 0xbf],
      '{"a":"é"}\r\n',
      'CJK 漢字 and emoji 😀\r\n',
      'bad ',
      [0xff, 0xfe],
      ' cut ',
      [0xe6, 0xbc],
      '\n',
      [0, 0, 0],
      '{"b":1}',
      [0],
      '\n',
      [0, 0, 0, 0, 10],
      'lone\rcr\n',
      'partial ☃',
    );
    const r = assertChunkingInvariant(buf);
    assert.deepEqual(
      r.lines.map((l) => l.text),
      ['{"a":"é"}', 'CJK 漢字 and emoji 😀', 'bad \ufffd\ufffd cut \ufffd', '{"b":1}', '', 'lone\rcr'],
    );
    assert.equal(r.nul, 8);
    assert.equal(r.lines[0].offset, 0);
    assert.equal(r.lines[1].offset, 3 + Buffer.byteLength('{"a":"é"}\r\n'));
    assert.equal(r.committed, buf.length - Buffer.byteLength('partial ☃'));
    assert.equal(r.buffered, Buffer.byteLength('partial ☃'));
  });

  it('skips a line longer than the cap without keeping it, counts it and resumes after its newline', () => {
    const long = 'x'.repeat(40);
    const buf = bytes('first\n', long, '\r\n', 'exactly16bytes..\n', 'seventeen bytes!!\n', 'after\n');
    const r = assertChunkingInvariant(buf, 16);
    assert.deepEqual(
      r.lines.map((l) => l.text),
      ['first', 'exactly16bytes..', 'after'],
    );
    assert.equal(r.skipped, 2);
    assert.equal(r.lines[2].offset, buf.length - 'after\n'.length);
    assert.equal(r.committed, buf.length);
  });

  it('never buffers more than the cap while a long line streams in', () => {
    const s = new LineSplitter({ maxLineBytes: 1024 });
    let maxBuffered = 0;
    for (let i = 0; i < 100; i++) {
      s.push(new Uint8Array(300).fill(97));
      maxBuffered = Math.max(maxBuffered, s.bufferedBytes);
    }
    assert.ok(maxBuffered <= 1024, `buffered ${maxBuffered}`);
    assert.equal(s.bufferedBytes, 0);
    assert.deepEqual(s.push(bytes('\nok\n')), [{ text: 'ok', offset: 30_001, end: 30_004 }]);
    assert.equal(s.longLinesSkipped, 1);
  });

  it('starts at a given offset and resets', () => {
    const s = new LineSplitter({ startOffset: 100 });
    assert.deepEqual(s.push(bytes('a\nb')), [{ text: 'a', offset: 100, end: 102 }]);
    s.reset(0);
    assert.equal(s.bufferedBytes, 0);
    assert.deepEqual(s.push(bytes('z\n')), [{ text: 'z', offset: 0, end: 2 }]);
  });

  it('does not alias the caller buffer', () => {
    const s = new LineSplitter();
    const chunk = bytes('abc');
    s.push(chunk);
    chunk.fill(120);
    assert.deepEqual(s.push(bytes('\n')), [{ text: 'abc', offset: 0, end: 4 }]);
  });
});
