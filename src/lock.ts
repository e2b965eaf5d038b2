// The lock (README, The lock): passphrase and passkey key slots beside the device slot of
// auto-unlock. Every change of slots needs the raw data-key bytes, so it first opens an existing
// slot: the device slot while no lock is set, else the person's passphrase or passkey (like LUKS).
// Raw bytes live only between that unwrap and the wrap that follows it.
import type { LockState } from './contract.ts';
import type { VaultDb } from './db.ts';
import { type DeviceSlot, type KeySlot, type PasskeySlot, type PassphraseSlot, deviceSlot, lockOf, randomBytes, unwrapRaw, wrapKey } from './keys.ts';
import { announce } from './bus.ts';

export const MIN_PASSPHRASE_LENGTH = 8;
/** The HKDF `info` of the passkey slot's wrapping key: its own, so the PRF output serves nothing else. */
const PASSKEY_INFO = new TextEncoder().encode('slicc-vault passkey slot wrapping key v1');
const AES = { name: 'AES-GCM', length: 256 } as const;

/** Why a lock operation failed; `message` is plain words for the person and never holds a value. */
export type LockFailure =
  | 'wrong-passphrase'
  | 'wrong-passkey'
  | 'no-prf'
  | 'cancelled'
  | 'too-soon'
  | 'weak-passphrase'
  | 'mismatch'
  | 'no-lock'
  | 'proof-needed'
  | 'no-such-slot'
  | 'unsupported';

export class LockError extends Error {
  constructor(
    readonly reason: LockFailure,
    message: string,
    /** For `too-soon`: how long until the next attempt is allowed. */
    readonly retryInMs = 0,
  ) {
    super(message);
    this.name = 'LockError';
  }
}

/** How the person shows they hold the lock: the passphrase, or the passkey (asked for then). */
export type Proof = { passphrase: string } | { passkey: true };

/** Failed unlock attempts, kept on the slot itself so a reload doesn't forget them. */
interface Attempts {
  failures?: number;
  failedAt?: number;
}
type LockSlot = (PassphraseSlot | PasskeySlot) & Attempts;

/** The wait after `failures` failed attempts in a row: none, then 1 s doubling up to 5 minutes. */
export function delayAfter(failures: number): number {
  return failures <= 0 ? 0 : Math.min(1000 * 2 ** (failures - 1), 5 * 60 * 1000);
}

export interface LockOptions {
  /** PBKDF2 iterations for new passphrase slots (config.json). */
  iterations: number;
  /** The relying party's display name for new passkeys (config.json `name`). */
  rpName: string;
  credentials?: CredentialsContainer;
  now?: () => number;
}

export async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'PBKDF2', salt, iterations, hash: 'SHA-256' }, base, AES, false, ['encrypt', 'decrypt']);
}

export async function passkeyKey(prfOutput: BufferSource): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', prfOutput, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: PASSKEY_INFO }, base, AES, false, ['encrypt', 'decrypt']);
}

/** Checks a new passphrase; the message names the rule, never the passphrase. */
export function checkPassphrase(passphrase: string): string {
  const normalized = passphrase.normalize('NFC');
  if ([...normalized].length < MIN_PASSPHRASE_LENGTH) {
    throw new LockError('weak-passphrase', `a passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters`);
  }
  return normalized;
}

const cancelled = (error: unknown) => error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError');

export class Lock {
  private readonly credentials: CredentialsContainer;
  private readonly now: () => number;

  constructor(
    private readonly db: VaultDb,
    private readonly options: LockOptions,
  ) {
    this.credentials = options.credentials ?? navigator.credentials;
    this.now = options.now ?? Date.now;
  }

  /** `null` while auto-unlock is on, else the kinds set. */
  async state(): Promise<LockState> {
    return lockOf(await this.db.getAll('keys'));
  }

  /** How long until an attempt with that kind is allowed (0: now). */
  async retryIn(kind: 'passphrase' | 'passkey'): Promise<number> {
    const slot = (await this.db.get('keys', kind)) as LockSlot | undefined;
    return slot ? this.waitFor(slot) : 0;
  }

  /** The data key, opened with the passphrase or passkey. */
  async unlock(proof: Proof): Promise<CryptoKey> {
    return this.withRaw(proof, (raw) => crypto.subtle.importKey('raw', raw, AES, false, ['encrypt', 'decrypt']));
  }

  /**
   * Adds the passphrase slot, or replaces it (changing the passphrase), and deletes the device
   * slot in the same transaction. `proof` is needed once a lock is set.
   */
  async setPassphrase(passphrase: string, proof?: Proof): Promise<void> {
    const normalized = checkPassphrase(passphrase);
    const salt = randomBytes(16);
    const iterations = this.options.iterations;
    const wrappingKey = await passphraseKey(normalized, salt, iterations);
    await this.withRaw(proof, async (raw) => {
      const slot: PassphraseSlot = { slot: 'passphrase', salt, iterations, ...(await wrapKey(raw, wrappingKey, 'passphrase')) };
      await this.replace([slot], ['device']);
    });
  }

  /**
   * Creates a passkey with the PRF extension and adds its slot (replacing any passkey slot),
   * deleting the device slot in the same transaction. A passkey without PRF changes nothing.
   */
  async setPasskey(proof?: Proof): Promise<void> {
    // The proof is checked first, so a wrong passphrase doesn't leave a useless passkey behind.
    if (proof) await this.withRaw(proof, async () => undefined);
    const prfSalt = randomBytes(32);
    const { credentialId, output } = await this.createPasskey(prfSalt);
    const wrappingKey = await passkeyKey(output);
    await this.withRaw(proof, async (raw) => {
      const slot: PasskeySlot = { slot: 'passkey', credentialId, prfSalt, ...(await wrapKey(raw, wrappingKey, 'passkey')) };
      await this.replace([slot], ['device']);
    });
  }

  /** Removes every lock slot and brings back the device slot (auto-unlock), in one transaction. */
  async removeLock(proof: Proof): Promise<CryptoKey> {
    if (!(await this.state())) throw new LockError('no-lock', 'no lock is set: the vault already opens by itself');
    return this.withRaw(proof, async (raw) => {
      await this.replace([await deviceSlot(raw)], ['passphrase', 'passkey']);
      return crypto.subtle.importKey('raw', raw, AES, false, ['encrypt', 'decrypt']);
    });
  }

  /** Writes `put` and deletes `remove` in one transaction. */
  private async replace(put: KeySlot[], remove: KeySlot['slot'][]) {
    const tx = this.db.transaction('keys', 'readwrite');
    await Promise.all([...put.map((slot) => tx.store.put(slot)), ...remove.map((name) => tx.store.delete(name)), tx.done]);
    // Every vault document pushes `status`: its `lock` changed.
    announce(null, ['status']);
  }

  /**
   * Runs `use` with the raw data-key bytes, then wipes them. Without a proof they come from the
   * device slot, which exists only while no lock is set.
   */
  private async withRaw<T>(proof: Proof | undefined, use: (raw: Uint8Array<ArrayBuffer>) => Promise<T>): Promise<T> {
    let raw: Uint8Array<ArrayBuffer>;
    if (!proof) {
      const device = (await this.db.get('keys', 'device')) as DeviceSlot | undefined;
      if (!device) throw new LockError('proof-needed', 'a lock is set: confirm with the passphrase or the passkey first');
      raw = await unwrapRaw(device, device.wrappingKey);
    } else {
      raw = await this.open(proof);
    }
    try {
      return await use(raw);
    } finally {
      raw.fill(0);
    }
  }

  /** Unwraps the raw bytes with the proof, counting failures and refusing while they slow it down. */
  private async open(proof: Proof): Promise<Uint8Array<ArrayBuffer>> {
    const kind = 'passphrase' in proof ? 'passphrase' : 'passkey';
    const slot = (await this.db.get('keys', kind)) as LockSlot | undefined;
    if (!slot) throw new LockError('no-such-slot', kind === 'passphrase' ? 'no passphrase is set for this vault' : 'no passkey is set for this vault');
    const wait = this.waitFor(slot);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new LockError('too-soon', `too many failed attempts: try again in ${seconds} second${seconds === 1 ? '' : 's'}`, wait);
    }
    let wrappingKey: CryptoKey;
    if (slot.slot === 'passphrase') {
      wrappingKey = await passphraseKey((proof as { passphrase: string }).passphrase, slot.salt, slot.iterations);
    } else {
      const output = await this.passkeyOutput(slot);
      if (!output) {
        await this.failed(slot);
        throw new LockError('wrong-passkey', "that passkey doesn't unlock this vault");
      }
      wrappingKey = await passkeyKey(output);
    }
    let raw: Uint8Array<ArrayBuffer>;
    try {
      raw = await unwrapRaw(slot, wrappingKey);
    } catch {
      await this.failed(slot);
      throw slot.slot === 'passphrase'
        ? new LockError('wrong-passphrase', 'wrong passphrase')
        : new LockError('wrong-passkey', "that passkey doesn't unlock this vault");
    }
    if (slot.failures) await this.attempts(slot, {});
    return raw;
  }

  private waitFor(slot: LockSlot): number {
    if (!slot.failures) return 0;
    return Math.max(0, (slot.failedAt ?? 0) + delayAfter(slot.failures) - this.now());
  }

  private async failed(slot: LockSlot) {
    await this.attempts(slot, { failures: (slot.failures ?? 0) + 1, failedAt: this.now() });
  }

  /** Updates the attempt count on the slot as stored now, if it is still the same slot. */
  private async attempts(slot: LockSlot, attempts: Attempts) {
    const tx = this.db.transaction('keys', 'readwrite');
    const stored = (await tx.store.get(slot.slot)) as LockSlot | undefined;
    if (stored && stored.createdAt === slot.createdAt) {
      const { failures: _f, failedAt: _t, ...rest } = stored;
      await tx.store.put({ ...rest, ...attempts } as KeySlot);
    }
    await tx.done;
  }

  /** Creates a passkey and gets its PRF output for `prfSalt`; refuses one without PRF. */
  private async createPasskey(prfSalt: Uint8Array<ArrayBuffer>): Promise<{ credentialId: ArrayBuffer; output: BufferSource }> {
    if (typeof PublicKeyCredential === 'undefined') throw new LockError('unsupported', "this browser can't use passkeys");
    const name = this.options.rpName;
    let credential: PublicKeyCredential | null;
    try {
      credential = (await this.credentials.create({
        publicKey: {
          // No server checks this ceremony: the lock rests on the PRF output, not on a signature.
          challenge: randomBytes(32),
          rp: { name },
          user: { id: randomBytes(16), name, displayName: name },
          pubKeyCredParams: [
            { type: 'public-key', alg: -7 },
            { type: 'public-key', alg: -257 },
          ],
          // The PRF output differs with and without user verification, so it is always required.
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
          extensions: { prf: { eval: { first: prfSalt } } },
        },
      })) as PublicKeyCredential | null;
    } catch (error) {
      if (cancelled(error)) throw new LockError('cancelled', 'the passkey prompt was cancelled; nothing changed');
      throw new LockError('unsupported', `no passkey was created (${(error as Error).name}); nothing changed`);
    }
    if (!credential) throw new LockError('cancelled', 'the passkey prompt was cancelled; nothing changed');
    const prf = credential.getClientExtensionResults().prf;
    if (!prf?.enabled) {
      forget(credential.rawId);
      throw new LockError('no-prf', "that passkey can't lock the vault: its authenticator doesn't support the PRF extension. Nothing changed");
    }
    const slot = { slot: 'passkey', credentialId: credential.rawId, prfSalt } as PasskeySlot;
    const output = prf.results?.first ?? (await this.passkeyOutput(slot));
    if (!output) throw new LockError('no-prf', "that passkey didn't give the vault a key (PRF); nothing changed");
    return { credentialId: credential.rawId, output };
  }

  /** The passkey's PRF output for the slot's salt, or `null` when it gave none. */
  private async passkeyOutput(slot: PasskeySlot): Promise<BufferSource | null> {
    let assertion: PublicKeyCredential | null;
    try {
      assertion = (await this.credentials.get({
        publicKey: {
          challenge: randomBytes(32),
          allowCredentials: [{ type: 'public-key', id: slot.credentialId }],
          userVerification: 'required',
          extensions: { prf: { eval: { first: slot.prfSalt } } },
        },
      })) as PublicKeyCredential | null;
    } catch (error) {
      if (cancelled(error)) throw new LockError('cancelled', 'the passkey prompt was cancelled or no passkey of this vault was found; nothing changed');
      throw new LockError('unsupported', `the passkey could not be used (${(error as Error).name}); nothing changed`);
    }
    if (!assertion) throw new LockError('cancelled', 'the passkey prompt was cancelled; nothing changed');
    return assertion.getClientExtensionResults().prf?.results?.first ?? null;
  }
}

/** Tells the passkey provider a refused credential is of no use, where the browser can. */
function forget(credentialId: ArrayBuffer) {
  const signal = (PublicKeyCredential as unknown as { signalUnknownCredential?: (o: object) => Promise<void> }).signalUnknownCredential;
  if (!signal) return;
  const id = btoa(String.fromCharCode(...new Uint8Array(credentialId)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  signal.call(PublicKeyCredential, { rpId: location.hostname, credentialId: id }).catch(() => undefined);
}
