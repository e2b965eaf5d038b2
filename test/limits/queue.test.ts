// An agent port's queue (README, Limits), on the real Gateway over a real MessageChannel with a
// stand-in vault whose scrubber answers when the test says so: what waits is then exact.
import { expect } from '@open-wc/testing';
import { Gateway } from '../../src/gateway/index.ts';
import { MAX_QUEUED_BYTES, MAX_QUEUED_REQUESTS } from '../../src/limits.ts';
import { compileScrubber } from '../../src/scrub/index.ts';
import type { Vault } from '../../src/core/index.ts';

const ORIGIN = 'https://seven.sliccy.ai';
const FULL = { code: 'EAGAIN', message: 'at most 64 requests and 128 MiB may wait on an agent port; wait for replies' };

/** A gateway whose scrubber is held until `release()`; answers the agent's port. */
async function heldAgent() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const scrubber = compileScrubber([{ name: 'K', placeholder: 'fnox_proxy_000000000000000000000001', value: 'a-secret-value' }]);
  const vault = {
    onChange: () => () => {},
    reads: {
      fresh: async () => {},
      status: async () => ({ locked: false, lock: null, waiting: [], backupReminder: null }),
      welcome: async () => ({ locked: false, lock: null, waiting: [], backupReminder: null }),
      scrubber: async () => {
        await held;
        return { version: 1, scrubber };
      },
    },
  } as unknown as Vault;
  const parent = {};
  const win = { parent, location: { ancestorOrigins: [ORIGIN] } } as unknown as Window;
  const gateway = new Gateway(vault, [ORIGIN], win);
  const { port1, port2 } = new MessageChannel();
  const replies: any[] = [];
  const waiters: ((reply: any) => void)[] = [];
  port1.onmessage = ({ data }) => {
    replies.push(data);
    for (const w of waiters.splice(0)) w(data);
  };
  // The gateway's end of the port, counting what the gateway received, so the test can wait for it.
  let received = 0;
  const delivered: (() => void)[] = [];
  const gatewayEnd = {
    postMessage: (message: unknown) => port2.postMessage(message),
    close: () => port2.close(),
    set onmessage(handler: (event: MessageEvent) => void) {
      port2.onmessage = (event) => {
        received++;
        handler(event);
        for (const d of delivered.splice(0)) d();
      };
    },
  };
  await gateway.hello({
    data: { type: 'slicc-vault', v: 1, op: 'hello', role: 'agent' },
    source: parent,
    origin: ORIGIN,
    ports: [gatewayEnd],
  } as unknown as MessageEvent);
  let id = 0;
  const send = (fields: object) => port1.postMessage({ v: 1, id: ++id, op: 'redact', ...fields });
  const until = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (replies.length >= n ? resolve() : waiters.push(check));
      check();
    });
  /** Resolves once the gateway received every request sent. */
  const settled = () =>
    new Promise<void>((resolve) => {
      const check = () => (received >= id ? resolve() : delivered.push(check));
      check();
    });
  return { send, replies, until, release, settled, close: () => port1.close() };
}

describe("an agent port's queue", () => {
  it('holds 64 requests; the 65th and 66th are EAGAIN, answered in their turn, and nothing else changes', async () => {
    const agent = await heldAgent();
    for (let i = 0; i < MAX_QUEUED_REQUESTS + 2; i++) agent.send({ texts: [`text ${i} a-secret-value`] });
    await agent.settled();
    expect(agent.replies.slice(1)).to.deep.equal([], 'nothing is answered while the first is held');
    agent.release();
    await agent.until(1 + MAX_QUEUED_REQUESTS + 2);
    const replies = agent.replies.slice(1);
    expect(replies.map((r) => r.id)).to.deep.equal(Array.from({ length: MAX_QUEUED_REQUESTS + 2 }, (_, i) => i + 1));
    for (const [i, r] of replies.entries()) {
      if (i < MAX_QUEUED_REQUESTS) expect(r.texts).to.deep.equal([`text ${i} fnox_proxy_000000000000000000000001`]);
      else expect(r.error).to.deep.equal(FULL);
    }
    // Drained, it takes requests again.
    agent.send({ texts: ['again'] });
    await agent.until(1 + MAX_QUEUED_REQUESTS + 3);
    expect(agent.replies.at(-1).texts).to.deep.equal(['again']);
    agent.close();
  });

  it('holds 128 MiB of texts; a request that would pass it is EAGAIN', async function () {
    // 128 MiB through a port and the scrubber: seconds on a shared machine.
    this.timeout(60_000);
    const agent = await heldAgent();
    // Its op name (`redact`, 12 bytes) and its field names and index (`v` `id` `op` `texts` `0`, 22 bytes) count too:
    // two such requests fill the 128 MiB exactly.
    const half = new Uint8Array(MAX_QUEUED_BYTES / 2 - 34);
    agent.send({ texts: [half] });
    agent.send({ texts: [half] });
    agent.send({ texts: [] });
    await agent.settled();
    agent.release();
    await agent.until(4);
    const [, a, b, c] = agent.replies;
    expect(a.error).to.equal(undefined);
    expect(b.error).to.equal(undefined);
    expect(c.error).to.deep.equal(FULL);
    agent.close();
  });

  it("counts a request it can't measure whole as the whole queue's room: EAGAIN behind another, whatever its op", async () => {
    const agent = await heldAgent();
    agent.send({ texts: ['held'] });
    const big = 'a'.repeat(1024);
    // Deeper than any op's fields, more entries than any op takes, a Map: each hides a string.
    agent.send({ texts: [], x: { y: { z: { w: [big] } } } });
    agent.send({ texts: [...Array.from({ length: 1 << 17 }, () => ''), big] });
    agent.send({ texts: [], m: new Map([[1, big]]) });
    await agent.settled();
    agent.release();
    await agent.until(5);
    const [, held, ...unmeasured] = agent.replies;
    expect(held.texts).to.deep.equal(['held']);
    for (const r of unmeasured) expect(r.error).to.deep.equal(FULL);
    // Alone, it waits behind nothing: its op answers it (this stand-in vault can't, so with its own error).
    agent.send({ texts: [], m: new Map([[1, big]]) });
    await agent.until(6);
    expect(agent.replies.at(-1).error).to.not.deep.equal(FULL);
    agent.close();
  });

  it("counts an array's named properties and every field's name: past the room behind another, EAGAIN", async function () {
    this.timeout(60_000);
    const agent = await heldAgent();
    agent.send({ texts: ['held'] });
    // Each 64 Mi characters: 128 MiB as it waits.
    const huge = 'x'.repeat(MAX_QUEUED_BYTES / 2);
    agent.send({ texts: Object.assign(['a'], { pad: huge }) });
    agent.send({ texts: [], [huge]: 0 });
    await agent.settled();
    agent.release();
    await agent.until(4);
    const [, held, named, name] = agent.replies;
    expect(held.texts).to.deep.equal(['held']);
    expect(named.error).to.deep.equal(FULL);
    expect(name.error).to.deep.equal(FULL);
    agent.close();
  });

  it('counts a view by the whole buffer it came with, once: a 1-byte view of a 128 MiB buffer is EAGAIN', async function () {
    this.timeout(60_000);
    const agent = await heldAgent();
    const shared = new ArrayBuffer(64 * 1024);
    // Sixteen views of one 64 KiB buffer count it once.
    agent.send({ texts: Array.from({ length: 16 }, (_, i) => new Uint8Array(shared, i * 4096, 4096)) });
    agent.send({ texts: [new Uint8Array(new ArrayBuffer(MAX_QUEUED_BYTES), 0, 1)] });
    agent.send({ texts: ['a'] });
    await agent.settled();
    agent.release();
    await agent.until(4);
    const [, views, wide, small] = agent.replies;
    expect(views.error).to.equal(undefined);
    expect(wide.error).to.deep.equal(FULL);
    expect(small.error).to.equal(undefined);
    agent.close();
  });
});
