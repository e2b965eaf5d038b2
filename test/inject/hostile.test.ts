// The injector tried as an attacker would (README, Security): a kernel program choosing the URL and
// headers of what bios forwards. Each test is one way a value once reached a place it must not.
import { expect } from '@open-wc/testing';
import type { RequestHead } from '../../src/contract.ts';
import type { Endpoint } from '../../src/inject/index.ts';
import { parseForward } from '../../src/forward/index.ts';
import { basicCredentials } from '../../src/inject/basic.ts';
import { type ForwardInput, type InjectRecord, type PolicyRule, decideForward, headRefusal, testVerdict } from './decisions.ts';
import { readUrl } from '../../src/inject/index.ts';
import { HTTP_TOKEN } from '../../src/validate.ts';
import { isVersionSegment } from '../../src/inject/endpoints.ts';
import { prng } from '../helpers/random.ts';
import { MAX_HEAD_BYTES, MAX_HEADERS, MAX_URL_BYTES } from '../../src/limits.ts';

const BUILTIN: Endpoint[] = await (await fetch('/src/endpoints.json')).json();
const ph = (n: number) => `fnox_proxy_${n.toString(16).padStart(24, '0')}`;
const NOW = 1_800_000_000_000;
const rec = (name: string, n: number): InjectRecord => ({ name, kind: 'secret', placeholder: ph(n), value: `real-${name.toLowerCase()}-value` });
const GH = rec('GITHUB_TOKEN', 1);
const OPENAI = rec('OPENAI_KEY', 2);
const GEMINI = rec('GEMINI_KEY', 3);
const INERT = rec('INERT_TOKEN', 4);
const RECORDS = [GH, OPENAI, GEMINI, INERT];
const rule = (secret: string, domain: string, paths: string[] = []): PolicyRule => ({ secret, domain, header: 'authorization', methods: [], paths });
const RULES = [
  rule('GITHUB_TOKEN', 'api.github.com', ['/repos/**', '/user']),
  // Rules that a careless policy could hold: they reach model hosts beside other paths.
  rule('OPENAI_KEY', 'api.openai.com'),
  rule('GEMINI_KEY', 'generativelanguage.googleapis.com'),
  rule('INERT_TOKEN', 'api.github.com'),
];

function input(url: string, record = GH, more: Partial<ForwardInput> = {}): ForwardInput {
  const head: RequestHead = { method: 'GET', url, headers: [['authorization', `Bearer ${record.placeholder}`]] };
  return {
    head,
    exit: 'page',
    rawTraits: { manualRedirects: true },
    locked: false,
    now: NOW,
    records: new Map(RECORDS.map((r) => [r.placeholder, r])),
    rules: RULES,
    // INERT_TOKEN's [secrets] entry holds another placeholder: `list` shows it inert.
    secrets: { GITHUB_TOKEN: GH.placeholder, OPENAI_KEY: OPENAI.placeholder, GEMINI_KEY: GEMINI.placeholder, INERT_TOKEN: ph(0xbad) },
    exits: {},
    refused: BUILTIN,
    ...more,
  };
}
function refusedWith(input: ForwardInput, reason: string) {
  const d = decideForward(input);
  expect(d.inject, JSON.stringify(d)).to.equal(false);
  if (!d.inject) expect(d.reason).to.equal(reason);
  expect(JSON.stringify(d)).not.to.match(/real-/);
}
const injects = (input: ForwardInput) => expect(decideForward(input).inject).to.equal(true);
const ENDPOINT = 'host is a model or MCP endpoint; the vault never injects there';

describe('only active secrets are filled in', () => {
  it('refuses a secret whose [secrets] entry holds another placeholder, though a rule names it', () => {
    refusedWith(input('https://api.github.com/user', INERT), "INERT_TOKEN is inert: /etc/fnox/config.toml doesn't hold its placeholder");
  });
  it('refuses a secret without a [secrets] entry', () => {
    refusedWith(input('https://api.github.com/user', GH, { secrets: {} }), "GITHUB_TOKEN is inert: /etc/fnox/config.toml doesn't hold its placeholder");
  });
  it('never reads a [secrets] entry from Object.prototype', () => {
    const ctor = { ...rec('constructor', 9) };
    refusedWith(
      input('https://api.github.com/user', ctor, { records: new Map([[ctor.placeholder, ctor]]), rules: [rule('constructor', 'api.github.com')], secrets: {} }),
      "constructor is inert: /etc/fnox/config.toml doesn't hold its placeholder",
    );
  });
  it('says so in the /dev/sealed test verdict', () => {
    const { rawTraits: _, head: __, exit: ___, ...context } = input('https://api.github.com/user');
    expect(testVerdict({ name: 'INERT_TOKEN', url: 'https://api.github.com/user' }, context)).to.deep.equal({
      verdict: 'refuse',
      reason: "INERT_TOKEN is inert: /etc/fnox/config.toml doesn't hold its placeholder",
    });
  });
});

describe('URLs that read two ways are refused', () => {
  for (const path of [
    '/repos/..;/user',
    '/repos/.;/user',
    '/repos/..;x=1/user',
    '/repos/%2e%2e;/user',
    '/repos/.%2E/user',
    '/repos/%2E./user',
    '/repos/%c0%ae%c0%ae/user',
    '/repos/a%2F..%2F..%2Fuser',
    '/repos/a%5c..%5cuser',
  ]) {
    it(`refuses the dot segment or separator in ${path}`, () => refusedWith(input(`https://api.github.com${path}`), 'ambiguous path'));
  }
  for (const url of [
    'https://api.github.com/repos/%zz/x',
    'https://api.github.com/repos/x%4',
    'https://api.github.com/user?q=%',
    'https://api.github.com/user#%g0',
  ]) {
    it(`refuses the malformed escape in ${url}`, () => refusedWith(input(url), 'malformed percent-escape in the URL'));
  }
  it('refuses a malformed escape that would stop a percent-encoded placeholder from being seen', () => {
    refusedWith(input(`https://api.github.com/user?a=%zz&t=fnox%5Fproxy_${'0'.repeat(23)}1`), 'malformed percent-escape in the URL');
  });
  it('finds a percent-encoded placeholder in the path', () => {
    refusedWith(input(`https://api.github.com/repos/fnox%5fproxy_${'0'.repeat(23)}1`), 'placeholder in the URL; only header values are filled in');
  });
  it('still fills in a path whose escapes decode to ordinary characters', () => {
    injects(input('https://api.github.com/repos/a%2Eb/x'));
    injects(input('https://api.github.com/repos/%E2%9C%93'));
  });
});

describe('the model and MCP refusal reads the path the broadest way', () => {
  for (const path of [
    '/%76%31/chat/completions',
    '//v1/chat/completions',
    '/v1;x/chat/completions',
    '/V1/chat/completions',
    '/%56%31/chat',
    '/;a/v1/chat',
    '/v2/chat/completions',
  ]) {
    it(`refuses OPENAI_KEY at api.openai.com${path}, though a rule allows every path`, () => {
      refusedWith(input(`https://api.openai.com${path}`, OPENAI), ENDPOINT);
    });
  }
  it("refuses Gemini's /v1 beside the catalog's /v1beta", () => {
    refusedWith(input('https://generativelanguage.googleapis.com/v1/models/gemini-pro:generateContent', GEMINI), ENDPOINT);
    refusedWith(input('https://generativelanguage.googleapis.com/v1alpha/models', GEMINI), ENDPOINT);
  });
  it('refuses a registered MCP server reached as /%6dcp/… or //mcp/…', () => {
    const refused = [...BUILTIN, { host: 'tools.example.com', path: '/mcp' }];
    const more = { rules: [...RULES, rule('GITHUB_TOKEN', 'tools.example.com')], refused };
    for (const path of ['/%6dcp/call', '//mcp/call', '/MCP/call', '/mcp;v=2/call']) refusedWith(input(`https://tools.example.com${path}`, GH, more), ENDPOINT);
    injects(input('https://tools.example.com/other/call', GH, more));
  });
  it('keeps paths on a model host that lie outside it, read the broad way', () => {
    injects(input('https://api.openai.com/dashboard/billing', OPENAI));
    injects(input('https://api.openai.com/vault/x', OPENAI));
  });
  it('matches rules against the path as sent, the narrow way', () => {
    refusedWith(input('https://api.github.com/%72epos/x'), 'no rule lets GITHUB_TOKEN go in authorization to GET api.github.com/%72epos/x');
    refusedWith(input('https://api.github.com//repos/x'), 'no rule lets GITHUB_TOKEN go in authorization to GET api.github.com//repos/x');
    refusedWith(input('https://api.github.com/User'), 'no rule lets GITHUB_TOKEN go in authorization to GET api.github.com/User');
  });
});

describe('the head has limits, and a refusal names the one it passed', () => {
  it(`refuses a URL longer than ${MAX_URL_BYTES} bytes`, () => {
    const url = `https://api.github.com/repos/x?${'q'.repeat(MAX_URL_BYTES)}`;
    refusedWith(input(url), `URL is longer than the limit of ${MAX_URL_BYTES} bytes`);
    injects(input(url.slice(0, MAX_URL_BYTES)));
  });
  it('counts the URL in UTF-8 bytes', () => {
    const base = 'https://api.github.com/repos/x?q=';
    const fits = `${base}${'é'.repeat((MAX_URL_BYTES - base.length) / 2)}`;
    injects(input(fits));
    refusedWith(input(`${fits}é`), `URL is longer than the limit of ${MAX_URL_BYTES} bytes`);
  });
  it(`refuses more than ${MAX_HEADERS} headers`, () => {
    const i = input('https://api.github.com/user');
    const filler = (n: number) => Array.from({ length: n }, (_, k): [string, string] => [`x-h${k}`, 'v']);
    refusedWith({ ...i, head: { ...i.head, headers: [...i.head.headers, ...filler(MAX_HEADERS)] } }, `head has more than the limit of ${MAX_HEADERS} headers`);
    injects({ ...i, head: { ...i.head, headers: [...i.head.headers, ...filler(MAX_HEADERS - 1)] } });
  });
  it(`refuses a head larger than ${MAX_HEAD_BYTES} bytes`, () => {
    const i = input('https://api.github.com/user');
    const big = (n: number): [string, string] => ['x-big', 'b'.repeat(n)];
    const used = 'GET'.length + i.head.url.length + 'authorization'.length + i.head.headers[0][1].length + 'x-big'.length;
    refusedWith(
      { ...i, head: { ...i.head, headers: [...i.head.headers, big(MAX_HEAD_BYTES - used + 1)] } },
      `head is larger than the limit of ${MAX_HEAD_BYTES} bytes`,
    );
    injects({ ...i, head: { ...i.head, headers: [...i.head.headers, big(MAX_HEAD_BYTES - used)] } });
  });

  it('measures a huge head from the op to its refusal, never parsing a URL or matching a name past a limit', () => {
    const huge = `https://api.github.com/repos/x?${'q'.repeat(16 * 2 ** 20)}`;
    const RealURL = URL;
    const tested = HTTP_TOKEN.test;
    let parsedHuge = 0;
    let matchedHuge = 0;
    globalThis.URL = class extends RealURL {
      constructor(url: string | URL, base?: string | URL) {
        if (String(url).length > MAX_URL_BYTES) parsedHuge++;
        super(url, base);
      }
    } as typeof URL;
    HTTP_TOKEN.test = function (this: RegExp, text: string) {
      if (text.length > MAX_HEAD_BYTES) matchedHuge++;
      return tested.call(this, text);
    };
    try {
      const owner = { pid: 1, ppid: 0, uid: 1000, gid: 1000, tag: 't' };
      const forward = (head: object) => parseForward({ head, owner, exit: 'page', rawTraits: {} }).head;
      const headers: [string, string][] = [['authorization', `Bearer ${GH.placeholder}`]];
      const refusal = (head: RequestHead) => headRefusal(head, () => true);
      expect(refusal(forward({ method: 'GET', url: huge, headers }))).to.equal(`URL is longer than the limit of ${MAX_URL_BYTES} bytes`);
      expect(readUrl(huge), 'never parsed past the limit').to.equal(null);
      const many = forward({ method: 'GET', url: 'https://api.github.com/user', headers: Array.from({ length: 100_000 }, () => headers[0]) });
      expect(many.headers, 'one header past the limit is read').to.have.length(MAX_HEADERS + 1);
      expect(refusal(many)).to.equal(`head has more than the limit of ${MAX_HEADERS} headers`);
      const longName = forward({ method: 'GET', url: 'https://api.github.com/user', headers: [[`x-${'n'.repeat(16 * 2 ** 20)}`, 'v']] });
      expect(refusal(longName)).to.equal(`head is larger than the limit of ${MAX_HEAD_BYTES} bytes`);
      expect(() => forward({ method: 'G'.repeat(MAX_HEAD_BYTES + 1), url: 'https://a.example/', headers })).to.throw('head.method must be an HTTP method');
      expect([parsedHuge, matchedHuge]).to.deep.equal([0, 0]);
    } finally {
      globalThis.URL = RealURL;
      HTTP_TOKEN.test = tested;
    }
  });
});

describe('no expression backtracks over what a program sends', () => {
  /** The slowest of three runs, in ms. */
  const slowest = (f: () => unknown) =>
    Math.max(
      ...Array.from({ length: 3 }, () => {
        const t = performance.now();
        f();
        return performance.now() - t;
      }),
    );

  it('decides an Authorization of 60,000 spaces between Basic and a word in well under 50 ms', () => {
    const i = input('https://api.github.com/user');
    const value = `Basic a${' '.repeat(60_000)}b`;
    const head = { ...i.head, headers: [['authorization', value] as [string, string]] };
    expect(decideForward({ ...i, head }).inject).to.equal(false);
    expect(slowest(() => decideForward({ ...i, head }))).to.be.below(25);
  });

  it('reads Basic credentials as the expression it replaces does, on 20,000 generated values', () => {
    const random = prng(0xba51c);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const parts = [' ', '\t', ' \t ', 'Basic', 'basic', 'BASIC', 'Bearer', 'YTpi', '=', ':', '\n', 'x', ' YTpi '];
    let matched = 0;
    for (let k = 0; k < 20_000; k++) {
      const value = Array.from({ length: Math.floor(random() * 6) }, () => pick(parts)).join('');
      const m = /^(basic)(?:[ \t]+(.*?))?[ \t]*$/is.exec(value);
      const want = m ? { scheme: m[1], credentials: m[2] ?? '' } : null;
      if (want) matched++;
      expect(basicCredentials(value), JSON.stringify(value)).to.deep.equal(want);
    }
    expect(matched).to.be.greaterThan(1000);
  });

  it('tells a version segment from an 8 KiB run of digits that ends badly in well under 50 ms', () => {
    const segment = `v${'1'.repeat(8190)}!`;
    expect(isVersionSegment(segment)).to.equal(false);
    expect(slowest(() => isVersionSegment(segment))).to.be.below(25);
    const refused = input(`https://api.openai.com/${segment}/x`, OPENAI);
    expect(slowest(() => decideForward(refused))).to.be.below(25);
    for (const s of ['v1', 'v1beta', 'v2alpha', 'v1p1beta1', 'v10x']) expect(isVersionSegment(s), s).to.equal(true);
    for (const s of ['v', 'vault', 'v-1', 'V1', 'v1/', 'x1']) expect(isVersionSegment(s), s).to.equal(false);
  });
});
