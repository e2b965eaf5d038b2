// Reveals to the kernel's exec as a service, on real IndexedDB and WebCrypto (README, Exec): a
// reveal is written only where what it was decided on still holds in its transaction.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import type { RevealDraft } from '../../src/exec/index.ts';
import { openDevice } from '../../src/lock/index.ts';
import { DEFAULT_LIMITS } from '../../src/policy/index.ts';
import { type Decided, type HeldKey, Records, Reveals, type StoredRecord, type VaultDb, auditPage, openVaultDb, policyMark } from '../../src/store/index.ts';
import { canary } from '../helpers/vault.ts';

const NS = 'https://seven.sliccy.ai';
const draft = (refused: string | null): RevealDraft[] => [
  {
    type: 'materialize',
    name: 'GH_TOKEN',
    variable: 'GITHUB_TOKEN',
    exec: 'any',
    kind: 'exec',
    argv: ['/usr/bin/gh'],
    uid: 1000,
    tag: 'fnox',
    ...(refused && { refused }),
  },
];

describe('reveals', () => {
  let db: VaultDb;
  let dbName = '';
  beforeEach(async () => {
    dbName = `reveals-test-${crypto.randomUUID()}`;
    db = await openVaultDb(dbName);
  });
  afterEach(async () => {
    db.close();
    await deleteDB(dbName);
  });

  /** GH_TOKEN written, and what a reveal of it would be decided on now. */
  async function written() {
    const opened = await openDevice(db);
    if (opened.state !== 'open') throw new Error('a new vault opens by itself');
    const held: HeldKey = opened;
    const records = new Records(db);
    const { record } = await records.write(NS, held, { name: 'GH_TOKEN', value: canary('gh'), kind: 'secret', source: 'settings' });
    const decided = (r: StoredRecord, still = () => true): Decided => ({
      records: [{ id: r.id, revision: r.revision ?? 0, updatedAt: r.updatedAt }],
      policy: policyMark(undefined),
      key: { check: held.check, epoch: held.epoch },
      held: still,
    });
    return { held, records, record, decided };
  }

  const reveal = (record: StoredRecord, decided: Decided) => new Reveals(db).reveal(NS, 'exec', DEFAULT_LIMITS, [record.id], draft, decided, (text) => text);
  const reveals = async () => (await auditPage(db, NS)).audit.filter((e) => e.type === 'materialize');

  it('counts, audits and marks used a reveal whose decision still holds, though other records changed meanwhile', async () => {
    const { held, records, record, decided } = await written();
    await records.write(NS, held, { name: 'OTHER_TOKEN', value: canary('other'), kind: 'secret', source: 'settings' });
    const done = await reveal(record, decided(record));
    expect(done?.refused).to.equal(null);
    expect((await reveals()).map((e) => e.name)).to.deep.equal(['GH_TOKEN']);
    expect((await db.get('records', record.id))?.usedAt).to.be.a('number');
  });

  it('writes nothing and answers null when the record was removed or rotated after the decision', async () => {
    const { held, records, record, decided } = await written();
    await records.remove(NS, 'GH_TOKEN');
    expect(await reveal(record, decided(record))).to.equal(null);
    await records.restore(NS, 'GH_TOKEN');
    const restored = (await db.get('records', record.id))!;
    await records.write(NS, held, { name: 'GH_TOKEN', value: canary('rotated'), kind: 'secret', source: 'settings' });
    expect(await reveal(record, decided(restored))).to.equal(null);
    expect(await reveals()).to.deep.equal([]);
    expect((await db.get('records', record.id))?.usedAt).to.equal(undefined);
    expect(await db.get('reveals', NS)).to.equal(undefined);
  });

  it('writes nothing when a policy file changed, or the lock epoch moved in another document, or this one dropped its key', async () => {
    const { held, record, decided } = await written();
    await db.put('policy', { namespace: NS, accepted: { '/etc/fnox/secrets-policy.toml': { sha256: 'a'.repeat(64), text: '' } }, files: [], audited: {} });
    expect(await reveal(record, decided(record))).to.equal(null);
    await db.delete('policy', NS);
    await db.put('keys', { slot: 'epoch', epoch: held.epoch + 1 });
    expect(await reveal(record, decided(record))).to.equal(null);
    await db.put('keys', { slot: 'epoch', epoch: held.epoch });
    expect(
      await reveal(
        record,
        decided(record, () => false),
      ),
    ).to.equal(null);
    expect(await reveals()).to.deep.equal([]);
    expect((await reveal(record, decided(record)))?.refused, 'all put back, it is written').to.equal(null);
  });
});
