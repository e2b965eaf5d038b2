// A restore is a write like any other (README, Backup and restore): it holds the key check and
// the revision the preview read in its transaction, so a lock or a rotation landing between the
// preview and "Restore" makes it write nothing, and nothing is ever written under a key a lock
// replaced. And the first lock, which re-encrypts every record, keeps what other writes did
// meanwhile. Real IndexedDB and WebCrypto in the test page's own origin, the popup's own service.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { BackupService, type RestorePlan } from '../../src/backup/index.ts';
import { planRestore } from '../../src/backup/plan.ts';
import { readDotenv } from '../../src/backup/dotenv.ts';
import { VaultError } from '../../src/errors.ts';
import { Lock, openDevice } from '../../src/lock/index.ts';
import { type HeldKey, Records, type VaultDb, auditPage, decryptValue, openVaultDb } from '../../src/store/index.ts';
import { canary } from '../helpers/vault.ts';

const NS = 'https://seven.sliccy.ai';
/** What the popup's key ring holds: the key, with the check value and epoch it was taken at. */
const ring = (held: HeldKey) => ({ key: held.key, current: held });
const PASSPHRASE = 'correct horse battery';

describe('a restore between its preview and its write', () => {
  let name: string;
  let db: VaultDb;
  let held: HeldKey;

  beforeEach(async () => {
    name = `restore-races-${crypto.randomUUID()}`;
    db = await openVaultDb(name);
    const opened = await openDevice(db);
    if (opened.state !== 'open') throw new Error('a new vault opens by itself');
    held = opened;
  });
  afterEach(async () => {
    db.close();
    await deleteDB(name);
  });

  /** A `.env` file's plan against the vault as it is now, as the popup's preview makes it. */
  async function preview(lines: string[]): Promise<RestorePlan> {
    const records = new Records(db);
    const here = await records.all(NS);
    const values = new Map(await Promise.all(here.map(async (r) => [r.name, await decryptValue(held.key, r)] as [string, string])));
    return planRestore(readDotenv(lines.join('\n')), { namespace: NS, records: here, values, taken: await records.placeholders() });
  }

  async function refusal(work: Promise<unknown>): Promise<VaultError> {
    try {
      await work;
    } catch (error) {
      expect(error).to.be.instanceOf(VaultError);
      return error as VaultError;
    }
    throw new Error('the restore was written');
  }

  it('writes nothing and says the vault changed when a record it replaces was rotated after the preview', async () => {
    const records = new Records(db);
    await records.write(NS, held, { name: 'NPM_TOKEN', value: canary('first'), kind: 'secret', source: 'settings' });
    const fromFile = canary('file');
    const plan = await preview([`NPM_TOKEN=${fromFile}`, `NEW_TOKEN=${canary('new')}`]);
    expect(plan.items.map((i) => i.status)).to.deep.equal(['replaces', 'new']);
    // The page rotates the value while the preview is open.
    const rotated = canary('rotated');
    await records.write(NS, held, { name: 'NPM_TOKEN', value: rotated, kind: 'secret', source: 'settings' });

    const service = new BackupService({ namespace: NS, db, keys: ring(held) });
    const error = await refusal(service.confirm(plan));
    service.close();
    expect(error.code).to.equal('EAGAIN');
    expect(error.message).to.equal('the vault changed; choose the file again');
    const after = await records.all(NS);
    expect(after.map((r) => r.name)).to.deep.equal(['NPM_TOKEN']);
    expect(await decryptValue(held.key, after[0]!)).to.equal(rotated);
    expect((await auditPage(db, NS)).audit.map((e) => e.type)).to.not.include('import');
  });

  it('writes nothing when a record the preview found unchanged, or kept as it is, was rotated or removed after it', async () => {
    const records = new Records(db);
    const same = canary('same');
    await records.write(NS, held, { name: 'API_KEY', value: same, kind: 'secret', source: 'settings' });
    await records.write(NS, held, { name: 'MCP_TOKEN', value: canary('mcp'), kind: 'mcp', source: 'settings' });
    for (const change of ['rotate', 'remove', 'other kind'] as const) {
      const plan = await preview([`API_KEY=${same}`, `MCP_TOKEN=${canary('file')}`, `NEW_KEY=${canary('new')}`]);
      expect(plan.items.map((i) => i.status)).to.deep.equal(['unchanged', 'invalid', 'new']);
      expect(plan.writes.map((w) => w.name)).to.deep.equal(['NEW_KEY']);
      const rotated = canary('rotated');
      if (change === 'rotate') await records.write(NS, held, { name: 'API_KEY', value: rotated, kind: 'secret', source: 'settings' });
      else if (change === 'remove') await records.remove(NS, 'API_KEY');
      else await records.write(NS, held, { name: 'MCP_TOKEN', value: canary('mcp again'), kind: 'mcp', source: 'settings' });
      const service = new BackupService({ namespace: NS, db, keys: ring(held) });
      const error = await refusal(service.confirm(plan));
      service.close();
      expect([change, error.message]).to.deep.equal([change, 'the vault changed; choose the file again']);
      expect((await records.all(NS)).map((r) => r.name).sort(), change).to.deep.equal(['API_KEY', 'MCP_TOKEN']);
      if (change === 'rotate') await records.write(NS, held, { name: 'API_KEY', value: same, kind: 'secret', source: 'settings' });
      if (change === 'remove') await records.restore(NS, 'API_KEY');
    }
    expect((await auditPage(db, NS)).audit.map((e) => e.type)).to.not.include('import');
  });

  it('writes nothing when the first lock replaced the key after the preview, and every record still opens under the new key', async () => {
    const records = new Records(db);
    const kept = canary('kept');
    await records.write(NS, held, { name: 'NPM_TOKEN', value: kept, kind: 'secret', source: 'settings' });
    const plan = await preview([`NPM_TOKEN=${canary('file')}`, `NEW_TOKEN=${canary('new')}`]);
    // The person sets the first lock in another popup: a fresh data key, every record re-encrypted.
    const lock = new Lock(db, { iterations: 600_000, rpName: 'test' });
    const fresh = (await lock.setPassphrase(PASSPHRASE))!;

    // This popup still holds the key from before the lock.
    const service = new BackupService({ namespace: NS, db, keys: ring(held) });
    const error = await refusal(service.confirm(plan));
    service.close();
    expect(error.code).to.equal('EACCES');
    const after = await records.all(NS);
    expect(after.map((r) => r.name)).to.deep.equal(['NPM_TOKEN']);
    expect(await decryptValue(fresh, after[0]!)).to.equal(kept);
    const unlocked = await lock.unlock({ passphrase: PASSPHRASE });
    for (const r of after) expect(await decryptValue(unlocked, r)).to.be.a('string');
  });

  it('writes the plan when nothing changed since the preview, under the key it checked', async () => {
    const records = new Records(db);
    await records.write(NS, held, { name: 'NPM_TOKEN', value: canary('first'), kind: 'secret', source: 'settings' });
    const fromFile = canary('file');
    const plan = await preview([`NPM_TOKEN=${fromFile}`]);
    const service = new BackupService({ namespace: NS, db, keys: ring(held) });
    await service.confirm(plan);
    service.close();
    const [record] = await records.all(NS);
    expect(await decryptValue(held.key, record!)).to.equal(fromFile);
    expect(record!.revision).to.equal(2);
  });

  it('audits the records it brings back from removed apart from those it replaces', async () => {
    const records = new Records(db);
    for (const name of ['NPM_TOKEN', 'OLD_TOKEN']) await records.write(NS, held, { name, value: canary(name), kind: 'secret', source: 'settings' });
    await records.remove(NS, 'OLD_TOKEN');
    const plan = await preview([`NPM_TOKEN=${canary('file')}`, `OLD_TOKEN=${canary('back')}`]);
    const service = new BackupService({ namespace: NS, db, keys: ring(held) });
    await service.confirm(plan);
    service.close();
    const [entry] = (await auditPage(db, NS, undefined, 1)).audit;
    expect(entry).to.deep.include({ type: 'import', count: 2, added: 0, replaced: 2, broughtBack: 1, skipped: 0 });
  });
});

describe('the first lock', () => {
  let name: string;
  let db: VaultDb;

  beforeEach(async () => {
    name = `first-lock-races-${crypto.randomUUID()}`;
    db = await openVaultDb(name);
  });
  afterEach(async () => {
    db.close();
    await deleteDB(name);
  });

  it('keeps a removal made while it re-encrypted the records', async () => {
    const opened = await openDevice(db);
    if (opened.state !== 'open') throw new Error('a new vault opens by itself');
    const records = new Records(db);
    await records.write(NS, opened, { name: 'GONE_TOKEN', value: canary('gone'), kind: 'secret', source: 'settings' });
    // The removal's transaction is made just after the lock's read (so it runs after it, IndexedDB
    // orders them) and before the lock's write, which comes after the re-encryption.
    let removing: Promise<unknown> | null = null;
    const watched = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
        return (stores: unknown, mode?: IDBTransactionMode) => {
          const tx = target.transaction(stores as never, mode);
          if (!removing && mode !== 'readwrite' && Array.isArray(stores) && stores.includes('records')) {
            removing = records.remove(NS, 'GONE_TOKEN');
          }
          return tx;
        };
      },
    });
    const fresh = (await new Lock(watched, { iterations: 600_000, rpName: 'test' }).setPassphrase(PASSPHRASE))!;
    await removing;
    const [record] = await records.all(NS);
    expect(record!.removedAt, 'the removal made during the lock').to.be.a('number');
    expect(await decryptValue(fresh, record!)).to.be.a('string');
  });
});
