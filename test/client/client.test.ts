// The embedder's client (README, Embed it in your own page; docs/embedding.md) against the real vault
// in every engine: connect and its bounded wait, typed requests and errors, events, forward with the
// upstream's response relayed back scrubbed as a `Response`, the agent's port in a worker's hands.
import { expect, waitUntil } from '@open-wc/testing';
import { VaultAgent, VaultError, connect, type Vault } from '../../src/client/index.ts';
import type { Stamp } from '../../src/contract.ts';
import { FNOX, attest, fnoxConfig } from '../helpers/attest.ts';
import { origins } from '../helpers/origins.ts';
import { canary, resetVault } from '../helpers/vault.ts';

const owner: Stamp = { pid: 77, ppid: 1, uid: 1000, gid: 1000, tag: 'gh' };
const enc = new TextEncoder();
const b64 = (s: string) => btoa(String.fromCharCode(...enc.encode(s)));

describe('the client', () => {
  let vault: Vault | null = null;
  beforeEach(resetVault);
  afterEach(() => {
    vault?.close();
    vault = null;
  });

  it('connects: the hidden frame, its welcome and the status; requests answer typed, and the placeholders event comes before the reply', async () => {
    vault = await connect({ vault: origins.vault });
    expect(vault.welcome.role).to.equal('page');
    expect(vault.status.origin).to.equal(origins.embedder);
    expect(vault.frame.hidden).to.equal(true);
    const seen: string[] = [];
    vault.on('placeholders', (event) => seen.push(`event ${event.placeholders.length}`));
    const reply = await vault.request('put', { name: 'API_TOKEN', value: canary('client') });
    seen.push('reply');
    expect(reply.placeholder).to.match(/^fnox_proxy_[0-9a-f]{24}$/);
    expect(seen).to.deep.equal(['event 1', 'reply']);
    expect((await vault.request('status')).status.locked).to.equal(false);
  });

  it("rejects an op's error as a VaultError with the vault's code, and a closed client's pending request with ECLOSED", async () => {
    vault = await connect({ vault: origins.vault });
    const error = await vault.request('remove', { name: 'NOT_THERE' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(VaultError);
    expect((error as VaultError).code).to.equal('ENOENT');
    const pending = vault.request('list').catch((e: unknown) => e);
    vault.close();
    const closed = await pending;
    expect(closed instanceof VaultError && closed.code).to.equal('ECLOSED');
    vault = null;
  });

  it("says why when the vault never answers: ETIMEDOUT naming embedders.json and this page's origin, and its frame gone", async () => {
    const before = document.querySelectorAll('iframe').length;
    // This vault's embedders.json is malformed: its frame answers nobody, as for an origin it doesn't allow.
    const error = await connect({ vault: origins.broken, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(VaultError);
    expect((error as VaultError).code).to.equal('ETIMEDOUT');
    expect((error as VaultError).message)
      .to.contain('embedders.json')
      .and.contain(origins.embedder);
    expect(document.querySelectorAll('iframe').length).to.equal(before);
  });

  it('forwards: the head filled in, and the upstream response relayed through the vault comes back a scrubbed Response, streamed', async () => {
    vault = await connect({ vault: origins.vault });
    const value = `ghp_${crypto.randomUUID().replaceAll('-', '')}`;
    const { placeholder } = await vault.request('put', { name: 'GH_TOKEN', value });
    await vault.request('policy', { files: [await attest(FNOX, fnoxConfig([['GH_TOKEN', placeholder, 'api.github.com', 'paths = ["/repos/**"]\n']]))] });
    const head = { method: 'GET', url: 'https://api.github.com/repos/a/b', headers: [['authorization', `Bearer ${placeholder}`]] as [string, string][] };
    const forwarded = await vault.forward({ head, owner, exit: 'page', rawTraits: { manualRedirects: true } });
    if ('refused' in forwarded) throw new Error(forwarded.refused.reason);
    expect(forwarded.head.headers).to.deep.equal([['authorization', `Bearer ${value}`]]);

    // What an upstream that echoes the request would answer, in several chunks.
    const text = JSON.stringify({ token: value, encoded: b64(value), tail: 'x'.repeat(70_000) });
    const upstream = new Response(
      new ReadableStream({
        start(controller) {
          for (let at = 0; at < text.length; at += 9_000) controller.enqueue(enc.encode(text.slice(at, at + 9_000)));
          controller.close();
        },
      }),
      { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json', 'x-echo': value } },
    );
    const response = await forwarded.relay(upstream);
    expect(response.status).to.equal(201);
    expect(response.statusText).to.equal('Created');
    expect(response.url).to.equal(head.url);
    expect(response.headers.get('x-echo')).to.equal(placeholder);
    const body = await response.json();
    expect(body).to.deep.equal({ token: placeholder, encoded: '[redacted:GH_TOKEN]', tail: 'x'.repeat(70_000) });
  });

  it('returns a refusal as { refused }, not an error', async () => {
    vault = await connect({ vault: origins.vault });
    const { placeholder } = await vault.request('put', { name: 'GH_TOKEN', value: canary('refused') });
    const head = { method: 'GET', url: 'https://evil.example/', headers: [['authorization', `Bearer ${placeholder}`]] as [string, string][] };
    const forwarded = await vault.forward({ head, owner, exit: 'page', rawTraits: { manualRedirects: true } });
    expect('refused' in forwarded && forwarded.refused.status).to.equal(403);
  });

  it("hands an agent port that a VaultAgent drives: the agent's ops answer, a page op is EACCES", async () => {
    vault = await connect({ vault: origins.vault });
    const value = canary('agent');
    const { placeholder } = await vault.request('put', { name: 'API_TOKEN', value });
    const agent = new VaultAgent(await vault.agentPort());
    await waitUntil(async () => (await agent.request('records', {})).records.length === 1, 'the agent sees the record');
    const redacted = await agent.request('redact', { texts: [`the key is ${value}`] });
    expect(redacted.texts).to.deep.equal([`the key is ${placeholder}`]);
    const refused = await (agent as unknown as { request(op: string, fields: object): Promise<unknown> }).request('list', {}).catch((e: unknown) => e);
    expect(refused instanceof VaultError && refused.code).to.equal('EACCES');
    agent.close();
  });
});
