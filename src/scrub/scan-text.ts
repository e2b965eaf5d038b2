// The scan over strings, when every value is ASCII. A match is then a run of ASCII characters, so it stands at the same offsets in a string's
// characters as in its UTF-8 where the text is ASCII, and is the same run of characters wherever
// it is not. The scan reads the characters: no encoding, which costs Chromium more than the scan.
import type { Cover } from './cover.ts';
import { FOLD, GOLDEN, GOLDEN2, GOLDEN3, hasBackslash, hasBreak, hasControl } from './grams.ts';
import { breaksPass, mayBreak, mayEscape, pairPasses, scan, startGram } from './scan.ts';
import type { Tables } from './tables.ts';
import { charsInto } from './utf8.ts';

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
export const wellFormed = (text: string, a: number, b: number) => text.slice(a, b).toWellFormed();

/** The chars of text[a, b) as bytes: an ASCII char as itself, any other as 0xff, which no pattern holds. */
export function charsAsBytes(text: string, a: number, b: number): Uint8Array {
  let out = charBytes;
  if (out.length < b - a) {
    out = new Uint8Array(Math.max(b - a, Math.min(CHAR_BYTES_MAX, 2 * out.length)));
    if (out.length <= CHAR_BYTES_MAX) charBytes = out;
  }
  charsInto(out, text, a, b);
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
export function scanText(t: Tables, text: string, m: number[], start: number, stop: number, c: Cover): number {
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
  charsInto(ESCAPE_CHARS, text, a, b);
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
  charsInto(AROUND, text, a, b);
  return mayBreak(t, AROUND, p - a, b - a);
}
const AROUND = new Uint8Array(32);
