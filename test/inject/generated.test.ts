// 12,000 seeded random requests against a small reference written here from the README's rules,
// independent of src/inject/decide.ts: it decides from how each request was built, not by parsing it.
// Paths come in hostile spellings (random percent-encoding, `//`, `;` parameters, letter case,
// version segments, dot segments, malformed escapes), and every injected head is checked against
// a broad reading of its URL written here too: none may lie under a refused endpoint.
import { expect } from '@open-wc/testing';
import { prng } from '../helpers/random.ts';
import type { ExitName, RequestHead } from '../../src/contract.ts';
import type { Endpoint } from '../../src/inject/index.ts';
import { type ForwardInput, type InjectRecord, type PolicyRule, decideForward, decideMcp, decideModel } from './decisions.ts';

const NOW = 1_800_000_000_000;
const ph = (n: number) => `fnox_proxy_${n.toString(16).padStart(24, '0')}`;
const rec = (name: string, n: number, more: Partial<InjectRecord> = {}): InjectRecord => ({
  name,
  kind: 'secret',
  placeholder: ph(n),
  value: `real-${name.toLowerCase()}-value-${n}`,
  ...more,
});
const RECORDS = [
  rec('GITHUB', 1),
  rec('NPM', 2),
  rec('KEY', 3),
  rec('USER', 4),
  rec('PASS', 5, { value: 'real:pass:value' }),
  rec('COLON', 6, { value: 'real:colon:value' }),
  rec('GONE', 7, { removedAt: NOW - 1 }),
  rec('OLD', 8, { expiresAt: NOW - 1 }),
  rec('FRESH', 9, { expiresAt: NOW + 60_000 }),
  rec('SIGNIN', 10, { kind: 'grant' }),
  rec('MODEL', 11, { kind: 'model' }),
  rec('STOLEN', 12),
  rec('INERT', 13),
  rec('SWAPPED', 14),
];
/** Records the accepted config doesn't hold: INERT has no entry, SWAPPED's holds another placeholder. */
const INERT = new Set(['INERT', 'SWAPPED']);
const FOREIGN = [ph(0xf01), ph(0xf02), RECORDS[11].placeholder];
const UNKNOWN = [ph(0xe01)];
const rule = (secret: string, domain: string, header: string, methods: string[], paths: string[]): PolicyRule => ({ secret, domain, header, methods, paths });
const RULES: PolicyRule[] = [
  rule('GITHUB', 'api.github.com', 'authorization', ['GET', 'HEAD'], ['/repos/*/issues', '/user/**']),
  rule('GITHUB', 'api.github.com', 'authorization', ['POST'], ['/gists', '/a/**/b']),
  rule('NPM', 'registry.npmjs.org', 'authorization', [], []),
  rule('KEY', 'api.example.com', 'x-api-key', [], ['/v?/*']),
  rule('USER', 'git.example.com', 'authorization', [], []),
  rule('PASS', 'git.example.com', 'authorization', [], []),
  rule('COLON', 'git.example.com', 'authorization', [], []),
  rule('FRESH', 'api.github.com', 'authorization', [], []),
  ...['GONE', 'OLD', 'SIGNIN', 'MODEL', 'STOLEN'].map((s) => rule(s, 'api.github.com', 'authorization', [], [])),
  rule('GITHUB', 'api.openai.com', 'authorization', [], []),
  rule('NPM', 'x.openai.azure.com', 'authorization', [], []),
  rule('NPM', 'gen.example.ai', 'authorization', [], []),
  rule('NPM', 'mcp.example.com', 'authorization', [], []),
  rule('INERT', 'api.github.com', 'authorization', [], []),
  rule('SWAPPED', 'api.github.com', 'authorization', [], []),
];
const SECRETS: Record<string, string> = Object.fromEntries(
  RECORDS.filter((r) => r.name !== 'INERT').map((r) => [r.name, r.name === 'SWAPPED' ? ph(0xabc) : r.placeholder]),
);
const EXITS: Record<string, ExitName[]> = { NPM: ['page', 'device:lars-air'], KEY: ['proxy'] };
const REFUSED: Endpoint[] = [
  { host: 'api.openai.com', path: '/v1' },
  { host: '*.openai.azure.com', path: '/' },
  { host: 'bedrock-runtime.*.amazonaws.com', path: '/' },
  { host: 'gen.example.ai', path: '/v1beta' },
  { host: 'mcp.example.com', path: '/mcp' },
];

const HOSTS = [
  'api.github.com',
  'registry.npmjs.org',
  'api.example.com',
  'git.example.com',
  'evil.example',
  'api.openai.com',
  'x.openai.azure.com',
  'bedrock-runtime.us-east-1.amazonaws.com',
  'gen.example.ai',
  'mcp.example.com',
];
/** Segments as meant; each is spelled in many ways below. The version segments are listed by hand. */
const GOOD_SEGMENTS = ['repos', 'example', 'issues', 'user', 'gists', 'v1', 'v2', 'v1beta', 'v2alpha', 'mcp', 'a', 'b', 'x', 'vault', ''];
const VERSIONS = new Set(['v1', 'v2', 'v1beta', 'v2alpha']);
/** Segments that read two ways: dot segments in every spelling, encoded separators, `%25`, escapes that aren't UTF-8 or aren't escapes. */
const BAD_SEGMENTS = [
  '..',
  '.',
  '%2e',
  '%2E%2e',
  '.%2e',
  '..;',
  '..;x',
  '.;',
  '%2e%2e;a=b',
  'a%2fb',
  'a%5Cb',
  '%25',
  '%252e%252e',
  'a\\b',
  '%c0%ae',
  'a%zz',
  'a%4',
  '%',
];
/** Spellings of a host that the URL parser reads back to it. */
const spellHost = (host: string, random: () => number) => {
  const x = random();
  if (x < 0.8) return host;
  if (x < 0.88) return host.toUpperCase();
  if (x < 0.94) return `${host}.`;
  return host.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
};
/** A segment spelled another way that reads the same broadly: letters upper-cased or percent-encoded, a `;` parameter. */
function spell(segment: string, random: () => number): string {
  let out = '';
  for (const c of segment) {
    const x = random();
    if (x < 0.15) out += `%${c.charCodeAt(0).toString(16)[random() < 0.5 ? 'toUpperCase' : 'toLowerCase']()}`;
    else if (x < 0.3) out += c.toUpperCase();
    else out += c;
  }
  return random() < 0.2 ? `${out};${random() < 0.5 ? 'x=1' : ''}` : out;
}
const AIMS = [
  { host: 'api.github.com', path: '/repos/x/issues', method: 'GET', header: 'Authorization', secret: 'GITHUB', kind: 0 },
  { host: 'api.github.com', path: '/a/x/b', method: 'POST', header: 'authorization', secret: 'GITHUB', kind: 1 },
  { host: 'api.github.com', path: '/user/a', method: 'HEAD', header: 'authorization', secret: 'GITHUB', kind: 3 },
  { host: 'registry.npmjs.org', path: '/pkg', method: 'PUT', header: 'authorization', secret: 'NPM', kind: 0 },
  { host: 'api.example.com', path: '/v1/x', method: 'GET', header: 'X-API-Key', secret: 'KEY', kind: 2 },
  { host: 'git.example.com', path: '/r.git/info/refs', method: 'GET', header: 'authorization', secret: 'USER', kind: 4 },
  { host: 'api.github.com', path: '/', method: 'DELETE', header: 'authorization', secret: 'FRESH', kind: 0 },
];
const METHODS = ['GET', 'POST', 'HEAD', 'DELETE', 'get', 'PATCH'];
const HEADER_NAMES = ['Authorization', 'authorization', 'x-api-key', 'X-Other'];
const EXIT_NAMES: ExitName[] = ['page', 'proxy', 'tailscale', 'device:lars-air'];

interface Token {
  text: string;
  record?: InjectRecord; // set only for this vault's own placeholders
}
interface Built {
  input: ForwardInput;
  inject: boolean;
  status?: number;
  headers?: [string, string][];
}

function build(random: () => number): Built {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const chance = (p: number) => random() < p;
  const own = (r: InjectRecord): Token => ({ text: r.placeholder, record: FOREIGN.includes(r.placeholder) ? undefined : r });
  const token = (): Token => {
    const x = random();
    if (x < 0.45) return own(pick(RECORDS.slice(0, 5)));
    if (x < 0.75) return own(pick(RECORDS));
    if (x < 0.85) return { text: pick(FOREIGN) };
    if (x < 0.9) return { text: pick(UNKNOWN) };
    return { text: 'literal-text' };
  };

  // Half the requests aim at a route some rule allows, so that enough of them reach the later checks.
  const aim = chance(0.5) ? pick(AIMS) : null;
  const scheme = chance(0.95) ? 'https' : pick(['http', 'wss']);
  const port = chance(0.93) ? '' : pick([':443', ':8443', ':80']);
  const userinfo = chance(0.02) ? 'u:p@' : '';
  const domain = aim ? aim.host : pick(HOSTS);
  const host = spellHost(domain, random);
  // Each segment as meant (`read`: its broad reading, '' when dropped) and as written (`raw`).
  const hostile = !aim || chance(0.3);
  const meant = aim ? aim.path.split('/').slice(1) : Array.from({ length: Math.floor(random() * 4) }, () => pick(GOOD_SEGMENTS));
  const segments: { raw: string; read: string; bad: boolean }[] = [];
  for (const m of meant) {
    if (hostile && chance(0.08)) segments.push({ raw: '', read: '', bad: false }); // `//`
    if (hostile && chance(0.06)) segments.push({ raw: pick(BAD_SEGMENTS), read: '?', bad: true });
    segments.push({ raw: hostile && chance(0.5) ? spell(m, random) : m, read: m, bad: false });
  }
  const path = `/${segments.map((x) => x.raw).join('/')}`;
  const broad = segments.map((x) => x.read).filter(Boolean);
  const queryToken = chance(0.03);
  const malformedQuery = chance(0.02);
  const encodedPercent = chance(0.01);
  const query = queryToken
    ? `?k=${pick([...FOREIGN, RECORDS[0].placeholder, `fnox%5Fproxy_${'0'.repeat(23)}1`])}`
    : malformedQuery
      ? `?a=%zz&b=${pick(['1', 'fnox%5fproxy_000000000000000000000001'])}`
      : encodedPercent
        ? '?p=100%25'
        : chance(0.2)
          ? '?dot=..'
          : '';
  const longUrl = chance(0.01);
  const pad = longUrl ? `${query ? '&' : '?'}pad=${'p'.repeat(8200)}` : '';
  const method = aim && chance(0.8) ? aim.method : pick(METHODS);
  const exit = pick(EXIT_NAMES);
  const rawTraits = { manualRedirects: chance(0.6) ? true : chance(0.5) ? false : undefined, encodedBodies: chance(0.03) };
  const locked = chance(0.03);

  // Each header: its name, its value with placeholders, its value with this vault's values, and its tokens.
  const headers: { name: string; value: string; filled: string; tokens: Token[]; basic?: { user: Token; pass: Token }; rawBasic?: boolean }[] = [];
  const fill = (t: Token) => t.record?.value ?? t.text;
  const add = (name: string, kind: number, t1: Token, t2: Token, user: Token) => {
    const isAuth = name.toLowerCase() === 'authorization';
    if (kind === 0) headers.push({ name, value: `Bearer ${t1.text}`, filled: `Bearer ${fill(t1)}`, tokens: [t1] });
    else if (kind === 1) headers.push({ name, value: `token ${t1.text}`, filled: `token ${fill(t1)}`, tokens: [t1] });
    else if (kind === 2) headers.push({ name, value: t1.text, filled: fill(t1), tokens: [t1] });
    else if (kind === 3) headers.push({ name, value: `${t1.text} ${t2.text}`, filled: `${fill(t1)} ${fill(t2)}`, tokens: [t1, t2] });
    else if (kind === 4) {
      const value = `Basic ${btoa(`${user.text}:${t2.text}`)}`;
      const filled = isAuth ? `Basic ${btoa(`${fill(user)}:${fill(t2)}`)}` : value;
      headers.push({ name, value, filled, tokens: isAuth ? [user, t2] : [], basic: isAuth ? { user, pass: t2 } : undefined });
    } else if (kind === 5) {
      const rawBasic = isAuth && t1.text.startsWith('fnox_proxy_');
      headers.push({ name, value: `Basic ${t1.text}`, filled: `Basic ${fill(t1)}`, tokens: isAuth ? [] : [t1], rawBasic });
    } else if (kind === 6) headers.push({ name, value: 'plain', filled: 'plain', tokens: [] });
    else headers.push({ name, value: `Bearer ${t1.text}\r\nx: y`, filled: `Bearer ${fill(t1)}\r\nx: y`, tokens: [t1] });
  };
  if (aim) {
    const t = own(RECORDS.find((r) => r.name === aim.secret)!);
    const pass = chance(0.5) ? own(RECORDS[4]) : { text: 'x-oauth' };
    add(aim.header, aim.kind, t, pass, chance(0.8) ? t : own(RECORDS[5]));
  }
  for (let i = 0, n = aim ? (chance(0.7) ? 0 : 1) : chance(0.7) ? 1 : 2 + Math.floor(random() * 2); i < n; i++) {
    const name = chance(0.02) ? `x-${ph(1)}` : pick(HEADER_NAMES);
    const t1 = token();
    const kind = Math.floor(random() * 8);
    add(name, kind === 7 && chance(0.7) ? 0 : kind, t1, chance(0.5) ? t1 : token(), chance(0.5) ? t1 : { text: 'me' });
  }

  const manyHeaders = chance(0.01);
  const bigHead = chance(0.01);
  const filler: [string, string][] = manyHeaders ? Array.from({ length: 256 }, (_, i) => [`x-f${i}`, 'v']) : bigHead ? [['x-big', 'b'.repeat(65_536)]] : [];
  const head: RequestHead = {
    method,
    url: `${scheme}://${userinfo}${host}${port}${path}${query}${pad}`,
    headers: [...headers.map((h): [string, string] => [h.name, h.value]), ...filler],
  };
  const input: ForwardInput = {
    head,
    exit,
    rawTraits,
    locked,
    now: NOW,
    records: new Map(RECORDS.map((r) => [r.placeholder, r])),
    foreignPlaceholder: (p) => FOREIGN.includes(p),
    rules: RULES,
    secrets: SECRETS,
    exits: EXITS,
    refused: REFUSED,
  };

  // The reference, in the README's order; only the verdict, the status and the filled head count.
  const early =
    longUrl ||
    manyHeaders ||
    bigHead ||
    queryToken ||
    malformedQuery ||
    encodedPercent ||
    headers.some((h) => h.name.includes('fnox_proxy_')) ||
    userinfo !== '' ||
    scheme !== 'https' ||
    (port !== '' && port !== ':443') ||
    segments.some((x) => x.bad) ||
    refusedRef(domain, broad);
  if (early) return { input, inject: false, status: 403 };
  if (rawTraits.encodedBodies) return { input, inject: false, status: 502 };
  const no = { input, inject: false, status: 403 };
  if (headers.some((h) => h.rawBasic)) return no;
  const hits = headers.flatMap((h) => [...new Set(h.tokens.filter((t) => t.record).map((t) => t.record!))].map((r) => ({ h, r })));
  if (hits.length === 0) return no;
  if (hits.some(({ r }) => r.removedAt !== undefined || (r.expiresAt !== undefined && r.expiresAt <= NOW) || r.kind !== 'secret' || INERT.has(r.name)))
    return no;
  if (locked) return no;
  const upper = method.toUpperCase();
  const allowed = (r: InjectRecord, header: string) =>
    RULES.some(
      (x) =>
        x.secret === r.name &&
        x.domain === domain &&
        x.header === header &&
        (!x.methods.length || x.methods.includes(upper)) &&
        (!x.paths.length || x.paths.some((g) => globRef(g, path))),
    );
  if (!hits.every(({ h, r }) => allowed(r, h.name.toLowerCase()))) return no;
  if (!hits.every(({ r }) => !EXITS[r.name] || EXITS[r.name].includes(exit))) return no;
  // A placeholder once in the whole head, in one header or across them.
  const sightings = headers.flatMap((h) => h.tokens.filter((t) => t.record).map((t) => t.record!));
  if (sightings.some((r, i) => sightings.indexOf(r) !== i)) return no;
  if (!rawTraits.manualRedirects && hits.some(({ h }) => h.name.toLowerCase() !== 'authorization')) return no;
  if (headers.some((h) => h.basic?.user.record?.value.includes(':'))) return no;
  if (headers.some((h) => /[\r\n]/.test(h.filled))) return no;
  return { input, inject: true, headers: headers.map((h) => [h.name, h.filled]) };
}

/** The refused endpoints, from the meant host and the meant segments: a version stands for every version. */
function refusedRef(domain: string, broad: string[]): boolean {
  if (domain === 'x.openai.azure.com' || domain.startsWith('bedrock-runtime.')) return true;
  if (domain === 'api.openai.com' || domain === 'gen.example.ai') return VERSIONS.has(broad[0]);
  return domain === 'mcp.example.com' && broad[0] === 'mcp';
}

/**
 * A second, independent broad reading, from the URL text itself: the property every injected head
 * must keep. Percent-decodes with decodeURIComponent byte by byte, lower-cases, drops `;…` and empty segments.
 */
function broadReading(url: string): { host: string; segments: string[] } {
  const { hostname, pathname } = new URL(url);
  const decoded = pathname.replace(/%[0-9a-f]{2}/gi, (e) => String.fromCharCode(Number.parseInt(e.slice(1), 16)));
  const segments = decoded
    .toLowerCase()
    .split(/[/\\]/)
    .map((x) => x.split(';')[0])
    .filter(Boolean);
  return { host: hostname.toLowerCase().replace(/\.$/, ''), segments };
}
function underRefused(url: string): boolean {
  const { host, segments } = broadReading(url);
  const labels = host.split('.');
  return REFUSED.some((e) => {
    const want = e.host.split('.');
    if (want.length !== labels.length || !want.every((w, i) => w === '*' || w === labels[i])) return false;
    const prefix = e.path.split('/').filter(Boolean);
    return prefix.every((p, i) => (i === 0 && /^v[0-9]/.test(p) ? /^v[0-9]/.test(segments[0] ?? '') : p === segments[i]));
  });
}

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

describe('the injector against a reference, over 12,000 generated requests', () => {
  it('injects exactly when the reference does, fills in the same head, and never leaks a value in a refusal', function () {
    this.timeout(180_000); // 12,000 decisions; CI's 2 cores are shared
    const random = prng(0x5eed);
    const values = RECORDS.map((r) => r.value);
    let injections = 0;
    let refusals = 0;
    const reasons = new Map<string, number>();
    const NAMES = new RegExp(`\\b(${RECORDS.map((r) => r.name).join('|')})\\b`, 'g');
    for (let i = 0; i < 12_000; i++) {
      const want = build(random);
      const got = decideForward(want.input);
      const where = `request ${i}: ${JSON.stringify(want.input.head)}`;
      expect(got.inject, `${where} → ${got.inject ? 'inject' : got.reason}`).to.equal(want.inject);
      if (got.inject) {
        injections++;
        expect(got.head.headers, where).to.deep.equal(want.headers);
        expect(got.head.url).to.equal(want.input.head.url);
        expect(underRefused(got.head.url), `${where}: injected under a refused endpoint`).to.equal(false);
        const rest = JSON.stringify({ ...got, head: null });
        for (const v of values) expect(rest, where).not.to.include(v);
      } else {
        refusals++;
        const kind = got.reason.replace(NAMES, 'NAME').replace(/ (to|exit) .*/, ' $1 …');
        reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
        expect(got.status, `${where} → ${got.reason}`).to.equal(want.status);
        expect(got.reason).to.match(/^[^\r\n]+$/);
        const text = JSON.stringify(got);
        for (const v of values) expect(text, where).not.to.include(v);
      }
    }
    // A generator that never injects (or never refuses) would prove nothing.
    console.log(`generated: ${injections} injected, ${refusals} refused`, Object.fromEntries(reasons));
    expect(injections).to.be.greaterThan(1000);
    expect(refusals).to.be.greaterThan(3000);
  });

  it('agrees with the reference glob on every rule path of the policy', () => {
    for (const g of RULES.flatMap((r) => r.paths)) {
      for (const p of [
        '/repos/x/issues',
        '/repos//issues',
        '/repos/x/y/issues',
        '/user',
        '/user/',
        '/user/a/b',
        '/gists',
        '/a/b',
        '/a/x/b',
        '/v1/x',
        '/v12/x',
        '/v1/x/y',
      ]) {
        expect(globRef(g, p), `${g} ${p}`).to.equal(globRefOracle(g, p));
      }
    }
  });
});

// A third, regex-free view of three fixed globs, so the reference itself is checked.
function globRefOracle(g: string, p: string): boolean {
  const seg = p.split('/').slice(1);
  switch (g) {
    case '/repos/*/issues':
      return seg.length === 3 && seg[0] === 'repos' && seg[2] === 'issues';
    case '/user/**':
      return p.startsWith('/user/');
    case '/gists':
      return p === '/gists';
    case '/a/**/b':
      return p === '/a/b' || (p.startsWith('/a/') && p.endsWith('/b') && p.length > 4);
    case '/v?/*':
      return seg.length === 2 && seg[0].length === 2 && seg[0][0] === 'v';
  }
  throw new Error(`no oracle for ${g}`);
}

describe('a placeholder once in a request head, over 6,000 generated heads', () => {
  const A = rec('A', 0x31);
  const B = rec('B', 0x32);
  const C = rec('C', 0x33);
  const OWN = [A, B, C];
  const NAMES = ['authorization', 'x-api-key', 'x-goog-api-key', 'Authorization'];
  const URLS = { forward: 'https://api.example.com/v1/x', model: 'https://api.openai.com/v1/chat/completions', mcp: 'https://mcp.example.com/mcp/x' };

  /** A head of one to four headers, each a few tokens: this vault's placeholders, a foreign and an unknown one, text; in Basic now and then. */
  function head(random: () => number, basicToo: boolean): { headers: [string, string][]; seen: string[][] } {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const headers: [string, string][] = [];
    const seen: string[][] = [];
    for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) {
      const name = pick(NAMES);
      const tokens = Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick([A, B, C, A, B, C, 'foreign', 'unknown', 'text']));
      const text = tokens.map((t) => (typeof t !== 'string' ? t.placeholder : t === 'foreign' ? FOREIGN[0] : t === 'unknown' ? UNKNOWN[0] : 'text'));
      if (basicToo && name.toLowerCase() === 'authorization' && random() < 0.3) {
        headers.push([name, `Basic ${btoa(`${text[0]}:${text[1] ?? 'x'}`)}`]);
      } else headers.push([name, `Bearer ${text.join(' ')}`]);
      seen.push(tokens.filter((t) => typeof t !== 'string').map((t) => t.placeholder));
    }
    return { headers, seen };
  }
  /** The head with this vault's values in it, written from the tokens: Basic re-encoded from the filled user and password. */
  const filled = (headers: [string, string][], records: readonly InjectRecord[]) =>
    headers.map(([n, v]): [string, string] => {
      const fill = (t: string) => records.reduce((x, r) => x.split(r.placeholder).join(r.value), t);
      if (!v.startsWith('Basic ')) return [n, fill(v)];
      const [user, ...pass] = atob(v.slice(6)).split(':');
      return [n, `Basic ${btoa(`${fill(user)}:${fill(pass.join(':'))}`)}`];
    });
  /** The reference: which placeholder is seen again, in one header or another, counted from how the head was built. */
  function repeated(seen: string[][]): { name: string; sameHeader: boolean; otherHeader: boolean } | null {
    for (const r of OWN) {
      const per = seen.map((h) => h.filter((p) => p === r.placeholder).length);
      const total = per.reduce((a, b) => a + b, 0);
      if (total > 1) return { name: r.name, sameHeader: per.some((k) => k > 1), otherHeader: per.filter((k) => k > 0).length > 1 };
    }
    return null;
  }
  function check(
    kind: string,
    d: { inject: boolean; reason?: string; status?: number; head?: RequestHead },
    headers: [string, string][],
    seen: string[][],
    records: readonly InjectRecord[],
  ) {
    const where = `${kind}: ${JSON.stringify(headers)}`;
    const twice = repeated(seen);
    if (!twice) {
      expect(d.inject, `${where} → ${d.reason}`).to.equal(true);
      expect(d.head?.headers, where).to.deep.equal(filled(headers, records));
      return false;
    }
    expect(d.inject, where).to.equal(false);
    expect(d.status, where).to.equal(403);
    const [, name, how] = /^(\S+) appears (twice in one header value|in more than one header)$/.exec(d.reason ?? '') ?? [];
    expect(name, `${where} → ${d.reason}`).to.be.a('string');
    const r = repeated(seen.map((h) => h.filter((p) => p === OWN.find((o) => o.name === name)?.placeholder)));
    expect(r, `${where} → ${d.reason}`).not.to.equal(null);
    expect(how === 'twice in one header value' ? r!.sameHeader : r!.otherHeader, `${where} → ${d.reason}`).to.equal(true);
    for (const x of OWN) expect(JSON.stringify(d), where).not.to.include(x.value);
    return true;
  }

  it("refuses a head where one of this vault's placeholders is seen twice, in forward, model and MCP decisions, and fills in every other", () => {
    const random = prng(0x0ce1);
    const counts = { forward: [0, 0], model: [0, 0], mcp: [0, 0] };
    const rules = OWN.flatMap((r) => ['authorization', 'x-api-key', 'x-goog-api-key'].map((h) => rule(r.name, 'api.example.com', h, [], [])));
    for (let i = 0; i < 2_000; i++) {
      {
        const { headers, seen } = head(random, true);
        // A head with none of this vault's placeholders is refused earlier, for another reason.
        if (seen.some((h) => h.length > 0)) {
          const d = decideForward({
            head: { method: 'GET', url: URLS.forward, headers },
            exit: 'page',
            rawTraits: { manualRedirects: true },
            locked: false,
            now: NOW,
            records: new Map([...OWN, RECORDS[0]].map((r) => [r.placeholder, r])),
            foreignPlaceholder: (p) => FOREIGN.includes(p),
            rules,
            secrets: Object.fromEntries(OWN.map((r) => [r.name, r.placeholder])),
            exits: {},
            refused: REFUSED,
          });
          counts.forward[check('forward', d, headers, seen, OWN) ? 1 : 0]++;
        }
      }
      {
        const { headers, seen } = head(random, false);
        const keys = OWN.map((r) => ({ ...r, kind: 'model' as const, provider: 'openai' }));
        if (seen.some((h) => h.length > 0)) {
          const d = decideModel({
            head: { method: 'POST', url: URLS.model, headers },
            exit: 'page',
            rawTraits: { manualRedirects: true },
            locked: false,
            now: NOW,
            records: new Map(keys.map((r) => [r.placeholder, r])),
            target: { providers: ['openai'] },
            known: new Set(['openai']),
          });
          counts.model[check('model', d, headers, seen, keys) ? 1 : 0]++;
        }
      }
      {
        const { headers, seen } = head(random, false);
        const tokens = OWN.map((r) => ({ ...r, kind: 'mcp' as const, provider: 'https://mcp.example.com/mcp' }));
        const d = decideMcp({
          head: { method: 'POST', url: URLS.mcp, headers },
          exit: 'page',
          rawTraits: { manualRedirects: true },
          locked: false,
          now: NOW,
          records: new Map(tokens.map((r) => [r.placeholder, r])),
          servers: [],
        });
        counts.mcp[check('mcp', d, headers, seen, tokens) ? 1 : 0]++;
      }
    }
    console.log('once per head: [filled in, refused]', JSON.stringify(counts));
    for (const [filledIn, refusedTwice] of Object.values(counts)) {
      expect(filledIn).to.be.greaterThan(300);
      expect(refusedTwice).to.be.greaterThan(300);
    }
  });
});
