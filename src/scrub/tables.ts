// A scrubber's compiled tables: the patterns, the sampling filter and the key table the scan reads.

export interface Tables {
  count: number; // patterns
  pat: Uint8Array; // every distinct pattern's bytes (and every value's raw bytes), back to back
  off: Int32Array;
  len: Int32Array;
  kind: Uint8Array;
  raw: Int32Array; // pattern → offset of its value's raw bytes in `pat`
  rawLen: Int32Array;
  slot: Int32Array; // pattern → index into slots (one per name and form)
  partial: Int32Array; // pattern → its name's `partial` slot
  b64: Uint8Array; // a base64 pattern's shape: its alignment (B64_ALIGN), alphabet and padding
  slots: { name: string; form: string }[];
  rep: Uint8Array[]; // slot → replacement
  // Sampling filter on the folded 4 bytes at x. `bloom` (a bitset small enough to stay in cache):
  // may any pattern have them among its first `step` grams? If so, bit o of gram[hash] and of
  // gram2[hash2] (independent hashes): may a pattern have them at offset o? Only then is x - o a
  // candidate start. Bit 16 + o: may a base64 pattern have them at an offset below o, line breaks
  // making up the difference (then x - o is a candidate if a break lies between it and x).
  step: number;
  bloom: Int32Array;
  /**
   * Base64 split within its first `step + 3` bytes, for a sample holding a line break: the 4 characters
   * after a break as a pattern's characters at offsets 1 and on (bits by GOLDEN3 and GOLDEN4), or,
   * when fewer than 4 of its characters follow, the 4 before the break (GOLDEN and GOLDEN5).
   */
  breaks: Int32Array;
  breakShift: number;
  /** `breaks` for the 4 characters before a break, where fewer follow it in a short pattern: few entries, so a bitset of its own. */
  breaksAhead: Int32Array;
  aheadShift: number;
  /**
   * JSON escapes, for a sample at or just after a backslash (`mayEscape`): every value's 4-grams at
   * 0..step+2, two bits each (GOLDEN3, GOLDEN4), which the bytes an escape decodes to must start.
   */
  escapes: Int32Array;
  escapeShift: number;
  /** Whether a value is short enough (under step + 6 bytes) that an escape near its end may hold too few bytes after it. */
  escapeBack: boolean;
  bloomShift: number;
  gram: Int32Array;
  gram2: Int32Array;
  gramShift: number;
  /**
   * The two characters either side of a line break within a wrapping pattern's first `step + 3`
   * bytes, folded, as a bit per pair (`mayBreak` reads it first: 8 KiB, where `breaks` is 256).
   */
  pairs: Int32Array;
  // Verification: the key of a start (its first 8 folded bytes, 12 after `\u00`) → patterns.
  keys: Int32Array;
  /** A bit per key (hashed to 16 bits): most starts the filter passes have none, found here in 8 KiB. */
  keyBloom: Int32Array;
  keyFrom: Int32Array; // -1 = empty slot
  keyTo: Int32Array;
  keyMask: number;
  /** Where a group's patterns with a check gram start (`longestIn`). */
  keyMid: Int32Array;
  list: Int32Array;
  /** Longest span of any pattern in input bytes. */
  horizon: number;
  /** The longest any form spans escaped once more in a JSON string (`JSON_GROWTH` × horizon): the stream horizon H. */
  reach: number;
  /** Whether every value, so every pattern, is ASCII: a string is then scanned as it is (`scanText`). */
  ascii: boolean;
  /**
   * Pattern → its check gram (`longestIn`), where `checked`: for a class told apart BY_VALUE its
   * value's 4 bytes at CHECK_AT, for the others its own 4 bytes there (CHECK_AT_UTF16), folded.
   */
  check: Int32Array;
  checked: Uint8Array;
  /** Pattern → its CHECK_CLASS. */
  checkClass: Uint8Array;
}

/** Every typed array of the tables but the replacements. */
export const typedArraysOf = (t: Tables) => [
  t.pat,
  t.off,
  t.len,
  t.kind,
  t.raw,
  t.rawLen,
  t.slot,
  t.partial,
  t.b64,
  t.bloom,
  t.breaks,
  t.breaksAhead,
  t.escapes,
  t.pairs,
  t.keyBloom,
  t.gram,
  t.gram2,
  t.keys,
  t.keyFrom,
  t.keyTo,
  t.keyMid,
  t.list,
  t.check,
  t.checked,
  t.checkClass,
];

export function tableBytes(t: Tables): number {
  return typedArraysOf(t).reduce((n, a) => n + a.byteLength, 0) + t.rep.reduce((n, r) => n + r.byteLength, 0);
}
