// The vault of one document (README, Scrub state): it composes the stores, the key ring, the
// compiled scrubbers, the served namespaces in memory (`served`), what it answers from them
// (`reads`) and what it changes (`writes`), and keeps the purge's timers. It opens no transaction
// itself and never hands out a value.
import type { VaultConfig } from '../contract.ts';
import builtinEndpoints from '../endpoints.json' with { type: 'json' };
import { AutoLock, type Clock, KeyRing, clockOf, readLock } from '../lock/index.ts';
import { type BusMessage, CHANNEL, Namespaces, PolicyStore, Records, Requests, Reveals, type VaultDb } from '../store/index.ts';
import { Reads } from './reads.ts';
import { Scrubbers } from './scrubbers.ts';
import { type ChangeListener, Served } from './served.ts';
import { Writes } from './writes.ts';

const PURGE_FIRST_MS = 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export interface VaultOptions {
  db: VaultDb;
  /** May still be on its way (the frame's settings): the reads that don't need it go out meanwhile. */
  config: VaultConfig | Promise<VaultConfig>;
  /**
   * The namespace whose hello is expected first (the frame's parent, where the browser names it
   * before the hello): its small read for `welcome` goes out as the vault opens.
   */
  expected?: string;
  now?: () => number;
  /** Auto-lock's clock and timers (default: real timers over `now`); tests inject one. */
  clock?: Clock;
}

export class Vault {
  readonly config: VaultConfig;
  readonly now: () => number;
  readonly keys: KeyRing;
  readonly autoLock: AutoLock;
  readonly scrubbers: Scrubbers;
  readonly served: Served;
  readonly reads: Reads;
  readonly writes: Writes;
  private readonly bus: BroadcastChannel;
  private firstPurge?: ReturnType<typeof setTimeout>;
  private purgeTimer?: ReturnType<typeof setInterval>;

  private constructor(db: VaultDb, keys: KeyRing, options: VaultOptions & { config: VaultConfig }, bus: BroadcastChannel) {
    this.keys = keys;
    this.bus = bus;
    this.config = options.config;
    const now = options.now ?? Date.now;
    this.now = now;
    this.autoLock = new AutoLock(db, keys, options.clock ?? clockOf(now));
    const records = new Records(db, now);
    const namespaces = new Namespaces(db);
    this.served = new Served({ db, namespaces, bus, builtin: builtinEndpoints, scrubbers: () => this.scrubbers, autoLock: () => this.autoLock, now });
    this.scrubbers = new Scrubbers(
      async (namespace) => {
        const state = await this.served.state(namespace);
        return { version: state.meta.scrubVersion, records: state.all() };
      },
      () => this.keys.current,
      async (namespace, held, unreadable, scrubber) => {
        // Records newly marked unreadable: this document reads the namespace again, the others too.
        if (await records.markUnreadable(namespace, held, unreadable, (text) => scrubber.redact(text).text)) {
          await this.served.changedWithoutDelta(namespace, ['audit']);
        }
      },
    );
    this.reads = new Reads({ db, served: this.served, keys, scrubbers: this.scrubbers, now });
    this.writes = new Writes({
      served: this.served,
      scrubbers: this.scrubbers,
      reads: this.reads,
      keys,
      autoLock: this.autoLock,
      records,
      requests: new Requests(db, this.config.requestLifetimeMs, now),
      namespaces,
      policies: new PolicyStore(db, now),
      reveals: new Reveals(db, now),
      now,
    });
    this.bus.onmessage = (event: MessageEvent<BusMessage>) => void this.served.fromBus(event.data);
  }

  /** Opens the vault of this document: auto-unlocks when no lock is set, purges, schedules purges. */
  static async open(options: VaultOptions): Promise<Vault> {
    // The reads that need no settings go out at once, beside the settings' fetches (README,
    // Benchmarks: frame boot). The bus listens from the same moment (a write these reads miss
    // commits after them, so its notice comes to this channel).
    const { db, expected } = options;
    const opening = KeyRing.open(db);
    const locking = readLock(db);
    locking.catch(() => {}); // awaited below, unless the settings failed first
    const early = expected === undefined ? undefined : { namespace: expected, summary: new Namespaces(db).summary(expected).catch(() => null) };
    const bus = new BroadcastChannel(CHANNEL);
    const missed: BusMessage[] = [];
    bus.onmessage = ({ data }: MessageEvent<BusMessage>) => void missed.push(data);
    let config: VaultConfig;
    try {
      config = await options.config;
    } catch (error) {
      bus.close();
      (await opening.catch(() => null))?.close();
      throw error;
    }
    const keys = await opening;
    const vault = new Vault(db, keys, { ...options, config }, bus);
    vault.served.opened(await locking, early);
    // The notices heard before the vault's own handler listened go through it now: one of the
    // expected namespace drops the early read, one of the lock reads the lock again.
    for (const message of missed) void vault.served.fromBus(message);
    keys.onChange(async () => {
      await vault.served.lockChanged();
      for (const namespace of vault.served.held()) vault.scrubbers.refresh(namespace).catch(() => undefined);
      await vault.served.notify(null, ['status']);
    });
    // Purging is upkeep: it runs a while after the first hellos, never in their way (README, Records).
    vault.firstPurge = setTimeout(() => void vault.writes.purge(), PURGE_FIRST_MS);
    vault.purgeTimer = setInterval(() => void vault.writes.purge(), PURGE_EVERY_MS);
    return vault;
  }

  /** Stops the timers and channels (the database is its opener's to close). */
  close() {
    clearTimeout(this.firstPurge);
    clearInterval(this.purgeTimer);
    this.served.close();
    this.bus.close();
    this.autoLock.close();
    this.keys.close();
    this.scrubbers.close();
  }

  get locked(): boolean {
    return this.keys.key === null;
  }

  onChange(listener: ChangeListener): () => void {
    return this.served.onChange(listener);
  }
}
