// The linear matchers against references written here: a backtracking glob (slow, obviously right)
// and a dynamic-programming wildcard. Then the worst patterns an attacker can build, against 8 KiB
// texts: each decision must stay far below the 50 ms that would hold the embedder's main thread.
import { expect } from '@open-wc/testing';
import { prng, wildcardRef } from '../helpers/random.ts';
import { PathReader, globMatches, preparedMatches, wildcardMatches } from '../../src/inject/match.ts';
import { preparePolicy } from '../../src/inject/plan.ts';

/**
 * fnox's globset, read from its parser and written here as tokens: `?` one character but `/`, `*`
 * a run without `/`; a `**` after `/` and before `/` or the end takes that `/` with it, as `/.*`
 * at the end (suffix) or `/` or `/.*\/` before `/` (zero or more segments); any other `**` is two
 * `*`. Globs start with `/`, as the policy requires, so globset's leading `**\/` never arises.
 */
type Token = string | 'any' | 'star' | 'suffix' | 'segments';
function globsetTokens(glob: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '?') out.push('any');
    else if (c !== '*') out.push(c);
    else if (glob[i + 1] !== '*') out.push('star');
    else {
      const prev = glob[i - 1];
      i++;
      const next = glob[i + 1];
      if (prev !== '/' || (next !== undefined && next !== '/')) {
        out.push('star', 'star');
        continue;
      }
      if (next === '/') i++;
      // The `/` before is part of the token: it replaces the one pushed (or a token that already holds it).
      const last = out.pop();
      out.push(last === 'suffix' || next === undefined ? 'suffix' : 'segments');
    }
  }
  return out;
}
/** The tokens against the path by backtracking: slow, and obviously right on short inputs. */
function tokensMatch(t: readonly Token[], s: string): boolean {
  if (t.length === 0) return s === '';
  const [head, ...rest] = t;
  switch (head) {
    case 'any':
      return s !== '' && s[0] !== '/' && tokensMatch(rest, s.slice(1));
    case 'star':
      for (let j = 0; j <= s.length; j++) {
        if (tokensMatch(rest, s.slice(j))) return true;
        if (s[j] === '/') return false;
      }
      return false;
    case 'suffix':
      if (s[0] !== '/') return false;
      for (let j = 1; j <= s.length; j++) if (tokensMatch(rest, s.slice(j))) return true;
      return false;
    case 'segments':
      if (s[0] !== '/') return false;
      if (tokensMatch(rest, s.slice(1))) return true;
      for (let j = 1; j < s.length; j++) if (s[j] === '/' && tokensMatch(rest, s.slice(j + 1))) return true;
      return false;
    default:
      return s[0] === head && tokensMatch(rest, s.slice(1));
  }
}
const globRef = (glob: string, path: string) => tokensMatch(globsetTokens(glob), path);

describe('the linear glob matcher', () => {
  it('agrees with a backtracking reference on 20,000 random globs and paths', () => {
    const random = prng(0x610b);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    let matched = 0;
    for (let i = 0; i < 20_000; i++) {
      const glob = `/${Array.from({ length: Math.floor(random() * 9) }, () => pick(['/', 'a', 'b', '*', '**', '?', '/**/', '/*', '.'])).join('')}`;
      const path = `/${Array.from({ length: Math.floor(random() * 12) }, () => pick(['/', 'a', 'b', '.'])).join('')}`;
      const want = globRef(glob, path);
      if (want) matched++;
      expect(globMatches(glob, path), `${glob} ${path}`).to.equal(want);
    }
    expect(matched).to.be.greaterThan(1000);
  });

  it('reads ** as * unless it stands for whole segments, as globset does, on 20,000 globs of star runs', () => {
    const random = prng(0x2a2a);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    // What a `**` that crosses `/` wherever it stands answers (the reading this replaced), by backtracking.
    const crossing = (g: string, s: string): boolean => {
      if (g.startsWith('/**/') && crossing(g.slice(3), s)) return true;
      if (g === '') return s === '';
      if (g.startsWith('**')) return [...Array(s.length + 1).keys()].some((j) => crossing(g.slice(2), s.slice(j)));
      if (g[0] === '*') return [...Array(s.length + 1).keys()].some((j) => !s.slice(0, j).includes('/') && crossing(g.slice(1), s.slice(j)));
      return s !== '' && (g[0] === '?' ? s[0] !== '/' : g[0] === s[0]) && crossing(g.slice(1), s.slice(1));
    };
    let matched = 0;
    let glued = 0;
    for (let i = 0; i < 20_000; i++) {
      const glob = `/${Array.from({ length: Math.floor(random() * 7) }, () => pick(['a', 'b', '/', '*', '**', '***', '****', '?', 'a**', '**b'])).join('')}`;
      const path = `/${Array.from({ length: Math.floor(random() * 8) }, () => pick(['a', 'b', '/', 'ab', 'a/b', 'b/'])).join('')}`;
      const want = globRef(glob, path);
      if (want) matched++;
      if (/[^/]\*\*|\*\*[^/]/.test(glob) && want !== crossing(glob, path)) glued++;
      expect(globMatches(glob, path), `${glob} ${path}`).to.equal(want);
    }
    expect(matched).to.be.greaterThan(1500);
    expect(glued).to.be.greaterThan(500);
    console.log(`star runs: ${matched} matched, ${glued} decided otherwise than a crossing **`);
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

  it('decides 60 glued ** against an 8 KiB segment in well under 50 ms more than an ordinary rule glob', () => {
    const glob = `/${'a**'.repeat(60)}b`;
    const segment = `/${'a'.repeat(8191)}`;
    expect(globMatches(glob, segment)).to.equal(false);
    expect(globMatches(glob, `${segment}/b`)).to.equal(false);
    const ms = median(() => globMatches(glob, segment));
    const baseline = median(() => globMatches('/repos/*/issues/**', segment));
    console.log(`60 glued ** over an 8 KiB segment: ${ms.toFixed(2)} ms, an ordinary glob ${baseline.toFixed(2)} ms`);
    expect(ms - baseline).to.be.below(25);
  });

  it('reads each distinct glob once for a path, however many rules share it', () => {
    const rule = (secret: string, paths: string[]) => ({ secret, domain: 'api.example.com', header: 'authorization', methods: [], paths });
    const rules = Array.from({ length: 16 }, (_, i) => rule(`S${i}`, [`/${'a**'.repeat(60)}b`, '/**/c/*']));
    const plan = preparePolicy({ rules, secrets: {}, exits: {}, refused: [], mcp: [], models: [], known: new Set() });
    const globs = [...plan.rules.values()].flatMap((list) => list.flatMap((r) => r.globs));
    expect(new Set(globs).size, 'prepared globs').to.equal(2);
    const segment = `/${'a'.repeat(8191)}`;
    const reader = new PathReader(segment);
    const once = median(() => preparedMatches(globs[0]!, segment, new PathReader(segment)));
    const all = median(() => globs.every((g) => !preparedMatches(g, segment, reader)));
    expect(reader.answers.size).to.equal(2);
    expect(all, 'all 32 globs against one of them').to.be.below(once + 5);
  });

  it('decides a label pattern of 2 KiB with 8 stars against an 8 KiB text in well under 50 ms', () => {
    const piece = `${'a'.repeat(255)}b`;
    const pattern = `*${Array.from({ length: 7 }, () => piece).join('*')}*`;
    expect(pattern.length).to.be.at.most(2048);
    expect(wildcardMatches(pattern, flat)).to.equal(false);
    expect(median(() => wildcardMatches(pattern, flat))).to.be.below(25);
  });
});
