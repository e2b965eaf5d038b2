// The agent's scrub streams under generated use (README, The agent's ops): three streams of one port
// at once, each fed a text of filler, values and base64 forms of values in chunks split at random
// (1 to 40 bytes, a value's bytes across any number of them), the pushes of the three interleaved
// at random. What each stream releases, pushes and end together, equals its text with every value
// replaced, worked out as the text was made: no stream's bytes or matches reach another.
import { expect } from '@open-wc/testing';
import { prng } from '../helpers/random.ts';
import { canary, findCanaries, resetVault, welcomed } from '../helpers/vault.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const b64 = (s: string) => btoa(String.fromCharCode(...enc.encode(s)));
/** Filler no form of a value can start, end or run into: none of it is a base64 or hex character. */
const FILLER = [' ', '#', '~', '!', ' ;; '];

describe('scrub streams under generated use', () => {
  beforeEach(resetVault);

  for (const seed of [21, 22]) {
    it(`releases from each of three interleaved streams its own text, every value replaced (seed ${seed})`, async function () {
      this.timeout(60_000);
      const page = await welcomed();
      const agent = await welcomed({ role: 'agent' });
      const values = await Promise.all(
        ['ONE', 'TWO', 'THREE'].map(async (name) => {
          const value = canary(name.toLowerCase());
          const { placeholder } = await page.request('put', { name, value });
          return { name, value, placeholder };
        }),
      );
      const random = prng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      const streams = ['s.a', 's:b', 's-c'].map((id) => {
        let text = '';
        let expected = '';
        while (text.length < 2000) {
          const r = random();
          if (r < 0.15) {
            const v = pick(values);
            text += v.value;
            expected += v.placeholder;
          } else if (r < 0.2) {
            const v = pick(values);
            text += b64(v.value);
            expected += `[redacted:${v.name}]`;
          } else {
            const filler = pick(FILLER).repeat(1 + Math.floor(random() * 20));
            text += filler;
            expected += filler;
          }
        }
        const bytes = enc.encode(text);
        const chunks: Uint8Array[] = [];
        for (let at = 0; at < bytes.length; ) {
          const size = 1 + Math.floor(random() * 40);
          chunks.push(bytes.slice(at, at + size));
          at += size;
        }
        return { id, expected, chunks, out: [] as Uint8Array[] };
      });
      for (const s of streams) expect((await agent.request('redactStream', { stream: s.id })).error).to.equal(undefined);
      // Interleaved at random until every chunk of every stream is pushed.
      for (let left = streams.filter((s) => s.chunks.length > 0); left.length > 0; left = streams.filter((s) => s.chunks.length > 0)) {
        const s = pick(left);
        const reply = await agent.request('push', { stream: s.id, chunk: s.chunks.shift()! });
        expect(reply.error, `push to ${s.id}`).to.equal(undefined);
        s.out.push(reply.chunk);
      }
      for (const s of streams) {
        const end = await agent.request('end', { stream: s.id });
        s.out.push(end.chunk);
        const released = dec.decode(new Uint8Array(s.out.flatMap((c) => [...c])));
        expect(released === s.expected, `stream ${s.id} released its own text, scrubbed`).to.equal(true);
      }
      expect(findCanaries([...agent.replies, ...agent.events]), 'a value reached the agent').to.deep.equal([]);
    });
  }
});
