// Value encryption (README, Records): AES-GCM-256 under the data key, a fresh 96-bit IV per write,
// and `[id, namespace, name]` as additional data, so a ciphertext moved to another record (or
// namespace) fails to decrypt. The data key comes from the key ring; this only uses it.
import type { StoredRecord } from './schema.ts';

/** The data key held by a document: the key, the check value it opened, and the epoch it was taken at. */
export interface HeldKey {
  key: CryptoKey;
  check: string;
  epoch: number;
}

/** AES-GCM's tag: a record's value has its ciphertext's length less this. */
const GCM_TAG_BYTES = 16;
export const valueBytesOf = (record: Pick<StoredRecord, 'ciphertext'>) => record.ciphertext.byteLength - GCM_TAG_BYTES;

const encoder = new TextEncoder();
const randomIv = () => crypto.getRandomValues(new Uint8Array(12));

/** Binds a ciphertext to its record: moved to another record, it fails to decrypt. */
export interface ValueBinding {
  id: string;
  namespace: string;
  name: string;
}
const bindingData = ({ id, namespace, name }: ValueBinding) => encoder.encode(JSON.stringify([id, namespace, name]));

export async function encryptValue(key: CryptoKey, value: string, binding: ValueBinding) {
  const iv = randomIv();
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bindingData(binding) }, key, encoder.encode(value));
  return { iv, ciphertext };
}

export async function decryptValue(key: CryptoKey, sealed: ValueBinding & { iv: Uint8Array<ArrayBuffer>; ciphertext: ArrayBuffer }): Promise<string> {
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv, additionalData: bindingData(sealed) }, key, sealed.ciphertext);
  return new TextDecoder().decode(plain);
}

/**
 * The record's value re-encrypted under `to` (a new data key), with a fresh IV and the same
 * binding; the plaintext bytes are zeroed. Throws when `from` can't open it.
 */
export async function reencrypt(from: CryptoKey, to: CryptoKey, sealed: ValueBinding & { iv: Uint8Array<ArrayBuffer>; ciphertext: ArrayBuffer }) {
  const plain = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv, additionalData: bindingData(sealed) }, from, sealed.ciphertext));
  try {
    const iv = randomIv();
    const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bindingData(sealed) }, to, plain);
    return { iv, ciphertext };
  } finally {
    plain.fill(0);
  }
}
