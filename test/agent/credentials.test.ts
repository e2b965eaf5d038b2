// The agent's credentials (README, The agent's ops; Model and MCP endpoints), driven as pi-ai and
// an attacker would: a CredentialStore over the agent port answers placeholders; model requests
// shaped as pi-ai sends them for Anthropic, OpenAI, Gemini and Bedrock go through `forward` with a
// prompt body holding values in every form, the key filled in only for its own provider and every
// value scrubbed out of the body; `grant` and `refresh` go through to the page's `seal`. Real frame.
import { expect, waitUntil } from '@open-wc/testing';
import type { Stamp, VaultEvent } from '../../src/contract.ts';
import { prng } from '../helpers/random.ts';
import { type VaultClient, advanceClock, canary, crossed, findCanaries, leakForms, resetVault, welcomed } from '../helpers/vault.ts';

const owner: Stamp = { pid: 9, ppid: 1, uid: 1000, gid: 1000, tag: 'agent' };
const enc = new TextEncoder();
const dec = new TextDecoder();

/** A key the forward reply may carry (the one place a value goes), so not a canary. */
const key = (prefix: string) => `${prefix}${crypto.randomUUID().replaceAll('-', '')}`;

/** pi-ai's CredentialStore, kept by the vault: reads answer placeholders, writes are the page's. */
class VaultCredentialStore {
  constructor(private readonly agent: VaultClient) {}
  async read(providerId: string) {
    const reply = await this.agent.request('model', { provider: providerId });
    return reply.error ? undefined : { type: 'api_key' as const, key: reply.placeholder as string };
  }
  async list() {
    const { records } = await this.agent.request('records');
    return records
      .filter((r: { kind: string; provider?: string }) => r.kind === 'model' && r.provider)
      .map((r: { provider: string }) => ({ providerId: r.provider, type: 'api_key' }));
  }
  async modify(): Promise<never> {
    throw new Error('the vault keeps credentials: the person enters them in Settings');
  }
  async delete(): Promise<never> {
    throw new Error('the vault keeps credentials: the person removes them in Settings');
  }
}

/** A page and an agent port of one frame, with a model key per provider and a secret put by the page. */
async function setUp(path?: string) {
  const page = await welcomed(path ? { path } : {});
  const agent = await welcomed({ frame: page.frame, role: 'agent' });
  const keys = { anthropic: key('sk-ant-api03-'), openai: key('sk-proj-'), google: key('AIza'), 'amazon-bedrock': key('ABSK') };
  const placeholders: Record<string, string> = {};
  for (const [provider, value] of Object.entries(keys)) {
    const reply = await page.request('put', { name: `${provider}-key`, value, kind: 'model', provider });
    expect(reply.error, provider).to.equal(undefined);
    placeholders[provider] = reply.placeholder;
  }
  const secret = canary('secret');
  placeholders.secret = (await page.request('put', { name: 'GH_TOKEN', value: secret })).placeholder;
  return { page, agent, keys, secret, placeholders };
}

/** A `forward` as bios sends it; answers the reply (the head, or the refusal) and the body the vault returned. */
async function forward(
  page: VaultClient,
  head: { method?: string; url: string; headers: [string, string][] },
  body?: string | Uint8Array,
  rawTraits = { manualRedirects: true },
) {
  const channel = new MessageChannel();
  const reply = await page.request('forward', { head: { method: 'POST', ...head }, ...(body !== undefined && { body }), owner, exit: 'page', rawTraits }, [
    channel.port2,
  ]);
  channel.port1.close();
  return reply;
}

/** A prompt body as pi-ai writes it (JSON), the person's secret pasted into it in several forms. */
function prompt(secret: string, model = 'a-model') {
  const bytes = enc.encode(secret);
  const b64 = btoa(String.fromCharCode(...bytes));
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content: `my token is ${secret}; base64 ${b64}; hex ${hex}; url ${encodeURIComponent(secret)}` }],
  });
}

describe("the agent's credentials", () => {
  beforeEach(resetVault);

  it('answers records by name with their placeholders and states, never a value nor a removed record', async () => {
    const { page, agent, keys, placeholders } = await setUp();
    await page.request('put', { name: 'OLD_TOKEN', value: canary('old') });
    await page.request('remove', { name: 'OLD_TOKEN' });
    const { records } = await agent.request('records');
    expect(records.map((r: { name: string }) => r.name)).to.deep.equal(['GH_TOKEN', 'amazon-bedrock-key', 'anthropic-key', 'google-key', 'openai-key']);
    expect(records.find((r: { name: string }) => r.name === 'anthropic-key')).to.deep.equal({
      name: 'anthropic-key',
      kind: 'model',
      provider: 'anthropic',
      placeholder: placeholders.anthropic,
      state: 'inert',
    });
    expect(JSON.stringify(records)).to.not.include(keys.anthropic);
  });

  it("is pi-ai's CredentialStore: read answers each provider's placeholder, list the providers, writes stay the page's", async () => {
    const { agent, placeholders } = await setUp();
    const store = new VaultCredentialStore(agent);
    expect(await store.read('anthropic')).to.deep.equal({ type: 'api_key', key: placeholders.anthropic });
    expect(await store.read('mistral')).to.equal(undefined);
    expect((await store.list()).map((c: { providerId: string }) => c.providerId).sort()).to.deep.equal(['amazon-bedrock', 'anthropic', 'google', 'openai']);
    const model = await agent.request('model', { provider: 'openai' });
    expect(model).to.deep.include({ name: 'openai-key', placeholder: placeholders.openai, provider: 'openai', baseUrls: ['https://api.openai.com/v1'] });
    expect(await agent.request('model', { provider: 'no-such-provider' })).to.deep.include({
      error: { code: 'ENOENT', message: 'no model credential for that provider' },
    });
  });

  for (const [provider, url, header] of [
    ['anthropic', 'https://api.anthropic.com/v1/messages', 'x-api-key'],
    ['openai', 'https://api.openai.com/v1/responses', 'authorization'],
    ['google', 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', 'x-goog-api-key'],
    ['amazon-bedrock', 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude/converse-stream', 'authorization'],
  ] as const) {
    it(`fills in ${provider}'s key in ${header} of a model request shaped as pi-ai's, and returns the prompt body with every value scrubbed`, async () => {
      const { page, keys, secret, placeholders } = await setUp();
      const value = header === 'authorization' ? `Bearer ${placeholders[provider]}` : placeholders[provider]!;
      const body = prompt(secret);
      const reply = await forward(
        page,
        {
          url,
          headers: [
            [header, value],
            ['content-type', 'application/json'],
          ],
        },
        body,
      );
      expect(reply.refused, JSON.stringify(reply.refused)).to.equal(undefined);
      expect(reply.head.headers[0][1]).to.equal(header === 'authorization' ? `Bearer ${keys[provider]}` : keys[provider]);
      const sent = dec.decode(reply.body);
      for (const form of leakForms(secret)) expect(sent, 'a value of the prompt went to the provider').to.not.include(form);
      expect(sent).to.include(placeholders.secret).and.include('[redacted:GH_TOKEN]');
      const { list } = await page.request('list');
      expect(list.audit.find((e: { type: string }) => e.type === 'model')).to.deep.include({ name: `${provider}-key`, provider, exit: 'page', count: 1 });
    });
  }

  it("refuses one provider's key on another's endpoint, in every URL spelling the refusal reads", async () => {
    const { page, placeholders } = await setUp();
    const reason = `anthropic-key is a credential of anthropic, not of this endpoint`;
    for (const url of [
      'https://api.openai.com/v1/responses',
      'https://API.OpenAI.com//v1/responses',
      'https://api.openai.com/%76%31/responses',
      'https://api.openai.com/V1;x/responses',
      'https://api.openai.com./v2/responses',
    ]) {
      const reply = await forward(page, { url, headers: [['authorization', `Bearer ${placeholders.anthropic}`]] }, '{}');
      expect(reply.refused, url).to.deep.equal({ status: 403, reason });
    }
  });

  it('refuses a secret on a model endpoint as before, and beside a model key names it a secret', async () => {
    const { page, placeholders } = await setUp();
    const alone = await forward(page, { url: 'https://api.openai.com/v1/responses', headers: [['authorization', `Bearer ${placeholders.secret}`]] }, '{}');
    expect(alone.refused).to.deep.equal({ status: 403, reason: 'host is a model or MCP endpoint; the vault never injects there' });
    const beside = await forward(
      page,
      {
        url: 'https://api.openai.com/v1/responses',
        headers: [
          ['authorization', `Bearer ${placeholders.openai}`],
          ['x-extra', placeholders.secret!],
        ],
      },
      '{}',
    );
    expect(beside.refused).to.deep.equal({ status: 403, reason: 'secrets are never sent to model or MCP endpoints' });
  });

  it('needs the body of a model request, at most 32 MiB, and keeps the exit rules: a key outside authorization only on manual redirects', async () => {
    const { page, placeholders } = await setUp();
    const head = { url: 'https://api.anthropic.com/v1/messages', headers: [['x-api-key', placeholders.anthropic!]] as [string, string][] };
    expect((await forward(page, head)).refused.reason).to.equal('a model request needs its body: the vault scrubs it, and bios sends the scrubbed one');
    expect((await forward(page, head, new Uint8Array(32 * 1024 * 1024 + 1))).refused).to.deep.equal({
      status: 403,
      reason: 'body is larger than the limit of 33554432 bytes',
    });
    expect((await forward(page, head, '{}', { manualRedirects: false })).refused.reason).to.equal(
      'anthropic-key may go only in authorization on an exit that follows redirects',
    );
  });

  it('fills a model key in only the headers that carry one, and in one header once', async () => {
    const { page, placeholders } = await setUp();
    const url = 'https://api.openai.com/v1/chat/completions';
    for (const header of ['cookie', 'user-agent', 'x-forwarded-for', 'openai-organization']) {
      const reply = await forward(page, { url, headers: [[header, `Bearer ${placeholders.openai}`]] }, '{}');
      expect(reply.refused, header).to.deep.equal({ status: 403, reason: 'openai-key may go only in authorization, x-api-key, x-goog-api-key, api-key' });
    }
    const twice = await forward(
      page,
      {
        url,
        headers: [
          ['authorization', `Bearer ${placeholders.openai}`],
          ['x-api-key', placeholders.openai!],
        ],
      },
      '{}',
    );
    expect(twice.refused).to.deep.equal({ status: 403, reason: 'openai-key appears in more than one header' });
    const again = await forward(page, { url, headers: [['authorization', `Bearer ${placeholders.openai} ${placeholders.openai}`]] }, '{}');
    expect(again.refused).to.deep.equal({ status: 403, reason: 'openai-key appears twice in one header value' });
  });

  it('counts a busy agent in one model audit entry a record a minute', async () => {
    const clock = '/test/fixtures/clock-frame.html';
    const { page, placeholders } = await setUp(clock);
    const head = { url: 'https://api.openai.com/v1/chat/completions', headers: [['authorization', `Bearer ${placeholders.openai}`]] as [string, string][] };
    for (let i = 0; i < 5; i++) expect((await forward(page, head, '{}')).head).to.be.an('object');
    const models = async () => (await page.request('audit', { limit: 1000 })).audit.filter((e: { type: string }) => e.type === 'model');
    expect((await models()).map((e: { count: number }) => e.count)).to.deep.equal([5]);
    await advanceClock(page.frame!, 61_000);
    await forward(page, head, '{}');
    expect((await models()).map((e: { count: number }) => e.count)).to.deep.equal([1, 5]);
  });

  it('scrubs every value of the namespace out of generated prompt bodies, in every form and split anywhere (3 seeds of 20)', async () => {
    const { page, placeholders } = await setUp();
    const values = [canary('a'), `${canary('b')} with spaces ü 🔑`, canary('c')];
    for (const [i, value] of values.entries()) await page.request('put', { name: `V${i}`, value });
    const head = { url: 'https://api.anthropic.com/v1/messages', headers: [['x-api-key', placeholders.anthropic!]] as [string, string][] };
    for (const seed of [31, 32, 33]) {
      const random = prng(seed);
      for (let round = 0; round < 20; round++) {
        const parts: string[] = [];
        for (let n = 0; n < 12; n++) {
          const value = values[Math.floor(random() * values.length)]!;
          const forms = leakForms(value);
          parts.push('x'.repeat(Math.floor(random() * 40)), forms[Math.floor(random() * forms.length)]!, JSON.stringify(value).slice(1, -1));
        }
        const text = JSON.stringify({ messages: [{ role: 'user', content: parts.join(random() < 0.5 ? ' ' : '') }] });
        const body = random() < 0.5 ? text : enc.encode(text);
        const reply = await forward(page, head, body);
        const sent = dec.decode(reply.body);
        for (const value of values) for (const form of leakForms(value)) expect(sent.includes(form), `seed ${seed} round ${round}`).to.equal(false);
      }
    }
  });

  it("answers mcp with the credentials bound to a registered server's URL, narrowed by its names", async () => {
    const { page, agent } = await setUp();
    await page.request('put', { name: 'mcp:docs', value: canary('mcp'), kind: 'mcp', provider: 'https://mcp.example.com/' });
    await page.request('put', { name: 'mcp:other', value: canary('other'), kind: 'mcp', provider: 'https://elsewhere.example.com/' });
    expect((await agent.request('endpoints', { mcp: [{ server: 'docs', url: 'https://mcp.example.com/mcp', names: ['mcp:docs'] }] })).ok).to.equal(true);
    const reply = await agent.request('mcp', { server: 'docs' });
    expect(reply.server).to.equal('docs');
    expect(reply.credentials.map((c: { name: string }) => c.name)).to.deep.equal(['mcp:docs']);
    expect((await agent.request('mcp', { server: 'https://mcp.example.com/mcp' })).credentials).to.have.length(1);
    expect((await agent.request('mcp', { server: 'nope' })).error).to.deep.equal({
      code: 'ENOENT',
      message: 'no MCP server of that name or URL is registered',
    });
  });

  it("asks the person for a sign-in with grant, answered by the page's seal of its access token, not its refresh token", async () => {
    const { page, agent } = await setUp();
    const { request } = await agent.request('grant', { provider: 'github', scopes: ['repo', 'read:org'], account: 'me@example.com' });
    expect(request).to.be.a('string');
    const waiting = (await page.request('status')).status.waiting;
    expect(waiting).to.have.length(1);
    expect(waiting[0]).to.deep.include({
      id: request,
      kind: 'oauth',
      provider: 'github',
      agent: true,
      scopes: ['repo', 'read:org'],
      account: 'me@example.com',
    });
    expect((await agent.request('grant', { provider: 'github' })).error.code, 'a second pending sign-in of this port').to.equal('EAGAIN');
    await page.request('seal', { name: 'github:refresh', value: canary('refresh'), kind: 'grant', source: 'oauth:github' });
    expect((await agent.request('grant', { request })).state).to.equal('pending');
    const access = await page.request('seal', { name: 'GITHUB_TOKEN', value: canary('access'), kind: 'secret', source: 'oauth:github' });
    expect(await agent.request('grant', { request })).to.deep.include({ request, state: 'done', name: 'GITHUB_TOKEN', placeholder: access.placeholder });
    // Another, cancelled by the page.
    const second = (await agent.request('grant', { provider: 'gitlab' })).request;
    await page.request('cancel', { request: second });
    expect((await agent.request('grant', { request: second })).state).to.equal('cancelled');
    expect((await agent.request('grant', { request: 'not-a-request' })).error.code).to.equal('ENOENT');
  });

  it('lets a sign-in expire with the request lifetime', async () => {
    const clock = '/test/fixtures/clock-frame.html';
    const { page, agent } = await setUp(clock);
    const { request } = await agent.request('grant', { provider: 'github' });
    await advanceClock(page.frame!, 301_000);
    expect((await agent.request('grant', { request })).state).to.equal('expired');
  });

  it('asks the page to renew an expired sign-in with refresh: one request while it is pending, the refresh event, answered by a seal under the same name', async () => {
    const { page, agent } = await setUp();
    const old = await page.request('seal', {
      name: 'GITHUB_TOKEN',
      value: canary('old'),
      kind: 'secret',
      source: 'oauth:github',
      expiresAt: Date.now() + 10_000,
    });
    const since = page.events.length;
    const { request } = await agent.request('refresh', { name: 'GITHUB_TOKEN' });
    const event = await page.until((e) => e.op === 'refresh', since);
    expect(event).to.deep.equal({ v: 1, op: 'refresh', name: 'GITHUB_TOKEN', provider: 'github', request });
    for (let again = 0; again < 5; again++) {
      expect((await agent.request('refresh', { name: 'GITHUB_TOKEN' })).request, 'the same request while one is pending').to.equal(request);
    }
    expect((await page.request('status')).status.waiting.map((r: { kind: string }) => r.kind)).to.deep.equal(['refresh']);
    // The page's port is in order: every event of those refreshes came before the status reply.
    expect(
      page.events.slice(since).filter((e) => e.op === 'refresh'),
      'one refresh event for that request',
    ).to.have.length(1);
    const renewed = await page.request('seal', {
      name: 'GITHUB_TOKEN',
      value: canary('new'),
      kind: 'secret',
      source: 'oauth:github',
      expiresAt: Date.now() + 3_600_000,
    });
    expect(renewed.placeholder).to.equal(old.placeholder);
    expect(await agent.request('refresh', { request })).to.deep.include({ state: 'done', name: 'GITHUB_TOKEN', placeholder: old.placeholder });
    expect(await agent.request('refresh', { name: 'GITHUB_TOKEN' })).to.deep.include({ state: 'fresh' });
    expect((await agent.request('refresh', { name: 'GH_TOKEN' })).error).to.deep.equal({
      code: 'EINVAL',
      message: "GH_TOKEN is not a sign-in's value; only OAuth values are refreshed",
    });
    expect((await agent.request('refresh', { name: 'NOBODY' })).error.code).to.equal('ENOENT');
  });

  it('answers a forward of an expired sign-in "NAME expired; refreshing", and asks the page once a minute a record', async () => {
    const { page } = await setUp();
    await page.request('seal', {
      name: 'openai-oauth',
      value: key('sess-'),
      kind: 'model',
      provider: 'openai',
      source: 'oauth:openai',
      expiresAt: Date.now() - 1,
    });
    const placeholder = (await page.request('placeholders')).placeholders;
    const { list } = await page.request('list');
    const p = list.secrets.find((s: { name: string }) => s.name === 'openai-oauth').placeholder;
    expect(placeholder).to.include(p);
    const since = page.events.length;
    const head = { url: 'https://api.openai.com/v1/responses', headers: [['authorization', `Bearer ${p}`]] as [string, string][] };
    for (let i = 0; i < 3; i++) expect((await forward(page, head, '{}')).refused).to.deep.equal({ status: 403, reason: 'openai-oauth expired; refreshing' });
    await waitUntil(() => page.events.slice(since).some((e) => e.op === 'refresh'), 'no refresh event');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(page.events.slice(since).filter((e) => e.op === 'refresh')).to.have.length(1);
  });

  it('sends the page one refresh event a record a minute across three documents, however often forwards and agents ask', async () => {
    const clock = '/test/fixtures/clock-frame.html';
    const pages = [await welcomed({ path: clock }), await welcomed({ path: clock }), await welcomed({ path: clock })];
    const agents = await Promise.all(pages.map((page) => welcomed({ frame: page.frame, role: 'agent' })));
    const sealed = { value: key('sess-'), kind: 'model', provider: 'openai', source: 'oauth:openai', expiresAt: Date.now() - 1 };
    const { placeholder } = await pages[0]!.request('seal', { name: 'openai-oauth', ...sealed });
    await pages[0]!.request('seal', { name: 'GITHUB_TOKEN', value: canary('gh'), kind: 'secret', source: 'oauth:github', expiresAt: Date.now() - 1 });
    const head = { url: 'https://api.openai.com/v1/responses', headers: [['authorization', `Bearer ${placeholder}`]] as [string, string][] };
    const since = pages.map((page) => page.events.length);
    const refreshes = (page: VaultClient, i: number, name: string) =>
      page.events.slice(since[i]).filter((e): e is Extract<VaultEvent, { op: 'refresh' }> => e.op === 'refresh' && e.name === name);
    /** Every document forwards the expired value and its agent refreshes both records, all at once; then each puts a marker. */
    const wave = async (n: number) => {
      const asked = pages.flatMap((page, i) =>
        Array.from({ length: 4 }, () => [
          forward(page, head, '{}').then((reply) => {
            expect(reply.refused).to.deep.equal({ status: 403, reason: 'openai-oauth expired; refreshing' });
          }),
          agents[i]!.request('refresh', { name: 'openai-oauth' }),
          agents[i]!.request('refresh', { name: 'GITHUB_TOKEN' }),
        ]).flat(),
      );
      const replies = (await Promise.all(asked)).filter((r): r is { request: string } => r !== undefined);
      // A document's asks go on the bus before its marker's write, so once every page has every
      // marker's placeholder, every refresh event asked for in this wave has reached it.
      const markers = await Promise.all(pages.map((page, i) => page.request('put', { name: `MARK_${n}_${i}`, value: canary('mark') })));
      for (const page of pages) {
        await waitUntil(
          () => markers.every((m) => page.events.some((e) => e.op === 'placeholders' && e.placeholders.includes(m.placeholder))),
          'a page missed a marker',
        );
      }
      return replies;
    };
    const first = await wave(1);
    const requests = (name: string) => new Set(pages.flatMap((page, i) => refreshes(page, i, name).map((e) => e.request)));
    for (const [i, page] of pages.entries()) {
      expect(refreshes(page, i, 'openai-oauth'), `page ${i}: forwards and agents ask for one record`).to.have.length(1);
      expect(refreshes(page, i, 'GITHUB_TOKEN'), `page ${i}: agents ask for another`).to.have.length(1);
    }
    expect(requests('openai-oauth').size).to.equal(1);
    expect(new Set(first.map((r) => r.request))).to.deep.equal(new Set([...requests('openai-oauth'), ...requests('GITHUB_TOKEN')]));
    // A minute later (each document's clock), the same pending requests are asked for once again.
    for (const page of pages) await advanceClock(page.frame!, 61_000);
    await wave(2);
    for (const [i, page] of pages.entries()) {
      expect(refreshes(page, i, 'openai-oauth'), `page ${i}, a minute later`).to.have.length(2);
      expect(refreshes(page, i, 'GITHUB_TOKEN'), `page ${i}, a minute later`).to.have.length(2);
    }
    expect(requests('openai-oauth').size, 'still the one pending request').to.equal(1);
    expect(requests('GITHUB_TOKEN').size).to.equal(1);
  });

  it('never carries a value on the agent port', async () => {
    const { agent, page } = await setUp();
    await agent.request('records');
    await agent.request('model', { provider: 'anthropic' });
    await agent.request('grant', { provider: 'github' });
    void page;
    const agentMessages = crossed.filter((m) => agent.replies.includes(m));
    expect(findCanaries(agentMessages)).to.deep.equal([]);
  });
});
