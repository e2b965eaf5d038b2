// Compiling: every form of every value as a pattern (forms.ts spells them), and the patterns into
// the tables the scan reads (tables.ts): the sampling filter, the key table, the check grams.
import { MAX_SCRUB_VALUE_BYTES as MAX_VALUE_BYTES, MIN_VALUE_BYTES } from '../limits.ts';
import { type Filling, addEscapes, addGrams, addKey } from './filter.ts';
import { b64Std, base64Into, encodedForms } from './forms.ts';
import { gramAt, keyOfPattern, wordAt } from './grams.ts';
import { ESCAPES_ADDED, FILTERED, FILTERED_B64, FORMS_DONE, RAW_ADDED, Strings } from './interned.ts';
import { JSON_GROWTH } from './json-view.ts';
import {
  B64,
  B64_ALIGN,
  B64_LENGTH,
  B64_UTF16,
  BY_VALUE,
  CHECK_AT,
  CHECK_AT_UTF16,
  CHECK_CLASS,
  CHECK_FROM,
  CHECK_UTF16,
  EXACT,
  FORMS,
  F_PARTIAL,
  F_RAW,
  MAX_STEP,
  WRAPPING,
  spanOf,
} from './kinds.ts';
import type { Tables } from './tables.ts';
import { encodeAll, encodeIntoScratch, scratch } from './utf8.ts';

export interface ScrubValue {
  name: string;
  placeholder: string;
  value: string;
}

// Filter sizes: bloom bits per sampled 4-gram, and the largest tables (the bloom bitset is 128 KiB
// at most, so it stays in cache; the offset tables, 1 MiB each, are read only after a bloom hit).
const BLOOM_BITS_PER_GRAM = 16;
const BLOOM_MAX_BITS = 20;
const GRAM_MAX_BITS = 18;
/** The line-break filter's bitset: 256 KiB at most, read only at a line break between base64 characters. */
const BREAKS_MAX_BITS = 21;

function pow2Bits(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));
}

export function build(values: readonly ScrubValue[]): Tables {
  const s = new Strings();
  const added = new Patterns(values, internValues(values, s));
  addRawForms(added, s);
  addEncodedForms(added, s);
  const pat = s.bytes.slice(0, s.size);
  const p = patternArrays(added, s);
  const { check, checked, checkClass } = checkGrams(pat, p, s);
  const distinct = distinctValues(added.rawIds, s);
  const f = emptyFilter(pat, p, distinct.length);
  if (p.count) for (const id of distinct) addEscapes(f, s.off[id], s.len[id]);
  const keyOf = addPatterns(f, p, s);
  const list = groupByKey(f, keyOf);
  const keyMid = orderByCheck(f, list, checked, checkClass, check);
  return {
    count: p.count,
    pat,
    off: p.off,
    len: p.len,
    kind: p.kind,
    raw: p.raw,
    rawLen: p.rawLen,
    slot: p.slot,
    partial: p.partial,
    b64: p.b64,
    slots: added.slots,
    rep: replacements(added),
    step: f.step,
    bloom: f.bloom,
    bloomShift: f.bloomShift,
    breaks: f.breaks,
    breakShift: f.breakShift,
    breaksAhead: f.breaksAhead,
    aheadShift: f.aheadShift,
    escapes: f.escapes,
    escapeShift: f.escapeShift,
    escapeBack: hasShortValue(distinct, s, f.step),
    pairs: f.pairs,
    keyBloom: f.keyBloom,
    gram: f.gram,
    gram2: f.gram2,
    gramShift: f.gramShift,
    keys: f.keys,
    keyFrom: f.keyFrom,
    keyTo: f.keyTo,
    keyMid,
    keyMask: f.keyMask,
    list,
    horizon: p.horizon,
    reach: JSON_GROWTH * p.horizon,
    ascii: isAscii(pat),
    check,
    checked,
    checkClass,
  };
}

/** Each value's raw bytes, interned: their string ids. */
function internValues(values: readonly ScrubValue[], s: Strings): number[] {
  return values.map((v, i) => {
    // The name, never the value, goes into the message.
    // UTF-8 takes at least a byte per code unit: a longer string isn't encoded at all.
    const size = v.value.length > MAX_VALUE_BYTES ? Infinity : encodeIntoScratch(v.value);
    if (size < MIN_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is shorter than ${MIN_VALUE_BYTES} bytes`);
    if (size > MAX_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is longer than 1 MiB`);
    return s.intern(scratch, 0, size);
  });
}

/** The patterns as they are added (by string id), and the slots, one per name and form, their hits are counted under. */
class Patterns {
  readonly values: readonly ScrubValue[];
  readonly rawIds: number[];
  readonly bytes: number[] = [];
  readonly kind: number[] = [];
  readonly raw: number[] = [];
  readonly slot: number[] = [];
  readonly partial: number[] = [];
  readonly shape: number[] = []; // a base64 pattern's shape (B64_* bits, its length << B64_LENGTH)
  readonly slots: { name: string; form: string }[] = [];
  // Slot → the text that replaces its matches: a name's `partial` slot and every encoded form's
  // `[redacted:NAME]` (one shared array), a `raw` slot the placeholder. Encoded together at the end.
  readonly repText: string[] = [];
  readonly repOf: number[] = []; // slot → the slot whose text it shares
  // Per name (by first appearance), its slot per form, -1 for none yet: the first value of a name
  // decides its replacements.
  private readonly nameIndex = new Map<string, number>();
  private readonly slotOf: Int32Array;

  constructor(values: readonly ScrubValue[], rawIds: number[]) {
    this.values = values;
    this.rawIds = rawIds;
    this.slotOf = new Int32Array(values.length * FORMS.length).fill(-1);
  }

  /** Where a name's slots are in `slotOf`, its `partial` slot made with it. */
  nameAt(name: string): number {
    let at = this.nameIndex.get(name);
    if (at === undefined) {
      this.nameIndex.set(name, (at = this.nameIndex.size * FORMS.length));
      this.slotOf[at + F_PARTIAL] = this.slots.push({ name, form: 'partial' }) - 1;
      this.repOf.push(this.repText.push(`[redacted:${name}]`) - 1);
    }
    return at;
  }

  /** Pattern `bytes` of value v, whose name's slots are at `at`; `rawId` -1 for the value's own raw bytes. */
  add(bytes: number, kind: number, v: number, at: number, form: number, shape: number, rawId: number): void {
    const { slotOf, repOf } = this;
    const name = this.values[v].name;
    let slot = slotOf[at + form];
    if (slot < 0) {
      slotOf[at + form] = slot = this.slots.push({ name, form: FORMS[form] }) - 1;
      repOf.push(form === F_RAW ? this.repText.push(this.values[v].placeholder) - 1 : repOf[slotOf[at + F_PARTIAL]]);
    }
    this.bytes.push(bytes);
    this.kind.push(kind);
    this.raw.push(rawId >= 0 ? rawId : this.rawIds[v]);
    this.slot.push(slot);
    this.partial.push(slotOf[at + F_PARTIAL]);
    this.shape.push(shape);
  }
}

/** Raw forms first, so a value that is also another's encoded form comes back as its placeholder. */
function addRawForms(added: Patterns, s: Strings): void {
  const { values, rawIds } = added;
  for (let v = 0; v < values.length; v++) {
    if (s.flags[rawIds[v]] & RAW_ADDED) continue;
    s.flags[rawIds[v]] |= RAW_ADDED;
    added.add(rawIds[v], EXACT, v, added.nameAt(values[v].name), F_RAW, 0, -1);
  }
}

function addEncodedForms(added: Patterns, s: Strings): void {
  const { values, rawIds } = added;
  const forms: number[] = [];
  const decoding: number[] = []; // this value's decoding patterns so far: string id × 8 + kind
  for (let v = 0; v < values.length; v++) {
    // A value met before (under any name) has all its patterns already.
    if (s.flags[rawIds[v]] & FORMS_DONE) continue;
    s.flags[rawIds[v]] |= FORMS_DONE;
    forms.length = 0;
    decoding.length = 0;
    encodedForms(s.bytes, s.off[rawIds[v]], s.len[rawIds[v]], rawIds[v], s, forms);
    const at = added.nameAt(values[v].name);
    for (let f = 0; f < forms.length; f += 5) {
      const kind = forms[f + 1];
      const bytes = forms[f + 2];
      // A decoding pattern is its kind, its value and its first bytes (what the filter and the key
      // read); a base64 one also its shape, and every shape of a value comes once.
      if (kind !== B64) {
        const id = bytes * 16 + kind;
        if (decoding.includes(id)) continue;
        decoding.push(id);
      }
      added.add(bytes, kind, v, at, forms[f], forms[f + 3], forms[f + 4]);
    }
  }
}

/** The patterns by index, as the tables keep them. */
interface PatternArrays {
  count: number;
  /** Pattern → its string's id. */
  ids: number[];
  off: Int32Array;
  len: Int32Array;
  kind: Uint8Array;
  raw: Int32Array;
  rawLen: Int32Array;
  slot: Int32Array;
  partial: Int32Array;
  b64: Uint8Array;
  minLen: number;
  horizon: number;
}

function patternArrays(added: Patterns, s: Strings): PatternArrays {
  const { bytes, shape } = added;
  const count = bytes.length;
  const off = new Int32Array(count);
  const len = new Int32Array(count);
  const kind = Uint8Array.from(added.kind);
  const raw = new Int32Array(count);
  const rawLen = new Int32Array(count);
  const b64 = new Uint8Array(count);
  let minLen = Infinity;
  let horizon = 0;
  for (let i = 0; i < count; i++) {
    off[i] = s.off[bytes[i]];
    len[i] = kind[i] === B64 ? shape[i] >> B64_LENGTH : s.len[bytes[i]];
    b64[i] = shape[i] & ((1 << B64_LENGTH) - 1);
    raw[i] = s.off[added.raw[i]];
    rawLen[i] = s.len[added.raw[i]];
    minLen = Math.min(minLen, len[i]);
    horizon = Math.max(horizon, spanOf(kind[i], len[i], rawLen[i], b64[i]));
  }
  const slot = Int32Array.from(added.slot);
  const partial = Int32Array.from(added.partial);
  return { count, ids: bytes, off, len, kind, raw, rawLen, slot, partial, b64, minLen, horizon };
}

/** Each pattern's check class and, where it reads that far, its check gram (`longestIn`). */
function checkGrams(pat: Uint8Array, p: PatternArrays, s: Strings): { check: Int32Array; checked: Uint8Array; checkClass: Uint8Array } {
  const { count, kind, b64, len, raw, rawLen, off } = p;
  const check = new Int32Array(count);
  const checked = new Uint8Array(count);
  const checkClass = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const c = (checkClass[i] = kind[i] === B64 && b64[i] & B64_UTF16 ? CHECK_UTF16 : CHECK_CLASS[kind[i]]);
    if (c === CHECK_UTF16) {
      // Spelled from the value: the pattern keeps only its first DECODING_PREFIX characters.
      if (len[i] < CHECK_AT_UTF16 + 4) continue;
      const a = b64[i] & B64_ALIGN;
      const from = Math.ceil((8 * a) / 6) + CHECK_AT_UTF16;
      base64Into(pat, raw[i], rawLen[i], a, from, from + 4);
      checked[i] = 1;
      check[i] = gramAt(b64Std, 0);
      continue;
    }
    const decoded = ((BY_VALUE >> c) & 1) === 1;
    if ((decoded ? rawLen[i] : s.len[p.ids[i]]) < CHECK_AT + 4) continue;
    checked[i] = 1;
    check[i] = decoded ? wordAt(pat, raw[i] + CHECK_AT) : gramAt(pat, off[i] + CHECK_AT);
  }
  return { check, checked, checkClass };
}

/** The values' raw strings, each once (their escape entries are added once). */
function distinctValues(rawIds: number[], s: Strings): number[] {
  const distinct: number[] = [];
  for (const id of rawIds) {
    if (s.flags[id] & ESCAPES_ADDED) continue;
    s.flags[id] |= ESCAPES_ADDED;
    distinct.push(id);
  }
  return distinct;
}

/** The filter's tables and the key table, empty, sized for these patterns and `values` distinct values. */
function emptyFilter(pat: Uint8Array, p: PatternArrays, values: number): Filling {
  const { count, kind, len } = p;
  // Every start s has a sample in [s, s + step); a pattern has its grams at offsets 0..step-1.
  const step = count ? Math.min(MAX_STEP, p.minLen - 3) : 1;
  const gramBits = Math.min(GRAM_MAX_BITS, Math.max(12, pow2Bits(count * step * 8)));
  const bloomBits = Math.min(BLOOM_MAX_BITS, Math.max(10, pow2Bits(count * step * BLOOM_BITS_PER_GRAM)));
  let wrapCount = 0;
  for (let i = 0; i < count; i++) wrapCount += (WRAPPING >> kind[i]) & 1;
  // Two bits per entry, so a text whose lines all end and begin alike rarely passes by chance.
  const breakBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(wrapCount * (step + 2) * 2 * BLOOM_BITS_PER_GRAM)));
  // The 4 characters before a break, for breaks at `fit + 1` and on (`addGrams`): patterns under `step + 7` long.
  let aheadCount = 0;
  for (let i = 0; i < count; i++) if ((WRAPPING >> kind[i]) & 1) aheadCount += Math.max(0, step + 6 - len[i]);
  const aheadBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(aheadCount * 2 * BLOOM_BITS_PER_GRAM)));
  const escapeBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(values * (step + 3) * 2 * BLOOM_BITS_PER_GRAM)));
  // Verification table, open addressing on the start's key.
  const keyBits = pow2Bits(count * 2);
  return {
    pat,
    step,
    pairs: new Int32Array(1 << 11),
    keyBloom: new Int32Array(1 << 11),
    b64Bits: base64OffsetBits(step),
    bloom: new Int32Array(1 << (bloomBits - 5)),
    bloomShift: 32 - bloomBits,
    gram: new Int32Array(1 << gramBits),
    gram2: new Int32Array(1 << gramBits),
    gramShift: 32 - gramBits,
    breaks: new Int32Array(1 << (breakBits - 5)),
    breakShift: 32 - breakBits,
    breaksAhead: new Int32Array(1 << (aheadBits - 5)),
    aheadShift: 32 - aheadBits,
    escapes: new Int32Array(1 << (escapeBits - 5)),
    escapeShift: 32 - escapeBits,
    keys: new Int32Array(1 << keyBits),
    keyFrom: new Int32Array(1 << keyBits).fill(-1),
    keyTo: new Int32Array(1 << keyBits),
    keyMask: (1 << keyBits) - 1,
  };
}

/**
 * The offset bits of a base64 pattern's gram at g: g, and 16 + o for each o above g (line breaks
 * of o - g bytes before it, after at least its first character).
 */
function base64OffsetBits(step: number): Int32Array {
  const b64Bits = new Int32Array(step);
  for (let g = 0; g < step; g++) {
    b64Bits[g] = 1 << g;
    if (g > 0) for (let o = g + 1; o < step; o++) b64Bits[g] |= 1 << (16 + o);
  }
  return b64Bits;
}

/** Every pattern's grams into the filter and its key into the key table; answers each one's key slot. */
function addPatterns(f: Filling, p: PatternArrays, s: Strings): Int32Array {
  const { count, ids, kind, off, len } = p;
  const keyOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    // The same bytes give the same entries.
    const wrapping = ((WRAPPING >> kind[i]) & 1) === 1;
    const filtered = wrapping ? FILTERED_B64 : FILTERED;
    if (!(s.flags[ids[i]] & filtered)) {
      s.flags[ids[i]] |= filtered;
      addGrams(f, off[i], len[i], wrapping);
    }
    keyOf[i] = addKey(f, keyOfPattern(f.pat, off[i], len[i]));
  }
  return keyOf;
}

/** The patterns grouped by key (counting sort), each group in pattern order (raw forms first): `list`, each key's group at keyFrom..keyTo. */
function groupByKey(f: Filling, keyOf: Int32Array): Int32Array {
  const { keys, keyFrom, keyTo } = f;
  let at = 0;
  for (let h = 0; h < keys.length; h++) {
    if (keyFrom[h] === -1) continue;
    keyFrom[h] = at;
    at += keyTo[h];
    keyTo[h] = keyFrom[h];
  }
  const list = new Int32Array(keyOf.length);
  for (let i = 0; i < keyOf.length; i++) list[keyTo[keyOf[i]]++] = i;
  return list;
}

/**
 * A group of CHECK_FROM patterns and more: those without a check gram first, in pattern order,
 * then those with one, by class and check gram, so a start verifies only those whose gram it has.
 * (Patterns with the same class and gram are all verified, the earliest kept on a tie, so their
 * order among themselves doesn't matter.) Answers where each group's checked patterns start.
 */
function orderByCheck(f: Filling, list: Int32Array, checked: Uint8Array, checkClass: Uint8Array, check: Int32Array): Int32Array {
  const { keys, keyFrom, keyTo } = f;
  const count = list.length;
  const keyMid = Int32Array.from(keyTo);
  let order: Float64Array | null = null;
  for (let h = 0; h < keys.length; h++) {
    if (keyFrom[h] === -1 || keyTo[h] - keyFrom[h] < CHECK_FROM) continue;
    if (order === null) {
      order = new Float64Array(count);
      for (let p = 0; p < count; p++) order[p] = checkClass[p] * 2 ** 32 + check[p] + 2 ** 31;
    }
    const sortKey = order;
    const group = list.slice(keyFrom[h], keyTo[h]);
    let w = keyFrom[h];
    for (const p of group) if (checked[p] === 0) list[w++] = p;
    keyMid[h] = w;
    for (const p of group) if (checked[p] === 1) list[w++] = p;
    list.subarray(keyMid[h], w).sort((a, b) => sortKey[a] - sortKey[b]);
  }
  return keyMid;
}

/** Whether a value is short enough (under step + 6 bytes) that an escape near its end may hold too few bytes after it. */
function hasShortValue(distinct: number[], s: Strings, step: number): boolean {
  let escapeBack = false;
  for (const id of distinct) escapeBack ||= s.len[id] < step + 6;
  return escapeBack;
}

/** Slot → its replacement's bytes (slots sharing a text share one array). */
function replacements(added: Patterns): Uint8Array[] {
  const texts = encodeAll(added.repText);
  return added.repOf.map((k) => texts[k]);
}

function isAscii(pat: Uint8Array): boolean {
  let ascii = true;
  for (let i = 0; i < pat.length && ascii; i++) ascii = pat[i] < 0x80;
  return ascii;
}
