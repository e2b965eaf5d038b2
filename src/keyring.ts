// This document's hold on the data key, shared with every vault document of the origin over a
// BroadcastChannel (README, Lock): a key unlocked in one document (the popup) reaches all of them;
// a document that starts while another holds the key asks for it; `lock` drops it everywhere.
// The key travels as a non-extractable CryptoKey, never as bytes.
import type { VaultDb } from './db.ts';
import { autoUnlock, readLock } from './keys.ts';

export const KEY_CHANNEL = 'slicc-vault-keys';
const ASK_MS = 150;

type KeyMessage = { type: 'key?' } | { type: 'key'; key: CryptoKey } | { type: 'lock' };

export class KeyRing {
  private current: CryptoKey | null = null;
  private readonly channel = new BroadcastChannel(KEY_CHANNEL);
  private readonly listeners = new Set<(key: CryptoKey | null) => void | Promise<void>>();

  private constructor(private readonly db: VaultDb) {
    this.channel.onmessage = ({ data }: MessageEvent<KeyMessage>) => void this.receive(data);
  }

  /** Auto-unlocks when no lock is set; otherwise asks the other vault documents for the key. */
  static async open(db: VaultDb): Promise<KeyRing> {
    const ring = new KeyRing(db);
    const key = await autoUnlock(db);
    if (key) await ring.set(key);
    else await ring.ask();
    return ring;
  }

  get key(): CryptoKey | null {
    return this.current;
  }

  onChange(listener: (key: CryptoKey | null) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hands an unlocked key to this document and every other vault document of the origin. */
  async give(key: CryptoKey): Promise<void> {
    this.channel.postMessage({ type: 'key', key } satisfies KeyMessage);
    await this.set(key);
  }

  /** Drops the key everywhere when a lock is set; without a lock it does nothing. */
  async lock(): Promise<boolean> {
    if (!(await readLock(this.db))) return false;
    this.channel.postMessage({ type: 'lock' } satisfies KeyMessage);
    await this.set(null);
    return true;
  }

  close() {
    this.channel.close();
    this.listeners.clear();
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
    if (message.type === 'key?') {
      if (this.current) this.channel.postMessage({ type: 'key', key: this.current } satisfies KeyMessage);
    } else if (message.type === 'key') {
      if (message.key instanceof CryptoKey && !message.key.extractable) await this.set(message.key);
    } else if (message.type === 'lock') {
      // Another document locked; a lock that was removed meanwhile leaves auto-unlock in charge.
      if (await readLock(this.db)) await this.set(null);
    }
  }

  private async set(key: CryptoKey | null) {
    if (key === this.current) return;
    this.current = key;
    for (const listener of this.listeners) await listener(key);
  }
}
