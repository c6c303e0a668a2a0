/**
 * Other readings of a text in which a secret can hide from patterns that look at one line of plain
 * text (issue #14 part 6): a token or key wrapped across lines (also with `> ` quote prefixes or a
 * JSON-escaped `\n`), quoted lines (`> ` before every line of a PEM block), URL-encoded runs
 * (`postgres%3A%2F%2Fuser%3Apass%40…`) and base64 runs (kubeconfig `client-key-data`, `echo … |
 * base64 -d`). The redactor runs its patterns over each view and maps what it finds back to the
 * text. Pure and linear: every view is one pass over a part of the text, and views are bounded.
 */

export interface TextView {
  readonly text: string;
  /** Start (inclusive) in the original text of view character `i`. */
  start(i: number): number;
  /** End (exclusive) in the original text of view character `i`. */
  end(i: number): number;
  /** A span of the original text to redact as a whole when the view holds a secret (encoded runs). */
  readonly whole?: readonly [number, number];
  /** View indices where two lines were joined: only spans across a seam are new. */
  readonly seams?: readonly number[];
}

const maxViews = 256;
const maxViewChars = 1 << 20;

/** A view built character by character, each with its original range (short views). */
class ViewBuilder {
  private chars: string[] = [];
  private starts: number[] = [];
  private ends: number[] = [];
  readonly seams: number[] = [];
  get length(): number {
    return this.chars.length;
  }
  push(text: string, start: number, end: number): void {
    this.chars.push(text);
    this.starts.push(start);
    this.ends.push(end);
  }
  pushRange(source: string, from: number, to: number): void {
    for (let i = from; i < to; i++) this.push(source[i], i, i + 1);
  }
  seam(): void {
    this.seams.push(this.chars.length);
  }
  build(extra: { withSeams?: boolean } = {}): TextView {
    const starts = this.starts;
    const ends = this.ends;
    return {
      text: this.chars.join(''),
      start: (i) => starts[Math.max(0, Math.min(i, starts.length - 1))],
      end: (i) => ends[Math.max(0, Math.min(i, ends.length - 1))],
      ...(extra.withSeams ? { seams: [...this.seams] } : {}),
    };
  }
}

/** A view made of slices of the original text (long views): positions map through the slice table. */
function sliceView(text: string, slices: readonly [number, number][], seams?: boolean): TextView {
  const viewStarts: number[] = [];
  const parts: string[] = [];
  let n = 0;
  for (const [a, b] of slices) {
    viewStarts.push(n);
    parts.push(text.slice(a, b));
    n += b - a;
  }
  const at = (i: number): number => {
    let lo = 0;
    let hi = slices.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (viewStarts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return slices[lo][0] + (i - viewStarts[lo]);
  };
  return {
    text: parts.join(''),
    start: at,
    end: (i) => at(i) + 1,
    ...(seams ? { seams: viewStarts.slice(1) } : {}),
  };
}

// ─── wrapped tokens ─────────────────────────────────────────────────────────────────────────────

const isTokenCode = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x61 && c <= 0x7a) ||
  c === 0x2b ||
  c === 0x2f ||
  c === 0x3d ||
  c === 0x5f ||
  c === 0x2e ||
  c === 0x2d;
/** A line break (real, or JSON-escaped) and the next line's indentation and quote/diff/comment prefix. */
const seamAt = /(?:\r\n|\n|\r|\\r\\n|\\n|\\r)[ \t]{0,16}(?:(?:>|\+|#|\/\/|\*|;)[ \t]?){0,3}/y;
const lineBreak = /\r\n|\n|\r|\\r\\n|\\n|\\r/g;

/**
 * Runs of token characters that continue on the next line(s): each chain of such runs becomes one
 * view with the breaks (and the next line's prefix) removed. Only chains that `worthScanning`
 * accepts (a credential keyword in them) are kept.
 */
function wrappedViews(text: string, worthScanning: (s: string) => boolean): TextView[] {
  const out: TextView[] = [];
  lineBreak.lastIndex = 0;
  let consumed = 0;
  for (let m = lineBreak.exec(text); m !== null && out.length < maxViews; m = lineBreak.exec(text)) {
    if (m.index < consumed) continue;
    let runStart = m.index;
    while (runStart > consumed && m.index - runStart < 4096 && isTokenCode(text.charCodeAt(runStart - 1))) runStart--;
    if (m.index - runStart < 8) continue;
    const slices: [number, number][] = [[runStart, m.index]];
    let pos = m.index;
    let total = m.index - runStart;
    for (let joined = 0; joined < 400; joined++) {
      seamAt.lastIndex = pos;
      const s = seamAt.exec(text);
      if (!s) break;
      const from = s.index + s[0].length;
      let end = from;
      while (end < text.length && end - from < 4096 && isTokenCode(text.charCodeAt(end))) end++;
      if (end - from < 3 || total + (end - from) > maxViewChars) break;
      slices.push([from, end]);
      total += end - from;
      pos = end;
    }
    if (slices.length < 2) continue;
    consumed = pos;
    lineBreak.lastIndex = pos;
    const view = sliceView(text, slices, true);
    // a credential keyword in the chain, or a base64 blob wrapped over lines (`base64` wraps at 76)
    const blob = slices.length >= 3 && total >= 64 && /^[A-Za-z0-9+/=_-]+$/.test(view.text);
    if (blob || worthScanning(view.text)) out.push(view);
  }
  return out;
}

// ─── quoted lines ───────────────────────────────────────────────────────────────────────────────

const quotePrefix = /^[ \t]{0,8}(?:>[ \t]?)+/gm;

/** The text with the `> ` quote prefixes of its lines removed, when at least two lines have one. */
function unquotedView(text: string): TextView | undefined {
  if (text.length > maxViewChars) return undefined;
  const slices: [number, number][] = [];
  let pos = 0;
  let quoted = 0;
  quotePrefix.lastIndex = 0;
  for (let m = quotePrefix.exec(text); m !== null; m = quotePrefix.exec(text)) {
    if (m[0].length === 0) {
      quotePrefix.lastIndex++;
      continue;
    }
    quoted++;
    if (m.index > pos) slices.push([pos, m.index]);
    pos = m.index + m[0].length;
  }
  if (quoted < 2) return undefined;
  if (pos < text.length) slices.push([pos, text.length]);
  return slices.length > 0 ? sliceView(text, slices) : undefined;
}

// ─── URL-encoded runs ───────────────────────────────────────────────────────────────────────────

/** Characters that end a URL-encoded run (blanks, quotes, angle brackets, backticks). */
const isRunStop = (c: number): boolean => c <= 0x20 || c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3e || c === 0x60 || c === 0x7f;
const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Each run with percent-escapes of ASCII characters decoded (each decoded character maps to its `%XX`). */
function urlDecodedViews(text: string): TextView[] {
  const out: TextView[] = [];
  let from = 0;
  for (let pct = text.indexOf('%'); pct >= 0 && out.length < maxViews; pct = text.indexOf('%', Math.max(pct + 1, from))) {
    if (pct < from || !isHex(text.charCodeAt(pct + 1)) || !isHex(text.charCodeAt(pct + 2))) continue;
    // the run around this escape, found by walking (a regex anchored on nothing here would be quadratic)
    let start = pct;
    while (start > from && !isRunStop(text.charCodeAt(start - 1))) start--;
    let end = pct;
    while (end < text.length && !isRunStop(text.charCodeAt(end))) end++;
    from = end;
    if (end - start > maxViewChars) continue;
    const b = new ViewBuilder();
    let decoded = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x25 && i + 2 < end && text.charCodeAt(i + 1) <= 0x37 && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) {
        b.push(String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16)), i, i + 3);
        i += 2;
        decoded++;
      } else b.push(text[i], i, i + 1);
    }
    if (decoded > 0) out.push(b.build());
  }
  return out;
}

// ─── base64 runs ────────────────────────────────────────────────────────────────────────────────

/** base64 and base64url digit values by char code (-1: not a digit). */
const b64Values = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('').forEach((c, i) => (b64Values[c.charCodeAt(0)] = i));
b64Values[0x2b] = 62; // +
b64Values[0x2d] = 62; // -
b64Values[0x2f] = 63; // /
b64Values[0x5f] = 63; // _

/** Bytes of a base64 / base64url string (at most `limit` characters of it), or undefined when it is not one. */
export function decodeBase64(s: string, limit = s.length): Uint8Array | undefined {
  let len = Math.min(s.length, limit);
  while (len > 0 && s.charCodeAt(len - 1) === 0x3d) len--;
  if (len % 4 === 1 && len === s.length) return undefined;
  const out = new Uint8Array(Math.floor((len * 3) / 4));
  let bits = 0;
  let acc = 0;
  let n = 0;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? b64Values[c] : -1;
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

/** Share of bytes that no text has (controls other than tab/CR/LF, DEL, bytes that cannot start or continue UTF-8). */
function binaryShare(bytes: Uint8Array): number {
  let bad = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f || b === 0xc0 || b === 0xc1 || b >= 0xf5) bad++;
  }
  return bytes.length === 0 ? 1 : bad / bytes.length;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decoded text when it is UTF-8 and almost all printable (text, not binary data), else undefined. */
function printableText(bytes: Uint8Array): string | undefined {
  if (bytes.length < 12 || binaryShare(bytes) > 0.05) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  return text;
}

/** 1: a base64 digit (either alphabet), 2: `+` or `/` only, 3: `-` or `_` only. */
const b64Kind = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (b64Values[c] >= 0) b64Kind[c] = 1;
b64Kind[0x2b] = 2;
b64Kind[0x2f] = 2;
b64Kind[0x2d] = 3;
b64Kind[0x5f] = 3;

/**
 * Each base64 (or base64url) run of 20+ digits that decodes to text: a view of that text, redacted
 * as a whole run. Runs are found in one pass (hex ids and long words decode to binary and are
 * rejected on their first bytes).
 */
function base64Views(text: string): TextView[] {
  const out: TextView[] = [];
  const n = text.length;
  let i = 0;
  while (i < n && out.length < maxViews) {
    const c = text.charCodeAt(i);
    if (c >= 128 || b64Kind[c] === 0) {
      i++;
      continue;
    }
    const start = i;
    let std = false;
    let url = false;
    let upper = false;
    let lower = false;
    while (i < n) {
      const d = text.charCodeAt(i);
      const k = d < 128 ? b64Kind[d] : 0;
      if (k === 0) break;
      if (k === 2) std = true;
      else if (k === 3) url = true;
      else if (d >= 0x41 && d <= 0x5a) upper = true;
      else if (d >= 0x61 && d <= 0x7a) lower = true;
      i++;
    }
    let end = i;
    let pad = 0;
    while (pad < 2 && end < n && text.charCodeAt(end) === 0x3d) {
      end++;
      pad++;
    }
    i = end;
    // one alphabet per run (a `+` and a `_` together is not base64), at least 20 digits, both
    // letter cases (encoded text always has them; paths and words often do not)
    if ((std && url) || !upper || !lower) continue;
    if (end - pad - start < 20 || end - start > maxViewChars) continue;
    const run = text.slice(start, end);
    const head = decodeBase64(run, 64);
    if (!head || binaryShare(head) > 0.05) continue;
    const bytes = decodeBase64(run);
    const decoded = bytes && printableText(bytes);
    if (!decoded) continue;
    out.push({ text: decoded, start: () => start, end: () => end, whole: [start, end] });
  }
  return out;
}

export interface ViewOptions {
  /** True when a re-joined run holds a keyword of a credential format (cheap prefilter). */
  worthScanning: (s: string) => boolean;
  /** True when the text may hold a multi-line secret that quote prefixes would break (`private key`…). */
  mayHoldMultiLineSecret: (s: string) => boolean;
}

/** Every alternate view of `text` worth scanning (cheap checks first; none for plain one-line text). */
export function alternateViews(text: string, opts: ViewOptions): TextView[] {
  const views: TextView[] = [];
  const multiLine = /[\r\n]|\\[rn]/.test(text);
  if (multiLine) {
    views.push(...wrappedViews(text, opts.worthScanning));
    const unquoted = opts.mayHoldMultiLineSecret(text) ? unquotedView(text) : undefined;
    if (unquoted) views.push(unquoted);
  }
  if (text.includes('%')) views.push(...urlDecodedViews(text));
  views.push(...base64Views(text));
  return views.slice(0, maxViews * 2);
}
