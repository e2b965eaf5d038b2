// Compiling: every form of every value as a pattern (forms.ts spells them), and the patterns into
// the tables the scan reads (tables.ts): the sampling filter, the key table, the check grams.
import { MAX_SCRUB_VALUE_BYTES as MAX_VALUE_BYTES, MIN_VALUE_BYTES } from '../limits.ts';
import { addEscapes, addGrams, addKey } from './filter.ts';
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
  const pBytes: number[] = [];
  const pKind: number[] = [];
  const pRaw: number[] = [];
  const pSlot: number[] = [];
  const pPartial: number[] = [];
  const pShape: number[] = []; // a base64 pattern's shape (B64_* bits, its length << 4)
  const slots: { name: string; form: string }[] = [];
  // Slot → the text that replaces its matches: a name's `partial` slot and every encoded form's
  // `[redacted:NAME]` (one shared array), a `raw` slot the placeholder. Encoded together at the end.
  const repText: string[] = [];
  const repOf: number[] = []; // slot → the slot whose text it shares
  // Per name (by first appearance), its slot per form, -1 for none yet: the first value of a name
  // decides its replacements.
  const nameIndex = new Map<string, number>();
  const slotOf = new Int32Array(values.length * FORMS.length).fill(-1);
  const rawIds = values.map((v, i) => {
    // The name, never the value, goes into the message.
    // UTF-8 takes at least a byte per code unit: a longer string isn't encoded at all.
    const size = v.value.length > MAX_VALUE_BYTES ? Infinity : encodeIntoScratch(v.value);
    if (size < MIN_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is shorter than ${MIN_VALUE_BYTES} bytes`);
    if (size > MAX_VALUE_BYTES) throw new RangeError(`scrubber: value #${i} (${v.name}) is longer than 1 MiB`);
    return s.intern(scratch, 0, size);
  });
  /** Where a name's slots are in `slotOf`, its `partial` slot made with it. */
  const nameAt = (name: string) => {
    let at = nameIndex.get(name);
    if (at === undefined) {
      nameIndex.set(name, (at = nameIndex.size * FORMS.length));
      slotOf[at + F_PARTIAL] = slots.push({ name, form: 'partial' }) - 1;
      repOf.push(repText.push(`[redacted:${name}]`) - 1);
    }
    return at;
  };
  const add = (bytes: number, kind: number, v: number, at: number, form: number, shape: number, rawId: number) => {
    const name = values[v].name;
    let slot = slotOf[at + form];
    if (slot < 0) {
      slotOf[at + form] = slot = slots.push({ name, form: FORMS[form] }) - 1;
      repOf.push(form === F_RAW ? repText.push(values[v].placeholder) - 1 : repOf[slotOf[at + F_PARTIAL]]);
    }
    pBytes.push(bytes);
    pKind.push(kind);
    pRaw.push(rawId >= 0 ? rawId : rawIds[v]);
    pSlot.push(slot);
    pPartial.push(slotOf[at + F_PARTIAL]);
    pShape.push(shape);
  };
  // Raw forms first, so a value that is also another's encoded form comes back as its placeholder.
  for (let v = 0; v < values.length; v++) {
    if (s.flags[rawIds[v]] & RAW_ADDED) continue;
    s.flags[rawIds[v]] |= RAW_ADDED;
    add(rawIds[v], EXACT, v, nameAt(values[v].name), F_RAW, 0, -1);
  }
  const forms: number[] = [];
  const decoding: number[] = []; // this value's decoding patterns so far: string id × 8 + kind
  for (let v = 0; v < values.length; v++) {
    // A value met before (under any name) has all its patterns already.
    if (s.flags[rawIds[v]] & FORMS_DONE) continue;
    s.flags[rawIds[v]] |= FORMS_DONE;
    forms.length = 0;
    decoding.length = 0;
    encodedForms(s.bytes, s.off[rawIds[v]], s.len[rawIds[v]], rawIds[v], s, forms);
    const at = nameAt(values[v].name);
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
      add(bytes, kind, v, at, forms[f], forms[f + 3], forms[f + 4]);
    }
  }

  const pat = s.bytes.slice(0, s.size);
  let ascii = true;
  for (let i = 0; i < pat.length && ascii; i++) ascii = pat[i] < 0x80;
  const texts = encodeAll(repText);
  const rep = repOf.map((k) => texts[k]);
  const count = pBytes.length;
  const off = new Int32Array(count);
  const len = new Int32Array(count);
  const kind = Uint8Array.from(pKind);
  const raw = new Int32Array(count);
  const rawLen = new Int32Array(count);
  const slot = Int32Array.from(pSlot);
  const partial = Int32Array.from(pPartial);
  const b64 = new Uint8Array(count);
  let minLen = Infinity;
  let horizon = 0;
  for (let i = 0; i < count; i++) {
    off[i] = s.off[pBytes[i]];
    len[i] = kind[i] === B64 ? pShape[i] >> B64_LENGTH : s.len[pBytes[i]];
    b64[i] = pShape[i] & ((1 << B64_LENGTH) - 1);
    raw[i] = s.off[pRaw[i]];
    rawLen[i] = s.len[pRaw[i]];
    minLen = Math.min(minLen, len[i]);
    horizon = Math.max(horizon, spanOf(kind[i], len[i], rawLen[i], b64[i]));
  }

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
    if ((decoded ? rawLen[i] : s.len[pBytes[i]]) < CHECK_AT + 4) continue;
    checked[i] = 1;
    check[i] = decoded ? wordAt(pat, raw[i] + CHECK_AT) : gramAt(pat, off[i] + CHECK_AT);
  }

  // Every start s has a sample in [s, s + step); a pattern has its grams at offsets 0..step-1.
  const step = count ? Math.min(MAX_STEP, minLen - 3) : 1;
  const gramBits = Math.min(GRAM_MAX_BITS, Math.max(12, pow2Bits(count * step * 8)));
  const gram = new Int32Array(1 << gramBits);
  const gram2 = new Int32Array(1 << gramBits);
  const bloomBits = Math.min(BLOOM_MAX_BITS, Math.max(10, pow2Bits(count * step * BLOOM_BITS_PER_GRAM)));
  const bloom = new Int32Array(1 << (bloomBits - 5));
  const bloomShift = 32 - bloomBits;
  let wrapCount = 0;
  for (let i = 0; i < count; i++) wrapCount += (WRAPPING >> kind[i]) & 1;
  // Two bits per entry, so a text whose lines all end and begin alike rarely passes by chance.
  const breakBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(wrapCount * (step + 2) * 2 * BLOOM_BITS_PER_GRAM)));
  const breaks = new Int32Array(1 << (breakBits - 5));
  const breakShift = 32 - breakBits;
  // The 4 characters before a break, for breaks at `fit + 1` and on (`addGrams`): patterns under `step + 7` long.
  let aheadCount = 0;
  for (let i = 0; i < count; i++) if ((WRAPPING >> kind[i]) & 1) aheadCount += Math.max(0, step + 6 - len[i]);
  const aheadBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(aheadCount * 2 * BLOOM_BITS_PER_GRAM)));
  const distinct: number[] = [];
  for (const id of rawIds) {
    if (s.flags[id] & ESCAPES_ADDED) continue;
    s.flags[id] |= ESCAPES_ADDED;
    distinct.push(id);
  }
  const escapeBits = Math.min(BREAKS_MAX_BITS, Math.max(10, pow2Bits(distinct.length * (step + 3) * 2 * BLOOM_BITS_PER_GRAM)));
  const escapes = new Int32Array(1 << (escapeBits - 5));
  let escapeBack = false;
  for (const id of distinct) escapeBack ||= s.len[id] < step + 6;
  const gramShift = 32 - gramBits;
  // Verification table, open addressing on the start's key.
  const keyBits = pow2Bits(count * 2);
  const keys = new Int32Array(1 << keyBits);
  const keyFrom = new Int32Array(1 << keyBits).fill(-1);
  const keyTo = new Int32Array(1 << keyBits);
  const keyMask = (1 << keyBits) - 1;
  const keyOf = new Int32Array(count);
  // The offset bits of a base64 pattern's gram at g: g, and 16 + o for each o above g (line
  // breaks of o - g bytes before it, after at least its first character).
  const b64Bits = new Int32Array(step);
  for (let g = 0; g < step; g++) {
    b64Bits[g] = 1 << g;
    if (g > 0) for (let o = g + 1; o < step; o++) b64Bits[g] |= 1 << (16 + o);
  }
  const t = {
    pat,
    step,
    pairs: new Int32Array(1 << 11),
    keyBloom: new Int32Array(1 << 11),
    b64Bits,
    bloom,
    bloomShift,
    gram,
    gram2,
    gramShift,
    breaks,
    breakShift,
    breaksAhead: new Int32Array(1 << (aheadBits - 5)),
    aheadShift: 32 - aheadBits,
    escapes,
    escapeShift: 32 - escapeBits,
    keys,
    keyFrom,
    keyTo,
    keyMask,
  };
  if (count) for (const id of distinct) addEscapes(t, s.off[id], s.len[id]);
  for (let i = 0; i < count; i++) {
    // The same bytes give the same entries.
    const wrapping = ((WRAPPING >> kind[i]) & 1) === 1;
    const filtered = wrapping ? FILTERED_B64 : FILTERED;
    if (!(s.flags[pBytes[i]] & filtered)) {
      s.flags[pBytes[i]] |= filtered;
      addGrams(t, off[i], len[i], wrapping);
    }
    keyOf[i] = addKey(t, keyOfPattern(pat, off[i], len[i]));
  }
  // Group the patterns by key (counting sort), each group in pattern order (raw forms first).
  let at = 0;
  for (let h = 0; h < keys.length; h++) {
    if (keyFrom[h] === -1) continue;
    keyFrom[h] = at;
    at += keyTo[h];
    keyTo[h] = keyFrom[h];
  }
  const list = new Int32Array(count);
  for (let i = 0; i < count; i++) list[keyTo[keyOf[i]]++] = i;
  // A group of CHECK_FROM patterns and more: those without a check gram first, in pattern order,
  // then those with one, by class and check gram, so a start verifies only those whose gram it has.
  // (Patterns with the same class and gram are all verified, the earliest kept on a tie, so their
  // order among themselves doesn't matter.)
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
  return {
    count,
    pat,
    off,
    len,
    kind,
    raw,
    rawLen,
    slot,
    partial,
    b64,
    slots,
    rep,
    step,
    bloom,
    bloomShift,
    breaks,
    breakShift,
    breaksAhead: t.breaksAhead,
    aheadShift: t.aheadShift,
    escapes,
    escapeShift: t.escapeShift,
    escapeBack,
    pairs: t.pairs,
    keyBloom: t.keyBloom,
    gram,
    gram2,
    gramShift,
    keys,
    keyFrom,
    keyTo,
    keyMid,
    keyMask,
    list,
    horizon,
    reach: JSON_GROWTH * horizon,
    ascii,
    check,
    checked,
    checkClass,
  };
}
