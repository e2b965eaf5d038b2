// The frame's first work (docs/benchmarks.md, Boot): its settings' fetches and its
// database's open start as its bundle starts running, before the rest of the bundle's top level
// and the element's upgrade. Imported first by components/vault-frame.ts, and only there.
import { type VaultDb, openVaultDb } from '../store/index.ts';
import { loadSettings } from './settings.ts';

export interface EarlyStart {
  /** The same fresh (`no-store`) fetches the frame would make itself. */
  settings: ReturnType<typeof loadSettings>;
  db: Promise<VaultDb>;
}

let early: EarlyStart | null = { settings: loadSettings(location.origin), db: openVaultDb() };
// Taken and awaited by the frame, which reports a failure.
early.settings.catch(() => {});
early.db.catch(() => {});
// A document whose frame never started (or already took them) closes the database as it goes.
const closeUntaken = () =>
  void early?.db.then(
    (db) => db.close(),
    () => {},
  );
addEventListener('pagehide', closeUntaken, { once: true });

/** What started at load, once: the first frame takes it, a later one starts its own. */
export function takeEarlyStart(): EarlyStart | null {
  const taken = early;
  early = null;
  return taken;
}
