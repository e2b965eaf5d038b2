// The lock (README, Key store and lock): passphrase and passkey key slots beside the device slot of
// auto-unlock. Every change of slots needs the raw data-key bytes, so it first opens an existing
// slot: the device slot while no lock is set, else the person's passphrase or passkey (like LUKS).
// Raw bytes live only between that unwrap and the wrap that follows it, and are zeroed in
// `finally`; so are the encoded passphrase and the PRF output once their key is derived. The first
// lock brings a new data key (README, Key store and lock).
import { AUTO_LOCK_CHOICES, type AutoLockMs, type LockState } from '../contract.ts';
import { MAX_ITERATIONS, MIN_ITERATIONS, MIN_PASSPHRASE_LENGTH, iterationsAllowed } from '../limits.ts';
import {
  type DeviceSlot,
  type IdleEntry,
  type KeyEpoch,
  type KeySlot,
  type PasskeySlot,
  type PassphraseSlot,
  type StoredRecord,
  type VaultDb,
  announce,
  reencrypt,
} from '../store/index.ts';
import { noteUse } from './autolock.ts';
import { deviceSlot, importDataKey, lockOf, makeCheck, randomBytes, unwrapKey, unwrapRaw, wrapKey } from './slots.ts';

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
  | 'unsupported'
  /** The passkey's `get()` gave another PRF output than its `create()`: it could never unlock. */
  | 'passkey-unproven'
  /** A PBKDF2 iteration count outside 600,000–10,000,000 (config or stored slot). */
  | 'bad-iterations'
  /** Records or the key changed too often while the first lock re-encrypted them. */
  | 'busy';

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

type LockSlot = PassphraseSlot | PasskeySlot;

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

const iterationsError = (n: unknown) =>
  new LockError(
    'bad-iterations',
    `the passphrase cost must be from ${MIN_ITERATIONS} to ${MAX_ITERATIONS} PBKDF2 iterations, not ${String(n)}; nothing changed`,
  );

/** The passphrase slot's wrapping key; the encoded passphrase is zeroed once imported. */
export async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  if (!iterationsAllowed(iterations)) throw iterationsError(iterations);
  const bytes = new TextEncoder().encode(passphrase.normalize('NFC'));
  let base: CryptoKey;
  try {
    base = await crypto.subtle.importKey('raw', bytes, 'PBKDF2', false, ['deriveKey']);
  } finally {
    bytes.fill(0);
  }
  return crypto.subtle.deriveKey({ name: 'PBKDF2', salt, iterations, hash: 'SHA-256' }, base, AES, false, ['encrypt', 'decrypt']);
}

/** The passkey slot's wrapping key; the PRF output is zeroed once imported. */
export async function passkeyKey(prfOutput: BufferSource): Promise<CryptoKey> {
  let base: CryptoKey;
  try {
    base = await crypto.subtle.importKey('raw', prfOutput, 'HKDF', false, ['deriveKey']);
  } finally {
    wipe(prfOutput);
  }
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

/** Overwrites bytes with zeros, whatever view they come in. */
export function wipe(bytes: BufferSource) {
  (ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes)).fill(0);
}

const equalBytes = (a: BufferSource, b: BufferSource) => {
  const x = ArrayBuffer.isView(a) ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength) : new Uint8Array(a);
  const y = ArrayBuffer.isView(b) ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

const cancelled = (error: unknown) => error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError');

export class Lock {
  private readonly credentials: CredentialsContainer;
  private readonly now: () => number;

  constructor(
    private readonly db: VaultDb,
    private readonly options: LockOptions,
  ) {
    if (!iterationsAllowed(options.iterations)) throw iterationsError(options.iterations);
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

  /** The data key, opened with the passphrase or passkey (and given a check value if it had none). */
  async unlock(proof: Proof): Promise<CryptoKey> {
    return this.withRaw(proof, async (raw) => {
      const key = await importDataKey(raw);
      // The person unlocking is a use: auto-lock's idle time starts again (README, Key store and lock).
      await noteUse(this.db, this.now());
      if (!(await this.db.get('keys', 'check'))) {
        // A vault from before key-check values: this is the moment its key is known to be right.
        const check = await makeCheck(key);
        const tx = this.db.transaction('keys', 'readwrite');
        if (!(await tx.store.get('check'))) await tx.store.put(check);
        await tx.done;
      }
      return key;
    });
  }

  /**
   * Adds the passphrase slot, or replaces it (changing the passphrase). `proof` is needed once a
   * lock is set. Without a lock this is the first lock: it answers the new data key, which the
   * caller hands to every document (README, Key store and lock); otherwise `null`.
   */
  async setPassphrase(passphrase: string, proof?: Proof): Promise<CryptoKey | null> {
    const normalized = checkPassphrase(passphrase);
    const salt = randomBytes(16);
    const iterations = this.options.iterations;
    const wrappingKey = await passphraseKey(normalized, salt, iterations);
    const slotFor = async (raw: Uint8Array<ArrayBuffer>): Promise<PassphraseSlot> => ({
      slot: 'passphrase',
      salt,
      iterations,
      ...(await wrapKey(raw, wrappingKey, 'passphrase')),
    });
    if (!proof) return this.firstLock(slotFor);
    await this.withRaw(proof, async (raw) => this.replace([await slotFor(raw)], []));
    return null;
  }

  /**
   * Creates a passkey with the PRF extension, proves it with a `get()`, and adds its slot
   * (replacing any passkey slot). A passkey without PRF, or whose `get()` gives another output
   * than its `create()`, changes nothing. Without a lock this is the first lock, as for
   * `setPassphrase`.
   */
  async setPasskey(proof?: Proof): Promise<CryptoKey | null> {
    // The proof is checked first, so a wrong passphrase doesn't leave a useless passkey behind.
    if (proof) await this.withRaw(proof, async () => undefined);
    else if (!(await this.db.get('keys', 'device'))) throw proofNeeded();
    const prfSalt = randomBytes(32);
    const { credentialId, output } = await this.createPasskey(prfSalt);
    const wrappingKey = await passkeyKey(output);
    const slotFor = async (raw: Uint8Array<ArrayBuffer>): Promise<PasskeySlot> => ({
      slot: 'passkey',
      credentialId,
      prfSalt,
      ...(await wrapKey(raw, wrappingKey, 'passkey')),
    });
    if (!proof) return this.firstLock(slotFor);
    await this.withRaw(proof, async (raw) => this.replace([await slotFor(raw)], []));
    return null;
  }

  /** Removes every lock slot and brings back the device slot (auto-unlock), keeping the data key. */
  async removeLock(proof: Proof): Promise<CryptoKey> {
    if (!(await this.state())) throw new LockError('no-lock', 'no lock is set: the vault already opens by itself');
    return this.withRaw(proof, async (raw) => {
      await this.replace([await deviceSlot(raw)], ['passphrase', 'passkey']);
      return importDataKey(raw);
    });
  }

  /** The auto-lock idle time, or `null` for never; a lock must be set. */
  async setAutoLock(afterMs: AutoLockMs | null): Promise<void> {
    if (afterMs !== null && !(AUTO_LOCK_CHOICES as readonly number[]).includes(afterMs)) {
      throw new LockError('unsupported', 'auto-lock waits 15 minutes, 1 hour or 4 hours, or never');
    }
    const tx = this.db.transaction('keys', 'readwrite');
    if (!lockOf(await tx.store.getAll())) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new LockError('no-lock', 'auto-lock needs a lock: without one the vault opens by itself');
    }
    const idle = (await tx.store.get('idle')) as IdleEntry | undefined;
    await tx.store.put({ slot: 'idle', afterMs, usedAt: Math.max(idle?.usedAt ?? 0, this.now()) } satisfies IdleEntry);
    await tx.done;
    announce(null, ['status']);
  }

  /**
   * The first lock: a new data key, every record re-encrypted under it, and the new slot, its
   * check value and the next epoch written with the device slot deleted, in one transaction that
   * first checks nothing changed since the records were read (else it starts again). A copy of
   * the profile from before opens nothing written or re-encrypted after. A record the old key
   * can't open stays as it was (unreadable either way).
   */
  private async firstLock(slotFor: (raw: Uint8Array<ArrayBuffer>) => Promise<KeySlot>): Promise<CryptoKey> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const read = this.db.transaction(['keys', 'records']);
      const [device, records] = await Promise.all([
        read.objectStore('keys').get('device') as Promise<DeviceSlot | undefined>,
        read.objectStore('records').getAll(),
      ]);
      if (!device) throw proofNeeded();
      const oldKey = await unwrapKey(device, device.wrappingKey);
      const raw = randomBytes(32);
      let newKey: CryptoKey;
      let slot: KeySlot;
      try {
        newKey = await importDataKey(raw);
        slot = await slotFor(raw);
      } finally {
        raw.fill(0);
      }
      const check = await makeCheck(newKey);
      // Each record's ciphertext under the new key, by id.
      const moved = new Map<string, Pick<StoredRecord, 'iv' | 'ciphertext'>>();
      for (const record of records) {
        try {
          moved.set(record.id, await reencrypt(oldKey, newKey, record));
        } catch {
          // Unreadable under the old key: left as it is.
        }
      }
      const seen = new Map(records.map((r) => [r.id, r.iv]));
      const tx = this.db.transaction(['keys', 'records'], 'readwrite');
      const keys = tx.objectStore('keys');
      const [still, now, epoch] = await Promise.all([
        keys.get('device'),
        tx.objectStore('records').getAll(),
        keys.get('epoch') as Promise<KeyEpoch | undefined>,
      ]);
      // Every record still holds the ciphertext that was re-encrypted (a write meanwhile starts it
      // again); only the ciphertext is replaced, so a removal, restore or use meanwhile stays.
      const unchanged =
        still?.slot === 'device' &&
        still.createdAt === device.createdAt &&
        now.length === records.length &&
        now.every((r) => {
          const iv = seen.get(r.id);
          return iv !== undefined && equalBytes(iv, r.iv);
        });
      if (!unchanged) {
        tx.abort();
        await tx.done.catch(() => undefined);
        continue;
      }
      await Promise.all([
        ...now.flatMap((r) => {
          const next = moved.get(r.id);
          return next ? [tx.objectStore('records').put({ ...r, ...next })] : [];
        }),
        keys.put(slot),
        keys.put(check),
        keys.put({ slot: 'epoch', epoch: (epoch?.epoch ?? 0) + 1 }),
        keys.delete('device'),
        tx.done,
      ]);
      announce(null, ['status']);
      return newKey;
    }
    throw new LockError('busy', 'the vault kept changing while it was being locked; nothing changed. Try again');
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
      if (!device) throw proofNeeded();
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

  /**
   * Unwraps the raw bytes with the proof. The attempt is counted before the passphrase or passkey
   * is tried, in one transaction with the wait check, so attempts made at once each count; a
   * success clears the count, a cancelled passkey prompt takes its own count back.
   */
  private async open(proof: Proof): Promise<Uint8Array<ArrayBuffer>> {
    const kind = 'passphrase' in proof ? 'passphrase' : 'passkey';
    const slot = await this.claim(kind);
    let wrappingKey: CryptoKey;
    if (slot.slot === 'passphrase') {
      if (!iterationsAllowed(slot.iterations)) {
        await this.attempts(slot, (n) => Math.max(0, n - 1));
        throw iterationsError(slot.iterations);
      }
      wrappingKey = await passphraseKey((proof as { passphrase: string }).passphrase, slot.salt, slot.iterations);
    } else {
      let output: BufferSource | null;
      try {
        output = await this.passkeyOutput(slot);
      } catch (error) {
        if (error instanceof LockError && error.reason === 'cancelled') await this.attempts(slot, (n) => Math.max(0, n - 1));
        throw error;
      }
      if (!output) {
        await this.attempts(slot, (n) => n, this.now());
        throw new LockError('wrong-passkey', "that passkey doesn't unlock this vault");
      }
      wrappingKey = await passkeyKey(output);
    }
    let raw: Uint8Array<ArrayBuffer>;
    try {
      raw = await unwrapRaw(slot, wrappingKey);
    } catch {
      // Counted already; the wait runs from the failure, as the person sees it.
      await this.attempts(slot, (n) => n, this.now());
      throw slot.slot === 'passphrase'
        ? new LockError('wrong-passphrase', 'wrong passphrase')
        : new LockError('wrong-passkey', "that passkey doesn't unlock this vault");
    }
    await this.attempts(slot, () => 0);
    return raw;
  }

  /** Checks the wait and counts the attempt, in one read-write transaction; answers the slot read. */
  private async claim(kind: 'passphrase' | 'passkey'): Promise<LockSlot> {
    const tx = this.db.transaction('keys', 'readwrite');
    const slot = (await tx.store.get(kind)) as LockSlot | undefined;
    const wait = slot ? this.waitFor(slot) : 0;
    if (!slot || wait > 0) {
      tx.abort();
      await tx.done.catch(() => undefined);
      if (!slot) throw new LockError('no-such-slot', kind === 'passphrase' ? 'no passphrase is set for this vault' : 'no passkey is set for this vault');
      const seconds = Math.ceil(wait / 1000);
      throw new LockError('too-soon', `too many failed attempts: try again in ${seconds} second${seconds === 1 ? '' : 's'}`, wait);
    }
    await tx.store.put({ ...slot, failures: (slot.failures ?? 0) + 1, failedAt: this.now() } as LockSlot as KeySlot);
    await tx.done;
    return slot;
  }

  private waitFor(slot: LockSlot): number {
    if (!slot.failures) return 0;
    return Math.max(0, (slot.failedAt ?? 0) + delayAfter(slot.failures) - this.now());
  }

  /** Changes the attempt count on the slot as stored now, if it is still the same slot. */
  private async attempts(slot: LockSlot, count: (failures: number) => number, at?: number) {
    const tx = this.db.transaction('keys', 'readwrite');
    const stored = (await tx.store.get(slot.slot)) as LockSlot | undefined;
    if (stored && stored.createdAt === slot.createdAt) {
      const failures = count(stored.failures ?? 0);
      const { failures: _f, failedAt, ...rest } = stored;
      await tx.store.put((failures > 0 ? { ...rest, failures, failedAt: Math.max(at ?? 0, failedAt ?? 0) } : rest) as KeySlot);
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
    // Proven before it is trusted: the slot is wrapped with what a `get()` gives, the way every
    // unlock will, and a `create()` output that differs refuses the passkey.
    const slot = { slot: 'passkey', credentialId: credential.rawId, prfSalt } as PasskeySlot;
    const created = prf.results?.first;
    const output = await this.passkeyOutput(slot);
    if (!output) {
      forget(credential.rawId);
      throw new LockError('no-prf', "that passkey didn't give the vault a key (PRF); nothing changed");
    }
    if (created && !equalBytes(created, output)) {
      wipe(created);
      wipe(output);
      forget(credential.rawId);
      throw new LockError('passkey-unproven', 'that passkey gave a different key when asked again, so it could never unlock the vault; nothing changed');
    }
    if (created) wipe(created);
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

const proofNeeded = () => new LockError('proof-needed', 'a lock is set: confirm with the passphrase or the passkey first');

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
