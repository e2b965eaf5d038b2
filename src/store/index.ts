// The stores (README, Records): every IndexedDB transaction of the vault but the `keys` store's
// (the lock's), each write one transaction that moves its namespace's revision, and the bus that
// tells the other vault documents what changed. Stores import no feature.
export { type AuditDraft, type AuditText, WITHHELD, addAudit, auditPage, trimAudit } from './audit.ts';
export { type BusMessage, CHANNEL, type Change, type RefreshAsk, announce } from './bus.ts';
export { type Delta, emptyMeta, revOf } from './meta.ts';
export { type LoadedNamespace, type NamespaceSummary, Namespaces } from './namespaces.ts';
export { PolicyStore } from './policy.ts';
export { type Actor, type ImportWrite, type KeptRecord, type RecordInput, Records, type RotationCheck, seenOf } from './records.ts';
export { type NewRequest, Requests, oldestFirst, pendingOf, stateAt, statusOf } from './requests.ts';
export { type Decided, Reveals, policyMark } from './reveals.ts';
export {
  type DeviceSlot,
  type IdleEntry,
  type KeyCheck,
  type KeyEntry,
  type KeyEpoch,
  type KeySlot,
  type NamespaceMeta,
  type PasskeySlot,
  type PassphraseSlot,
  type StoredPolicy,
  type StoredRecord,
  type StoredRequest,
  type VaultDb,
  openVaultDb,
} from './schema.ts';
export { type HeldKey, decryptValue, encryptValue, reencrypt, valueBytesOf } from './values.ts';
