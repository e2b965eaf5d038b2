// An unreadable record breaks nothing else (README, Key store and lock), backups and restores
// included: a backup leaves it out and says so, and a file that names it replaces it. Real
// IndexedDB, WebCrypto and the age worker in the test page's own origin, the popup's own service.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { BackupService } from '../../src/backup/index.ts';
import { decryptAge } from '../../src/backup/age.ts';
import { readBackup } from '../../src/backup/format.ts';
import { openDevice } from '../../src/lock/index.ts';
import { type HeldKey, Records, type VaultDb, decryptValue, openVaultDb } from '../../src/store/index.ts';
import { canary } from '../helpers/vault.ts';

const NS = 'https://seven.sliccy.ai';
const PASSPHRASE = 'correct horse battery';

describe('an unreadable record in a backup and a restore', () => {
  let name: string;
  let db: VaultDb;
  let held: HeldKey;
  let service: BackupService;

  beforeEach(async () => {
    name = `backup-unreadable-${crypto.randomUUID()}`;
    db = await openVaultDb(name);
    const opened = await openDevice(db);
    if (opened.state !== 'open') throw new Error('a new vault opens by itself');
    held = opened;
    service = new BackupService({ namespace: NS, db, keys: { current: held } }, { workFactor: 1 });
  });
  afterEach(async () => {
    service.close();
    db.close();
    await deleteDB(name);
  });

  /** GH_TOKEN readable, BROKEN_TOKEN with a ciphertext the key doesn't open. */
  async function withBroken() {
    const records = new Records(db);
    const gh = canary('gh');
    await records.write(NS, held, { name: 'GH_TOKEN', value: gh, kind: 'secret', source: 'settings' });
    const { record } = await records.write(NS, held, { name: 'BROKEN_TOKEN', value: canary('broken'), kind: 'secret', source: 'settings' });
    await db.put('records', { ...record, ciphertext: new Uint8Array(record.ciphertext.byteLength).buffer });
    return { records, gh };
  }

  it('backs up every record that opens, leaves out one that does not, and says how many it left out', async () => {
    const { gh } = await withBroken();
    const made = await service.backUp(PASSPHRASE, PASSPHRASE);
    expect([made.count, made.unreadable]).to.deep.equal([1, 1]);
    const read = readBackup(await decryptAge(new TextEncoder().encode(made.file), PASSPHRASE));
    expect(read.records.map((r) => [r.name, r.value])).to.deep.equal([['GH_TOKEN', gh]]);
  });

  it('plans a file that names an unreadable record as replacing it, and the restore makes it readable again', async () => {
    const { records } = await withBroken();
    const fresh = canary('fresh');
    const chosen = await service.choose(new Blob([`BROKEN_TOKEN=${fresh}\n`]));
    if (chosen.kind !== 'plan') throw new Error('a .env file is planned at once');
    expect(chosen.plan.items.map((i) => [i.name, i.status])).to.deep.equal([['BROKEN_TOKEN', 'replaces']]);
    await service.confirm(chosen.plan);
    const after = (await records.all(NS)).find((r) => r.name === 'BROKEN_TOKEN')!;
    expect(await decryptValue(held.key, after)).to.equal(fresh);
  });
});
