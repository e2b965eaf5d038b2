// The key store and the lock (README, Key store and lock): the data key in key slots like LUKS,
// each document's key ring, the passphrase and passkey lock, auto-lock on idle, and the lock
// button's availability. The `keys` store is the lock's: only this folder opens transactions on it.
export { AutoLock, type Clock, clockOf } from './autolock.ts';
export { AvailabilityBroadcaster, AvailabilityWatcher } from './availability.ts';
export { PopupBeacon, PopupWatch } from './popup-presence.ts';
export { KeyRing } from './keyring.ts';
export { Lock, LockError, type Proof } from './lock.ts';
export { autoUnlock, openDevice, readLock } from './slots.ts';
