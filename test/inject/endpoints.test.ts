import { expect } from '@open-wc/testing';
import type { Rule } from '../../src/contract.ts';
import type { Endpoint } from '../../src/inject/index.ts';
import { hostMatches, matchesEndpoint, pathUnder, ruleOnlyReachesEndpoints, toEndpoint } from '../../src/inject/endpoints.ts';

// The dev server's esbuild plugin strips import attributes, so the generated list is fetched.
const BUILTIN: Endpoint[] = await (await fetch('/src/endpoints.json')).json();
/** Each entry's place alone, so that an entry is found (or not) whatever provider ids it carries. */
const PLACES = BUILTIN.map(({ host, path }) => ({ host, path }));
const providersOf = (host: string, path = '/') => BUILTIN.find((e) => e.host === host && e.path === path)?.providers;
const rule = (domain: string, paths: string[] = []): Rule => ({ domain, header: 'authorization', methods: [], paths });

describe('the generated endpoint list', () => {
  it('is sorted, without duplicates, in the entry format', () => {
    const keys = BUILTIN.map((e) => `${e.host} ${e.path}`);
    expect(keys).to.deep.equal([...new Set(keys)].sort());
    for (const e of BUILTIN) {
      expect(e.host).to.match(/^[a-z0-9*-]+(\.[a-z0-9*-]+)+$/);
      expect(e.path).to.match(/^\/([^/]+(\/[^/]+)*)?$/);
    }
  });
  it("holds pi-ai's base URLs with templated parts as *", () => {
    expect(PLACES).to.deep.include({ host: 'api.anthropic.com', path: '/' });
    expect(PLACES).to.deep.include({ host: 'api.openai.com', path: '/v1' });
    expect(PLACES).to.deep.include({ host: '*-aiplatform.googleapis.com', path: '/' });
    expect(PLACES).to.deep.include({ host: 'gateway.ai.cloudflare.com', path: '/v1/*/*/openai' });
  });
  it('holds the fixed Bedrock, Azure and Adobe entries', () => {
    for (const host of [
      'bedrock-runtime.*.amazonaws.com',
      'bedrock-runtime-fips.*.amazonaws.com',
      '*.openai.azure.com',
      '*.cognitiveservices.azure.com',
      '*.ai.azure.com',
      'adobe-llm-proxy.paolo-moz.workers.dev',
    ]) {
      expect(PLACES).to.deep.include({ host, path: '/' });
    }
  });
  it("names each entry's provider ids, the catalog's for the fixed hosts", () => {
    expect(providersOf('api.anthropic.com')).to.include('anthropic');
    expect(providersOf('api.openai.com', '/v1')).to.include('openai');
    expect(providersOf('bedrock-runtime.*.amazonaws.com')).to.deep.equal(['amazon-bedrock']);
    expect(providersOf('*.openai.azure.com')).to.deep.equal(['azure']);
    expect(providersOf('*-aiplatform.googleapis.com')).to.deep.equal(['google-vertex']);
    expect(providersOf('adobe-llm-proxy.paolo-moz.workers.dev')).to.deep.equal(['adobe']);
  });
  it('drops entries another entry covers', () => {
    expect(PLACES).not.to.deep.include({ host: 'bedrock-runtime.us-east-1.amazonaws.com', path: '/' });
    expect(PLACES).not.to.deep.include({ host: 'openrouter.ai', path: '/api/v1' });
  });
});

describe('matching a URL against endpoints', () => {
  const under = (url: string) => matchesEndpoint(new URL(url), BUILTIN);
  for (const url of [
    'https://api.openai.com/v1/chat/completions',
    'https://api.anthropic.com/v1/messages',
    'https://bedrock-runtime.ap-south-1.amazonaws.com/model/m/invoke',
    'https://contoso.openai.azure.com/openai/deployments/x/chat/completions',
    'https://europe-west4-aiplatform.googleapis.com/v1/projects/p',
    'https://API.ANTHROPIC.COM./v1/messages',
    'https://gateway.ai.cloudflare.com/v1/a/b/openai/chat',
    'https://api.openai.com/v10/x',
    'https://generativelanguage.googleapis.com/v1/models/gemini:generateContent',
    'https://generativelanguage.googleapis.com/v1alpha/models',
    'https://gateway.ai.cloudflare.com/v2beta/a/b/openai/chat',
  ]) {
    it(`puts ${url} under a model endpoint`, () => expect(under(url)).to.equal(true));
  }
  for (const url of [
    'https://api.github.com/user',
    'https://api.openai.com/dashboard',
    'https://api.openai.com/version/x',
    'https://generativelanguage.googleapis.com/upload/x',
    'https://x.bedrock-runtime.us-east-1.amazonaws.com/',
    'https://openai.azure.com/',
    'https://a.b.openai.azure.com/',
    'https://gateway.ai.cloudflare.com/v1/a/b/workers',
    'https://api.cloudflare.com/client/v4/zones',
  ]) {
    it(`keeps ${url} outside every model endpoint`, () => expect(under(url)).to.equal(false));
  }
  it('matches * inside a label as part of that label only', () => {
    expect(hostMatches('*-aiplatform.googleapis.com', 'us-aiplatform.googleapis.com')).to.equal(true);
    expect(hostMatches('*-aiplatform.googleapis.com', 'a.us-aiplatform.googleapis.com')).to.equal(false);
  });
  it('normalises an entry host as well as the URL host', () => {
    expect(matchesEndpoint(new URL('https://llm.example.com/v1/x'), [{ host: 'LLM.Example.com.', path: '/v1' }])).to.equal(true);
  });
  it('compares paths segment by segment', () => {
    expect(pathUnder('/v1', '/v1')).to.equal(true);
    expect(pathUnder('/v1/', '/v1')).to.equal(true);
    expect(pathUnder('/v1x', '/v1/x')).to.equal(false);
    expect(pathUnder('/api/v10', '/api/v1')).to.equal(false);
    expect(pathUnder('/anything', '/')).to.equal(true);
  });
  it('lets a version as the first segment of an entry stand for every version segment', () => {
    expect(pathUnder('/v1beta/models', '/v1')).to.equal(true);
    expect(pathUnder('/v2alpha/x', '/v1beta')).to.equal(true);
    expect(pathUnder('/v1p1beta1/x', '/v1')).to.equal(true);
    expect(pathUnder('/vault/x', '/v1')).to.equal(false);
    expect(pathUnder('/v/x', '/v1')).to.equal(false);
  });
  for (const path of [
    '/%76%31/chat/completions',
    '//v1/chat/completions',
    '/v1;x/chat/completions',
    '/V1/chat/completions',
    '/;x/v1/chat',
    '/%56%31/x',
    '/v1%3bx/chat',
    '/v2/chat',
  ]) {
    it(`reads ${path} the broadest way, under /v1 on a model host`, () => {
      expect(matchesEndpoint(new URL(`https://api.openai.com${path}`), BUILTIN)).to.equal(true);
    });
  }
  it('compares a path segment with * by its ends only, which refuses more and never less', () => {
    const entry = [{ host: 'mcp.example.com', path: '/a*b*c/mcp' }];
    const under = (path: string) => matchesEndpoint(new URL(`https://mcp.example.com${path}`), entry);
    expect(under('/abc/mcp/x')).to.equal(true);
    expect(under('/ac/mcp')).to.equal(true);
    expect(under('/a-anything-c/mcp')).to.equal(true);
    expect(under('/c/mcp')).to.equal(false);
    expect(under('/ab/mcp')).to.equal(false);
    expect(under('/ac/other')).to.equal(false);
  });
  it('reads a registered MCP server path the broadest way too', () => {
    const mcp = [{ host: 'mcp.example.com', path: '/mcp' }];
    for (const path of ['/%6dcp/call', '//mcp/call', '/MCP/call', '/mcp;v=1/call', '/mcp'])
      expect(matchesEndpoint(new URL(`https://mcp.example.com${path}`), mcp), path).to.equal(true);
    expect(matchesEndpoint(new URL('https://mcp.example.com/mcpx/call'), mcp)).to.equal(false);
  });
  it('turns a registered base URL into an entry', () => {
    expect(toEndpoint('https://LLM.Example.com./v1/')).to.deep.equal({ host: 'llm.example.com', path: '/v1' });
    expect(toEndpoint('http://3000.kernel.localhost/mcp')).to.deep.equal({ host: '3000.kernel.localhost', path: '/mcp' });
    expect(toEndpoint('not a url')).to.equal(null);
  });
});

describe('rules that can only reach endpoints', () => {
  it('is true for a rule on a model host', () => expect(ruleOnlyReachesEndpoints(rule('api.anthropic.com'), BUILTIN)).to.equal(true));
  it('is false for api.github.com', () => expect(ruleOnlyReachesEndpoints(rule('api.github.com'), BUILTIN)).to.equal(false));
  it('is true for a Bedrock region or an Azure resource', () => {
    expect(ruleOnlyReachesEndpoints(rule('bedrock-runtime.us-west-2.amazonaws.com'), BUILTIN)).to.equal(true);
    expect(ruleOnlyReachesEndpoints(rule('contoso.openai.azure.com', ['/openai/**']), BUILTIN)).to.equal(true);
  });
  it('is false for a rule without paths on a host whose endpoint has a path prefix', () => {
    expect(ruleOnlyReachesEndpoints(rule('api.openai.com'), BUILTIN)).to.equal(false);
  });
  it('is true when every path of the rule stays under the prefix', () => {
    expect(ruleOnlyReachesEndpoints(rule('api.openai.com', ['/v1/chat/*', '/v1/**']), BUILTIN)).to.equal(true);
  });
  it('is false when one path of the rule leaves the prefix', () => {
    expect(ruleOnlyReachesEndpoints(rule('api.openai.com', ['/v1/**', '/organization/**']), BUILTIN)).to.equal(false);
    expect(ruleOnlyReachesEndpoints(rule('api.openai.com', ['/v*/chat']), BUILTIN)).to.equal(false);
    expect(ruleOnlyReachesEndpoints(rule('api.openai.com', ['/**/v1']), BUILTIN)).to.equal(false);
  });
  it('lets wildcard rule segments stay under a * segment of the prefix', () => {
    expect(ruleOnlyReachesEndpoints(rule('gateway.ai.cloudflare.com', ['/v1/*/gw?/openai/**']), BUILTIN)).to.equal(true);
    expect(ruleOnlyReachesEndpoints(rule('gateway.ai.cloudflare.com', ['/v1/**']), BUILTIN)).to.equal(false);
  });
  it('counts paths under different entries of the same host', () => {
    const entries = [
      { host: 'opencode.ai', path: '/inference/openai' },
      { host: 'opencode.ai', path: '/inference/anthropic' },
    ];
    expect(ruleOnlyReachesEndpoints(rule('opencode.ai', ['/inference/openai/**', '/inference/anthropic/**']), entries)).to.equal(true);
  });
  it('compares the rule domain lower-cased without a trailing dot', () => {
    expect(ruleOnlyReachesEndpoints(rule('API.Anthropic.com.'), BUILTIN)).to.equal(true);
  });
});
