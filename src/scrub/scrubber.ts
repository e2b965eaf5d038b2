// The vault's scrubber (README, The scrubber): replaces every form of every value (raw,
// base64/base64url at three alignments, also wrapped in lines, hex in any case, url as three
// encoders write it, json with any escapes anywhere; and what dumping tools and shells write: \xNN,
// hex with a separator, base64 of the UTF-16LE, raw and hex split by line breaks) in bytes, strings
// or streams, leftmost-longest, never rescanning its own output. Streams hold back a fixed number of bytes, so what they release
// never depends on what the text resembles (stream.ts). Design, forms and measured figures: docs/scrubber.md.
// This module is the API; the modules it reads say in their first line which job they do.
import type { ScrubHit } from '../contract.ts';
import { type ScrubValue, build } from './compile.ts';
import { type Cover, newCover, settle } from './cover.ts';
import { emit, hitList, textOf } from './emit.ts';
import { type Source, matchesOf, textSource, viewMatches } from './matches.ts';
import { scanText, wellFormed } from './scan-text.ts';
import { type ScrubStream, type ScrubStreamOptions, openStream } from './stream.ts';
import { type Tables, tableBytes, typedArraysOf } from './tables.ts';
import { encodeScratch, dec } from './utf8.ts';

export interface Scrubber {
  /** UTF-8 encodes, scrubs and decodes (lone surrogates become U+FFFD, as with TextEncoder). */
  redact(text: string): { text: string; hits: ScrubHit[] };
  /** Without hits, returns `bytes` itself. */
  redactBytes(bytes: Uint8Array): { bytes: Uint8Array; hits: ScrubHit[] };
  /**
   * Whether every value is ASCII, so a string is scanned as it is, never encoded: then
   * `redactInSteps` may be used.
   */
  readonly scansText: boolean;
  /**
   * `redact` (the same answer) for a scrubber that `scansText`, about `chars` characters of the
   * text at a time, calling `pause()` between them and awaiting what it returns when that is a
   * promise (a slice clock answers one only when the thread is to be given back).
   */
  redactInSteps(text: string, chars: number, pause: () => Promise<void> | undefined): Promise<{ text: string; hits: ScrubHit[] }>;
  stream(options?: ScrubStreamOptions): ScrubStream;
  /** Distinct patterns compiled (every spelling of every form of every value). */
  readonly patterns: number;
  /** Bytes held by the compiled tables. */
  readonly tableBytes: number;
  /** What a stream holds back: H - 1 bytes, H = STREAM_GROWTH × the longest value (0 without values). */
  readonly hold: number;
}
// ── API ────────────────────────────────────────────────────────────────────────────────

/**
 * A scrubber's compiled tables: typed arrays, strings and byte arrays only, so a worker can build
 * them and post them (README, Limits: heavy work off the main thread).
 */
export type ScrubTables = Tables;

/** Builds the tables for these values: the expensive half of compiling. */
export function compileTables(values: readonly ScrubValue[]): ScrubTables {
  return build(values);
}

/** The typed arrays a worker transfers with its tables. */
export function tableBuffers(t: ScrubTables): ArrayBuffer[] {
  return [...new Set([...typedArraysOf(t), ...t.rep].map((a) => a.buffer as ArrayBuffer))];
}

/** The cover `scanText` records a step's own matches over (`settle` then records them over the text's): reset for each. */
const DIRECT = newCover();
const DIRECT_MATCHES: number[] = [];

export function compileScrubber(values: readonly ScrubValue[]): Scrubber {
  return scrubberOf(build(values));
}

/** A scrubber over tables built by `compileTables`, here or in a worker: cheap. */
export function scrubberOf(t: ScrubTables): Scrubber {
  const size = tableBytes(t);
  const repText: string[] = [];
  /** The text with the matches `m` (at its offsets) replaced, yielding after each `chars` of it. */
  function* spliced(text: string, m: number[], chars: number): Generator<void, { text: string; hits: ScrubHit[] }> {
    const counts = new Map<number, number>();
    let out = '';
    let r = 0;
    for (let i = 0, done = 0; i < m.length; i += 3) {
      const s = m[i];
      const e = m[i + 2];
      if (e <= r) continue;
      out += (s > r ? wellFormed(text, r, s) : '') + textOf(t, repText, m[i + 1], s, r, counts);
      r = e;
      if (r - done > chars) {
        done = r;
        yield;
      }
    }
    return { text: out + wellFormed(text, r, text.length), hits: hitList(t, counts) };
  }
  /** `scanText`'s matches of text[from, to) and its view's (`src`: the text's source), settled; answers where the scan stopped. */
  const textMatches = (text: string, src: Source, m: number[], from: number, to: number, c: Cover) => {
    const direct = DIRECT_MATCHES;
    direct.length = 0;
    DIRECT.end = 0;
    DIRECT.values.clear();
    const next = scanText(t, text, direct, from, to, DIRECT);
    const view = viewMatches(t, src, from, next, false);
    if (direct.length === 0 && view.length === 0) return next;
    for (const x of settle(t, direct, view, c)) m.push(x);
    return next;
  };
  const redactBytes = (bytes: Uint8Array) => {
    if (t.count === 0) return { bytes, hits: [] };
    const m = matchesOf(t, bytes, 0, bytes.length, bytes.length, newCover());
    if (m.length === 0) return { bytes, hits: [] };
    const counts = new Map<number, number>();
    return { bytes: emit(t, bytes, 0, bytes.length, m, counts)[0], hits: hitList(t, counts) };
  };
  return {
    patterns: t.count,
    tableBytes: size,
    hold: Math.max(0, t.reach - 1),
    redactBytes,
    redact(text) {
      if (t.count === 0) return { text: text.toWellFormed(), hits: [] };
      // ASCII values: the chars are scanned as they are. Else the UTF-8, in a reused buffer; for
      // ASCII text (byte offsets are string offsets) its matches are then spliced in likewise.
      const bytes = t.ascii ? null : encodeScratch(text);
      let m: number[] = [];
      if (bytes) m = matchesOf(t, bytes, 0, bytes.length, bytes.length, newCover());
      else textMatches(text, textSource(text), m, 0, text.length, newCover());
      if (m.length === 0) return { text: text.toWellFormed(), hits: [] };
      if (bytes && bytes.length !== text.length) {
        const counts = new Map<number, number>();
        return { text: dec.decode(emit(t, bytes, 0, bytes.length, m, counts)[0]), hits: hitList(t, counts) };
      }
      const steps = spliced(text, m, Number.POSITIVE_INFINITY);
      for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
    },
    scansText: t.ascii,
    async redactInSteps(text, chars, pause) {
      if (!t.ascii) throw new Error('scrubber: redactInSteps takes a scrubber whose values are all ASCII');
      if (t.count === 0) return { text: text.toWellFormed(), hits: [] };
      const m: number[] = [];
      const c = newCover();
      const src = textSource(text);
      for (let at = 0; at < text.length; ) {
        at = textMatches(text, src, m, at, at + chars, c);
        const paused = pause();
        if (paused) await paused;
      }
      if (m.length === 0) return { text: text.toWellFormed(), hits: [] };
      const steps = spliced(text, m, chars);
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) return step.value;
        await pause();
      }
    },
    stream: (options) => openStream(t, options),
  };
}
