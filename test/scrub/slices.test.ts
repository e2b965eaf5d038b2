// Scrubbing in slices (README, Limits) gives what one scrub in one piece gives: strings and bytes,
// values placed across the pieces, multi-byte characters and surrogate pairs on the seams.
import { expect } from '@open-wc/testing';
import { compileScrubber } from '../../src/scrub/index.ts';
import { pushSliced, redactSliced, redactToBytes } from '../../src/scrub/index.ts';
import { prng } from '../helpers/random.ts';
import { besideBaseline } from '../helpers/heartbeat.ts';
import { PIECE_BYTES } from '../../src/limits.ts';

const enc = new TextEncoder();
const values = [
  { name: 'A', placeholder: 'fnox_proxy_00000000000000000000000a', value: 'sk-live-0123456789abcdef' },
  { name: 'B', placeholder: 'fnox_proxy_00000000000000000000000b', value: 'päss-wörd-🔑-long-enough' },
];
const scrubber = compileScrubber(values);

/** A text a little over `pieces` pieces, with values (raw and base64) around each seam. */
function textOf(random: () => number, pieces: number): string {
  const fill = ['a', 'é', '🔑', ' ', '\n'];
  const parts: string[] = [];
  let length = 0;
  while (length < pieces * PIECE_BYTES + 1000) {
    const r = random();
    const part =
      r < 0.001
        ? values[Math.floor(random() * 2)]!.value
        : r < 0.002
          ? btoa(values[0]!.value)
          : fill[Math.floor(random() * fill.length)]!.repeat(1 + Math.floor(random() * 4000));
    parts.push(part);
    length += part.length;
  }
  // A value exactly across each seam (in UTF-16 units for strings).
  let text = parts.join('');
  for (let k = 1; k <= pieces; k++) {
    const at = k * PIECE_BYTES - 5;
    text = text.slice(0, at) + values[k % 2]!.value + text.slice(at);
  }
  return text;
}

/**
 * The slowest text measured against its scrubber: a shared prefix with every character a JSON
 * escape, against 1,000 values. Every sample holds an escape that decodes to the first bytes of
 * all 1,000 values, so every start is tried (about 130 ms a MiB in Node).
 */
function slowest() {
  const random = prng(2727);
  const token = () => Array.from({ length: 24 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 62)]).join('');
  const many = compileScrubber(Array.from({ length: 1000 }, (_, i) => ({ name: `K${i}`, placeholder: `fnox_proxy_${i}`, value: `sk-live-${token()}` })));
  const unit = [...'sk-live-'].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  return { many, text: unit.repeat(Math.ceil(2 ** 20 / unit.length)) };
}

describe('scrubbing in slices', () => {
  it('redacts big strings and bytes exactly as one scrub would, hits included', async () => {
    const random = prng(1717);
    for (let round = 0; round < 3; round++) {
      const text = textOf(random, 2 + round);
      const bytes = enc.encode(text);
      const wholeText = scrubber.redact(text);
      const wholeBytes = scrubber.redactBytes(bytes);
      const sliced = await redactSliced(scrubber, [text, bytes, 'small sk-live-0123456789abcdef']);
      expect(sliced.texts[0] === wholeText.text, 'the string').to.equal(true);
      expect(sliced.texts[1]).to.deep.equal(wholeBytes.bytes);
      expect(sliced.texts[2]).to.equal(`small ${values[0]!.placeholder}`);
      const count = (hits: { count: number }[]) => hits.reduce((n, h) => n + h.count, 0);
      expect(count(sliced.hits)).to.equal(count(wholeText.hits) + count(wholeBytes.hits) + 1);
    }
  });

  it('redacts big strings in steps, never encoded, exactly as one scrub would where every value is ASCII', async () => {
    const ascii = compileScrubber([values[0]!, { name: 'C', placeholder: 'fnox_proxy_00000000000000000000000c', value: 'c2stbGl2ZS0wMTIzNDU2' }]);
    expect(ascii.scansText).to.equal(true);
    const random = prng(1818);
    for (let round = 0; round < 3; round++) {
      const text = textOf(random, 2 + round);
      const whole = ascii.redact(text);
      const sliced = await redactSliced(ascii, [text]);
      expect(sliced.texts[0] === whole.text, 'the string').to.equal(true);
      expect(whole.text === new TextDecoder().decode(ascii.redactBytes(enc.encode(text)).bytes), 'as its UTF-8').to.equal(true);
      expect(sliced.hits).to.deep.equal(whole.hits);
      expect(whole.hits.length).to.be.above(0);
    }
    for (const text of [`${'x'.repeat(PIECE_BYTES - 1)}🔑${values[0]!.value}`, `${'x'.repeat(PIECE_BYTES - 1)}\ud83d${values[0]!.value}`]) {
      const [out] = (await redactSliced(ascii, [text])).texts;
      expect(out === ascii.redact(text).text).to.equal(true);
    }
  });

  it('keeps a surrogate pair that straddles a seam whole, and makes a lone one U+FFFD as one scrub does', async () => {
    const pair = `${'x'.repeat(PIECE_BYTES - 1)}🔑${values[0]!.value}`;
    const lone = `${'x'.repeat(PIECE_BYTES - 1)}\ud83d${values[0]!.value}`;
    for (const text of [pair, lone]) {
      const [out] = (await redactSliced(scrubber, [text])).texts;
      expect(out === scrubber.redact(text).text).to.equal(true);
    }
  });

  it('gives the thread back within the slowest text measured, a shared prefix with every character a JSON escape against 1,000 values: it adds under 50 ms to the longest wait beside an echo of the same text', async function () {
    this.timeout(60_000);
    // In one piece the heartbeat would wait for nearly all of it; in slices, about one slice's
    // work more than beside the echo.
    const { many, text } = slowest();
    let out: string | Uint8Array | undefined;
    const echo = new MessageChannel();
    echo.port2.onmessage = ({ data }) => echo.port2.postMessage(data);
    const beat = await besideBaseline(
      async () => void ([out] = (await redactSliced(many, [text])).texts),
      () =>
        new Promise((resolve) => {
          echo.port1.onmessage = resolve;
          echo.port1.postMessage(text);
        }),
    );
    echo.port1.close();
    expect(out).to.equal(text);
    expect(
      beat.longest - beat.baseline,
      `the heartbeat waited ${beat.longest.toFixed(0)} ms at most in ${beat.ms.toFixed(0)} ms, ${beat.baseline.toFixed(0)} ms beside the echo`,
    ).to.be.below(50);
  });

  it("shares one slice among small pushes that run one after another in one task, as a port's queue runs them: they add under 50 ms to the longest wait beside an echo of the same chunks", async function () {
    this.timeout(60_000);
    // Each push is one piece and looks at the clock once; the queue chains them, so after a
    // yield the rest run in the task that resumed it. Were each push its own slice, none would
    // yield and the heartbeat would wait for all of them.
    const { many, text } = slowest();
    const chunks = Array.from({ length: 48 }, (_, k) => enc.encode(text.slice(k * PIECE_BYTES, (k + 1) * PIECE_BYTES)));
    const echo = new MessageChannel();
    echo.port2.onmessage = ({ data }) => echo.port2.postMessage(data);
    let released = 0;
    const beat = await besideBaseline(
      () => {
        const stream = many.stream({ idleMs: Number.POSITIVE_INFINITY });
        released = 0;
        let tail: Promise<unknown> = Promise.resolve();
        for (const chunk of chunks) tail = tail.then(async () => void (released += (await pushSliced(stream, chunk)).length));
        return tail.then(() => void (released += stream.end().length));
      },
      async () => {
        for (const chunk of chunks) {
          await new Promise((resolve) => {
            echo.port1.onmessage = resolve;
            echo.port1.postMessage(chunk);
          });
        }
      },
    );
    echo.port1.close();
    expect(released).to.equal(chunks.reduce((n, c) => n + c.length, 0));
    expect(
      beat.longest - beat.baseline,
      `the heartbeat waited ${beat.longest.toFixed(0)} ms at most in ${beat.ms.toFixed(0)} ms, ${beat.baseline.toFixed(0)} ms beside the echo`,
    ).to.be.below(50);
  });

  it('a big push releases what the same push in one piece releases', async () => {
    const bytes = enc.encode(textOf(prng(7), 3));
    const one = scrubber.stream();
    const sliced = scrubber.stream();
    const a = [one.push(bytes), one.end()];
    const b = [await pushSliced(sliced, bytes), sliced.end()];
    expect(b[0]).to.deep.equal(a[0]);
    expect(b[1]).to.deep.equal(a[1]);
  });

  it('scrubs a forwarded body, string or bytes, small or over many pieces, as redactBytes does on its UTF-8', async () => {
    const random = prng(2024);
    for (const text of [textOf(random, 0), textOf(random, 2), 'small sk-live-0123456789abcdef', '']) {
      const whole = scrubber.redactBytes(enc.encode(text)).bytes;
      expect(await redactToBytes(scrubber, text), `a string of ${text.length}`).to.deep.equal(whole);
      expect(await redactToBytes(scrubber, enc.encode(text)), `bytes of ${text.length}`).to.deep.equal(whole);
    }
  });
});
