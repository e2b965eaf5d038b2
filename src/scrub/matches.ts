// Matches, of the text and of its JSON view (json-view.ts), settled into one list.
import { type Cover, newCover, settle } from './cover.ts';
import { type JsonView, decodeView, decodeViewText, escapes, viewWithRoom } from './json-view.ts';
import { scan } from './scan.ts';
import type { Tables } from './tables.ts';

/** A source the JSON view reads: bytes, or a string's chars as bytes (a char past ASCII as 0xff, as `charsAsBytes` reads them). */
export interface Source {
  length: number;
  /** The first backslash in [i, to) before a character that may begin a JSON escape, or -1. */
  escapeIn(i: number, to: number): number;
  byteAt(i: number): number;
  /** Source [a, b) decoded into `view` (`decodeView`), at the source's offsets. */
  decode(a: number, b: number, view: JsonView): void;
}

const bytesSource = (d: Uint8Array, n: number): Source => ({
  length: n,
  escapeIn(i, to) {
    for (let p = d.indexOf(92, i); p >= 0 && p < to; p = d.indexOf(92, p + 1)) if (p + 1 < n && escapes(d[p + 1])) return p;
    return -1;
  },
  byteAt: (i) => d[i],
  decode: (a, b, view) => decodeView(d, a, b, view, 0),
});

/**
 * A string as a source, made once per text: `indexOf` reads on to the text's end when no backslash
 * follows, so the last search's answer is kept for a text scanned in steps.
 */
export function textSource(text: string): Source {
  let searched = 0; // the first backslash at or after `searched` is `found` (-2: not searched yet)
  let found = -2;
  const backslash = (i: number) => {
    if (found === -2 || i < searched || (found >= 0 && found < i)) {
      searched = i;
      found = text.indexOf('\\', i);
    }
    return found;
  };
  return {
    length: text.length,
    escapeIn(i, to) {
      for (let p = backslash(i); p >= 0 && p < to; p = backslash(p + 1)) if (p + 1 < text.length && escapes(text.charCodeAt(p + 1))) return p;
      return -1;
    },
    byteAt: (i) => text.charCodeAt(i),
    decode: (a, b, view) => decodeViewText(text, a, b, view),
  };
}

/** No matches: what most texts' views give, without an array of their own. */
const NONE: readonly number[] = [];

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
export function viewMatches(t: Tables, src: Source, from: number, limit: number, cut: boolean): readonly number[] {
  const n = src.length;
  // No match starting before `limit` reads past this: the longest form, escaped once more.
  const stop = Math.min(n, limit + t.reach);
  const first = src.escapeIn(from, stop);
  if (first < 0) return NONE;
  const out: number[] = [];
  const margin = t.horizon + 16;
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
    src.decode(a, b, v);
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
  for (let p = first; p >= 0; p = src.escapeIn(p + 1, stop)) {
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

/** The matches of d's starts in [from, limit) and of its JSON view's, recorded over `c`. */
export function matchesOf(t: Tables, d: Uint8Array, from: number, limit: number, n: number, c: Cover, cut = false): number[] {
  const direct: number[] = [];
  scan(t, d, from, limit, n, direct, newCover());
  return settle(t, direct, viewMatches(t, bytesSource(d, n), from, limit, cut), c);
}
