// The key ring as an attacker would try it (README, Key store and lock), on real IndexedDB,
// WebCrypto and BroadcastChannels in the test page's origin. Each test has its own database and its
// own channel name, so its rings talk only to each other.
import { expect, waitUntil } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { openVaultDb, type VaultDb } from '../../src/store/index.ts';
import { KeyRing, Lock, autoUnlock, openDevice } from '../../src/lock/index.ts';
import type { KeyMessage } from '../../src/lock/keyring.ts';
import { type KeyCheck, decryptValue } from '../../src/store/index.ts';
import { Records } from '../../src/store/index.ts';
import type { VaultError } from '../../src/errors.ts';
import { canary } from '../helpers/vault.ts';

const NS = 'https://seven.sliccy.ai';
const PASSPHRASE = 'correct horse battery';
let dbName = '';
let db: VaultDb;
let channel = '';
const rings: KeyRing[] = [];

async function ring() {
  const opened = await KeyRing.open(db, { channel });
  rings.push(opened);
  return opened;
}

/** Lets every message on the channel arrive and be handled. */
async function settle() {
  const probe = new BroadcastChannel(channel);
  const other = new BroadcastChannel(channel);
  await new Promise<void>((resolve) => {
    other.onmessage = () => resolve();
    probe.postMessage('probe');
  });
  probe.close();
  other.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

function post(message: KeyMessage | Record<string, unknown>) {
  const poster = new BroadcastChannel(channel);
  poster.postMessage(message);
  poster.close();
}

const lock = () => new Lock(db, { iterations: 600_000, rpName: 'SLICC vault (test)' });

async function lockedVault() {
  await autoUnlock(db);
  const key = await lock().setPassphrase(PASSPHRASE);
  return key!;
}

describe('the key ring', () => {
  beforeEach(async () => {
    dbName = `keyring-test-${crypto.randomUUID()}`;
    channel = `keys-${crypto.randomUUID()}`;
    db = await openVaultDb(dbName);
  });
  afterEach(async () => {
    for (const r of rings.splice(0)) r.close();
    db.close();
    await deleteDB(dbName);
  });

  it('refuses a posted foreign key, held or locked, and nothing is written under it', async () => {
    const key = await lockedVault();
    const holder = await ring();
    expect(await holder.give(key)).to.equal(true);
    const locked = await ring();
    await locked.lock();
    expect(locked.key).to.equal(null);
    const epoch = locked.current?.epoch ?? ((await db.get('keys', 'epoch')) as { epoch: number }).epoch;
    // A key of the right shape but the poster's bytes, at the epoch stored now, unasked and asked.
    const foreign = await crypto.subtle.importKey('raw', crypto.getRandomValues(new Uint8Array(32)), 'AES-GCM', false, ['encrypt', 'decrypt']);
    const shapes = [
      foreign,
      await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt', 'decrypt']),
      await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']),
      await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']),
      await crypto.subtle.generateKey({ name: 'AES-CBC', length: 256 }, false, ['encrypt', 'decrypt']),
      'not a key',
    ];
    for (const shape of shapes) {
      for (const e of [epoch, epoch + 1, epoch + 100]) post({ type: 'key', key: shape, epoch: e, auto: false });
    }
    await settle();
    expect(locked.key).to.equal(null);
    // The holder dropped its key on a newer epoch (as after a lock) and took none of the posted ones.
    expect(holder.key === null || holder.key === key).to.equal(true);
    // Nothing is written under the foreign key: a write needs the vault's own check value.
    const forged = { key: foreign, check: 'forged', epoch };
    let refused: unknown;
    await new Records(db).write(NS, forged, { name: 'FORGED', value: canary('forged'), kind: 'secret', source: 'settings' }).catch((e) => (refused = e));
    expect((refused as VaultError)?.code).to.equal('EACCES');
    expect(await db.count('records')).to.equal(0);
    // The right key, unlocked again, still works everywhere.
    const again = await lock().unlock({ passphrase: PASSPHRASE });
    expect(await locked.give(again)).to.equal(true);
    await waitUntil(() => holder.key !== null, 'the holder takes the unlocked key', { timeout: 3000 });
  });

  it('ignores unasked key messages while it holds a key', async () => {
    const key = (await autoUnlock(db))!;
    const holder = await ring();
    const held = holder.key;
    expect(held).to.not.equal(null);
    // The same vault key, sent again unasked at the same epoch, is not taken in place of the held one.
    post({ type: 'key', key, epoch: holder.current!.epoch, auto: true });
    await settle();
    expect(holder.key).to.equal(held);
  });

  it('never makes a key while records exist: a vault whose key is gone says so and writes nothing', async () => {
    const key = (await autoUnlock(db))!;
    await new Records(db).write(NS, key, { name: 'KEPT', value: canary('kept'), kind: 'secret', source: 'settings' });
    const stale = await ring();
    // Every key entry gone (site data half cleared, or a broken profile): the records stay.
    await db.clear('keys');
    expect((await openDevice(db)).state).to.equal('gone');
    expect(await autoUnlock(db)).to.equal(null);
    expect(await db.count('keys')).to.equal(0);
    const fresh = await ring();
    expect([fresh.key, fresh.keyLost]).to.deep.equal([null, true]);
    // The stale document still holds the old key: its write is refused in the transaction.
    let refused: unknown;
    await new Records(db).write(NS, stale.current!, { name: 'LOST', value: canary('lost'), kind: 'secret', source: 'settings' }).catch((e) => (refused = e));
    expect((refused as VaultError)?.code).to.equal('EACCES');
    expect((refused as VaultError).message).to.match(/^vault is locked/);
    expect((await db.getAll('records')).map((r) => r.name)).to.deep.equal(['KEPT']);
  });

  it('a document started during lock ends locked, and so does the one that locked, in every one of 25 rounds', async () => {
    const key = await lockedVault();
    for (let round = 0; round < 25; round++) {
      const locker = await ring();
      const other = await ring();
      expect(await locker.give(key)).to.equal(true);
      await waitUntil(() => other.key !== null, 'the other document takes the key', { timeout: 3000 });
      // Lock, and start documents before, during and right after it.
      const starting = [ring()];
      const locking = locker.lock();
      starting.push(ring());
      await Promise.resolve();
      starting.push(ring());
      const started = await Promise.all(starting);
      expect(await locking).to.equal(true);
      await settle();
      for (const [i, r] of [locker, other, ...started].entries()) expect(r.key, `round ${round}, document ${i}`).to.equal(null);
      for (const r of rings.splice(0)) r.close();
    }
    expect(key).to.not.equal(null);
  });

  it('never adopts a key from before the latest lock', async () => {
    await lockedVault();
    const locked = await ring();
    const old = await lock().unlock({ passphrase: PASSPHRASE });
    const { epoch } = (await db.get('keys', 'epoch')) as { epoch: number };
    await locked.lock();
    // The vault's own key, but from before the lock: refused.
    post({ type: 'key', key: old, epoch, auto: false });
    await settle();
    expect(locked.key).to.equal(null);
  });

  it('moves every document to the new data key of the first lock, and a stale one cannot write under the old key', async () => {
    await autoUnlock(db);
    const popup = await ring();
    const frame = await ring();
    const old = frame.current!;
    const fresh = await lock().setPassphrase(PASSPHRASE);
    // Before the new key reaches it, the frame's write under the old key is refused.
    let refused: unknown;
    await new Records(db).write(NS, old, { name: 'STALE', value: canary('stale'), kind: 'secret', source: 'settings' }).catch((e) => (refused = e));
    expect((refused as VaultError)?.code).to.equal('EACCES');
    expect(await popup.give(fresh!)).to.equal(true);
    // The key arrives as a structured clone: the same key, another object.
    await waitUntil(() => frame.current !== null && frame.current.epoch > old.epoch, 'the frame takes the new key', { timeout: 3000 });
    const value = canary('new');
    const { record } = await new Records(db).write(NS, frame.current!, { name: 'NEW', value, kind: 'secret', source: 'settings' });
    expect(await decryptValue(await lock().unlock({ passphrase: PASSPHRASE }), record)).to.equal(value);
    const check = (await db.get('keys', 'check')) as KeyCheck;
    expect(frame.current!.check).to.equal(check.id);
  });
});
