// How the injector reads a URL it is asked to fill (README, Forward: URLs that read two ways). Pure.
// The raw text is checked before the WHATWG parser resolves dot segments, turns `\` into `/` or
// decodes anything, because the server at the other end may read it another way.

/** The path as written: after the scheme and the authority, before `?` or `#`. */
export function rawPath(raw: string): string {
  const rest = raw.replace(/^[a-z][a-z0-9+.-]*:[/\\]*[^/\\?#]*/i, '');
  const end = rest.search(/[?#]/);
  return end < 0 ? rest : rest.slice(0, end);
}

const hexDigit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** A `%` anywhere that isn't followed by two hex digits. */
export function hasMalformedEscape(raw: string): boolean {
  for (let i = raw.indexOf('%'); i >= 0; i = raw.indexOf('%', i + 1)) {
    if (!hexDigit(raw.charCodeAt(i + 1)) || !hexDigit(raw.charCodeAt(i + 2))) return true;
  }
  return false;
}

const hexValue = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

/**
 * One segment's percent-decoded bytes, read as they are made: whether they are strict UTF-8 (as
 * `TextDecoder`'s fatal mode reads them, a leading byte-order mark dropped), and what the
 * ambiguous-path check asks of them.
 */
class SegmentBytes {
  /** Continuation bytes still owed, and the range the next one must lie in (WHATWG UTF-8 decoder). */
  private needed = 0;
  private lower = 0x80;
  private upper = 0xbf;
  bad = false;
  /** The first six bytes (a BOM and `..;` fit; those past `count` are stale) and how many there were. */
  private readonly head = new Int16Array(6);
  count = 0;
  /** A decoded `/` or `\\`. */
  slash = false;

  reset() {
    this.needed = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
    this.bad = false;
    this.count = 0;
    this.slash = false;
  }

  push(b: number) {
    if (this.count < 6) this.head[this.count] = b;
    this.count++;
    if (b === 0x2f || b === 0x5c) this.slash = true;
    if (this.needed === 0) {
      if (b < 0x80) return;
      if (b >= 0xc2 && b <= 0xdf) this.needed = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) this.lower = 0xa0;
        if (b === 0xed) this.upper = 0x9f;
        this.needed = 2;
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) this.lower = 0x90;
        if (b === 0xf4) this.upper = 0x8f;
        this.needed = 3;
      } else this.bad = true;
      return;
    }
    if (b < this.lower || b > this.upper) this.bad = true;
    this.lower = 0x80;
    this.upper = 0xbf;
    this.needed--;
  }

  /** The UTF-8 bytes of a code point as `TextEncoder` writes it (a lone surrogate as U+FFFD). */
  pushCodePoint(cp: number) {
    if (cp < 0x80) this.push(cp);
    else if (cp < 0x800) {
      this.push(0xc0 | (cp >> 6));
      this.push(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      this.push(0xe0 | (cp >> 12));
      this.push(0x80 | ((cp >> 6) & 0x3f));
      this.push(0x80 | (cp & 0x3f));
    } else {
      this.push(0xf0 | (cp >> 18));
      this.push(0x80 | ((cp >> 12) & 0x3f));
      this.push(0x80 | ((cp >> 6) & 0x3f));
      this.push(0x80 | (cp & 0x3f));
    }
  }

  /** The decoded segment is `.` or `..`, starts with `.;` or `..;`, holds `/` or `\\`, or isn't UTF-8. */
  ambiguous(): boolean {
    if (this.bad || this.needed > 0 || this.slash) return true;
    const h = this.head;
    // The decoder drops a leading BOM, so `%EF%BB%BF..` reads as `..`. Bytes past `count` are stale.
    const at = this.count >= 3 && h[0] === 0xef && h[1] === 0xbb && h[2] === 0xbf ? 3 : 0;
    const n = this.count - at;
    if (n < 1 || h[at] !== 0x2e) return false;
    if (n === 1 || (at + 1 < 6 && h[at + 1] === 0x3b)) return true;
    return h[at + 1] === 0x2e && (n === 2 || (at + 2 < 6 && h[at + 2] === 0x3b));
  }
}

/** A segment without `%` as written: `.` or `..`, or starting with `.;` or `..;`. */
function dotted(path: string, from: number, to: number): boolean {
  const n = to - from;
  if (n === 0 || path.charCodeAt(from) !== 0x2e) return false;
  if (n === 1 || path.charCodeAt(from + 1) === 0x3b) return true;
  return path.charCodeAt(from + 1) === 0x2e && (n === 2 || path.charCodeAt(from + 2) === 0x3b);
}

/**
 * A path that reads two ways: a raw `\\`, or a segment that, percent-decoded, is `.` or `..`,
 * starts with `.;` or `..;` (as Tomcat reads `..;`), holds `/` or `\\`, or isn't UTF-8. One pass
 * over the path, decoding each segment's bytes as it goes (a segment without `%` is read as written).
 */
export function isAmbiguousPath(raw: string): boolean {
  const path = rawPath(raw);
  const bytes = new SegmentBytes();
  // One read of the path by character codes (an `indexOf` per segment costs more than the segment).
  let from = 0;
  let percent = false;
  for (let i = 0; i <= path.length; i++) {
    const c = i < path.length ? path.charCodeAt(i) : 0x2f;
    if (c === 0x5c) return true;
    if (c === 0x25) percent = true;
    if (c !== 0x2f) continue;
    if (percent ? segmentAmbiguous(path, from, i, bytes) : dotted(path, from, i)) return true;
    from = i + 1;
    percent = false;
  }
  return false;
}

/** A segment holding a `%`, decoded to its bytes as it is read. */
function segmentAmbiguous(path: string, from: number, to: number, bytes: SegmentBytes): boolean {
  bytes.reset();
  for (let i = from; i < to; i++) {
    const c = path.charCodeAt(i);
    const hi = c === 37 ? hexValue(path.charCodeAt(i + 1)) : -1;
    const lo = hi >= 0 ? hexValue(path.charCodeAt(i + 2)) : -1;
    if (lo >= 0) {
      bytes.push(hi * 16 + lo);
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else if (c < 0xd800 || c > 0xdfff) bytes.pushCodePoint(c);
    else if (c <= 0xdbff && i + 1 < to && (path.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes.pushCodePoint(0x10000 + ((c - 0xd800) << 10) + (path.charCodeAt(i + 1) - 0xdc00));
      i++;
    } else bytes.pushCodePoint(0xfffd);
  }
  return bytes.ambiguous();
}

const utf8 = new TextDecoder();
/** Percent-decodes what decodes (a malformed escape stays as written) and reads the bytes as UTF-8. */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  // An ASCII text (any URL the WHATWG parser wrote) is its own bytes: decoded from its character
  // codes into a reused buffer, with no encoding first.
  if (decoded.length < text.length) decoded = new Uint8Array(Math.max(text.length, 2 * decoded.length));
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return percentDecodeBytes(text);
    const hi = c === 37 && i + 2 < text.length ? hexValue(text.charCodeAt(i + 1)) : -1;
    const lo = hi >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1;
    if (lo >= 0) {
      decoded[n++] = hi * 16 + lo;
      i += 2;
    } else decoded[n++] = c;
  }
  return utf8.decode(decoded.subarray(0, n));
}
let decoded = new Uint8Array(1024);

/** `percentDecode` of any text, by its UTF-8 bytes. */
function percentDecodeBytes(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  const value = (b: number) => (b >= 48 && b <= 57 ? b - 48 : b >= 65 && b <= 70 ? b - 55 : b >= 97 && b <= 102 ? b - 87 : -1);
  for (let i = 0; i < bytes.length; i++) {
    const hi = bytes[i] === 37 && i + 2 < bytes.length ? value(bytes[i + 1]) : -1;
    const lo = hi >= 0 ? value(bytes[i + 2]) : -1;
    if (lo >= 0) {
      out[n++] = hi * 16 + lo;
      i += 2;
    } else out[n++] = bytes[i];
  }
  return utf8.decode(out.subarray(0, n));
}
