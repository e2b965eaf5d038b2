// /dev/sealed requests as a service, on real IndexedDB, with a clock the test controls.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { openVaultDb, type VaultDb } from '../../src/store/index.ts';
import { Requests, pendingOf, stateAt, statusOf } from '../../src/store/index.ts';
import { PURGE_AFTER_MS, REFRESH_EVERY_MS } from '../../src/limits.ts';

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
  const after: (() => void)[] = [];
  afterEach(async () => {
    for (const undo of after.splice(0)) undo();
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

  it("answer yes to asking the page for a refresh once a record a minute, whichever of three documents' connections asks at once", async () => {
    const others = await Promise.all([openVaultDb(name), openVaultDb(name)]);
    after.push(() => others.forEach((other) => other.close()));
    const documents = [requests, ...others.map((other) => new Requests(other, 300_000, () => now))];
    const refresh = (name: string) => ({ kind: 'refresh' as const, name, provider: 'github', agent: 'forward' });
    const burst = async () => {
      const made = await Promise.all(documents.flatMap((d) => Array.from({ length: 5 }, () => [d.make(NS, refresh('A')), d.make(NS, refresh('B'))]).flat()));
      const asked = (n: string) => made.filter((m) => m.request.name === n && m.ask).length;
      return { A: asked('A'), B: asked('B'), ids: new Set(made.map((m) => m.request.id)).size };
    };
    expect(await burst()).to.deep.equal({ A: 1, B: 1, ids: 2 });
    now += REFRESH_EVERY_MS - 1;
    expect(await burst()).to.deep.equal({ A: 0, B: 0, ids: 2 });
    now += 1;
    expect(await burst()).to.deep.equal({ A: 1, B: 1, ids: 2 });
    expect(await burst()).to.deep.equal({ A: 0, B: 0, ids: 2 });
    // Once a request ended, the next one is new, and the page is told of it at once.
    const [a] = await requests.pending(NS);
    await requests.end(a!.id, 'cancelled');
    const again = await requests.make(NS, refresh(a!.name!));
    expect([again.ask, again.request.id === a!.id]).to.deep.equal([true, false]);
    // Only the throttle reads askedAt: the page and the agent never see it.
    expect(again.request.askedAt).to.equal(now);
    expect(Object.keys(pendingOf(again.request))).to.not.include('askedAt');
    expect(Object.keys(statusOf(again.request, now))).to.not.include('askedAt');
  });
});
