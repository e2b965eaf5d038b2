// Filling the sampling filter and the key table, a pattern or a value at a time (`build` sizes them).
import { LOWER_HEX, SHORT_ESCAPE } from './forms.ts';
import { FOLD, GOLDEN, GOLDEN2, GOLDEN3, GOLDEN4, GOLDEN5, gramAt, setPair } from './grams.ts';

/** The filter's tables as `build` fills them. */
export interface Filling {
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
export function addGrams(t: Filling, o: number, len: number, b64: boolean): void {
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
export function addEscapes(t: Filling, o: number, n: number): void {
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
export function addKey(t: Filling, k: number): number {
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
