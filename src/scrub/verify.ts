// Verification: whether a pattern matches at a start, and where the match ends.
import { utf8Into } from './json-view.ts';
import {
  B64,
  B64_ALIGN,
  B64_STD,
  B64_URL,
  B64_URL_ALPHABET,
  B64_UTF16,
  EQ,
  EXACT,
  HEX,
  HEXSEP,
  HEXVAL,
  HEXW,
  RAWW,
  URL,
  UTF16_MIN_LINE,
  XESC,
} from './kinds.ts';
import type { Tables } from './tables.ts';
import { jsonEscape, skipBreak, unitEnd, urlByte, xescByte } from './units.ts';

/** The end of pattern p matched at s in d[0, n), or -1. */
export function verify(t: Tables, p: number, d: Uint8Array, s: number, n: number): number {
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

/** A code point's UTF-8, for comparing an escape with a value's bytes. */
const UNIT = new Uint8Array(4);

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
