// Grams, the 4 bytes read at once that the filters and keys hash: folding, the hashes' multipliers,
// a start's key, two-bit filter entries, and exact tests of a read for a line break or a backslash.
import { enc } from './utf8.ts';

export const GOLDEN = 0x9e3779b1;
export const GOLDEN2 = 0x85ebca6b;
export const GOLDEN3 = 0xc2b2ae35;
export const GOLDEN4 = 0x27d4eb2f;
export const GOLDEN5 = 0x165667b1;

/** Grams are compared with every byte's 0x20 bit set: 'A' and 'a' (and '@' and '`') look alike. */
export const FOLD = 0x20202020;
export const gramAt = (d: Uint8Array, i: number) => d[i] | (d[i + 1] << 8) | (d[i + 2] << 16) | (d[i + 3] << 24) | FOLD;

/** The 4 bytes at i as they are (a value's, unfolded). */
export const wordAt = (d: Uint8Array, i: number) => d[i] | (d[i + 1] << 8) | (d[i + 2] << 16) | (d[i + 3] << 24);

/** `\u00`, folded: starts whose key reads 12 bytes (every JSON escape of ASCII begins so). */
export const U00 = gramAt(enc.encode('\\u00'), 0);
/** A start's key: its first two folded grams, and the third after `\u00` (`isLong`), hashed. */
export const mixKey = (a: number, b: number, c: number) => {
  let h = Math.imul(a, GOLDEN) ^ b;
  h = Math.imul(h ^ (h >>> 15), GOLDEN2) ^ c;
  return Math.imul(h ^ (h >>> 13), GOLDEN3) ^ (h >>> 16);
};
const isLong = (d: Uint8Array, o: number, len: number) => len >= 12 && gramAt(d, o) === U00;
export const keyOfPattern = (d: Uint8Array, o: number, len: number) => mixKey(gramAt(d, o), gramAt(d, o + 4), isLong(d, o, len) ? gramAt(d, o + 8) : 0);

/** Sets the two bits of a folded gram in a two-bit filter (`breaks`, `escapes`). */
export function setPair(bits: Int32Array, shift: number, v: number, h1: number, h2: number): void {
  const b = Math.imul(v, h1) >>> shift;
  const c = Math.imul(v, h2) >>> shift;
  bits[b >>> 5] |= 1 << (b & 31);
  bits[c >>> 5] |= 1 << (c & 31);
}
export const pairHas = (bits: Int32Array, shift: number, v: number, h1: number, h2: number) => {
  const b = Math.imul(v, h1) >>> shift;
  const c = Math.imul(v, h2) >>> shift;
  return (bits[b >>> 5] & (1 << (b & 31))) !== 0 && (bits[c >>> 5] & (1 << (c & 31))) !== 0;
};

/** Whether a 4-byte read holds an LF or a CR (exact). */
export const hasBreak = (v: number) => {
  const a = v ^ 0x0a0a0a0a;
  const c = v ^ 0x0d0d0d0d;
  return ((((a - 0x01010101) & ~a) | ((c - 0x01010101) & ~c)) & 0x80808080) !== 0;
};

/** Whether a 4-byte read holds a backslash (exact). */
export const hasBackslash = (v: number) => {
  const z = v ^ 0x5c5c5c5c;
  return ((z - 0x01010101) & ~z & 0x80808080) !== 0;
};

/** Whether a 4-byte read holds a byte below 14 (so maybe a CR or an LF; exact, no misses). */
export const hasControl = (v: number) => ((v - 0x0e0e0e0e) & ~v & 0x80808080) !== 0;
