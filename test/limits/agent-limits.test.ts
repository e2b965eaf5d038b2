// The agent port's limits (README, Limits) through the real frame: redact's texts and bytes, push's
// chunk, and the port's queue. At each limit the op works; one past it is refused naming the limit.
import { expect } from '@open-wc/testing';
import { MAX_PUSH_BYTES, MAX_QUEUED_REQUESTS, MAX_REDACT_BYTES, MAX_REDACT_TEXTS } from '../../src/limits.ts';
import { canary, crossed, resetVault, welcomed } from '../helpers/vault.ts';

const enc = new TextEncoder();

async function agentWithValue() {
  const page = await welcomed();
  const agent = await welcomed({ role: 'agent' });
  const value = canary('limit');
  const { placeholder } = await page.request('put', { name: 'LIMITED', value });
  return { page, agent, value, placeholder };
}

describe('the agent port refuses past its limits', () => {
  beforeEach(resetVault);

  it('redact takes 10,000 texts and refuses 10,001, naming the limit', async () => {
    const { agent, value, placeholder } = await agentWithValue();
    const texts = Array.from({ length: MAX_REDACT_TEXTS }, (_, i) => (i === 9_999 ? `last ${value}` : `text ${i}`));
    const ok = await agent.request('redact', { texts });
    expect(ok.texts).to.have.length(MAX_REDACT_TEXTS);
    expect(ok.texts[9_999]).to.equal(`last ${placeholder}`);
    const refused = await agent.request('redact', { texts: [...texts, 'one more'] });
    expect(refused.error).to.deep.equal({ code: 'EINVAL', message: 'redact takes at most 10,000 texts per call' });
  });

  it('redact takes 64 MiB of texts in all and refuses a byte more', async () => {
    const { agent, value, placeholder } = await agentWithValue();
    const big = new Uint8Array(MAX_REDACT_BYTES - 16);
    big.fill(0x61);
    big.set(enc.encode(value), 1000);
    const ok = await agent.request('redact', { texts: [big, 'x'.repeat(16)] });
    expect(ok.texts[0].byteLength).to.equal(big.byteLength - enc.encode(value).length + placeholder.length);
    const refused = await agent.request('redact', { texts: [big, 'x'.repeat(17)] });
    expect(refused.error).to.deep.equal({ code: 'EINVAL', message: 'redact takes at most 64 MiB of texts per call' });
  });

  it('push takes a chunk of 16 MiB and refuses a larger one, and the stream goes on', async () => {
    const { agent, value, placeholder } = await agentWithValue();
    await agent.request('redactStream', { stream: 's' });
    const chunk = new Uint8Array(MAX_PUSH_BYTES).fill(0x62);
    const ok = await agent.request('push', { stream: 's', chunk });
    expect(ok.error).to.equal(undefined);
    const refused = await agent.request('push', { stream: 's', chunk: new Uint8Array(MAX_PUSH_BYTES + 1) });
    expect(refused.error).to.deep.equal({ code: 'EINVAL', message: 'push takes a chunk of at most 16 MiB' });
    const pushed = await agent.request('push', { stream: 's', chunk: enc.encode(` ${value} `) });
    const end = await agent.request('end', { stream: 's' });
    const rest = new TextDecoder().decode(new Uint8Array([...ok.chunk.slice(-64), ...pushed.chunk, ...end.chunk]));
    expect(rest).to.include(placeholder);
  });

  it('holds 64 waiting requests and answers more EAGAIN in their turn', async () => {
    const { agent } = await agentWithValue();
    // The first request is slow (64 MiB to scrub); the rest wait behind it, sent in one go.
    const slow = agent.request('redact', { texts: [new Uint8Array(MAX_REDACT_BYTES)] });
    const rest = Array.from({ length: MAX_QUEUED_REQUESTS + 1 }, (_, i) => agent.request('redact', { texts: [`t${i}`] }));
    const replies = [await slow, ...(await Promise.all(rest))];
    // How many wait when the 65th arrives depends on how the frame interleaves their delivery with
    // its work; never more than 64 may, and at least one past them is refused (exact counts:
    // queue.test.ts).
    const refused = replies.filter((r) => r.error);
    expect(refused.length).to.be.greaterThan(0);
    for (const r of refused) {
      expect(r.error).to.deep.equal({ code: 'EAGAIN', message: 'at most 64 requests and 128 MiB may wait on an agent port; wait for replies' });
    }
    expect(
      replies.slice(0, MAX_QUEUED_REQUESTS).every((r) => !r.error),
      'the first 64 are answered',
    ).to.equal(true);
    // The replies kept their order: FIFO holds, refusals included.
    const ids = agent.replies.slice(-replies.length).map((r) => r.id);
    expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
    // Once the queue drained, the port takes requests again.
    expect((await agent.request('redact', { texts: ['again'] })).texts).to.deep.equal(['again']);
  });

  afterEach(() => {
    // The replies here are large; a value is never among them (the agent tests check that).
    crossed.splice(0);
  });
});
