// /dev/sealed requests as a service, on real IndexedDB, with a clock the test controls.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { openVaultDb, type VaultDb } from '../../src/store/index.ts';
import { PURGE_AFTER_MS } from '../../src/store/index.ts';
import { Requests, stateAt } from '../../src/store/index.ts';

const NS = 'https://seven.sliccy.ai';
const asker = { kind: 'value' as const, name: 'TOKEN', uid: 1000, tag: 't' };

describe('requests', () => {
  let db: VaultDb;
  let name: string;
  let now: number;
  let requests: Requests;

  beforeEach(async () => {
    name = `requests-test-${crypto.randomUUID()}`;
    db = await openVaultDb(name);
    now = Date.UTC(2026, 10, 30);
    requests = new Requests(db, 300_000, () => now);
  });
  afterEach(async () => {
    db.close();
    await deleteDB(name);
  });

  it('expire exactly 300 s after they are made', async () => {
    const { request: made } = await requests.make(NS, asker);
    expect(made.expiresAt - made.createdAt).to.equal(300_000);
    now += 299_999;
    expect(stateAt(made, now)).to.equal('pending');
    now += 1;
    expect(stateAt(made, now)).to.equal('expired');
    expect(await requests.pending(NS)).to.deep.equal([]);
  });

  it('stay as history for 30 days after they expired, then go', async () => {
    const { request: made } = await requests.make(NS, asker);
    await requests.end(made.id, 'done', 'fnox_proxy_0123456789abcdef01234567');
    now = made.expiresAt + PURGE_AFTER_MS - 1;
    await requests.purge(PURGE_AFTER_MS);
    expect((await requests.get(NS, made.id)).state).to.equal('done');
    now += 1;
    await requests.purge(PURGE_AFTER_MS);
    let gone = false;
    await requests.get(NS, made.id).catch((e) => (gone = e.code === 'ENOENT'));
    expect(gone).to.equal(true);
  });

  it('are per namespace: another namespace gets ENOENT and may ask for itself', async () => {
    const { request: made } = await requests.make(NS, asker);
    let code = '';
    await requests.get('https://other.sliccy.ai', made.id).catch((e) => (code = e.code));
    expect(code).to.equal('ENOENT');
    expect((await requests.make('https://other.sliccy.ai', asker)).request.state).to.equal('pending');
  });
});
