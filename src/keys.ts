// The key store (README, Key store): one data key, wrapped in key slots like LUKS. Raw key bytes
// exist only for the moment of wrapping or unwrapping; the data key itself is a non-extractable
// AES-GCM CryptoKey.
import type { LockState } from './contract.ts';
import type { VaultDb } from './db.ts';

interface SlotBase {
  iv: Uint8Array<ArrayBuffer>;
  /** The 32 data-key bytes, AES-GCM encrypted under the slot's wrapping key. */
  wrapped: ArrayBuffer;
  createdAt: number;
}
/** Auto-unlock: wrapped by a non-extractable key kept beside it. Exists only while no lock is set. */
export interface DeviceSlot extends SlotBase {
  slot: 'device';
  wrappingKey: CryptoKey;
}
/** Wrapped by PBKDF2-SHA-256 of the NFC-normalized passphrase. */
export interface PassphraseSlot extends SlotBase {
  slot: 'passphrase';
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
}
/** Wrapped by HKDF-SHA-256 of the passkey's WebAuthn PRF output for `prfSalt`. */
export interface PasskeySlot extends SlotBase {
  slot: 'passkey';
  credentialId: ArrayBuffer;
  prfSalt: Uint8Array<ArrayBuffer>;
}
export type KeySlot = DeviceSlot | PassphraseSlot | PasskeySlot;

const AES = { name: 'AES-GCM', length: 256 } as const;
const encoder = new TextEncoder();
const slotData = (slot: KeySlot['slot']) => encoder.encode(`slicc-vault key slot: ${slot}`);

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
    return await crypto.subtle.importKey('raw', raw, AES, false, ['encrypt', 'decrypt']);
  } finally {
    raw.fill(0);
  }
}

export async function deviceSlot(raw: Uint8Array<ArrayBuffer>): Promise<DeviceSlot> {
  const wrappingKey = await crypto.subtle.generateKey(AES, false, ['encrypt', 'decrypt']);
  return { slot: 'device', wrappingKey, ...(await wrapKey(raw, wrappingKey, 'device')) };
}

/** `null` while only the device slot exists, else the lock kinds set. */
export function lockOf(slots: KeySlot[]): LockState {
  const passphrase = slots.some((s) => s.slot === 'passphrase');
  const passkey = slots.some((s) => s.slot === 'passkey');
  return passphrase || passkey ? { passphrase, passkey } : null;
}

/**
 * Opens the vault without asking when it auto-unlocks: creates the data key and its device slot
 * on first use (one transaction, so two documents starting at once agree on one key), then
 * unwraps it. `null` when a lock is set.
 */
export async function autoUnlock(db: VaultDb): Promise<CryptoKey | null> {
  if ((await db.count('keys')) === 0) {
    const raw = randomBytes(32);
    const candidate = await deviceSlot(raw);
    raw.fill(0);
    const tx = db.transaction('keys', 'readwrite');
    if ((await tx.store.count()) === 0) await tx.store.add(candidate);
    await tx.done;
  }
  const device = await db.get('keys', 'device');
  return device?.slot === 'device' ? unwrapKey(device, device.wrappingKey) : null;
}

export async function readLock(db: VaultDb): Promise<LockState> {
  return lockOf(await db.getAll('keys'));
}

// ── Values ──────────────────────────────────────────────────────────────────────────────

/** Binds a ciphertext to its record: moved to another record, it fails to decrypt. */
export interface ValueBinding {
  id: string;
  namespace: string;
  name: string;
}
const bindingData = ({ id, namespace, name }: ValueBinding) => encoder.encode(JSON.stringify([id, namespace, name]));

export async function encryptValue(key: CryptoKey, value: string, binding: ValueBinding) {
  const iv = randomBytes(12);
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bindingData(binding) }, key, encoder.encode(value));
  return { iv, ciphertext };
}

export async function decryptValue(key: CryptoKey, sealed: ValueBinding & { iv: Uint8Array<ArrayBuffer>; ciphertext: ArrayBuffer }): Promise<string> {
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv, additionalData: bindingData(sealed) }, key, sealed.ciphertext);
  return new TextDecoder().decode(plain);
}
