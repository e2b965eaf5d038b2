// Scrub streams: a fixed number of bytes held back, so what a stream releases never depends on
// what the text resembles.
import type { ScrubHit } from '../contract.ts';
import { newCover } from './cover.ts';
import { EMPTY, emit, hitList } from './emit.ts';
import { JSON_GROWTH } from './json-view.ts';
import { MAX_FORM_GROWTH } from './kinds.ts';
import { matchesOf } from './matches.ts';
import type { Tables } from './tables.ts';
import { IDLE_MS } from '../limits.ts';

/**
 * A stream's horizon H over the longest value: any form's span, escaped once more in a JSON string
 * (`\u0041` for each of its bytes at most). It holds back H - 1 bytes.
 */
export const STREAM_GROWTH = MAX_FORM_GROWTH * JSON_GROWTH;

export interface ScrubStreamOptions {
  /** Defaults to IDLE_MS. */
  idleMs?: number;
  /** The clock `idle()` is measured by, in ms; defaults to `performance.now`. */
  now?: () => number;
}

export interface ScrubStream {
  /** Scans the chunk and releases, scrubbed, everything but the last `hold` bytes seen. May be a view of `chunk`. */
  push(chunk: Uint8Array): Uint8Array;
  /**
   * Once `idleMs` have passed since the last `push` (by the stream's clock), releases the whole
   * held tail, scrubbed; earlier, an empty chunk. The stream keeps matching across the release:
   * a form that began in released bytes and completes later has its unreleased rest replaced
   * (hit form `partial`).
   */
  idle(): Uint8Array;
  /** Milliseconds until `idle()` would release (0: now). */
  idleIn(): number;
  /** Releases the rest, scrubbed. The stream can't be used after this. */
  end(): Uint8Array;
  /** Totals so far. */
  readonly hits: ScrubHit[];
}

/** The room a stream keeps for its next chunk beyond the bytes it holds: a piece of a big push, and more. */
const STREAM_ROOM = 1 << 16;

export function openStream(t: Tables, options: ScrubStreamOptions = {}): ScrubStream {
  const idleMs = options.idleMs ?? IDLE_MS;
  const now = options.now ?? (() => performance.now());
  const hold = Math.max(0, t.reach - 1);
  // The last `hold` input bytes seen, work[0, held); those before `done` are out (released, or
  // covered by a replacement already sent); starts before `scanned` have been looked at; those
  // before `ctx` were released by idle() and are kept only to catch a form completing later. A
  // push appends its chunk behind them in place, so it allocates only its output.
  let work = EMPTY;
  let held = 0;
  let done = 0;
  let scanned = 0;
  let ctx = 0;
  const cover = newCover();
  let last = now();
  let ended = false;
  const counts = new Map<number, number>();
  const live = () => {
    if (ended) throw new Error('scrubber: the stream has ended');
  };
  /** Room for `n` bytes in `work`, the held bytes kept. */
  const room = (n: number) => {
    if (work.length >= n) return;
    const grown = new Uint8Array(Math.max(n, 2 * work.length));
    grown.set(work.subarray(0, held));
    work = grown;
  };
  /** Keeps d[from..] as the held bytes: d is the caller's chunk, or a view of `work` from 0. */
  const keep = (d: Uint8Array, from: number) => {
    const n = d.length - from;
    if (d.buffer === work.buffer) work.copyWithin(0, from, d.length);
    else {
      // A copy, so the owner may transfer or reuse the chunk it passed.
      room(n);
      work.set(d.subarray(from));
    }
    held = n;
    // A big chunk's room isn't kept after it.
    if (work.length > STREAM_ROOM + held) work = work.slice(0, held);
  };
  /** Releases d up to `limit` and keeps the last `hold` bytes. */
  const release = (d: Uint8Array, limit: number) => {
    const n = d.length;
    // Behind released context a form may be completing: look from the start; else from the first
    // start not looked at (inside a replacement already sent, a longer match may begin).
    const from = ctx > 0 ? 0 : scanned;
    const m = limit > from ? matchesOf(t, d, from, limit, n, cover, true) : [];
    const [emitted, covered] = emit(t, d, done, limit, m, counts);
    // The output outlives this push: never a view of `work`, which the next push writes over.
    const out = emitted.length && emitted.buffer === work.buffer ? emitted.slice() : emitted;
    const shift = Math.max(0, n - hold);
    keep(d, shift);
    done = Math.max(0, Math.max(done, covered) - shift);
    scanned = Math.max(0, Math.max(scanned, limit) - shift);
    cover.end = Math.max(0, cover.end - shift);
    ctx = Math.max(0, ctx - shift);
    return out;
  };
  const releaseAll = () => {
    const out = release(work.subarray(0, held), held);
    ctx = done = scanned = held;
    return out;
  };
  return {
    push(chunk) {
      live();
      last = now();
      if (t.count === 0) return chunk;
      let d = chunk;
      if (held) {
        room(held + chunk.length);
        work.set(chunk, held);
        d = work.subarray(0, held + chunk.length);
      }
      return release(d, d.length - hold);
    },
    idle() {
      live();
      if (t.count === 0 || now() - last < idleMs || done >= held) return EMPTY;
      return releaseAll();
    },
    idleIn() {
      return Math.max(0, idleMs - (now() - last));
    },
    end() {
      live();
      const out = t.count === 0 ? EMPTY : releaseAll();
      ended = true;
      return out;
    },
    get hits() {
      return hitList(t, counts);
    },
  };
}
