// The distinct byte strings of a compile, interned.
import { GOLDEN } from './grams.ts';

/**
 * The distinct byte strings of a compile (the values' raw bytes and every spelling of their
 * forms), written back to back into one growing buffer and deduplicated as they are added, so
 * compiling makes no garbage per form. The hash is seeded afresh for every compile, so values
 * chosen to collide can't be chosen once for all.
 */
export class Strings {
  bytes = new Uint8Array(1 << 16);
  size = 0;
  count = 0;
  off = new Int32Array(1024);
  len = new Int32Array(1024);
  hash = new Int32Array(1024);
  /** Per string: RAW_ADDED, ESCAPES_ADDED, FORMS_DONE (on a value's raw bytes), FILTERED* (its grams are in the filter). */
  flags = new Uint8Array(1024);
  private table = new Int32Array(2048); // string id + 1, open addressing on the hash
  private readonly seed = (Math.random() * 2 ** 32) | 0;
  private mask = 2047;

  /** The id of src[from, to), added if new. */
  intern(src: Uint8Array, from: number, to: number): number {
    const n = to - from;
    let h = this.seed ^ n;
    let i = from;
    for (; i + 3 < to; i += 4) {
      h = Math.imul(h ^ (src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24)), GOLDEN);
      h ^= h >>> 15;
    }
    for (; i < to; i++) h = Math.imul(h ^ src[i], 0x01000193);
    h ^= h >>> 13;
    const { table, mask, bytes, off, len } = this;
    let at = h & mask;
    for (let e = table[at]; e !== 0; at = (at + 1) & mask, e = table[at]) {
      const id = e - 1;
      if (len[id] !== n) continue;
      const o = off[id];
      let i = 0;
      while (i < n && bytes[o + i] === src[from + i]) i++;
      if (i === n) return id;
    }
    if (this.size + n > bytes.length) {
      const grown = new Uint8Array(Math.max(2 * bytes.length, this.size + n));
      grown.set(bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    const into = this.bytes;
    if (n < 64) for (let i = 0; i < n; i++) into[this.size + i] = src[from + i];
    else into.set(src.subarray(from, to), this.size);
    const id = this.count++;
    if (id === this.off.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(2 * a.length);
        b.set(a);
        return b;
      };
      this.off = grow(this.off);
      this.len = grow(this.len);
      this.hash = grow(this.hash);
      this.flags = grow(this.flags);
    }
    this.off[id] = this.size;
    this.len[id] = n;
    this.hash[id] = h;
    this.size += n;
    table[at] = id + 1;
    if (2 * this.count > mask) this.rehash();
    return id;
  }

  private rehash(): void {
    const mask = 2 * this.mask + 1;
    const table = new Int32Array(mask + 1);
    for (let id = 0; id < this.count; id++) {
      let at = this.hash[id] & mask;
      while (table[at] !== 0) at = (at + 1) & mask;
      table[at] = id + 1;
    }
    this.table = table;
    this.mask = mask;
  }
}

/** On a value's raw bytes: its raw pattern was added. */
export const RAW_ADDED = 1;

/** On a value's raw bytes: its JSON escapes' entries (`addEscapes`) are counted. */
export const ESCAPES_ADDED = 2;
export const FILTERED = 1 << 5;
export const FILTERED_B64 = 1 << 6;

/** On a raw string: its value's encoded forms were added. */
export const FORMS_DONE = 1 << 7;
