// What a pattern is: its kind (how it is verified against the input), a base64 pattern's shape, its
// check class (how patterns under one key are told apart), the span it may cover, and the names of
// the forms its hits are counted under.
import { enc } from './utf8.ts';

/**
 * The most bytes any form spends on one byte of a value: JSON's `\u0041` for an ASCII character
 * (hex split by a CRLF after every digit spans 6n - 2; docs/scrubber.md, Streams, lists every
 * form's span). A stream's horizon H is this times the longest value; it holds back H - 1 bytes.
 */
export const MAX_FORM_GROWTH = 6;

/**
 * The widest sampling step: one 4-byte read per `step` bytes of text, `step` being at most the
 * shortest pattern's length less 3. An offset table's entry holds a bit per offset (0-15) and one
 * per base64 offset behind a line break (16-31).
 */
export const MAX_STEP = 16;

/** How a pattern is verified against the input. */
export const EXACT = 0; // the bytes as they are (raw)
export const B64 = 1; // base64 of the value, with one LF or CRLF allowed between any two characters
// A base64 pattern's shape: the value (or its UTF-16LE) after B64_ALIGN zero bytes (0 to 2), in
// which alphabet, ending with the padded data's last character and '=' or not. Like a decoding
// pattern it keeps only its first DECODING_PREFIX characters; verification spells the rest from
// the value. Its length in characters is the shape >> B64_LENGTH.
export const B64_ALIGN = 3;
export const B64_URL_ALPHABET = 4;
export const B64_PADDED = 8;

/** Of the value's UTF-16LE (PowerShell's -EncodedCommand): line breaks at least UTF16_MIN_LINE characters apart. */
export const B64_UTF16 = 16;
export const B64_LENGTH = 5;

/**
 * UTF-16LE base64 is caught wrapped too, but only where its lines (all but the first) hold at
 * least this many characters: a line break after every character would let it span 8n + 6
 * bytes, a third more than any other form, and every stream would have to hold that back.
 */
export const UTF16_MIN_LINE = 4;
export const HEX = 2; // pairs of hex digits in any case, decoding to the value
export const URL = 3; // %XX in any case, + for a space, or the byte itself, decoding to the value
export const JSON_ = 4; // a JSON string's content (any escape, \uXXXX in any case), decoding to the value
export const XESC = 5; // \xXX in any case, or the byte itself, decoding to the value
export const HEXSEP = 6; // pairs of hex digits in any case, the pattern's separator (space, : or -) between two, one LF or CRLF allowed before it (`od`'s lines)
export const RAWW = 7; // the value's bytes, one LF or CRLF allowed between any two
export const HEXW = 8; // pairs of hex digits in any case, one LF or CRLF allowed between any two digits
// Kinds from HEX on decode the input and compare it with the value's raw bytes.
/** Kinds that a line break may split anywhere: filed also under the offsets breaks shift them to. */
export const WRAPPING = (1 << B64) | (1 << RAWW) | (1 << HEXW) | (1 << HEXSEP);
export const JSON_ONLY = 1 << JSON_;

/**
 * A decoding pattern (hex, url, json) keeps only this many of its first bytes: the filter reads
 * at most MAX_STEP + 6 (a base64 form's grams behind a line break) and the key 12; verification
 * decodes the input against the value's raw bytes.
 */
export const DECODING_PREFIX = MAX_STEP + 6;

/**
 * How the patterns under one key are told apart (`longestIn`): by the input read as each class
 * reads it. Raw bytes as they are (0); url (1), json (2), \x escapes (4), hex with line breaks
 * skipped (5) and separated hex (6) decoded to the value's bytes; base64 and raw-wrapped characters
 * with line breaks skipped (3), UTF-16LE base64's further on (7: its character 18 is the value's 7th).
 */
export const CHECK_CLASS = [0, 3, 5, 1, 2, 4, 6, 3, 5]; // by kind: EXACT, B64, HEX, URL, JSON_, XESC, HEXSEP, RAWW, HEXW
export const CHECK_UTF16 = 7;

/** Classes told apart by their value's bytes (the input decoded), not their own. */
export const BY_VALUE = (1 << 1) | (1 << 2) | (1 << 4) | (1 << 5) | (1 << 6);

/** Where a pattern's check gram is: the last 4 of the bytes a decoding form keeps (of its value's bytes, where it is told apart by them). */
export const CHECK_AT = DECODING_PREFIX - 4;

/** UTF-16LE base64's check gram: its characters there stand for the value's 18th character, as CHECK_AT does for the others. */
export const CHECK_AT_UTF16 = 48;

/**
 * How many patterns under one key make the check worth its reads (smaller groups verify each):
 * one value's own forms put up to 6 under its raw bytes' key (raw, raw-wrapped, json, url, \x).
 */
export const CHECK_FROM = 12;

/**
 * The most input bytes a pattern of `len` bytes (a base64 one: characters) over a value of `raw`
 * bytes can span: one LF or CRLF between any two characters of a wrapping form (UTF-16LE base64's
 * at least UTF16_MIN_LINE characters apart after the first); JSON's `\u0041` for every byte.
 */
export function spanOf(kind: number, len: number, raw: number, shape: number): number {
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

export const B64_STD = enc.encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
export const B64_URL = enc.encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
export const EQ = 61; // '='
/** Hex digit values, 255 for anything else. */
export const HEXVAL = new Uint8Array(256).fill(255);
for (let i = 0; i < 16; i++) {
  HEXVAL['0123456789abcdef'.charCodeAt(i)] = i;
  HEXVAL['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** Form names, indexed as the compile records them; PARTIAL is a name's slot for a cut-off form. */
export const FORMS = [
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
export const F_RAW = 0;
export const F_B64 = 1;
export const F_B64URL = 2;
export const F_HEX = 3;
export const F_URL = 4;
export const F_JSON = 5;
export const F_XESC = 6;
export const F_HEXSEP = 7;
export const F_B64_UTF16 = 8;
export const F_RAWW = 9;
export const F_HEXW = 10;
export const F_PARTIAL = 11;
