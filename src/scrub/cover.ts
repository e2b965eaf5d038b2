// Recording matches by the maskers' rule: what the recorded matches cover, and overlaps within it.
import type { Tables } from './tables.ts';

/**
 * What the matches recorded so far cover: where the covered run ends, and the values (by their
 * `partial` slot) already replaced in it. A stream keeps one across its pushes.
 */
export interface Cover {
  end: number;
  values: Set<number>;
}
export const newCover = (): Cover => ({ end: 0, values: new Set() });

/**
 * Records the match d[s, e) of pattern p into `m` as a (start, pattern, end) triple, by the
 * maskers' rule: nothing it covers is released. A match inside the covered run adds nothing; one
 * that starts past it begins a run; one that starts inside it and reaches past covers the rest,
 * replaced by `[redacted:NAME]` (its `partial` slot, at emit) when its value isn't already in the
 * run, else silently (pattern written `~p`, extending the run's last triple where it can), so
 * text where every start matches the same value records one triple, not one a byte.
 */
export function record(t: Tables, m: number[], c: Cover, s: number, p: number, e: number): void {
  if (e <= c.end) return;
  const v = t.partial[p];
  if (s >= c.end) {
    c.values.clear();
    c.values.add(v);
    m.push(s, p, e);
  } else if (!c.values.has(v)) {
    c.values.add(v);
    m.push(s, p, e);
  } else if (m.length > 0 && m[m.length - 1] === c.end) m[m.length - 1] = e;
  else m.push(s, ~p, e);
  c.end = e;
}

/**
 * The text's matches and its view's, merged in start order (the longer first at one start, the
 * text's on a tie) and recorded over the cover `c` by the maskers' rule (`record`).
 */
export function settle(t: Tables, a: readonly number[], b: readonly number[], c: Cover): number[] {
  const m: number[] = [];
  for (let i = 0, j = 0; i < a.length || j < b.length; ) {
    const first = j >= b.length || (i < a.length && (a[i] < b[j] || (a[i] === b[j] && a[i + 2] >= b[j + 2])));
    const from = first ? a : b;
    const k = first ? i : j;
    const p = from[k + 1];
    record(t, m, c, from[k], p < 0 ? ~p : p, from[k + 2]);
    if (first) i += 3;
    else j += 3;
  }
  return m;
}
