// The injector's fast paths against the straightforward readings they replace, written here, over
// generated hostile inputs (README, Security: bounded): the one-pass ambiguous-path check against
// a per-segment decode with `TextDecoder`, the glob cut at its `**` against the glob's single
// automaton, and the prepared endpoint entries against a segment-by-segment comparison by ends.
import { expect } from '@open-wc/testing';
import { prng, wildcardRef } from '../helpers/random.ts';
import { globMatches, globMatchesWhole } from '../../src/inject/match.ts';
import { isAmbiguousPath, rawPath } from '../../src/inject/urls.ts';
import type { Endpoint } from '../../src/inject/index.ts';
import { broadSegments, isVersionSegment, matchesEndpoint, normalizeHost } from '../../src/inject/endpoints.ts';

const hex = (c: string) => /^[0-9a-f]$/i.test(c);

/** Each segment percent-decoded to bytes (code points as `TextEncoder` writes them), then read by a fatal `TextDecoder`. */
function ambiguousRef(raw: string): boolean {
  const path = rawPath(raw);
  if (path.includes('\\')) return true;
  for (const segment of path.split('/')) {
    let s = segment;
    if (segment.includes('%')) {
      const bytes: number[] = [];
      const chars = [...segment];
      for (let i = 0; i < chars.length; i++) {
        if (chars[i] === '%' && hex(chars[i + 1] ?? '') && hex(chars[i + 2] ?? '')) {
          bytes.push(Number.parseInt(chars[i + 1] + chars[i + 2], 16));
          i += 2;
        } else bytes.push(...new TextEncoder().encode(chars[i]));
      }
      try {
        s = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
      } catch {
        return true;
      }
    }
    if (s === '.' || s === '..' || s.startsWith('.;') || s.startsWith('..;') || s.includes('/') || s.includes('\\')) return true;
  }
  return false;
}

/** A segment pattern with `*` read by its ends: the text before its first `*` starts the segment, the text after its last ends it, not overlapping. */
function endsRef(pattern: string, segment: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === segment;
  const head = pieces[0];
  const tail = pieces[pieces.length - 1];
  return segment.length >= head.length + tail.length && segment.startsWith(head) && segment.endsWith(tail);
}

/** Segment-by-segment: every segment of the prefix equals, or (with `*`) matches by its ends, the path's. */
function underRef(path: string, prefix: string): boolean {
  const have = broadSegments(path);
  const want = broadSegments(prefix);
  if (want.length > have.length) return false;
  return want.every((w, i) => (i === 0 && isVersionSegment(w) ? isVersionSegment(have[0]) : endsRef(w, have[i])));
}
describe('the one-pass ambiguous-path check', () => {
  it('agrees with decoding each segment by TextDecoder on 20,000 hostile paths', () => {
    const random = prng(0xa3b1);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const parts = [
      'a',
      'B',
      '.',
      '..',
      ';',
      '/',
      '//',
      '%2e',
      '%2E',
      '%2f',
      '%5C',
      '%3b',
      '%25',
      '%c0%ae',
      '%C0',
      '%ae',
      '%e2%82',
      '%ac',
      '%ef%bb%bf',
      '%ed%a0%80',
      '%f4%90%80%80',
      '%f0%9f%98%80',
      '%e0%80%af',
      '%c2%a9',
      '%ff',
      'é',
      '😀',
      '\ud800',
      '\udc00',
      '%',
      '%z',
      '%2',
      '%%2e',
    ];
    let ambiguous = 0;
    for (let i = 0; i < 20_000; i++) {
      const path = Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(parts)).join('');
      const raw = `https://h.example/${path}?q=%2e`;
      const want = ambiguousRef(raw);
      if (want) ambiguous++;
      expect(isAmbiguousPath(raw), JSON.stringify(raw)).to.equal(want);
    }
    expect(ambiguous).to.be.within(2000, 18_000);
  });

  it('refuses an escape after a lone surrogate, which the per-segment decode once swallowed', () => {
    expect(isAmbiguousPath('https://h.example/x\ud800%2fy')).to.equal(true);
    expect(isAmbiguousPath('https://h.example/\ud800%2e')).to.equal(false);
  });
});

describe('the glob cut at its **', () => {
  it('agrees with the whole automaton on 20,000 generated globs and paths, long ones included', () => {
    const random = prng(0x9106);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const globParts = ['/', 'a', 'b', 'ab', '*', '**', '?', '/**/', '/*', '.', '**/', '/**', 'é', 'a'.repeat(33), `${'a'.repeat(31)}b`, '*a*a*a*'];
    const pathParts = ['/', 'a', 'b', '.', 'ab', 'a/', 'é', 'a'.repeat(40), `${'a'.repeat(31)}b`];
    let matched = 0;
    for (let i = 0; i < 20_000; i++) {
      const glob = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(globParts)).join('');
      // Half the paths are written from the glob, so that many match and the rest fail late.
      const path =
        random() < 0.5
          ? Array.from({ length: Math.floor(random() * 16) }, () => pick(pathParts)).join('')
          : glob.replace(/\*\*|\*|\?/g, (w) => (w === '**' ? pick(['', 'a/b', '/', pick(pathParts)]) : w === '*' ? pick(['', 'a', 'ab']) : pick(['b', '/'])));
      const want = globMatchesWhole(glob, path);
      if (want) matched++;
      expect(globMatches(glob, path), `${glob} ${path}`).to.equal(want);
    }
    expect(matched).to.be.greaterThan(4000);
  });
});

describe('part searches shared by the globs of one path', () => {
  it('agree with the whole automaton when 12 globs built from the same parts run over each of 2,000 paths', () => {
    const random = prng(0x5a7e);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const parts = ['/a/', '/b/', 'a', '/*a*/', '/a?', 'ab', '/', '*b', '/a/b/'];
    let matched = 0;
    for (let i = 0; i < 2_000; i++) {
      const path = Array.from({ length: Math.floor(random() * 20) }, () => pick(['/', 'a', 'b', 'a/', '/b', 'ab/'])).join('');
      for (let j = 0; j < 12; j++) {
        const glob = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(parts)).join(pick(['**', '/**/', '**/']));
        const want = globMatchesWhole(glob, path);
        if (want) matched++;
        expect(globMatches(glob, path), `${glob} ${path}`).to.equal(want);
      }
    }
    // A `**` glued to a part (`a**b`) is `*` and crosses no `/`, so fewer of these globs match.
    expect(matched).to.be.greaterThan(80);
  });
});

describe('the glob parts read by a bounded lazy DFA', () => {
  it('agree with the whole automaton when a part meets more states than the DFA keeps', () => {
    const random = prng(0xdfa5);
    // `**a?????????b` unanchored over a random text of a and b meets hundreds of states.
    const globs = ['/**a?????????b**', '/**a?*?*?*?b/**', '/**/a??b??a??b??a/**/b'];
    for (let i = 0; i < 300; i++) {
      const path = `/${Array.from({ length: 200 + Math.floor(random() * 400) }, () => (random() < 0.5 ? 'a' : random() < 0.9 ? 'b' : '/')).join('')}`;
      for (const glob of globs) expect(globMatches(glob, path), `${glob} ${path}`).to.equal(globMatchesWhole(glob, path));
    }
  });
});

describe('prepared endpoint entries', () => {
  it('refuse every long segment the exact reading of its pattern would, and compare only the ends, on 3,000 of them', () => {
    const random = prng(0x5e91);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    let exact = 0;
    let widened = 0;
    for (let i = 0; i < 3_000; i++) {
      const pieces = Array.from({ length: 2 + Math.floor(random() * 7) }, () => pick(['', 'a', 'b', 'ab', 'aab', 'c', 'ca', `${'a'.repeat(12)}c`, 'bcb']));
      const pattern = pieces.join('*');
      const run = (n: number) => Array.from({ length: n }, () => (random() < 0.97 ? pick(['a', 'b']) : 'c')).join('');
      // Half are written from the pattern, so that many match exactly and the rest only by their ends or not at all.
      const text = random() < 0.5 ? run(50 + Math.floor(random() * 250)) : pieces.map((piece) => piece || 'a').join(run(Math.floor(random() * 60)));
      const got = matchesEndpoint(new URL(`https://h.example/${text}/x`), [{ host: 'h.example', path: `/${pattern}` }]);
      expect(got, `${pattern} ${text}`).to.equal(endsRef(pattern, text));
      if (wildcardRef(pattern, text)) {
        exact++;
        expect(got, `exactly under: ${pattern} ${text}`).to.equal(true);
      } else if (got) widened++;
    }
    expect(exact).to.be.within(300, 2700);
    expect(widened).to.be.greaterThan(20);
  });

  it('decides 256 registrations of 2 KiB with 8 stars against an 8 KiB segment by their ends, in under 5 ms', () => {
    const piece = (i: number) => `${'a'.repeat(200 + (i >> 2))}b`;
    const entries = Array.from({ length: 256 }, (_, i) => ({ host: 'h.example', path: `/*${Array.from({ length: 7 }, () => piece(i)).join('*')}*x` }));
    const url = new URL(`https://h.example/${`${'a'.repeat(199)}b`.repeat(40)}/c`);
    expect(url.pathname.length).to.be.greaterThan(8000);
    expect(matchesEndpoint(url, entries)).to.equal(false);
    const times = Array.from({ length: 7 }, () => {
      const t = performance.now();
      matchesEndpoint(url, entries);
      return performance.now() - t;
    });
    expect(times.sort((a, b) => a - b)[3]).to.be.below(5);
  });

  it('agree with a segment-by-segment comparison on 20,000 generated paths and prefixes', () => {
    const random = prng(0xe7d5);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const segs = ['a', 'aa', 'A', 'v1', 'v2beta', 'b', '*', 'a*', '*a', 'a*b*a', '*b*', 'x;y', '%61', '%2a', 'é', 'ab'.repeat(20)];
    const seps = ['/', '/', '/', '//', '\\', '/;p/'];
    let under = 0;
    for (let i = 0; i < 20_000; i++) {
      const prefix = `/${Array.from({ length: Math.floor(random() * 5) }, () => pick(segs)).join('/')}`;
      const path = Array.from({ length: Math.floor(random() * 7) }, () => pick(seps) + pick(segs).replace('*', 'c')).join('');
      const entries: Endpoint[] = [{ host: 'H.example.', path: prefix }];
      const url = new URL(`https://h.example${path.replace(/\\/g, '/') || '/'}`);
      const want = underRef(url.pathname, prefix) && normalizeHost(url.hostname) === 'h.example';
      if (want) under++;
      expect(matchesEndpoint(url, entries), `${prefix} ${url.pathname}`).to.equal(want);
    }
    expect(under).to.be.greaterThan(1000);
  });

  it('re-reads an entry whose path changed after it was prepared', () => {
    const entry: Endpoint = { host: 'h.example', path: '/a' };
    const url = new URL('https://h.example/b/x');
    expect(matchesEndpoint(url, [entry])).to.equal(false);
    entry.path = '/b';
    expect(matchesEndpoint(url, [entry])).to.equal(true);
  });
});
