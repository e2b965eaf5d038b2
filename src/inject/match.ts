// Linear-time matching of rule globs and endpoint patterns (README, Security: bounded). Nothing
// here builds a regular expression from a pattern or backtracks: a glob runs as a set of NFA
// positions over the path (at most path × pattern steps), a `*`-only pattern (a host label) as
// literal pieces found left to right with KMP (linear in text + pattern). Pure.
import { DFA_STATES } from '../limits.ts';

// A compiled glob is a bit-parallel NFA (shift-and): bit p is "before op p", bit n is "matched".
const CHAR = 0;
/** `?`: one character but `/`. */
const ONE = 1;
/** `*`: any run without `/`. */
const STAR = 2;
/** `**` as whole segments (`starRun`): any run. */
const GLOBSTAR = 3;
/** Consumes nothing: in `/**\/` it stands after the first `/`, and may jump past `**` and the second `/`. */
const OPT = 4;
const SLASH = 47;

interface Glob {
  /** Positions (ops) and 32-bit words of the state. */
  n: number;
  words: number;
  /** Per ASCII code, `words` words: the ops the character advances (its CHAR ops, and `?` but for `/`). */
  ascii: Int32Array;
  /** The same for other characters of the glob. */
  wide: Map<number, Int32Array>;
  /** What any other character advances: the `?` ops. */
  other: Int32Array;
  /** Ops that keep their position on a character: `*` and `**`; on `/`, only `**`. */
  loop: Int32Array;
  loopSlash: Int32Array;
  /** Ops whose position also holds the next without a character (`*`, `**`, OPT)… */
  empty: Int32Array;
  /** …and OPT's, which also holds the one three further (`/**\/` read as a single `/`). */
  jump: Int32Array;
  /**
   * A part's lazy DFA, anchored and not: the states met so far by number, and per state its
   * next state's number for each ASCII character (-1 until first needed).
   */
  dfa?: [Dfa, Dfa];
}
interface Dfa {
  ids: Map<number, number>;
  states: number[];
  /** Row `id` × 128 + an ASCII code: the next state's row (its id × 128), -1 until first needed. */
  next: Int32Array;
  /** Per state: ACCEPTS or 0. No state without a way on is ever numbered: the scan ends there. */
  flags: Uint8Array;
}
const ACCEPTS = 1;

const has = (bits: Int32Array, p: number) => (bits[p >>> 5] & (1 << (p & 31))) !== 0;
const set = (bits: Int32Array, p: number) => {
  bits[p >>> 5] |= 1 << (p & 31);
};

/**
 * The run of `*` that starts at `glob[i]`: where it ends, and whether it is a `**` standing for
 * whole path segments (exactly two stars with `/` or the glob's edge on each side: `/a/**`,
 * `/**\/b`, `/**`), the only `*` that crosses `/`. Any other run (`/a**`, `/**x`, `/***`) is one
 * `*`, as fnox's globset reads it (README, Forward).
 */
function starRun(glob: string, i: number): { end: number; globstar: boolean } {
  let end = i;
  while (glob[end] === '*') end++;
  const globstar = end - i === 2 && (i === 0 || glob[i - 1] === '/') && (end === glob.length || glob[end] === '/');
  return { end, globstar };
}

function compileGlob(glob: string): Glob {
  const ops: number[] = [];
  const chars: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      const run = starRun(glob, i);
      if (run.globstar) {
        // `/**/` may also be a single `/`, as in fnox's globset: OPT, `**`, `/`.
        if (glob[i - 1] === '/' && glob[i + 2] === '/') {
          ops.push(OPT);
          chars.push(0);
        }
        ops.push(GLOBSTAR);
      } else ops.push(STAR);
      chars.push(0);
      i = run.end - 1;
    } else {
      ops.push(c === '?' ? ONE : CHAR);
      chars.push(glob.charCodeAt(i));
    }
  }
  const n = ops.length;
  const words = (n >>> 5) + 1;
  const bits = () => new Int32Array(words);
  const other = bits();
  const loop = bits();
  const loopSlash = bits();
  const empty = bits();
  const jump = bits();
  ops.forEach((op, p) => {
    if (op === ONE) set(other, p);
    if (op === STAR || op === GLOBSTAR) set(loop, p);
    if (op === STAR || op === GLOBSTAR || op === OPT) set(empty, p);
    if (op === GLOBSTAR) set(loopSlash, p);
    if (op === OPT) set(jump, p);
  });
  const ascii = new Int32Array(128 * words);
  for (let c = 0; c < 128; c++) if (c !== SLASH) ascii.set(other, c * words);
  const wide = new Map<number, Int32Array>();
  ops.forEach((op, p) => {
    const c = chars[p];
    if (op !== CHAR) return;
    if (c < 128) ascii[c * words + (p >>> 5)] |= 1 << (p & 31);
    else {
      if (!wide.has(c)) wide.set(c, Int32Array.from(other));
      set(wide.get(c)!, p);
    }
  });
  return { n, words, ascii, wide, other, loop, loopSlash, empty, jump };
}

/** Adds every position reachable without a character: `*` and `**` matching nothing, OPT's jump. */
function close(state: Int32Array, empty: Int32Array, jump: Int32Array, words: number) {
  for (let changed = true; changed; ) {
    changed = false;
    let carry1 = 0;
    let carry3 = 0;
    for (let w = 0; w < words; w++) {
      const x = state[w] & empty[w];
      const z = state[w] & jump[w];
      const y = (x << 1) | carry1 | (z << 3) | carry3;
      carry1 = x >>> 31;
      carry3 = z >>> 29;
      if ((y & ~state[w]) !== 0) {
        state[w] |= y;
        changed = true;
      }
    }
  }
}

/**
 * A glob cut at its `**`: parts with only literals, `?` and `*`, matched left to right. Each part
 * is taken where it ends first, which is exact: whatever follows a `**` can start anywhere later,
 * so an earlier end never loses a match. A part after `/**\/` may also start on the `/` that ended
 * the part before (the `/**\/` read as a single `/`).
 */
interface Part {
  /** The part as written in the glob, and its key when searched anchored. */
  text: string;
  anchoredKey: string;
  /** The part's text when it holds no wildcard (searched as a string). */
  literal: string | null;
  /** Its automaton, compiled on first use (`automatonOf`): most literal parts never need one. */
  glob?: Glob;
  /** The automaton of its text reversed, for a last part (`endsWithPart`). */
  reversed?: Glob;
  /** Starts with the `/` of a `/**\/`: may share the previous part's last `/`. */
  shared: boolean;
  /** The literal prepared for searching, on first use. */
  prepared?: Literal;
}
const automatonOf = (part: Part) => (part.glob ??= compileGlob(part.text));

/** A glob without `**` as one automaton, anchored at both ends; with `**`, its parts. */
type Prepared = { whole: Glob; parts: null } | { whole: null; parts: Part[] };

function splitGlob(glob: string): Part[] | null {
  const parts: Part[] = [];
  let text = '';
  let shared = false;
  const end = () => {
    const literal = /[*?]/.test(text) ? null : text;
    parts.push({ text, anchoredKey: `^${text}`, literal, shared });
    text = '';
  };
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === '*') {
      // A part keeps no run of stars: a glued one is a single `*`.
      const run = starRun(glob, i);
      if (run.globstar) {
        end();
        shared = glob[i - 1] === '/' && glob[i + 2] === '/';
      } else text += '*';
      i = run.end - 1;
    } else text += glob[i];
  }
  if (parts.length === 0) return null;
  end();
  return parts;
}

/** A glob compiled once, by the plan that holds it (`prepareGlob`): its automata are made on first use. */
export type PreparedGlob = Prepared;

/** A rule's path glob, compiled for matching many paths: a plan holds one per glob of its rules. */
export function prepareGlob(glob: string): PreparedGlob {
  const parts = splitGlob(glob);
  return parts ? { whole: null, parts } : { whole: compileGlob(glob), parts: null };
}

/**
 * Rule path globs: `*` any run without `/`, `**` any run where it stands for whole segments (else
 * it is `*`: `starRun`), `?` one character but `/`, `/**\/` also a single `/`; every other
 * character is literal. Without `**`, one automaton runs over the path, a few passes over its
 * state words per character (the worst case is path × glob / 32). With `**`, each part is found
 * after the one before, so the path is read about once per glob: a literal part of up to 4
 * characters by `indexOf` (even naive, 4 × path), a longer one at its rarest character's places or
 * by its automaton (KMP from 32 characters), a part with wildcards by its automaton, and the last
 * part backwards from the path's end (`endsWithPart`).
 */
export function globMatches(glob: string, path: string, reader: PathReader = new PathReader(path)): boolean {
  return preparedMatches(prepareGlob(glob), path, reader);
}

/** `globMatches` with the glob compiled before. */
export function preparedMatches(g: PreparedGlob, path: string, reader: PathReader = new PathReader(path)): boolean {
  let answer = reader.answers.get(g);
  if (answer === undefined) reader.answers.set(g, (answer = matchesOnce(g, path, reader)));
  return answer;
}

function matchesOnce(g: PreparedGlob, path: string, reader: PathReader): boolean {
  if (g.whole) return g.whole.words === 1 ? run1(g.whole, path) : runN(g.whole, path);
  const { parts } = g;
  let at = firstEnd(parts[0], reader, 0, true);
  for (let k = 1; at >= 0 && k < parts.length - 1; k++) at = firstEnd(parts[k], reader, parts[k].shared ? at - 1 : at, false);
  if (at < 0) return false;
  const last = parts[parts.length - 1];
  const from = last.shared ? at - 1 : at;
  if (last.literal !== null) return path.length - last.literal.length >= from && textAt(path, last.literal, path.length - last.literal.length);
  // The last part ends at the path's end: read backwards from there, only as far as a match can reach.
  last.reversed ??= compileGlob(last.text.split('').reverse().join(''));
  if (last.reversed.words === 1) return endsWithPart(last.reversed, path, from);
  return scan(automatonOf(last), path, from, false, true) === path.length;
}

/**
 * Whether path[s, end) matches a part for some s ≥ from, given the part's automaton compiled from
 * its text reversed (code unit by code unit, as the path is read): the path is read from its end
 * backwards until the automaton accepts or has no way on, so a last part like `/c/*` reads the
 * last segment and a few characters, not the whole path.
 */
function endsWithPart(g: Glob, path: string, from: number): boolean {
  const accept = 1 << g.n;
  let state = startOfPart(g);
  for (let s = path.length; ; s--) {
    if ((state & accept) !== 0) return true;
    if (s <= from) return false;
    state = stepPart(g, state, path.charCodeAt(s - 1));
    if (state === 0) return false;
  }
}

// A part has no `**`, so no two `*` are next to each other: one step closes a state.
/** A one-word part automaton's state before any character. */
const startOfPart = (g: Glob) => 1 | ((1 & g.empty[0]) << 1);
/** A one-word part automaton's state after one more character. */
function stepPart(g: Glob, state: number, c: number): number {
  const a = c < 128 ? g.ascii[c] : (g.wide.get(c)?.[0] ?? g.other[0]);
  const next = (c === SLASH ? 0 : state & g.loop[0]) | ((state & a) << 1);
  return next | ((next & g.empty[0]) << 1);
}

/** The glob's single automaton over the whole path, `**` and all: the reading the parts must agree with. */
export function globMatchesWhole(glob: string, path: string): boolean {
  const g = compileGlob(glob);
  return g.words === 1 ? run1(g, path) : runN(g, path);
}

/**
 * `text` holds `piece` at `from`. A slice compared whole: engines compare flat strings in bulk,
 * where `startsWith` with a position can go character by character (20× slower in V8).
 */
export const textAt = (text: string, piece: string, from: number) => text.slice(from, from + piece.length) === piece;

/** Where the first match of the part starting at `from` (or anywhere after, unless anchored) ends; -1 if none. */
function firstEnd(part: Part, reader: PathReader, from: number, anchored: boolean): number {
  // Globs of one decision share parts (`/v1/`, `/repos/`), searched from about the same place.
  const seen = reader.searches;
  const key = anchored ? part.anchoredKey : part.text;
  const before = seen.get(key);
  if (before && reusable(before, from, anchored)) return before.end;
  const end = search(part, reader, from, anchored);
  // A literal's match starts its length before its end; an automaton's start isn't known.
  const start = part.literal !== null && end >= 0 ? end - part.literal.length : -1;
  if (before) {
    before.from = from;
    before.end = end;
    before.start = start;
  } else seen.set(key, { from, end, start });
  return end;
}

/**
 * A search's answer holds for a later one of the same part: from the same place; or, unanchored,
 * from further on when nothing was found, or when what was found starts no earlier.
 */
interface Search {
  from: number;
  end: number;
  start: number;
}
const reusable = (s: Search, from: number, anchored: boolean) => from === s.from || (!anchored && from > s.from && (s.end < 0 || from <= s.start));

function search(part: Part, reader: PathReader, from: number, anchored: boolean): number {
  const { path } = reader;
  const { literal } = part;
  if (literal === null) return scan(automatonOf(part), path, from, anchored, false);
  // Anchored, or found where the search starts (as in a chain of `**/a/`): one comparison.
  if (textAt(path, literal, from)) return from + literal.length;
  if (anchored) return -1;
  // Up to 4 characters, the engine's own search: even naive, it compares at most 4 × the path.
  if (literal.length <= 4) {
    const found = path.indexOf(literal, from);
    return found < 0 ? -1 : found + literal.length;
  }
  part.prepared ??= prepareLiteral(literal);
  const index = reader.index;
  // A literal of at most 31 characters is one DFA lookup a character; a longer one KMP.
  if (literal.length < 32) {
    const rare = findRare(part.prepared, index, from, path.length);
    return rare !== SCAN ? rare : scan(automatonOf(part), path, from, false, false);
  }
  return findLiteral(part.prepared, index, from, path.length);
}

/**
 * One path as every glob of a decision reads it: its index, made on first use, and the part
 * searches already done over it. A decision makes one, on its first rule.
 */
export class PathReader {
  readonly searches = new Map<string, Search>();
  /** Each prepared glob's answer for this path: rules often share their globs. */
  readonly answers = new Map<PreparedGlob, boolean>();
  private made: TextIndex | null = null;
  constructor(readonly path: string) {}
  get index(): TextIndex {
    this.made ??= new TextIndex(this.path);
    return this.made;
  }
}

/**
 * Runs a part's automaton from `from`: anchored there, or (unanchored) starting afresh at every
 * later character too. Answers the first end of a match, or with `toEnd` whether one ends at the
 * end of the path (its length, else -1).
 */
function scan(g: Glob, path: string, from: number, anchored: boolean, toEnd: boolean): number {
  if (g.words !== 1) return scanN(g, path, from, anchored, toEnd);
  const accept = 1 << g.n;
  const start = startOfPart(g);
  // Unanchored, a match may also start at every character.
  const fresh = anchored ? 0 : start;
  const dfa = (g.dfa ??= [dfaOf(), dfaOf()])[anchored ? 0 : 1];
  /** The state's row, or -1 once the DFA is full (then the automaton is stepped without it). */
  const rowOf = (state: number) => {
    let id = dfa.ids.get(state);
    if (id === undefined) {
      if (dfa.states.length >= DFA_STATES) return -1;
      id = dfa.states.length;
      if (id === dfa.flags.length) {
        const next = new Int32Array(2 * dfa.next.length).fill(-1);
        next.set(dfa.next);
        dfa.next = next;
        const flags = new Uint8Array(2 * id);
        flags.set(dfa.flags);
        dfa.flags = flags;
      }
      dfa.ids.set(state, id);
      dfa.states.push(state);
      dfa.flags[id] = state & accept ? ACCEPTS : 0;
    }
    return id << 7;
  };
  // What stops the table's loop at a state: a match, unless it must reach the end.
  const stop = toEnd ? 0 : ACCEPTS;
  let state = start;
  let row = rowOf(state);
  let i = from;
  for (;;) {
    if (row >= 0) {
      // One table read a character, while the text stays in ASCII and the transitions are known.
      const { next, flags } = dfa;
      while (i < path.length && (flags[row >> 7] & stop) === 0) {
        const c = path.charCodeAt(i);
        const to = c < 128 ? next[row + c] : -1;
        if (to < 0) break;
        row = to;
        i++;
      }
      state = dfa.states[row >> 7];
    }
    // `state` is the automaton's after path[from, i).
    if (!toEnd && (state & accept) !== 0) return i;
    if (i === path.length) break;
    const c = path.charCodeAt(i++);
    const after = stepPart(g, state, c) | fresh;
    if (after === 0) return -1;
    if (c >= 128)
      row = rowOf(after); // back on the table outside ASCII (unless it is full)
    else if (row >= 0) {
      const to = rowOf(after);
      if (to >= 0) dfa.next[row + c] = to;
      row = to;
    }
    state = after;
  }
  return (state & accept) !== 0 ? path.length : -1;
}
const dfaOf = (): Dfa => ({ ids: new Map(), states: [], next: new Int32Array(8 * 128).fill(-1), flags: new Uint8Array(8) });

function scanN(g: Glob, path: string, from: number, anchored: boolean, toEnd: boolean): number {
  const { n, words, ascii, wide, other, loop, empty, jump } = g;
  const start = new Int32Array(words);
  set(start, 0);
  close(start, empty, jump, words);
  let state = Int32Array.from(start);
  let next = new Int32Array(words);
  for (let i = from; i < path.length; i++) {
    if (!toEnd && has(state, n)) return i;
    const c = path.charCodeAt(i);
    const a = c < 128 ? ascii : (wide.get(c) ?? other);
    const at = c < 128 ? c * words : 0;
    let carry = 0;
    let any = 0;
    for (let w = 0; w < words; w++) {
      const x = state[w] & a[at + w];
      next[w] = (c === SLASH ? 0 : state[w] & loop[w]) | (x << 1) | carry;
      carry = x >>> 31;
      any |= next[w];
    }
    if (any !== 0) close(next, empty, jump, words);
    if (!anchored) for (let w = 0; w < words; w++) next[w] |= start[w];
    else if (any === 0) return -1;
    const swap = state;
    state = next;
    next = swap;
  }
  return has(state, n) ? path.length : -1;
}

/** The common case: at most 31 ops, the state in one integer. */
function run1(g: Glob, path: string): boolean {
  const { ascii, wide } = g;
  const other = g.other[0];
  const loop = g.loop[0];
  const loopSlash = g.loopSlash[0];
  const empty = g.empty[0];
  const jump = g.jump[0];
  const closed = (s: number) => {
    for (let t = s | ((s & empty) << 1) | ((s & jump) << 3) | 0; t !== s; t = s | ((s & empty) << 1) | ((s & jump) << 3) | 0) s = t;
    return s;
  };
  let state = closed(1);
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    const a = c < 128 ? ascii[c] : (wide.get(c)?.[0] ?? other);
    const next = (state & (c === SLASH ? loopSlash : loop)) | ((state & a) << 1) | 0;
    if (next === 0) return false;
    state = closed(next);
  }
  return (state & (1 << g.n)) !== 0;
}

function runN(g: Glob, path: string): boolean {
  const { n, words, ascii, wide, other, loop, loopSlash, empty, jump } = g;
  let state = new Int32Array(words);
  let next = new Int32Array(words);
  set(state, 0);
  close(state, empty, jump, words);
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    const a = c < 128 ? ascii : (wide.get(c) ?? other);
    const at = c < 128 ? c * words : 0;
    const l = c === SLASH ? loopSlash : loop;
    let carry = 0;
    let any = 0;
    for (let w = 0; w < words; w++) {
      const x = state[w] & a[at + w];
      next[w] = (state[w] & l[w]) | (x << 1) | carry;
      carry = x >>> 31;
      any |= next[w];
    }
    if (any === 0) return false;
    close(next, empty, jump, words);
    const swap = state;
    state = next;
    next = swap;
  }
  return has(state, n);
}

/** The KMP failure table of a literal piece. */
function failure(piece: string): Int32Array {
  const f = new Int32Array(piece.length);
  for (let i = 1, k = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    while (k > 0 && c !== piece.charCodeAt(k)) k = f[k - 1];
    if (c === piece.charCodeAt(k)) k++;
    f[i] = k;
  }
  return f;
}
/** The first index in [from, end) where piece occurs whole, or -1; linear in text + piece. */
function find(text: string, piece: string, from: number, end: number): number {
  if (piece.length === 0) return from;
  return kmp(text, piece, failure(piece), from, end);
}
/** `find` with the piece's failure table given. */
function kmp(text: string, piece: string, f: Int32Array, from: number, end: number): number {
  for (let i = from, k = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== piece.charCodeAt(k)) k = f[k - 1];
    if (c === piece.charCodeAt(k)) k++;
    if (k === piece.length) return i - k + 1;
  }
  return -1;
}

/**
 * A literal prepared for searching, each part on first use (an entry list is prepared on every
 * `forward`, and most pieces are never searched): its codes, KMP failure table, and distinct
 * characters with where each first stands.
 */
export interface Literal {
  text: string;
  codes?: Uint16Array;
  table?: Int32Array;
  chars?: { code: number; at: number }[];
}
export const prepareLiteral = (text: string): Literal => ({ text });
const codesOfLiteral = (lit: Literal) => (lit.codes ??= Uint16Array.from(lit.text, (c) => c.charCodeAt(0)));
function charsOf(lit: Literal) {
  if (!lit.chars) {
    const seen = new Map<number, number>();
    codesOfLiteral(lit).forEach((code, at) => seen.has(code) || seen.set(code, at));
    lit.chars = [...seen].map(([code, at]) => ({ code, at }));
  }
  return lit.chars;
}
/** A text read once for every prepared pattern: its character codes and how often each occurs. */
export class TextIndex {
  readonly codes: Uint16Array;
  private readonly ascii = new Int32Array(128);
  private readonly wide = new Map<number, number>();
  constructor(readonly text: string) {
    this.codes = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      this.codes[i] = c;
      if (c < 128) this.ascii[c]++;
      else this.wide.set(c, (this.wide.get(c) ?? 0) + 1);
    }
  }
  count(c: number): number {
    return c < 128 ? this.ascii[c] : (this.wide.get(c) ?? 0);
  }
}

/**
 * Where a literal first occurs whole in `text[at, end)` (its end), or -1, when that is cheap to
 * find: it holds a character the text has few of, so only that character's places are tried
 * (found by `indexOf` of one character, each checked by one comparison), at most about
 * `end - at` in all. Otherwise SCAN: the caller searches the whole way.
 */
const SCAN = -2;
function findRare(lit: Literal, t: TextIndex, at: number, end: number): number {
  const m = lit.text.length;
  if (m === 0) return at;
  const chars = charsOf(lit);
  let rare = chars[0];
  let fewest = t.count(rare.code);
  for (const c of chars) {
    const n = t.count(c.code);
    if (n < fewest) {
      fewest = n;
      rare = c;
    }
  }
  if (fewest * (m + 16) > end - at) return SCAN;
  const { text } = t;
  const ch = String.fromCharCode(rare.code);
  for (let q = text.indexOf(ch, at + rare.at); q >= 0 && q - rare.at + m <= end; q = text.indexOf(ch, q + 1)) {
    if (textAt(text, lit.text, q - rare.at)) return q - rare.at + m;
  }
  return -1;
}

/** `findRare`, else KMP over the codes: linear whatever the text. */
function findLiteral(lit: Literal, t: TextIndex, at: number, end: number): number {
  const rare = findRare(lit, t, at, end);
  if (rare !== SCAN) return rare;
  const piece = codesOfLiteral(lit);
  const m = piece.length;
  const codes = t.codes;
  lit.table ??= failure(lit.text);
  const f = lit.table;
  for (let j = at, k = 0; j < end; j++) {
    const c = codes[j];
    while (k > 0 && c !== piece[k]) k = f[k - 1];
    if (c === piece[k]) k++;
    if (k === m) return j + 1;
  }
  return -1;
}

/**
 * One host label against its pattern, where `*` is any run (the empty one too:
 * refusing more is the safe side). With only one kind of wildcard, taking each literal piece at
 * its leftmost place is exact, so no position is ever tried twice.
 */
export function wildcardMatches(pattern: string, text: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*')) return pattern === text;
  const pieces = pattern.split('*');
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const found = find(text, pieces[i], at, end);
    if (found < 0) return false;
    at = found + pieces[i].length;
  }
  return true;
}
