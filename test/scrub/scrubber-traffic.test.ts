// The scrubber on traffic shaped as real programs shape it (issue 41, GAPS §9): values that overlap
// (a program may seal a prefix of the page's token), every form inside a JSON string however an
// encoder escaped it (a model request's prompt, tool output, an API response), and a lone CR. Each
// case runs as a string, as bytes and as a stream fed in small pieces.
import { expect } from '@open-wc/testing';
import { compileScrubber, type ScrubValue } from '../../src/scrub/index.ts';
import { prng } from '../helpers/random.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
type Rand = ReturnType<typeof prng>;
const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, a: readonly T[]): T => a[int(r, a.length)];

const TOKEN = 'ghp_R2d2C3poBB8aLuke5kyWalker0rg4n4Xyz9Q'; // 40 bytes, a GitHub token's shape
const page: ScrubValue = { name: 'GITHUB_TOKEN', placeholder: 'fnox_proxy_aaaaaaaaaaaaaaaaaaaaaaaa', value: TOKEN };

/** A text scrubbed three ways, which must agree: as a string, as bytes, as a stream in pieces of 1 to 7 bytes. */
function scrubbed(values: ScrubValue[], text: string, r = prng(7)): string {
  const scrubber = compileScrubber(values);
  const asString = scrubber.redact(text).text;
  expect(dec.decode(scrubber.redactBytes(enc.encode(text)).bytes), 'bytes').to.equal(asString);
  const stream = scrubber.stream();
  const bytes = enc.encode(text);
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + int(r, 7);
    out.push(stream.push(bytes.slice(at, at + size)));
    at += size;
  }
  out.push(stream.end());
  expect(dec.decode(Uint8Array.from(out.flatMap((b) => [...b]))), 'streamed').to.equal(asString);
  return asString;
}

/** Whether any 8 bytes of `value` in a row survive in `text`: the least a leak is. */
const leaks = (text: string, value: string) => {
  for (let i = 0; i + 8 <= value.length; i++) if (text.includes(value.slice(i, i + 8))) return true;
  return false;
};

describe('the scrubber on real traffic', () => {
  describe('overlapping values', () => {
    it("keeps the page's token whole when a program sealed its first characters ('Bearer ghp_')", () => {
      for (const prefix of ['Bearer ghp_', '"token": "ghp_', 'ghp_R2d2C3po']) {
        const sealed: ScrubValue = { name: 'PROBE', placeholder: 'fnox_proxy_bbbbbbbbbbbbbbbbbbbbbbbb', value: prefix };
        const text = `curl -H 'Authorization: Bearer ${TOKEN}' {"token": "${TOKEN}"}`;
        for (const values of [
          [sealed, page],
          [page, sealed],
        ]) {
          const out = scrubbed(values, text);
          expect(leaks(out, TOKEN), out).to.equal(false);
          expect(out).not.to.include(TOKEN.slice(4));
        }
      }
    });

    it('replaces the whole covered span as the CI maskers do: the first match, then [redacted:NAME] for each value running past it', () => {
      const values = [
        { name: 'BCD', placeholder: '<BCD>', value: 'bbbbcccc' },
        { name: 'DEF', placeholder: '<DEF>', value: 'ccccdddd' },
      ];
      expect(scrubbed(values, 'a bbbbccccdddd g')).to.equal('a <BCD>[redacted:DEF] g');
      const chain = [...values, { name: 'EFG', placeholder: '<EFG>', value: 'ddddeeee' }];
      expect(scrubbed(chain, 'a bbbbccccddddeeee g')).to.equal('a <BCD>[redacted:DEF][redacted:EFG] g');
    });

    it('replaces a value that lies inside a longer one with the longer, and a value that runs past the end of another', () => {
      const values = [
        { name: 'INNER', placeholder: '<INNER>', value: 'secret-99' },
        { name: 'OUTER', placeholder: '<OUTER>', value: 'xx-secret-99-yy' },
        { name: 'TAIL', placeholder: '<TAIL>', value: '99-yy-and-more' },
      ];
      expect(scrubbed(values, '1 xx-secret-99-yy 2')).to.equal('1 <OUTER> 2');
      expect(scrubbed(values, '1 xx-secret-99-yy-and-more 2')).to.equal('1 <OUTER>[redacted:TAIL] 2');
      expect(scrubbed(values, '1 secret-99-yy-and-more 2')).to.equal('1 <INNER>[redacted:TAIL] 2');
    });

    it('releases no byte of any value from generated overlapping sets: prefixes, suffixes, chains and values inside others', () => {
      const r = prng(4141);
      for (let round = 0; round < 60; round++) {
        const base = Array.from({ length: 48 }, () => pick(r, [...'ABCDEFGHabcdefgh0123_-'])).join('');
        const cut = () => {
          const from = int(r, base.length - 8);
          return base.slice(from, from + 8 + int(r, Math.min(24, base.length - from - 8) + 1));
        };
        const values = Array.from({ length: 2 + int(r, 5) }, (_, i) => ({ name: `V${i}`, placeholder: `<${i}>`, value: cut() }));
        const text = Array.from({ length: 6 }, () => (r() < 0.6 ? base.slice(int(r, 8), base.length - int(r, 8)) : cut())).join(' . ');
        const out = scrubbed(values, text, r);
        // Every byte a value's raw form covers is gone: mark them, and each marked byte is replaced.
        const covered = new Uint8Array(text.length);
        for (const { value } of values) for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) covered.fill(1, at, at + value.length);
        let kept = '';
        for (let i = 0; i < text.length; i++) kept += covered[i] ? '\0' : text[i];
        // What is left of the text, in order, is exactly what no value covered.
        const left = out.replace(/<\d>|\[redacted:V\d\]/g, '\0');
        expect(left.replace(/\0+/g, '\0'), `round ${round}: ${JSON.stringify(values)} in ${text}`).to.equal(kept.replace(/\0+/g, '\0'));
      }
    });
  });

  describe('inside JSON strings', () => {
    /** The forms the issue tried in a prompt, each as a program prints it. */
    const b64 = btoa(TOKEN.repeat(3));
    const hex = [...enc.encode(TOKEN)].map((b) => b.toString(16).padStart(2, '0')).join('');
    const lines = (s: string, width: number, eol = '\n') => s.match(new RegExp(`.{1,${width}}`, 'g'))!.join(eol);
    const FORMS: [string, string][] = [
      ['base64 wrapped at 76 (MIME)', lines(b64, 76)],
      ['base64 wrapped at 64 (PEM)', `-----BEGIN KEY-----\n${lines(b64, 64)}\n-----END KEY-----`],
      ['base64 wrapped with CRLF', lines(b64, 76, '\r\n')],
      ['fold -w 10', lines(TOKEN, 10)],
      ['xxd -p', lines(hex, 60)],
      ['hex across lines', lines(hex.toUpperCase(), 16)],
      ['\\x escapes', [...enc.encode(TOKEN)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')],
      ['JSON with every character \\u-escaped', [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
      ['od -An -tx1', [...enc.encode(TOKEN)].map((b, i) => `${i % 16 === 0 && i ? '\n' : ''} ${b.toString(16).padStart(2, '0')}`).join('')],
    ];
    /** JSON encoders' escaping: JSON.stringify's, PHP's (\/), Go's (\u003c, \u0026), and every character as \uXXXX. */
    const ENCODERS: [string, (s: string) => string][] = [
      ['JSON.stringify', (s) => JSON.stringify(s)],
      ['PHP', (s) => JSON.stringify(s).replaceAll('/', '\\/')],
      ['Go', (s) => JSON.stringify(s).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)],
      ['every character', (s) => `"${[...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('')}"`],
    ];

    for (const [form, printed] of FORMS) {
      it(`finds the token as ${form} in a JSON string, as each encoder writes it`, () => {
        // Each form is caught as plain text: the test is about the escaping around it.
        expect(leaks(scrubbed([page], printed), TOKEN), 'plain').to.equal(false);
        for (const [encoder, encode] of ENCODERS) {
          const body = `{"model":"m","messages":[{"role":"user","content":${encode(`Here it is:\n${printed}\nthanks`)}}]}`;
          const out = scrubbed([page], body);
          expect(out, `${encoder}: ${out}`).to.include('[redacted:GITHUB_TOKEN]');
          // Decoded as JSON, what the provider would read holds no form of the token.
          const read = JSON.parse(out).messages[0].content as string;
          expect(leaks(read.replace(/\r?\n|\r/g, ''), TOKEN), `${encoder}: ${read}`).to.equal(false);
          expect(leaks(read.replace(/\s/g, '').toLowerCase(), hex), `${encoder}: ${read}`).to.equal(false);
        }
      });
    }

    it('finds an escaped form after a run of escaped backslashes longer than a stream holds, pushed in pieces, its tail let go on idle', () => {
      const value = 'Zq9xW2mK7pR4tY8uLm3N';
      const values = [{ name: 'V', placeholder: 'fnox_proxy_bbbbbbbbbbbbbbbbbbbbbbbb', value }];
      // Its base64 wrapped at 4 with `\n` escapes, its first character as `\u0057`: the first escape right after the run.
      const wrapped = '\\u0057nE5\\neFcy\\nbUs3\\ncFI0\\ndFk4\\ndUxt\\nM04=';
      // What follows the form decides where a push's held bytes begin inside the run: both parities.
      for (const [run, tail] of [10, 400, 2000].flatMap((r) => ['', ' ', ' tail', ' tail!'].map((t) => [r, t] as const))) {
        const body = enc.encode(`"${'\\\\'.repeat(run)}${wrapped}"${tail}`);
        expect(dec.decode(compileScrubber(values).redactBytes(body).bytes), `${run} backslashes`).to.include('[redacted:V]');
        for (const size of [1, 7, 64, 1000, body.length]) {
          const clock = { now: 0 };
          const stream = compileScrubber(values).stream({ now: () => clock.now });
          const out: Uint8Array[] = [];
          for (let at = 0; at < body.length; at += size) out.push(stream.push(body.slice(at, at + size)));
          clock.now += 1000;
          out.push(stream.idle(), stream.end());
          const text = dec.decode(Uint8Array.from(out.flatMap((b) => [...b])));
          expect(text, `${run} backslashes, pieces of ${size}`).to.include('[redacted:V]');
          expect(leaks(text.replaceAll('\\n', ''), 'WnE5eFcybUs3cFI0dFk4dUxtM04='.slice(2, -4)), `${run} backslashes, pieces of ${size}`).to.equal(false);
        }
      }
    });

    it('scrubs text escaped twice over (JSON inside JSON) in steps about as fast as in one piece', async () => {
      const obj = { messages: Array.from({ length: 12000 }, (_, i) => ({ role: 'tool', content: `line ${i}\n"quoted" and \\ more / text` })) };
      const text = JSON.stringify(JSON.stringify(obj, null, 2));
      const scrubber = compileScrubber([page]);
      const t0 = performance.now();
      const whole = scrubber.redact(text);
      const t1 = performance.now();
      const stepped = await scrubber.redactInSteps(text, 4096, async () => {});
      const t2 = performance.now();
      expect(stepped.text).to.equal(whole.text);
      expect(stepped.text).to.equal(text);
      // Each step decodes about its own text and a horizon each side: not the rest of the text.
      expect(t2 - t1, `in one piece ${(t1 - t0).toFixed(1)} ms, in steps ${(t2 - t1).toFixed(1)} ms, ${text.length} characters`).to.be.below(
        10 * (t1 - t0) + 100,
      );
    });

    it('leaves a JSON body with no value in it byte for byte as it came', () => {
      const body = `{"messages":[{"content":"line one\\nline two\\r\\n\\t\\"quoted\\" \\\\ \\/ \\u00e9 \\ud83d\\ude00 \\u0041"}]}`;
      const scrubber = compileScrubber([page]);
      const bytes = enc.encode(body);
      expect(scrubber.redactBytes(bytes).bytes).to.equal(bytes);
      expect(scrubber.redact(body).text).to.equal(body);
    });

    it('finds a value escaped once more, as JSON inside a JSON string', () => {
      // A tool's output that an every-character encoder wrote, then put in a JSON string by JSON.stringify.
      const inner = `{"token":"${[...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`;
      const out = scrubbed([page], JSON.stringify({ tool_result: inner }));
      expect(out).to.include('[redacted:GITHUB_TOKEN]');
      expect(out).not.to.include('\\\\u0067\\\\u0068\\\\u0070');
    });
  });

  describe('a lone CR', () => {
    it('splits no value past the scrubber, as progress output rewrites its line', () => {
      for (const at of [1, 5, 20, 39]) {
        const text = `progress 10%\r${TOKEN.slice(0, at)}\r${TOKEN.slice(at)}\rprogress 100%`;
        const out = scrubbed([page], text);
        expect(out, JSON.stringify(text)).to.include('[redacted:GITHUB_TOKEN]');
        expect(leaks(out.replaceAll('\r', ''), TOKEN), JSON.stringify(out)).to.equal(false);
      }
    });
  });
});
