import { expect, waitUntil } from '@open-wc/testing';
import type { ResponsePart, Stamp } from '../../src/contract.ts';
import { FNOX, SECRETS, attest, fnoxConfig } from '../helpers/attest.ts';
import { auditedWithout, canary, crossed, findCanaries, resetVault, welcomed, type VaultClient } from '../helpers/vault.ts';

const owner: Stamp = { pid: 77, ppid: 1, uid: 1000, gid: 1000, tag: 'gh' };
const enc = new TextEncoder();
const dec = new TextDecoder();
const b64 = (s: string) => btoa(String.fromCharCode(...enc.encode(s)));

/** A value the forward reply may carry (it is the one place a value goes), so not a canary. */
const injectable = () => `ghp_${crypto.randomUUID().replaceAll('-', '')}`;

interface Sent {
  reply: any;
  /** bios's end of the response channel. */
  response: MessagePort;
}

async function send(page: VaultClient, head: unknown, fields: Record<string, unknown> = {}): Promise<Sent> {
  const channel = new MessageChannel();
  const reply = await page.request('forward', { head, owner, exit: 'page', rawTraits: { manualRedirects: true }, ...fields }, [channel.port2]);
  return { reply, response: channel.port1 };
}

/** Posts parts as bios would and collects what the vault sends back until `end` or `error`. */
function relay(port: MessagePort, parts: ResponsePart[]): Promise<ResponsePart[]> {
  const back: ResponsePart[] = [];
  return new Promise((resolve) => {
    port.onmessage = ({ data }) => {
      back.push(data);
      if (data.op === 'end' || data.op === 'error') resolve(back);
    };
    for (const part of parts) port.postMessage(part);
  });
}

async function setUp(page: VaultClient, value: string, extra = '') {
  const { placeholder } = await page.request('put', { name: 'GH_TOKEN', value });
  await page.request('policy', { files: [await attest(FNOX, fnoxConfig([['GH_TOKEN', placeholder, 'api.github.com', `paths = ["/repos/**"]\n${extra}`]]))] });
  return placeholder;
}

describe('forward', () => {
  beforeEach(resetVault);

  it('fills the value into the header a rule allows, audits the use and sets usedAt', async () => {
    const page = await welcomed();
    const value = injectable();
    const placeholder = await setUp(page, value);
    const head = {
      method: 'GET',
      url: 'https://api.github.com/repos/a/b',
      headers: [
        ['Accept', 'application/json'],
        ['Authorization', `Bearer ${placeholder}`],
      ],
    };
    const { reply } = await send(page, head);
    expect(reply.op).to.equal('forward');
    expect(reply.head).to.deep.equal({
      ...head,
      headers: [
        ['Accept', 'application/json'],
        ['Authorization', `Bearer ${value}`],
      ],
    });
    const { audit } = await page.request('audit', { limit: 1 });
    expect(audit[0]).to.deep.include({
      type: 'forward',
      name: 'GH_TOKEN',
      domain: 'api.github.com',
      method: 'GET',
      path: '/repos/a/b',
      exit: 'page',
      uid: 1000,
      tag: 'gh',
      rule: { domain: 'api.github.com', header: 'authorization', methods: [], paths: ['/repos/**'] },
    });
    expect(JSON.stringify(audit)).to.not.include(value);
    const { list } = await page.request('list');
    expect(list.secrets[0].usedAt).to.be.a('number');
  });

  it('refuses where no rule allows it, with a one-line reason and no value', async () => {
    const page = await welcomed();
    const value = injectable();
    const placeholder = await setUp(page, value);
    const cases: [unknown, number, string][] = [
      [
        { method: 'GET', url: 'https://api.github.com/user', headers: [['authorization', `Bearer ${placeholder}`]] },
        403,
        'no rule lets GH_TOKEN go in authorization to GET api.github.com/user',
      ],
      [{ method: 'GET', url: `https://api.github.com/repos/${placeholder}`, headers: [] }, 403, 'placeholder in the URL; only header values are filled in'],
      [
        { method: 'GET', url: 'https://api.github.com:8443/repos/a', headers: [['authorization', `Bearer ${placeholder}`]] },
        403,
        'only https on port 443 is injected',
      ],
      [{ method: 'GET', url: 'https://api.github.com/repos/%2e%2e/x', headers: [['authorization', `Bearer ${placeholder}`]] }, 403, 'ambiguous path'],
      [
        { method: 'GET', url: 'https://api.github.com/repos/a', headers: [['authorization', 'Bearer fnox_proxy_000000000000000000000000']] },
        403,
        'no placeholder of this vault',
      ],
      [
        { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', headers: [['authorization', `Bearer ${placeholder}`]] },
        403,
        'host is a model or MCP endpoint; the vault never injects there',
      ],
    ];
    const replies = [];
    for (const [head, status, reason] of cases) {
      const { reply, response } = await send(page, head);
      expect(reply.refused, JSON.stringify(head)).to.deep.equal({ status, reason });
      replies.push(reply);
      response.close();
    }
    const encoded = await send(
      page,
      { method: 'GET', url: 'https://api.github.com/repos/a', headers: [['authorization', `Bearer ${placeholder}`]] },
      { rawTraits: { encodedBodies: true } },
    );
    expect(encoded.reply.refused).to.deep.equal({ status: 502, reason: "exit page has encoded bodies, which can't be scrubbed" });
    for (const form of [value, b64(value)]) expect(JSON.stringify([...replies, encoded.reply])).to.not.include(form);
  });

  it('keeps to the secret\u2019s [exits] line', async () => {
    const page = await welcomed();
    const placeholder = await setUp(page, injectable());
    await page.request('policy', { files: [await attest(SECRETS, '[exits]\nGH_TOKEN = ["proxy"]\n')] });
    const head = { method: 'GET', url: 'https://api.github.com/repos/a', headers: [['authorization', `Bearer ${placeholder}`]] };
    expect((await send(page, head)).reply.refused).to.deep.equal({ status: 403, reason: 'GH_TOKEN may not use exit page' });
    expect((await send(page, head, { exit: 'proxy' })).reply.head).to.exist;
  });

  it('scrubs the response: status text, URL, headers and a body split into 1-byte chunks', async () => {
    const page = await welcomed();
    const value = injectable();
    const placeholder = await setUp(page, value);
    const { reply, response } = await send(page, {
      method: 'GET',
      url: 'https://api.github.com/repos/a',
      headers: [['authorization', `Bearer ${placeholder}`]],
    });
    expect(reply.head).to.exist;
    const body = enc.encode(`{"echo":"Bearer ${value}","b64":"${b64(value)}"}`);
    const back = await relay(response, [
      {
        op: 'response',
        status: 200,
        statusText: `OK ${value}`,
        url: `https://api.github.com/repos/a?t=${value}`,
        headers: [
          ['x-echo', value],
          [`x-${b64(value)}`, 'b64'],
        ],
      },
      ...Array.from(body, (byte): ResponsePart => ({ op: 'body', chunk: new Uint8Array([byte]) })),
      { op: 'end' },
    ]);
    const head = back[0] as Extract<ResponsePart, { op: 'response' }>;
    expect(head.statusText).to.equal(`OK ${placeholder}`);
    expect(head.url).to.equal(`https://api.github.com/repos/a?t=${placeholder}`);
    expect(head.headers[0]).to.deep.equal(['x-echo', placeholder]);
    expect(head.headers[1]![0]).to.include('[redacted:GH_TOKEN]');
    const text = dec.decode(new Uint8Array(back.flatMap((p) => (p.op === 'body' ? [...p.chunk] : []))));
    expect(text).to.equal(`{"echo":"Bearer ${placeholder}","b64":"${text.match(/"b64":"([^"]*)"/)![1]}"}`);
    expect(text).to.include('[redacted:GH_TOKEN]');
    expect(text).to.not.include(value);
    expect(back.at(-1)).to.deep.equal({ op: 'end' });
  });

  it('lets the held tail through after 250 ms without input, then replaces the rest of a value that began in it', async () => {
    const page = await welcomed();
    const value = injectable();
    const placeholder = await setUp(page, value);
    const { response } = await send(page, { method: 'GET', url: 'https://api.github.com/repos/a', headers: [['authorization', `Bearer ${placeholder}`]] });
    const parts: ResponsePart[] = [];
    response.onmessage = ({ data }) => parts.push(data);
    const body = () => dec.decode(new Uint8Array(parts.flatMap((p) => (p.op === 'body' ? [...p.chunk] : []))));
    response.postMessage({ op: 'response', status: 200, statusText: 'OK', url: 'https://api.github.com/repos/a', headers: [] });
    const sent = performance.now();
    response.postMessage({ op: 'body', chunk: enc.encode(`tail ${value.slice(0, 10)}`) });
    await waitUntil(() => body().length > 0, 'the held tail goes out', { timeout: 3000 });
    expect(performance.now() - sent).to.be.at.least(250);
    expect(body()).to.equal(`tail ${value.slice(0, 10)}`);
    const back = await relay(response, [
      { op: 'body', chunk: enc.encode(`${value.slice(10)} more`) },
      { op: 'error', message: `reset while sending ${value}` },
    ]);
    parts.push(...back);
    expect(body()).to.equal(`tail ${value.slice(0, 10)}[redacted:GH_TOKEN] more`);
    expect(back.at(-1)).to.deep.equal({ op: 'error', message: `reset while sending ${placeholder}` });
  });

  it('answers EINVAL for malformed fields and a missing response port', async () => {
    const page = await welcomed();
    const head = { method: 'GET', url: 'https://api.github.com/', headers: [] };
    const bad: [Record<string, unknown>, string][] = [
      [{ head: { method: 'GET', url: 'nope', headers: [] }, owner, exit: 'page', rawTraits: {} }, 'head.url is not a URL'],
      [{ head: { method: 'G T', url: 'https://a.example.com/', headers: [] }, owner, exit: 'page', rawTraits: {} }, 'head.method must be an HTTP method'],
      [{ head: { ...head, headers: [['a']] }, owner, exit: 'page', rawTraits: {} }, 'head.headers must be a list of [name, value] strings'],
      [{ head, owner, exit: 'moon', rawTraits: {} }, 'exit must be'],
      [{ head, owner, exit: 'page', rawTraits: { follow: true } }, 'rawTraits has no field follow'],
      [{ head, owner: { uid: 0 }, exit: 'page', rawTraits: {} }, 'stamp.pid'],
    ];
    for (const [fields, message] of bad) {
      const reply = await page.request('forward', fields, [new MessageChannel().port2]);
      expect(reply.error?.code, message).to.equal('EINVAL');
      expect(reply.error.message).to.include(message);
    }
    expect((await page.request('forward', { head, owner, exit: 'page', rawTraits: {} })).error.message).to.equal(
      'forward needs a MessagePort transferred for the response',
    );
  });

  it('lists a rule for a model host as refused and keeps the one for api.github.com', async () => {
    const page = await welcomed();
    const gh = (await page.request('put', { name: 'GH', value: canary() })).placeholder;
    const ant = (await page.request('put', { name: 'ANTHROPIC', value: canary() })).placeholder;
    const reply = await page.request('policy', {
      files: [
        await attest(
          FNOX,
          fnoxConfig([
            ['GH', gh, 'api.github.com'],
            ['ANTHROPIC', ant, 'api.anthropic.com'],
          ]),
        ),
      ],
    });
    expect(reply.rules.map((r: any) => r.domain)).to.deep.equal(['api.github.com']);
    const { list } = await page.request('list');
    expect(list.refused).to.deep.equal([
      {
        secret: 'ANTHROPIC',
        rule: { domain: 'api.anthropic.com', header: 'authorization', methods: [], paths: [] },
        reason: 'ANTHROPIC: host is a model or MCP endpoint; the vault never injects there',
      },
    ]);
    expect(list.secrets.find((s: any) => s.name === 'ANTHROPIC').state).to.equal('inert');
    expect(list.secrets.find((s: any) => s.name === 'GH').state).to.equal('active');
  });

  it('handles a registered MCP server for its own credentials only, and scrubs the body it returns', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const token = injectable();
    const { placeholder: mcp } = await page.request('put', { name: 'tools-token', value: token, kind: 'mcp', provider: 'https://mcp.example.com/mcp' });
    const secretValue = canary('mcp-body');
    const { placeholder: secret } = await page.request('put', { name: 'GH', value: secretValue });
    await agent.request('endpoints', { mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['tools-token'] }] });
    const head = { method: 'POST', url: 'https://mcp.example.com/mcp/call', headers: [['authorization', `Bearer ${mcp}`]] };
    const { reply } = await send(page, head, { body: `{"args":"${secretValue}"}` });
    expect(reply.head.headers).to.deep.equal([['authorization', `Bearer ${token}`]]);
    expect(dec.decode(reply.body)).to.equal(`{"args":"${secret}"}`);
    const { audit } = await page.request('audit', { limit: 1 });
    expect(audit[0]).to.deep.include({
      type: 'mcp',
      name: 'tools-token',
      server: 'tools',
      domain: 'mcp.example.com',
      method: 'POST',
      path: '/mcp/call',
      uid: 1000,
      tag: 'gh',
    });
    const refused = await send(page, { ...head, headers: [['authorization', `Bearer ${secret}`]] });
    expect(refused.reply.refused).to.deep.equal({ status: 403, reason: 'secrets are never sent to model or MCP endpoints' });
  });
});

describe('forward to MCP servers, tried as an attacker would', () => {
  beforeEach(resetVault);
  const call = (url: string, credential: string, header = 'authorization') => ({ method: 'POST', url, headers: [[header, `Bearer ${credential}`]] });
  const refusedWith = async (page: VaultClient, head: unknown, reason: string, fields: Record<string, unknown> = {}, status = 403) => {
    const { reply } = await send(page, head, fields);
    expect(reply.refused, JSON.stringify(reply)).to.deep.equal({ status, reason });
  };

  it('fills an mcp record in under the server URL the page bound it to, with no registration needed', async () => {
    const page = await welcomed();
    const token = injectable();
    const { placeholder } = await page.request('put', { name: 'tools-token', value: token, kind: 'mcp', provider: 'https://mcp.example.com/mcp' });
    const { reply } = await send(page, call('https://mcp.example.com/mcp/call', placeholder));
    expect(reply.head.headers).to.deep.equal([['authorization', `Bearer ${token}`]]);
    const { audit } = await page.request('audit', { limit: 1 });
    expect(audit[0]).to.deep.include({ type: 'mcp', name: 'tools-token', server: 'https://mcp.example.com/mcp', path: '/mcp/call' });
  });

  it('never sends a credential to a host the agent registers, whatever names it lists', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const { placeholder } = await page.request('put', { name: 'tools-token', value: injectable(), kind: 'mcp', provider: 'https://mcp.example.com/mcp' });
    await agent.request('endpoints', { mcp: [{ server: 'evil', url: 'https://evil.example/mcp', names: ['tools-token'] }] });
    await refusedWith(
      page,
      call('https://evil.example/mcp/call', placeholder),
      "tools-token is bound to the MCP server https://mcp.example.com/mcp, and this URL isn't under it",
    );
  });

  it('fills in an mcp record whose provider is not a server URL nowhere', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const { placeholder } = await page.request('put', { name: 'tools-token', value: injectable(), kind: 'mcp', provider: 'tools' });
    await agent.request('endpoints', { mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['tools-token'] }] });
    await refusedWith(
      page,
      call('https://mcp.example.com/mcp/call', placeholder),
      'tools-token names no MCP server URL in its provider, so it is filled in nowhere',
    );
  });

  it('takes the bound URL the narrow way: /%6dcp/… and //mcp/… are MCP requests but not under it', async () => {
    const page = await welcomed();
    const { placeholder } = await page.request('put', { name: 'tools-token', value: injectable(), kind: 'mcp', provider: 'https://mcp.example.com/mcp' });
    const { placeholder: secret } = await page.request('put', { name: 'GH', value: canary('mcp-secret') });
    for (const path of ['/%6dcp/call', '//mcp/call', '/MCP/call', '/mcp;x/call']) {
      await refusedWith(
        page,
        call(`https://mcp.example.com${path}`, placeholder),
        "tools-token is bound to the MCP server https://mcp.example.com/mcp, and this URL isn't under it",
      );
      await refusedWith(page, call(`https://mcp.example.com${path}`, secret), 'secrets are never sent to model or MCP endpoints');
    }
  });

  it("lets a registered server's names narrow the bound records it uses", async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const { placeholder } = await page.request('put', { name: 'tools-token', value: injectable(), kind: 'mcp', provider: 'https://mcp.example.com/mcp' });
    await agent.request('endpoints', { mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['other-token'] }] });
    await refusedWith(page, call('https://mcp.example.com/mcp/call', placeholder), 'tools-token is not a credential of MCP server tools');
  });

  it('obeys the exit rules: 502 for encoded bodies, only authorization on an exit that follows redirects', async () => {
    const page = await welcomed();
    const { placeholder } = await page.request('put', { name: 'tools-token', value: injectable(), kind: 'mcp', provider: 'https://mcp.example.com/mcp' });
    const url = 'https://mcp.example.com/mcp/call';
    await refusedWith(
      page,
      call(url, placeholder),
      "exit proxy has encoded bodies, which can't be scrubbed",
      { exit: 'proxy', rawTraits: { encodedBodies: true } },
      502,
    );
    await refusedWith(page, call(url, placeholder, 'x-api-key'), 'tools-token may go only in authorization on an exit that follows redirects', {
      rawTraits: {},
    });
    expect((await send(page, call(url, placeholder), { rawTraits: {} })).reply.head).to.be.an('object');
  });

  it('serves a server on the kernel form bound by the page', async () => {
    const page = await welcomed();
    const token = injectable();
    const { placeholder } = await page.request('put', { name: 'local-tools', value: token, kind: 'mcp', provider: 'http://8123.kernel.localhost/mcp' });
    const { reply } = await send(page, call('http://8123.kernel.localhost/mcp/rpc', placeholder));
    expect(reply.head.headers).to.deep.equal([['authorization', `Bearer ${token}`]]);
    await refusedWith(page, call('http://8124.kernel.localhost/mcp/rpc', placeholder), 'only https on port 443 is injected');
  });
});

describe("forward's audit, when a program or the agent puts a value in what it sends", () => {
  beforeEach(resetVault);
  /** A value sealed in the namespace as OTHER, shaped as a host label, that goes out in a head (so not a canary). */
  async function other(page: VaultClient) {
    const value = `v${crypto.randomUUID().replaceAll('-', '')}`;
    return { value, placeholder: (await page.request('put', { name: 'OTHER', value })).placeholder as string };
  }
  const github = (placeholder: string, url = 'https://api.github.com/repos/a/b', method = 'GET') => ({
    method,
    url,
    headers: [['authorization', `Bearer ${placeholder}`]],
  });

  it("stores a forward's tag with the value scrubbed out", async () => {
    const page = await welcomed();
    const placeholder = await setUp(page, injectable());
    const value = canary('tag');
    const { placeholder: shown } = await page.request('put', { name: 'OTHER', value });
    expect((await send(page, github(placeholder), { owner: { ...owner, tag: `gh ${value}` } })).reply.head).to.be.an('object');
    expect((await auditedWithout(page, 'forward', value)).tag).to.equal(`gh ${shown}`);
  });

  it("stores a forward's path and method with the value scrubbed out", async () => {
    const page = await welcomed();
    const placeholder = await setUp(page, injectable());
    const { value, placeholder: shown } = await other(page);
    expect((await send(page, github(placeholder, `https://api.github.com/repos/${value}/b`, value))).reply.head).to.be.an('object');
    expect(await auditedWithout(page, 'forward', value)).to.deep.include({ path: `/repos/${shown}/b`, method: shown });
  });

  it("stores a forward's domain and rule with the value scrubbed out", async () => {
    const page = await welcomed();
    const { value, placeholder: shown } = await other(page);
    const { placeholder } = await page.request('put', { name: 'GH_TOKEN', value: injectable() });
    const domain = `${value}.example.com`;
    await page.request('policy', { files: [await attest(FNOX, fnoxConfig([['GH_TOKEN', placeholder, domain, `paths = ["/${value}/**"]\n`]]))] });
    expect((await send(page, github(placeholder, `https://${domain}/${value}/x`))).reply.head).to.be.an('object');
    expect(await auditedWithout(page, 'forward', value)).to.deep.include({
      domain: `${shown}.example.com`,
      path: `/${shown}/x`,
      rule: { domain: `${shown}.example.com`, header: 'authorization', methods: [], paths: [`/${shown}/**`] },
    });
  });

  it("stores an MCP request's server, path and tag with the value scrubbed out", async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const { value, placeholder: shown } = await other(page);
    const { placeholder } = await page.request('put', { name: 'tools-token', value: injectable(), kind: 'mcp', provider: 'https://mcp.example.com/mcp' });
    await agent.request('endpoints', { mcp: [{ server: `tools ${value}`, url: 'https://mcp.example.com/mcp', names: ['tools-token'] }] });
    const head = github(placeholder, `https://mcp.example.com/mcp/${value}`, 'POST');
    expect((await send(page, head, { body: '{}', owner: { ...owner, tag: `gh ${value}` } })).reply.head).to.be.an('object');
    expect(await auditedWithout(page, 'mcp', value)).to.deep.include({ server: `tools ${shown}`, path: `/mcp/${shown}`, tag: `gh ${shown}` });
  });

  it("stores a model request's path with the value scrubbed out", async () => {
    const page = await welcomed();
    const { value, placeholder: shown } = await other(page);
    const { placeholder } = await page.request('put', { name: 'openai-key', value: `sk-proj-${injectable()}`, kind: 'model', provider: 'openai' });
    const head = github(placeholder, `https://api.openai.com/v1/${value}/chat/completions`, 'POST');
    expect((await send(page, head, { body: '{}' })).reply.head).to.be.an('object');
    expect((await auditedWithout(page, 'model', value)).path).to.equal(`/v1/${shown}/chat/completions`);
  });
});

describe('forward leaks', () => {
  it('carried no canary value in any message of this file', () => {
    expect(findCanaries(crossed)).to.deep.equal([]);
  });
});
