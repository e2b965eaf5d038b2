// The key store and records as services, on real IndexedDB and WebCrypto in the test page's own
// origin, each test with a database of its own and a clock it controls.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { deleteDB } from 'idb';
import { autoUnlock, readLock } from '../../src/lock/index.ts';
import { Namespaces, type RecordInput, Records, type VaultDb, auditPage, decryptValue, openVaultDb } from '../../src/store/index.ts';
import { valueBytesOf } from '../../src/store/values.ts';
import { newPlaceholder } from '../../src/validate.ts';
import type { VaultError } from '../../src/errors.ts';
import { canary, findCanaries } from '../helpers/vault.ts';
import { PURGE_AFTER_MS } from '../../src/limits.ts';

const opened: VaultDb[] = [];
let dbName = '';

async function open(): Promise<VaultDb> {
  const db = await openVaultDb(dbName);
  opened.push(db);
  return db;
}

const secret = (name: string, value: string): RecordInput => ({ name, value, kind: 'secret', source: 'settings' });
const NS = 'https://seven.sliccy.ai';

describe('the key store', () => {
  beforeEach(() => {
    dbName = `records-test-${crypto.randomUUID()}`;
  });
  afterEach(async () => {
    for (const db of opened.splice(0)) db.close();
    await deleteDB(dbName);
  });

  it('creates one data key with a device slot, and two documents starting at once agree on it', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    const [keyA, keyB] = await Promise.all([autoUnlock(a), autoUnlock(b)]);
    expect((await a.getAll('keys')).map((k) => k.slot).sort()).to.deep.equal(['check', 'device']);
    expect(await readLock(a)).to.equal(null);
    expect(keyA!.extractable).to.equal(false);
    const records = new Records(a);
    const { record } = await records.write(NS, keyA!, secret('SHARED_KEY', canary()));
    expect(await decryptValue(keyB!, record)).to.be.a('string');
  });

  it('keeps the data key across a new connection (a reload)', async () => {
    const first = await open();
    const value = canary();
    await new Records(first).write(NS, (await autoUnlock(first))!, secret('KEPT', value));
    first.close();
    const again = await open();
    const record = await new Records(again).get(NS, 'KEPT');
    expect(await decryptValue((await autoUnlock(again))!, record!)).to.equal(value);
  });
});

describe('records', () => {
  let db: VaultDb;
  let key: CryptoKey;
  let now: number;
  let records: Records;

  beforeEach(async () => {
    dbName = `records-test-${crypto.randomUUID()}`;
    db = await open();
    key = (await autoUnlock(db))!;
    now = Date.UTC(2026, 10, 30);
    records = new Records(db, () => now);
  });
  afterEach(async () => {
    for (const db of opened.splice(0)) db.close();
    await deleteDB(dbName);
  });

  /** The namespace holds these names, its counters are a recount of them, and it moved `rev` times with an audit entry each. */
  async function expectCounted(names: string[], rev: number) {
    const all = await records.all(NS);
    const meta = await records.meta(NS);
    expect(all.map((r) => r.name).sort()).to.deep.equal([...names].sort());
    expect([meta.rev, meta.recordCount, meta.valueBytes]).to.deep.equal([rev, all.length, all.reduce((n, r) => n + valueBytesOf(r), 0)]);
    expect((await auditPage(db, NS, undefined, 1000)).audit).to.have.length(rev);
  }

  it('stores the value only as ciphertext, which decrypts to it', async () => {
    const value = canary();
    const { record } = await records.write(NS, key, secret('STORED', value));
    const stored = await db.get('records', record.id);
    expect(findCanaries([stored])).to.deep.equal([]);
    expect(await decryptValue(key, stored!)).to.equal(value);
    expect(stored!.iv.byteLength).to.equal(12);
  });

  it('uses a fresh IV for every write', async () => {
    const a = await records.write(NS, key, secret('IV_A', canary()));
    const b = await records.write(NS, key, secret('IV_A', canary()));
    expect(Array.from(a.record.iv)).to.not.deep.equal(Array.from(b.record.iv));
  });

  it('a ciphertext copied onto another record fails to decrypt', async () => {
    const { record: a } = await records.write(NS, key, secret('ORIGINAL', canary()));
    const { record: b } = await records.write(NS, key, secret('TARGET', canary()));
    const moved = { ...b, iv: a.iv, ciphertext: a.ciphertext };
    await db.put('records', moved);
    let failed = false;
    await decryptValue(key, (await records.get(NS, 'TARGET'))!).catch(() => (failed = true));
    expect(failed).to.equal(true);
    // Moved to the same name in another namespace, it fails too.
    let failedElsewhere = false;
    await decryptValue(key, { ...a, namespace: 'https://other.sliccy.ai' }).catch(() => (failedElsewhere = true));
    expect(failedElsewhere).to.equal(true);
  });

  it('makes placeholders of the exact format that never repeat (10,000 created)', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10000; i++) {
      const p = newPlaceholder();
      expect(p).to.match(/^fnox_proxy_[0-9a-f]{24}$/);
      seen.add(p);
    }
    expect(seen.size).to.equal(10000);
  });

  it('gives every record its own placeholder, unique across namespaces', async () => {
    const placeholders = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { record } = await records.write(i % 2 ? NS : 'https://b.sliccy.ai', key, secret(`P${i}`, canary()));
      placeholders.add(record.placeholder);
    }
    expect(placeholders.size).to.equal(50);
  });

  it('rotation keeps the id and placeholder and changes the value', async () => {
    const first = await records.write(NS, key, secret('ROTATE', canary()));
    now += 1000;
    const value = canary();
    const second = await records.write(NS, key, secret('ROTATE', value));
    expect(second.rotated).to.equal(true);
    expect(second.record.placeholder).to.equal(first.record.placeholder);
    expect(second.record.id).to.equal(first.record.id);
    expect(second.record.createdAt).to.equal(first.record.createdAt);
    expect(second.record.updatedAt).to.equal(now);
    expect(await decryptValue(key, (await records.get(NS, 'ROTATE'))!)).to.equal(value);
  });

  it('a refused rotation changes nothing', async () => {
    const value = canary();
    await records.write(NS, key, secret('GUARDED', value));
    let refused = false;
    await records
      .write(NS, key, secret('GUARDED', canary()), {
        check: () => {
          throw new Error('no');
        },
      })
      .catch(() => (refused = true));
    expect(refused).to.equal(true);
    expect(await decryptValue(key, (await records.get(NS, 'GUARDED'))!)).to.equal(value);
    expect((await records.meta(NS)).scrubVersion).to.equal(1);
  });

  it('a removed record keeps its placeholder, comes back with restore, and is purged after 30 days', async () => {
    const { record } = await records.write(NS, key, secret('GOING', canary()));
    now += 1000;
    await records.remove(NS, 'GOING');
    expect((await records.get(NS, 'GOING'))!.removedAt).to.equal(now);
    await records.restore(NS, 'GOING');
    expect((await records.get(NS, 'GOING'))!.removedAt).to.equal(undefined);
    expect((await records.get(NS, 'GOING'))!.placeholder).to.equal(record.placeholder);
    await records.remove(NS, 'GOING');
    now += PURGE_AFTER_MS - 1;
    expect(await records.purge()).to.deep.equal([]);
    expect(await records.get(NS, 'GOING')).to.exist;
    now += 1;
    expect(await records.purge()).to.deep.equal([NS]);
    expect(await records.get(NS, 'GOING')).to.equal(undefined);
    expect((await auditPage(db, NS)).audit.map((e) => e.type)).to.deep.equal(['purge', 'remove', 'restore', 'remove', 'seal']);
  });

  it('a purge finds due records past its first read-only batch and leaves the rest', async () => {
    // 450 records: more than two of the purge's batches of 200; every third one removed.
    for (let i = 0; i < 450; i++) await records.write(NS, key, secret(`R${i}`, `v${i}`));
    for (let i = 0; i < 450; i += 3) await records.remove(NS, `R${i}`);
    now += PURGE_AFTER_MS;
    expect(await records.purge()).to.deep.equal([NS]);
    const left = (await db.getAll('records')).map((r) => r.name);
    expect(left.length).to.equal(300);
    expect(left.some((name) => Number(name.slice(1)) % 3 === 0)).to.equal(false);
    expect(await records.purge()).to.deep.equal([]);
  });

  it('sealing a removed name brings it back with a new value and the same placeholder', async () => {
    const { record } = await records.write(NS, key, secret('BACK', canary()));
    await records.remove(NS, 'BACK');
    const again = await records.write(NS, key, secret('BACK', canary()));
    expect(again.record.placeholder).to.equal(record.placeholder);
    expect(again.record.removedAt).to.equal(undefined);
  });

  it('the scrub version moves on seal, rotation, removal, restore and purge, and on nothing else', async () => {
    const version = async () => (await records.meta(NS)).scrubVersion;
    expect(await version()).to.equal(0);
    await records.write(NS, key, secret('V', canary()));
    expect(await version()).to.equal(1);
    await records.write(NS, key, secret('V', canary()));
    expect(await version()).to.equal(2);
    await records.remove(NS, 'V');
    expect(await version()).to.equal(3);
    await records.remove(NS, 'V'); // already removed: no change
    await records.restore(NS, 'V');
    expect(await version()).to.equal(4);
    await records.remove(NS, 'V');
    await records.use(NS, [(await records.get(NS, 'V'))!.id], [], null);
    await new Namespaces(db).dismissReminder(NS);
    await auditPage(db, NS);
    await records.values(NS, key);
    await records.restore(NS, 'NOPE').catch(() => {});
    expect(await version()).to.equal(5);
    now += PURGE_AFTER_MS;
    await records.purge();
    expect(await version()).to.equal(6);
    expect((await records.meta('https://elsewhere.sliccy.ai')).scrubVersion).to.equal(0);
  });

  it('two connections writing at once lose nothing', async () => {
    const other = new Records(await open(), () => now);
    const writes = [];
    for (let i = 0; i < 40; i++) {
      const target = i % 2 ? records : other;
      writes.push(target.write(NS, key, secret(`RACE_${i % 10}`, canary())));
    }
    writes.push(records.remove(NS, 'NOT_THERE').catch(() => null));
    await Promise.all(writes);
    const all = await records.all(NS);
    expect(all.map((r) => r.name)).to.deep.equal(Array.from({ length: 10 }, (_, i) => `RACE_${i}`));
    expect((await records.meta(NS)).scrubVersion).to.equal(40);
    expect((await auditPage(db, NS, undefined, 1000)).audit).to.have.length(40);
  });

  // A write given its namespace's meta sends its writes with its reads (src/store/records.ts):
  // these hold it to the meta it reads, not the one it was given.
  it('a write from a meta another write has since moved is undone and made again from the stored one', async () => {
    const { delta } = await records.write(NS, key, secret('FIRST', canary()));
    await records.write(NS, key, secret('SECOND', canary()));
    const third = await records.write(NS, key, secret('THIRD', canary()), { existing: null, meta: delta.meta });
    expect(third.delta.rev).to.equal(3);
    await expectCounted(['FIRST', 'SECOND', 'THIRD'], 3);
  });

  it('two connections writing at once, each from the meta it last saw, lose nothing', async () => {
    const other = new Records(await open(), () => now);
    const { delta } = await records.write(NS, key, secret('START', canary()));
    // Each connection writes in turn from the meta its last write answered; the other's writes move it meanwhile.
    const chain = async (target: Records, from: number) => {
      let meta = delta.meta;
      for (let i = from; i < 30; i += 2) ({ meta } = (await target.write(NS, key, secret(`RACE_${i % 12}`, 'v'.repeat(1 + i)), { meta })).delta);
    };
    await Promise.all([chain(records, 0), chain(other, 1)]);
    await expectCounted([...Array.from({ length: 12 }, (_, i) => `RACE_${i}`), 'START'], 31);
  });

  it("a write from a known meta under a key that is no longer the vault's writes nothing", async () => {
    const { delta } = await records.write(NS, key, secret('KEPT', canary()));
    let refused: unknown;
    await records.write(NS, { key, check: 'forged', epoch: 0 }, secret('FORGED', canary()), { existing: null, meta: delta.meta }).catch((e) => (refused = e));
    expect((refused as VaultError)?.code).to.equal('EACCES');
    await expectCounted(['KEPT'], 1);
  });

  it("one namespace never sees another one's records", async () => {
    await records.write(NS, key, secret('ONLY_HERE', canary()));
    expect(await records.all('https://b.sliccy.ai')).to.deep.equal([]);
    expect(await records.get('https://b.sliccy.ai', 'ONLY_HERE')).to.equal(undefined);
    expect((await auditPage(db, 'https://b.sliccy.ai')).audit).to.deep.equal([]);
    expect(await records.values('https://b.sliccy.ai', key)).to.deep.equal({ values: [], unreadable: [] });
  });

  it('no value reaches an error, an exception or a console line', async () => {
    await executeServerCommand('console-start');
    const errors: unknown[] = [];
    const value = canary('leak');
    await records.write(NS, key, secret('LEAK', value));
    await records
      .write(NS, key, secret('LEAK', value), {
        check: () => {
          throw new Error('refused');
        },
      })
      .catch((e) => errors.push(e.message, e.stack));
    await records.write(NS, key, { ...secret('LEAK', canary('kind')), kind: 'model' }).catch((e) => errors.push(e.message, e.stack));
    await records.restore(NS, 'LEAK').catch((e) => errors.push(e.message, e.stack));
    expect(errors.length).to.equal(6);
    expect(findCanaries(errors)).to.deep.equal([]);
    expect(findCanaries((await executeServerCommand('console-lines')) as string[])).to.deep.equal([]);
  });
});

describe("a namespace's first audit page", () => {
  const OTHER = 'https://other.example';
  let db: VaultDb;
  beforeEach(async () => {
    dbName = `audit-page-test-${crypto.randomUUID()}`;
    db = await open();
  });
  afterEach(async () => {
    for (const db of opened.splice(0)) db.close();
    await deleteDB(dbName);
  });

  /** `n` remove entries of NS, named by their order, interleaved with entries of another namespace. */
  async function addAudit(n: number) {
    const tx = db.transaction('audit', 'readwrite');
    for (let i = 0; i < n; i++) {
      await tx.store.add({ namespace: NS, at: i, type: 'remove', name: `N${i}` } as never);
      await tx.store.add({ namespace: OTHER, at: i, type: 'remove', name: `OTHER${i}` } as never);
    }
    await tx.done;
  }

  for (const n of [0, 1, 99, 100, 101, 250]) {
    it(`loads the newest of ${n} entries, newest first, at most 100, and says whether there are more`, async () => {
      await addAudit(n);
      const { audit, auditMore } = await new Namespaces(db).load(NS);
      const want = Array.from({ length: Math.min(n, 100) }, (_, k) => `N${n - 1 - k}`);
      expect(audit.map((e) => (e as { name: string }).name)).to.deep.equal(want);
      expect(audit.every((e) => !('namespace' in e))).to.equal(true);
      expect(auditMore).to.equal(n > 100);
    });
  }
});
