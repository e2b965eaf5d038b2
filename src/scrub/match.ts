// The longest match at a start: the patterns under the start's key (and under the keys its line
// breaks skipped or its JSON escapes decoded give), told apart by their check grams, verified.
import { utf8Into } from './json-view.ts';
import { GOLDEN5, gramAt, hasBackslash, hasBreak, mixKey, U00, wordAt } from './grams.ts';
import { BY_VALUE, CHECK_AT, CHECK_AT_UTF16, CHECK_UTF16, HEXVAL, JSON_ONLY, WRAPPING } from './kinds.ts';
import type { Tables } from './tables.ts';
import { decodeJson, jsonEscape, skipBreak, unitEnd, urlByte, xescByte } from './units.ts';
import { verify } from './verify.ts';

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

/** Reused for the key of a start with line breaks skipped, or JSON escapes decoded (a code point's UTF-8 may run past 12). */
const KEY = new Uint8Array(16);

/**
 * The longest match starting at s. Its first 8 bytes (12 after `\u00`) are the key; when a line
 * break lies among them, the wrapping forms (base64, raw and hex) are also looked up by their first
 * 8 bytes from s with line breaks skipped (no other form spans a break); when a backslash does,
 * json patterns by the first 8 bytes JSON's escapes decode to (so `ghp\u005f` is found under
 * `ghp_`, the spelling that escapes nothing).
 */
export function matchAt(t: Tables, d: Uint8Array, s: number, n: number, best: Int32Array): boolean {
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
