// Registrations are the page's to review (README, Model and MCP endpoints): `list.registered`, the
// page op `unregister`, an `endpoints` audit entry for each change, and the limits, tried as an
// agent that registers whatever it likes would.
import { expect } from '@open-wc/testing';
import { FNOX, attest, fnoxConfig } from '../helpers/attest.ts';
import { canary, crossed, findCanaries, resetVault, welcomed } from '../helpers/vault.ts';

describe('registered endpoints', () => {
  beforeEach(resetVault);

  it('lists what the agent registered and audits each registration, but not a call that adds nothing', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    await agent.request('endpoints', { model: ['https://llm.example.com/v1'], mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['a'] }] });
    await agent.request('endpoints', { model: ['https://llm.example.com/v1'] });
    await agent.request('endpoints', { mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['a', 'b'] }] });
    // The page's document answers from memory: it shows another document's write once its notice came (the `changed` event).
    await page.until((e) => e.op === 'changed' && e.audit[0]?.mcp?.[0]?.names?.[0] === 'b');
    const { list } = await page.request('list');
    expect(list.registered).to.deep.equal({
      model: ['https://llm.example.com/v1'],
      mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['a', 'b'] }],
    });
    const entries = list.audit.filter((e: any) => e.type === 'endpoints').map(({ seq: _, at: __, ...e }: any) => e);
    expect(entries).to.deep.equal([
      { type: 'endpoints', change: 'added', model: [], mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['b'] }] },
      {
        type: 'endpoints',
        change: 'added',
        model: ['https://llm.example.com/v1'],
        mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['a'] }],
      },
    ]);
  });

  it('lets the page take a wrong registration back: the rule it refused comes back into effect', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const { placeholder } = await page.request('put', { name: 'GH', value: canary() });
    await page.request('policy', { files: [await attest(FNOX, fnoxConfig([['GH', placeholder, 'api.github.com']]))] });
    // A hostile agent registers api.github.com as a "model": GH's only rule is refused.
    await agent.request('endpoints', { model: ['https://api.github.com/'] });
    await page.until((e) => e.op === 'changed' && e.audit[0]?.type === 'endpoints');
    expect((await page.request('list')).list.refused.map((r: any) => r.secret)).to.deep.equal(['GH']);
    const since = page.events.length;
    expect(await page.request('unregister', { model: ['https://api.github.com/'] })).to.deep.include({ registered: { model: [], mcp: [] } });
    await page.until((e) => e.op === 'changed' && e.audit[0]?.type === 'endpoints', since);
    const { list } = await page.request('list');
    expect(list.refused).to.deep.equal([]);
    expect(list.secrets.find((s: any) => s.name === 'GH').state).to.equal('active');
    expect(list.audit[0]).to.deep.include({ type: 'endpoints', change: 'removed', model: ['https://api.github.com/'], mcp: [] });
  });

  it('removes MCP servers by URL, and a removal of nothing changes nothing', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    await agent.request('endpoints', { mcp: ['https://a.example.com/mcp', { server: 'b', url: 'https://b.example.com/mcp' }] });
    expect((await page.request('unregister', { mcp: ['https://a.example.com/mcp'] })).registered).to.deep.equal({
      model: [],
      mcp: [{ server: 'b', url: 'https://b.example.com/mcp' }],
    });
    const before = (await page.request('list')).list.audit.length;
    await page.request('unregister', { model: ['https://nothing.example.com/'] });
    expect((await page.request('list')).list.audit.length).to.equal(before);
    expect((await page.request('unregister', {})).error).to.deep.equal({ code: 'EINVAL', message: 'unregister needs model or mcp' });
    expect((await page.request('unregister', { model: 'x' })).error.code).to.equal('EINVAL');
  });

  it('shows a value the agent wrote into a registration only as its placeholder, and still lets the page remove it', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const value = canary('registered');
    const { placeholder } = await page.request('put', { name: 'HIDDEN', value });
    const url = `https://${value}.example.com/mcp`;
    expect((await agent.request('endpoints', { mcp: [{ server: value, url, names: [value] }] })).ok).to.equal(true);
    await page.until((e) => e.op === 'changed' && e.audit[0]?.type === 'endpoints');
    const { list } = await page.request('list');
    const shown = { server: placeholder, url: `https://${placeholder}.example.com/mcp`, names: [placeholder] };
    expect(list.registered.mcp).to.deep.equal([shown]);
    expect(list.audit[0]).to.deep.include({ type: 'endpoints', change: 'added', mcp: [shown] });
    expect((await page.request('unregister', { mcp: [shown.url] })).registered).to.deep.equal({ model: [], mcp: [] });
  });

  it('is a page op only: the agent port gets EACCES', async () => {
    const agent = await welcomed({ role: 'agent' });
    expect((await agent.request('unregister', { model: ['https://llm.example.com/'] })).error.code).to.equal('EACCES');
  });
});

describe('registration limits', () => {
  beforeEach(resetVault);
  const url = (i: number) => `https://m${i}.example.com/`;

  it('holds at most 256 registrations per namespace; past it EINVAL names the limit and nothing is registered', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    expect((await agent.request('endpoints', { model: Array.from({ length: 200 }, (_, i) => url(i)) })).ok).to.equal(true);
    // The page's document answers from memory: it shows the agent document's write once its notice came.
    await page.until((e) => e.op === 'changed' && e.audit[0]?.type === 'endpoints');
    const past = await agent.request('endpoints', {
      model: Array.from({ length: 40 }, (_, i) => url(200 + i)),
      mcp: Array.from({ length: 17 }, (_, i) => url(300 + i)),
    });
    expect(past.error).to.deep.equal({ code: 'EINVAL', message: 'a namespace holds at most 256 registered endpoints; unregister some in Settings' });
    expect((await page.request('list')).list.registered.model).to.have.length(200);
    expect((await agent.request('endpoints', { model: Array.from({ length: 56 }, (_, i) => url(200 + i)) })).ok).to.equal(true);
    expect((await agent.request('endpoints', { model: [url(999)] })).error.message).to.include('at most 256');
    // A list that could never fit is refused before any entry is read.
    expect((await agent.request('endpoints', { model: Array.from({ length: 257 }, () => 42) })).error.message).to.include('at most 256');
  });

  it('lets an MCP server list at most 256 record names, in one call and kept; past it EINVAL names the limit and nothing changes', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const server = (names: string[]) => ({ mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names }] });
    const names = (from: number, n: number) => Array.from({ length: n }, (_, i) => `NAME_${from + i}`);
    const limit = { code: 'EINVAL', message: 'an MCP server may list at most 256 record names' };
    expect((await agent.request('endpoints', server(names(0, 257)))).error).to.deep.equal(limit);
    // A list that could never fit is refused before any entry is read.
    expect((await agent.request('endpoints', server(Array.from({ length: 100_000 }, () => 42) as never))).error).to.deep.equal(limit);
    expect((await agent.request('endpoints', server(names(0, 200)))).ok).to.equal(true);
    // 150 to 255: 56 new, 256 in all.
    expect((await agent.request('endpoints', server(names(150, 106)))).ok).to.equal(true);
    expect((await agent.request('endpoints', server(names(300, 1)))).error).to.deep.equal(limit);
    await page.until((e) => e.op === 'changed' && e.audit[0]?.mcp?.[0]?.names?.length === 56);
    const [kept] = (await page.request('list')).list.registered.mcp;
    expect(kept.names).to.deep.equal(names(0, 256));
  });

  it('takes a URL of at most 2 KiB with at most 8 *', async () => {
    const agent = await welcomed({ role: 'agent' });
    const path = (n: number) => `https://llm.example.com/${'a'.repeat(n)}`;
    expect((await agent.request('endpoints', { model: [path(2048 - 24)] })).ok).to.equal(true);
    expect((await agent.request('endpoints', { model: [path(2048 - 23)] })).error).to.deep.equal({
      code: 'EINVAL',
      message: 'model[0] must be at most 2048 bytes',
    });
    expect((await agent.request('endpoints', { mcp: [`https://mcp.example.com/${'*/'.repeat(8)}x`] })).ok).to.equal(true);
    expect((await agent.request('endpoints', { mcp: [{ server: 's', url: `https://mcp.example.com/${'*/'.repeat(9)}x` }] })).error).to.deep.equal({
      code: 'EINVAL',
      message: 'mcp[0].url may hold at most 8 *',
    });
    // As the URL is kept: %2A is a star once matched, and escapes written out count in its bytes.
    expect((await agent.request('endpoints', { model: [`https://llm.example.com/${'%2A/'.repeat(4)}${'%2a/'.repeat(5)}x`] })).error).to.deep.equal({
      code: 'EINVAL',
      message: 'model[0] may hold at most 8 *',
    });
    expect((await agent.request('endpoints', { model: [`https://e.com/${'€'.repeat(677)}`] })).error).to.deep.equal({
      code: 'EINVAL',
      message: 'model[0] must be at most 2048 bytes as a URL reads',
    });
  });
});

describe('registrations leaks', () => {
  it('carried no canary value in any message of this file', () => {
    expect(findCanaries(crossed)).to.deep.equal([]);
  });
});
