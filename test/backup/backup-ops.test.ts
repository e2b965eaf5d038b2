// The page's `export` and `import` (README, Backup and restore): each answers `{ request }` and
// adds a pending `backup` or `restore` request to `status.waiting`, which the popup ends.
import { expect } from '@open-wc/testing';
import { resetVault, welcomed } from '../helpers/vault.ts';

describe('the page asks for a backup or a restore', () => {
  beforeEach(resetVault);

  it('export answers a request id and status.waiting gains a pending backup request, with a status event', async () => {
    const page = await welcomed();
    const reply = await page.request('export');
    expect(reply).to.have.keys(['v', 'id', 'op', 'request']);
    expect(reply.request).to.be.a('string');
    const event = await page.until((e) => e.op === 'status' && e.status.waiting.length === 1);
    expect(event.status.waiting[0]).to.include({ id: reply.request, kind: 'backup' });
    expect(event.status.waiting[0]).not.to.have.any.keys('uid', 'tag');
  });

  it('import answers a pending restore request; asking twice answers the same request', async () => {
    const page = await welcomed();
    const first = await page.request('import');
    const second = await page.request('import');
    expect(second.request).to.equal(first.request);
    const waiting = (await page.request('status')).status.waiting;
    expect(waiting.map((r: { kind: string }) => r.kind)).to.deep.equal(['restore']);
  });

  it('a backup request and a restore request wait side by side, and the page may cancel either', async () => {
    const page = await welcomed();
    const backup = await page.request('export');
    const restore = await page.request('import');
    expect((await page.request('status')).status.waiting.map((r: { kind: string }) => r.kind)).to.deep.equal(['backup', 'restore']);
    expect((await page.request('cancel', { request: backup.request })).state).to.equal('cancelled');
    expect((await page.request('status')).status.waiting.map((r: { id: string }) => r.id)).to.deep.equal([restore.request]);
  });

  it('export and import take no fields', async () => {
    const page = await welcomed();
    expect((await page.request('export', { passphrase: 'x' })).error).to.deep.equal({ code: 'EINVAL', message: 'export has no field passphrase' });
    expect((await page.request('import', { file: 'x' })).error.code).to.equal('EINVAL');
  });

  it('/dev/sealed never sees the page requests, not even as root', async () => {
    const page = await welcomed();
    const { request } = await page.request('export');
    const root = { pid: 1, ppid: 0, uid: 0, gid: 0, tag: 'root' };
    expect((await page.request('sealed', { req: { op: 'status' }, stamp: root })).reply).to.deep.equal({ requests: [] });
    expect((await page.request('sealed', { req: { op: 'cancel', id: request }, stamp: root })).reply.error.code).to.equal('ENOENT');
  });
});
