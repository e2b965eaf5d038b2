// Text with one level of JSON string escaping undone, and where each decoded byte came from
// (GAPS §9, inside JSON strings): the scrubber scans this view beside the text itself, so a form an
// encoder wrote into a JSON string (`\n` between base64 lines, `\\x41`, `\u0041` for any character)
// is found as it would be unescaped. Pure: bytes in, bytes and offsets out.
import { charsInto } from './utf8.ts';

/** One level of JSON decoding of a source range: `bytes[0, length)`, byte i from source [from[i], to[i]). */
export interface JsonView {
  bytes: Uint8Array;
  from: Int32Array;
  to: Int32Array;
  length: number;
}

/** The most source bytes one decoded byte comes from: `\u0041`. What any form may grow by once escaped again. */
export const JSON_GROWTH = 6;

/** JSON's two-character escapes: the byte each stands for, by the character after the backslash; 0 for none. */
export const JSON_ESCAPE = new Uint8Array(256);
for (const [c, b] of [
  ['"', 34],
  ['\\', 92],
  ['/', 47],
  ['b', 8],
  ['f', 12],
  ['n', 10],
  ['r', 13],
  ['t', 9],
] as const)
  JSON_ESCAPE[c.charCodeAt(0)] = b;
const U = 117;

/** Whether the character code after a backslash may begin a JSON escape (`\uXXXX` by its `u` alone). */
export const escapes = (c: number) => c === U || (c < 256 && JSON_ESCAPE[c] !== 0);

const hex = (c: number) => (c >= 48 && c <= 57 ? c - 48 : (c | 32) >= 97 && (c | 32) <= 102 ? (c | 32) - 87 : -1);

/** Four hex digits at i as a number, or -1. */
function hex4(d: Uint8Array, i: number, n: number): number {
  if (i + 4 > n) return -1;
  const a = hex(d[i]);
  const b = hex(d[i + 1]);
  const c = hex(d[i + 2]);
  const e = hex(d[i + 3]);
  return (a | b | c | e) < 0 ? -1 : (a << 12) | (b << 8) | (c << 4) | e;
}

/** A view with room for `n` decoded bytes, reusing `view`'s arrays when they are big enough. */
export function viewWithRoom(view: JsonView | null, n: number): JsonView {
  if (view && view.bytes.length >= n) return view;
  const size = Math.max(n, 2 * (view?.bytes.length ?? 0), 4096);
  return { bytes: new Uint8Array(size), from: new Int32Array(size), to: new Int32Array(size), length: 0 };
}

/** What `escapeAt` decoded: the code point (0x110000 for a lone surrogate) and the escape's end. */
let escapedCp = 0;
let escapedEnd = 0;

/**
 * Whether d[i, b) starts with a valid escape (a backslash at i): `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`,
 * `\uXXXX` in either case, a surrogate pair as one code point; its code point and end go to
 * `escapedCp` and `escapedEnd`.
 */
function escapeAt(d: Uint8Array, i: number, b: number): boolean {
  if (i + 1 >= b) return false;
  const e = d[i + 1];
  if (e !== U) {
    if (JSON_ESCAPE[e] === 0) return false;
    escapedCp = JSON_ESCAPE[e];
    escapedEnd = i + 2;
    return true;
  }
  let cp = hex4(d, i + 2, b);
  if (cp < 0) return false;
  let end = i + 6;
  if (cp >= 0xd800 && cp < 0xdc00 && end + 1 < b && d[end] === 92 && d[end + 1] === U) {
    const lo = hex4(d, end + 2, b);
    if (lo >= 0xdc00 && lo < 0xe000) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      end += 6;
    }
  }
  escapedCp = cp >= 0xd800 && cp < 0xe000 ? 0x110000 : cp; // lone: no character
  escapedEnd = end;
  return true;
}

/** The escape's bytes (`escapedCp`) into the view at k, each from source [i, escapedEnd) plus `base`; answers the index after them. */
function putEscape(view: JsonView, k: number, i: number, base: number): number {
  const { bytes, from, to } = view;
  const k0 = k;
  if (escapedCp < 0x110000) k = utf8Into(bytes, k, escapedCp);
  else bytes[k++] = 0xff;
  for (let j = k0; j < k; j++) {
    from[j] = i + base;
    to[j] = escapedEnd + base;
  }
  return k;
}

/**
 * Decodes d[a, b) into `view` (room for b - a bytes: no escape decodes longer than it is written):
 * every valid escape (`escapeAt`), every other byte as it is. A lone surrogate decodes to 0xff,
 * which no UTF-8 text holds. Offsets in `from`/`to` are d's plus `base`.
 */
export function decodeView(d: Uint8Array, a: number, b: number, view: JsonView, base: number): void {
  const { bytes, from, to } = view;
  let k = 0;
  for (let i = a; i < b; ) {
    const c = d[i];
    if (c === 92 && escapeAt(d, i, b)) {
      k = putEscape(view, k, i, base);
      i = escapedEnd;
      continue;
    }
    bytes[k] = c;
    from[k] = i + base;
    to[k] = i + 1 + base;
    k++;
    i++;
  }
  view.length = k;
}

/** The chars around a backslash as bytes, for `escapeAt` (a surrogate pair's 12 at most). */
const ESCAPE_CHARS = new Uint8Array(12);

/**
 * `decodeView` of a string's chars text[a, b) as bytes (a char past ASCII as 0xff, in no pattern,
 * as `charsAsBytes` reads them), without copying the text to bytes first.
 */
export function decodeViewText(text: string, a: number, b: number, view: JsonView): void {
  const { bytes, from, to } = view;
  let k = 0;
  for (let i = a; i < b; ) {
    const c = text.charCodeAt(i);
    if (c === 92) {
      const m = Math.min(b - i, ESCAPE_CHARS.length);
      charsInto(ESCAPE_CHARS, text, i, i + m);
      if (escapeAt(ESCAPE_CHARS, 0, m)) {
        escapedEnd += i;
        k = putEscape(view, k, i, 0);
        i = escapedEnd;
        continue;
      }
    }
    bytes[k] = c < 0x80 ? c : 0xff;
    from[k] = i;
    to[k] = i + 1;
    k++;
    i++;
  }
  view.length = k;
}

/** A code point's UTF-8 into `out` at k; answers the index after it. */
export function utf8Into(out: Uint8Array, k: number, cp: number): number {
  if (cp < 0x80) out[k++] = cp;
  else if (cp < 0x800) {
    out[k++] = 0xc0 | (cp >> 6);
    out[k++] = 0x80 | (cp & 63);
  } else if (cp < 0x10000) {
    out[k++] = 0xe0 | (cp >> 12);
    out[k++] = 0x80 | ((cp >> 6) & 63);
    out[k++] = 0x80 | (cp & 63);
  } else {
    out[k++] = 0xf0 | (cp >> 18);
    out[k++] = 0x80 | ((cp >> 12) & 63);
    out[k++] = 0x80 | ((cp >> 6) & 63);
    out[k++] = 0x80 | (cp & 63);
  }
  return k;
}
