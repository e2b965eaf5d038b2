// Auto-lock on idle (README, Key store and lock) with a clock the test moves by hand: the key is
// dropped in every document once the idle time has passed without use, and not a moment before.
import { expect, waitUntil } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { AutoLock } from '../../src/lock/index.ts';
import { AUTO_LOCK_CHOICES } from '../../src/contract.ts';
import { openVaultDb, type VaultDb } from '../../src/store/index.ts';
import { autoUnlock } from '../../src/lock/index.ts';
import { KeyRing } from '../../src/lock/index.ts';
import { Lock, LockError } from '../../src/lock/index.ts';
import { TestClock } from '../helpers/clock.ts';
import { NOTE_USE_EVERY_MS } from '../../src/limits.ts';

const MINUTE = 60_000;
const PASSPHRASE = 'correct horse battery';

let dbName = '';
let db: VaultDb;
let clock: TestClock;
const closing: { close(): void }[] = [];

describe('auto-lock', () => {
  beforeEach(async () => {
    dbName = `autolock-test-${crypto.randomUUID()}`;
    db = await openVaultDb(dbName);
    clock = new TestClock(Date.UTC(2026, 11, 1));
  });
  afterEach(async () => {
    for (const c of closing.splice(0)) c.close();
    db.close();
    await deleteDB(dbName);
  });

  const lock = () => new Lock(db, { iterations: 600_000, rpName: 'SLICC vault (test)', now: clock.now });

  /** Two documents holding the key of a passphrase-locked vault, each with its auto-lock. */
  async function twoDocuments() {
    await autoUnlock(db);
    await lock().setPassphrase(PASSPHRASE);
    const channel = `keys-${crypto.randomUUID()}`;
    const a = await KeyRing.open(db, { channel });
    const b = await KeyRing.open(db, { channel });
    closing.push(a, b);
    expect(await a.give(await lock().unlock({ passphrase: PASSPHRASE }))).to.equal(true);
    await waitUntil(() => b.key !== null, 'the second document takes the key', { timeout: 3000 });
    const autoA = new AutoLock(db, a, clock);
    const autoB = new AutoLock(db, b, clock);
    closing.push(autoA, autoB);
    return { a, b, autoA, autoB };
  }

  it('drops the key in every document after the idle time, and not before', async () => {
    const { a, b, autoA, autoB } = await twoDocuments();
    await lock().setAutoLock(15 * MINUTE);
    await Promise.all([autoA.arm(), autoB.arm()]);
    expect((await lock().state())?.autoLockMs).to.equal(15 * MINUTE);
    await clock.advance(15 * MINUTE - 1);
    expect([a.key !== null, b.key !== null]).to.deep.equal([true, true]);
    await clock.advance(1);
    await waitUntil(() => a.key === null && b.key === null, 'both documents drop the key', { timeout: 3000 });
  });

  it('starts the idle time again with every use, in whichever document it happens', async () => {
    const { a, b, autoA, autoB } = await twoDocuments();
    await lock().setAutoLock(60 * MINUTE);
    await Promise.all([autoA.arm(), autoB.arm()]);
    await clock.advance(50 * MINUTE);
    await autoB.used(); // the person: a page's put, or the popup, in the other document
    await clock.advance(59 * MINUTE);
    expect([a.key !== null, b.key !== null]).to.deep.equal([true, true]);
    await clock.advance(MINUTE);
    await waitUntil(() => a.key === null && b.key === null, 'both documents drop the key an hour after the last use', { timeout: 3000 });
  });

  it('never locks by itself with the setting at never, and notes uses at most every 10 seconds', async () => {
    const { a, autoA } = await twoDocuments();
    await autoA.arm();
    expect(clock.pending).to.equal(0);
    await clock.advance(24 * 60 * MINUTE);
    expect(a.key).to.not.equal(null);
    await lock().setAutoLock(AUTO_LOCK_CHOICES[2]);
    const before = ((await db.get('keys', 'idle')) as { usedAt: number }).usedAt;
    await autoA.used();
    await clock.advance(NOTE_USE_EVERY_MS - 1);
    await autoA.used();
    expect(((await db.get('keys', 'idle')) as { usedAt: number }).usedAt).to.equal(before);
  });

  it('offers only never, 15 minutes, 1 hour and 4 hours, and only with a lock set', async () => {
    await autoUnlock(db);
    let error: unknown;
    await lock()
      .setAutoLock(15 * MINUTE)
      .catch((e) => (error = e));
    expect((error as LockError).reason).to.equal('no-lock');
    await lock().setPassphrase(PASSPHRASE);
    error = undefined;
    await lock()
      .setAutoLock(MINUTE as never)
      .catch((e) => (error = e));
    expect(error).to.be.instanceOf(LockError);
    expect(AUTO_LOCK_CHOICES).to.deep.equal([15 * MINUTE, 60 * MINUTE, 240 * MINUTE]);
    await lock().setAutoLock(null);
    expect((await lock().state())?.autoLockMs).to.equal(null);
  });
});
