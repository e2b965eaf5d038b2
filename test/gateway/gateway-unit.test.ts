// The gateway built directly, in this page, over a vault stand-in: its queue, its roles and what a
// throwing op does to the port. No frame: each behaviour is the gateway's own.
import { expect, waitUntil } from '@open-wc/testing';
import { CHANGED_EVERY_MS } from '../../src/contract.ts';
import { Gateway } from '../../src/gateway/index.ts';
import type { Vault } from '../../src/core/index.ts';
import { helloPort } from '../helpers/gateway.ts';

/** A notice between documents can take over waitUntil's default second on a loaded machine. */
const LOADED = { timeout: 5000 };

const ORIGIN = 'https://seven.sliccy.ai';
const status = { version: 'x', protocol: 1, origin: ORIGIN, locked: false, lock: null, waiting: [] };

/** A vault stand-in whose ops can be made slow or throwing. */
function standIn(overrides: Record<string, (...args: any[]) => unknown> = {}) {
  const reads = {
    status: async () => status,
    // As before a namespace's load is done: `status` goes the way that waits.
    statusNow: () => undefined,
    welcome: async () => status,
    newestScrubber: async () => undefined,
    placeholders: async () => ({ placeholders: [], scrub: { needed: false, version: 0, ready: true } }),
    ...overrides,
  };
  return { onChange: overrides.onChange ?? (() => () => {}), reads, writes: overrides } as unknown as Vault;
}

/** Says hello to the gateway as the parent page at ORIGIN and answers the embedder's end of the port. */
async function connect(gateway: Gateway, parent: object, role: 'page' | 'agent' = 'page') {
  const { port, messages } = await helloPort(gateway, parent, ORIGIN, role);
  let id = 0;
  return {
    messages,
    send(op: string, fields: object = {}) {
      port.postMessage({ v: 1, id: ++id, op, ...fields });
      return id;
    },
    async reply(of: number) {
      await waitUntil(() => messages.some((m) => m.id === of), `no reply to request ${of}`, LOADED);
      return messages.find((m) => m.id === of);
    },
  };
}

describe('the gateway, built directly', () => {
  const parent = {};
  const win = { parent, location: { ancestorOrigins: undefined } } as unknown as Window;

  it('answers each port in order, even when an earlier op is slow', async () => {
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const gateway = new Gateway(
      standIn({
        placeholders: async () => {
          await slow;
          return { placeholders: ['slow'], scrub: {} };
        },
      }),
      [ORIGIN],
      win,
    );
    const port = await connect(gateway, parent);
    const first = port.send('placeholders');
    const second = port.send('status');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(
      port.messages.some((m) => m.id === second),
      'status answered before the slow op',
    ).to.equal(false);
    release();
    await port.reply(second);
    expect(port.messages.filter((m) => m.id).map((m) => m.id)).to.deep.equal([first, second]);
  });

  it('refuses page ops on an agent port and agent ops on a page port', async () => {
    const gateway = new Gateway(standIn(), [ORIGIN], win);
    const agent = await connect(gateway, parent, 'agent');
    expect((await agent.reply(agent.send('status'))).error.code).to.equal('EACCES');
    const page = await connect(gateway, parent, 'page');
    expect((await page.reply(page.send('redact', { texts: [] }))).error.code).to.equal('ENOTSUP');
  });

  it('answers a throwing op with an error reply and runs the next request', async () => {
    let calls = 0;
    const gateway = new Gateway(
      standIn({
        status: async () => {
          calls += 1;
          if (calls === 1) throw new TypeError('a bug, with words that must not reach the page');
          return status;
        },
      }),
      [ORIGIN],
      win,
    );
    const port = await connect(gateway, parent);
    const broken = await port.reply(port.send('status'));
    expect(broken.error).to.deep.equal({ code: 'EAGAIN', message: 'the vault could not complete the request; try again' });
    expect((await port.reply(port.send('status'))).status.origin).to.equal(ORIGIN);
  });

  it('answers a reply that cannot be posted with an error reply and runs the next request', async () => {
    const gateway = new Gateway(standIn({ placeholders: async () => ({ placeholders: [() => 'not cloneable'] }) }), [ORIGIN], win);
    const port = await connect(gateway, parent);
    expect((await port.reply(port.send('placeholders'))).error.code).to.equal('EAGAIN');
    expect((await port.reply(port.send('status'))).status.origin).to.equal(ORIGIN);
  });

  it('pushes a burst of changes as one changed at once and one with the last state at the end of the window', async () => {
    let notify: (namespace: string | null, changes: string[]) => unknown = () => {};
    let audit = 0;
    const gateway = new Gateway(
      standIn({
        onChange: (listener: typeof notify) => {
          notify = listener;
          return () => {};
        },
        changed: async () => ({ secrets: [], exits: { secrets: [] }, audit: [{ seq: audit }] }),
      }),
      [ORIGIN],
      win,
    );
    const port = await connect(gateway, parent);
    const changedSeqs = () => port.messages.filter((m) => m.op === 'changed').map((m) => m.audit[0].seq);
    const start = performance.now();
    for (audit = 1; audit <= 5; audit++) await notify(ORIGIN, ['audit']);
    audit = 5;
    await waitUntil(() => changedSeqs().length === 2, 'no changed after the window', LOADED);
    expect(performance.now() - start).to.be.at.least(CHANGED_EVERY_MS - 1);
    expect(changedSeqs()).to.deep.equal([1, 5]);
    // Past the window the next change goes out again.
    await new Promise((resolve) => setTimeout(resolve, CHANGED_EVERY_MS + 20));
    audit = 6;
    await notify(ORIGIN, ['audit']);
    await waitUntil(() => changedSeqs().length === 3, 'no changed after the window passed', LOADED);
    expect(changedSeqs()).to.deep.equal([1, 5, 6]);
  });

  it('names the wrong field of a request before the vault sees it', async () => {
    let reached = false;
    const gateway = new Gateway(standIn({ remove: async () => (reached = true) }), [ORIGIN], win);
    const port = await connect(gateway, parent);
    expect((await port.reply(port.send('remove', { name: 42 }))).error).to.deep.equal({ code: 'EINVAL', message: 'name must be a string' });
    expect((await port.reply(port.send('remove', { name: 'A', extra: 1 }))).error.message).to.equal('remove has no field extra');
    expect((await port.reply(port.send('status', { '': 1 }))).error).to.deep.equal({ code: 'EINVAL', message: 'status has no field ""' });
    expect(reached).to.equal(false);
  });
});
