// Auto-lock on idle (README, Key store and lock): with a lock set and an idle time chosen in the
// popup, every vault document holding the key drops it everywhere, as `lock` does, once that long
// has passed without the person: the popup in use, or the page's own value ops. Kernel programs
// and the agent are assumed hostile and never keep it open. The setting and the last use are kept
// in IndexedDB (the `keys` store's `idle` entry), so every document of the vault agrees on them.
import type { IdleEntry, VaultDb } from '../store/index.ts';
import { lockOf } from './slots.ts';
import type { KeyRing } from './keyring.ts';
import { NOTE_USE_EVERY_MS } from '../limits.ts';

/** The time and timers auto-lock runs on; tests inject one they move forward by hand. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock, or real timers over the given `now`. */
export function clockOf(now: () => number = Date.now): Clock {
  return {
    now,
    setTimeout: (run, ms) => setTimeout(run, Math.min(ms, 2 ** 31 - 1)),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

/** Writes a use of the vault at `now` into the `idle` entry, if auto-lock is set and it is newer. */
export async function noteUse(db: VaultDb, now: number): Promise<void> {
  const tx = db.transaction('keys', 'readwrite');
  const idle = (await tx.store.get('idle')) as IdleEntry | undefined;
  if (idle && idle.afterMs !== null && idle.usedAt < now) await tx.store.put({ ...idle, usedAt: now });
  await tx.done;
}

export class AutoLock {
  private timer: unknown = null;
  private notedAt = Number.NEGATIVE_INFINITY;
  private readonly stop: () => void;

  constructor(
    private readonly db: VaultDb,
    private readonly ring: KeyRing,
    private readonly clock: Clock = clockOf(),
  ) {
    this.stop = ring.onChange((key) => (key ? this.arm() : this.disarm()));
    if (ring.key) void this.arm();
  }

  /** A use of the vault: the idle time starts again, for every document. */
  async used(): Promise<void> {
    if (!this.ring.key) return;
    const now = this.clock.now();
    if (now - this.notedAt < NOTE_USE_EVERY_MS) return;
    this.notedAt = now;
    await noteUse(this.db, now);
    await this.arm();
  }

  /**
   * Looks at the setting and the last use, and locks when the idle time has passed; otherwise
   * sets a timer for the moment it will, and looks again then (another document may have been
   * used meanwhile). Called when the key arrives and whenever the lock or the setting changes.
   */
  async arm(): Promise<void> {
    this.disarm();
    if (!this.ring.key) return;
    const entries = await this.db.getAll('keys');
    const lock = lockOf(entries);
    const idle = entries.find((e): e is IdleEntry => e.slot === 'idle');
    if (!this.ring.key || !lock?.autoLockMs || !idle) return;
    const wait = idle.usedAt + lock.autoLockMs - this.clock.now();
    if (wait <= 0) {
      await this.ring.lock();
      return;
    }
    this.disarm();
    this.timer = this.clock.setTimeout(() => void this.arm(), wait);
  }

  close() {
    this.disarm();
    this.stop();
  }

  private disarm() {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
