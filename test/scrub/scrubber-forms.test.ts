// Property tests for every form of README's scrubber section, as real tools write them: random
// values × every form × random chunk splits and pauses × random surrounding text, checked
// against a reference written here, which builds each form with the platform's own encoders
// (TextEncoder, btoa, encodeURIComponent, URLSearchParams, JSON.stringify, a string's UTF-16 code
// units) and searches the output for it.
import { expect } from '@open-wc/testing';
import { compileScrubber, type ScrubValue } from '../../src/scrub/index.ts';
import { prng } from '../helpers/random.ts';
import { IDLE_MS } from '../../src/limits.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
type Rand = ReturnType<typeof prng>;
const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, a: readonly T[] | string): T => a[int(r, a.length)] as T;
const latin1 = (b: Uint8Array) => Array.from(b, (c) => String.fromCharCode(c)).join('');

// ── Values ───────────────────────────────────────────────────────────────────────────────

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SYMBOLS = `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`;
const WIDE = ['é', 'ö', 'ß', 'Ж', 'λ', '日', '本', '€', '\u2028'];
const ASTRAL = ['🔑', '😀', '𝄞', '🚀'];
const KINDS = ['token', 'symbols', 'spaces', 'non-ASCII', 'astral'] as const;

/** `min` (8 unless given) to about 80 UTF-8 bytes of one kind. */
function randomValue(r: Rand, kind: (typeof KINDS)[number], min = 8): string {
  const target = min + int(r, 80 - min);
  const char = () => {
    switch (kind) {
      case 'token':
        return pick(r, `${ALNUM}_-`);
      case 'symbols':
        return r() < 0.5 ? pick(r, SYMBOLS) : pick(r, ALNUM);
      case 'spaces':
        return r() < 0.25 ? ' ' : pick(r, ALNUM);
      case 'non-ASCII':
        return r() < 0.4 ? pick(r, WIDE) : pick(r, ALNUM + '/<&');
      case 'astral':
        return r() < 0.3 ? pick(r, ASTRAL) : r() < 0.2 ? pick(r, WIDE) : pick(r, ALNUM);
    }
  };
  let v = pick(r, ['', 'sk-', 'ghp_', 'xoxb-']);
  while (enc.encode(v).length < target) v += char();
  return v;
}

// ── The reference: each form as a real writer writes it, and what must not survive ───────────

const hexCase = (r: Rand, s: string) => s.replace(/[0-9a-f]/gi, (c) => (r() < 0.5 ? c.toUpperCase() : c.toLowerCase()));
/** Random case for the hex digits of every %XX. */
const percentCase = (r: Rand, s: string) => s.replace(/%[0-9A-Fa-f]{2}/g, (e) => hexCase(r, e));
/** Random case for the hex digits of every \uXXXX. */
const uCase = (r: Rand, s: string) => s.replace(/\\u[0-9A-Fa-f]{4}/g, (e) => `\\u${hexCase(r, e.slice(2))}`);
const u = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
/** Each UTF-16 code unit of c as \uXXXX (an astral character as a surrogate pair). */
const escapeUnits = (c: string) => Array.from({ length: c.length }, (_, i) => u(c.charCodeAt(i))).join('');
const stringify = (v: string) => JSON.stringify(v).slice(1, -1);

const b64 = (bytes: Uint8Array) => btoa(latin1(bytes));
const toUrlAlphabet = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_');

interface Planted {
  form: string;
  text: string;
  /** Searched in the output (normalised by `norm`): none may be found. */
  cores: string[];
  norm: (out: string) => string;
}

const same = (s: string) => s;
const noBreaks = (s: string) => s.replace(/\r?\n/g, '');
const lower = (s: string) => s.toLowerCase();
const lowerNoBreaks = (s: string) => noBreaks(s).toLowerCase();

const hexOf = (bytes: Uint8Array, sep = '') => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(sep);
/** Every byte as \xNN, as `echo -e`, C and `printf` take it. */
const xEscapes = (bytes: Uint8Array) => Array.from(bytes, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
/**
 * Python's `repr(bytes)` inside its quotes, as CPython's bytes_repr writes it: the quote `'`, or `"`
 * when the bytes hold `'` and no `"`; `\\` and the quote escaped; tab, LF, CR as `\t` `\n` `\r`;
 * printable ASCII as itself; every other byte `\xNN` in lower case.
 */
const pythonBytes = (bytes: Uint8Array) => {
  const quote = bytes.includes(39) && !bytes.includes(34) ? 34 : 39;
  const short: Record<number, string> = { 9: '\\t', 10: '\\n', 13: '\\r' };
  return Array.from(bytes, (b) =>
    b === 92 || b === quote
      ? `\\${String.fromCharCode(b)}`
      : (short[b] ?? (b >= 32 && b < 127 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)),
  ).join('');
};
/** A string's UTF-16 code units, little-endian (what PowerShell encodes for -EncodedCommand). */
const utf16le = (s: string) =>
  Uint8Array.from(Array.from({ length: 2 * s.length }, (_, i) => (i % 2 ? s.charCodeAt(i >> 1) >> 8 : s.charCodeAt(i >> 1) & 255)));
/** A form of the value with every character, or each with chance `p`, as \uXXXX (in random case), the rest as JSON.stringify writes it. */
const jsonEscaping = (r: Rand, value: string, p: number) => [...value].map((c) => (r() < p ? uCase(r, escapeUnits(c)) : stringify(c))).join('');

/** The line breaks: LF, CRLF, and a lone CR (progress output rewrites its line with one). */
const EOLS = ['\n', '\r\n', '\r'];
const eolOf = (r: Rand) => pick(r, EOLS);

/**
 * `fold`: a line break (LF, CRLF or a lone CR) after every `width` units, the first line `start` units
 * short (the text sits anywhere in a longer one); at least one break inside.
 */
function fold<T>(r: Rand, units: T[], width: number, eol: T[]): T[] {
  const start = 1 + int(r, Math.min(width, units.length - 1));
  const out: T[] = [];
  units.forEach((u, i) => {
    if (i > 0 && (i - start) % width === 0) out.push(...eol);
    out.push(u);
  });
  return out;
}
const foldText = (r: Rand, s: string, width: number) => fold(r, [...s], width, [...eolOf(r)]).join('');
/** A width as wrapping tools use them, or any from 1. */
const widthOf = (r: Rand) => pick(r, [1, 2, 3, 60, 64, 76, 1 + int(r, 80)]);

/** The stable middle of base64(a bytes ++ value): the characters made of value bits only. */
function b64Middle(raw: Uint8Array, a: number, url: boolean): string {
  const full = b64(Uint8Array.from([...new Uint8Array(a), ...raw]));
  const mid = full.slice(Math.ceil((8 * a) / 6), Math.floor((8 * (a + raw.length)) / 6));
  return url ? toUrlAlphabet(mid) : mid;
}

function wrap(r: Rand, s: string): string {
  if (r() < 0.3) return s;
  const width = pick(r, [76, 64, 1 + int(r, 100), 4, 16]);
  const eol = eolOf(r);
  const start = int(r, width); // the first line may be shorter: the value sits anywhere in a blob
  let out = s.slice(0, start);
  for (let i = start; i < s.length; i += width) out += (out ? eol : '') + s.slice(i, i + width);
  return out + (r() < 0.5 ? eol : '');
}

const FORMS = [
  'raw',
  'base64',
  'base64url',
  'hex',
  'encodeURIComponent',
  'URLSearchParams',
  'quote',
  'JSON.stringify',
  'json \\/',
  'json Go',
  'json ASCII',
  'json PHP',
  'json all',
  'x-escape',
  'x-escape python',
  'hex-separated',
  'base64-utf16le',
  'raw-wrapped',
  'hex-wrapped',
  'json any',
] as const;

function plant(r: Rand, value: string, form: (typeof FORMS)[number]): Planted {
  const raw = enc.encode(value);
  switch (form) {
    case 'raw':
      return { form, text: value, cores: [value], norm: same };
    case 'base64':
    case 'base64url': {
      const before = crypto.getRandomValues(new Uint8Array(int(r, 6)));
      const after = crypto.getRandomValues(new Uint8Array(int(r, 6)));
      let blob = b64(Uint8Array.from([...before, ...raw, ...after]));
      if (form === 'base64url') blob = toUrlAlphabet(blob).replace(/=+$/, r() < 0.5 ? '' : '$&');
      return { form, text: wrap(r, blob), cores: [b64Middle(raw, before.length % 3, form === 'base64url')], norm: noBreaks };
    }
    case 'hex': {
      const hex = Array.from(raw, (b) => b.toString(16).padStart(2, '0')).join('');
      return { form, text: hexCase(r, hex), cores: [hex], norm: lower };
    }
    case 'encodeURIComponent':
    case 'URLSearchParams':
    case 'quote': {
      const text =
        form === 'encodeURIComponent'
          ? encodeURIComponent(value)
          : form === 'URLSearchParams'
            ? new URLSearchParams({ q: value }).toString().slice(2)
            : encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
      return { form, text: percentCase(r, text), cores: [text.toLowerCase()], norm: lower };
    }
    case 'x-escape': {
      const text = hexCase(r, xEscapes(raw));
      return { form, text, cores: [text.toLowerCase()], norm: lower };
    }
    case 'x-escape python': {
      const text = pythonBytes(raw);
      return { form, text, cores: [text], norm: same };
    }
    case 'hex-separated': {
      const text = hexCase(r, hexOf(raw, pick(r, [' ', ':', '-'])));
      return { form, text, cores: [text.toLowerCase()], norm: lower };
    }
    case 'base64-utf16le': {
      // The value's UTF-16LE inside a longer command; at an alignment whose stable middle has 8
      // characters and more (the shortest the scrubber keys: docs/scrubber.md, Forms).
      const wide = utf16le(value);
      let a = int(r, 3);
      while (b64Middle(wide, a, false).length < 8) a = (a + 1) % 3;
      const before = crypto.getRandomValues(new Uint8Array(a + 3 * int(r, 2)));
      const after = crypto.getRandomValues(new Uint8Array(int(r, 6)));
      const blob = b64(Uint8Array.from([...before, ...wide, ...after]));
      // Wrapped at 4 characters and more, or not (PowerShell's -EncodedCommand is one argument).
      const text = r() < 0.5 ? blob : foldText(r, blob, 4 + int(r, 80));
      return { form, text, cores: [b64Middle(wide, a, false)], norm: noBreaks };
    }
    case 'raw-wrapped':
      return { form, text: foldText(r, value, widthOf(r)), cores: [value], norm: noBreaks };
    case 'hex-wrapped': {
      const hex = hexOf(raw);
      return { form, text: foldText(r, hexCase(r, hex), widthOf(r)), cores: [hex], norm: lowerNoBreaks };
    }
    case 'json any': {
      const text = jsonEscaping(r, value, r());
      return { form, text, cores: [text], norm: same };
    }
    default: {
      const chars = [...value];
      const goes = (c: string) => '<>&\u2028\u2029'.includes(c);
      const spell = (escaped: (c: string) => boolean, slash: boolean) =>
        chars.map((c) => (escaped(c) ? escapeUnits(c) : slash && c === '/' ? '\\/' : stringify(c))).join('');
      const text =
        form === 'JSON.stringify'
          ? stringify(value)
          : form === 'json \\/'
            ? stringify(value).replace(/\//g, '\\/')
            : form === 'json Go'
              ? spell(goes, false)
              : form === 'json ASCII'
                ? spell((c) => c > '\x7f', false)
                : form === 'json PHP'
                  ? spell((c) => c > '\x7f', true)
                  : spell(() => true, false);
      const written = uCase(r, text);
      return { form, text: written, cores: [written, text], norm: same };
    }
  }
}

// ── Inputs ───────────────────────────────────────────────────────────────────────────────

const FILLER = [
  'the ',
  'data ',
  '{"k":"',
  '"}, ',
  ' = ',
  '\n',
  '\r\n',
  'Zm9v',
  'QUJD',
  '0123',
  'abcd',
  '%20',
  '%2F',
  '\\u00e9',
  '\\/',
  'é',
  '日本',
  '🚀',
  '==',
  '/+',
  '-_',
  '&q=',
  'x',
];
const filler = (r: Rand) => Array.from({ length: int(r, 6) }, () => pick(r, FILLER)).join('');

/** Chunks of 0 to 300 bytes; before some of them a pause long enough for idle(), or one too short. */
function feed(r: Rand, bytes: Uint8Array, stream: ReturnType<ReturnType<typeof compileScrubber>['stream']>, clock: { now: number }) {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = r() < 0.1 ? 0 : r() < 0.5 ? 1 + int(r, 8) : 1 + int(r, 300);
    out.push(stream.push(bytes.slice(at, at + size)));
    at += size;
    const pause = r();
    if (pause < 0.08) {
      clock.now += IDLE_MS + int(r, 100);
      out.push(stream.idle());
    } else if (pause < 0.12) {
      clock.now += int(r, IDLE_MS - 1);
      expect(stream.idle().length, 'idle before idleMs').to.equal(0);
    }
  }
  out.push(stream.end());
  return dec.decode(Uint8Array.from(out.flatMap((c) => [...c])));
}

/** The input pushed in random chunks of 0 to 300 bytes (no pauses), decoded. */
function streamed(r: Rand, scrubber: ReturnType<typeof compileScrubber>, bytes: Uint8Array): string {
  const stream = scrubber.stream();
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = r() < 0.1 ? 0 : r() < 0.5 ? 1 + int(r, 8) : 1 + int(r, 300);
    out.push(stream.push(bytes.slice(at, at + size)));
    at += size;
  }
  out.push(stream.end());
  return dec.decode(Uint8Array.from(out.flatMap((c) => [...c])));
}

function survivors(out: string, planted: Planted[]): string[] {
  return planted.flatMap((p) => p.cores.filter((core) => p.norm(out).includes(p.norm(core))).map(() => p.form));
}

describe('scrubber forms', () => {
  // Seeds from 17 on take values of 19 bytes and more: every pattern is long enough for the
  // widest sampling step (16), which short values keep narrower.
  // Seeds from 23 on give every value one prefix of 13 bytes, as one vendor's keys share theirs:
  // then each start is told apart among them by the input read as each form reads it.
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28]) {
    it(`leaves no form of any value in the output, as bytes and as a stream with pauses (seed ${seed})`, () => {
      const r = prng(seed);
      const values: ScrubValue[] = Array.from({ length: 12 }, (_, i) => ({
        name: `V${i}`,
        placeholder: `⟦V${i}⟧`,
        value: (seed > 22 ? 'sk-ant-api03-' : '') + randomValue(r, KINDS[i % KINDS.length], seed > 16 ? 19 : 8),
      }));
      const scrubber = compileScrubber(values);
      for (let round = 0; round < 6; round++) {
        const planted: Planted[] = [];
        let text = filler(r);
        for (let i = 0; i < 12; i++) {
          const p = plant(r, pick(r, values).value, pick(r, FORMS));
          planted.push(p);
          text += p.text + filler(r);
        }
        const whole = scrubber.redact(text).text;
        expect(survivors(whole, planted), `seed ${seed} round ${round}, whole`).to.deep.equal([]);
        const clock = { now: 0 };
        const streamed = feed(r, enc.encode(text), scrubber.stream({ now: () => clock.now }), clock);
        expect(survivors(streamed, planted), `seed ${seed} round ${round}, streamed`).to.deep.equal([]);
      }
    });
  }

  for (const form of FORMS) {
    it(`catches the ${form} form of every kind of value, alone and in text`, () => {
      const r = prng(form.length * 7919);
      for (const kind of KINDS) {
        for (let i = 0; i < 8; i++) {
          const value = randomValue(r, kind);
          const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
          const p = plant(r, value, form);
          for (const text of [p.text, `${filler(r)}${p.text}${filler(r)}`]) {
            const out = scrubber.redact(text).text;
            expect(survivors(out, [p]), `${kind} ${JSON.stringify(value)} as ${JSON.stringify(text)}`).to.deep.equal([]);
            expect(out).to.match(/<S>|\[redacted:S\]/);
          }
        }
      }
    });
  }

  it('spells every form of every kind of value in at least as many UTF-16 units as the value (a write\u2019s audit text relies on it)', () => {
    const r = prng(4517);
    for (const form of FORMS) {
      for (const kind of KINDS) {
        for (let i = 0; i < 40; i++) {
          const value = randomValue(r, kind);
          for (const core of plant(r, value, form).cores) expect(core.length, `${form} of ${JSON.stringify(value)}`).to.be.at.least(value.length);
        }
      }
    }
  });

  it('catches every JSON form of values sharing a prefix, short escapes among their first 22 bytes', () => {
    const r = prng(2222);
    const tails = ['"a\\b/c\tdefgh', '/"\\\b\f\tijklm', 'n"o/p\\q\tr<s>&', '\\\\""//\t\tuvw'];
    const values: ScrubValue[] = tails.map((tail, i) => ({ name: `J${i}`, placeholder: `⟦J${i}⟧`, value: `sk-ant-api03-${tail}${randomValue(r, 'token')}` }));
    const scrubber = compileScrubber(values);
    for (const { value } of values) {
      for (const form of ['JSON.stringify', 'json \\/', 'json Go', 'json ASCII', 'json PHP', 'json all'] as const) {
        const p = plant(r, value, form);
        const out = scrubber.redact(`x ${p.text} y`).text;
        expect(survivors(out, [p]), `${JSON.stringify(value)} as ${p.text}`).to.deep.equal([]);
      }
    }
  });

  it('catches base64 broken by an LF, a CRLF or a lone CR after any character, the widths changing within one form', () => {
    const r = prng(4242);
    for (const kind of KINDS) {
      for (let i = 0; i < 12; i++) {
        const value = randomValue(r, kind);
        const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
        const raw = enc.encode(value);
        const before = crypto.getRandomValues(new Uint8Array(int(r, 6)));
        const blob = b64(Uint8Array.from([...before, ...raw]));
        // A break after each character with a chance from 5% to 90%: narrow and wide lines mixed.
        const chance = 0.05 + r() * 0.85;
        let text = '';
        for (const c of blob) text += c + (r() < chance ? eolOf(r) : '');
        const planted: Planted = { form: 'base64', text, cores: [b64Middle(raw, before.length % 3, false)], norm: noBreaks };
        for (const input of [text, `${filler(r)}${text}${filler(r)}`]) {
          const out = scrubber.redact(input).text;
          expect(survivors(out, [planted]), `${kind} ${JSON.stringify(value)} as ${JSON.stringify(input)}`).to.deep.equal([]);
          const clock = { now: 0 };
          const streamed = feed(r, enc.encode(input), scrubber.stream({ now: () => clock.now }), clock);
          expect(survivors(streamed, [planted]), `${kind} ${JSON.stringify(value)} streamed`).to.deep.equal([]);
        }
      }
    }
  });

  it('passes random text without values through unchanged, however it is split and paused', () => {
    const r = prng(99);
    const scrubber = compileScrubber(KINDS.map((kind, i) => ({ name: `V${i}`, placeholder: `<${i}>`, value: randomValue(r, kind) })));
    for (let round = 0; round < 20; round++) {
      const text = Array.from({ length: 40 }, () => filler(r)).join('');
      expect(scrubber.redact(text).text).to.equal(text);
      const clock = { now: 0 };
      expect(feed(r, enc.encode(text), scrubber.stream({ now: () => clock.now }), clock)).to.equal(text);
    }
  });

  it('catches JSON with \\uXXXX for any one character, in every position of every kind of value, in either case', () => {
    const r = prng(2727);
    for (const kind of KINDS) {
      for (let i = 0; i < 6; i++) {
        const value = randomValue(r, kind, i < 3 ? 8 : 19);
        const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
        const chars = [...value];
        chars.forEach((_, at) => {
          // As JSON.stringify writes it, but the character at `at` as \uXXXX (astral: a pair).
          const written = chars.map((c, j) => (j === at ? uCase(r, escapeUnits(c)) : stringify(c))).join('');
          const text = `x ${written} y`;
          expect(scrubber.redact(text).text, `${kind} ${JSON.stringify(value)} as ${written}`).to.equal('x [redacted:S] y');
          expect(streamed(r, scrubber, enc.encode(text)), `${written}, streamed`).to.equal('x [redacted:S] y');
        });
      }
    }
  });

  it('catches JSON with any mixture of \\uXXXX escapes, from none to every character, beside values sharing its prefix', () => {
    const r = prng(2828);
    const values: ScrubValue[] = Array.from({ length: 30 }, (_, i) => ({
      name: `V${i}`,
      placeholder: `<${i}>`,
      value: (i % 2 ? 'sk-ant-api03-' : '') + randomValue(r, KINDS[i % KINDS.length]),
    }));
    const scrubber = compileScrubber(values);
    for (let round = 0; round < 400; round++) {
      const v = int(r, values.length);
      const written = jsonEscaping(r, values[v].value, r());
      const text = `{"k":"${written}"}`;
      // Nothing escaped and nothing JSON must escape: the raw value, replaced by its placeholder.
      const expected = `{"k":"${written === values[v].value ? `<${v}>` : `[redacted:V${v}]`}"}`;
      expect(scrubber.redact(text).text, `${JSON.stringify(values[v].value)} as ${written}`).to.equal(expected);
      expect(streamed(r, scrubber, enc.encode(text)), `${written}, streamed`).to.equal(expected);
    }
  });

  it('catches a raw value split by line breaks between any two bytes, as fold writes it, in bytes and streams', () => {
    const r = prng(3131);
    for (const kind of KINDS) {
      for (let i = 0; i < 16; i++) {
        const value = randomValue(r, kind);
        const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
        // GNU fold counts bytes: a break may fall inside a character's UTF-8.
        const folded = fold(r, [...enc.encode(value)], widthOf(r), r() < 0.5 ? [10] : [13, 10]);
        const input = Uint8Array.from([...enc.encode('x '), ...folded, ...enc.encode(' y')]);
        const { bytes, hits } = scrubber.redactBytes(input);
        expect(dec.decode(bytes), `${kind} ${JSON.stringify(value)} as ${JSON.stringify(latin1(Uint8Array.from(folded)))}`).to.equal('x [redacted:S] y');
        expect(hits).to.deep.equal([{ name: 'S', form: 'raw-wrapped', count: 1 }]);
        expect(streamed(r, scrubber, input), 'streamed').to.equal('x [redacted:S] y');
      }
    }
  });

  it('catches a folded raw value that starts with the characters \\u00 (keyed by 12 bytes), the break after any of them', () => {
    for (const value of ['\\u0041bcdefgh', '\\u00e9-token-abcdefgh', '\\u0041bc', '\\U00ffzzzzzzzzzzzz']) {
      const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
      for (let at = 1; at < value.length; at++) {
        for (const eol of EOLS) {
          const text = `x ${value.slice(0, at)}${eol}${value.slice(at)} y`;
          expect(scrubber.redact(text).text, JSON.stringify(text)).to.equal('x [redacted:S] y');
          expect(dec.decode(scrubber.redactBytes(enc.encode(text)).bytes), JSON.stringify(text)).to.equal('x [redacted:S] y');
        }
      }
    }
  });

  it('catches hex split by line breaks anywhere, as xxd -p writes it at 60 columns and fold at any width, in either case', () => {
    const r = prng(3232);
    for (const kind of KINDS) {
      for (let i = 0; i < 12; i++) {
        const value = randomValue(r, kind);
        const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
        const hex = hexCase(r, hexOf(enc.encode(value)));
        const width = i % 3 === 0 ? 60 : widthOf(r);
        const text = `x ${i % 3 === 0 ? hex.replace(/(.{60})/g, '$1\n') : foldText(r, hex, width)} y`;
        const { text: out, hits } = scrubber.redact(text);
        expect(out, `${kind} ${JSON.stringify(value)} as ${JSON.stringify(text)}`).to.match(/^x \[redacted:S\]\r?\n? y$/);
        expect(hits[0].form).to.be.oneOf(['hex', 'hex-wrapped']);
        expect(streamed(r, scrubber, enc.encode(text)), 'streamed').to.equal(out);
      }
    }
  });

  it('catches \\xNN, separated hex and UTF-16LE base64 of every kind of value, named by their hit forms', () => {
    const r = prng(3333);
    for (const kind of KINDS) {
      for (let i = 0; i < 10; i++) {
        const value = randomValue(r, kind);
        const raw = enc.encode(value);
        const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
        const cases: [string, string][] = [
          [hexCase(r, xEscapes(raw)), 'x-escape'],
          [hexCase(r, hexOf(raw, pick(r, [' ', ':', '-']))), 'hex-separated'],
          [b64(utf16le(value)).replace(/=+$/, ''), 'base64-utf16le'],
        ];
        for (const [form, name] of cases) {
          const { text, hits } = scrubber.redact(`x ${form} y`);
          expect(text, `${kind} ${JSON.stringify(value)} as ${form}`).to.match(/^x \[redacted:S\]\S{0,3} y$/);
          expect(hits).to.deep.equal([{ name: 'S', form: name, count: 1 }]);
        }
      }
    }
  });

  it("catches bytes as python3's repr() writes them: \\\\, a quote, \\t among \\xNN, in strings, bytes and streams", () => {
    // Each text is what `python3 -c "import sys; print(repr(sys.stdin.buffer.read()))"` printed for the value.
    const cases: [string, string][] = [
      ['pässwörd\\12345', "b'p\\xc3\\xa4ssw\\xc3\\xb6rd\\\\12345'"],
      ["it's-é-secret-99", 'b"it\'s-\\xc3\\xa9-secret-99"'],
      ['both\'and"quotes', "b'both\\'and\"quotes'"],
      ['tab\tpässwort1', "b'tab\\tp\\xc3\\xa4sswort1'"],
    ];
    for (const [value, repr] of cases) {
      expect(pythonBytes(enc.encode(value)), 'the reference writes what python3 wrote').to.equal(repr.slice(2, -1));
      const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
      expect(scrubber.redact(`print(${repr})`).text, repr).to.equal(`print(b${repr[1]}[redacted:S]${repr[1]})`);
      const bytes = enc.encode(`x ${repr} y`);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const stream = scrubber.stream();
        const out = [stream.push(bytes.subarray(0, cut)), stream.push(bytes.subarray(cut)), stream.end()];
        expect(dec.decode(new Uint8Array(out.flatMap((b) => [...b]))), `${repr} cut at ${cut}`).to.equal(`x b${repr[1]}[redacted:S]${repr[1]} y`);
      }
    }
  });

  it('catches od -An -tx1 dumps of a value over many lines, starting anywhere on one, in strings, bytes and streams', () => {
    // What `printf 'xxsk-live-4eC39HqLyjWDarjtT1zdp7dc!' | od -An -tx1` printed.
    const printed = ' 78 78 73 6b 2d 6c 69 76 65 2d 34 65 43 33 39 48\n 71 4c 79 6a 57 44 61 72 6a 74 54 31 7a 64 70 37\n 64 63 21\n';
    const live = compileScrubber([{ name: 'S', placeholder: '<S>', value: 'sk-live-4eC39HqLyjWDarjtT1zdp7dc' }]);
    expect(live.redact(printed).text).to.equal(' 78 78 [redacted:S] 21\n');
    const r = prng(4545);
    for (let i = 0; i < 60; i++) {
      const value = randomValue(r, KINDS[i % KINDS.length], 17);
      const raw = enc.encode(value);
      const before = Uint8Array.from({ length: int(r, 40) }, () => 0x20 + int(r, 95));
      const bytes = new Uint8Array([...before, ...raw, 0x21]);
      // od's lines: 16 bytes each, every byte as a space and two hex digits, LF (or CRLF) after each line.
      const eol = eolOf(r);
      let dump = '';
      let from = -1;
      let to = -1;
      for (const [k, b] of bytes.entries()) {
        if (k > 0 && k % 16 === 0) dump += eol;
        if (k === before.length) from = dump.length + 1;
        dump += ` ${b.toString(16).padStart(2, '0')}`;
        if (k === before.length + raw.length - 1) to = dump.length;
      }
      dump += eol;
      const text = r() < 0.5 ? dump : dump.toUpperCase();
      const want = `${text.slice(0, from)}[redacted:S]${text.slice(to)}`;
      const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
      expect(scrubber.redact(text).text, `${JSON.stringify(value)} in ${JSON.stringify(text)}`).to.equal(want);
      expect(scrubber.redact(text).hits).to.deep.equal([{ name: 'S', form: 'hex-separated', count: 1 }]);
      const stream = scrubber.stream();
      const input = enc.encode(text);
      const cut = int(r, input.length + 1);
      const out = [stream.push(input.subarray(0, cut)), stream.push(input.subarray(cut)), stream.end()];
      expect(dec.decode(new Uint8Array(out.flatMap((b) => [...b]))), `cut at ${cut}`).to.equal(want);
    }
  });

  it('replaces each new form and leaves near misses of it untouched: a wrong unit, a second separator, two line breaks in a row, a broken escape', () => {
    const r = prng(3434);
    for (let i = 0; i < 40; i++) {
      const value = randomValue(r, KINDS[i % KINDS.length], 12);
      const raw = enc.encode(value);
      const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
      const hex = hexOf(raw);
      const half = raw.length >> 1;
      // A byte of the value that is not the value's: its hex digits changed.
      const other = (b: number) => ((b + 1 + int(r, 254)) & 255).toString(16).padStart(2, '0');
      const xs = xEscapes(raw);
      const pairs = hexOf(raw, ':').split(':');
      const chars = [...value];
      const mid = chars.length >> 1;
      const cases: [form: string, nearMisses: string[]][] = [
        [xs, [xs.slice(0, 4 * half) + `\\x${other(raw[half])}` + xs.slice(4 * half + 4), xs.slice(4)]],
        [
          pairs.join(' '),
          [
            pairs.slice(0, half).join(':') + '-' + pairs.slice(half).join(':'),
            pairs.slice(0, half).join(' ') + '  ' + pairs.slice(half).join(' '),
            // A line break where od's is (before the separator) but two, or without the separator.
            pairs.slice(0, half).join(' ') + '\n\n ' + pairs.slice(half).join(' '),
            pairs.slice(0, half).join(' ') + '\n' + pairs.slice(half).join(' '),
          ],
        ],
        [foldText(r, hex, 1 + int(r, 8)), [hex.slice(0, 2 * half) + '\n\n' + hex.slice(2 * half), hex.slice(0, 2 * half) + 'g' + hex.slice(2 * half + 1)]],
        [
          foldText(r, value, 1 + int(r, 8)),
          [chars.slice(0, mid).join('') + '\n\n' + chars.slice(mid).join(''), chars.slice(0, mid).join('') + '\n \n' + chars.slice(mid).join('')],
        ],
        [
          jsonEscaping(r, value, 0.5),
          [
            chars.map((c, j) => (j === mid ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').slice(0, 3)}g` : stringify(c))).join(''),
            chars.map((c, j) => (j === mid ? escapeUnits(String.fromCharCode(c.charCodeAt(0) ^ 1)) : stringify(c))).join(''),
          ],
        ],
      ];
      for (const [form, misses] of cases) {
        expect(scrubber.redact(`x ${form} y`).text, `${JSON.stringify(value)} as ${JSON.stringify(form)}`).to.equal('x [redacted:S] y');
        for (const miss of misses)
          expect(scrubber.redact(`x ${miss} y`).text, `${JSON.stringify(value)}: ${JSON.stringify(miss)}`).to.equal(`x ${miss} y`.toWellFormed());
      }
    }
  });

  it('releases the same number of bytes for a near miss or a prefix of any new form as for other text of its length', () => {
    const r = prng(3535);
    const value = 'Zq9-secret-välue-XYZ';
    const scrubber = compileScrubber([{ name: 'S', placeholder: '<S>', value }]);
    const lead = enc.encode('x'.repeat(scrubber.hold + 3));
    const raw = enc.encode(value);
    const forms = [xEscapes(raw), hexOf(raw, ':'), b64(utf16le(value)), foldText(r, value, 3), foldText(r, hexOf(raw), 5), jsonEscaping(r, value, 0.5)];
    const released = (tail: Uint8Array) => {
      const stream = scrubber.stream();
      return stream.push(lead).length + stream.push(tail).length;
    };
    for (const form of forms) {
      const bytes = enc.encode(form);
      for (let k = 1; k < bytes.length; k += 1 + int(r, 3)) {
        const almost = bytes.slice(0, k);
        const other = enc.encode('.,;:'.repeat(k).slice(0, k));
        expect(released(almost), `${JSON.stringify(form)} cut at ${k}`).to.equal(released(other));
      }
    }
  });

  it('catches the encodings issue 13 found going out unchanged', () => {
    const token = `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`;
    const symbols = 'p/w<d>&"q ö x';
    const long = `${token}${'Zz9'.repeat(19)}`; // 93 bytes: coreutils wraps its base64 at 76 columns
    const scrubber = compileScrubber([
      { name: 'TOKEN', placeholder: '<T>', value: token },
      { name: 'SYM', placeholder: '<S>', value: symbols },
      { name: 'LONG', placeholder: '<L>', value: long },
    ]);
    const hex = Array.from(enc.encode(token), (b) => b.toString(16).padStart(2, '0')).join('');
    const cases = [
      hex.replace(/[a-f]/g, (c, i) => (i % 3 ? c.toUpperCase() : c)), // mixed case
      encodeURIComponent(symbols).toLowerCase(), // lower-case %xx
      new URLSearchParams({ q: symbols }).toString().slice(2), // + for a space
      stringify(symbols).replace(/\//g, '\\/'), // PHP
      stringify(symbols).replace(/[<>&]/g, (c) => u(c.charCodeAt(0))), // Go
      stringify(symbols).replace(/ö/g, '\\u00F6'), // upper case
      b64(enc.encode(long)).replace(/(.{76})/g, '$1\n'), // coreutils base64
    ];
    for (const text of cases) expect(scrubber.redact(`x ${text} y`).text, text).to.match(/^x \S*(<[TSL]>|\[redacted:(TOKEN|SYM|LONG)\])\S* y$/);
  });
});
