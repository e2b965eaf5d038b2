import { expect } from '@open-wc/testing';
import type { RequestHead } from '../../src/contract.ts';
import type { Endpoint } from '../../src/inject/index.ts';
import { globMatches } from '../../src/inject/match.ts';
import { isKernelMcpUrl } from '../../src/inject/request.ts';
import {
  type ForwardDecision,
  type ForwardInput,
  type InjectRecord,
  type McpRecord,
  type ModelRecord,
  type PolicyRule,
  decideForward,
  decideMcp,
  decideModel,
  testVerdict,
} from './decisions.ts';

// The dev server's esbuild plugin strips import attributes, so the generated list is fetched.
const BUILTIN: Endpoint[] = await (await fetch('/src/endpoints.json')).json();
const ph = (n: number) => `fnox_proxy_${n.toString(16).padStart(24, '0')}`;
const NOW = 1_800_000_000_000;
const rec = (name: string, n: number, value: string, more: Partial<InjectRecord> = {}): InjectRecord => ({
  name,
  kind: 'secret',
  placeholder: ph(n),
  value,
  ...more,
});
const RECORDS = [
  rec('GITHUB_TOKEN', 1, 'ghp_real_github_value'),
  rec('NPM_TOKEN', 2, 'npm_real_npm_value'),
  rec('GIT_USER', 3, 'real-git-user'),
  rec('GIT_PASS', 4, 'real:git:password'),
  rec('API_KEY', 5, 'real-api-key-value'),
  rec('OLD_TOKEN', 6, 'old-real-value', { removedAt: NOW - 1000 }),
  rec('SHORT_TOKEN', 7, 'short-real-value', { expiresAt: NOW }),
  rec('SIGN_IN', 8, 'grant-real-value', { kind: 'grant' }),
  rec('OPENAI_KEY', 9, 'sk-real-openai-value'),
  rec('COLON_USER', 10, 'real:user:value'),
];
const VALUES = RECORDS.map((r) => r.value);
const P = Object.fromEntries(RECORDS.map((r) => [r.name, r.placeholder]));
const FOREIGN = ph(0xf00);

const rule = (secret: string, domain: string, more: Partial<PolicyRule> = {}): PolicyRule => ({
  secret,
  domain,
  header: 'authorization',
  methods: [],
  paths: [],
  ...more,
});
const RULES: PolicyRule[] = [
  rule('GITHUB_TOKEN', 'api.github.com', { methods: ['GET'], paths: ['/repos/example/**'] }),
  rule('GITHUB_TOKEN', 'api.github.com', { methods: ['POST'], paths: ['/repos/*/issues'] }),
  rule('GITHUB_TOKEN', 'api.github.com', { paths: ['/gists/?'] }),
  rule('NPM_TOKEN', 'registry.npmjs.org'),
  rule('GIT_USER', 'git.example.com'),
  rule('GIT_PASS', 'git.example.com'),
  rule('COLON_USER', 'git.example.com'),
  rule('API_KEY', 'api.example.com', { header: 'x-api-key', paths: ['/v1/*'] }),
  rule('OLD_TOKEN', 'api.github.com'),
  rule('SHORT_TOKEN', 'api.github.com'),
  rule('SIGN_IN', 'api.github.com'),
  rule('OPENAI_KEY', 'api.openai.com'),
];

function input(head: Partial<RequestHead> & { url: string }, more: Partial<ForwardInput> = {}): ForwardInput {
  return {
    head: { method: 'GET', headers: [['Authorization', `Bearer ${P.GITHUB_TOKEN}`]], ...head },
    exit: 'page',
    rawTraits: { manualRedirects: true },
    locked: false,
    now: NOW,
    records: new Map(RECORDS.map((r) => [r.placeholder, r])),
    foreignPlaceholder: (p) => p === FOREIGN,
    rules: RULES,
    secrets: P,
    exits: { NPM_TOKEN: ['page', 'device:lars-air'] },
    refused: BUILTIN,
    ...more,
  };
}
const GH = 'https://api.github.com/repos/example/fnox';

function refused(d: ForwardDecision, status: number, reason: string) {
  expect(d).to.deep.equal({ inject: false, status, reason });
  for (const value of VALUES) expect(JSON.stringify(d)).not.to.include(value);
}
function injected(d: ForwardDecision): [string, string][] {
  if (!d.inject) throw new Error(`refused: ${d.reason}`);
  return d.head.headers;
}
const basic = (user: string, pass: string) => `Basic ${btoa(`${user}:${pass}`)}`;

describe('the injector refuses before anything is sent', () => {
  it('refuses a placeholder in the URL', () => {
    refused(decideForward(input({ url: `${GH}?token=${P.GITHUB_TOKEN}` })), 403, 'placeholder in the URL; only header values are filled in');
  });
  it('refuses a percent-encoded placeholder in the URL', () => {
    refused(decideForward(input({ url: `${GH}?t=fnox%5Fproxy${P.GITHUB_TOKEN.slice(10)}` })), 403, 'placeholder in the URL; only header values are filled in');
  });
  it('refuses a placeholder in a header name', () => {
    const d = decideForward(
      input({
        url: GH,
        headers: [
          [`x-${P.GITHUB_TOKEN}`, 'x'],
          ['authorization', `Bearer ${P.GITHUB_TOKEN}`],
        ],
      }),
    );
    refused(d, 403, 'placeholder in a header name');
  });
  it('refuses credentials in the URL', () => {
    refused(decideForward(input({ url: 'https://user:pass@api.github.com/repos/example/fnox' })), 403, 'credentials in the URL');
  });
  it('refuses plain http', () => {
    refused(decideForward(input({ url: 'http://api.github.com/repos/example/fnox' })), 403, 'only https on port 443 is injected');
  });
  it('refuses port 8443', () => {
    refused(decideForward(input({ url: 'https://api.github.com:8443/repos/example/fnox' })), 403, 'only https on port 443 is injected');
  });
  it('refuses another scheme', () => {
    refused(decideForward(input({ url: 'wss://api.github.com/repos/example/fnox' })), 403, 'only https on port 443 is injected');
  });
  it('refuses a URL that does not parse', () => {
    refused(decideForward(input({ url: 'https://api.github.com:99999/' })), 403, 'invalid URL');
  });
  it('refuses a URL with whitespace or control characters the parser would drop', () => {
    refused(decideForward(input({ url: 'https://api.github.com/repos/example/.\t./x' })), 403, 'URL contains whitespace or control characters');
  });
  for (const path of [
    '/repos/example/../other',
    '/repos/example/./fnox',
    '/repos/example/..',
    '/repos/example/%2e%2e/other',
    '/repos/example/%2E/x',
    '/repos/example%2fother',
    '/repos/example%2F..%2Fother',
    '/repos/example%5cother',
    '/repos/example\\..\\other',
  ]) {
    it(`refuses the ambiguous path ${path} on the raw URL`, () => {
      refused(decideForward(input({ url: `https://api.github.com${path}` })), 403, 'ambiguous path');
    });
  }
  for (const url of [`${GH}/%25`, `${GH}/%252e%252e/other`, `${GH}?q=100%25`, `${GH}#%25`]) {
    it(`refuses %25 wherever it stands: ${url}`, () => {
      refused(decideForward(input({ url })), 403, 'ambiguous URL: %25 encodes a %, which servers may decode twice');
    });
  }
  it('refuses an ambiguous path before the host even when the host has none', () => {
    refused(decideForward(input({ url: 'https://api.github.com\\..\\repos' })), 403, 'ambiguous path');
  });
  for (const [what, url] of [
    ['OpenAI', 'https://api.openai.com/v1/chat/completions'],
    ['Anthropic', 'https://api.anthropic.com/v1/messages'],
    ['a Bedrock region', 'https://bedrock-runtime.eu-west-3.amazonaws.com/model/x/converse'],
    ['Bedrock FIPS', 'https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com/model/x/converse'],
    ['an Azure OpenAI resource', 'https://my-resource.openai.azure.com/openai/deployments/gpt/chat/completions'],
    ['a Vertex location host', 'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/g:generateContent'],
    ['a Cloudflare AI gateway', 'https://gateway.ai.cloudflare.com/v1/acct/gw/openai/chat/completions'],
    ["Adobe's LLM proxy", 'https://adobe-llm-proxy.paolo-moz.workers.dev/v1/chat'],
  ]) {
    it(`refuses ${what} as a model endpoint, whatever a rule says`, () => {
      const d = decideForward(
        input({ url, headers: [['authorization', `Bearer ${P.OPENAI_KEY}`]] }, { rules: [...RULES, rule('OPENAI_KEY', new URL(url).hostname)] }),
      );
      refused(d, 403, 'host is a model or MCP endpoint; the vault never injects there');
    });
  }
  it('refuses an uppercase model host with a trailing dot', () => {
    refused(decideForward(input({ url: 'https://API.OpenAI.com./v1/models' })), 403, 'host is a model or MCP endpoint; the vault never injects there');
  });
  it('refuses a registered endpoint like a built-in one', () => {
    const d = decideForward(input({ url: GH }, { refused: [...BUILTIN, { host: 'api.github.com', path: '/repos' }] }));
    refused(d, 403, 'host is a model or MCP endpoint; the vault never injects there');
  });
  it('refuses an exit with encoded bodies with 502', () => {
    refused(
      decideForward(input({ url: GH }, { exit: 'proxy', rawTraits: { encodedBodies: true } })),
      502,
      "exit proxy has encoded bodies, which can't be scrubbed",
    );
  });
  it('refuses a request without any placeholder', () => {
    refused(decideForward(input({ url: GH, headers: [['authorization', 'Bearer plain']] })), 403, 'no placeholder of this vault');
  });
  it("refuses another namespace's placeholder as not of this vault", () => {
    refused(decideForward(input({ url: GH, headers: [['authorization', `Bearer ${FOREIGN}`]] })), 403, 'no placeholder of this vault');
  });
  it("refuses another namespace's placeholder even when the lookup returns it", () => {
    const d = decideForward(input({ url: GH }, { foreignPlaceholder: (p) => p === P.GITHUB_TOKEN }));
    refused(d, 403, 'no placeholder of this vault');
  });
  it('refuses an unknown placeholder as not of this vault', () => {
    refused(decideForward(input({ url: GH, headers: [['authorization', `Bearer ${ph(0xabc)}`]] })), 403, 'no placeholder of this vault');
  });
  it('refuses a removed record', () => {
    refused(decideForward(input({ url: GH, headers: [['authorization', `Bearer ${P.OLD_TOKEN}`]] })), 403, 'OLD_TOKEN was removed');
  });
  it('refuses an expired record', () => {
    // The refusal names the record, so that the page is asked to renew it (README, Embedding API: events).
    const d = decideForward(input({ url: GH, headers: [['authorization', `Bearer ${P.SHORT_TOKEN}`]] }));
    expect(d).to.deep.equal({ inject: false, status: 403, reason: 'SHORT_TOKEN expired; refreshing', expired: 'SHORT_TOKEN' });
  });
  it('refuses a record that is not a secret', () => {
    refused(
      decideForward(input({ url: GH, headers: [['authorization', `Bearer ${P.SIGN_IN}`]] })),
      403,
      'SIGN_IN is a grant record; rules inject secrets only',
    );
  });
  it('refuses while the vault is locked', () => {
    refused(decideForward(input({ url: GH }, { locked: true })), 403, 'vault is locked');
  });
  it('refuses the wrong method', () => {
    refused(
      decideForward(input({ url: GH, method: 'DELETE' })),
      403,
      'no rule lets GITHUB_TOKEN go in authorization to DELETE api.github.com/repos/example/fnox',
    );
  });
  it('refuses the placeholder in another header', () => {
    const d = decideForward(input({ url: GH, headers: [['X-Leak', P.GITHUB_TOKEN]] }));
    refused(d, 403, 'no rule lets GITHUB_TOKEN go in x-leak to GET api.github.com/repos/example/fnox');
  });
  it('refuses a path no rule allows', () => {
    refused(decideForward(input({ url: 'https://api.github.com/user' })), 403, 'no rule lets GITHUB_TOKEN go in authorization to GET api.github.com/user');
  });
  it('refuses another domain, even a subdomain of the rule', () => {
    refused(
      decideForward(input({ url: 'https://x.api.github.com/repos/example/fnox' })),
      403,
      'no rule lets GITHUB_TOKEN go in authorization to GET x.api.github.com/repos/example/fnox',
    );
  });
  it("refuses an exit the secret's exits line doesn't list", () => {
    const d = decideForward(input({ url: 'https://registry.npmjs.org/pkg', headers: [['authorization', `Bearer ${P.NPM_TOKEN}`]] }, { exit: 'tailscale' }));
    refused(d, 403, 'NPM_TOKEN may not use exit tailscale');
  });
  it('reads an exits line only from the policy, never from Object.prototype', () => {
    const ctor = rec('constructor', 12, 'real-constructor-value');
    const d = decideForward(
      input(
        { url: GH, headers: [['authorization', `Bearer ${ctor.placeholder}`]] },
        {
          records: new Map([[ctor.placeholder, ctor]]),
          rules: [rule('constructor', 'api.github.com')],
          secrets: { constructor: ctor.placeholder },
          exits: { toString: ['page' as const] },
        },
      ),
    );
    expect(injected(d)).to.deep.equal([['authorization', 'Bearer real-constructor-value']]);
  });
  it('refuses the same placeholder twice in one header value', () => {
    const d = decideForward(input({ url: GH, headers: [['authorization', `Bearer ${P.GITHUB_TOKEN} ${P.GITHUB_TOKEN}`]] }));
    refused(d, 403, 'GITHUB_TOKEN appears twice in one header value');
  });
  it('refuses the same placeholder in two headers that rules allow, as fnox does', () => {
    const rules = [...RULES, rule('GITHUB_TOKEN', 'api.github.com', { header: 'x-github-token' })];
    const head = {
      url: GH,
      headers: [
        ['authorization', `Bearer ${P.GITHUB_TOKEN}`],
        ['x-github-token', P.GITHUB_TOKEN],
      ] as [string, string][],
    };
    refused(decideForward(input(head, { rules })), 403, 'GITHUB_TOKEN appears in more than one header');
  });
  it('refuses the same placeholder in a header sent twice', () => {
    const d = decideForward(
      input({
        url: GH,
        headers: [
          ['Authorization', `Bearer ${P.GITHUB_TOKEN}`],
          ['authorization', `Bearer ${P.GITHUB_TOKEN}`],
        ],
      }),
    );
    refused(d, 403, 'GITHUB_TOKEN appears in more than one header');
  });
  it('refuses a placeholder in a Basic credential and again in another header', () => {
    const rules = [...RULES, rule('GIT_USER', 'git.example.com', { header: 'x-user' })];
    const head = {
      url: 'https://git.example.com/repo.git',
      headers: [
        ['authorization', basic(P.GIT_USER, P.GIT_PASS)],
        ['x-user', P.GIT_USER],
      ] as [string, string][],
    };
    refused(decideForward(input(head, { rules })), 403, 'GIT_USER appears in more than one header');
  });
  it('still fills in two different placeholders in two headers, and leaves a repeated foreign one alone', () => {
    const d = decideForward(
      input({
        url: 'https://git.example.com/repo.git',
        headers: [
          ['authorization', basic(P.GIT_USER, P.GIT_PASS)],
          ['x-other', `${FOREIGN} ${FOREIGN}`],
          ['x-more', FOREIGN],
        ],
      }),
    );
    expect(injected(d)).to.deep.equal([
      ['authorization', basic('real-git-user', 'real:git:password')],
      ['x-other', `${FOREIGN} ${FOREIGN}`],
      ['x-more', FOREIGN],
    ]);
  });
  it('refuses the same placeholder as Basic user and password', () => {
    const d = decideForward(input({ url: 'https://git.example.com/repo.git', headers: [['authorization', basic(P.GIT_USER, P.GIT_USER)]] }));
    refused(d, 403, 'GIT_USER appears twice in one header value');
  });
  it('refuses a header other than authorization on an exit that follows redirects', () => {
    const d = decideForward(input({ url: 'https://api.example.com/v1/items', headers: [['x-api-key', P.API_KEY]] }, { rawTraits: {} }));
    refused(d, 403, 'API_KEY may go only in authorization on an exit that follows redirects');
  });
  it('refuses CR, LF or NUL after substitution', () => {
    const cr = rec('CR_TOKEN', 11, 'real\r\nX-Evil: 1');
    const d = decideForward(
      input(
        { url: GH, headers: [['authorization', `Bearer ${cr.placeholder}`]] },
        { records: new Map([[cr.placeholder, cr]]), rules: [rule('CR_TOKEN', 'api.github.com')], secrets: { CR_TOKEN: cr.placeholder } },
      ),
    );
    expect(d).to.deep.equal({ inject: false, status: 403, reason: 'header authorization would contain CR, LF or NUL' });
    expect(JSON.stringify(d)).not.to.include('real');
  });
  it('refuses a Basic value holding a placeholder that is not base64', () => {
    const d = decideForward(input({ url: 'https://git.example.com/repo.git', headers: [['authorization', `Basic ${P.GIT_USER}:x`]] }));
    refused(d, 403, "Basic credential isn't base64 of UTF-8 user:password");
  });
  it('refuses a Basic value that is base64 but not UTF-8 around a placeholder', () => {
    const bytes = String.fromCharCode(0xff, 0xfe) + `${P.GIT_USER}:x`;
    const d = decideForward(input({ url: 'https://git.example.com/repo.git', headers: [['authorization', `Basic ${btoa(bytes)}`]] }));
    refused(d, 403, "Basic credential isn't base64 of UTF-8 user:password");
  });
  it("refuses a Basic user whose value has ':'", () => {
    const d = decideForward(input({ url: 'https://git.example.com/repo.git', headers: [['authorization', basic(P.COLON_USER, 'x')]] }));
    refused(d, 403, "COLON_USER has ':' in its value, so it can't be a Basic user");
  });
  it('checks in order: the lock is reported before a missing rule', () => {
    refused(decideForward(input({ url: 'https://api.github.com/nowhere' }, { locked: true })), 403, 'vault is locked');
  });
  it('refuses an unregistered kernel MCP URL like any http URL', () => {
    refused(decideForward(input({ url: 'http://3000.kernel.localhost/mcp' })), 403, 'only https on port 443 is injected');
  });
  it('refuses a registered kernel MCP server as an MCP endpoint', () => {
    const d = decideForward(input({ url: 'http://3000.kernel.localhost/mcp' }, { refused: [...BUILTIN, { host: '3000.kernel.localhost', path: '/' }] }));
    refused(d, 403, 'host is a model or MCP endpoint; the vault never injects there');
  });
});

describe('the injector fills in values where a rule allows', () => {
  it('fills in a Bearer template', () => {
    const d = decideForward(
      input({
        url: GH,
        headers: [
          ['Authorization', `Bearer ${P.GITHUB_TOKEN}`],
          ['accept', 'application/json'],
        ],
      }),
    );
    expect(injected(d)).to.deep.equal([
      ['Authorization', 'Bearer ghp_real_github_value'],
      ['accept', 'application/json'],
    ]);
    expect(d).to.deep.include({
      uses: [
        {
          name: 'GITHUB_TOKEN',
          rule: { domain: 'api.github.com', header: 'authorization', methods: ['GET'], paths: ['/repos/example/**'] },
          domain: 'api.github.com',
          method: 'GET',
          path: '/repos/example/fnox',
        },
      ],
    });
  });
  it('fills in a token template', () => {
    expect(injected(decideForward(input({ url: GH, headers: [['authorization', `token ${P.GITHUB_TOKEN}`]] })))).to.deep.equal([
      ['authorization', 'token ghp_real_github_value'],
    ]);
  });
  it('fills in a bare placeholder in a custom header on an exit with manual redirects', () => {
    const d = decideForward(input({ url: 'https://api.example.com/v1/items', headers: [['X-API-Key', P.API_KEY]] }));
    expect(injected(d)).to.deep.equal([['X-API-Key', 'real-api-key-value']]);
  });
  it('fills in a Basic user', () => {
    const d = decideForward(input({ url: 'https://git.example.com/repo.git', headers: [['authorization', basic(P.GIT_USER, 'x-oauth')]] }));
    expect(injected(d)).to.deep.equal([['authorization', basic('real-git-user', 'x-oauth')]]);
  });
  it('fills in a Basic password, which may hold colons', () => {
    const d = decideForward(input({ url: 'https://git.example.com/repo.git', headers: [['authorization', basic('me', P.GIT_PASS)]] }));
    expect(injected(d)).to.deep.equal([['authorization', basic('me', 'real:git:password')]]);
  });
  it('fills in a Basic user and password from two secrets', () => {
    const d = decideForward(input({ url: 'https://git.example.com/repo.git', headers: [['authorization', basic(P.GIT_USER, P.GIT_PASS)]] }));
    expect(injected(d)).to.deep.equal([['authorization', basic('real-git-user', 'real:git:password')]]);
    if (d.inject) expect(d.uses.map((u) => u.name)).to.deep.equal(['GIT_USER', 'GIT_PASS']);
  });
  it('fills in Basic credentials holding UTF-8, and an unpadded credential', () => {
    const cred = new TextEncoder().encode(`jürgen:${P.GIT_PASS}`);
    const b64 = btoa(String.fromCharCode(...cred)).replace(/=+$/, '');
    const d = decideForward(input({ url: 'https://git.example.com/repo.git', headers: [['authorization', `basic ${b64}`]] }));
    const out = new TextEncoder().encode('jürgen:real:git:password');
    expect(injected(d)).to.deep.equal([['authorization', `basic ${btoa(String.fromCharCode(...out))}`]]);
  });
  it('lets any sibling rule of the secret allow the route', () => {
    const d = decideForward(input({ url: 'https://api.github.com/repos/someone/issues', method: 'POST' }));
    expect(injected(d)[0][1]).to.equal('Bearer ghp_real_github_value');
  });
  it('keeps * within one segment', () => {
    refused(
      decideForward(input({ url: 'https://api.github.com/repos/a/b/issues', method: 'POST' })),
      403,
      'no rule lets GITHUB_TOKEN go in authorization to POST api.github.com/repos/a/b/issues',
    );
  });
  it('lets ** cross segments', () => {
    expect(injected(decideForward(input({ url: 'https://api.github.com/repos/example/fnox/pulls/1/files' })))[0][1]).to.equal('Bearer ghp_real_github_value');
  });
  it("keeps a ** glued to a name within its segment, as fnox's globset reads it", () => {
    const rules = [rule('GITHUB_TOKEN', 'api.github.com', { paths: ['/repos/example**'] })];
    expect(injected(decideForward(input({ url: 'https://api.github.com/repos/example-fork' }, { rules })))[0][1]).to.equal('Bearer ghp_real_github_value');
    refused(
      decideForward(input({ url: 'https://api.github.com/repos/example/fnox' }, { rules })),
      403,
      'no rule lets GITHUB_TOKEN go in authorization to GET api.github.com/repos/example/fnox',
    );
  });
  it('lets ? match exactly one character', () => {
    expect(injected(decideForward(input({ url: 'https://api.github.com/gists/1' })))[0][1]).to.equal('Bearer ghp_real_github_value');
    refused(
      decideForward(input({ url: 'https://api.github.com/gists/12' })),
      403,
      'no rule lets GITHUB_TOKEN go in authorization to GET api.github.com/gists/12',
    );
  });
  it('matches a lower-case method against upper-case rule methods', () => {
    expect(injected(decideForward(input({ url: GH, method: 'get' })))[0][1]).to.equal('Bearer ghp_real_github_value');
  });
  it('matches an uppercase host with a trailing dot', () => {
    const d = decideForward(input({ url: 'https://API.GitHub.COM./repos/example/fnox' }));
    expect(injected(d)[0][1]).to.equal('Bearer ghp_real_github_value');
    if (d.inject) expect(d.uses[0].domain).to.equal('api.github.com');
  });
  it('accepts an explicit port 443', () => {
    expect(injected(decideForward(input({ url: 'https://api.github.com:443/repos/example/fnox' })))[0][1]).to.equal('Bearer ghp_real_github_value');
  });
  it('lets dots pass in the query', () => {
    expect(injected(decideForward(input({ url: `${GH}?dot=..&p=%2e%2e` })))[0][1]).to.equal('Bearer ghp_real_github_value');
  });
  it('leaves foreign and unknown placeholders as they are', () => {
    const d = decideForward(
      input({
        url: GH,
        headers: [
          ['authorization', `Bearer ${P.GITHUB_TOKEN}`],
          ['x-other', `${FOREIGN} ${ph(0xabc)}`],
        ],
      }),
    );
    expect(injected(d)).to.deep.equal([
      ['authorization', 'Bearer ghp_real_github_value'],
      ['x-other', `${FOREIGN} ${ph(0xabc)}`],
    ]);
  });
  it('lets an exits line allow the exits it lists', () => {
    const d = decideForward(
      input({ url: 'https://registry.npmjs.org/pkg', headers: [['authorization', `Bearer ${P.NPM_TOKEN}`]] }, { exit: 'device:lars-air' }),
    );
    expect(injected(d)).to.deep.equal([['authorization', 'Bearer npm_real_npm_value']]);
  });
  it("doesn't change the input head", () => {
    const i = input({ url: GH });
    const before = JSON.stringify(i.head);
    injected(decideForward(i));
    expect(JSON.stringify(i.head)).to.equal(before);
  });
});

describe('rule path globs', () => {
  const cases: [string, string, boolean][] = [
    ['/repos/*', '/repos/a', true],
    ['/repos/*', '/repos/a/b', false],
    ['/repos/*/x', '/repos//x', true],
    ['/repos/**', '/repos/a/b/c', true],
    ['/repos/**', '/repos', false],
    ['/a/**/b', '/a/b', true],
    ['/a/**/b', '/a/x/y/b', true],
    ['/file?.txt', '/file1.txt', true],
    ['/file?.txt', '/file/.txt', false],
    ['/v1.0/x', '/v1.0/x', true],
    ['/v1.0/x', '/v1a0/x', false],
    // A `**` glued to other characters is `*`, as fnox's globset reads it: it stays in its segment.
    ['/repos/example**', '/repos/example-fork', true],
    ['/repos/example**', '/repos/example', true],
    ['/repos/example**', '/repos/example/fnox', false],
    ['/repos/example**', '/repos/example-fork/secrets', false],
    ['/repos/**x', '/repos/abx', true],
    ['/repos/**x', '/repos/a/x', false],
    ['/repos/a**/b', '/repos/ax/b', true],
    ['/repos/a**/b', '/repos/a/x/b', false],
    ['/repos/***', '/repos/a', true],
    ['/repos/***', '/repos/a/b', false],
    ['/repos/****/b', '/repos/x/y/b', false],
    // As whole segments it crosses `/`.
    ['/**', '/a/b/c', true],
    ['/**/b', '/b', true],
    ['/**/b', '/a/x/b', true],
    ['/a/**/**/b', '/a/b', true],
  ];
  for (const [glob, path, want] of cases) {
    it(`${want ? 'matches' : "doesn't match"} ${path} with ${glob}`, () => expect(globMatches(glob, path)).to.equal(want));
  }
});

describe('a placeholder once in a request head, for model and MCP endpoints too', () => {
  const key: ModelRecord = { ...rec('openai-key', 0x20, 'sk-real-model-value'), kind: 'model', provider: 'openai' };
  const mcp: McpRecord = { ...rec('mcp-token', 0x21, 'real-mcp-value'), kind: 'mcp', provider: 'https://mcp.example.com/mcp' };
  const model = (headers: [string, string][]) =>
    decideModel({
      head: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', headers },
      exit: 'page',
      rawTraits: { manualRedirects: true },
      locked: false,
      now: NOW,
      records: new Map([[key.placeholder, key]]),
      target: { providers: ['openai'] },
      known: new Set(['openai']),
    });
  const server = (headers: [string, string][]) =>
    decideMcp({
      head: { method: 'POST', url: 'https://mcp.example.com/mcp', headers },
      exit: 'page',
      rawTraits: { manualRedirects: true },
      locked: false,
      now: NOW,
      records: new Map([[mcp.placeholder, mcp]]),
      servers: [],
    });
  const reason = (d: { inject: boolean; reason?: string }) => (d.inject ? 'injected' : d.reason);

  it('refuses a model key in two headers, and twice in one', () => {
    expect(
      reason(
        model([
          ['authorization', `Bearer ${key.placeholder}`],
          ['x-api-key', key.placeholder],
        ]),
      ),
    ).to.equal('openai-key appears in more than one header');
    expect(reason(model([['authorization', `Bearer ${key.placeholder} ${key.placeholder}`]]))).to.equal('openai-key appears twice in one header value');
    expect(reason(model([['authorization', `Bearer ${key.placeholder}`]]))).to.equal('injected');
  });
  it('refuses an MCP credential in two headers, and twice in one', () => {
    expect(
      reason(
        server([
          ['authorization', `Bearer ${mcp.placeholder}`],
          ['x-mcp-token', mcp.placeholder],
        ]),
      ),
    ).to.equal('mcp-token appears in more than one header');
    expect(
      reason(
        server([
          ['authorization', `Bearer ${mcp.placeholder}`],
          ['Authorization', `Bearer ${mcp.placeholder}`],
        ]),
      ),
    ).to.equal('mcp-token appears in more than one header');
    expect(reason(server([['authorization', `Bearer ${mcp.placeholder} ${mcp.placeholder}`]]))).to.equal('mcp-token appears twice in one header value');
    expect(reason(server([['authorization', `Bearer ${mcp.placeholder}`]]))).to.equal('injected');
  });
});

describe('the kernel MCP URL form', () => {
  const cases: [string, boolean][] = [
    ['http://3000.kernel.localhost/mcp', true],
    ['http://65535.kernel.localhost/', true],
    ['http://9222.kernel.localhost/', false],
    ['http://0.kernel.localhost/', false],
    ['http://65536.kernel.localhost/', false],
    ['http://3000.kernel.localhost:3000/', false],
    ['http://3000.kernel.localhost:80/', false],
    ['https://3000.kernel.localhost/', false],
    ['http://a.kernel.localhost/', false],
    ['http://u:p@3000.kernel.localhost/', false],
  ];
  for (const [url, want] of cases) it(`${want ? 'accepts' : 'refuses'} ${url}`, () => expect(isKernelMcpUrl(url)).to.equal(want));
});

describe('the /dev/sealed test verdict', () => {
  const context = () => {
    const { head: _h, exit: _e, ...rest } = input({ url: GH });
    return rest;
  };
  it('says inject for an allowed route, naming the rule but no value', () => {
    const v = testVerdict({ name: 'GITHUB_TOKEN', url: GH }, context());
    expect(v).to.deep.equal({
      verdict: 'inject',
      reason: 'allowed by a rule for GITHUB_TOKEN: api.github.com, header authorization, methods GET, paths /repos/example/**',
    });
  });
  it('says refuse with the reason for a method no rule allows', () => {
    const v = testVerdict({ name: 'GITHUB_TOKEN', url: GH, method: 'DELETE' }, context());
    expect(v).to.deep.equal({ verdict: 'refuse', reason: 'no rule lets GITHUB_TOKEN go in authorization to DELETE api.github.com/repos/example/fnox' });
  });
  it('says refuse for an exit the exits line leaves out', () => {
    const v = testVerdict({ name: 'NPM_TOKEN', url: 'https://registry.npmjs.org/x', exit: 'proxy' }, context());
    expect(v).to.deep.equal({ verdict: 'refuse', reason: 'NPM_TOKEN may not use exit proxy' });
  });
  it('says refuse for another header on an exit that follows redirects', () => {
    const v = testVerdict({ name: 'API_KEY', url: 'https://api.example.com/v1/x', header: 'x-api-key' }, { ...context(), rawTraits: {} });
    expect(v).to.deep.equal({ verdict: 'refuse', reason: 'API_KEY may go only in authorization on an exit that follows redirects' });
  });
  it('says refuse for a model endpoint', () => {
    const v = testVerdict({ name: 'OPENAI_KEY', url: 'https://api.openai.com/v1/models' }, context());
    expect(v).to.deep.equal({ verdict: 'refuse', reason: 'host is a model or MCP endpoint; the vault never injects there' });
  });
  it('says refuse for a name it has no record of', () => {
    expect(testVerdict({ name: 'NOPE', url: GH }, context())).to.deep.equal({ verdict: 'refuse', reason: 'no record named NOPE' });
  });
});
