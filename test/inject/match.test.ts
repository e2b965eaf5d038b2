// The linear matchers against references written here: a backtracking glob (slow, obviously right)
// and a dynamic-programming wildcard. Then the worst patterns an attacker can build, against 8 KiB
// texts: each decision must stay far below the 50 ms that would hold the embedder's main thread.
import { expect } from '@open-wc/testing';
import { prng, wildcardRef } from '../helpers/random.ts';
import { globMatches, wildcardMatches } from '../../src/inject/index.ts';

/** Globs by backtracking: `**` anything, `*` anything but `/`, `?` one character but `/`, `/**\/` also `/`. */
function globRef(g: string, s: string): boolean {
  if (g.startsWith('/**/') && globRef(g.slice(3), s)) return true;
  if (g === '') return s === '';
  if (g.startsWith('**')) {
    for (let i = 0; i <= s.length; i++) if (globRef(g.slice(2), s.slice(i))) return true;
    return false;
  }
  if (g[0] === '*') {
    for (let i = 0; i <= s.length; i++) {
      if (globRef(g.slice(1), s.slice(i))) return true;
      if (s[i] === '/') return false;
    }
    return false;
  }
  if (s === '' || (g[0] === '?' ? s[0] === '/' : g[0] !== s[0])) return false;
  return globRef(g.slice(1), s.slice(1));
}

describe('the linear glob matcher', () => {
  it('agrees with a backtracking reference on 20,000 random globs and paths', () => {
    const random = prng(0x610b);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    let matched = 0;
    for (let i = 0; i < 20_000; i++) {
      const glob = Array.from({ length: 1 + Math.floor(random() * 9) }, () => pick(['/', 'a', 'b', '*', '**', '?', '/**/', '/*', '.'])).join('');
      const path = Array.from({ length: Math.floor(random() * 12) }, () => pick(['/', 'a', 'b', '.'])).join('');
      const want = globRef(glob, path);
      if (want) matched++;
      expect(globMatches(glob, path), `${glob} ${path}`).to.equal(want);
    }
    expect(matched).to.be.greaterThan(1000);
  });

  it('matches globs longer than 31 steps, which take several state words', () => {
    const glob = `/${'a/'.repeat(40)}**/b`;
    expect(globMatches(glob, `/${'a/'.repeat(40)}x/y/b`)).to.equal(true);
    expect(globMatches(glob, `/${'a/'.repeat(40)}b`)).to.equal(true);
    expect(globMatches(glob, `/${'a/'.repeat(39)}b`)).to.equal(false);
    expect(globMatches(`/${'*/'.repeat(40)}x`, `/${'q/'.repeat(40)}x`)).to.equal(true);
    expect(globMatches(`/${'*/'.repeat(40)}x`, `/${'q/'.repeat(41)}x`)).to.equal(false);
  });

  it('matches characters outside ASCII literally', () => {
    expect(globMatches('/caf\u00e9/*', '/caf\u00e9/x')).to.equal(true);
    expect(globMatches('/caf\u00e9/*', '/cafe/x')).to.equal(false);
    expect(globMatches('/?/x', '/\u00e9/x')).to.equal(true);
  });
});

describe('the linear wildcard matcher for host labels', () => {
  it('agrees with a table reference on 20,000 random patterns and texts', () => {
    const random = prng(0x3c11);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    let matched = 0;
    for (let i = 0; i < 20_000; i++) {
      const pattern = Array.from({ length: Math.floor(random() * 7) }, () => pick(['a', 'b', '*', 'ab', 'aab'])).join('');
      const text = Array.from({ length: Math.floor(random() * 10) }, () => pick(['a', 'b'])).join('');
      const want = wildcardRef(pattern, text);
      if (want) matched++;
      expect(wildcardMatches(pattern, text), `${pattern} ${text}`).to.equal(want);
    }
    expect(matched).to.be.greaterThan(1000);
  });
});

describe('matching stays fast on the worst patterns an attacker can build', () => {
  const path = `/${'a/'.repeat(4095)}c`; // 8 KiB
  const flat = 'a'.repeat(8192);
  /** The median of five runs after a first one (the engine compiles the matcher's code then), in ms. */
  const median = (f: () => unknown) => {
    f();
    const times = Array.from({ length: 5 }, () => {
      const t = performance.now();
      f();
      return performance.now() - t;
    });
    return times.sort((a, b) => a - b)[2];
  };

  for (const glob of ['/**/a/**/a/**/a/**/a/**/b', '**a**a**a**a**a**a**a**b', '/*/*/*/**/**/**/a/**/a/**/b', `/${'**/a/'.repeat(60)}b`]) {
    it(`decides ${glob.length > 40 ? `${glob.slice(0, 40)}…` : glob} against an 8 KiB path in well under 50 ms`, () => {
      expect(globMatches(glob, path)).to.equal(false);
      expect(median(() => globMatches(glob, path))).to.be.below(25);
    });
  }

  it('decides a label pattern of 2 KiB with 8 stars against an 8 KiB text in well under 50 ms', () => {
    const piece = `${'a'.repeat(255)}b`;
    const pattern = `*${Array.from({ length: 7 }, () => piece).join('*')}*`;
    expect(pattern.length).to.be.at.most(2048);
    expect(wildcardMatches(pattern, flat)).to.equal(false);
    expect(median(() => wildcardMatches(pattern, flat))).to.be.below(25);
  });
});
