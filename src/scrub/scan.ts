// The scan over bytes: one 4-byte sample a step, the filter's test of it, and where it passes (or a
// line break or escape may lie inside a form) the starts it covers tried for a match.
import { type Cover, record } from './cover.ts';
import { FOLD, GOLDEN, GOLDEN2, GOLDEN3, GOLDEN4, GOLDEN5, gramAt, hasBackslash, hasBreak, hasControl, pairHas, wordAt } from './grams.ts';
import { matchAt } from './match.ts';
import type { Tables } from './tables.ts';
import { decodedTo, decodeJson, hexAt, jsonEscape, loneCr, skipBreak } from './units.ts';

/**
 * Finds the longest match at every start in [from, limit) of d[0, n) and records into `m` those
 * that reach past what `c` already covers (`record`). After a match the scan goes on at its
 * start's next byte, so a match starting inside another is seen (GAPS §9, overlapping matches).
 */
export function scan(t: Tables, d: Uint8Array, from: number, limit: number, n: number, m: number[], c: Cover): void {
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
export function startGram(t: Tables, p: number, o: number): boolean {
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
export function mayEscape(t: Tables, d: Uint8Array, p: number, n: number): boolean {
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
export function mayBreak(t: Tables, d: Uint8Array, p: number, n: number): boolean {
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
export function pairPasses(t: Tables, before: number, after: number): boolean {
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
export function breaksPass(t: Tables, after: number, ahead: number): boolean {
  const { breaks, breakShift } = t;
  const a = Math.imul(after, GOLDEN3) >>> breakShift;
  const a2 = Math.imul(after, GOLDEN4) >>> breakShift;
  if ((breaks[a >>> 5] & (1 << (a & 31))) !== 0 && (breaks[a2 >>> 5] & (1 << (a2 & 31))) !== 0) return true;
  return pairHas(t.breaksAhead, t.aheadShift, ahead, GOLDEN, GOLDEN5);
}
