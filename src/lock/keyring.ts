// This document's hold on the data key, shared with every vault document of the origin over a
// BroadcastChannel (README, Key store and lock): a key unlocked in one document (the popup) reaches
// all of them; a document that starts while another holds the key asks for it; `lock` drops it
// everywhere. The key travels as a non-extractable CryptoKey, never as bytes, and is adopted only
// when it is the vault's: AES-GCM-256 for encrypt and decrypt that opens the key-check value, at
// the lock epoch stored now.
import type { HeldKey, VaultDb } from '../store/index.ts';
import { isDataKey, nextEpoch, openDevice, opensCheck, readLock, readRing } from './slots.ts';

export const KEY_CHANNEL = 'slicc-vault-keys';
const ASK_MS = 150;

/** What travels on `slicc-vault-keys`. `epoch` is the lock epoch the key was taken at, or the new one. */
export type KeyMessage = { type: 'key?' } | { type: 'key'; key: CryptoKey; epoch: number; auto: boolean } | { type: 'lock'; epoch: number };

export interface KeyRingOptions {
  /** The channel's name; tests give each ring set its own. */
  channel?: string;
}

export class KeyRing {
  private held: HeldKey | null = null;
  /** The held key came while no lock was set (auto-unlock): `lock` must look before it drops. */
  private auto = false;
  /** The newest lock epoch this document knows of: a key taken before it is never adopted. */
  private floor = 0;
  private lost = false;
  private readonly channel: BroadcastChannel;
  private readonly listeners = new Set<(key: CryptoKey | null) => void | Promise<void>>();

  private constructor(
    private readonly db: VaultDb,
    options: KeyRingOptions,
  ) {
    this.channel = new BroadcastChannel(options.channel ?? KEY_CHANNEL);
    this.channel.onmessage = ({ data }: MessageEvent<KeyMessage>) => void this.receive(data);
  }

  /** Auto-unlocks when no lock is set; otherwise asks the other vault documents for the key. */
  static async open(db: VaultDb, options: KeyRingOptions = {}): Promise<KeyRing> {
    const ring = new KeyRing(db, options);
    if (!(await ring.reopen())) await ring.ask();
    return ring;
  }

  get key(): CryptoKey | null {
    return this.held?.key ?? null;
  }

  /** The key with the check value and epoch it was adopted at: what a write verifies. */
  get current(): HeldKey | null {
    return this.held;
  }

  /** Records exist but no key slot is left to open them (README, Key store and lock). */
  get keyLost(): boolean {
    return this.lost;
  }

  onChange(listener: (key: CryptoKey | null) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Takes a key opened in this document (an unlock, a new data key, a removed lock) and hands it
   * to every other vault document. Refused (false) unless it opens the check value stored now.
   */
  async give(key: CryptoKey): Promise<boolean> {
    const { epoch, check, lock } = await readRing(this.db);
    if (epoch < this.floor || !check || !(await opensCheck(key, check))) return false;
    this.lost = false;
    this.take({ key, check: check.id, epoch }, lock === null);
    this.channel.postMessage({ type: 'key', key, epoch, auto: lock === null } satisfies KeyMessage);
    return true;
  }

  /**
   * Drops the key everywhere when a lock is set; without a lock it does nothing. A key held under
   * a lock is dropped before the first await, and the others are told at once; then the epoch
   * moves on in IndexedDB, so no key from before this moment is adopted again.
   */
  async lock(): Promise<boolean> {
    if (!this.held || this.auto) {
      if (!(await readLock(this.db))) return false;
    }
    const next = Math.max(this.floor, this.held?.epoch ?? 0) + 1;
    this.floor = next;
    this.drop();
    this.channel.postMessage({ type: 'lock', epoch: next } satisfies KeyMessage);
    const epoch = await nextEpoch(this.db);
    if (epoch === null) {
      // The lock was removed meanwhile: auto-unlock is in charge again.
      await this.reopen();
      return false;
    }
    this.floor = Math.max(this.floor, epoch);
    this.channel.postMessage({ type: 'lock', epoch } satisfies KeyMessage);
    return true;
  }

  /** Drops the key when the check value it was taken against is no longer the vault's. */
  async recheck(): Promise<void> {
    const held = this.held;
    if (!held) return;
    const { check } = await readRing(this.db);
    if (this.held === held && check?.id !== held.check) this.drop();
  }

  close() {
    this.channel.close();
    this.listeners.clear();
  }

  /** Opens the device slot when no lock is set; says whether this document now holds the key. */
  private async reopen(): Promise<boolean> {
    const opened = await openDevice(this.db);
    this.floor = Math.max(this.floor, opened.epoch);
    this.lost = opened.state === 'gone';
    if (opened.state !== 'open') return false;
    if (opened.epoch >= this.floor && !this.held) this.take(opened, true);
    return this.held !== null;
  }

  /** Asks the other documents for the key and waits briefly for an answer. */
  private async ask(): Promise<void> {
    const answered = new Promise<void>((resolve) => {
      const stop = this.onChange((key) => {
        if (key) {
          stop();
          resolve();
        }
      });
      setTimeout(() => {
        stop();
        resolve();
      }, ASK_MS);
    });
    this.channel.postMessage({ type: 'key?' } satisfies KeyMessage);
    await answered;
  }

  private async receive(message: KeyMessage) {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'key?') {
      const held = this.held;
      if (held) this.channel.postMessage({ type: 'key', key: held.key, epoch: held.epoch, auto: this.auto } satisfies KeyMessage);
    } else if (message.type === 'key') {
      await this.offered(message);
    } else if (message.type === 'lock' && Number.isSafeInteger(message.epoch)) {
      // Another document locked: drop at once, then let auto-unlock take over if no lock is set.
      this.floor = Math.max(this.floor, message.epoch);
      if (this.held && this.held.epoch < message.epoch) {
        this.drop();
        if (!(await readLock(this.db))) await this.reopen();
      }
    }
  }

  /** A key another document sent: adopted only when it is the vault's, at the epoch stored now. */
  private async offered({ key, epoch, auto }: Extract<KeyMessage, { type: 'key' }>) {
    if (!Number.isSafeInteger(epoch)) return;
    if (this.held) {
      // Unasked while holding a key: ignored, unless the vault moved to a newer epoch (a new data
      // key on the first lock), which drops the held key at once.
      if (epoch <= this.held.epoch) return;
      this.drop();
    }
    if (epoch < this.floor || !isDataKey(key)) return;
    const stored = await readRing(this.db);
    if (stored.epoch !== epoch || !stored.check || !(await opensCheck(key, stored.check))) return;
    if (this.held || epoch < this.floor) return;
    this.floor = epoch;
    this.lost = false;
    this.take({ key, check: stored.check.id, epoch }, auto === true && stored.lock === null);
  }

  private take(held: HeldKey, auto: boolean) {
    this.held = held;
    this.auto = auto;
    this.tell(held.key);
  }

  /** Drops the key synchronously; listeners hear of it without being waited for. */
  private drop() {
    if (!this.held) return;
    this.held = null;
    this.auto = false;
    this.tell(null);
  }

  private tell(key: CryptoKey | null) {
    for (const listener of this.listeners) void Promise.resolve(listener(key)).catch(() => undefined);
  }
}
