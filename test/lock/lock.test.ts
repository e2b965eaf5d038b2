// The lock's key slots as a service, on real IndexedDB, WebCrypto and Chromium's virtual
// authenticator (PRF on) in the test page's own origin, each test with a database of its own and
// a clock it controls.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { deleteDB } from 'idb';
import { Lock, LockError, type Proof, autoUnlock } from '../../src/lock/index.ts';
import { delayAfter } from '../../src/lock/lock.ts';
import { opensCheck, unwrapKey } from '../../src/lock/slots.ts';
import { type DeviceSlot, type KeyCheck, type KeyEpoch, type KeySlot, Records, type VaultDb, decryptValue, openVaultDb } from '../../src/store/index.ts';
import { canary } from '../helpers/vault.ts';

const ITERATIONS = 600_000;
const NS = 'https://seven.sliccy.ai';
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

/** The key slots (the check value, epoch and auto-lock entries beside them aren't slots). */
async function slotNames() {
  return (await db.getAll('keys'))
    .map((s) => s.slot)
    .filter((s) => ['device', 'passphrase', 'passkey'].includes(s))
    .sort();
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

/** A record written under the data key before the lock; `read` opens it as stored now. */
async function stored(key: CryptoKey) {
  const value = canary('lock');
  const { record } = await new Records(db).write(NS, key, { name: 'TOKEN', value, kind: 'secret', source: 'settings' });
  return { value, read: async (with_: CryptoKey) => decryptValue(with_, (await db.get('records', record.id))!) };
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

  it('sets a passphrase slot in place of the device slot, and the passphrase opens the records', async () => {
    const before = await stored((await autoUnlock(db))!);
    await lock().setPassphrase(PASSPHRASE);
    expect(await slotNames()).to.deep.equal(['passphrase']);
    expect(await lock().state()).to.deep.equal({ passphrase: true, passkey: false, autoLockMs: null });
    const slot = (await db.get('keys', 'passphrase')) as KeySlot & { salt: Uint8Array; iterations: number };
    expect(slot.salt.byteLength).to.equal(16);
    expect(slot.iterations).to.equal(ITERATIONS);
    expect(await autoUnlock(db)).to.equal(null);
    const key = await lock().unlock({ passphrase: PASSPHRASE });
    expect(key.extractable).to.equal(false);
    expect(await before.read(key)).to.equal(before.value);
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

  it('locks with a PRF passkey, unlocks with it, and removing the lock brings back auto-unlock (Chromium only)', async () => {
    await addAuthenticator();
    const before = await stored((await autoUnlock(db))!);
    await lock().setPasskey();
    expect(await slotNames()).to.deep.equal(['passkey']);
    const slot = (await db.get('keys', 'passkey')) as KeySlot & { prfSalt: Uint8Array; credentialId: ArrayBuffer };
    expect(slot.prfSalt.byteLength).to.equal(32);
    expect(slot.credentialId.byteLength).to.be.greaterThan(0);
    const key = await lock().unlock({ passkey: true });
    expect(await before.read(key)).to.equal(before.value);
    await lock().removeLock({ passkey: true });
    expect(await slotNames()).to.deep.equal(['device']);
    expect(await lock().state()).to.equal(null);
    const again = await autoUnlock(db);
    expect(await before.read(again!)).to.equal(before.value);
  });

  it('adds a passkey to a passphrase lock only with the right passphrase, creating no passkey for a wrong one (Chromium only)', async () => {
    const authenticatorId = await addAuthenticator();
    await autoUnlock(db);
    await lock().setPassphrase(PASSPHRASE);
    expect((await refused(lock().setPasskey({ passphrase: 'wrong one!' }))).reason).to.equal('wrong-passphrase');
    const { credentials } = (await executeServerCommand('webauthn', { action: 'credentials', authenticatorId })) as { credentials: unknown[] };
    expect(credentials).to.deep.equal([]);
    clock += 1000;
    await lock().setPasskey({ passphrase: PASSPHRASE });
    expect(await lock().state()).to.deep.equal({ passphrase: true, passkey: true, autoLockMs: null });
  });

  it('sets both kinds, and either one unlocks; removing the lock needs one of them (Chromium only)', async () => {
    await addAuthenticator();
    await autoUnlock(db);
    await lock().setPasskey();
    expect((await refused(lock().setPassphrase(PASSPHRASE))).reason).to.equal('proof-needed');
    await lock().setPassphrase(PASSPHRASE, { passkey: true });
    expect(await lock().state()).to.deep.equal({ passphrase: true, passkey: true, autoLockMs: null });
    await lock().unlock({ passkey: true });
    await lock().unlock({ passphrase: PASSPHRASE });
    expect((await refused(lock().removeLock({ passphrase: 'wrong one!' }))).message).to.equal('wrong passphrase');
    expect(await slotNames()).to.deep.equal(['passkey', 'passphrase']);
    clock += 1000;
    await lock().removeLock({ passphrase: PASSPHRASE });
    expect(await slotNames()).to.deep.equal(['device']);
  });

  it("refuses a passkey that doesn't unwrap the key, counts it, and deletes nothing (Chromium only)", async () => {
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

  it('refuses an authenticator without PRF with a clear message, and the vault stays as it was (Chromium only)', async () => {
    await addAuthenticator(false);
    await autoUnlock(db);
    const error = await refused(lock().setPasskey());
    expect(error.reason).to.equal('no-prf');
    expect(error.message).to.contain("doesn't support the PRF extension");
    expect(await slotNames()).to.deep.equal(['device']);
    expect(await lock().state()).to.equal(null);
  });

  it('says a passkey prompt that ends without the person verified was cancelled, and changes nothing (Chromium only)', async () => {
    await addAuthenticator(true, false);
    await autoUnlock(db);
    const error = await refused(lock().setPasskey());
    expect([error.reason, error.message]).to.deep.equal(['cancelled', 'the passkey prompt was cancelled; nothing changed']);
    expect(await slotNames()).to.deep.equal(['device']);
  });

  it('counts attempts made at once: of three wrong passphrases sent together one is tried and counted, the others refused untried, round after round', async () => {
    await autoUnlock(db);
    await lock().setPassphrase(PASSPHRASE);
    const wrong: Proof = { passphrase: 'not the passphrase' };
    for (let round = 1; round <= 6; round++) {
      const reasons = await Promise.all([0, 1, 2].map(async () => (await refused(lock().unlock(wrong))).reason));
      expect(
        reasons.filter((r) => r === 'wrong-passphrase'),
        `round ${round}`,
      ).to.have.length(1);
      expect(
        reasons.filter((r) => r === 'too-soon'),
        `round ${round}`,
      ).to.have.length(2);
      expect(await lock().retryIn('passphrase')).to.equal(delayAfter(round));
      clock += delayAfter(round);
    }
    // Six tried, six counted: the old read-then-write stored 1 here (a 1 s wait instead of 32 s).
    expect(delayAfter(6)).to.equal(32_000);
    // A success clears the count.
    await lock().unlock({ passphrase: PASSPHRASE });
    expect(await lock().retryIn('passphrase')).to.equal(0);
  });

  it('keeps PBKDF2 between 600,000 and 10,000,000 iterations: in Lock, and for a stored slot, refusing before deriving', async () => {
    for (const iterations of [599_999, 10_000_001, 2 ** 32, 1e9, 1.5e6 + 0.5]) {
      let error: unknown;
      try {
        lock({ iterations });
      } catch (e) {
        error = e;
      }
      expect((error as LockError)?.reason, String(iterations)).to.equal('bad-iterations');
    }
    await autoUnlock(db);
    await lock({ iterations: 10_000_000 }).state();
    await lock().setPassphrase(PASSPHRASE);
    const slot = (await db.get('keys', 'passphrase'))!;
    await db.put('keys', { ...slot, iterations: 1e9 } as KeySlot);
    const started = performance.now();
    const error = await refused(lock().unlock({ passphrase: PASSPHRASE }));
    expect(error.reason).to.equal('bad-iterations');
    expect(performance.now() - started).to.be.below(1000);
    // Refused untried, it isn't counted.
    expect(await lock().retryIn('passphrase')).to.equal(0);
  });

  it('brings a fresh data key with the first lock: a copy of the pre-lock device slot opens none of the records', async () => {
    const oldKey = (await autoUnlock(db))!;
    const records = new Records(db);
    const values = new Map<string, string>();
    for (const name of ['ALPHA', 'BETA', 'GAMMA']) {
      const value = canary(name);
      values.set(name, value);
      await records.write(NS, oldKey, { name, value, kind: 'secret', source: 'settings' });
    }
    // What a copy of the profile taken before the lock holds: the device slot with its wrapping key.
    const copied = (await db.get('keys', 'device')) as DeviceSlot;
    const newKey = await lock().setPassphrase(PASSPHRASE);
    expect(newKey).to.be.instanceOf(CryptoKey);
    await records.write(NS, newKey!, { name: 'AFTER', value: canary('after'), kind: 'secret', source: 'settings' });
    const fromCopy = await unwrapKey(copied, copied.wrappingKey);
    const all = await db.getAll('records');
    expect(all).to.have.length(4);
    for (const record of all) {
      let opened = true;
      await decryptValue(fromCopy, record).catch(() => (opened = false));
      expect(opened, record.name).to.equal(false);
    }
    const unlocked = await lock().unlock({ passphrase: PASSPHRASE });
    for (const [name, value] of values) expect(await decryptValue(unlocked, (await records.get(NS, name))!)).to.equal(value);
    // The epoch moved on with the new key, and the check value is the new key's.
    expect((await db.get('keys', 'epoch')) as KeyEpoch).to.deep.equal({ slot: 'epoch', epoch: 1 });
    expect(await opensCheck(unlocked, (await db.get('keys', 'check')) as KeyCheck)).to.equal(true);
    expect(await opensCheck(oldKey, (await db.get('keys', 'check')) as KeyCheck)).to.equal(false);
  });

  it('removing the lock keeps the data key: the records still open by themselves', async () => {
    const key = (await autoUnlock(db))!;
    await lock().setPassphrase(PASSPHRASE);
    const value = canary('kept');
    const unlocked = await lock().unlock({ passphrase: PASSPHRASE });
    const { record } = await new Records(db).write(NS, unlocked, { name: 'KEPT', value, kind: 'secret', source: 'settings' });
    await lock().removeLock({ passphrase: PASSPHRASE });
    expect(await decryptValue((await autoUnlock(db))!, (await db.get('records', record.id))!)).to.equal(value);
    expect(key).to.not.equal(unlocked);
  });

  it('refuses a passkey whose get() gives another PRF output than its create(), before anything changes (Chromium only)', async () => {
    const authenticatorId = await addAuthenticator();
    const key = (await autoUnlock(db))!;
    const before = await stored(key);
    const keysBefore = await db.getAll('keys');
    // An authenticator that answers create() with one PRF output and get() with another.
    const real = navigator.credentials;
    const differing = {
      create: async (options: CredentialCreationOptions) => {
        const credential = (await real.create(options)) as PublicKeyCredential;
        const other = crypto.getRandomValues(new Uint8Array(32));
        return new Proxy(credential, {
          get: (target, name) =>
            name === 'getClientExtensionResults'
              ? () => ({ prf: { enabled: true, results: { first: other.buffer } } })
              : typeof (target as any)[name] === 'function'
                ? (target as any)[name].bind(target)
                : (target as any)[name],
        });
      },
      get: (options: CredentialRequestOptions) => real.get(options),
    } as unknown as CredentialsContainer;
    const error = await refused(new Lock(db, { iterations: ITERATIONS, rpName: 'SLICC vault (test)', credentials: differing, now: () => clock }).setPasskey());
    expect(error.reason).to.equal('passkey-unproven');
    expect(error.message).to.contain('nothing changed');
    expect(await slotNames()).to.deep.equal(['device']);
    expect((await db.getAll('keys')).map((k) => k.slot)).to.deep.equal(keysBefore.map((k) => k.slot));
    expect(await lock().state()).to.equal(null);
    expect(await before.read((await autoUnlock(db))!)).to.equal(before.value);
    // The passkey that does agree with itself locks, wrapped with what get() gives.
    await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
    authenticators.splice(authenticators.indexOf(authenticatorId), 1);
    await addAuthenticator();
    await lock().setPasskey();
    expect(await before.read(await lock().unlock({ passkey: true }))).to.equal(before.value);
  });
});
