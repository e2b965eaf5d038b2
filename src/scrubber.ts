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
  /** Releases a held tail shorter than IDLE_RELEASE_MAX as it is; a longer one stays held. */
  idle(): Uint8Array;
  /** Releases the rest, scrubbed. The stream can't be used after this. */
  end(): Uint8Array;
  /** Totals so far. */
  readonly hits: ScrubHit[];
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const EMPTY = new Uint8Array(0);
const GOLDEN = 0x9e3779b1;

// ── Forms ──────────────────────────────────────────────────────────────────────────────

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}

const toUrl = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/** Every encoded form of a value, in a fixed order; duplicates and forms equal to raw are dropped later. */
function encodedForms(value: string, raw: Uint8Array): [form: string, text: string][] {
  const out: [string, string][] = [];
  const n = raw.length;
  for (let a = 0; a < 3; a++) {
    // The value's bytes after `a` unknown bytes: keep only the characters made of value bits alone.
    const buf = new Uint8Array(a + n);
    buf.set(raw, a);
    const full = btoa(latin1(buf));
    const from = Math.ceil((8 * a) / 6);
    const to = Math.floor((8 * (a + n)) / 6);
    const mid = full.slice(from, to);
    out.push(['base64', mid], ['base64url', toUrl(mid)]);
    if ((a + n) % 3) {
      // The value ending the encoded data: its last partial character, then padding (or none).
      const end = full.slice(from);
      out.push(['base64', end], ['base64url', toUrl(end.replace(/=+$/, ''))]);
    }
  }
  let hex = '';
  for (const b of raw) hex += (b < 16 ? '0' : '') + b.toString(16);
  out.push(['hex', hex], ['hex', hex.toUpperCase()]);
  out.push(['url', encodeURIComponent(value)]);
  const json = JSON.stringify(value).slice(1, -1);
  out.push(['json', json]);
  // Many JSON writers (Python's default among them) escape everything outside ASCII.
  out.push(['json', json.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))]);
  return out;
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
  // Sampling filter: bit o of gram[hash(4 bytes at t)] says some pattern has those 4 bytes at offset o.
  step: number;
  gram: Uint8Array;
  gramShift: number;
  // Verification: 4-byte prefix → patterns with that prefix, longest first.
  keys: Uint32Array;
  keyFrom: Int32Array; // -1 = empty slot
  keyTo: Int32Array;
  keyShift: number;
  list: Int32Array;
  short: Set<number>; // (k << 24 | first k bytes) for k = 1..3: what a stream's last bytes may start
}

function pow2Bits(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));
}

const gramAt = (d: Uint8Array, i: number) => (d[i] | (d[i + 1] << 8) | (d[i + 2] << 16) | (d[i + 3] << 24)) >>> 0;

function build(values: readonly ScrubValue[]): Tables {
  const seen = new Set<string>();
  const pats: { bytes: Uint8Array; slot: number; rep: Uint8Array }[] = [];
  const slots: { name: string; form: string }[] = [];
  const slotIndex = new Map<string, number>();
  const slotOf = (name: string, form: string) => {
    const key = `${form}\u0000${name}`;
    let i = slotIndex.get(key);
    if (i === undefined) slotIndex.set(key, (i = slots.push({ name, form }) - 1));
    return i;
  };
  const add = (bytes: Uint8Array, name: string, form: string, rep: Uint8Array) => {
    const key = latin1(bytes);
    if (seen.has(key)) return;
    seen.add(key);
    pats.push({ bytes, slot: slotOf(name, form), rep });
  };
  const raws = values.map((v, i) => {
    const raw = enc.encode(v.value);
    // The name, never the value, goes into the message.
    if (raw.length < MIN_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is shorter than ${MIN_VALUE_BYTES} bytes`);
    return raw;
  });
  // Raw forms first, so a value that is also another's encoded form comes back as its placeholder.
  values.forEach((v, i) => add(raws[i], v.name, 'raw', enc.encode(v.placeholder)));
  values.forEach((v, i) => {
    const rawKey = latin1(raws[i]);
    const rep = enc.encode(`[redacted:${v.name}]`);
    for (const [form, text] of encodedForms(v.value, raws[i])) {
      const bytes = enc.encode(text);
      if (bytes.length >= MIN_VALUE_BYTES && latin1(bytes) !== rawKey) add(bytes, v.name, form, rep);
    }
  });

  const count = pats.length;
  let total = 0;
  let minLen = Infinity;
  for (const p of pats) {
    total += p.bytes.length;
    minLen = Math.min(minLen, p.bytes.length);
  }
  const pat = new Uint8Array(total);
  const off = new Int32Array(count);
  const len = new Int32Array(count);
  const slot = new Int32Array(count);
  pats.forEach((p, i) => {
    off[i] = i ? off[i - 1] + len[i - 1] : 0;
    len[i] = p.bytes.length;
    slot[i] = p.slot;
    pat.set(p.bytes, off[i]);
  });

  // Every start s has a sample in [s, s + step); a pattern has its grams at offsets 0..step-1.
  const step = count ? Math.min(8, minLen - 3) : 1;
  const gramBits = Math.min(22, Math.max(12, pow2Bits(count * step * 16)));
  const gram = new Uint8Array(1 << gramBits);
  const gramShift = 32 - gramBits;
  // Verification table, open addressing on the 4-byte prefix.
  const keyBits = pow2Bits(count * 2);
  const keys = new Uint32Array(1 << keyBits);
  const keyFrom = new Int32Array(1 << keyBits).fill(-1);
  const keyTo = new Int32Array(1 << keyBits);
  const keyShift = 32 - keyBits;
  const keyMask = (1 << keyBits) - 1;
  const groups = new Map<number, number[]>(); // table slot → patterns
  const short = new Set<number>();
  for (let i = 0; i < count; i++) {
    const o = off[i];
    for (let g = 0; g < step; g++) gram[Math.imul(gramAt(pat, o + g), GOLDEN) >>> gramShift] |= 1 << g;
    const k = gramAt(pat, o);
    let h = Math.imul(k, GOLDEN) >>> keyShift;
    while (keyFrom[h] !== -1 && keys[h] !== k) h = (h + 1) & keyMask;
    keys[h] = k;
    keyFrom[h] = 0;
    const group = groups.get(h);
    if (group) group.push(i);
    else groups.set(h, [i]);
    short.add((1 << 24) | pat[o]);
    short.add((2 << 24) | pat[o] | (pat[o + 1] << 8));
    short.add((3 << 24) | pat[o] | (pat[o + 1] << 8) | (pat[o + 2] << 16));
  }
  const list = new Int32Array(count);
  let at = 0;
  for (const [h, group] of groups) {
    group.sort((a, b) => len[b] - len[a] || a - b);
    keyFrom[h] = at;
    for (const i of group) list[at++] = i;
    keyTo[h] = at;
  }
  return {
    count, pat, off, len, slot, slots, step, gram, gramShift, keys, keyFrom, keyTo, keyShift, list, short,
    rep: pats.map((p) => p.rep),
  };
}

function tableBytes(t: Tables): number {
  const typed = [t.pat, t.off, t.len, t.slot, t.gram, t.keys, t.keyFrom, t.keyTo, t.list];
  return typed.reduce((n, a) => n + a.byteLength, 0) + t.rep.reduce((n, r) => n + r.byteLength, 0) + t.short.size * 16;
}

// ── Matching ───────────────────────────────────────────────────────────────────────────

const NONE = -1;
const PENDING = -2;

/**
 * The longest pattern starting at s (s + 4 <= n), NONE, or PENDING when, unless `final`,
 * a longer pattern's prefix runs to the end of the data.
 */
function matchAt(t: Tables, d: Uint8Array, s: number, n: number, final: boolean): number {
  const k = gramAt(d, s);
  const mask = t.keys.length - 1;
  let h = Math.imul(k, GOLDEN) >>> t.keyShift;
  while (t.keyFrom[h] !== -1 && t.keys[h] !== k) h = (h + 1) & mask;
  if (t.keyFrom[h] === -1) return NONE;
  const { list, pat, off, len } = t;
  for (let j = t.keyFrom[h], to = t.keyTo[h]; j < to; j++) {
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
  const { step, gram, gramShift, len } = t;
  let x = pos + step - 1; // sample at x covers starts (x - step, x]
  while (x + 4 <= n) {
    const bits = gram[Math.imul(d[x] | (d[x + 1] << 8) | (d[x + 2] << 16) | (d[x + 3] << 24), GOLDEN) >>> gramShift];
    if (bits !== 0) {
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
  // Starts after the last sample can't complete (every pattern has >= step + 3 bytes); hold the
  // first one that is still a pattern's prefix.
  for (let s = x - step + 1; s < n; s++) {
    const k = n - s;
    if (k >= 4 ? matchAt(t, d, s, n, false) === PENDING : t.short.has((k << 24) | d[s] | (d[s + 1] << 8) | (d[s + 2] << 16))) return s;
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
      const out = held;
      held = EMPTY;
      return out;
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
