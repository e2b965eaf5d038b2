// Reading one unit of a form at a time: a line break skipped, `%XX`, `\xXX`, a JSON escape.
// The decoders answer the byte or code point and leave where the unit ends in `unitEnd`.
import { JSON_ESCAPE, utf8Into } from './json-view.ts';
import { HEXVAL } from './kinds.ts';

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

/** Four hex digits at i as a number, or -1. */
export function hexAt(d: Uint8Array, i: number, n: number): number {
  if (i + 4 > n) return -1;
  const a = HEXVAL[d[i]];
  const b = HEXVAL[d[i + 1]];
  const c = HEXVAL[d[i + 2]];
  const e = HEXVAL[d[i + 3]];
  return (a | b | c | e) > 15 ? -1 : (a << 12) | (b << 8) | (c << 4) | e;
}

/** Where the unit `urlByte` or `jsonEscape` read ends. */
export let unitEnd = 0;

/** A line break (LF, CRLF or a lone CR) at i skipped, as base64 verification skips one before a character. */
export const skipBreak = (d: Uint8Array, i: number, n: number) => (d[i] === 10 ? i + 1 : d[i] === 13 ? (i + 1 < n && d[i + 1] === 10 ? i + 2 : i + 1) : i);

/** Whether a lone CR (a line break of its own, as progress output writes one) is at i. */
export const loneCr = (d: Uint8Array, i: number, n: number) => d[i] === 13 && (i + 1 >= n || d[i + 1] !== 10);

/** The byte that url form's unit at i stands for (`%XX` in either case, `+` for a space, else itself); sets `unitEnd`. */
export function urlByte(d: Uint8Array, i: number, n: number): number {
  const b = d[i];
  unitEnd = i + 1;
  if (b === 43) return 32;
  if (b !== 37 || i + 2 >= n || HEXVAL[d[i + 1]] === 255 || HEXVAL[d[i + 2]] === 255) return b;
  unitEnd = i + 3;
  return (HEXVAL[d[i + 1]] << 4) | HEXVAL[d[i + 2]];
}

/** The byte that the \x form's unit at i stands for (`\xXX` in either case, else itself); sets `unitEnd`. */
export function xescByte(d: Uint8Array, i: number, n: number): number {
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
export function jsonEscape(d: Uint8Array, i: number, n: number): number {
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

/**
 * JSON string content at i decoded (escapes, and other bytes as they are) into `out` until it
 * holds `want` bytes, an escape is invalid or the input ends; answers how many it holds.
 */
export function decodeJson(d: Uint8Array, i: number, n: number, out: Uint8Array, want: number): number {
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
export let decodedTo = 0;
