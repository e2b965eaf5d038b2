// Starting the vault frame (index.html): hellos are held until config.json and embedders.json are
// loaded, then the gateway answers them. A missing or malformed file answers nobody.
import { Vault } from '../core/index.ts';
import { MAX_HELD_HELLOS } from '../limits.ts';
import { AvailabilityBroadcaster } from '../lock/index.ts';
import { type VaultDb, openVaultDb } from '../store/index.ts';
import type { EarlyStart } from './boot.ts';
import { Gateway } from './gateway.ts';
import { loadSettings } from './settings.ts';

export interface FrameOptions {
  /** The clock; tests on the vault origin pass one they control. */
  now?: () => number;
  /** The settings' fetches and the database's open, already started (src/boot.ts). */
  early?: EarlyStart | null;
}

export function startVaultFrame(win: Window = window, options: FrameOptions = {}): { ready: Promise<Gateway | null>; stop: () => void } {
  let held: MessageEvent[] | null = [];
  let gateway: Gateway | null = null;
  let vault: Vault | null = null;
  let db: VaultDb | null = null;
  let availability: AvailabilityBroadcaster | null = null;
  // After a hello the namespace may be new here: its lock buttons learn its availability.
  const hello = (event: MessageEvent) => void gateway!.hello(event).then(() => availability?.refresh());
  const onMessage = (event: MessageEvent) => {
    if (gateway) hello(event);
    // Until the settings are in, only the parent's messages wait, and only so many (README, Limits).
    else if (held && event.source === win.parent && held.length < MAX_HELD_HELLOS) held.push(event);
  };
  win.addEventListener('message', onMessage);
  const ready = (async () => {
    try {
      // The settings' fetches, the database's open and the vault's first reads go on at once; the
      // parent's namespace is read before its hello where the browser names the parent
      // (Chromium's ancestorOrigins).
      const settings = options.early?.settings ?? loadSettings(win.location.origin);
      settings.catch(() => {}); // awaited below
      db = await (options.early?.db ?? openVaultDb());
      const expected = win.parent === win ? undefined : win.location.ancestorOrigins?.[0];
      vault = await Vault.open({ db, config: settings.then((s) => s.config), now: options.now, expected });
      const { embedders } = await settings;
      gateway = new Gateway(vault, embedders, win);
      const opened = vault;
      availability = new AvailabilityBroadcaster({ status: (ns) => opened.reads.status(ns), onChange: (listener) => opened.onChange(listener) }, gateway, win);
      for (const event of held ?? []) hello(event);
      return gateway;
    } catch (error) {
      console.error(`slicc-vault: answering nobody: ${(error as Error).message}`);
      vault?.close();
      db?.close();
      vault = null;
      db = null;
      return null;
    } finally {
      held = null;
    }
  })();
  /** The document is going (or the test is done): its vault closes, database included. */
  const stop = () => {
    win.removeEventListener('message', onMessage);
    win.removeEventListener('pagehide', stop);
    availability?.stop();
    vault?.close();
    db?.close();
    vault = null;
    db = null;
  };
  win.addEventListener('pagehide', stop);
  return { ready, stop };
}
