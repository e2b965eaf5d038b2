// The key store and the lock (README, Key store and lock): the data key in key slots like LUKS,
// each document's key ring, the passphrase and passkey lock, auto-lock on idle, and the lock
// button's availability. The `keys` store is the lock's: only this folder opens transactions on it.
export { AutoLock, type Clock, clockOf, noteUse } from './autolock.ts';
export {
  AVAILABILITY_CHANNEL,
  AvailabilityBroadcaster,
  type AvailabilityMessage,
  type AvailabilitySource,
  AvailabilityWatcher,
  type NamespaceSource,
  availabilityOf,
} from './availability.ts';
export { POPUP_CHANNEL, PopupBeacon, type PopupMessage, PopupWatch } from './popup-presence.ts';
export { KEY_CHANNEL, type KeyMessage, KeyRing, type KeyRingOptions } from './keyring.ts';
export { Lock, LockError, type LockFailure, type LockOptions, type Proof, checkPassphrase, delayAfter, passkeyKey, passphraseKey, wipe } from './lock.ts';
export {
  type DeviceOpening,
  autoLockOf,
  autoUnlock,
  deviceSlot,
  importDataKey,
  isDataKey,
  lockOf,
  makeCheck,
  nextEpoch,
  openDevice,
  opensCheck,
  randomBytes,
  readLock,
  readRing,
  unwrapKey,
  unwrapRaw,
  wrapKey,
} from './slots.ts';
