// The newer ops at their limits hold the main thread (the frame's, which is also the embedder's)
// at most 50 ms longer than a bare echo of the same message does (README, Limits): `/dev/sealed`
// JSON text of 1 MiB shaped to cost the most, the agent's `model` over 10,000 model records, and
// a model request's 32 MiB prompt body through `forward`. A real vault and gateway in this page,
// on real IndexedDB, with a heartbeat beside them, as test/agent/pushes.test.ts measures.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { MAX_BODY_BYTES, MAX_RECORDS, MAX_REQ_TEXT } from '../../src/limits.ts';
import { Vault } from '../../src/core/index.ts';
import { Gateway } from '../../src/gateway/index.ts';
import { Records, openVaultDb } from '../../src/store/index.ts';
import { helloPort } from '../helpers/gateway.ts';
import { besideBaseline } from '../helpers/heartbeat.ts';

const NS = 'https://seven.sliccy.ai';
const config = { name: 'test', passphraseIterations: 600_000, requestLifetimeMs: 300_000 };
const user = { pid: 4242, ppid: 1, uid: 1000, gid: 1000, tag: 'bounds' };
const BOUND_MS = 50;

type Asker = (op: string, fields?: Record<string, unknown>, transfer?: Transferable[]) => Promise<any>;

/** A port's requests as promises of their replies (the embedder's end of a port said hello on). */
function asker(port: MessagePort): Asker {
  const waiting = new Map<number, (reply: unknown) => void>();
  port.onmessage = ({ data }) => {
    if (typeof data?.id !== 'number') return;
    waiting.get(data.id)?.(data);
    waiting.delete(data.id);
  };
  let id = 0;
  return (op, fields = {}, transfer = []) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      port.postMessage({ v: 1, id, op, ...fields }, transfer);
    });
}

/** A bare echo port of this page: every message comes back whole, its buffers transferred. */
function echoPort() {
  const channel = new MessageChannel();
  channel.port2.onmessage = ({ data }) => channel.port2.postMessage(data, data.body instanceof Uint8Array ? [data.body.buffer] : []);
  const ask = asker(channel.port1);
  return { ask, close: () => channel.port1.close() };
}

async function withVault(run: (parts: { vault: Vault; db: Awaited<ReturnType<typeof openVaultDb>>; page: Asker; agent: Asker }) => Promise<void>) {
  const dbName = `op-bounds-${crypto.randomUUID()}`;
  const db = await openVaultDb(dbName);
  const vault = await Vault.open({ db, config });
  try {
    const parent = {};
    const gateway = new Gateway(vault, [NS], { parent, location: { ancestorOrigins: undefined } } as unknown as Window);
    const page = asker((await helloPort(gateway, parent, NS, 'page')).port);
    const agent = asker((await helloPort(gateway, parent, NS, 'agent')).port);
    await run({ vault, db, page, agent });
  } finally {
    vault.close();
    db.close();
    await deleteDB(dbName);
  }
}

/** What the op adds to the longest wait beside the echo of the same message, best of up to five pairs. */
async function added(work: () => Promise<unknown>, echo: () => Promise<unknown>, what: string) {
  const beat = await besideBaseline(work, echo, { bound: BOUND_MS });
  const message = `${what}: the heartbeat waited ${beat.longest.toFixed(0)} ms at most in ${beat.ms.toFixed(0)} ms, ${beat.baseline.toFixed(0)} ms beside the echo`;
  console.log(message);
  return { excess: beat.longest - beat.baseline, message };
}

/** JSON text of at most `MAX_REQ_TEXT` characters: `head`, then `unit` as often as fits, then `tail`. */
function filled(head: string, unit: (i: number) => string, tail: string) {
  const parts = [head];
  let length = head.length + tail.length;
  for (let i = 0; ; i++) {
    const u = `${i ? ',' : ''}${unit(i)}`;
    if (length + u.length > MAX_REQ_TEXT) break;
    parts.push(u);
    length += u.length;
  }
  return parts.join('') + tail;
}

describe('the newer ops at their limits', function () {
  this.timeout(300_000);

  it('a /dev/sealed request as 1 MiB of JSON text, however it is shaped, adds under 50 ms to the longest wait beside an echo of it (not in WebKit: 10,000 records and MiB-sized messages over its WebDriver run past the five minutes a file has)', async () => {
    // The shapes that cost a reader most: many distinct keys in one object, many small objects,
    // keys spelled with escapes, many empty objects and arrays.
    const shapes: Record<string, string> = {
      'distinct keys': filled('{"op":"list","x":{', (i) => `"k${i.toString(36)}":0`, '}}'),
      'small objects': filled('{"op":"list","x":[', () => '{"a":0}', ']}'),
      'escaped keys': filled('{"op":"list","x":{', (i) => `"\\u006b${i.toString(36)}":0`, '}}'),
      'empty objects': filled('{"op":"list","x":[', () => '{}', ']}'),
      'empty arrays': filled('{"op":"list","x":[', () => '[]', ']}'),
      deep: `{"op":"list","x":${'['.repeat(MAX_REQ_TEXT / 2 - 10)}${']'.repeat(MAX_REQ_TEXT / 2 - 10)}}`,
    };
    await withVault(async ({ page }) => {
      const echo = echoPort();
      const over = [];
      for (const [name, text] of Object.entries(shapes)) {
        expect(text.length).to.be.at.most(MAX_REQ_TEXT);
        let reply: any;
        const { excess, message } = await added(
          async () => void (reply = await page('sealed', { req: text, stamp: user })),
          () => echo.ask('sealed', { req: text, stamp: user }),
          name,
        );
        expect(reply.reply?.error?.code, name).to.equal('EINVAL');
        if (excess >= BOUND_MS) over.push(message);
      }
      echo.close();
      expect(over).to.deep.equal([]);
    });
  });

  it("the agent's model op over 10,000 model records adds under 50 ms to the longest wait beside an echo of it (not in WebKit: 10,000 records and MiB-sized messages over its WebDriver run past the five minutes a file has)", async () => {
    await withVault(async ({ vault, db, page, agent }) => {
      // The vault's key exists once a record is written; the rest are written in one import.
      expect((await page('put', { name: 'FIRST', value: 'a-first-value-0123' })).error).to.equal(undefined);
      const base = (i: number) => `https://m${i}.models.example/v1`;
      const writes = Array.from({ length: MAX_RECORDS - 1 }, (_, i) => ({
        name: `MODEL_${String(i).padStart(5, '0')}`,
        kind: 'model' as const,
        value: `model-key-${i}-${crypto.randomUUID()}`,
        placeholder: `fnox_proxy_${(i + 1).toString(16).padStart(24, '0')}`,
        // Half bound to a base URL, half to a provider id: both are read.
        provider: i % 2 === 0 ? base(i) : `provider-${i}`,
      }));
      const n = writes.length;
      await new Records(db).import(NS, vault.keys.key!, writes, { source: 'import:dotenv', count: n, added: n, replaced: 0, skipped: 0 });
      const last = writes.at(-1)!;
      // The first answer (the import read in, the scrubber compiled) isn't timed.
      const want = { name: last.name, placeholder: last.placeholder, provider: last.provider, baseUrls: [`${last.provider}`] };
      const first = await agent('model', { provider: last.provider });
      expect(first, JSON.stringify(first).slice(0, 300)).to.deep.include(want);
      const echo = echoPort();
      const over = [];
      // Spelled as written, spelled another way the URL parser reads the same, and none.
      for (const provider of [last.provider, last.provider.replace('https://', 'HTTPS://'), 'https://nowhere.example/v1']) {
        let reply: any;
        const { excess, message } = await added(
          async () => void (reply = await agent('model', { provider })),
          () => echo.ask('model', { provider }),
          provider,
        );
        expect(reply.name ?? reply.error.code, provider).to.equal(provider.includes('nowhere') ? 'ENOENT' : last.name);
        if (excess >= BOUND_MS) over.push(message);
      }
      echo.close();
      expect(over).to.deep.equal([]);
    });
  });

  it('a forward over 10,000 model and MCP records bound to URLs adds under 50 ms to the longest wait beside an echo of it (not in WebKit: 10,000 records and MiB-sized messages over its WebDriver run past the five minutes a file has)', async () => {
    await withVault(async ({ vault, db, page }) => {
      expect((await page('put', { name: 'FIRST', value: 'a-first-value-0123' })).error).to.equal(undefined);
      // Each bound to a base URL or a server of its own: whether a URL is a model or MCP request was
      // decided by parsing every record's URL, on every forward.
      const writes = Array.from({ length: MAX_RECORDS - 1 }, (_, i) => ({
        name: `BOUND_${String(i).padStart(5, '0')}`,
        kind: i % 2 === 0 ? ('model' as const) : ('mcp' as const),
        value: `bound-key-${i}-${crypto.randomUUID()}`,
        placeholder: `fnox_proxy_${(i + 1).toString(16).padStart(24, '0')}`,
        provider: i % 2 === 0 ? `https://m${i}.models.example/v1` : `https://mcp${i}.tools.example/mcp`,
      }));
      const n = writes.length;
      await new Records(db).import(NS, vault.keys.key!, writes, { source: 'import:dotenv', count: n, added: n, replaced: 0, skipped: 0 });
      const fields = (url: string) => ({ head: { method: 'GET', url, headers: [['accept', 'application/json']] }, owner: user, exit: 'page', rawTraits: {} });
      const forward = (url: string) => {
        const response = new MessageChannel();
        return page('forward', fields(url), [response.port2]).finally(() => response.port1.close());
      };
      // The first forward (the records read in, the scrubber compiled) isn't timed.
      expect((await forward('https://api.example.com/v1/items')).error).to.equal(undefined);
      const echo = echoPort();
      const over = [];
      // A URL no record is bound to (every binding looked at), and one under the last model record's. (A
      // request under a bound MCP server is audited, and the audit's `changed` event lists every record.)
      for (const url of ['https://api.example.com/v1/items', `https://m${n - 1 - ((n - 1) % 2)}.models.example/v1/chat`]) {
        let reply: any;
        const { excess, message } = await added(
          async () => void (reply = await forward(url)),
          () => echo.ask('forward', fields(url)),
          url,
        );
        // A model request without its key is refused; the other goes out as it is.
        if (url.includes('models.example')) expect(JSON.stringify(reply), url).to.include('model or MCP endpoint');
        else expect(reply.error, url).to.equal(undefined);
        if (excess >= BOUND_MS) over.push(message);
      }
      echo.close();
      expect(over).to.deep.equal([]);
    });
  });

  it('a model request with a 32 MiB prompt body through forward adds under 50 ms to the longest wait beside an echo of it (not in WebKit: 10,000 records and MiB-sized messages over its WebDriver run past the five minutes a file has)', async () => {
    await withVault(async ({ page }) => {
      const value = `sk-ant-api03-${crypto.randomUUID()}`;
      const { placeholder } = await page('put', { name: 'anthropic-key', value, kind: 'model', provider: 'anthropic' });
      const secret = `a-secret-${crypto.randomUUID()}`;
      await page('put', { name: 'GH_TOKEN', value: secret });
      // A prompt as pi-ai writes it, the secret in it now and then, at the body's limit.
      const line = `{"role":"user","content":"line of a long prompt é \\n with ${secret} in it"},`;
      const head = '{"model":"a-model","messages":[';
      const lines = Math.floor((MAX_BODY_BYTES - head.length - 4) / new TextEncoder().encode(line).length);
      const body = `${head}${line.repeat(lines)}{}]}`;
      expect(new TextEncoder().encode(body).length).to.be.within(MAX_BODY_BYTES - line.length * 2, MAX_BODY_BYTES);
      // As a string (measured, then encoded in slices) and as bytes bios transfers (the echo moves them back).
      const bytes = new TextEncoder().encode(body);
      const fields = (asBytes: boolean) => ({
        head: { method: 'POST', url: 'https://api.anthropic.com/v1/messages', headers: [['x-api-key', placeholder]] },
        body: asBytes ? bytes.slice() : body,
        owner: user,
        exit: 'page',
        rawTraits: { manualRedirects: true },
      });
      const transfer = (f: ReturnType<typeof fields>) => (f.body instanceof Uint8Array ? [f.body.buffer] : []);
      const forward = (asBytes: boolean) => {
        const response = new MessageChannel();
        const f = fields(asBytes);
        return page('forward', f, [response.port2, ...transfer(f)]).finally(() => response.port1.close());
      };
      // The first forward (the scrubber compiled) isn't timed.
      expect((await forward(false)).body?.byteLength).to.be.above(0);
      const echo = echoPort();
      const over = [];
      for (const asBytes of [false, true]) {
        let reply: any;
        let f = fields(asBytes);
        const { excess, message } = await added(
          async () => void (reply = await forward(asBytes)),
          async () => {
            f = fields(asBytes);
            await echo.ask('forward', f, transfer(f));
          },
          `32 MiB prompt as ${asBytes ? 'bytes' : 'a string'}`,
        );
        expect(reply.head?.headers, JSON.stringify(reply).slice(0, 300)).to.deep.equal([['x-api-key', value]]);
        const sent = new TextDecoder().decode(reply.body);
        expect(sent.includes(secret)).to.equal(false);
        if (excess >= BOUND_MS) over.push(message);
      }
      echo.close();
      expect(over).to.deep.equal([]);
    });
  });
});
