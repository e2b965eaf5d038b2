// One unreadable record breaks nothing else (README, Key store and lock): the vault of one
// document on real IndexedDB and WebCrypto in the test page's origin, with one record's
// ciphertext damaged on disk.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import type { AuditEntry } from '../../src/contract.ts';
import { openVaultDb, type VaultDb } from '../../src/store/index.ts';
import { forward, parseForward as checkForward } from '../../src/forward/index.ts';
import { Vault } from '../../src/core/index.ts';
import { FNOX, attest, fnoxConfig } from '../helpers/attest.ts';
import { canary } from '../helpers/vault.ts';

const NS = 'https://seven.sliccy.ai';
const owner = { pid: 7, ppid: 1, uid: 1000, gid: 1000, tag: 'gh' };
const config = { name: 'SLICC vault (test)', passphraseIterations: 600_000, requestLifetimeMs: 300_000 };
let dbName = '';
let db: VaultDb;
const vaults: Vault[] = [];

async function open() {
  const vault = await Vault.open({ db, config });
  vaults.push(vault);
  return vault;
}

const headFor = (placeholder: string) => ({ method: 'GET', url: 'https://api.github.com/repos/a/b', headers: [['Authorization', `Bearer ${placeholder}`]] });
const unreadableEntries = (audit: AuditEntry[]) => audit.filter((e) => e.type === 'unreadable');

describe('an unreadable record', () => {
  beforeEach(async () => {
    dbName = `unreadable-test-${crypto.randomUUID()}`;
    db = await openVaultDb(dbName);
  });
  afterEach(async () => {
    for (const vault of vaults.splice(0)) vault.close();
    db.close();
    await deleteDB(dbName);
  });

  it('is skipped by the scrubber and the injector, listed as unreadable and audited once, while the rest of the namespace works', async () => {
    const writer = await open();
    const good = canary('good');
    const bad = canary('bad');
    const { placeholder: goodPlaceholder } = await writer.writes.put(NS, { name: 'GOOD_TOKEN', value: good, kind: 'secret', source: 'settings' });
    const { placeholder: badPlaceholder } = await writer.writes.put(NS, { name: 'BAD_TOKEN', value: bad, kind: 'secret', source: 'settings' });
    const attestation = await attest(
      FNOX,
      fnoxConfig([
        ['GOOD_TOKEN', goodPlaceholder, 'api.github.com'],
        ['BAD_TOKEN', badPlaceholder, 'api.github.com'],
      ]),
    );
    await writer.writes.applyPolicy(NS, [{ path: attestation.path, attestation }]);
    // The damage: one record's ciphertext no longer opens under the vault's key.
    const stored = (await db.getFromIndex('records', 'byName', [NS, 'BAD_TOKEN']))!;
    await db.put('records', { ...stored, ciphertext: crypto.getRandomValues(new Uint8Array(stored.ciphertext.byteLength)).buffer });
    writer.close();

    const vault = await open();
    await vault.served.serve(NS);
    const { scrubber } = await vault.reads.scrubber(NS);
    expect(scrubber.redact(`token ${good} here`).text).to.equal(`token ${goodPlaceholder} here`);

    const list = await vault.reads.list(NS);
    expect(Object.fromEntries(list.secrets.map((s) => [s.name, s.state]))).to.deep.equal({ BAD_TOKEN: 'unreadable', GOOD_TOKEN: 'active' });
    expect(unreadableEntries(list.audit).map((e) => (e as { name: string }).name)).to.deep.equal(['BAD_TOKEN']);

    const port = () => new MessageChannel().port1;
    const refused = await forward(
      vault,
      NS,
      checkForward({ head: headFor(badPlaceholder), owner, exit: 'page', rawTraits: { manualRedirects: true } }),
      port(),
    );
    expect(refused).to.deep.equal({ refused: { status: 403, reason: "BAD_TOKEN can't be read under the vault's key; it is never injected" } });
    const injected = await forward(
      vault,
      NS,
      checkForward({ head: headFor(goodPlaceholder), owner, exit: 'page', rawTraits: { manualRedirects: true } }),
      port(),
    );
    expect((injected as { head: { headers: string[][] } }).head.headers).to.deep.equal([['Authorization', `Bearer ${good}`]]);

    // Found again by another document, it is audited no more.
    const again = await open();
    await again.served.serve(NS);
    expect(unreadableEntries((await again.reads.list(NS)).audit)).to.have.length(1);

    // Sealed anew, it is readable again.
    await again.writes.put(NS, { name: 'BAD_TOKEN', value: canary('again'), kind: 'secret', source: 'settings' });
    expect((await again.reads.list(NS)).secrets.find((s) => s.name === 'BAD_TOKEN')!.state).to.equal('active');
  });
});
