// The vault's scrubber (README, The scrubber): replaces every form of every value (raw,
// base64/base64url at three alignments, also wrapped in lines, hex in any case, url as three
// encoders write it, json with any escapes anywhere; and what dumping tools and shells write: \xNN,
// hex with a separator, base64 of the UTF-16LE, raw and hex split by line breaks) in bytes, strings
// or streams, leftmost-longest, never rescanning its own output. Streams hold back a fixed number of bytes, so what they release
// never depends on what the text resembles. Design, forms and measured figures: docs/scrubber.md.
import type { ScrubHit } from '../contract.ts';
import { MAX_SCRUB_VALUE_BYTES as MAX_VALUE_BYTES, MIN_VALUE_BYTES } from '../limits.ts';
import { JSON_ESCAPE, JSON_GROWTH, type JsonView, decodeView, escapes, utf8Into, viewWithRoom } from './json-view.ts';

/** A stream's `idle()` releases its held tail only this long after its last `push`. */
export const IDLE_MS = 250;
/**
 * The most bytes any form spends on one byte of a value: JSON's `\u0041` for an ASCII character
 * (hex split by a CRLF after every digit spans 6n - 2; docs/scrubber.md, Streams, lists every
 * form's span). A stream's horizon H is this times the longest value; it holds back H - 1 bytes.
 */
export const MAX_FORM_GROWTH = 6;
/**
 * A stream's horizon H over the longest value: any form's span, escaped once more in a JSON string
 * (`\u0041` for each of its bytes at most). It holds back H - 1 bytes.
 */
export const STREAM_GROWTH = MAX_FORM_GROWTH * JSON_GROWTH;

export interface ScrubValue {
  name: string;
  placeholder: string;
  value: string;
}

export interface ScrubStreamOptions {
  /** Defaults to IDLE_MS. */
  idleMs?: number;
  /** The clock `idle()` is measured by, in ms; defaults to `performance.now`. */
  now?: () => number;
}

export interface Scrubber {
  /** UTF-8 encodes, scrubs and decodes (lone surrogates become U+FFFD, as with TextEncoder). */
  redact(text: string): { text: string; hits: ScrubHit[] };
  /** Without hits, returns `bytes` itself. */
  redactBytes(bytes: Uint8Array): { bytes: Uint8Array; hits: ScrubHit[] };
  /**
   * Whether every value is ASCII, so a string is scanned as it is, never encoded: then
   * `redactInSteps` may be used.
   */
  readonly scansText: boolean;
  /**
   * `redact` (the same answer) for a scrubber that `scansText`, about `chars` characters of the
   * text at a time, awaiting `pause()` between them.
   */
  redactInSteps(text: string, chars: number, pause: () => Promise<void>): Promise<{ text: string; hits: ScrubHit[] }>;
  stream(options?: ScrubStreamOptions): ScrubStream;
  /** Distinct patterns compiled (every spelling of every form of every value). */
  readonly patterns: number;
  /** Bytes held by the compiled tables. */
  readonly tableBytes: number;
  /** What a stream holds back: H - 1 bytes, H = STREAM_GROWTH × the longest value (0 without values). */
  readonly hold: number;
}

export interface ScrubStream {
  /** Scans the chunk and releases, scrubbed, everything but the last `hold` bytes seen. May be a view of `chunk`. */
  push(chunk: Uint8Array): Uint8Array;
  /**
   * Once `idleMs` have passed since the last `push` (by the stream's clock), releases the whole
   * held tail, scrubbed; earlier, an empty chunk. The stream keeps matching across the release:
   * a form that began in released bytes and completes later has its unreleased rest replaced
   * (hit form `partial`).
   */
  idle(): Uint8Array;
  /** Milliseconds until `idle()` would release (0: now). */
  idleIn(): number;
  /** Releases the rest, scrubbed. The stream can't be used after this. */
  end(): Uint8Array;
  /** Totals so far. */
  readonly hits: ScrubHit[];
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const EMPTY = new Uint8Array(0);
// Filter sizes: bloom bits per sampled 4-gram, and the largest tables (the bloom bitset is 128 KiB
// at most, so it stays in cache; the offset tables, 1 MiB each, are read only after a bloom hit).
const BLOOM_BITS_PER_GRAM = 16;
/**
 * The widest sampling step: one 4-byte read per `step` bytes of text, `step` being at most the
 * shortest pattern's length less 3. An offset table's entry holds a bit per offset (0-15) and one
 * per base64 offset behind a line break (16-31).
 */
const MAX_STEP = 16;
const BLOOM_MAX_BITS = 20;
const GRAM_MAX_BITS = 18;
/** The line-break filter's bitset: 256 KiB at most, read only at a line break between base64 characters. */
const BREAKS_MAX_BITS = 21;
const GOLDEN = 0x9e3779b1;
const GOLDEN2 = 0x85ebca6b;
const GOLDEN3 = 0xc2b2ae35;
const GOLDEN4 = 0x27d4eb2f;
const GOLDEN5 = 0x165667b1;
/** Grams are compared with every byte's 0x20 bit set: 'A' and 'a' (and '@' and '`') look alike. */
const FOLD = 0x20202020;

// ── Forms ──────────────────────────────────────────────────────────────────────────────

/** How a pattern is verified against the input. */
const EXACT = 0; // the bytes as they are (raw)
const B64 = 1; // base64 of the value, with one LF or CRLF allowed between any two characters
// A base64 pattern's shape: the value (or its UTF-16LE) after B64_ALIGN zero bytes (0 to 2), in
// which alphabet, ending with the padded data's last character and '=' or not. Like a decoding
// pattern it keeps only its first DECODING_PREFIX characters; verification spells the rest from
// the value. Its length in characters is the shape >> B64_LENGTH.
const B64_ALIGN = 3;
const B64_URL_ALPHABET = 4;
const B64_PADDED = 8;
/** Of the value's UTF-16LE (PowerShell's -EncodedCommand): line breaks at least UTF16_MIN_LINE characters apart. */
const B64_UTF16 = 16;
const B64_LENGTH = 5;
/**
 * UTF-16LE base64 is caught wrapped too, but only where its lines (all but the first) hold at
 * least this many characters: a line break after every character would let it span 8n + 6
 * bytes, a third more than any other form, and every stream would have to hold that back.
 */
const UTF16_MIN_LINE = 4;
const HEX = 2; // pairs of hex digits in any case, decoding to the value
const URL = 3; // %XX in any case, + for a space, or the byte itself, decoding to the value
const JSON_ = 4; // a JSON string's content (any escape, \uXXXX in any case), decoding to the value
const XESC = 5; // \xXX in any case, or the byte itself, decoding to the value
const HEXSEP = 6; // pairs of hex digits in any case, the pattern's separator (space, : or -) between two, one LF or CRLF allowed before it (`od`'s lines)
const RAWW = 7; // the value's bytes, one LF or CRLF allowed between any two
const HEXW = 8; // pairs of hex digits in any case, one LF or CRLF allowed between any two digits
// Kinds from HEX on decode the input and compare it with the value's raw bytes.
/** Kinds that a line break may split anywhere: filed also under the offsets breaks shift them to. */
const WRAPPING = (1 << B64) | (1 << RAWW) | (1 << HEXW) | (1 << HEXSEP);
const JSON_ONLY = 1 << JSON_;

/**
 * A decoding pattern (hex, url, json) keeps only this many of its first bytes: the filter reads
 * at most MAX_STEP + 6 (a base64 form's grams behind a line break) and the key 12; verification
 * decodes the input against the value's raw bytes.
 */
const DECODING_PREFIX = MAX_STEP + 6;
/**
 * How the patterns under one key are told apart (`longestIn`): by the input read as each class
 * reads it. Raw bytes as they are (0); url (1), json (2), \x escapes (4), hex with line breaks
 * skipped (5) and separated hex (6) decoded to the value's bytes; base64 and raw-wrapped characters
 * with line breaks skipped (3), UTF-16LE base64's further on (7: its character 18 is the value's 7th).
 */
const CHECK_CLASS = [0, 3, 5, 1, 2, 4, 6, 3, 5]; // by kind: EXACT, B64, HEX, URL, JSON_, XESC, HEXSEP, RAWW, HEXW
const CHECK_UTF16 = 7;
/** Classes told apart by their value's bytes (the input decoded), not their own. */
const BY_VALUE = (1 << 1) | (1 << 2) | (1 << 4) | (1 << 5) | (1 << 6);
/** Where a pattern's check gram is: the last 4 of the bytes a decoding form keeps (of its value's bytes, where it is told apart by them). */
const CHECK_AT = DECODING_PREFIX - 4;
/** UTF-16LE base64's check gram: its characters there stand for the value's 18th character, as CHECK_AT does for the others. */
const CHECK_AT_UTF16 = 48;
/**
 * How many patterns under one key make the check worth its reads (smaller groups verify each):
 * one value's own forms put up to 6 under its raw bytes' key (raw, raw-wrapped, json, url, \x).
 */
const CHECK_FROM = 12;
/**
 * The most input bytes a pattern of `len` bytes (a base64 one: characters) over a value of `raw`
 * bytes can span: one LF or CRLF between any two characters of a wrapping form (UTF-16LE base64's
 * at least UTF16_MIN_LINE characters apart after the first); JSON's `\u0041` for every byte.
 */
function spanOf(kind: number, len: number, raw: number, shape: number): number {
  switch (kind) {
    case EXACT:
      return len;
    case B64:
      return shape & B64_UTF16 ? len + 2 * (1 + Math.floor(Math.max(0, len - 2) / UTF16_MIN_LINE)) : 3 * len - 2;
    case HEX:
      return 2 * raw;
    case URL:
      return 3 * raw;
    case XESC:
      return 4 * raw;
    case HEXSEP:
      return 5 * raw - 3;
    case RAWW:
      return 3 * raw - 2;
    case HEXW:
      return 6 * raw - 2;
    default:
      return MAX_FORM_GROWTH * raw;
  }
}

const B64_STD = enc.encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const B64_URL = enc.encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
const EQ = 61; // '='
/** Hex digit values, 255 for anything else. */
const HEXVAL = new Uint8Array(256).fill(255);
for (let i = 0; i < 16; i++) {
  HEXVAL['0123456789abcdef'.charCodeAt(i)] = i;
  HEXVAL['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** Form names, indexed as the compile records them; PARTIAL is a name's slot for a cut-off form. */
const FORMS = [
  'raw',
  'base64',
  'base64url',
  'hex',
  'url',
  'json',
  'x-escape',
  'hex-separated',
  'base64-utf16le',
  'raw-wrapped',
  'hex-wrapped',
  'partial',
] as const;
const F_RAW = 0;
const F_B64 = 1;
const F_B64URL = 2;
const F_HEX = 3;
const F_URL = 4;
const F_JSON = 5;
const F_XESC = 6;
const F_HEXSEP = 7;
const F_B64_UTF16 = 8;
const F_RAWW = 9;
const F_HEXW = 10;
const F_PARTIAL = 11;

/**
 * The distinct byte strings of a compile (the values' raw bytes and every spelling of their
 * forms), written back to back into one growing buffer and deduplicated as they are added, so
 * compiling makes no garbage per form. The hash is seeded afresh for every compile, so values
 * chosen to collide can't be chosen once for all.
 */
class Strings {
  bytes = new Uint8Array(1 << 16);
  size = 0;
  count = 0;
  off = new Int32Array(1024);
  len = new Int32Array(1024);
  hash = new Int32Array(1024);
  /** Per string: RAW_ADDED, ESCAPES_ADDED, FORMS_DONE (on a value's raw bytes), FILTERED* (its grams are in the filter). */
  flags = new Uint8Array(1024);
  private table = new Int32Array(2048); // string id + 1, open addressing on the hash
  private readonly seed = (Math.random() * 2 ** 32) | 0;
  private mask = 2047;

  /** The id of src[from, to), added if new. */
  intern(src: Uint8Array, from: number, to: number): number {
    const n = to - from;
    let h = this.seed ^ n;
    let i = from;
    for (; i + 3 < to; i += 4) {
      h = Math.imul(h ^ (src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24)), GOLDEN);
      h ^= h >>> 15;
    }
    for (; i < to; i++) h = Math.imul(h ^ src[i], 0x01000193);
    h ^= h >>> 13;
    const { table, mask, bytes, off, len } = this;
    let at = h & mask;
    for (let e = table[at]; e !== 0; at = (at + 1) & mask, e = table[at]) {
      const id = e - 1;
      if (len[id] !== n) continue;
      const o = off[id];
      let i = 0;
      while (i < n && bytes[o + i] === src[from + i]) i++;
      if (i === n) return id;
    }
    if (this.size + n > bytes.length) {
      const grown = new Uint8Array(Math.max(2 * bytes.length, this.size + n));
      grown.set(bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    const into = this.bytes;
    if (n < 64) for (let i = 0; i < n; i++) into[this.size + i] = src[from + i];
    else into.set(src.subarray(from, to), this.size);
    const id = this.count++;
    if (id === this.off.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(2 * a.length);
        b.set(a);
        return b;
      };
      this.off = grow(this.off);
      this.len = grow(this.len);
      this.hash = grow(this.hash);
      this.flags = grow(this.flags);
    }
    this.off[id] = this.size;
    this.len[id] = n;
    this.hash[id] = h;
    this.size += n;
    table[at] = id + 1;
    if (2 * this.count > mask) this.rehash();
    return id;
  }

  private rehash(): void {
    const mask = 2 * this.mask + 1;
    const table = new Int32Array(mask + 1);
    for (let id = 0; id < this.count; id++) {
      let at = this.hash[id] & mask;
      while (table[at] !== 0) at = (at + 1) & mask;
      table[at] = id + 1;
    }
    this.table = table;
    this.mask = mask;
  }
}
/** On a value's raw bytes: its raw pattern was added. */
const RAW_ADDED = 1;
/** On a value's raw bytes: its JSON escapes' entries (`addEscapes`) are counted. */
const ESCAPES_ADDED = 2;
const FILTERED = 1 << 5;
const FILTERED_B64 = 1 << 6;
/** On a raw string: its value's encoded forms were added. */
const FORMS_DONE = 1 << 7;

/**
 * Characters [from, cut) of the base64 of `a` zero bytes followed by the value raw[o, o + n),
 * with padding, into b64Std[0, cut - from).
 */
function base64Into(raw: Uint8Array, o: number, n: number, a: number, from: number, cut: number): void {
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
const b64Std = new Uint8Array(DECODING_PREFIX);
const b64Url = new Uint8Array(DECODING_PREFIX);

const LOWER_HEX = enc.encode('0123456789abcdef');
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

/** The short escapes of Python's bytes repr: the byte each stands for, 0 for none. */
const PY_ESCAPE = new Uint8Array(256);
for (const [c, b] of [
  ['\\', 92],
  ["'", 39],
  ['t', 9],
  ['n', 10],
  ['r', 13],
] as const)
  PY_ESCAPE[c.charCodeAt(0)] = b;

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
const SHORT_ESCAPE = new Uint8Array(256);
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
function encodedForms(raw: Uint8Array, o: number, n: number, rawId: number, s: Strings, out: number[]): void {
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

// ── Tables ─────────────────────────────────────────────────────────────────────────────

interface Tables {
  count: number; // patterns
  pat: Uint8Array; // every distinct pattern's bytes (and every value's raw bytes), back to back
  off: Int32Array;
  len: Int32Array;
  kind: Uint8Array;
  raw: Int32Array; // pattern → offset of its value's raw bytes in `pat`
  rawLen: Int32Array;
  slot: Int32Array; // pattern → index into slots (one per name and form)
  partial: Int32Array; // pattern → its name's `partial` slot
  b64: Uint8Array; // a base64 pattern's shape: its alignment (B64_ALIGN), alphabet and padding
  slots: { name: string; form: string }[];
  rep: Uint8Array[]; // slot → replacement
  // Sampling filter on the folded 4 bytes at x. `bloom` (a bitset small enough to stay in cache):
  // may any pattern have them among its first `step` grams? If so, bit o of gram[hash] and of
  // gram2[hash2] (independent hashes): may a pattern have them at offset o? Only then is x - o a
  // candidate start. Bit 16 + o: may a base64 pattern have them at an offset below o, line breaks
  // making up the difference (then x - o is a candidate if a break lies between it and x).
  step: number;
  bloom: Int32Array;
  /**
   * Base64 split within its first `step + 3` bytes, for a sample holding a line break: the 4 characters
   * after a break as a pattern's characters at offsets 1 and on (bits by GOLDEN3 and GOLDEN4), or,
   * when fewer than 4 of its characters follow, the 4 before the break (GOLDEN and GOLDEN5).
   */
  breaks: Int32Array;
  breakShift: number;
  /** `breaks` for the 4 characters before a break, where fewer follow it in a short pattern: few entries, so a bitset of its own. */
  breaksAhead: Int32Array;
  aheadShift: number;
  /**
   * JSON escapes, for a sample at or just after a backslash (`mayEscape`): every value's 4-grams at
   * 0..step+2, two bits each (GOLDEN3, GOLDEN4), which the bytes an escape decodes to must start.
   */
  escapes: Int32Array;
  escapeShift: number;
  /** Whether a value is short enough (under step + 6 bytes) that an escape near its end may hold too few bytes after it. */
  escapeBack: boolean;
  bloomShift: number;
  gram: Int32Array;
  gram2: Int32Array;
  gramShift: number;
  /**
   * The two characters either side of a line break within a wrapping pattern's first `step + 3`
   * bytes, folded, as a bit per pair (`mayBreak` reads it first: 8 KiB, where `breaks` is 256).
   */
  pairs: Int32Array;
  // Verification: the key of a start (its first 8 folded bytes, 12 after `\u00`) → patterns.
  keys: Int32Array;
  /** A bit per key (hashed to 16 bits): most starts the filter passes have none, found here in 8 KiB. */
  keyBloom: Int32Array;
  keyFrom: Int32Array; // -1 = empty slot
  keyTo: Int32Array;
  keyMask: number;
  /** Where a group's patterns with a check gram start (`longestIn`). */
  keyMid: Int32Array;
  list: Int32Array;
  /** Longest span of any pattern in input bytes. */
  horizon: number;
  /** The longest any form spans escaped once more in a JSON string (`JSON_GROWTH` × horizon): the stream horizon H. */
  reach: number;
  /** Whether every value, so every pattern, is ASCII: a string is then scanned as it is (`scanText`). */
  ascii: boolean;
  /**
   * Pattern → its check gram (`longestIn`), where `checked`: for a class told apart BY_VALUE its
   * value's 4 bytes at CHECK_AT, for the others its own 4 bytes there (CHECK_AT_UTF16), folded.
   */
  check: Int32Array;
  checked: Uint8Array;
  /** Pattern → its CHECK_CLASS. */
  checkClass: Uint8Array;
}

function pow2Bits(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));
}

const gramAt = (d: Uint8Array, i: number) => d[i] | (d[i + 1] << 8) | (d[i + 2] << 16) | (d[i + 3] << 24) | FOLD;
/** The 4 bytes at i as they are (a value's, unfolded). */
const wordAt = (d: Uint8Array, i: number) => d[i] | (d[i + 1] << 8) | (d[i + 2] << 16) | (d[i + 3] << 24);
/** `\u00`, folded: starts whose key reads 12 bytes (every JSON escape of ASCII begins so). */
const U00 = gramAt(enc.encode('\\u00'), 0);
const mixKey = (a: number, b: number, c: number) => {
  let h = Math.imul(a, GOLDEN) ^ b;
  h = Math.imul(h ^ (h >>> 15), GOLDEN2) ^ c;
  return Math.imul(h ^ (h >>> 13), GOLDEN3) ^ (h >>> 16);
};
const isLong = (d: Uint8Array, o: number, len: number) => len >= 12 && gramAt(d, o) === U00;
const keyOfPattern = (d: Uint8Array, o: number, len: number) => mixKey(gramAt(d, o), gramAt(d, o + 4), isLong(d, o, len) ? gramAt(d, o + 8) : 0);

/** The filter's tables as `build` fills them. */
interface Filling {
  pat: Uint8Array;
  step: number;
  b64Bits: Int32Array;
  bloom: Int32Array;
  bloomShift: number;
  gram: Int32Array;
  gram2: Int32Array;
  gramShift: number;
  breaks: Int32Array;
  breakShift: number;
  breaksAhead: Int32Array;
  aheadShift: number;
  escapes: Int32Array;
  escapeShift: number;
  pairs: Int32Array;
  keys: Int32Array;
  keyBloom: Int32Array;
  keyFrom: Int32Array;
  keyTo: Int32Array;
  keyMask: number;
}

/**
 * A pattern's grams into the filter: those at 0..step-1 into the bloom and the offset tables; a
 * base64 pattern's at 1..step+2 also into `breaks` (the 4 characters after a break at k where they
 * fit, else the 4 before it). Small, so it is compiled early even in the first compile.
 */
function addGrams(t: Filling, o: number, len: number, b64: boolean): void {
  const { pat, step, bloomShift, gramShift, breakShift, bloom, gram, gram2, breaks } = t;
  const fit = b64 ? Math.min(step + 2, len - 4) : step - 1;
  let w = (pat[o] << 8) | (pat[o + 1] << 16) | (pat[o + 2] << 24);
  for (let g = 0; g <= fit; g++) {
    w = (w >>> 8) | (pat[o + g + 3] << 24);
    const v = w | FOLD;
    if (g < step) {
      const b = Math.imul(v, GOLDEN3) >>> bloomShift;
      bloom[b >>> 5] |= 1 << (b & 31);
      const bits = b64 ? t.b64Bits[g] : 1 << g;
      gram[Math.imul(v, GOLDEN) >>> gramShift] |= bits;
      gram2[Math.imul(v, GOLDEN2) >>> gramShift] |= bits;
    }
    if (b64 && g > 0) {
      const b = Math.imul(v, GOLDEN3) >>> breakShift;
      const c = Math.imul(v, GOLDEN4) >>> breakShift;
      breaks[b >>> 5] |= 1 << (b & 31);
      breaks[c >>> 5] |= 1 << (c & 31);
    }
  }
  if (!b64) return;
  for (let k = 1; k < step + 3 && k < len; k++) {
    const pair = ((pat[o + k - 1] | 0x20) << 8) | (pat[o + k] | 0x20);
    t.pairs[pair >>> 5] |= 1 << (pair & 31);
  }
  for (let k = fit + 1; k < step + 3; k++) setPair(t.breaksAhead, t.aheadShift, gramAt(pat, o + k - 4), GOLDEN, GOLDEN5);
}

/** Sets the two bits of a folded gram in a two-bit filter (`breaks`, `escapes`). */
function setPair(bits: Int32Array, shift: number, v: number, h1: number, h2: number): void {
  const b = Math.imul(v, h1) >>> shift;
  const c = Math.imul(v, h2) >>> shift;
  bits[b >>> 5] |= 1 << (b & 31);
  bits[c >>> 5] |= 1 << (c & 31);
}
const pairHas = (bits: Int32Array, shift: number, v: number, h1: number, h2: number) => {
  const b = Math.imul(v, h1) >>> shift;
  const c = Math.imul(v, h2) >>> shift;
  return (bits[b >>> 5] & (1 << (b & 31))) !== 0 && (bits[c >>> 5] & (1 << (c & 31))) !== 0;
};

/** Offset bits 16 + o for o from `from` to step - 1 (a gram that breaks or escapes before it shifted there). */
const shiftedFrom = (from: number, step: number) => (from >= step ? 0 : ((1 << step) - (1 << from)) << 16);

/** Reused for an escape and the value's bytes after it. */
const TAIL = new Uint8Array(20);

/**
 * A value's entries for JSON with `\uXXXX` (or a short escape) for any character anywhere
 * (docs/scrubber.md, Design, 6). A sample inside an escape reads none of the value's bytes: so
 * for each character that starts before `step - 1`, the 4 bytes at 1 and on into each of its
 * escapes (not holding a backslash, which the scan meets itself), followed by the value's bytes,
 * go into the filter under every offset from where they would stand with nothing escaped before
 * them (on the condition that an escape lies between the start and the sample). And the value's
 * grams at 0..step+2 go into the escape filter.
 */
function addEscapes(t: Filling, o: number, n: number): void {
  const { pat, step, bloom, bloomShift, gram, gram2, gramShift } = t;
  for (let k = 0; k + 4 <= n && k <= step + 2; k++) setPair(t.escapes, t.escapeShift, gramAt(pat, o + k), GOLDEN3, GOLDEN4);
  for (let i = o, q = 0; q + 1 < step && i < o + n; ) {
    const b = pat[i];
    const size = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    let cp = size === 1 ? b : b & (0x7f >> size);
    for (let k = 1; k < size; k++) cp = (cp << 6) | (pat[i + k] & 63);
    for (let e = 0; e < 2; e++) {
      let len = 0;
      if (e === 1) {
        const short = size === 1 ? (b === 47 ? 47 : SHORT_ESCAPE[b]) : 0;
        if (short === 0) continue;
        TAIL[0] = 92;
        TAIL[1] = short;
        len = 2;
      } else if (cp > 0xffff) {
        len = tailU(tailU(0, 0xd800 + ((cp - 0x10000) >> 10)), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      } else len = tailU(0, cp);
      const after = Math.min(3, o + n - i - size);
      for (let j = 0; j < after; j++) TAIL[len + j] = pat[i + size + j];
      for (let at = 1; at + 4 <= len + after && q + at < step; at++) {
        if (TAIL[at] === 92 || TAIL[at + 1] === 92 || TAIL[at + 2] === 92 || TAIL[at + 3] === 92) continue;
        const v = gramAt(TAIL, at);
        const bits = shiftedFrom(q + at, step);
        const h = Math.imul(v, GOLDEN3) >>> bloomShift;
        bloom[h >>> 5] |= 1 << (h & 31);
        gram[Math.imul(v, GOLDEN) >>> gramShift] |= bits;
        gram2[Math.imul(v, GOLDEN2) >>> gramShift] |= bits;
      }
    }
    i += size;
    q += size;
  }
}

/** `\uXXXX` (lower-case hex) into TAIL at k; answers the index after it. */
function tailU(k: number, code: number): number {
  TAIL[k++] = 92;
  TAIL[k++] = 117;
  for (let shift = 12; shift >= 0; shift -= 4) TAIL[k++] = LOWER_HEX[(code >> shift) & 15];
  return k;
}

/** Counts a pattern under key k in the open-addressed key table; returns its slot. */
function addKey(t: Filling, k: number): number {
  const { keys, keyFrom, keyTo, keyMask } = t;
  const b = Math.imul(k, GOLDEN5) >>> 16;
  t.keyBloom[b >>> 5] |= 1 << (b & 31);
  let h = k & keyMask;
  while (keyFrom[h] !== -1 && keys[h] !== k) h = (h + 1) & keyMask;
  keys[h] = k;
  keyFrom[h] = 0;
  keyTo[h]++;
  return h;
}

/** Each string's UTF-8, as views of one buffer. */
function encodeAll(strings: string[]): Uint8Array[] {
  const joined = strings.join('');
  const bytes = enc.encode(joined);
  if (bytes.length !== joined.length) return strings.map((r) => enc.encode(r));
  let at = 0;
  return strings.map((r) => bytes.subarray(at, (at += r.length)));
}

function build(values: readonly ScrubValue[]): Tables {
  const s = new Strings();
  const pBytes: number[] = [];
  const pKind: number[] = [];
  const pRaw: number[] = [];
  const pSlot: number[] = [];
  const pPartial: number[] = [];
  const pShape: number[] = []; // a base64 pattern's shape (B64_* bits, its length << 4)
  const slots: { name: string; form: string }[] = [];
  // Slot → the text that replaces its matches: a name's `partial` slot and every encoded form's
  // `[redacted:NAME]` (one shared array), a `raw` slot the placeholder. Encoded together at the end.
  const repText: string[] = [];
  const repOf: number[] = []; // slot → the slot whose text it shares
  // Per name (by first appearance), its slot per form, -1 for none yet: the first value of a name
  // decides its replacements.
  const nameIndex = new Map<string, number>();
  const slotOf = new Int32Array(values.length * FORMS.length).fill(-1);
  const rawIds = values.map((v, i) => {
    // The name, never the value, goes into the message.
    // UTF-8 takes at least a byte per code unit: a longer string isn't encoded at all.
    const size = v.value.length > MAX_VALUE_BYTES ? Infinity : encodeIntoScratch(v.value);
    if (size < MIN_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is shorter than ${MIN_VALUE_BYTES} bytes`);
    if (size > MAX_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is longer than 1 MiB`);
    return s.intern(scratch, 0, size);
  });
  /** Where a name's slots are in `slotOf`, its `partial` slot made with it. */
  const nameAt = (name: string) => {
    let at = nameIndex.get(name);
    if (at === undefined) {
      nameIndex.set(name, (at = nameIndex.size * FORMS.length));
      slotOf[at + F_PARTIAL] = slots.push({ name, form: 'partial' }) - 1;
      repOf.push(repText.push(`[redacted:${name}]`) - 1);
    }
    return at;
  };
  const add = (bytes: number, kind: number, v: number, at: number, form: number, shape: number, rawId: number) => {
    const name = values[v].name;
    let slot = slotOf[at + form];
    if (slot < 0) {
      slotOf[at + form] = slot = slots.push({ name, form: FORMS[form] }) - 1;
      repOf.push(form === F_RAW ? repText.push(values[v].placeholder) - 1 : repOf[slotOf[at + F_PARTIAL]]);
    }
    pBytes.push(bytes);
    pKind.push(kind);
    pRaw.push(rawId >= 0 ? rawId : rawIds[v]);
    pSlot.push(slot);
    pPartial.push(slotOf[at + F_PARTIAL]);
    pShape.push(shape);
  };
  // Raw forms first, so a value that is also another's encoded form comes back as its placeholder.
  for (let v = 0; v < values.length; v++) {
    if (s.flags[rawIds[v]] & RAW_ADDED) continue;
    s.flags[rawIds[v]] |= RAW_ADDED;
    add(rawIds[v], EXACT, v, nameAt(values[v].name), F_RAW, 0, -1);
  }
  const forms: number[] = [];
  const decoding: number[] = []; // this value's decoding patterns so far: string id × 8 + kind
  for (let v = 0; v < values.length; v++) {
    // A value met before (under any name) has all its patterns already.
    if (s.flags[rawIds[v]] & FORMS_DONE) continue;
    s.flags[rawIds[v]] |= FORMS_DONE;
    forms.length = 0;
    decoding.length = 0;
    encodedForms(s.bytes, s.off[rawIds[v]], s.len[rawIds[v]], rawIds[v], s, forms);
    const at = nameAt(values[v].name);
    for (let f = 0; f < forms.length; f += 5) {
      const kind = forms[f + 1];
      const bytes = forms[f + 2];
      // A decoding pattern is its kind, its value and its first bytes (what the filter and the key
      // read); a base64 one also its shape, and every shape of a value comes once.
      if (kind !== B64) {
        const id = bytes * 16 + kind;
        if (decoding.includes(id)) continue;
        decoding.push(id);
      }
      add(bytes, kind, v, at, forms[f], forms[f + 3], forms[f + 4]);
    }
  }

  const pat = s.bytes.slice(0, s.size);
  let ascii = true;
  for (let i = 0; i < pat.length && ascii; i++) ascii = pat[i] < 0x80;
  const texts = encodeAll(repText);
  const rep = repOf.map((k) => texts[k]);
  const count = pBytes.length;
  const off = new Int32Array(count);
  const len = new Int32Array(count);
  const kind = Uint8Array.from(pKind);
  const raw = new Int32Array(count);
  const rawLen = new Int32Array(count);
  const slot = Int32Array.from(pSlot);
  const partial = Int32Array.from(pPartial);
  const b64 = new Uint8Array(count);
  let minLen = Infinity;
  let horizon = 0;
  for (let i = 0; i < count; i++) {
    off[i] = s.off[pBytes[i]];
    len[i] = kind[i] === B64 ? pShape[i] >> B64_LENGTH : s.len[pBytes[i]];
    b64[i] = pShape[i] & ((1 << B64_LENGTH) - 1);
    raw[i] = s.off[pRaw[i]];
    rawLen[i] = s.len[pRaw[i]];
    minLen = Math.min(minLen, len[i]);
    horizon = Math.max(horizon, spanOf(kind[i], len[i], rawLen[i], b64[i]));
  }

  const check = new Int32Array(count);
  const checked = new Uint8Array(count);
  const checkClass = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const c = (checkClass[i] = kind[i] === B64 && b64[i] & B64_UTF16 ? CHECK_UTF16 : CHECK_CLASS[kind[i]]);
    if (c === CHECK_UTF16) {
      // Spelled from the value: the pattern keeps only its first DECODING_PREFIX characters.
      if (len[i] < CHECK_AT_UTF16 + 4) continue;
      const a = b64[i] & B64_ALIGN;
      const from = Math.ceil((8 * a) / 6) + CHECK_AT_UTF16;
      base64Into(pat, raw[i], rawLen[i], a, from, from + 4);
      checked[i] = 1;
      check[i] = gramAt(b64Std, 0);
      continue;
    }
    const decoded = ((BY_VALUE >> c) & 1) === 1;
    if ((decoded ? rawLen[i] : s.len[pBytes[i]]) < CHECK_AT + 4) continue;
    checked[i] = 1;
    check[i] = decoded ? wordAt(pat, raw[i] + CHECK_AT) : gramAt(pat, off[i] + CHECK_AT);
  }

  // Every start s has a sample in [s, s + step); a pattern has its grams at offsets 0..step-1.
  const step = count ? Math.min(MAX_STEP, minLen - 3) : 1;
  const gramBits = Math.min(GRAM_MAX_BITS, Math.max(12, pow2Bits(count * step * 8)));
  const gram = new Int32Array(1 << gramBits);
  const gram2 = new Int32Array(1 << gramBits);
  const bloomBits = Math.min(BLOOM_MAX_BITS, Math.max(10, pow2Bits(count * step * BLOOM_BITS_PER_GRAM)));
  const bloom = new Int32Array(1 << (bloomBits - 5));
  const bloomShift = 32 - bloomBits;
  let wrapCount = 0;
  for (let i = 0; i < count; i++) wrapCount += (WRAPPING >> kind[i]) & 1;
  // Two bits per entry, so a text whose lines all end and begin alike rarely passes by chance.
  const breakBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(wrapCount * (step + 2) * 2 * BLOOM_BITS_PER_GRAM)));
  const breaks = new Int32Array(1 << (breakBits - 5));
  const breakShift = 32 - breakBits;
  // The 4 characters before a break, for breaks at `fit + 1` and on (`addGrams`): patterns under `step + 7` long.
  let aheadCount = 0;
  for (let i = 0; i < count; i++) if ((WRAPPING >> kind[i]) & 1) aheadCount += Math.max(0, step + 6 - len[i]);
  const aheadBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(aheadCount * 2 * BLOOM_BITS_PER_GRAM)));
  const distinct: number[] = [];
  for (const id of rawIds) {
    if (s.flags[id] & ESCAPES_ADDED) continue;
    s.flags[id] |= ESCAPES_ADDED;
    distinct.push(id);
  }
  const escapeBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(distinct.length * (step + 3) * 2 * BLOOM_BITS_PER_GRAM)));
  const escapes = new Int32Array(1 << (escapeBits - 5));
  let escapeBack = false;
  for (const id of distinct) escapeBack ||= s.len[id] < step + 6;
  const gramShift = 32 - gramBits;
  // Verification table, open addressing on the start's key.
  const keyBits = pow2Bits(count * 2);
  const keys = new Int32Array(1 << keyBits);
  const keyFrom = new Int32Array(1 << keyBits).fill(-1);
  const keyTo = new Int32Array(1 << keyBits);
  const keyMask = (1 << keyBits) - 1;
  const keyOf = new Int32Array(count);
  // The offset bits of a base64 pattern's gram at g: g, and 16 + o for each o above g (line
  // breaks of o - g bytes before it, after at least its first character).
  const b64Bits = new Int32Array(step);
  for (let g = 0; g < step; g++) {
    b64Bits[g] = 1 << g;
    if (g > 0) for (let o = g + 1; o < step; o++) b64Bits[g] |= 1 << (16 + o);
  }
  const t = {
    pat,
    step,
    pairs: new Int32Array(1 << 11),
    keyBloom: new Int32Array(1 << 11),
    b64Bits,
    bloom,
    bloomShift,
    gram,
    gram2,
    gramShift,
    breaks,
    breakShift,
    breaksAhead: new Int32Array(1 << (aheadBits - 5)),
    aheadShift: 32 - aheadBits,
    escapes,
    escapeShift: 32 - escapeBits,
    keys,
    keyFrom,
    keyTo,
    keyMask,
  };
  if (count) for (const id of distinct) addEscapes(t, s.off[id], s.len[id]);
  for (let i = 0; i < count; i++) {
    // The same bytes give the same entries.
    const wrapping = ((WRAPPING >> kind[i]) & 1) === 1;
    const filtered = wrapping ? FILTERED_B64 : FILTERED;
    if (!(s.flags[pBytes[i]] & filtered)) {
      s.flags[pBytes[i]] |= filtered;
      addGrams(t, off[i], len[i], wrapping);
    }
    keyOf[i] = addKey(t, keyOfPattern(pat, off[i], len[i]));
  }
  // Group the patterns by key (counting sort), each group in pattern order (raw forms first).
  let at = 0;
  for (let h = 0; h < keys.length; h++) {
    if (keyFrom[h] === -1) continue;
    keyFrom[h] = at;
    at += keyTo[h];
    keyTo[h] = keyFrom[h];
  }
  const list = new Int32Array(count);
  for (let i = 0; i < count; i++) list[keyTo[keyOf[i]]++] = i;
  // A group of CHECK_FROM patterns and more: those without a check gram first, in pattern order,
  // then those with one, by class and check gram, so a start verifies only those whose gram it has.
  // (Patterns with the same class and gram are all verified, the earliest kept on a tie, so their
  // order among themselves doesn't matter.)
  const keyMid = Int32Array.from(keyTo);
  let order: Float64Array | null = null;
  for (let h = 0; h < keys.length; h++) {
    if (keyFrom[h] === -1 || keyTo[h] - keyFrom[h] < CHECK_FROM) continue;
    if (order === null) {
      order = new Float64Array(count);
      for (let p = 0; p < count; p++) order[p] = checkClass[p] * 2 ** 32 + check[p] + 2 ** 31;
    }
    const sortKey = order;
    const group = list.slice(keyFrom[h], keyTo[h]);
    let w = keyFrom[h];
    for (const p of group) if (checked[p] === 0) list[w++] = p;
    keyMid[h] = w;
    for (const p of group) if (checked[p] === 1) list[w++] = p;
    list.subarray(keyMid[h], w).sort((a, b) => sortKey[a] - sortKey[b]);
  }
  return {
    count,
    pat,
    off,
    len,
    kind,
    raw,
    rawLen,
    slot,
    partial,
    b64,
    slots,
    rep,
    step,
    bloom,
    bloomShift,
    breaks,
    breakShift,
    breaksAhead: t.breaksAhead,
    aheadShift: t.aheadShift,
    escapes,
    escapeShift: t.escapeShift,
    escapeBack,
    pairs: t.pairs,
    keyBloom: t.keyBloom,
    gram,
    gram2,
    gramShift,
    keys,
    keyFrom,
    keyTo,
    keyMid,
    keyMask,
    list,
    horizon,
    reach: JSON_GROWTH * horizon,
    ascii,
    check,
    checked,
    checkClass,
  };
}

/** Every typed array of the tables but the replacements. */
const typedArraysOf = (t: Tables) => [
  t.pat,
  t.off,
  t.len,
  t.kind,
  t.raw,
  t.rawLen,
  t.slot,
  t.partial,
  t.b64,
  t.bloom,
  t.breaks,
  t.breaksAhead,
  t.escapes,
  t.pairs,
  t.keyBloom,
  t.gram,
  t.gram2,
  t.keys,
  t.keyFrom,
  t.keyTo,
  t.keyMid,
  t.list,
  t.check,
  t.checked,
  t.checkClass,
];

function tableBytes(t: Tables): number {
  return typedArraysOf(t).reduce((n, a) => n + a.byteLength, 0) + t.rep.reduce((n, r) => n + r.byteLength, 0);
}

// ── Verification ───────────────────────────────────────────────────────────────────────

/** The end of pattern p matched at s in d[0, n), or -1. */
function verify(t: Tables, p: number, d: Uint8Array, s: number, n: number): number {
  const { pat } = t;
  switch (t.kind[p]) {
    case EXACT: {
      const o = t.off[p] - s;
      const end = s + t.len[p];
      if (end > n) return -1;
      for (let i = s; i < end; i++) if (d[i] !== pat[o + i]) return -1;
      return end;
    }
    case B64: {
      const shape = t.b64[p];
      const a = shape & B64_ALIGN;
      const chars = shape & B64_URL_ALPHABET ? B64_URL : B64_STD;
      const r = t.raw[p];
      const size = t.rawLen[p];
      const total = size + a;
      const from = Math.ceil((8 * a) / 6);
      // UTF-16LE's lines: after its first line break, at least UTF16_MIN_LINE characters each.
      const minLine = shape & B64_UTF16 ? UTF16_MIN_LINE : 0;
      let line = minLine; // the first line may be shorter: the value sits anywhere in a blob
      let v = 0;
      let i = s;
      for (let c = from, end = from + t.len[p]; c < end; c++, i++, line++) {
        if (c > from && i < n && (d[i] === 10 || d[i] === 13)) {
          if (line < minLine) return -1;
          i = skipBreak(d, i, n);
          line = 0;
        }
        if (i >= n) return -1;
        // Character c of base64(a zero bytes, then the value), group by group.
        const pos = c & 3;
        const at = c - pos - (c >> 2); // 3 × the group, the group's first byte after the zeros
        if (pos === 0 || c === from) {
          const j = r + at - a;
          v = ((at >= a ? pat[j] : 0) << 16) | (at + 1 >= a && at + 1 < total ? pat[j + 1] << 8 : 0) | (at + 2 < total ? pat[j + 2] : 0);
        }
        const expected = (pos === 2 && at + 1 >= total) || (pos === 3 && at + 2 >= total) ? EQ : chars[(v >> (18 - 6 * pos)) & 63];
        if (d[i] !== expected) return -1;
      }
      return i;
    }
    case HEX: {
      const o = t.raw[p];
      const end = s + 2 * t.rawLen[p];
      if (end > n) return -1;
      for (let i = s, j = o; i < end; i += 2, j++) {
        const hi = HEXVAL[d[i]];
        const lo = HEXVAL[d[i + 1]];
        if (hi === 255 || lo === 255 || ((hi << 4) | lo) !== pat[j]) return -1;
      }
      return end;
    }
    case URL: {
      let i = s;
      for (let j = t.raw[p], end = j + t.rawLen[p]; j < end; j++) {
        if (i >= n) return -1;
        const b = urlByte(d, i, n);
        i = unitEnd;
        if (b !== pat[j]) return -1;
      }
      return i;
    }
    case XESC: {
      let i = s;
      for (let j = t.raw[p], end = j + t.rawLen[p]; j < end; j++) {
        if (i >= n) return -1;
        const b = xescByte(d, i, n);
        i = unitEnd;
        if (b !== pat[j]) return -1;
      }
      return i;
    }
    case HEXSEP: {
      // `od -An -tx1` ends a line after 16 bytes and starts the next with the separator: "4c\n 79".
      const sep = pat[t.off[p] + 2];
      let i = s;
      for (let j = t.raw[p], end = j + t.rawLen[p]; j < end; j++) {
        if (j > t.raw[p]) {
          if (i < n && d[i] !== sep) i = skipBreak(d, i, n);
          if (i >= n || d[i++] !== sep) return -1;
        }
        if (i + 1 >= n) return -1;
        const hi = HEXVAL[d[i]];
        const lo = HEXVAL[d[i + 1]];
        if (hi === 255 || lo === 255 || ((hi << 4) | lo) !== pat[j]) return -1;
        i += 2;
      }
      return i;
    }
    case RAWW: {
      let i = s;
      for (let j = t.raw[p], end = j + t.rawLen[p]; j < end; j++, i++) {
        if (i < n && d[i] !== pat[j] && j > t.raw[p]) i = skipBreak(d, i, n);
        if (i >= n || d[i] !== pat[j]) return -1;
      }
      return i;
    }
    case HEXW: {
      let i = s;
      for (let j = t.raw[p], end = j + t.rawLen[p]; j < end; j++) {
        if (j > t.raw[p]) i = skipBreak(d, i, n);
        if (i >= n) return -1;
        const hi = HEXVAL[d[i]];
        i = skipBreak(d, i + 1, n);
        if (i >= n) return -1;
        const lo = HEXVAL[d[i++]];
        if (hi === 255 || lo === 255 || ((hi << 4) | lo) !== pat[j]) return -1;
      }
      return i;
    }
    default:
      return verifyJson(pat, t.raw[p], t.rawLen[p], d, s, n);
  }
}

/** Four hex digits at i as a number, or -1. */
function hexAt(d: Uint8Array, i: number, n: number): number {
  if (i + 4 > n) return -1;
  const a = HEXVAL[d[i]];
  const b = HEXVAL[d[i + 1]];
  const c = HEXVAL[d[i + 2]];
  const e = HEXVAL[d[i + 3]];
  return (a | b | c | e) > 15 ? -1 : (a << 12) | (b << 8) | (c << 4) | e;
}

/** Where the unit `urlByte` or `jsonEscape` read ends. */
let unitEnd = 0;
/** A code point's UTF-8, for comparing an escape with a value's bytes. */
const UNIT = new Uint8Array(4);

/** A line break (LF, CRLF or a lone CR) at i skipped, as base64 verification skips one before a character. */
const skipBreak = (d: Uint8Array, i: number, n: number) => (d[i] === 10 ? i + 1 : d[i] === 13 ? (i + 1 < n && d[i + 1] === 10 ? i + 2 : i + 1) : i);
/** Whether a lone CR (a line break of its own, as progress output writes one) is at i. */
const loneCr = (d: Uint8Array, i: number, n: number) => d[i] === 13 && (i + 1 >= n || d[i + 1] !== 10);

/** The byte that url form's unit at i stands for (`%XX` in either case, `+` for a space, else itself); sets `unitEnd`. */
function urlByte(d: Uint8Array, i: number, n: number): number {
  const b = d[i];
  unitEnd = i + 1;
  if (b === 43) return 32;
  if (b !== 37 || i + 2 >= n || HEXVAL[d[i + 1]] === 255 || HEXVAL[d[i + 2]] === 255) return b;
  unitEnd = i + 3;
  return (HEXVAL[d[i + 1]] << 4) | HEXVAL[d[i + 2]];
}

/** The byte that the \x form's unit at i stands for (`\xXX` in either case, else itself); sets `unitEnd`. */
function xescByte(d: Uint8Array, i: number, n: number): number {
  const b = d[i];
  unitEnd = i + 1;
  if (b !== 92 || i + 1 >= n) return b;
  const short = PY_ESCAPE[d[i + 1]];
  if (short !== 0) {
    unitEnd = i + 2;
    return short;
  }
  if (i + 3 >= n || d[i + 1] !== 120 || HEXVAL[d[i + 2]] === 255 || HEXVAL[d[i + 3]] === 255) return b;
  unitEnd = i + 4;
  return (HEXVAL[d[i + 2]] << 4) | HEXVAL[d[i + 3]];
}

/**
 * The code point of the JSON escape at i (a `\` there): a short escape, `\uXXXX` in either case, or
 * a surrogate pair of them; -1 where it isn't a valid one. Sets `unitEnd`.
 */
function jsonEscape(d: Uint8Array, i: number, n: number): number {
  if (i + 1 >= n) return -1;
  const e = d[i + 1];
  if (e !== 117) {
    unitEnd = i + 2;
    return JSON_ESCAPE[e] === 0 ? -1 : JSON_ESCAPE[e];
  }
  let cp = hexAt(d, i + 2, n);
  if (cp < 0 || (cp >= 0xdc00 && cp < 0xe000)) return -1;
  unitEnd = i + 6;
  if (cp >= 0xd800 && cp < 0xdc00) {
    if (i + 7 >= n || d[i + 6] !== 92 || d[i + 7] !== 117) return -1;
    const lo = hexAt(d, i + 8, n);
    if (lo < 0xdc00 || lo >= 0xe000) return -1;
    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    unitEnd = i + 12;
  }
  return cp;
}

/** JSON string content at s decoding to pat[j, j + len): its end, or -1. */
function verifyJson(pat: Uint8Array, j: number, len: number, d: Uint8Array, s: number, n: number): number {
  const end = j + len;
  let i = s;
  while (j < end) {
    if (i >= n) return -1;
    const c = d[i];
    if (c !== 92) {
      if (c !== pat[j]) return -1;
      i++;
      j++;
      continue;
    }
    const cp = jsonEscape(d, i, n);
    if (cp < 0) return -1;
    i = unitEnd;
    // The code point's UTF-8 bytes against the value's.
    const k = utf8Into(UNIT, 0, cp);
    if (j + k > end) return -1;
    for (let q = 0; q < k; q++) if (UNIT[q] !== pat[j + q]) return -1;
    j += k;
  }
  return i;
}

// ── Matching ───────────────────────────────────────────────────────────────────────────

/** Where the bucket for key k starts in `list`, or -1. */
function bucket(t: Tables, k: number): number {
  const { keys, keyFrom, keyMask } = t;
  const b = Math.imul(k, GOLDEN5) >>> 16;
  if ((t.keyBloom[b >>> 5] & (1 << (b & 31))) === 0) return -1;
  let h = k & keyMask;
  while (keyFrom[h] !== -1 && keys[h] !== k) h = (h + 1) & keyMask;
  return keyFrom[h] === -1 ? -1 : h;
}

/**
 * The longest match starting at s within d[0, n) of the patterns under key k (only those of the
 * kinds in the mask `only`, when it isn't 0): its pattern into best[0] and end into best[1], or false.
 */
function longestIn(t: Tables, k: number, d: Uint8Array, s: number, n: number, only: number, best: Int32Array): boolean {
  const h = bucket(t, k);
  if (h < 0) return false;
  const { list } = t;
  const mid = t.keyMid[h];
  const to = t.keyTo[h];
  let found = false;
  for (let j = t.keyFrom[h]; j < mid; j++) found = consider(t, list[j], d, s, n, only, best, found);
  if (mid === to) return found;
  // Many patterns under one key (values sharing a prefix, as one vendor's keys do): of a class,
  // only those with the input's check gram can match; a class the input can't match is passed.
  for (let j = mid; j < to; ) {
    const c = t.checkClass[list[j]];
    const end = firstWhere(j, to, (i) => t.checkClass[list[i]] > c);
    const check = checkOf(c, d, s, n);
    if (check !== null) {
      j = firstWhere(j, end, (i) => t.check[list[i]] >= check);
      for (; j < end && t.check[list[j]] === check; j++) found = consider(t, list[j], d, s, n, only, best, found);
    }
    j = end;
  }
  return found;
}

/** Bytes 0 to CHECK_AT_UTF16 + 4 of what a class reads at a start. */
const READ = new Uint8Array(CHECK_AT_UTF16 + 8);

/**
 * The check gram of the input at s for a class (CHECK_CLASS), read as its patterns' verification
 * reads it; null where no pattern of the class can match there.
 */
function checkOf(c: number, d: Uint8Array, s: number, n: number): number | null {
  const at = c === CHECK_UTF16 ? CHECK_AT_UTF16 : CHECK_AT;
  const want = at + 4;
  if (c === 0) return s + want <= n ? gramAt(d, s + CHECK_AT) : null;
  // Separated hex's separator, after the line break `od` may end a line with.
  const sep = c === 6 ? d[skipBreak(d, s + 2, n)] : 0;
  if (c === 6 && sep !== 32 && sep !== 58 && sep !== 45) return null;
  let i = s;
  for (let k = 0; k < want; ) {
    if (k > 0 && (c === 3 || c === 5 || c === CHECK_UTF16) && i < n) i = skipBreak(d, i, n);
    if (i >= n) return null;
    if (c === 3 || c === CHECK_UTF16) {
      READ[k++] = d[i++];
    } else if (c === 5 || c === 6) {
      if (c === 6 && k > 0) {
        if (i < n && d[i] !== sep) i = skipBreak(d, i, n);
        if (i >= n || d[i++] !== sep) return null;
      }
      const hi = i < n ? HEXVAL[d[i]] : 255;
      i = c === 5 ? skipBreak(d, i + 1, n) : i + 1;
      const lo = i < n ? HEXVAL[d[i++]] : 255;
      if ((hi | lo) > 15) return null;
      READ[k++] = (hi << 4) | lo;
    } else if (c === 1) {
      READ[k++] = urlByte(d, i, n);
      i = unitEnd;
    } else if (c === 4) {
      READ[k++] = xescByte(d, i, n);
      i = unitEnd;
    } else if (d[i] !== 92) {
      READ[k++] = d[i++];
    } else {
      const cp = jsonEscape(d, i, n);
      if (cp < 0) return null;
      i = unitEnd;
      k = utf8Into(READ, k, cp);
    }
  }
  return ((BY_VALUE >> c) & 1) === 1 ? wordAt(READ, at) : gramAt(READ, at);
}

/** The first i in [lo, hi) where `past(i)` holds, `past` being false and then true across it. */
function firstWhere(lo: number, hi: number, past: (i: number) => boolean): number {
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (past(m)) hi = m;
    else lo = m + 1;
  }
  return lo;
}

/** Pattern p verified at s: the longer match into `best`, the earlier pattern on a tie. */
function consider(t: Tables, p: number, d: Uint8Array, s: number, n: number, only: number, best: Int32Array, found: boolean): boolean {
  if (only !== 0 && ((only >> t.kind[p]) & 1) === 0) return found;
  const e = verify(t, p, d, s, n);
  if (e < 0 || (found && (e < best[1] || (e === best[1] && p > best[0])))) return found;
  best[0] = p;
  best[1] = e;
  return true;
}

/** Whether a 4-byte read holds an LF or a CR (exact). */
const hasBreak = (v: number) => {
  const a = v ^ 0x0a0a0a0a;
  const c = v ^ 0x0d0d0d0d;
  return ((((a - 0x01010101) & ~a) | ((c - 0x01010101) & ~c)) & 0x80808080) !== 0;
};

/** Whether a 4-byte read holds a backslash (exact). */
const hasBackslash = (v: number) => {
  const z = v ^ 0x5c5c5c5c;
  return ((z - 0x01010101) & ~z & 0x80808080) !== 0;
};

/** Reused for the key of a start with line breaks skipped, or JSON escapes decoded (a code point's UTF-8 may run past 12). */
const KEY = new Uint8Array(16);

/**
 * The longest match starting at s. Its first 8 bytes (12 after `\u00`) are the key; when a line
 * break lies among them, the wrapping forms (base64, raw and hex) are also looked up by their first
 * 8 bytes from s with line breaks skipped (no other form spans a break); when a backslash does,
 * json patterns by the first 8 bytes JSON's escapes decode to (so `ghp\u005f` is found under
 * `ghp_`, the spelling that escapes nothing).
 */
function matchAt(t: Tables, d: Uint8Array, s: number, n: number, best: Int32Array): boolean {
  if (s + 8 > n) return false;
  const g0 = gramAt(d, s);
  const g1 = gramAt(d, s + 4);
  let found = longestIn(t, mixKey(g0, g1, 0), d, s, n, 0, best);
  if (g0 === U00 && s + 12 <= n) found = longer(t, mixKey(g0, g1, gramAt(d, s + 8)), d, s, n, 0, best, found);
  const r0 = d[s] | (d[s + 1] << 8) | (d[s + 2] << 16) | (d[s + 3] << 24);
  const r1 = d[s + 4] | (d[s + 5] << 8) | (d[s + 6] << 16) | (d[s + 7] << 24);
  const early = hasBreak(r0) || hasBreak(r1);
  // A pattern that starts `\u00` is keyed by 12 bytes: a break among bytes 8 to 11 moves its key too.
  if (early || (g0 === U00 && s + 12 <= n && hasBreak(wordAt(d, s + 8)))) {
    let i = s;
    let k = 0;
    while (k < 12 && i < n) {
      const c = d[i];
      if (c !== 10 && c !== 13) {
        KEY[k++] = c;
        i++;
      } else if (c === 10 && k > 0) i++;
      else if (c === 13 && k > 0) i = skipBreak(d, i, n);
      else break;
      if (k === 8 && gramAt(KEY, 0) !== U00) break;
    }
    const k0 = gramAt(KEY, 0);
    if (k >= 8 && early) found = longer(t, mixKey(k0, gramAt(KEY, 4), 0), d, s, n, WRAPPING, best, found);
    if (k0 === U00 && k === 12) found = longer(t, mixKey(k0, gramAt(KEY, 4), gramAt(KEY, 8)), d, s, n, WRAPPING, best, found);
  }
  if (hasBackslash(r0) || hasBackslash(r1)) {
    const k = decodeJson(d, s, n, KEY, 8);
    if (k >= 8) {
      const k0 = gramAt(KEY, 0);
      const long = k0 === U00 && decodeJson(d, s, n, KEY, 12) >= 12;
      found = longer(t, mixKey(k0, gramAt(KEY, 4), long ? gramAt(KEY, 8) : 0), d, s, n, JSON_ONLY, best, found);
    }
  }
  return found;
}

/**
 * JSON string content at i decoded (escapes, and other bytes as they are) into `out` until it
 * holds `want` bytes, an escape is invalid or the input ends; answers how many it holds.
 */
function decodeJson(d: Uint8Array, i: number, n: number, out: Uint8Array, want: number): number {
  let k = 0;
  while (k < want && i < n) {
    if (d[i] !== 92) {
      out[k++] = d[i++];
      continue;
    }
    const cp = jsonEscape(d, i, n);
    if (cp < 0) break;
    i = unitEnd;
    k = utf8Into(out, k, cp);
  }
  decodedTo = i;
  return k;
}
/** Where `decodeJson` stopped reading. */
let decodedTo = 0;

/** `longestIn` for a second key at the same start: the longer match, the earlier pattern on a tie. */
function longer(t: Tables, k: number, d: Uint8Array, s: number, n: number, only: number, best: Int32Array, found: boolean): boolean {
  const p = best[0];
  const e = found ? best[1] : -1;
  if (!longestIn(t, k, d, s, n, only, best)) return found;
  if (e > best[1] || (e === best[1] && p < best[0])) {
    best[0] = p;
    best[1] = e;
  }
  return true;
}

/** Whether a 4-byte read holds a byte below 14 (so maybe a CR or an LF; exact, no misses). */
const hasControl = (v: number) => ((v - 0x0e0e0e0e) & ~v & 0x80808080) !== 0;

/**
 * Finds the longest match at every start in [from, limit) of d[0, n) and records into `m` those
 * that reach past what `c` already covers (`record`). After a match the scan goes on at its
 * start's next byte, so a match starting inside another is seen (GAPS §9, overlapping matches).
 */
function scan(t: Tables, d: Uint8Array, from: number, limit: number, n: number, m: number[], c: Cover): void {
  const { step, bloom, bloomShift, gram, gram2, gramShift } = t;
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  let x = from + step - 1; // the sample at x covers starts (x - step, x]
  const last = Math.min(n - 4, limit + step - 2);
  while (x <= last) {
    // The fast loop: one 4-byte read per sample, on to the next sample unless the filter passes
    // or the read holds a control byte or a backslash (a line break may hide a wrapped form, an
    // escape a JSON one).
    const r = view.getInt32(x, true);
    const g = r | FOLD;
    const b = Math.imul(g, GOLDEN3) >>> bloomShift;
    const bits = (bloom[b >>> 5] & (1 << (b & 31))) === 0 ? 0 : gram[Math.imul(g, GOLDEN) >>> gramShift] & gram2[Math.imul(g, GOLDEN2) >>> gramShift];
    if (bits === 0) {
      const z = r ^ 0x5c5c5c5c;
      if (((((r - 0x0e0e0e0e) & ~r) | ((z - 0x01010101) & ~z)) & 0x80808080) === 0 || !wrapsHere(t, d, x, n, r)) {
        x += step;
        continue;
      }
    } else if (!hasControl(r) && !hasBackslash(r) && !mayStart(t, d, view, x, n, bits & 0xffff) && (bits >>> 16 === 0 || !mayShift(t, d, x, n))) {
      x += step;
      continue;
    }
    const start = sample(t, d, x, limit, n, m, r, c);
    x = start >= 0 ? start + step : x + step;
  }
}

/**
 * Whether a sample the filter passed for the exact offsets `bits` may start a match there: a start
 * named by offset o has its first 19 bytes following a spelling (else shifted bits, or the sample's
 * own break or escape, would name it), so its first 4 bytes are a pattern's gram at offset 0 in the
 * offset tables too (for o = 0: the 4 after the sample, at offset 4, as the step is 5 and more),
 * unless they hold a backslash, or a line break of a wrapping form, which then passes `mayBreak`.
 * Timestamps and dates look like separated hex for 4 bytes, rarely for 8, and a log line's date
 * begins right after its line break.
 */
function mayStart(t: Tables, d: Uint8Array, view: DataView, x: number, n: number, bits: number): boolean {
  for (let rest = bits; rest !== 0; rest &= rest - 1) {
    const o = 31 - Math.clz32(rest & -rest);
    const at = o === 0 ? x + 4 : x - o;
    if (at + 4 > n) return true;
    const p = view.getInt32(at, true);
    if (hasBackslash(p) || (hasBreak(p) && startBreaks(t, d, at, n)) || startGram(t, p, o)) return true;
  }
  return false;
}

/** Whether the 4 bytes `p` of a start named by offset o are a pattern's gram at 0 (at 4 for o = 0). */
function startGram(t: Tables, p: number, o: number): boolean {
  const { bloom, bloomShift, gram, gram2, gramShift } = t;
  const g = p | FOLD;
  const b = Math.imul(g, GOLDEN3) >>> bloomShift;
  return (
    (bloom[b >>> 5] & (1 << (b & 31))) !== 0 &&
    (((gram[Math.imul(g, GOLDEN) >>> gramShift] & gram2[Math.imul(g, GOLDEN2) >>> gramShift]) >>> (o === 0 ? 4 : 0)) & 1) === 1
  );
}

/** Whether a line break in the 4 bytes at `at` (an LF, or a CR before one) passes `mayBreak`. */
function startBreaks(t: Tables, d: Uint8Array, at: number, n: number): boolean {
  for (let i = at; i < at + 4; i++) {
    // The break's last byte: an LF, or a lone CR (at the input's end, maybe a CRLF's first half).
    const last = d[i] === 10 ? i : d[i] === 13 ? (i + 1 < n && d[i + 1] === 10 ? i + 1 : i) : -1;
    if (last < 0) continue;
    if ((d[i] === 13 && i + 1 >= n) || mayBreak(t, d, last, n)) return true;
  }
  return false;
}

/**
 * Whether `sample` need try the starts the filter names by shifted bits: only where a line break
 * that passes `mayBreak` (a wrapping form's own break does), or a backslash, lies between the
 * sample's first start and x; with none, only the sample's exact offsets can start a match.
 */
function mayShift(t: Tables, d: Uint8Array, x: number, n: number): boolean {
  for (let i = x - 1; i > x - t.step && i >= 0; i--) if (d[i] === 92 || ((d[i] === 10 || loneCr(d, i, n)) && mayBreak(t, d, i, n))) return true;
  return false;
}

/** Reused by the scan for each candidate's longest match. */
const BEST = new Int32Array(2);

/**
 * The sample at x (its 4 bytes `r`): the leftmost start in (x - step, x] where a match may start
 * and does goes into `m`; returns the match's end, or -1. A start is tried when the filter names
 * its offset; also when the filter names it for bytes that line breaks or escapes before x
 * shifted (and there is one between the start and x: any line break, the last escape only when
 * it passes `mayEscape`); and every start when the sample's own bytes hold a line break inside a
 * run of a wrapping form, or an escape that passes `mayEscape`.
 */
function sample(t: Tables, d: Uint8Array, x: number, limit: number, n: number, m: number[], r: number, c: Cover): number {
  const { step, bloom, bloomShift, gram, gram2, gramShift } = t;
  const g = r | FOLD;
  const b = Math.imul(g, GOLDEN3) >>> bloomShift;
  let bits = 0;
  if ((bloom[b >>> 5] & (1 << (b & 31))) !== 0) bits = gram[Math.imul(g, GOLDEN) >>> gramShift] & gram2[Math.imul(g, GOLDEN2) >>> gramShift];
  const wrap = wrapsHere(t, d, x, n, r);
  if (bits === 0 && !wrap) return -1;
  // Starts up to `shifted` have a line break or an escape between them and x.
  let shifted = -1;
  if (!wrap && bits >>> 16 !== 0) {
    let lastEscape = -1;
    for (let i = x - 1; i > x - step && i >= 0; i--) {
      const c = d[i];
      if (c === 10 || c === 13) {
        shifted = Math.max(shifted, i);
        break;
      }
      if (c === 92 && lastEscape < 0) lastEscape = i;
    }
    if (lastEscape > shifted && mayEscape(t, d, lastEscape, n)) shifted = lastEscape;
  }
  for (let o = step - 1; o >= 0; o--) {
    const s = x - o;
    if (s >= limit) break;
    if (((bits >> o) & 1) === 0 && !wrap && (((bits >> (16 + o)) & 1) === 0 || s > shifted)) continue;
    if (!matchAt(t, d, s, n, BEST)) continue;
    record(t, m, c, s, BEST[0], BEST[1]);
    return s;
  }
  return -1;
}

/**
 * What the matches recorded so far cover: where the covered run ends, and the values (by their
 * `partial` slot) already replaced in it. A stream keeps one across its pushes.
 */
export interface Cover {
  end: number;
  values: Set<number>;
}
export const newCover = (): Cover => ({ end: 0, values: new Set() });

/**
 * Records the match d[s, e) of pattern p into `m` as a (start, pattern, end) triple, by the
 * maskers' rule: nothing it covers is released. A match inside the covered run adds nothing; one
 * that starts past it begins a run; one that starts inside it and reaches past covers the rest,
 * replaced by `[redacted:NAME]` (its `partial` slot, at emit) when its value isn't already in the
 * run, else silently (pattern written `~p`, extending the run's last triple where it can), so
 * text where every start matches the same value records one triple, not one a byte.
 */
function record(t: Tables, m: number[], c: Cover, s: number, p: number, e: number): void {
  if (e <= c.end) return;
  const v = t.partial[p];
  if (s >= c.end) {
    c.values.clear();
    c.values.add(v);
    m.push(s, p, e);
  } else if (!c.values.has(v)) {
    c.values.add(v);
    m.push(s, p, e);
  } else if (m.length > 0 && m[m.length - 1] === c.end) m[m.length - 1] = e;
  else m.push(s, ~p, e);
  c.end = e;
}

/** Whether the sample's own 4 bytes `r` at x hold a line break or an escape that may be inside a form: then every start it covers is tried. */
const wrapsHere = (t: Tables, d: Uint8Array, x: number, n: number, r: number) =>
  (hasControl(r) && breakInRun(t, d, x, n, r)) || (hasBackslash(r) && escapeInRun(t, d, x, n, r));

/**
 * Whether the first backslash in the sample's 4 bytes `r` at x may be an escape in a value's JSON
 * (`mayEscape`): the sample lies within the first `step + 3` bytes of any form it could belong to,
 * so one backslash in it decides for all.
 */
function escapeInRun(t: Tables, d: Uint8Array, x: number, n: number, r: number): boolean {
  const z = r ^ 0x5c5c5c5c;
  const bs = (z - 0x01010101) & ~z & 0x80808080;
  const p = x + ((31 - Math.clz32(bs & -bs)) >> 3); // the lowest is exact
  return mayEscape(t, d, p, n);
}

/** Reused for the bytes an escape decodes to. */
const DECODED = new Uint8Array(16);

/**
 * Whether the backslash at p may be in a JSON escape within a value's form's first `step + 3`
 * bytes. The escape starts at p, or at p - 1 for the second of `\\`, or 6 before for a surrogate
 * pair's second half; the bytes it and what follows decode to must start one of the value's grams
 * at 0..step+2 (the escape filter), or, where a value is short enough for the escape to be among
 * its last 3 bytes, those decoded from a few bytes before it must.
 */
function mayEscape(t: Tables, d: Uint8Array, p: number, n: number): boolean {
  for (let e = p; e >= p - 1 && e >= 0 && d[e] === 92; e--) {
    let a = e;
    if (e >= 6 && d[e + 1] === 117 && d[e - 6] === 92 && d[e - 5] === 117) {
      const lo = hexAt(d, e + 2, n);
      const hi = hexAt(d, e - 4, n);
      if (lo >= 0xdc00 && lo < 0xe000 && hi >= 0xd800 && hi < 0xdc00) a = e - 6;
    }
    if (jsonEscape(d, a, n) < 0) continue;
    const k = decodeJson(d, a, n, DECODED, 4);
    if (k < 4 && decodedTo >= n) return true; // the input ends: what follows is unknown
    DECODED.fill(0xff, k, 4);
    if (pairHas(t.escapes, t.escapeShift, gramAt(DECODED, 0), GOLDEN3, GOLDEN4)) return true;
    if (!t.escapeBack) continue;
    // Near a short value's end: decoded from 1 to 5 bytes before (up to 3 units, a literal byte
    // or a short escape, since a \uXXXX escape before would have put this one out of reach).
    for (let back = 1; back <= 5 && a - back >= 0; back++) {
      if (decodeJson(d, a - back, n, DECODED, 4) < 4) continue;
      if (pairHas(t.escapes, t.escapeShift, gramAt(DECODED, 0), GOLDEN3, GOLDEN4)) return true;
    }
  }
  return false;
}

/**
 * Whether a line break in the sample's 4 bytes `r` at x (an LF there, or a CR at x + 3 before an
 * LF at x + 4) lies between base64 characters and may be the break of a base64 form within its
 * first `step + 3` bytes (`mayBreak`).
 */
function breakInRun(t: Tables, d: Uint8Array, x: number, n: number, r: number): boolean {
  const z = r ^ 0x0a0a0a0a;
  // The LF bytes' high bits (exact for the lowest; one above it may be a false 0x0b, checked below).
  let lf = (z - 0x01010101) & ~z & 0x80808080;
  while (lf !== 0) {
    const low = lf & -lf;
    const p = x + ((31 - Math.clz32(low)) >> 3);
    if (d[p] === 10 && mayBreak(t, d, p, n)) return true;
    lf ^= low;
  }
  if (d[x + 3] === 13 && x + 4 < n && d[x + 4] === 10 && mayBreak(t, d, x + 4, n)) return true;
  for (let p = x; p < x + 4; p++) if (loneCr(d, p, n) && mayBreak(t, d, p, n)) return true;
  return false;
}

/**
 * Whether the LF at p lies between two characters (after a CR or not: a raw value may hold any
 * other byte) and may be the break of a wrapping form within its first `step + 3` bytes: the 4
 * characters after it as a pattern's characters at offsets 1 and on, or, when fewer than 4 of its
 * characters follow, the 4 before it, each read with single line breaks skipped as verification
 * skips them (a filter of its own; where the input ends first, it passes).
 */
function mayBreak(t: Tables, d: Uint8Array, p: number, n: number): boolean {
  if (p + 1 >= n || d[p + 1] === 10 || d[p + 1] === 13) return false;
  const before = d[p] === 10 && d[p - 1] === 13 ? p - 2 : p - 1;
  if (before < 0 || d[before] === 10 || d[before] === 13) return false;
  if (!pairPasses(t, d[before], d[p + 1])) return false;
  // Mostly no other break lies within 4 bytes: then the 4 bytes on each side are the characters.
  const after = p + 5 <= n && !hasBreak(wordAt(d, p + 1)) ? gramAt(d, p + 1) : charsFrom(d, p + 1, n) ? gramAt(AFTER, 0) : null;
  const ahead = before >= 3 && !hasBreak(wordAt(d, before - 3)) ? gramAt(d, before - 3) : charsTo(d, before) ? gramAt(AHEAD, 0) : null;
  return after === null || ahead === null || breaksPass(t, after, ahead);
}

/** Whether the characters just before and after a line break are a pair the break filter holds. */
function pairPasses(t: Tables, before: number, after: number): boolean {
  const pair = ((before | 0x20) << 8) | (after | 0x20);
  return (t.pairs[pair >>> 5] & (1 << (pair & 31))) !== 0;
}

/** The 4 characters around a line break, with single line breaks among them skipped. */
const AFTER = new Uint8Array(4);
const AHEAD = new Uint8Array(4);

/** The 4 characters from i (one there) into AFTER, single line breaks skipped; false where the input ends or two breaks meet. */
function charsFrom(d: Uint8Array, i: number, n: number): boolean {
  for (let k = 0; k < 4; k++, i++) {
    if (k > 0) i = skipBreak(d, i, n);
    if (i >= n || d[i] === 10 || d[i] === 13) return false;
    AFTER[k] = d[i];
  }
  return true;
}

/** The 4 characters up to i (one there) into AHEAD, single line breaks skipped; false where the input starts or two breaks meet. */
function charsTo(d: Uint8Array, i: number): boolean {
  for (let k = 3; k >= 0; k--, i--) {
    // Read backwards, a CR met first is a lone one (a CRLF's LF comes first).
    if (k < 3 && i >= 0 && (d[i] === 10 || d[i] === 13)) i = d[i] === 10 && i > 0 && d[i - 1] === 13 ? i - 2 : i - 1;
    if (i < 0 || d[i] === 10 || d[i] === 13) return false;
    AHEAD[k] = d[i];
  }
  return true;
}

/** The breaks filter of `mayBreak`, on the folded 4 characters after a line break and the 4 before it. */
function breaksPass(t: Tables, after: number, ahead: number): boolean {
  const { breaks, breakShift } = t;
  const a = Math.imul(after, GOLDEN3) >>> breakShift;
  const a2 = Math.imul(after, GOLDEN4) >>> breakShift;
  if ((breaks[a >>> 5] & (1 << (a & 31))) !== 0 && (breaks[a2 >>> 5] & (1 << (a2 & 31))) !== 0) return true;
  return pairHas(t.breaksAhead, t.aheadShift, ahead, GOLDEN, GOLDEN5);
}

// ── Strings, when every value is ASCII ─────────────────────────────────────────────────
// A match is then a run of ASCII characters, so it stands at the same offsets in a string's
// characters as in its UTF-8 where the text is ASCII, and is the same run of characters wherever
// it is not. The scan reads the characters: no encoding, which costs Chromium more than the scan.

/**
 * Starts a segment covers: a sample the filter passes has the chars from its first start to the
 * segment's end (and the stream horizon more, for verification) read as bytes by `scan`. Where
 * candidates are dense, the rest of the range is read as bytes at once, so no text is read as
 * bytes much more than once, and a range's work stays within its chars and one horizon.
 */
const SEGMENT = 256;
/** Bytes before a scan's first start that it may read (a line break's base64 neighbours). */
const LOOKBACK = 8;
let charBytes = new Uint8Array(0);
/** The most `charBytes` keeps between calls; a longer run gets an array of its own. */
const CHAR_BYTES_MAX = 1 << 20;

/**
 * text[a, b) with a lone surrogate as U+FFFD, as through UTF-8: each piece between matches on its
 * own, so taking a match out never pairs the halves around it.
 */
const wellFormed = (text: string, a: number, b: number) => text.slice(a, b).toWellFormed();

/** The chars of text[a, b) as bytes: an ASCII char as itself, any other as 0xff, which no pattern holds. */
function charsAsBytes(text: string, a: number, b: number): Uint8Array {
  let out = charBytes;
  if (out.length < b - a) {
    out = new Uint8Array(Math.max(b - a, Math.min(CHAR_BYTES_MAX, 2 * out.length)));
    if (out.length <= CHAR_BYTES_MAX) charBytes = out;
  }
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    out[i - a] = c < 0x80 ? c : 0xff;
  }
  return out.subarray(0, b - a);
}

/**
 * `scan` of a string's starts in [start, stop), for tables whose patterns are all ASCII: matches
 * into `m` at char offsets; answers the first start left to scan (past `stop` when a match runs
 * over it, the text's length at its end). A sample is 4 chars; one holding a char past ASCII lies
 * in no match, so is passed over. Where the filter passes (or a line break may split base64),
 * `scan` runs on a segment of the chars as bytes from the sample's first start, and the char scan
 * goes on after it.
 */
function scanText(t: Tables, text: string, m: number[], start: number, stop: number, c: Cover): number {
  const { step, bloom, bloomShift, gram, gram2, gramShift } = t;
  const n = text.length;
  let copied = 0;
  let x = start + step - 1;
  while (x <= n - 4 && x - step + 1 < stop) {
    const c0 = text.charCodeAt(x);
    const c1 = text.charCodeAt(x + 1);
    const c2 = text.charCodeAt(x + 2);
    const c3 = text.charCodeAt(x + 3);
    if ((c0 | c1 | c2 | c3) >= 0x80) {
      x += step;
      continue;
    }
    const r = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
    const g = r | FOLD;
    const b = Math.imul(g, GOLDEN3) >>> bloomShift;
    const bits = (bloom[b >>> 5] & (1 << (b & 31))) === 0 ? 0 : gram[Math.imul(g, GOLDEN) >>> gramShift] & gram2[Math.imul(g, GOLDEN2) >>> gramShift];
    // As `scan` does: a sample passes on to the bytes only where a match may start.
    if (
      bits === 0
        ? (!hasControl(r) || !breakInText(t, text, x, n)) && (!hasBackslash(r) || !escapeInText(t, text, x, n))
        : !hasControl(r) && !hasBackslash(r) && !mayStartText(t, text, x, n, bits & 0xffff) && (bits >>> 16 === 0 || !mayShiftText(t, text, x, n))
    ) {
      x += step;
      continue;
    }
    const from = x - step + 1;
    const a = Math.max(0, from - LOOKBACK);
    // Where segments have covered half of what was scanned, candidates are dense: the rest of the
    // range goes in one. Past `limit`, verification could need more than the segment holds.
    const reach = copied > (x - start) / 2 ? Math.max(SEGMENT, stop - from) : SEGMENT;
    const end = Math.min(n, from + reach + t.horizon + 16);
    const limit = end === n ? n : from + reach;
    copied += end - a;
    // The segment's matches at its own offsets, then moved to the text's.
    const found: number[] = [];
    c.end -= a;
    scan(t, charsAsBytes(text, a, end), from - a, limit - a, end - a, found, c);
    c.end += a;
    for (let i = 0; i < found.length; i += 3) m.push(found[i] + a, found[i + 1], found[i + 2] + a);
    x = limit + step - 1;
  }
  return x > n - 4 ? n : x - step + 1;
}

/** `mayStart` in a string, on its chars as bytes (a char past ASCII as 0xff, in no pattern). */
function mayStartText(t: Tables, text: string, x: number, n: number, bits: number): boolean {
  for (let rest = bits; rest !== 0; rest &= rest - 1) {
    const o = 31 - Math.clz32(rest & -rest);
    const at = o === 0 ? x + 4 : x - o;
    if (at + 4 > n) return true;
    const p = charsWord(text, at);
    if (hasBackslash(p) || (hasBreak(p) && startBreaksText(t, text, at, n)) || startGram(t, p, o)) return true;
  }
  return false;
}

/** `startBreaks` in a string. */
function startBreaksText(t: Tables, text: string, at: number, n: number): boolean {
  for (let i = at; i < at + 4; i++) {
    const c = text.charCodeAt(i);
    const last = c === 10 ? i : c === 13 ? (i + 1 < n && text.charCodeAt(i + 1) === 10 ? i + 1 : i) : -1;
    if (last < 0) continue;
    if ((c === 13 && i + 1 >= n) || mayBreakText(t, text, last, n)) return true;
  }
  return false;
}

/** The 4 chars at i as a little-endian word of bytes, a char past ASCII as 0xff. */
function charsWord(text: string, i: number): number {
  const c0 = text.charCodeAt(i);
  const c1 = text.charCodeAt(i + 1);
  const c2 = text.charCodeAt(i + 2);
  const c3 = text.charCodeAt(i + 3);
  return (c0 < 0x80 ? c0 : 0xff) | ((c1 < 0x80 ? c1 : 0xff) << 8) | ((c2 < 0x80 ? c2 : 0xff) << 16) | ((c3 < 0x80 ? c3 : 0xff) << 24);
}

/** `mayShift` in a string. */
function mayShiftText(t: Tables, text: string, x: number, n: number): boolean {
  for (let i = x - 1; i > x - t.step && i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 92 || ((c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) && mayBreakText(t, text, i, n))) return true;
  }
  return false;
}

/** `breakInRun` for the ASCII sample at x of a string. */
function breakInText(t: Tables, text: string, x: number, n: number): boolean {
  for (let p = x; p < x + 4; p++) {
    const c = text.charCodeAt(p);
    if ((c === 10 || (c === 13 && text.charCodeAt(p + 1) !== 10)) && mayBreakText(t, text, p, n)) return true;
  }
  return text.charCodeAt(x + 3) === 13 && x + 4 < n && text.charCodeAt(x + 4) === 10 && mayBreakText(t, text, x + 4, n);
}

/** The chars around a backslash as bytes, for `mayEscape` (which reads 8 before it and 4 escapes after). */
const ESCAPE_CHARS = new Uint8Array(56);

/** `escapeInRun` for the ASCII sample at x of a string. */
function escapeInText(t: Tables, text: string, x: number, n: number): boolean {
  let p = x;
  while (text.charCodeAt(p) !== 92) p++;
  const a = Math.max(0, p - 8);
  const b = Math.min(n, a + ESCAPE_CHARS.length);
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    ESCAPE_CHARS[i - a] = c < 0x80 ? c : 0xff;
  }
  return mayEscape(t, ESCAPE_CHARS.subarray(0, b - a), p - a, b - a);
}

/** `mayBreak` in a string, on its chars around p as bytes (a char past ASCII as 0xff, in no pattern). */
function mayBreakText(t: Tables, text: string, p: number, n: number): boolean {
  // Mostly no other break lies within 4 characters: then `mayBreak`'s test is on these 8 as read.
  const before = p > 0 && text.charCodeAt(p) === 10 && text.charCodeAt(p - 1) === 13 ? p - 2 : p - 1;
  if (before >= 3 && p + 5 <= n) {
    const ahead = charsWord(text, before - 3);
    const after = charsWord(text, p + 1);
    if (!hasBreak(ahead) && !hasBreak(after)) return pairPasses(t, ahead >>> 24, after & 0xff) && breaksPass(t, after | FOLD, ahead | FOLD);
  }
  const a = Math.max(0, p - 16);
  const b = Math.min(n, p + 16);
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    AROUND[i - a] = c < 0x80 ? c : 0xff;
  }
  return mayBreak(t, AROUND, p - a, b - a);
}
const AROUND = new Uint8Array(32);

/** Hits per slot, only of the slots hit: a namespace has thousands of slots, a text a few hits. */
type Counts = Map<number, number>;
const count = (counts: Counts, slot: number) => counts.set(slot, (counts.get(slot) ?? 0) + 1);

/** The hits in slot order (the order the names and forms were compiled). */
function hitList(t: Tables, counts: Counts): ScrubHit[] {
  return [...counts.keys()].sort((a, b) => a - b).map((slot) => ({ ...t.slots[slot], count: counts.get(slot)! }));
}

/** Joins byte pieces; one piece comes back as it is. */
export function joinBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 0) return EMPTY;
  if (parts.length === 1) return parts[0];
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let w = 0;
  for (const p of parts) {
    out.set(p, w);
    w += p.length;
  }
  return out;
}

/**
 * d[done, limit) with the matches `m` replaced (a match that began before what is already covered
 * and ends after it is a `partial`: its rest is replaced, or dropped when written `~p`); counts into `counts`. Returns the output and how far
 * the input is now covered (past `limit` when a match runs over it).
 */
function emit(t: Tables, d: Uint8Array, done: number, limit: number, m: number[], counts: Counts): [Uint8Array, number] {
  const parts: Uint8Array[] = [];
  let r = done;
  for (let i = 0; i < m.length; i += 3) {
    const s = m[i];
    const p = m[i + 1];
    const e = m[i + 2];
    if (e <= r || s >= limit) continue;
    if (s > r) parts.push(d.subarray(r, s));
    if (p >= 0) {
      const slot = s < r ? t.partial[p] : t.slot[p];
      parts.push(t.rep[slot]);
      count(counts, slot);
    }
    r = e;
  }
  if (r < limit) {
    parts.push(d.subarray(r, limit));
    r = limit;
  }
  return [joinBytes(parts), r];
}

/** Reused for strings up to 1 MiB (3 MiB of UTF-8 at most); larger ones get their own. */
let scratch = new Uint8Array(0);
const SCRATCH_MAX = 3 * 2 ** 20;

/** Writes the UTF-8 of a string of at most 1 MiB code units into `scratch`; returns its length. */
function encodeIntoScratch(text: string): number {
  const need = 3 * text.length;
  if (scratch.length < need) scratch = new Uint8Array(Math.max(need, 2 * scratch.length, 4096));
  return enc.encodeInto(text, scratch).written;
}

/** The UTF-8 of `text`, valid until the next call. */
function encodeScratch(text: string): Uint8Array {
  const need = 3 * text.length;
  if (need > SCRATCH_MAX) return enc.encode(text);
  if (scratch.length < need) scratch = new Uint8Array(Math.min(SCRATCH_MAX, Math.max(need, 2 * scratch.length, 4096)));
  return scratch.subarray(0, enc.encodeInto(text, scratch).written);
}

// ── Matches, of the text and of its JSON view ─────────────────────────────────────────

/** A source the JSON view reads: bytes, or a string's chars as bytes (`charsAsBytes`). */
interface Source {
  length: number;
  /** The first backslash in [i, to) before a character that may begin a JSON escape, or -1. */
  escapeIn(i: number, to: number): number;
  byteAt(i: number): number;
  /** Source [a, b) as bytes, valid until the next call. */
  bytes(a: number, b: number): Uint8Array;
}

const bytesSource = (d: Uint8Array, n: number): Source => ({
  length: n,
  escapeIn(i, to) {
    for (let p = d.indexOf(92, i); p >= 0 && p < to; p = d.indexOf(92, p + 1)) if (p + 1 < n && escapes(d[p + 1])) return p;
    return -1;
  },
  byteAt: (i) => d[i],
  bytes: (a, b) => d.subarray(a, b),
});

const textSource = (text: string): Source => ({
  length: text.length,
  escapeIn(i, to) {
    for (let p = text.indexOf('\\', i); p >= 0 && p < to; p = text.indexOf('\\', p + 1)) if (p + 1 < text.length && escapes(text.charCodeAt(p + 1))) return p;
    return -1;
  },
  byteAt: (i) => text.charCodeAt(i),
  bytes: (a, b) => charsAsBytes(text, a, b),
});

/** The most starts one window of the view scans at once (memory: 9 bytes a decoded byte). */
const VIEW_PIECE = 1 << 20;
/** The most bytes the view's arrays keep between calls. */
const VIEW_KEEP = 1 << 20;
let view: JsonView | null = null;

/**
 * The matches of the JSON view of src for its starts in [from, limit), at src's offsets, in start
 * order: only around escapes, since a match of the view with none in it is one of src itself. Between
 * two escapes inside one match lies an unescaped run of the form (at most `horizon` bytes), as before
 * its first and after its last; so escapes closer than the margin chain into one window, whose starts
 * begin a margin before its first escape and whose bytes end a margin after its last (a window cut
 * at VIEW_PIECE starts reads as far as any match escaped once more may span). Each is decoded from a
 * byte no backslash precedes (so `\\\\n` decodes as the text does) and no escape straddles.
 */
function viewMatches(t: Tables, src: Source, from: number, limit: number, cut: boolean): number[] {
  const out: number[] = [];
  const n = src.length;
  const margin = t.horizon + 16;
  // No match starting before `limit` reads past this: the longest form, escaped once more.
  const stop = Math.min(n, limit + t.reach);
  const flush = (ws: number, se: number, to: number) => {
    let a = Math.max(0, ws - 12);
    while (a > 0 && src.byteAt(a - 1) === 92) a--;
    const b = Math.min(stop, to);
    decodeScan(a, b, ws, se);
    // A run of backslashes from the first byte of a stream's bytes may have begun in bytes released
    // before them: its pairs are read both ways.
    if (cut && a === 0 && src.byteAt(0) === 92) decodeScan(1, b, ws, se);
  };
  const decodeScan = (a: number, b: number, ws: number, se: number) => {
    view = viewWithRoom(view, b - a);
    const v = view;
    decodeView(src.bytes(a, b), 0, b - a, v, a);
    let s0 = 0;
    while (s0 < v.length && v.from[s0] < ws) s0++;
    let s1 = s0;
    while (s1 < v.length && v.from[s1] < se) s1++;
    const found: number[] = [];
    scan(t, v.bytes.subarray(0, v.length), s0, s1, v.length, found, newCover());
    for (let i = 0; i < found.length; i += 3) out.push(v.from[found[i]], found[i + 1], v.to[found[i + 2] - 1]);
  };
  let ws = -1; // the window's first start
  let last = -1; // its last escape
  for (let p = src.escapeIn(from, stop); p >= 0; p = src.escapeIn(p + 1, stop)) {
    if (ws >= 0 && p - last <= margin) {
      last = p;
      while (Math.min(limit, p + 1) - ws > VIEW_PIECE) {
        flush(ws, ws + VIEW_PIECE, ws + VIEW_PIECE + t.reach);
        ws += VIEW_PIECE;
      }
      continue;
    }
    if (ws >= 0) flush(ws, Math.min(limit, last + 1), last + 1 + margin);
    ws = -1;
    if (p - margin >= limit) break;
    ws = Math.max(from, p - margin);
    last = p;
  }
  if (ws >= 0) flush(ws, Math.min(limit, last + 1), last + 1 + margin);
  // A view grown for a long run of escapes isn't kept (9 bytes a decoded byte).
  if (view && view.bytes.length > VIEW_KEEP) view = null;
  return out;
}

/**
 * The text's matches and its view's, merged in start order (the longer first at one start, the
 * text's on a tie) and recorded over the cover `c` by the maskers' rule (`record`).
 */
function settle(t: Tables, a: number[], b: number[], c: Cover): number[] {
  const m: number[] = [];
  for (let i = 0, j = 0; i < a.length || j < b.length; ) {
    const first = j >= b.length || (i < a.length && (a[i] < b[j] || (a[i] === b[j] && a[i + 2] >= b[j + 2])));
    const from = first ? a : b;
    const k = first ? i : j;
    const p = from[k + 1];
    record(t, m, c, from[k], p < 0 ? ~p : p, from[k + 2]);
    if (first) i += 3;
    else j += 3;
  }
  return m;
}

/** The matches of d's starts in [from, limit) and of its JSON view's, recorded over `c`. */
function matchesOf(t: Tables, d: Uint8Array, from: number, limit: number, n: number, c: Cover, cut = false): number[] {
  const direct: number[] = [];
  scan(t, d, from, limit, n, direct, newCover());
  return settle(t, direct, viewMatches(t, bytesSource(d, n), from, limit, cut), c);
}

/** The text's replacement for pattern p's match (`~p`: covered, nothing), a `partial` where it began before `r`; counted. */
function textOf(t: Tables, repText: string[], p: number, s: number, r: number, counts: Counts): string {
  if (p < 0) return '';
  const slot = s < r ? t.partial[p] : t.slot[p];
  count(counts, slot);
  return (repText[slot] ??= dec.decode(t.rep[slot]));
}

// ── API ────────────────────────────────────────────────────────────────────────────────

/**
 * A scrubber's compiled tables: typed arrays, strings and byte arrays only, so a worker can build
 * them and post them (README, Limits: heavy work off the main thread).
 */
export type ScrubTables = Tables;

/** Builds the tables for these values: the expensive half of compiling. */
export function compileTables(values: readonly ScrubValue[]): ScrubTables {
  return build(values);
}

/** The typed arrays a worker transfers with its tables. */
export function tableBuffers(t: ScrubTables): ArrayBuffer[] {
  return [...new Set([...typedArraysOf(t), ...t.rep].map((a) => a.buffer as ArrayBuffer))];
}

export function compileScrubber(values: readonly ScrubValue[]): Scrubber {
  return scrubberOf(build(values));
}

/** A scrubber over tables built by `compileTables`, here or in a worker: cheap. */
export function scrubberOf(t: ScrubTables): Scrubber {
  const size = tableBytes(t);
  const repText: string[] = [];
  /** The text with the matches `m` (at its offsets) replaced, yielding after each `chars` of it. */
  function* spliced(text: string, m: number[], chars: number): Generator<void, { text: string; hits: ScrubHit[] }> {
    const counts = new Map<number, number>();
    let out = '';
    let r = 0;
    for (let i = 0, done = 0; i < m.length; i += 3) {
      const s = m[i];
      const e = m[i + 2];
      if (e <= r) continue;
      out += (s > r ? wellFormed(text, r, s) : '') + textOf(t, repText, m[i + 1], s, r, counts);
      r = e;
      if (r - done > chars) {
        done = r;
        yield;
      }
    }
    return { text: out + wellFormed(text, r, text.length), hits: hitList(t, counts) };
  }
  /** `scanText`'s matches of text[from, to) and its view's, settled; answers where the scan stopped. */
  const textMatches = (text: string, m: number[], from: number, to: number, c: Cover) => {
    const direct: number[] = [];
    const next = scanText(t, text, direct, from, to, newCover());
    for (const x of settle(t, direct, viewMatches(t, textSource(text), from, next, false), c)) m.push(x);
    return next;
  };
  const redactBytes = (bytes: Uint8Array) => {
    if (t.count === 0) return { bytes, hits: [] };
    const m = matchesOf(t, bytes, 0, bytes.length, bytes.length, newCover());
    if (m.length === 0) return { bytes, hits: [] };
    const counts = new Map<number, number>();
    return { bytes: emit(t, bytes, 0, bytes.length, m, counts)[0], hits: hitList(t, counts) };
  };
  return {
    patterns: t.count,
    tableBytes: size,
    hold: Math.max(0, t.reach - 1),
    redactBytes,
    redact(text) {
      if (t.count === 0) return { text: text.toWellFormed(), hits: [] };
      // ASCII values: the chars are scanned as they are. Else the UTF-8, in a reused buffer; for
      // ASCII text (byte offsets are string offsets) its matches are then spliced in likewise.
      const bytes = t.ascii ? null : encodeScratch(text);
      let m: number[] = [];
      if (bytes) m = matchesOf(t, bytes, 0, bytes.length, bytes.length, newCover());
      else textMatches(text, m, 0, text.length, newCover());
      if (m.length === 0) return { text: text.toWellFormed(), hits: [] };
      if (bytes && bytes.length !== text.length) {
        const counts = new Map<number, number>();
        return { text: dec.decode(emit(t, bytes, 0, bytes.length, m, counts)[0]), hits: hitList(t, counts) };
      }
      const steps = spliced(text, m, Number.POSITIVE_INFINITY);
      for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
    },
    scansText: t.ascii,
    async redactInSteps(text, chars, pause) {
      if (!t.ascii) throw new Error('scrubber: redactInSteps takes a scrubber whose values are all ASCII');
      if (t.count === 0) return { text: text.toWellFormed(), hits: [] };
      const m: number[] = [];
      const c = newCover();
      for (let at = 0; at < text.length; ) {
        at = textMatches(text, m, at, at + chars, c);
        await pause();
      }
      if (m.length === 0) return { text: text.toWellFormed(), hits: [] };
      const steps = spliced(text, m, chars);
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) return step.value;
        await pause();
      }
    },
    stream: (options) => openStream(t, options),
  };
}

/** The room a stream keeps for its next chunk beyond the bytes it holds: a piece of a big push, and more. */
const STREAM_ROOM = 1 << 16;

function openStream(t: Tables, options: ScrubStreamOptions = {}): ScrubStream {
  const idleMs = options.idleMs ?? IDLE_MS;
  const now = options.now ?? (() => performance.now());
  const hold = Math.max(0, t.reach - 1);
  // The last `hold` input bytes seen, work[0, held); those before `done` are out (released, or
  // covered by a replacement already sent); starts before `scanned` have been looked at; those
  // before `ctx` were released by idle() and are kept only to catch a form completing later. A
  // push appends its chunk behind them in place, so it allocates only its output.
  let work = EMPTY;
  let held = 0;
  let done = 0;
  let scanned = 0;
  let ctx = 0;
  const cover = newCover();
  let last = now();
  let ended = false;
  const counts = new Map<number, number>();
  const live = () => {
    if (ended) throw new Error('scrubber: the stream has ended');
  };
  /** Room for `n` bytes in `work`, the held bytes kept. */
  const room = (n: number) => {
    if (work.length >= n) return;
    const grown = new Uint8Array(Math.max(n, 2 * work.length));
    grown.set(work.subarray(0, held));
    work = grown;
  };
  /** Keeps d[from..] as the held bytes: d is the caller's chunk, or a view of `work` from 0. */
  const keep = (d: Uint8Array, from: number) => {
    const n = d.length - from;
    if (d.buffer === work.buffer) work.copyWithin(0, from, d.length);
    else {
      // A copy, so the owner may transfer or reuse the chunk it passed.
      room(n);
      work.set(d.subarray(from));
    }
    held = n;
    // A big chunk's room isn't kept after it.
    if (work.length > STREAM_ROOM + held) work = work.slice(0, held);
  };
  /** Releases d up to `limit` and keeps the last `hold` bytes. */
  const release = (d: Uint8Array, limit: number) => {
    const n = d.length;
    // Behind released context a form may be completing: look from the start; else from the first
    // start not looked at (inside a replacement already sent, a longer match may begin).
    const from = ctx > 0 ? 0 : scanned;
    const m = limit > from ? matchesOf(t, d, from, limit, n, cover, true) : [];
    const [emitted, covered] = emit(t, d, done, limit, m, counts);
    // The output outlives this push: never a view of `work`, which the next push writes over.
    const out = emitted.length && emitted.buffer === work.buffer ? emitted.slice() : emitted;
    const shift = Math.max(0, n - hold);
    keep(d, shift);
    done = Math.max(0, Math.max(done, covered) - shift);
    scanned = Math.max(0, Math.max(scanned, limit) - shift);
    cover.end = Math.max(0, cover.end - shift);
    ctx = Math.max(0, ctx - shift);
    return out;
  };
  const releaseAll = () => {
    const out = release(work.subarray(0, held), held);
    ctx = done = scanned = held;
    return out;
  };
  return {
    push(chunk) {
      live();
      last = now();
      if (t.count === 0) return chunk;
      let d = chunk;
      if (held) {
        room(held + chunk.length);
        work.set(chunk, held);
        d = work.subarray(0, held + chunk.length);
      }
      return release(d, d.length - hold);
    },
    idle() {
      live();
      if (t.count === 0 || now() - last < idleMs || done >= held) return EMPTY;
      return releaseAll();
    },
    idleIn() {
      return Math.max(0, idleMs - (now() - last));
    },
    end() {
      live();
      const out = t.count === 0 ? EMPTY : releaseAll();
      ended = true;
      return out;
    },
    get hits() {
      return hitList(t, counts);
    },
  };
}
