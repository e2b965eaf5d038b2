// The popup's world (README, Key store and lock: the popup): its settings, its database, its hold
// on the key (a KeyRing) and the vault's bus, opened once when the popup connects and released
// when it disconnects. The lock's and the backups' controllers both work in it.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { EmbedderList, VaultConfig } from '../src/contract.ts';
import { loadSettings } from '../src/gateway/index.ts';
import { KeyRing } from '../src/lock/index.ts';
import { CHANNEL, type VaultDb, openVaultDb } from '../src/store/index.ts';

export interface World {
  config: VaultConfig;
  embedders: EmbedderList;
  db: VaultDb;
  ring: KeyRing;
  /** The vault's BroadcastChannel: what changed in which namespace. Listen with addEventListener. */
  bus: BroadcastChannel;
  /** The namespace the button opened the popup for (`?namespace=`; the panel's as its frame checked it). */
  namespace: string | null;
}

export class PopupWorld implements ReactiveController {
  private opening: Promise<World> | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly win: Window = window,
    /** The namespace, when the document checked it itself (the panel); else `?namespace=` unchecked. */
    private readonly namespace?: string | null,
  ) {
    host.addController(this);
  }

  hostConnected() {
    this.ready();
  }

  /** Releases all it holds, even mid-start (once the start is done): the key ring, the bus and the database. */
  hostDisconnected() {
    const opening = this.opening;
    this.opening = null;
    void opening?.then(release, () => undefined);
  }

  /** The world, opened once per connection; it rejects when the vault can't start here. */
  ready(): Promise<World> {
    this.opening ??= this.open();
    return this.opening;
  }

  private async open(): Promise<World> {
    const { config, embedders } = await loadSettings(this.win.location.origin);
    const db = await openVaultDb();
    const ring = await KeyRing.open(db).catch((error) => {
      db.close();
      throw error;
    });
    const namespace = this.namespace !== undefined ? this.namespace : new URLSearchParams(this.win.location.search).get('namespace');
    return { config, embedders, db, ring, bus: new BroadcastChannel(CHANNEL), namespace };
  }
}

function release(world: World) {
  world.ring.close();
  world.bus.close();
  world.db.close();
}
