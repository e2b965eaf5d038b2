// The output: the input with the recorded matches replaced, and the hits counted.
import type { ScrubHit } from '../contract.ts';
import type { Tables } from './tables.ts';
import { dec } from './utf8.ts';

export const EMPTY = new Uint8Array(0);

/** Hits per slot, only of the slots hit: a namespace has thousands of slots, a text a few hits. */
type Counts = Map<number, number>;
const count = (counts: Counts, slot: number) => counts.set(slot, (counts.get(slot) ?? 0) + 1);

/** The hits in slot order (the order the names and forms were compiled). */
export function hitList(t: Tables, counts: Counts): ScrubHit[] {
  return [...counts.keys()].sort((a, b) => a - b).map((slot) => ({ ...t.slots[slot], count: counts.get(slot)! }));
}

/** Joins byte pieces; one piece comes back as it is. */
export function joinBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 0) return EMPTY;
  if (parts.length === 1) return parts[0];
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let w = 0;
  for (const p of parts) {
    out.set(p, w);
    w += p.length;
  }
  return out;
}

/**
 * d[done, limit) with the matches `m` replaced (a match that began before what is already covered
 * and ends after it is a `partial`: its rest is replaced, or dropped when written `~p`); counts into `counts`. Returns the output and how far
 * the input is now covered (past `limit` when a match runs over it).
 */
export function emit(t: Tables, d: Uint8Array, done: number, limit: number, m: number[], counts: Counts): [Uint8Array, number] {
  const parts: Uint8Array[] = [];
  let r = done;
  for (let i = 0; i < m.length; i += 3) {
    const s = m[i];
    const p = m[i + 1];
    const e = m[i + 2];
    if (e <= r || s >= limit) continue;
    if (s > r) parts.push(d.subarray(r, s));
    if (p >= 0) {
      const slot = s < r ? t.partial[p] : t.slot[p];
      parts.push(t.rep[slot]);
      count(counts, slot);
    }
    r = e;
  }
  if (r < limit) {
    parts.push(d.subarray(r, limit));
    r = limit;
  }
  return [joinBytes(parts), r];
}

/** The text's replacement for pattern p's match (`~p`: covered, nothing), a `partial` where it began before `r`; counted. */
export function textOf(t: Tables, repText: string[], p: number, s: number, r: number, counts: Counts): string {
  if (p < 0) return '';
  const slot = s < r ? t.partial[p] : t.slot[p];
  count(counts, slot);
  return (repText[slot] ??= dec.decode(t.rep[slot]));
}
