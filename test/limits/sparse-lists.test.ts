// Lists with holes (README, Limits): a structured clone keeps a sparse list's holes, and a list of
// 2^32 - 1 holes is a message of a few bytes that a loop over its indices walks for minutes. Every
// list a request carries is refused at once when an entry is missing, whatever its length, through
// the real frame; the port then answers its next request.
import { expect } from '@open-wc/testing';
import { resetVault, welcomed } from '../helpers/vault.ts';

/** A list of `length` with entries only at the given indices. */
function sparse(length: number, entries: Record<number, unknown> = {}): unknown[] {
  const list: unknown[] = [];
  list.length = length;
  for (const [i, entry] of Object.entries(entries)) list[Number(i)] = entry;
  return list;
}

const HUGE = 2 ** 32 - 1;
const owner = { pid: 77, ppid: 1, uid: 1000, gid: 1000, tag: 'gh' };
const head = (headers: unknown) => ({ method: 'GET', url: 'https://api.example.com/', headers });

describe('lists with holes', () => {
  beforeEach(resetVault);

  it('redact refuses texts with a hole, and 2^32 - 1 holes at once by their count (not in WebKit: its structured clone walks every index of a list with holes, minutes for 2^32 - 1)', async () => {
    const agent = await welcomed({ role: 'agent' });
    // Timed from a first answer: the namespace's load and its scrubber's compile are not the holes'.
    await agent.request('redact', { texts: ['warm'] });
    const started = performance.now();
    expect((await agent.request('redact', { texts: sparse(HUGE) })).error).to.deep.equal({
      code: 'EINVAL',
      message: 'redact takes at most 10,000 texts per call',
    });
    expect((await agent.request('redact', { texts: sparse(3, { 0: 'a', 2: 'c' }) })).error).to.deep.equal({
      code: 'EINVAL',
      message: 'texts must be a list of strings and Uint8Arrays',
    });
    expect(performance.now() - started, 'answered at once').to.be.below(1000);
    expect((await agent.request('redact', { texts: ['a', 'c'] })).texts).to.deep.equal(['a', 'c']);
  });

  it('endpoints refuses model, mcp and names lists with a hole, and names of 2^32 - 1 holes at once by their count (not in WebKit: its structured clone walks every index of a list with holes, minutes for 2^32 - 1)', async () => {
    const agent = await welcomed({ role: 'agent' });
    await agent.request('redact', { texts: ['warm'] });
    const started = performance.now();
    const names = await agent.request('endpoints', { mcp: [{ server: 's', url: 'https://mcp.example.com/', names: sparse(HUGE, { 0: 'A' }) }] });
    expect(names.error, 'refused by its count').to.deep.equal({ code: 'EINVAL', message: 'an MCP server may list at most 256 record names' });
    const holey = await agent.request('endpoints', { mcp: [{ server: 's', url: 'https://mcp.example.com/', names: sparse(3, { 0: 'A', 2: 'C' }) }] });
    expect(holey.error).to.deep.equal({ code: 'EINVAL', message: 'mcp[0].names must be a list of record names' });
    expect(performance.now() - started, 'answered at once').to.be.below(1000);
    expect((await agent.request('endpoints', { model: sparse(2, { 1: 'https://api.example.com/' }) })).error.message).to.equal(
      'model must be a list of base URLs',
    );
    expect((await agent.request('endpoints', { mcp: sparse(2, { 1: 'https://mcp.example.com/' }) })).error.message).to.equal('mcp must be a list of servers');
    expect((await agent.request('endpoints', { model: ['https://api.example.com/'] })).error).to.equal(undefined);
  });

  it('forward refuses head.headers with a hole, 2^32 - 1 of them at once, and a header with a hole in it (not in WebKit: its structured clone walks every index of a list with holes, minutes for 2^32 - 1)', async () => {
    const page = await welcomed();
    await page.request('status');
    const started = performance.now();
    const forward = (headers: unknown) => page.request('forward', { head: head(headers), owner, exit: 'page', rawTraits: {} }, [new MessageChannel().port2]);
    const message = 'head.headers must be a list of [name, value] strings';
    expect((await forward(sparse(HUGE, { 0: ['accept', '*/*'] }))).error).to.deep.equal({ code: 'EINVAL', message });
    expect(performance.now() - started, 'answered at once').to.be.below(1000);
    expect((await forward([['accept', '*/*'], sparse(2, { 1: 'x' })])).error.message).to.equal(message);
    expect((await forward([['accept', '*/*']])).error).to.equal(undefined);
  });

  it('unregister refuses a list with a hole', async () => {
    const page = await welcomed();
    expect((await page.request('unregister', { model: sparse(2, { 1: 'https://api.example.com/' }) })).error).to.deep.equal({
      code: 'EINVAL',
      message: 'model must be a list of at most 256 URLs',
    });
    expect((await page.request('unregister', { model: ['https://api.example.com/'] })).error).to.equal(undefined);
  });
});
