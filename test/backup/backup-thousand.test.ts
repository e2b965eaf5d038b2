// 1,000 records back up and restore in under 5 s each beyond age's scrypt (README, Backup and
// restore), through the same functions the popup runs, on real IndexedDB and WebCrypto. The scrypt
// time is measured on its own, in the same run, and subtracted.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { backupJson, readBackup } from '../../src/backup/format.ts';
import { decryptAge, encryptBackup } from '../../src/backup/age.ts';
import { planRestore } from '../../src/backup/plan.ts';
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

    // Each side is timed beside its own scrypt, up to three times while over the bound: the suite
    // runs other files in both engines at once, and a pause of the machine's lands in one try, while
    // a slow backup or restore shows in every try (test/helpers/heartbeat.ts does the same).
    const scrypted = async () => {
      const t = performance.now();
      await encryptBackup('{}', PASS, WORK);
      return performance.now() - t;
    };
    const beyondScrypt = async (work: () => Promise<unknown>) => {
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 3 && best >= 5000; i++) {
        const scrypt = await scrypted();
        const t = performance.now();
        await work();
        best = Math.min(best, performance.now() - t - scrypt);
      }
      return best;
    };
    const all = await records.all(A);
    let armored = '';
    const backup = await beyondScrypt(async () => {
      const withValues = await Promise.all(all.map(async (r) => ({ ...r, value: await decryptValue(key, r) })));
      armored = await encryptBackup(backupJson(A, Date.now(), withValues), PASS, WORK);
    });
    let plan: ReturnType<typeof planRestore> | undefined;
    let target = B;
    let tries = 0;
    const restore = await beyondScrypt(async () => {
      // A fresh namespace each try, so each restores every record anew.
      target = tries === 0 ? B : `https://new${tries}.sliccy.ai`;
      tries++;
      const read = readBackup(await decryptAge(new TextEncoder().encode(armored), PASS));
      const taken = await records.placeholders();
      plan = planRestore(read, { namespace: target, records: await records.all(target), values: new Map(), taken });
      await records.import(target, key, plan.writes, {
        source: plan.source,
        count: plan.count,
        added: plan.added,
        replaced: plan.replaced,
        skipped: plan.skipped,
      });
    });

    console.log(
      `backup-thousand: beyond the scrypt time, backup ${backup.toFixed(0)} ms; restore ${restore.toFixed(0)} ms (${N} records, work factor ${WORK})`,
    );
    expect(backup, 'backup beyond scrypt, ms').to.be.below(5000);
    expect(restore, 'restore beyond scrypt, ms').to.be.below(5000);

    // Another namespace: every placeholder was taken, so each got a fresh one; names and values came through.
    expect(plan!.items.every((i) => i.status === 'new' && i.placeholderWas !== undefined)).to.equal(true);
    const restored = await records.all(target);
    expect(restored.map((r) => r.name)).to.deep.equal(all.map((r) => r.name));
    const byName = new Map(values.map((v, i) => [`TOKEN_${i}`, v]));
    for (const r of restored) expect(await decryptValue(key, r)).to.equal(byName.get(r.name));
  });
});
