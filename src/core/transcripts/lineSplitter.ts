/**
 * Byte chunks → complete lines, as a pure state machine (no I/O). Used by the transcript tailer:
 * the output does not depend on how the bytes were chunked.
 *
 * - Lines end at `\n`; a trailing `\r` is removed (CRLF). A lone `\r` is kept.
 * - Each complete line is decoded as UTF-8 with invalid sequences replaced by U+FFFD (decoding is
 *   done per complete line, so a multi-byte character split across chunks decodes correctly).
 * - NUL bytes are removed from lines (pre-allocated or crash-padded files contain NUL runs); a line
 *   of only NULs becomes empty. A UTF-8 BOM at byte 0 is dropped.
 * - The partial last line is buffered until its `\n` arrives; `committedOffset` is the byte offset
 *   just after the last complete line (where a resumed reader must start).
 * - takePartial() ends the partial last line where it stands (a file whose writer is done but wrote
 *   no final newline); bytes appended later start a new line, so it is never read twice.
 * - A line longer than `maxLineBytes` is dropped without being kept in memory: buffering stops
 *   when the cap is exceeded and resumes after the line's `\n`; it is counted in `longLinesSkipped`.
 */

export interface SplitLine {
  /** Decoded text without the line terminator. */
  text: string;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** Byte offset just after the line's `\n`. */
  end: number;
}

export interface LineSplitterOptions {
  /** Lines longer than this many bytes (terminator excluded) are skipped. Default 8 MiB. */
  maxLineBytes?: number;
  /** Absolute byte offset of the first byte that will be pushed. Default 0. */
  startOffset?: number;
}

export const defaultMaxLineBytes = 8 * 1024 * 1024;

export class LineSplitter {
  readonly maxLineBytes: number;
  private pieces: Uint8Array[] = [];
  private bufferedLength = 0;
  /** Absolute offset of the next byte to be pushed. */
  private position: number;
  /** Absolute offset of the first byte of the current (partial) line. */
  private lineStart: number;
  /** Current line exceeded the cap: discard bytes until its newline. */
  private skipping = false;
  private skipped = 0;
  private nulBytes = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

  constructor(opts: LineSplitterOptions = {}) {
    this.maxLineBytes = opts.maxLineBytes ?? defaultMaxLineBytes;
    this.position = opts.startOffset ?? 0;
    this.lineStart = this.position;
  }

  /** Byte offset just after the last complete line (or skipped long line). */
  get committedOffset(): number {
    return this.lineStart;
  }

  /** Absolute offset of the next byte expected by push(). */
  get nextOffset(): number {
    return this.position;
  }

  /** Bytes currently held for the partial last line (never more than maxLineBytes). */
  get bufferedBytes(): number {
    return this.bufferedLength;
  }

  /** Lines dropped because they exceeded maxLineBytes. */
  get longLinesSkipped(): number {
    return this.skipped;
  }

  /** NUL bytes removed from complete lines. */
  get nulBytesRemoved(): number {
    return this.nulBytes;
  }

  /** Feeds the next bytes; returns the lines completed by them, in order. */
  push(chunk: Uint8Array): SplitLine[] {
    const lines: SplitLine[] = [];
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(10, from);
      if (nl === -1) {
        this.append(chunk.subarray(from));
        break;
      }
      this.append(chunk.subarray(from, nl));
      this.position += 1; // the '\n'
      this.completeLine(lines);
      from = nl + 1;
    }
    return lines;
  }

  /** The partial last line's text (not consumed), or undefined when there is none. */
  peekPartial(): string | undefined {
    if (this.skipping || this.bufferedLength === 0) return undefined;
    const lines: SplitLine[] = [];
    const saved = { pieces: this.pieces, length: this.bufferedLength, lineStart: this.lineStart, nul: this.nulBytes };
    this.completeLine(lines);
    this.pieces = saved.pieces;
    this.bufferedLength = saved.length;
    this.lineStart = saved.lineStart;
    this.nulBytes = saved.nul;
    return lines[0]?.text;
  }

  /**
   * Ends the partial last line without a newline and returns it (none when nothing is buffered; a
   * partial line over the cap is counted as skipped). `committedOffset` moves past it.
   */
  takePartial(): SplitLine[] {
    if (!this.skipping && this.bufferedLength === 0) return [];
    const lines: SplitLine[] = [];
    this.completeLine(lines);
    return lines;
  }

  /** Starts over at `offset` (after truncation or replacement of the file). Counters are kept. */
  reset(offset = 0): void {
    this.pieces = [];
    this.bufferedLength = 0;
    this.position = offset;
    this.lineStart = offset;
    this.skipping = false;
  }

  private append(bytes: Uint8Array): void {
    this.position += bytes.length;
    if (bytes.length === 0) return;
    if (this.skipping) return;
    if (this.bufferedLength + bytes.length > this.maxLineBytes) {
      this.skipping = true;
      this.pieces = [];
      this.bufferedLength = 0;
      return;
    }
    // copy (the caller may reuse its read buffer); not .slice(): on a Buffer that is a view
    this.pieces.push(new Uint8Array(bytes));
    this.bufferedLength += bytes.length;
  }

  private completeLine(out: SplitLine[]): void {
    const end = this.position;
    const offset = this.lineStart;
    this.lineStart = end;
    if (this.skipping) {
      this.skipping = false;
      this.skipped++;
      return;
    }
    let bytes: Uint8Array;
    if (this.pieces.length === 1) bytes = this.pieces[0];
    else {
      bytes = new Uint8Array(this.bufferedLength);
      let at = 0;
      for (const p of this.pieces) {
        bytes.set(p, at);
        at += p.length;
      }
    }
    this.pieces = [];
    this.bufferedLength = 0;
    let len = bytes.length;
    if (len > 0 && bytes[len - 1] === 13) len--;
    let start = 0;
    if (offset === 0 && len >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    let view = bytes.subarray(start, len);
    if (view.includes(0)) {
      const kept = view.filter((b) => b !== 0);
      this.nulBytes += view.length - kept.length;
      view = kept;
    }
    out.push({ text: this.decoder.decode(view), offset, end });
  }
}
