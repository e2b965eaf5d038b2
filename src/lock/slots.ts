// The key store (README, Key store and lock): one data key, wrapped in key slots like LUKS. Raw key bytes
// exist only for the moment of wrapping or unwrapping; the data key itself is a non-extractable
// AES-GCM CryptoKey.
import { AUTO_LOCK_CHOICES, type AutoLockMs, type LockState } from '../contract.ts';
import type { DeviceSlot, HeldKey, IdleEntry, KeyCheck, KeyEntry, KeyEpoch, KeySlot, VaultDb } from '../store/index.ts';

const AES = { name: 'AES-GCM', length: 256 } as const;
const encoder = new TextEncoder();
const slotData = (slot: KeySlot['slot']) => encoder.encode(`slicc-vault key slot: ${slot}`);
const CHECK_DATA = encoder.encode('slicc-vault key check');
const CHECK_PLAIN = 'slicc-vault data key check value v1';

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** Wraps raw data-key bytes under `wrappingKey` for the named slot. */
export async function wrapKey(raw: Uint8Array<ArrayBuffer>, wrappingKey: CryptoKey, slot: KeySlot['slot']) {
  const iv = randomBytes(12);
  const wrapped = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: slotData(slot) }, wrappingKey, raw);
  return { iv, wrapped, createdAt: Date.now() };
}

/** The slot's raw data-key bytes, for re-wrapping; the caller wipes them. Throws for a wrong key. */
export async function unwrapRaw(slot: KeySlot, wrappingKey: CryptoKey): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: slot.iv, additionalData: slotData(slot.slot) }, wrappingKey, slot.wrapped));
}

/** The slot's data key as a non-extractable CryptoKey; throws when `wrappingKey` isn't the slot's. */
export async function unwrapKey(slot: KeySlot, wrappingKey: CryptoKey): Promise<CryptoKey> {
  const raw = await unwrapRaw(slot, wrappingKey);
  try {
    return await importDataKey(raw);
  } finally {
    raw.fill(0);
  }
}

/** A new device slot for `raw`, under a new non-extractable wrapping key. */
export async function deviceSlot(raw: Uint8Array<ArrayBuffer>): Promise<DeviceSlot> {
  const wrappingKey = await crypto.subtle.generateKey(AES, false, ['encrypt', 'decrypt']);
  return { slot: 'device', wrappingKey, ...(await wrapKey(raw, wrappingKey, 'device')) };
}

/** `null` while only the device slot exists, else the lock kinds set and the auto-lock setting. */
export function lockOf(entries: KeyEntry[]): LockState {
  const passphrase = entries.some((s) => s.slot === 'passphrase');
  const passkey = entries.some((s) => s.slot === 'passkey');
  const idle = entries.find((s): s is IdleEntry => s.slot === 'idle');
  return passphrase || passkey ? { passphrase, passkey, autoLockMs: autoLockOf(idle?.afterMs) } : null;
}

/** A stored idle time as one of the choices, else never. */
export function autoLockOf(afterMs: unknown): AutoLockMs | null {
  return (AUTO_LOCK_CHOICES as readonly unknown[]).includes(afterMs) ? (afterMs as AutoLockMs) : null;
}

/** Whether `key` has the data key's shape: non-extractable AES-GCM-256 that encrypts and decrypts. */
export function isDataKey(key: unknown): key is CryptoKey {
  if (!(key instanceof CryptoKey) || key.extractable || key.type !== 'secret') return false;
  const algorithm = key.algorithm as AesKeyAlgorithm;
  return algorithm.name === 'AES-GCM' && algorithm.length === 256 && key.usages.includes('encrypt') && key.usages.includes('decrypt');
}

/** A new key-check value for `key`. */
export async function makeCheck(key: CryptoKey): Promise<KeyCheck> {
  const iv = randomBytes(12);
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: CHECK_DATA }, key, encoder.encode(CHECK_PLAIN));
  return { slot: 'check', id: crypto.randomUUID(), iv, ciphertext, createdAt: Date.now() };
}

/** Whether `key` opens the check value: the only proof that it is this vault's data key. */
export async function opensCheck(key: CryptoKey, check: KeyCheck | undefined): Promise<boolean> {
  if (!check || !isDataKey(key)) return false;
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: check.iv, additionalData: CHECK_DATA }, key, check.ciphertext);
    return new TextDecoder().decode(plain) === CHECK_PLAIN;
  } catch {
    return false;
  }
}

export const importDataKey = (raw: BufferSource) => crypto.subtle.importKey('raw', raw, AES, false, ['encrypt', 'decrypt']);

/** What opening the vault without asking found. */
export type DeviceOpening =
  | ({ state: 'open' } & HeldKey)
  /** A lock is set: the key comes from the popup. */
  | { state: 'locked'; epoch: number }
  /** Records (or a check value) exist but no slot is left to open them: never a new key then. */
  | { state: 'gone'; epoch: number };

const epochOf = (entries: KeyEntry[]) => entries.find((e): e is KeyEpoch => e.slot === 'epoch')?.epoch ?? 0;
const checkOf = (entries: KeyEntry[]) => entries.find((e): e is KeyCheck => e.slot === 'check');

/**
 * Opens the vault without asking when it auto-unlocks (README, Key store and lock). A new vault
 * (no key entries, no records) gets its data key, device slot and check value in one
 * transaction, so two documents starting at once agree on one key. A vault with records but no
 * slot says its key is gone and never makes a new one. A device slot without a check value
 * (a vault from before it) gets one.
 */
export async function openDevice(db: VaultDb): Promise<DeviceOpening> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const tx = db.transaction(['keys', 'records']);
    const entries = await tx.objectStore('keys').getAll();
    const epoch = epochOf(entries);
    const device = entries.find((e): e is DeviceSlot => e.slot === 'device');
    // Only a vault without a device slot needs its records counted (every boot would count them).
    const records = device ? 0 : await tx.objectStore('records').count();
    const check = checkOf(entries);
    if (device) {
      const key = await unwrapKey(device, device.wrappingKey);
      if (check) return (await opensCheck(key, check)) ? { state: 'open', key, check: check.id, epoch } : { state: 'gone', epoch };
      const made = await makeCheck(key);
      const write = db.transaction('keys', 'readwrite');
      const [now, same] = await Promise.all([write.store.get('check'), write.store.get('device')]);
      if (!now && same?.slot === 'device' && same.createdAt === device.createdAt) await write.store.put(made);
      await write.done;
      continue; // read again: the check value now there is the one to answer with
    }
    if (lockOf(entries)) return { state: 'locked', epoch };
    if (records > 0 || check) return { state: 'gone', epoch };
    const raw = randomBytes(32);
    let candidate: DeviceSlot;
    let made: KeyCheck;
    try {
      candidate = await deviceSlot(raw);
      made = await makeCheck(await importDataKey(raw));
    } finally {
      raw.fill(0);
    }
    const write = db.transaction(['keys', 'records'], 'readwrite');
    const [keys, stored] = await Promise.all([write.objectStore('keys').count(), write.objectStore('records').count()]);
    if (keys === 0 && stored === 0) {
      await write.objectStore('keys').add(candidate);
      await write.objectStore('keys').add(made);
    }
    await write.done;
  }
  throw new Error('the key store kept changing while this document opened it');
}

/** The data key when the vault auto-unlocks, else `null` (a lock is set, or the key is gone). */
export async function autoUnlock(db: VaultDb): Promise<CryptoKey | null> {
  const opened = await openDevice(db);
  return opened.state === 'open' ? opened.key : null;
}

export async function readLock(db: VaultDb): Promise<LockState> {
  return lockOf(await db.getAll('keys'));
}

/** The epoch and check value as stored now, read together. */
export async function readRing(db: VaultDb): Promise<{ epoch: number; check: KeyCheck | undefined; lock: LockState }> {
  const entries = await db.getAll('keys');
  return { epoch: epochOf(entries), check: checkOf(entries), lock: lockOf(entries) };
}

/**
 * Moves the epoch on when a lock is set (in one transaction with that check), so no key taken
 * before this moment is adopted again. Answers the new epoch, or `null` without a lock.
 */
export async function nextEpoch(db: VaultDb): Promise<number | null> {
  const tx = db.transaction('keys', 'readwrite');
  const entries = await tx.store.getAll();
  let epoch: number | null = null;
  if (lockOf(entries)) {
    epoch = epochOf(entries) + 1;
    await tx.store.put({ slot: 'epoch', epoch });
  }
  await tx.done;
  return epoch;
}
