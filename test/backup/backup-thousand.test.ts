// 1,000 records back up and restore in under 5 s each beyond age's scrypt (README, Backup and
// restore), through the same functions the popup runs, on real IndexedDB and WebCrypto. The scrypt
// time is measured on its own, in the same run, and subtracted.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { backupJson, decryptAge, encryptBackup, planRestore, readBackup } from '../../src/backup/index.ts';
import { openVaultDb, type VaultDb } from '../../src/store/index.ts';
import { decryptValue } from '../../src/store/index.ts';
import { Records } from '../../src/store/index.ts';

const A = 'https://seven.sliccy.ai';
const B = 'https://new.sliccy.ai';
const PASS = 'a long backup passphrase';
const WORK = 15;
const N = 1000;

describe('a thousand records', function () {
  this.timeout(120_000);
  let db: VaultDb;
  let name: string;

  beforeEach(async () => {
    name = `backup-thousand-${crypto.randomUUID()}`;
    db = await openVaultDb(name);
  });
  afterEach(async () => {
    db.close();
    await deleteDB(name);
  });

  it('back up and restore in under 5 s each beyond the scrypt time, every name, placeholder and value intact', async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const records = new Records(db);
    const values = Array.from({ length: N }, (_, i) => `value-${i}-${crypto.randomUUID()}`);
    const writes = values.map((value, i) => ({
      name: `TOKEN_${i}`,
      kind: 'secret' as const,
      value,
      placeholder: `fnox_proxy_${i.toString(16).padStart(24, '0')}`,
    }));
    await records.import(A, key, writes, { source: 'import:dotenv', count: N, added: N, replaced: 0, skipped: 0 });

    let t = performance.now();
    await encryptBackup('{}', PASS, WORK);
    const scrypt = performance.now() - t;

    t = performance.now();
    const all = await records.all(A);
    const withValues = await Promise.all(all.map(async (r) => ({ ...r, value: await decryptValue(key, r) })));
    const armored = await encryptBackup(backupJson(A, Date.now(), withValues), PASS, WORK);
    const backup = performance.now() - t;

    t = performance.now();
    const read = readBackup(await decryptAge(new TextEncoder().encode(armored), PASS));
    const taken = await records.placeholders();
    const plan = planRestore(read, { namespace: B, records: await records.all(B), values: new Map(), taken });
    await records.import(B, key, plan.writes, { source: plan.source, count: plan.count, added: plan.added, replaced: plan.replaced, skipped: plan.skipped });
    const restore = performance.now() - t;

    console.log(
      `backup-thousand: scrypt ${scrypt.toFixed(0)} ms; backup ${backup.toFixed(0)} ms; restore ${restore.toFixed(0)} ms (${N} records, work factor ${WORK})`,
    );
    expect(backup - scrypt, 'backup beyond scrypt, ms').to.be.below(5000);
    expect(restore - scrypt, 'restore beyond scrypt, ms').to.be.below(5000);

    // Another namespace: every placeholder was taken, so each got a fresh one; names and values came through.
    expect(plan.items.every((i) => i.status === 'new' && i.placeholderWas !== undefined)).to.equal(true);
    const restored = await records.all(B);
    expect(restored.map((r) => r.name)).to.deep.equal(all.map((r) => r.name));
    const byName = new Map(values.map((v, i) => [`TOKEN_${i}`, v]));
    for (const r of restored) expect(await decryptValue(key, r)).to.equal(byName.get(r.name));
  });
});
