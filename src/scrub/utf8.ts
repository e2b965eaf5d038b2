// UTF-8 for the scrubber: one encoder and decoder, and a scratch buffer reused for strings.

export const enc = new TextEncoder();
export const dec = new TextDecoder();

/**
 * A string's chars text[a, b) as bytes into out from 0: a char past ASCII as 0xff, which is in no
 * pattern of a scrubber whose values are all ASCII (the string scan's reading of a text).
 */
export function charsInto(out: Uint8Array, text: string, a: number, b: number): void {
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    out[i - a] = c < 0x80 ? c : 0xff;
  }
}

/** Each string's UTF-8, as views of one buffer. */
export function encodeAll(strings: string[]): Uint8Array[] {
  const joined = strings.join('');
  const bytes = enc.encode(joined);
  if (bytes.length !== joined.length) return strings.map((r) => enc.encode(r));
  let at = 0;
  return strings.map((r) => bytes.subarray(at, (at += r.length)));
}

/** Reused for strings up to 1 MiB (3 MiB of UTF-8 at most); larger ones get their own. */
export let scratch = new Uint8Array(0);
const SCRATCH_MAX = 3 * 2 ** 20;

/** Writes the UTF-8 of a string of at most 1 MiB code units into `scratch`; returns its length. */
export function encodeIntoScratch(text: string): number {
  const need = 3 * text.length;
  if (scratch.length < need) scratch = new Uint8Array(Math.max(need, 2 * scratch.length, 4096));
  return enc.encodeInto(text, scratch).written;
}

/** The UTF-8 of `text`, valid until the next call. */
export function encodeScratch(text: string): Uint8Array {
  const need = 3 * text.length;
  if (need > SCRATCH_MAX) return enc.encode(text);
  if (scratch.length < need) scratch = new Uint8Array(Math.min(SCRATCH_MAX, Math.max(need, 2 * scratch.length, 4096)));
  return scratch.subarray(0, enc.encodeInto(text, scratch).written);
}
