// The lock's key slots as a service, on real IndexedDB, WebCrypto and Chromium's virtual
// authenticator (PRF on) in the test page's own origin, each test with a database of its own and
// a clock it controls.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { deleteDB } from 'idb';
import { openVaultDb, type VaultDb } from '../src/db.ts';
import { autoUnlock, decryptValue, encryptValue, type KeySlot } from '../src/keys.ts';
import { Lock, LockError, delayAfter, type Proof } from '../src/lock.ts';
import { canary } from './helpers/vault.ts';

const ITERATIONS = 600_000;
const PASSPHRASE = 'correct horse battery';
let dbName = '';
let db: VaultDb;
let clock = 1_000_000;
const authenticators: string[] = [];

function lock(options: { iterations?: number } = {}) {
  return new Lock(db, { iterations: options.iterations ?? ITERATIONS, rpName: 'SLICC vault (test)', now: () => clock });
}

async function addAuthenticator(prf = true, userVerified = true) {
  const { authenticatorId } = (await executeServerCommand('webauthn', { action: 'add', prf, userVerified })) as { authenticatorId: string };
  authenticators.push(authenticatorId);
  return authenticatorId;
}

async function slotNames() {
  return (await db.getAll('keys')).map((s) => s.slot).sort();
}

async function refused(work: Promise<unknown>): Promise<LockError> {
  try {
    await work;
  } catch (error) {
    expect(error).to.be.instanceOf(LockError);
    return error as LockError;
  }
  throw new Error('expected a LockError');
}

/** A value sealed under the data key before the lock, to show the same key comes back. */
async function sealed(key: CryptoKey) {
  const binding = { id: 'r1', namespace: 'https://seven.sliccy.ai', name: 'TOKEN' };
  const value = canary('lock');
  return { value, binding, ...(await encryptValue(key, value, binding)) };
}

describe('the lock', () => {
  beforeEach(async () => {
    dbName = `lock-test-${crypto.randomUUID()}`;
    db = await openVaultDb(dbName);
    clock = 1_000_000;
  });
  afterEach(async () => {
    db.close();
    await deleteDB(dbName);
    for (const authenticatorId of authenticators.splice(0)) await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
  });

  it('sets a passphrase slot in place of the device slot, and the passphrase opens the same data key', async () => {
    const before = await sealed((await autoUnlock(db))!);
    await lock().setPassphrase(PASSPHRASE);
    expect(await slotNames()).to.deep.equal(['passphrase']);
    expect(await lock().state()).to.deep.equal({ passphrase: true, passkey: false });
    const slot = (await db.get('keys', 'passphrase')) as KeySlot & { salt: Uint8Array; iterations: number };
    expect(slot.salt.byteLength).to.equal(16);
    expect(slot.iterations).to.equal(ITERATIONS);
    expect(await autoUnlock(db)).to.equal(null);
    const key = await lock().unlock({ passphrase: PASSPHRASE });
    expect(key.extractable).to.equal(false);
    expect(await decryptValue(key, { ...before.binding, iv: before.iv, ciphertext: before.ciphertext })).to.equal(before.value);
  });

  it('refuses a passphrase shorter than 8 characters and compares passphrases NFC-normalised', async () => {
    await autoUnlock(db);
    expect((await refused(lock().setPassphrase('seven77'))).message).to.equal('a passphrase needs at least 8 characters');
    expect(await slotNames()).to.deep.equal(['device']);
    await lock().setPassphrase('caf\u00e9 au lait');
    const key = await lock().unlock({ passphrase: 'cafe\u0301 au lait' });
    expect(key.type).to.equal('secret');
  });

  it('refuses a wrong passphrase, and each failure makes the next attempt wait longer, across a reload, deleting nothing', async () => {
    await autoUnlock(db);
    await lock().setPassphrase(PASSPHRASE);
    const wrong: Proof = { passphrase: 'not the passphrase' };
    expect((await refused(lock().unlock(wrong))).message).to.equal('wrong passphrase');
    const soon = await refused(lock().unlock({ passphrase: PASSPHRASE }));
    expect([soon.reason, soon.retryInMs]).to.deep.equal(['too-soon', 1000]);
    expect(soon.message).to.equal('too many failed attempts: try again in 1 second');
    clock += 1000;
    expect((await refused(lock().unlock(wrong))).reason).to.equal('wrong-passphrase');
    // A new Lock over the same database is a reload: the count is in IndexedDB.
    expect(await lock().retryIn('passphrase')).to.equal(2000);
    clock += 2000;
    await refused(lock().unlock(wrong));
    expect(await lock().retryIn('passphrase')).to.equal(4000);
    expect(await slotNames()).to.deep.equal(['passphrase']);
    clock += 4000;
    await lock().unlock({ passphrase: PASSPHRASE });
    expect(await lock().retryIn('passphrase')).to.equal(0);
    expect([delayAfter(0), delayAfter(1), delayAfter(4), delayAfter(30)]).to.deep.equal([0, 1000, 8000, 300_000]);
  });

  it('changes the passphrase only with the current one, and the old one stops working', async () => {
    await autoUnlock(db);
    await lock().setPassphrase(PASSPHRASE);
    expect((await refused(lock().setPassphrase('a new passphrase'))).reason).to.equal('proof-needed');
    expect((await refused(lock().setPassphrase('a new passphrase', { passphrase: 'wrong one!' }))).reason).to.equal('wrong-passphrase');
    clock += 1000;
    await lock().setPassphrase('a new passphrase', { passphrase: PASSPHRASE });
    clock += 10_000;
    expect((await refused(lock().unlock({ passphrase: PASSPHRASE }))).reason).to.equal('wrong-passphrase');
    clock += 10_000;
    await lock().unlock({ passphrase: 'a new passphrase' });
  });

  it('locks with a PRF passkey, unlocks with it, and removing the lock brings back auto-unlock', async () => {
    await addAuthenticator();
    const before = await sealed((await autoUnlock(db))!);
    await lock().setPasskey();
    expect(await slotNames()).to.deep.equal(['passkey']);
    const slot = (await db.get('keys', 'passkey')) as KeySlot & { prfSalt: Uint8Array; credentialId: ArrayBuffer };
    expect(slot.prfSalt.byteLength).to.equal(32);
    expect(slot.credentialId.byteLength).to.be.greaterThan(0);
    const key = await lock().unlock({ passkey: true });
    expect(await decryptValue(key, { ...before.binding, iv: before.iv, ciphertext: before.ciphertext })).to.equal(before.value);
    await lock().removeLock({ passkey: true });
    expect(await slotNames()).to.deep.equal(['device']);
    expect(await lock().state()).to.equal(null);
    const again = await autoUnlock(db);
    expect(await decryptValue(again!, { ...before.binding, iv: before.iv, ciphertext: before.ciphertext })).to.equal(before.value);
  });

  it('adds a passkey to a passphrase lock only with the right passphrase, creating no passkey for a wrong one', async () => {
    const authenticatorId = await addAuthenticator();
    await autoUnlock(db);
    await lock().setPassphrase(PASSPHRASE);
    expect((await refused(lock().setPasskey({ passphrase: 'wrong one!' }))).reason).to.equal('wrong-passphrase');
    const { credentials } = (await executeServerCommand('webauthn', { action: 'credentials', authenticatorId })) as { credentials: unknown[] };
    expect(credentials).to.deep.equal([]);
    clock += 1000;
    await lock().setPasskey({ passphrase: PASSPHRASE });
    expect(await lock().state()).to.deep.equal({ passphrase: true, passkey: true });
  });

  it('sets both kinds, and either one unlocks; removing the lock needs one of them', async () => {
    await addAuthenticator();
    await autoUnlock(db);
    await lock().setPasskey();
    expect((await refused(lock().setPassphrase(PASSPHRASE))).reason).to.equal('proof-needed');
    await lock().setPassphrase(PASSPHRASE, { passkey: true });
    expect(await lock().state()).to.deep.equal({ passphrase: true, passkey: true });
    await lock().unlock({ passkey: true });
    await lock().unlock({ passphrase: PASSPHRASE });
    expect((await refused(lock().removeLock({ passphrase: 'wrong one!' }))).message).to.equal('wrong passphrase');
    expect(await slotNames()).to.deep.equal(['passkey', 'passphrase']);
    clock += 1000;
    await lock().removeLock({ passphrase: PASSPHRASE });
    expect(await slotNames()).to.deep.equal(['device']);
  });

  it("refuses a passkey that doesn't unwrap the key, counts it, and deletes nothing", async () => {
    await addAuthenticator();
    await autoUnlock(db);
    await lock().setPasskey();
    const slot = (await db.get('keys', 'passkey'))!;
    // Another PRF salt gives another PRF output: a passkey whose key doesn't fit this slot.
    await db.put('keys', { ...slot, prfSalt: crypto.getRandomValues(new Uint8Array(32)) } as KeySlot);
    expect((await refused(lock().unlock({ passkey: true }))).message).to.equal("that passkey doesn't unlock this vault");
    expect(await lock().retryIn('passkey')).to.equal(1000);
    expect(await slotNames()).to.deep.equal(['passkey']);
  });

  it('refuses an authenticator without PRF with a clear message, and the vault stays as it was', async () => {
    await addAuthenticator(false);
    await autoUnlock(db);
    const error = await refused(lock().setPasskey());
    expect(error.reason).to.equal('no-prf');
    expect(error.message).to.contain("doesn't support the PRF extension");
    expect(await slotNames()).to.deep.equal(['device']);
    expect(await lock().state()).to.equal(null);
  });

  it('says a passkey prompt that ends without the person verified was cancelled, and changes nothing', async () => {
    await addAuthenticator(true, false);
    await autoUnlock(db);
    const error = await refused(lock().setPasskey());
    expect([error.reason, error.message]).to.deep.equal(['cancelled', 'the passkey prompt was cancelled; nothing changed']);
    expect(await slotNames()).to.deep.equal(['device']);
  });
});
