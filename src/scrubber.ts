// The vault's scrubber: replaces every form of every value (raw, base64/base64url at three
// alignments, hex, url, json) in bytes, strings or streams, leftmost-longest, never rescanning
// its own output. Design and measured figures: docs/scrubber.md.
import type { ScrubHit } from './contract.ts';

/** The owner calls `idle()` after this long without input. */
export const IDLE_MS = 250;
/** `idle()` releases a held tail only when it is shorter than this. */
export const IDLE_RELEASE_MAX = 16;
/** The shortest value (in UTF-8 bytes) the scrubber accepts, and the shortest pattern it builds. */
export const MIN_VALUE_BYTES = 8;

export interface ScrubValue {
  name: string;
  placeholder: string;
  value: string;
}

export interface Scrubber {
  /** UTF-8 encodes, scrubs and decodes (lone surrogates become U+FFFD, as with TextEncoder). */
  redact(text: string): { text: string; hits: ScrubHit[] };
  /** Without hits, returns `bytes` itself. */
  redactBytes(bytes: Uint8Array): { bytes: Uint8Array; hits: ScrubHit[] };
  stream(): ScrubStream;
  /** Distinct byte patterns compiled (every form of every value). */
  readonly patterns: number;
  /** Bytes held by the compiled tables. */
  readonly tableBytes: number;
}

export interface ScrubStream {
  /** Returns what can be released now, scrubbed; may be a view of `chunk`. */
  push(chunk: Uint8Array): Uint8Array;
  /** Releases a held tail shorter than IDLE_RELEASE_MAX as it is (a whole value in it replaced); a longer one stays held. */
  idle(): Uint8Array;
  /** Releases the rest, scrubbed. The stream can't be used after this. */
  end(): Uint8Array;
  /** Totals so far. */
  readonly hits: ScrubHit[];
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const EMPTY = new Uint8Array(0);
// Filter sizes: bloom bits per sampled 4-gram, and the largest tables (the bloom bitset is 128 KiB
// at most, so it stays in cache; the offset tables, 256 KiB each, are read only after a bloom hit).
const BLOOM_BITS_PER_GRAM = 16;
const BLOOM_MAX_BITS = 20;
const GRAM_MAX_BITS = 18;
const MAX_VALUE_BYTES = 2 ** 20;
const MAX_PATTERN = 2 ** 24; // bytes: above any form of a 1 MiB value (6 bytes per byte at most)
const GOLDEN = 0x9e3779b1;
const GOLDEN2 = 0x85ebca6b;
const GOLDEN3 = 0xc2b2ae35;

// ── Forms ──────────────────────────────────────────────────────────────────────────────

const B64 = enc.encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const B64URL = enc.encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
const HEX = enc.encode('0123456789abcdef');
const HEX_UPPER = enc.encode('0123456789ABCDEF');
const EQ = 61; // '='

/** Base64 of `a` zero bytes followed by `raw`, with padding. */
function base64(raw: Uint8Array, a: number, chars: Uint8Array): Uint8Array {
  const n = raw.length + a;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  const at = (i: number) => (i < a || i >= n ? 0 : raw[i - a]);
  for (let i = 0, w = 0; i < n; i += 3, w += 4) {
    const v = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    out[w] = chars[v >> 18];
    out[w + 1] = chars[(v >> 12) & 63];
    out[w + 2] = i + 1 < n ? chars[(v >> 6) & 63] : EQ;
    out[w + 3] = i + 2 < n ? chars[v & 63] : EQ;
  }
  return out;
}

function hex(raw: Uint8Array, chars: Uint8Array): Uint8Array {
  const out = new Uint8Array(raw.length * 2);
  raw.forEach((b, i) => {
    out[2 * i] = chars[b >> 4];
    out[2 * i + 1] = chars[b & 15];
  });
  return out;
}

/** Every encoded form of a value, in a fixed order; duplicates and forms equal to raw are dropped later. */
function encodedForms(value: string, raw: Uint8Array): [form: string, bytes: Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  const n = raw.length;
  for (let a = 0; a < 3; a++) {
    // The value's bytes after `a` unknown bytes: keep only the characters made of value bits alone.
    const std = base64(raw, a, B64);
    const url = base64(raw, a, B64URL);
    const from = Math.ceil((8 * a) / 6);
    const to = Math.floor((8 * (a + n)) / 6);
    out.push(['base64', std.subarray(from, to)], ['base64url', url.subarray(from, to)]);
    // The value ending padded data: its last partial character (zero bits after it), then '='.
    if ((a + n) % 3) out.push(['base64', std.subarray(from)], ['base64url', url.subarray(from)]);
  }
  out.push(['hex', hex(raw, HEX)], ['hex', hex(raw, HEX_UPPER)]);
  out.push(['url', enc.encode(encodeURIComponent(value))]);
  const json = JSON.stringify(value).slice(1, -1);
  out.push(['json', enc.encode(json)]);
  // Many JSON writers (Python's default among them) escape everything outside ASCII.
  if (/[^\0-\x7f]/.test(json)) out.push(['json', enc.encode(json.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')))]);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function fnv(b: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h & 0x3fffffff; // a small integer, cheap as a Map key
}

// ── Tables ─────────────────────────────────────────────────────────────────────────────

interface Tables {
  count: number; // patterns
  pat: Uint8Array; // every pattern's bytes, back to back
  off: Int32Array;
  len: Int32Array;
  slot: Int32Array; // pattern → index into slots (one per name and form)
  rep: Uint8Array[]; // pattern → replacement
  slots: { name: string; form: string }[];
  // Sampling filter on the 4 bytes at x. `bloom` (a bitset small enough to stay in cache): may any
  // pattern have them among its first `step` grams? If so, bit o of gram[hash] and of gram2[hash2]
  // (independent hashes): may a pattern have them at offset o? Only then is x - o a candidate start.
  step: number;
  bloom: Int32Array;
  bloomShift: number;
  gram: Uint8Array;
  gram2: Uint8Array;
  gramShift: number;
  // Verification: 4-byte prefix → patterns with that prefix, longest first.
  keys: Uint32Array;
  keyFrom: Int32Array; // -1 = empty slot
  keyTo: Int32Array;
  keyShift: number;
  list: Int32Array;
  short: Set<number> | null; // (k << 24 | first k bytes), k = 1..3: what a stream's last bytes may start; built on first use
}

function pow2Bits(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));
}

const gramAt = (d: Uint8Array, i: number) => (d[i] | (d[i + 1] << 8) | (d[i + 2] << 16) | (d[i + 3] << 24)) >>> 0;

function build(values: readonly ScrubValue[]): Tables {
  const pats: Uint8Array[] = [];
  const patSlot: number[] = [];
  const reps: Uint8Array[] = [];
  const firstOfHash = new Map<number, number>(); // FNV hash → first pattern, then chained by sameHash
  const sameHash: number[] = [];
  const slots: { name: string; form: string }[] = [];
  const slotsByName = new Map<string, Map<string, number>>();
  const add = (bytes: Uint8Array, forms: Map<string, number>, name: string, form: string, rep: Uint8Array) => {
    const h = fnv(bytes);
    const first = firstOfHash.get(h);
    for (let i = first ?? -1; i >= 0; i = sameHash[i]) if (sameBytes(pats[i], bytes)) return;
    sameHash.push(first ?? -1);
    firstOfHash.set(h, pats.length);
    let slot = forms.get(form);
    if (slot === undefined) forms.set(form, (slot = slots.push({ name, form }) - 1));
    pats.push(bytes);
    patSlot.push(slot);
    reps.push(rep);
  };
  const formsOf = (name: string) => {
    let forms = slotsByName.get(name);
    if (!forms) slotsByName.set(name, (forms = new Map()));
    return forms;
  };
  const raws = values.map((v, i) => {
    const raw = enc.encode(v.value);
    // The name, never the value, goes into the message.
    if (raw.length < MIN_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is shorter than ${MIN_VALUE_BYTES} bytes`);
    if (raw.length > MAX_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is longer than 1 MiB`);
    return raw;
  });
  // Raw forms first, so a value that is also another's encoded form comes back as its placeholder.
  values.forEach((v, i) => add(raws[i], formsOf(v.name), v.name, 'raw', enc.encode(v.placeholder)));
  values.forEach((v, i) => {
    const rep = enc.encode(`[redacted:${v.name}]`);
    const forms = formsOf(v.name);
    for (const [form, bytes] of encodedForms(v.value, raws[i])) if (!sameBytes(bytes, raws[i])) add(bytes, forms, v.name, form, rep);
  });

  const count = pats.length;
  let total = 0;
  let minLen = Infinity;
  for (const p of pats) {
    total += p.length;
    minLen = Math.min(minLen, p.length);
  }
  const pat = new Uint8Array(total);
  const off = new Int32Array(count);
  const len = new Int32Array(count);
  const slot = new Int32Array(count);
  pats.forEach((p, i) => {
    off[i] = i ? off[i - 1] + len[i - 1] : 0;
    len[i] = p.length;
    slot[i] = patSlot[i];
    pat.set(p, off[i]);
  });

  // Every start s has a sample in [s, s + step); a pattern has its grams at offsets 0..step-1.
  const step = count ? Math.min(8, minLen - 3) : 1;
  const gramBits = Math.min(GRAM_MAX_BITS, Math.max(12, pow2Bits(count * step * 8)));
  const gram = new Uint8Array(1 << gramBits);
  const gram2 = new Uint8Array(1 << gramBits);
  const bloomBits = Math.min(BLOOM_MAX_BITS, Math.max(10, pow2Bits(count * step * BLOOM_BITS_PER_GRAM)));
  const bloom = new Int32Array(1 << (bloomBits - 5));
  const bloomShift = 32 - bloomBits;
  const gramShift = 32 - gramBits;
  // Verification table, open addressing on the 4-byte prefix.
  const keyBits = pow2Bits(count * 2);
  const keys = new Uint32Array(1 << keyBits);
  const keyFrom = new Int32Array(1 << keyBits).fill(-1);
  const keyTo = new Int32Array(1 << keyBits);
  const keyShift = 32 - keyBits;
  const keyMask = (1 << keyBits) - 1;
  const keyOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const o = off[i];
    for (let g = 0; g < step; g++) {
      const v = gramAt(pat, o + g);
      const b = Math.imul(v, GOLDEN3) >>> bloomShift;
      bloom[b >>> 5] |= 1 << (b & 31);
      gram[Math.imul(v, GOLDEN) >>> gramShift] |= 1 << g;
      gram2[Math.imul(v, GOLDEN2) >>> gramShift] |= 1 << g;
    }
    const k = gramAt(pat, o);
    let h = Math.imul(k, GOLDEN) >>> keyShift;
    while (keyFrom[h] !== -1 && keys[h] !== k) h = (h + 1) & keyMask;
    keys[h] = k;
    keyFrom[h] = 0;
    keyTo[h]++;
    keyOf[i] = h;
  }
  // Group the patterns by prefix (counting sort), each group longest first.
  let at = 0;
  for (let h = 0; h < keys.length; h++) {
    if (keyFrom[h] === -1) continue;
    keyFrom[h] = at;
    at += keyTo[h];
    keyTo[h] = keyFrom[h];
  }
  const list = new Int32Array(count);
  // Longest first, then in order: one native numeric sort of (length, index) keys.
  const order = new Float64Array(count);
  for (let i = 0; i < count; i++) order[i] = (MAX_PATTERN - len[i]) * 2 ** 24 + i;
  order.sort();
  for (const key of order) {
    const i = key % 2 ** 24;
    list[keyTo[keyOf[i]]++] = i;
  }
  return {
    count,
    pat,
    off,
    len,
    slot,
    slots,
    step,
    bloom,
    bloomShift,
    gram,
    gram2,
    gramShift,
    keys,
    keyFrom,
    keyTo,
    keyShift,
    list,
    short: null,
    rep: reps,
  };
}

function tableBytes(t: Tables): number {
  const typed = [t.pat, t.off, t.len, t.slot, t.bloom, t.gram, t.gram2, t.keys, t.keyFrom, t.keyTo, t.list];
  return typed.reduce((n, a) => n + a.byteLength, 0) + t.rep.reduce((n, r) => n + r.byteLength, 0);
}

// ── Matching ───────────────────────────────────────────────────────────────────────────

function shortPrefixes(t: Tables): Set<number> {
  if (t.short) return t.short;
  const { pat, off } = t;
  const short = new Set<number>();
  for (let i = 0; i < t.count; i++) {
    const o = off[i];
    short.add((1 << 24) | pat[o]);
    short.add((2 << 24) | pat[o] | (pat[o + 1] << 8));
    short.add((3 << 24) | pat[o] | (pat[o + 1] << 8) | (pat[o + 2] << 16));
  }
  return (t.short = short);
}

const NONE = -1;
const PENDING = -2;

/**
 * The longest pattern starting at s (s + 4 <= n), NONE, or PENDING when, unless `final`,
 * a longer pattern's prefix runs to the end of the data.
 */
function matchAt(t: Tables, d: Uint8Array, s: number, n: number, final: boolean): number {
  const { keys, keyFrom } = t;
  const k = gramAt(d, s);
  const mask = keys.length - 1;
  let h = Math.imul(k, GOLDEN) >>> t.keyShift;
  while (keyFrom[h] !== -1 && keys[h] !== k) h = (h + 1) & mask;
  if (keyFrom[h] === -1) return NONE;
  const { list, pat, off, len } = t;
  for (let j = keyFrom[h], to = t.keyTo[h]; j < to; j++) {
    const p = list[j];
    const o = off[p] - s;
    const fits = s + len[p] <= n;
    if (!fits && final) continue;
    const end = fits ? s + len[p] : n;
    let i = s + 4;
    while (i < end && d[i] === pat[o + i]) i++;
    if (i === end) return fits ? p : PENDING;
  }
  return NONE;
}

/**
 * Finds the matches in d[pos, n) into `m` as (start, pattern) pairs and returns where the held
 * tail starts: n when `final` or when no start at the end could still become a match.
 */
function scan(t: Tables, d: Uint8Array, pos: number, n: number, final: boolean, m: number[]): number {
  const { step, bloom, bloomShift, gram, gram2, gramShift, len } = t;
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  let x = pos + step - 1; // the sample at x covers starts (x - step, x]
  while (x + 4 <= n) {
    const g = view.getInt32(x, true);
    const b = Math.imul(g, GOLDEN3) >>> bloomShift;
    let bits = 0;
    if ((bloom[b >>> 5] & (1 << (b & 31))) !== 0 && (bits = gram[Math.imul(g, GOLDEN) >>> gramShift] & gram2[Math.imul(g, GOLDEN2) >>> gramShift]) !== 0) {
      let next = -1;
      for (let o = step - 1; o >= 0; o--) {
        if (((bits >> o) & 1) === 0) continue;
        const s = x - o;
        const p = matchAt(t, d, s, n, final);
        if (p === NONE) continue;
        if (p === PENDING) return s;
        m.push(s, p);
        next = s + len[p];
        break;
      }
      if (next >= 0) {
        x = next + step - 1;
        continue;
      }
    }
    x += step;
  }
  if (final) return n;
  // Starts after the last sample can't complete (every pattern has >= step + 3 bytes); hold from
  // the first one that is still a pattern's prefix.
  for (let s = x - step + 1; s < n; s++) {
    const k = n - s;
    if (k >= 4) {
      if (matchAt(t, d, s, n, false) === PENDING) return s;
    } else if (shortPrefixes(t).has((k << 24) | d[s] | (k > 1 ? d[s + 1] << 8 : 0) | (k > 2 ? d[s + 2] << 16 : 0))) return s;
  }
  return n;
}

/** d[pos, end) with the matches `m` replaced; counts into `counts`. */
function emit(t: Tables, d: Uint8Array, pos: number, end: number, m: number[], counts: Float64Array): Uint8Array {
  if (m.length === 0) return pos === 0 && end === d.length ? d : d.subarray(pos, end);
  let size = end - pos;
  for (let i = 0; i < m.length; i += 2) size += t.rep[m[i + 1]].length - t.len[m[i + 1]];
  const out = new Uint8Array(size);
  let w = 0;
  let r = pos;
  for (let i = 0; i < m.length; i += 2) {
    const s = m[i];
    const p = m[i + 1];
    out.set(d.subarray(r, s), w);
    w += s - r;
    out.set(t.rep[p], w);
    w += t.rep[p].length;
    r = s + t.len[p];
    counts[t.slot[p]]++;
  }
  out.set(d.subarray(r, end), w);
  return out;
}

function hitList(t: Tables, counts: Float64Array): ScrubHit[] {
  const hits: ScrubHit[] = [];
  counts.forEach((count, i) => {
    if (count) hits.push({ ...t.slots[i], count });
  });
  return hits;
}

// ── API ────────────────────────────────────────────────────────────────────────────────

export function compileScrubber(values: readonly ScrubValue[]): Scrubber {
  const t = build(values);
  const size = tableBytes(t);
  const redactBytes = (bytes: Uint8Array) => {
    if (t.count === 0) return { bytes, hits: [] };
    const m: number[] = [];
    scan(t, bytes, 0, bytes.length, true, m);
    if (m.length === 0) return { bytes, hits: [] };
    const counts = new Float64Array(t.slots.length);
    return { bytes: emit(t, bytes, 0, bytes.length, m, counts), hits: hitList(t, counts) };
  };
  return {
    patterns: t.count,
    tableBytes: size,
    redactBytes,
    redact(text) {
      if (t.count === 0) return { text: text.toWellFormed(), hits: [] };
      const r = redactBytes(enc.encode(text));
      return { text: r.hits.length ? dec.decode(r.bytes) : text.toWellFormed(), hits: r.hits };
    },
    stream: () => openStream(t),
  };
}

function openStream(t: Tables): ScrubStream {
  let held = EMPTY;
  let ended = false;
  const counts = new Float64Array(t.slots.length);
  const live = () => {
    if (ended) throw new Error('scrubber: the stream has ended');
  };
  const run = (chunk: Uint8Array, final: boolean) => {
    live();
    if (t.count === 0) return chunk;
    let d = chunk;
    if (held.length) {
      d = new Uint8Array(held.length + chunk.length);
      d.set(held);
      d.set(chunk, held.length);
    }
    const m: number[] = [];
    const cut = scan(t, d, 0, d.length, final, m);
    // A copy, so the owner may transfer or reuse the chunk it passed.
    held = cut < d.length ? d.slice(cut) : EMPTY;
    return emit(t, d, 0, cut, m, counts);
  };
  return {
    push: (chunk) => run(chunk, false),
    idle() {
      live();
      if (held.length === 0 || held.length >= IDLE_RELEASE_MAX) return EMPTY;
      // Scanned as if the input ended: the tail is usually a bare prefix and comes out as it is,
      // but it may hold a whole value that a longer pattern could still have extended.
      const d = held;
      held = EMPTY;
      const m: number[] = [];
      scan(t, d, 0, d.length, true, m);
      return emit(t, d, 0, d.length, m, counts);
    },
    end() {
      const out = run(EMPTY, true);
      ended = true;
      return out;
    },
    get hits() {
      return hitList(t, counts);
    },
  };
}
