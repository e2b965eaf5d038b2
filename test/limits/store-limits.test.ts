// The stores' limits (README, Limits) as services on real IndexedDB: records per namespace and the
// bytes of their values, and the ended requests kept. Rows a test needs in bulk go in directly.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { openVaultDb, type StoredRecord, type VaultDb } from '../../src/store/index.ts';
import { autoUnlock } from '../../src/lock/index.ts';
import { AUDIT_TRIM_EVERY, MAX_AUDIT_ENTRIES, MAX_ENDED_REQUESTS, MAX_RECORDS, MAX_VALUE_TOTAL } from '../../src/limits.ts';
import { addAudit, trimAudit } from '../../src/store/index.ts';
import { Records, type RecordInput } from '../../src/store/index.ts';
import { Requests } from '../../src/store/index.ts';
import { newPlaceholder } from '../../src/validate.ts';
import { prng } from '../helpers/random.ts';

const NS = 'https://seven.sliccy.ai';
const secret = (name: string, value: string): RecordInput => ({ name, value, kind: 'secret', source: 'settings' });

/** Puts `count` records straight into the store, each holding a value of `valueBytes` bytes. */
async function fill(db: VaultDb, count: number, valueBytes: number) {
  const tx = db.transaction('records', 'readwrite');
  for (let i = 0; i < count; i++) {
    const record: StoredRecord = {
      id: `bulk-${i}`,
      namespace: NS,
      name: `BULK_${i}`,
      kind: 'secret',
      source: 'process',
      placeholder: `fnox_proxy_${i.toString(16).padStart(24, '0')}`,
      iv: new Uint8Array(12),
      ciphertext: new ArrayBuffer(valueBytes + 16),
      createdAt: 0,
      updatedAt: 0,
    };
    void tx.store.put(record);
  }
  await tx.done;
}

describe('the stores refuse past their limits', () => {
  let db: VaultDb;
  let name: string;
  let key: CryptoKey;

  beforeEach(async () => {
    name = `limits-test-${crypto.randomUUID()}`;
    db = await openVaultDb(name);
    key = (await autoUnlock(db))!;
  });
  afterEach(async () => {
    db.close();
    await deleteDB(name);
  });

  it('a namespace holds 10,000 records; the 10,001st is EINVAL and changes nothing, a rotation still works', async () => {
    await fill(db, MAX_RECORDS - 2, 8);
    const records = new Records(db);
    await records.write(NS, key, secret('PENULTIMATE', 'value-number-9999'));
    const roomForOne = await records.meta(NS);
    await records.write(NS, key, secret('LAST', 'value-number-10000'));
    const before = await records.meta(NS);
    // Refused alike from the store alone, from a document holding the meta as it is, and from one
    // holding it a write behind (room for one more: its writes go out early and are undone).
    for (const options of [{}, { existing: null, meta: before }, { existing: null, meta: roomForOne }]) {
      let refused: unknown;
      await records.write(NS, key, secret('ONE_MORE', 'value-number-10001'), options).catch((e) => (refused = e));
      expect((refused as { body?: unknown })?.body).to.deep.equal({
        code: 'EINVAL',
        message: 'a namespace holds at most 10,000 records (removed ones count until purged)',
      });
      expect(await records.get(NS, 'ONE_MORE')).to.equal(undefined);
      expect(await records.meta(NS)).to.deep.equal(before);
    }
    const { rotated } = await records.write(NS, key, secret('LAST', 'value-number-10000-rotated'));
    expect(rotated).to.equal(true);
    // Another namespace has limits of its own.
    await records.write('https://other.sliccy.ai', key, secret('ELSEWHERE', 'value-elsewhere'));
  });

  it('the record count the meta keeps follows every write, removal, purge and restore, and is counted again once forgotten', async () => {
    let now = Date.UTC(2026, 11, 2);
    const records = new Records(db, () => now);
    const actual = async () => (await db.getAllKeysFromIndex('records', 'byNamespace', NS)).length;
    const names = Array.from({ length: 8 }, (_, i) => `N_${i}`);
    for (let seed = 1; seed <= 6; seed++) {
      const random = prng(seed);
      const pick = (n: number) => Math.floor(random() * n);
      for (let step = 0; step < 30; step++) {
        const name = names[pick(names.length)]!;
        const held = await records.get(NS, name);
        const op = pick(6);
        if (op <= 1) await records.write(NS, key, secret(name, `value-${seed}-${step}`));
        else if (op === 2 && held && held.removedAt === undefined) await records.remove(NS, name);
        else if (op === 3 && held?.removedAt !== undefined) await records.restore(NS, name);
        else if (op === 4) {
          now += 31 * 24 * 60 * 60 * 1000;
          await records.purge();
        } else {
          const fresh = names.filter((n) => n !== name).slice(0, pick(3));
          const writes = await Promise.all(
            [name, ...fresh].map(async (n) => {
              const here = await records.get(NS, n);
              return {
                name: n,
                kind: 'secret' as const,
                value: `restored-${seed}-${step}`,
                placeholder: here?.placeholder ?? newPlaceholder(),
                ...(here && { replaces: here.id, was: { revision: here.revision ?? 0, updatedAt: here.updatedAt } }),
              };
            }),
          );
          await records.import(NS, key, writes, { source: 'import:dotenv', count: writes.length, added: 0, replaced: 0, skipped: 0 });
        }
        const kept = (await records.meta(NS)).recordCount;
        if (kept !== undefined) expect(kept, `seed ${seed}, step ${step}`).to.equal(await actual());
      }
      // A meta without the count (an earlier version's) is counted at the next write.
      const tx = db.transaction('namespaces', 'readwrite');
      const { recordCount: _, ...meta } = (await tx.store.get(NS))!;
      await tx.store.put(meta);
      await tx.done;
      await records.write(NS, key, secret(`AFTER_${seed}`, 'one more'));
      expect((await records.meta(NS)).recordCount).to.equal(await actual());
    }
  });

  it('a purge gives a full namespace room for a new name again', async () => {
    await fill(db, MAX_RECORDS - 1, 8);
    let now = Date.UTC(2026, 11, 2);
    const records = new Records(db, () => now);
    await records.write(NS, key, secret('LAST', 'value-number-10000'));
    await records.remove(NS, 'LAST');
    const refused = await records.write(NS, key, secret('ONE_MORE', 'value-number-10001')).catch((e) => e);
    expect(refused?.body?.code).to.equal('EINVAL');
    now += 31 * 24 * 60 * 60 * 1000;
    await records.purge();
    await records.write(NS, key, secret('ONE_MORE', 'value-number-10001'));
    expect((await records.meta(NS)).recordCount).to.equal(MAX_RECORDS);
  });

  it('a namespace holds 16 MiB of values; a byte more is EINVAL, and a purge frees room', async () => {
    const full = 65_536;
    await fill(db, MAX_VALUE_TOTAL / full - 1, full);
    let now = Date.UTC(2026, 10, 30);
    const records = new Records(db, () => now);
    await records.write(NS, key, secret('LAST', 'x'.repeat(full - 8)));
    const roomForEight = await records.meta(NS);
    await records.write(NS, key, secret('LAST', 'x'.repeat(full)));
    const before = await records.meta(NS);
    expect(before.valueBytes).to.equal(MAX_VALUE_TOTAL);
    for (const options of [{}, { existing: null, meta: before }, { existing: null, meta: roomForEight }]) {
      let refused: unknown;
      await records.write(NS, key, secret('ONE_MORE', 'x'.repeat(8)), options).catch((e) => (refused = e));
      expect((refused as { body?: unknown })?.body).to.deep.equal({ code: 'EINVAL', message: 'a namespace holds at most 16 MiB of values in all' });
      expect(await records.meta(NS)).to.deep.equal(before);
    }
    // Growing a value counts its new size; shrinking one makes room.
    await records.write(NS, key, secret('LAST', 'x'.repeat(full - 8)));
    await records.write(NS, key, secret('ONE_MORE', 'y'.repeat(8)));
    expect((await records.meta(NS)).valueBytes).to.equal(MAX_VALUE_TOTAL);
    await records.remove(NS, 'ONE_MORE');
    now += 31 * 24 * 60 * 60 * 1000;
    await records.purge();
    expect((await records.meta(NS)).valueBytes).to.equal(MAX_VALUE_TOTAL - 8);
  });

  it('keeps the newest 256 ended requests per namespace and deletes older ones', async () => {
    let now = Date.UTC(2026, 10, 30);
    const requests = new Requests(db, 300_000, () => now);
    const ids: string[] = [];
    for (let i = 0; i < MAX_ENDED_REQUESTS; i++) {
      now += 1000;
      const { request: made } = await requests.make(NS, { kind: 'value', name: 'TOKEN', uid: 1000, tag: 't' });
      ids.push(made.id);
      await requests.end(made.id, 'cancelled');
    }
    expect((await requests.all(NS)).map((r) => r.id)).to.deep.equal(ids);
    now += 1000;
    const { request: next } = await requests.make(NS, { kind: 'value', name: 'TOKEN', uid: 1000, tag: 't' });
    expect((await requests.all(NS)).length).to.equal(MAX_ENDED_REQUESTS + 1);
    await requests.end(next.id, 'done', 'fnox_proxy_000000000000000000000001');
    const kept = (await requests.all(NS)).map((r) => r.id);
    expect(kept).to.deep.equal([...ids.slice(1), next.id]);
    // Expired ones count as ended: a new request trims them too.
    now += 1000;
    const { request: pending } = await requests.make(NS, { kind: 'value', name: 'TOKEN', uid: 1001, tag: 't' });
    now += 301_000;
    await requests.make(NS, { kind: 'value', name: 'TOKEN', uid: 1002, tag: 't' });
    const all = await requests.all(NS);
    expect(all.length).to.equal(MAX_ENDED_REQUESTS + 1);
    expect(all.map((r) => r.id)).to.include(pending.id);
    expect(all.map((r) => r.id)).to.not.include(ids[1]);
  });

  /** The namespace's audit seqs, oldest first. */
  const auditSeqs = async (namespace: string) =>
    (await db.getAllFromIndex('audit', 'byNamespace', IDBKeyRange.bound([namespace, -Infinity], [namespace, Infinity]))).map((e) => e.seq);

  it(`keeps the newest ${MAX_AUDIT_ENTRIES.toLocaleString('en')} audit entries of a namespace, trimmed as entries come, and leaves other namespaces alone`, async function () {
    this.timeout(60_000);
    const other = 'https://other.sliccy.ai';
    const tx = db.transaction(['audit'], 'readwrite');
    const added: number[] = [];
    for (let i = 0; i < 10; i++) await addAudit(tx, other, i, { type: 'forward', name: 'OTHER' }, null);
    for (let i = 0; i < MAX_AUDIT_ENTRIES + 200; i++) added.push((await addAudit(tx, NS, i, { type: 'forward', name: 'LOOP' }, null)).seq);
    await tx.done;
    const kept = await auditSeqs(NS);
    // Trimmed at each 64th entry of the vault: at most 63 past the limit in between.
    expect(kept.length).to.be.within(MAX_AUDIT_ENTRIES, MAX_AUDIT_ENTRIES + AUDIT_TRIM_EVERY - 1);
    expect(kept).to.deep.equal(added.slice(added.length - kept.length), 'the newest are kept, in order');
    expect(await auditSeqs(other)).to.have.length(10);
  });

  it('trims at most 1,000 entries at a time, the oldest first', async () => {
    const tx = db.transaction(['audit'], 'readwrite');
    for (let i = 0; i < 20; i++) await addAudit(tx, NS, i, { type: 'forward', name: 'X' }, null);
    const before = await tx
      .objectStore('audit')
      .index('byNamespace')
      .getAll(IDBKeyRange.bound([NS, -Infinity], [NS, Infinity]));
    expect(await trimAudit(tx, NS, 5, 3)).to.equal(3);
    expect(await trimAudit(tx, NS, 5)).to.equal(12);
    expect(await trimAudit(tx, NS, 5)).to.equal(0);
    await tx.done;
    expect(await auditSeqs(NS)).to.deep.equal(before.slice(15).map((e) => e.seq));
  });
});
