// The forms of a value (README, The scrubber): every spelling of every encoding, as `build` adds
// them as patterns. A decoding form keeps only its first DECODING_PREFIX bytes.
import { MIN_VALUE_BYTES } from '../limits.ts';
import type { Strings } from './interned.ts';
import {
  B64,
  B64_LENGTH,
  B64_PADDED,
  B64_STD,
  B64_URL_ALPHABET,
  B64_UTF16,
  DECODING_PREFIX,
  EQ,
  F_B64,
  F_B64_UTF16,
  F_B64URL,
  F_HEX,
  F_HEXSEP,
  F_HEXW,
  F_JSON,
  F_RAWW,
  F_URL,
  F_XESC,
  HEX,
  HEXSEP,
  HEXW,
  JSON_,
  RAWW,
  URL,
  XESC,
} from './kinds.ts';
import { enc } from './utf8.ts';

/**
 * Characters [from, cut) of the base64 of `a` zero bytes followed by the value raw[o, o + n),
 * with padding, into b64Std[0, cut - from).
 */
export function base64Into(raw: Uint8Array, o: number, n: number, a: number, from: number, cut: number): void {
  const total = n + a;
  for (let g = from >> 2; 4 * g < cut; g++) {
    const j = 3 * g - a;
    const v = ((j >= 0 ? raw[o + j] : 0) << 16) | (j + 1 >= 0 && j + 1 < n ? raw[o + j + 1] << 8 : 0) | (j + 2 < n ? raw[o + j + 2] : 0);
    for (let pos = 0; pos < 4; pos++) {
      const c = 4 * g + pos;
      if (c < from || c >= cut) continue;
      const pad = (pos === 2 && 3 * g + 1 >= total) || (pos === 3 && 3 * g + 2 >= total);
      const x = (v >> (18 - 6 * pos)) & 63;
      b64Std[c - from] = pad ? EQ : B64_STD[x];
    }
  }
}

/**
 * Per alignment a (bit a), whether the base64 of `a` zero bytes followed by raw[o, o + n) uses
 * the 62nd or 63rd character, where the two alphabets differ: a sextet of 62 or more is five
 * ones, and alignment a's sextets start at the value's bits 6k - 8a, so at offsets 0, 4 and 2
 * modulo 6 for a = 0, 1, 2 (zero bytes around the value never make five ones).
 */
function highSextets(raw: Uint8Array, o: number, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i += 3) {
    // Bit 31 - t of w is the value's bit 8i + t; five ones start at t where m has a one.
    const w = (raw[o + i] << 24) | (i + 1 < n ? raw[o + i + 1] << 16 : 0) | (i + 2 < n ? raw[o + i + 2] << 8 : 0) | (i + 3 < n ? raw[o + i + 3] : 0);
    m |= w & (w << 1) & (w << 2) & (w << 3) & (w << 4);
  }
  // Starts t < 24 in each 3-byte step (8i + t ≡ t modulo 6): t ≡ 0, 4, 2 (mod 6).
  return (m & 0x82082000 ? 1 : 0) | (m & 0x08208200 ? 2 : 0) | (m & 0x20820800 ? 4 : 0);
}
export const b64Std = new Uint8Array(DECODING_PREFIX);
const b64Url = new Uint8Array(DECODING_PREFIX);

export const LOWER_HEX = enc.encode('0123456789abcdef');

/** Bytes each URL encoder leaves as they are (all write the others as %XX, the form encoder a space as +). */
const unreserved = (extra: string) => {
  const set = new Uint8Array(256);
  for (const c of enc.encode(`ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789${extra}`)) set[c] = 1;
  return set;
};
const URL_ENCODERS: [keep: Uint8Array, plus: boolean][] = [
  [unreserved("-_.!~*'()"), false], // encodeURIComponent
  [unreserved('*-._'), true], // URLSearchParams (application/x-www-form-urlencoded)
  [unreserved('-_.~'), false], // RFC 3986 unreserved only: Python's quote(safe='')
];

/**
 * The first DECODING_PREFIX bytes of a decoding form's spelling, written into a shared scratch
 * buffer (a decoding pattern keeps no more).
 */
const prefix = new Uint8Array(DECODING_PREFIX + 12);
let prefixLen = 0;

/** `\uXXXX` with lower-case hex digits. */
function writeU(code: number): void {
  prefix[prefixLen++] = 92;
  prefix[prefixLen++] = 117;
  for (let shift = 12; shift >= 0; shift -= 4) prefix[prefixLen++] = LOWER_HEX[(code >> shift) & 15];
}

function hexForm(raw: Uint8Array, o: number, n: number): void {
  prefixLen = 0;
  for (let i = o; i < o + n && prefixLen < DECODING_PREFIX; i++) {
    prefix[prefixLen++] = LOWER_HEX[raw[i] >> 4];
    prefix[prefixLen++] = LOWER_HEX[raw[i] & 15];
  }
}

/** Hex digit pairs with `sep` between two (as `xxd -g1`, `od` and MAC addresses write them). */
function hexSepForm(raw: Uint8Array, o: number, n: number, sep: number): void {
  prefixLen = 0;
  for (let i = o; i < o + n && prefixLen < DECODING_PREFIX; i++) {
    if (i > o) prefix[prefixLen++] = sep;
    prefix[prefixLen++] = LOWER_HEX[raw[i] >> 4];
    prefix[prefixLen++] = LOWER_HEX[raw[i] & 15];
  }
}

/** Hex separators: space, ':' and '-'. */
const HEX_SEPARATORS = [32, 58, 45];

/**
 * `\xXX` for every byte (`echo -e`, C, `printf`), or with `python` as Python writes bytes
 * (`repr(b)`): printable ASCII as itself but `\\` and the quote it chose (`'`, or `"` when the
 * bytes hold `'` and no `"`), `\t` `\n` `\r`, every other byte `\xXX`.
 */
function xescForm(raw: Uint8Array, o: number, n: number, python: boolean): void {
  prefixLen = 0;
  const quote = python && raw.subarray(o, o + n).includes(39) && !raw.subarray(o, o + n).includes(34) ? 34 : 39;
  for (let i = o; i < o + n && prefixLen < DECODING_PREFIX; i++) {
    const b = raw[i];
    if (python && (b === 92 || b === quote)) {
      prefix[prefixLen++] = 92;
      prefix[prefixLen++] = b;
    } else if (python && (b === 9 || b === 10 || b === 13)) {
      prefix[prefixLen++] = 92;
      prefix[prefixLen++] = b === 9 ? 116 : b === 10 ? 110 : 114;
    } else if (python && b >= 32 && b < 127) prefix[prefixLen++] = b;
    else {
      prefix[prefixLen++] = 92;
      prefix[prefixLen++] = 120;
      prefix[prefixLen++] = LOWER_HEX[b >> 4];
      prefix[prefixLen++] = LOWER_HEX[b & 15];
    }
  }
}

/** The value's UTF-16LE, from its UTF-8 raw[o, o + n), into `utf16`; answers its length. */
function utf16Into(raw: Uint8Array, o: number, n: number): number {
  if (utf16.length < 2 * n) utf16 = new Uint8Array(2 * n);
  let k = 0;
  for (let i = o; i < o + n; ) {
    const b = raw[i];
    const size = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    let cp = size === 1 ? b : b & (0x7f >> size);
    for (let j = 1; j < size; j++) cp = (cp << 6) | (raw[i + j] & 63);
    i += size;
    if (cp > 0xffff) {
      const hi = 0xd800 + ((cp - 0x10000) >> 10);
      const lo = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      utf16[k++] = hi & 255;
      utf16[k++] = hi >> 8;
      utf16[k++] = lo & 255;
      utf16[k++] = lo >> 8;
    } else {
      utf16[k++] = cp & 255;
      utf16[k++] = cp >> 8;
    }
  }
  return k;
}
let utf16 = new Uint8Array(256);

function urlForm(raw: Uint8Array, o: number, n: number, keep: Uint8Array, plus: boolean): void {
  prefixLen = 0;
  for (let i = o; i < o + n && prefixLen < DECODING_PREFIX; i++) {
    const b = raw[i];
    if (keep[b]) prefix[prefixLen++] = b;
    else if (plus && b === 32) prefix[prefixLen++] = 43;
    else {
      prefix[prefixLen++] = 37;
      prefix[prefixLen++] = LOWER_HEX[b >> 4];
      prefix[prefixLen++] = LOWER_HEX[b & 15];
    }
  }
}

// Which characters a JSON writer escapes as \uXXXX, besides what JSON requires.
const ESC_GO = 1; // Go's encoding/json: < > & U+2028 U+2029
const ESC_NON_ASCII = 2; // ASCII-only writers: Python's and PHP's defaults
const ESC_ALL = 4; // every character
/** JSON's short escapes for the bytes that have one. */
export const SHORT_ESCAPE = new Uint8Array(256);
for (const [b, c] of [
  [34, '"'],
  [92, '\\'],
  [8, 'b'],
  [12, 'f'],
  [10, 'n'],
  [13, 'r'],
  [9, 't'],
] as const)
  SHORT_ESCAPE[b] = c.charCodeAt(0);

/**
 * A JSON string's content as a writer writes it, from the value's UTF-8: `slash` writes `/` as
 * `\/` (PHP); `escapes` (ESC_* bits) says which characters become `\uXXXX` (UTF-16 code units, so
 * astral ones as a surrogate pair). Everything else as JSON.stringify writes it.
 */
function jsonForm(raw: Uint8Array, o: number, n: number, slash: boolean, escapes: number): void {
  prefixLen = 0;
  for (let i = o; i < o + n && prefixLen < DECODING_PREFIX; ) {
    const b = raw[i];
    const size = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    let cp = size === 1 ? b : b & (0x7f >> size);
    for (let k = 1; k < size; k++) cp = (cp << 6) | (raw[i + k] & 63);
    const go = cp === 60 || cp === 62 || cp === 38 || cp === 0x2028 || cp === 0x2029;
    if (escapes & ESC_ALL || (escapes & ESC_GO && go) || (escapes & ESC_NON_ASCII && cp > 0x7f)) {
      if (cp > 0xffff) {
        writeU(0xd800 + ((cp - 0x10000) >> 10));
        writeU(0xdc00 + ((cp - 0x10000) & 0x3ff));
      } else writeU(cp);
    } else if (SHORT_ESCAPE[b] && size === 1) {
      prefix[prefixLen++] = 92;
      prefix[prefixLen++] = SHORT_ESCAPE[b];
    } else if (b < 0x20) writeU(b);
    else if (slash && b === 47) {
      prefix[prefixLen++] = 92;
      prefix[prefixLen++] = 47;
    } else for (let k = 0; k < size; k++) prefix[prefixLen++] = raw[i + k];
    i += size;
  }
}

/**
 * The base64 spellings of raw[o, o + n) at the three alignments as `encodedForms` appends them;
 * with `wide`, of a value's UTF-16LE (string `rawId`, standard alphabet only).
 */
function base64Forms(raw: Uint8Array, o: number, n: number, s: Strings, out: number[], wide: boolean, rawId: number): void {
  const high = wide ? 0 : highSextets(raw, o, n);
  for (let a = 0; a < 3; a++) {
    // The value's bytes after `a` unknown bytes: keep only the characters made of value bits alone.
    const full = Math.ceil((n + a) / 3) * 4;
    const from = Math.ceil((8 * a) / 6);
    const to = Math.floor((8 * (a + n)) / 6);
    const cut = Math.min(full, from + DECODING_PREFIX);
    base64Into(raw, o, n, a, from, cut);
    // The value ending padded data: its last partial character (zero bits after it), then '='.
    for (let end = to, padded = 0; padded < 2; padded++, end = full) {
      if (padded && (a + n) % 3 === 0) break;
      // UTF-16LE of mostly 3-byte characters is shorter than their UTF-8: a key needs 8 characters.
      if (wide && end - from < MIN_VALUE_BYTES) continue;
      const length = Math.min(end, cut) - from;
      const std = s.intern(b64Std, 0, length);
      const shape = a | (padded ? B64_PADDED : 0) | (wide ? B64_UTF16 : 0) | ((end - from) << B64_LENGTH);
      out.push(wide ? F_B64_UTF16 : F_B64, B64, std, shape, rawId);
      if (high & (1 << a)) {
        // The url alphabet differs in the 62nd and 63rd characters only.
        for (let c = 0; c < length; c++) b64Url[c] = b64Std[c] === 43 ? 45 : b64Std[c] === 47 ? 95 : b64Std[c];
        out.push(F_B64URL, B64, s.intern(b64Url, 0, length), shape | B64_URL_ALPHABET, rawId);
      }
    }
  }
}

/** Appends the decoding form written into `prefix` (its first DECODING_PREFIX bytes). */
const pushPrefix = (out: number[], form: number, kind: number, s: Strings) =>
  out.push(form, kind, s.intern(prefix, 0, Math.min(prefixLen, DECODING_PREFIX)), 0, -1);

/**
 * Every spelling of every encoded form of a value (a decoding form's first DECODING_PREFIX bytes),
 * interned into `s`, as (form, kind, string id, base64 shape, raw string id or -1 for the value's
 * own) appended to `out`; repeats within the value are dropped later.
 */
export function encodedForms(raw: Uint8Array, o: number, n: number, rawId: number, s: Strings, out: number[]): void {
  base64Forms(raw, o, n, s, out, false, -1);
  // The raw bytes split by line breaks, and the JSON spelling that escapes nothing, under which
  // JSON text with escapes anywhere is looked up, escapes decoded (`matchAt`): one string.
  const rawPrefix = s.intern(raw, o, o + Math.min(n, DECODING_PREFIX));
  out.push(F_RAWW, RAWW, rawId, 0, -1);
  // Lower case only: verification reads hex digits in any case.
  hexForm(raw, o, n);
  pushPrefix(out, F_HEX, HEX, s);
  out.push(F_HEXW, HEXW, out[out.length - 3], 0, -1); // the same bytes
  for (const sep of HEX_SEPARATORS) {
    hexSepForm(raw, o, n, sep);
    pushPrefix(out, F_HEXSEP, HEXSEP, s);
  }
  xescForm(raw, o, n, false);
  pushPrefix(out, F_XESC, XESC, s);
  const units = utf16Into(raw, o, n);
  base64Forms(utf16, 0, units, s, out, true, s.intern(utf16, 0, units));
  for (let e = 0; e < URL_ENCODERS.length; e++) {
    urlForm(raw, o, n, URL_ENCODERS[e][0], URL_ENCODERS[e][1]);
    pushPrefix(out, F_URL, URL, s);
  }
  out.push(F_JSON, JSON_, rawPrefix, 0, -1);
  // Only the spellings that differ: a writer's escapes matter only where the value has such characters.
  let has = 0;
  let slash = false;
  for (let i = o; i < o + n; i++) {
    const b = raw[i];
    if (b === 60 || b === 62 || b === 38 || (b === 0xe2 && raw[i + 1] === 0x80 && (raw[i + 2] === 0xa8 || raw[i + 2] === 0xa9))) has |= ESC_GO;
    if (b > 0x7f) has |= ESC_NON_ASCII;
    else if (b === 47) slash = true;
  }
  for (let e = 0; e <= (ESC_GO | ESC_NON_ASCII) + 1; e++) {
    // Every subset of the escapes the value has, then every character escaped.
    const escapes = e > (ESC_GO | ESC_NON_ASCII) ? ESC_ALL : e;
    if (escapes !== ESC_ALL && (e & has) !== e) continue;
    for (let slashed = 0; slashed < (slash && escapes !== ESC_ALL ? 2 : 1); slashed++) {
      jsonForm(raw, o, n, slashed === 1, escapes);
      pushPrefix(out, F_JSON, JSON_, s);
    }
  }
  // Python's spelling, where it isn't the raw bytes: its escapes may come past the prefix kept.
  // After JSON's: where the two spell a text alike (`\\`, `\n`), the hit is named json.
  let unprintable = false;
  for (let i = o; i < o + n && !unprintable; i++) unprintable = raw[i] < 32 || raw[i] >= 127 || raw[i] === 92 || raw[i] === 39;
  if (unprintable) {
    xescForm(raw, o, n, true);
    pushPrefix(out, F_XESC, XESC, s);
  }
}
