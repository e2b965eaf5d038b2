/** A seeded PRNG (mulberry32): the same seed gives the same numbers in [0, 1), so failures replay. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `*`-only patterns by a table, an independent reference for the matchers: can pattern[..i] match text[..j]? */
export function wildcardRef(p: string, t: string): boolean {
  let row = Array.from({ length: t.length + 1 }, (_, j) => j === 0);
  for (const c of p) {
    const next = [c === '*' && row[0]];
    for (let j = 1; j <= t.length; j++) next[j] = c === '*' ? row[j] || next[j - 1] : row[j - 1] && t[j - 1] === c;
    row = next;
  }
  return row[t.length];
}
