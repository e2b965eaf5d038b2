// Heavy scrubbing in slices of about 10 ms that yield between them (README, Limits), so no agent
// request holds the frame's main thread, which is also the embedder's, for long. A big text goes
// through a scrub stream in 32 KiB pieces (chunk boundaries never change a stream's output), many
// texts one after the other; between pieces the thread is given back whenever a slice used ~8 ms.
import type { ScrubHit } from '../contract.ts';
import { PIECE_BYTES, SCAN_STEP_CHARS, SLICE_MS, utf8Length } from '../limits.ts';
import { joinBytes as join } from './emit.ts';
import type { Scrubber } from './scrubber.ts';
import type { ScrubStream } from './stream.ts';

const enc = new TextEncoder();

/**
 * Gives the thread back: tasks already waiting (the embedder's, other ports') run before this goes
 * on. A posted message, not `scheduler.yield()`, whose continuation would go ahead of them.
 */
export function yieldThread(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * The thread's current slice, one per document, shared by every op that slices its work: it begins
 * with the first work of a task and ends when the thread is given back (a yield, or any other end
 * of the task, which a posted marker tells). So ops that run one after the other in one task (a
 * port's pipelined pushes) share one slice's time instead of each taking a slice of its own.
 *
 * The marker is posted only once a slice has run MARK_AFTER_MS, not at every task's first look: a
 * 1 KiB `push` would otherwise spend a third of its time posting it. Until then the slice may be
 * one that began in a task long gone, so the look that marks it counts it as begun MARK_AFTER_MS
 * ago, or at the op's own first look in this task if that was earlier. Work of other ops before
 * the mark, in this task, goes uncounted only where it lay within MARK_AFTER_MS of a look.
 */
const MARK_AFTER_MS = 1;
let sliceBegan = 0;
let inSlice = false;
let marked = false;
let marker: MessagePort | null = null;

/** How long the thread's slice has run, at least since `own` (the asking op's first look in this task). */
function sliceElapsed(own: number): number {
  const now = performance.now();
  if (!inSlice) {
    inSlice = true;
    marked = false;
    sliceBegan = own;
  } else if (!marked && now - sliceBegan >= MARK_AFTER_MS) {
    marked = true;
    sliceBegan = Math.min(now - MARK_AFTER_MS, own);
    if (!marker) {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => {
        inSlice = false;
      };
      marker = port2;
    }
    marker.postMessage(null);
  }
  return now - sliceBegan;
}

/**
 * A clock of slices for one op, made in the task its work begins in: `tick()` yields once the
 * thread's current slice has run its time. An op whose work goes on in a later task for another
 * reason than a yield (the next message of a forwarded body) takes a new clock there.
 */
export function slicer(ms = SLICE_MS): Tick {
  let own = performance.now();
  sliceElapsed(own);
  // No promise while the slice goes on: a big text's scan looks every few thousand characters.
  return () =>
    sliceElapsed(own) < ms
      ? undefined
      : yieldThread().then(() => {
          own = performance.now();
        });
}

/** A slice clock's look: a promise to await when the thread is to be given back, else nothing. */
export type Tick = () => Promise<void> | undefined;

/** Where a piece of about `PIECE_BYTES` characters from `i` ends, never splitting a surrogate pair. */
function pieceEnd(text: string, i: number): number {
  const j = Math.min(text.length, i + PIECE_BYTES);
  const last = text.charCodeAt(j - 1);
  return j < text.length && last >= 0xd800 && last <= 0xdbff ? j - 1 : j;
}

/** A string's UTF-8 in pieces of about `PIECE_BYTES` characters. */
function* utf8Pieces(text: string): Generator<Uint8Array> {
  for (let i = 0, j = 0; i < text.length; i = j) yield enc.encode(text.slice(i, (j = pieceEnd(text, i))));
}

/** A string's `utf8Length`, a piece at a time, yielding between slices: a body of any size. */
export async function utf8LengthSliced(text: string, tick = slicer()): Promise<number> {
  let n = 0;
  for (let i = 0, j = 0; i < text.length; i = j) {
    n += utf8Length(text.slice(i, (j = pieceEnd(text, i))));
    await tick();
  }
  return n;
}

/** Parts copied into one new buffer, a part at a time, yielding between slices. */
async function joinSliced(parts: readonly Uint8Array[], tick: Tick): Promise<Uint8Array<ArrayBuffer>> {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
    await tick();
  }
  return out;
}

/** Bytes in pieces of `PIECE_BYTES` (views, no copies). */
export function* bytePieces(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += PIECE_BYTES) yield bytes.subarray(i, Math.min(bytes.length, i + PIECE_BYTES));
}

/** Adds hits into a running total per `{ name, form }`. */
export function addHits(total: ScrubHit[], hits: readonly ScrubHit[]): ScrubHit[] {
  for (const hit of hits) {
    const same = total.find((t) => t.name === hit.name && t.form === hit.form);
    if (same) same.count += hit.count;
    else total.push({ ...hit });
  }
  return total;
}

/**
 * Pushes a chunk into a stream in pieces, yielding between slices; answers what it released. A
 * small chunk is one piece, and yields after it when the thread's slice has run its time.
 */
export async function pushSliced(stream: ScrubStream, chunk: Uint8Array): Promise<Uint8Array> {
  const tick = slicer();
  if (chunk.length <= PIECE_BYTES) {
    const released = stream.push(chunk);
    await tick();
    return released;
  }
  const out: Uint8Array[] = [];
  for (const piece of bytePieces(chunk)) {
    out.push(stream.push(piece));
    await tick();
  }
  return join(out);
}

/** A text's UTF-8 (or bytes) through a scrub stream in pieces, yielding between them: the parts released and the hits. */
async function streamed(scrubber: Scrubber, text: string | Uint8Array, tick: Tick) {
  const stream = scrubber.stream({ idleMs: Number.POSITIVE_INFINITY });
  const parts: Uint8Array[] = [];
  for (const piece of typeof text === 'string' ? utf8Pieces(text) : bytePieces(text)) {
    parts.push(stream.push(piece));
    await tick();
  }
  parts.push(stream.end());
  return { parts, hits: stream.hits };
}

/**
 * A text's UTF-8 (a string's, or the bytes themselves) scrubbed as `redactBytes` would, in slices
 * when it is big: a forwarded body, which may be of any size. Always a buffer of its own (never
 * the input nor a view of the scrubber's), so the reply may transfer it.
 */
export async function redactToBytes(scrubber: Scrubber, text: string | Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  if (typeof text !== 'string' && text.length <= PIECE_BYTES) return new Uint8Array(scrubber.redactBytes(text).bytes);
  const tick = slicer();
  return joinSliced((await streamed(scrubber, text, tick)).parts, tick);
}

/** One text scrubbed as `scrubber.redact` / `redactBytes` would, in slices when it is big. */
async function redactOne(scrubber: Scrubber, text: string | Uint8Array, tick: Tick) {
  const size = typeof text === 'string' ? text.length : text.length;
  if (typeof text === 'string' && scrubber.scansText && size > PIECE_BYTES) {
    // Scanned as it is, a piece at a time: never encoded.
    const result = await scrubber.redactInSteps(text, SCAN_STEP_CHARS, tick);
    return { out: result.text, hits: result.hits };
  }
  if (size <= PIECE_BYTES) {
    const result = typeof text === 'string' ? scrubber.redact(text) : scrubber.redactBytes(text);
    return { out: 'text' in result ? result.text : result.bytes, hits: result.hits };
  }
  const { parts, hits } = await streamed(scrubber, text, tick);
  if (typeof text !== 'string') return { out: hits.length ? join(parts) : text, hits };
  if (!hits.length) return { out: text.toWellFormed(), hits };
  // Decoded piece by piece; `+` makes a rope, flattened only when the reply is posted.
  const dec = new TextDecoder();
  let out = '';
  for (const part of parts) {
    for (let i = 0; i < part.length; i += PIECE_BYTES) {
      out += dec.decode(part.subarray(i, Math.min(part.length, i + PIECE_BYTES)), { stream: true });
      await tick();
    }
  }
  return { out: out + dec.decode(), hits };
}

/** `redact`'s work: each text scrubbed, same order and type, in slices that yield. */
export async function redactSliced(scrubber: Scrubber, texts: readonly (string | Uint8Array)[]) {
  const tick = slicer();
  const hits: ScrubHit[] = [];
  const out: (string | Uint8Array)[] = [];
  for (const text of texts) {
    const one = await redactOne(scrubber, text, tick);
    addHits(hits, one.hits);
    out.push(one.out);
    await tick();
  }
  return { texts: out, hits };
}
