// /dev/sealed's field limits (README, Limits) through the real frame: at each limit the request is
// read; one past it is EINVAL naming the field and its limit, and the reply never echoes the input.
import { expect } from '@open-wc/testing';
import type { Stamp } from '../../src/contract.ts';
import { MAX_OAUTH_JSON, MAX_PROMPT, MAX_PROVIDER, MAX_REQ_VALUES, MAX_TAG, MAX_URL } from '../../src/limits.ts';
import { resetVault, welcomed, type VaultClient } from '../helpers/vault.ts';

const user: Stamp = { pid: 4242, ppid: 1, uid: 1000, gid: 1000, tag: 'npm' };

async function sealed(page: VaultClient, req: unknown, stamp: Stamp = user) {
  const reply = await page.request('sealed', { req, stamp });
  expect(reply.op, JSON.stringify(reply).slice(0, 300)).to.equal('sealed');
  return reply.reply;
}

/** An oauth object whose JSON text is exactly `n` characters. */
function oauthOf(n: number) {
  const base = JSON.stringify({ scope: '' }).length;
  return { scope: 's'.repeat(n - base) };
}

/** The reply says nothing of the oversized input: no run of 129 of its characters. */
function echoes(reply: unknown, input: string) {
  return JSON.stringify(reply).includes(input.slice(0, 129));
}

describe('/dev/sealed refuses oversized fields', () => {
  beforeEach(resetVault);

  it('placeholder takes a name of 128 characters and refuses 129 without echoing it', async () => {
    const page = await welcomed();
    const at = 'N'.repeat(128);
    expect(await sealed(page, { op: 'placeholder', name: at })).to.deep.equal({
      error: { code: 'ENOENT', message: `there is no record named ${at}` },
    });
    const past = 'N'.repeat(8 * 1024 * 1024);
    const reply = await sealed(page, { op: 'placeholder', name: past });
    expect(reply).to.deep.equal({ error: { code: 'EINVAL', message: 'name must be 1 to 128 characters' } });
    expect(echoes(reply, past)).to.equal(false);
  });

  it('a value request takes a prompt of 200 characters and refuses 201', async () => {
    const page = await welcomed();
    expect((await sealed(page, { op: 'request', kind: 'value', name: 'A', prompt: 'p'.repeat(MAX_PROMPT) })).state).to.equal('pending');
    expect(await sealed(page, { op: 'request', kind: 'value', name: 'B', prompt: 'p'.repeat(MAX_PROMPT + 1) }, { ...user, uid: 7 })).to.deep.equal({
      error: { code: 'EINVAL', message: 'prompt must be at most 200 characters' },
    });
  });

  it('a sign-in request takes a provider of 128 characters and refuses 129, naming it', async () => {
    const page = await welcomed();
    expect((await sealed(page, { op: 'request', kind: 'jerk-seal', provider: 'p'.repeat(MAX_PROVIDER) })).state).to.equal('pending');
    const past = 'p'.repeat(8 * 1024 * 1024);
    const reply = await sealed(page, { op: 'request', kind: 'oauth', provider: past, oauth: {} }, { ...user, uid: 7 });
    expect(reply).to.deep.equal({ error: { code: 'EINVAL', message: 'provider must be at most 128 characters' } });
    expect(echoes(reply, past)).to.equal(false);
    const { status } = await page.request('status');
    expect(status.waiting).to.have.length(1);
  });

  it('an oauth object may be 8 KiB as JSON, not a character more', async () => {
    const page = await welcomed();
    expect(JSON.stringify(oauthOf(MAX_OAUTH_JSON)).length).to.equal(MAX_OAUTH_JSON);
    expect((await sealed(page, { op: 'request', kind: 'oauth', provider: 'github', oauth: oauthOf(MAX_OAUTH_JSON) })).state).to.equal('pending');
    expect(await sealed(page, { op: 'request', kind: 'oauth', provider: 'github', oauth: oauthOf(MAX_OAUTH_JSON + 1) }, { ...user, uid: 7 })).to.deep.equal({
      error: { code: 'EINVAL', message: 'oauth must be at most 8 KiB as JSON' },
    });
    // A deep object (as JSON text: structured clone can't carry it) is measured without walking all of it.
    // Written as text: Firefox's JSON.stringify can't recurse 5,000 deep.
    // 4,000 deep: 8,001 keys and values, within what a req as JSON text may hold.
    const deep = `${'{"d":'.repeat(4000)}{}${'}'.repeat(4000)}`;
    const text = `{"op":"request","kind":"oauth","provider":"github","oauth":${deep}}`;
    expect((await sealed(page, text, { ...user, uid: 8 })).error.message).to.equal('oauth must be at most 8 KiB as JSON');
  });

  it('test takes a url of 8 KiB and refuses a longer one without echoing it', async () => {
    const page = await welcomed();
    await page.request('put', { name: 'TOKEN', value: 'a-long-enough-value' });
    const at = `https://api.example.com/${'p'.repeat(MAX_URL - 24)}`;
    expect(at.length).to.equal(MAX_URL);
    expect((await sealed(page, { op: 'test', name: 'TOKEN', url: at })).verdict).to.be.a('string');
    const past = `${at}q`;
    const reply = await sealed(page, { op: 'test', name: 'TOKEN', url: past });
    expect(reply).to.deep.equal({ error: { code: 'EINVAL', message: 'url must be at most 8,192 characters' } });
  });

  it("the stamp's tag may be 256 characters; a longer one is bios's error", async () => {
    const page = await welcomed();
    expect((await page.request('sealed', { req: { op: 'list' }, stamp: { ...user, tag: 't'.repeat(MAX_TAG) } })).reply).to.deep.equal({ secrets: [] });
    const past = 't'.repeat(1024 * 1024);
    const reply = await page.request('sealed', { req: { op: 'list' }, stamp: { ...user, tag: past } });
    expect(reply.error).to.deep.equal({ code: 'EINVAL', message: 'stamp.tag must be at most 256 characters' });
  });

  it('a request as JSON text may be 1 MiB, and an unknown field or op is named only when short', async () => {
    const page = await welcomed();
    const padded = JSON.stringify({ op: 'list' }).padEnd(1024 * 1024, ' ');
    expect(await sealed(page, padded)).to.deep.equal({ secrets: [] });
    expect(await sealed(page, `${padded} `)).to.deep.equal({ error: { code: 'EINVAL', message: 'req must be at most 1 MiB of JSON text' } });
    const long = 'x'.repeat(100_000);
    const unknownField = await sealed(page, { op: 'list', [long]: 1 });
    expect(unknownField).to.deep.equal({ error: { code: 'EINVAL', message: "list has a field it doesn't know" } });
    expect(await sealed(page, { op: long })).to.deep.equal({ error: { code: 'EINVAL', message: 'op must be a /dev/sealed op' } });
  });

  it('a request as JSON text may hold 8,192 keys and values, and one more is refused before it is parsed', async () => {
    const page = await welcomed();
    // The object, `op`, `list`, `x` and the array are five; its items the rest.
    const text = (items: number) => `{"op":"list","x":[${Array(items).fill('0').join(',')}]}`;
    expect(await sealed(page, text(MAX_REQ_VALUES - 5))).to.deep.equal({ error: { code: 'EINVAL', message: 'list has no field x' } });
    expect(await sealed(page, text(MAX_REQ_VALUES - 4))).to.deep.equal({
      error: { code: 'EINVAL', message: 'req must hold at most 8,192 keys and values as JSON text' },
    });
    // Keys and nested containers count alike: 8,191 here, then 8,193.
    const keys = (n: number) => `{"op":"list","x":{${Array.from({ length: n }, (_, i) => `"k${i}":{}`).join(',')}}}`;
    expect((await sealed(page, keys((MAX_REQ_VALUES - 6) / 2))).error.message).to.equal('list has no field x');
    expect((await sealed(page, `${keys((MAX_REQ_VALUES - 6) / 2).slice(0, -2)},"y":1}}`)).error.message).to.equal(
      'req must hold at most 8,192 keys and values as JSON text',
    );
  });

  it('a namespace holds 64 pending requests; the 65th is EAGAIN and changes nothing', async () => {
    const page = await welcomed();
    for (let uid = 1; uid <= 64; uid++) {
      expect((await sealed(page, { op: 'request', kind: 'jerk-seal', provider: 'github' }, { ...user, uid })).state).to.equal('pending');
    }
    expect(await sealed(page, { op: 'request', kind: 'jerk-seal', provider: 'github' }, { ...user, uid: 65 })).to.deep.equal({
      error: { code: 'EAGAIN', message: 'a namespace holds at most 64 pending requests; wait for one to end' },
    });
    expect((await page.request('status')).status.waiting).to.have.length(64);
  });
});
