// Reveals to the kernel's exec as a service, on real IndexedDB and WebCrypto (README, Exec): a
// reveal is written only where what it was decided on still holds in its transaction.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import type { RevealDraft } from '../../src/exec/index.ts';
import { autoUnlock } from '../../src/lock/index.ts';
import { DEFAULT_LIMITS } from '../../src/policy/index.ts';
import { Namespaces, Records, Reveals, type VaultDb, auditPage, openVaultDb } from '../../src/store/index.ts';
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

  /** GH_TOKEN written, and the revision a reveal would be decided at now. */
  async function written() {
    const key = (await autoUnlock(db))!;
    const records = new Records(db);
    const { record } = await records.write(NS, key, { name: 'GH_TOKEN', value: canary('gh'), kind: 'secret', source: 'settings' });
    return { key, records, record, rev: await new Namespaces(db).rev(NS) };
  }

  const reveals = async () => (await auditPage(db, NS)).audit.filter((e) => e.type === 'materialize');

  it('counts, audits and marks used a reveal decided at the revision stored', async () => {
    const { record, rev } = await written();
    const done = await new Reveals(db).reveal(NS, 'exec', DEFAULT_LIMITS, [record.id], draft, { rev, held: () => true });
    expect(done?.refused).to.equal(null);
    expect((await reveals()).map((e) => e.name)).to.deep.equal(['GH_TOKEN']);
    expect((await db.get('records', record.id))?.usedAt).to.be.a('number');
    expect(await new Namespaces(db).rev(NS)).to.equal(rev + 1);
  });

  it('writes nothing and answers null when another write moved the revision after the decision', async () => {
    const { records, record, rev } = await written();
    await records.remove(NS, 'GH_TOKEN');
    const done = await new Reveals(db).reveal(NS, 'exec', DEFAULT_LIMITS, [record.id], draft, { rev, held: () => true });
    expect(done).to.equal(null);
    expect(await reveals()).to.deep.equal([]);
    expect((await db.get('records', record.id))?.usedAt).to.equal(undefined);
    expect(await db.get('reveals', NS)).to.equal(undefined);
  });

  it('writes nothing and answers null when the key it decrypted with is no longer held (a lock)', async () => {
    const { record, rev } = await written();
    const done = await new Reveals(db).reveal(NS, 'exec', DEFAULT_LIMITS, [record.id], draft, { rev, held: () => false });
    expect(done).to.equal(null);
    expect(await reveals()).to.deep.equal([]);
    expect(await new Namespaces(db).rev(NS)).to.equal(rev);
  });
});
