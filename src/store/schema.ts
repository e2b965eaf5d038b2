// The vault origin's IndexedDB, `slicc-vault`, through idb. One upgrade function, one case per
// version; every store is shared by all namespaces and keyed or indexed by `namespace`.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AuditEntry, EpochMs, LockKinds, RecordKind, Source } from '../contract.ts';
import type { KeyEntry } from '../lock/slots.ts';
import type { StoredPolicy } from '../policy/accepted.ts';
import type { StoredRequest } from './requests.ts';
import type { Registered } from '../inject/registered.ts';

export const DB_NAME = 'slicc-vault';
export const DB_VERSION = 3;

/** A stored record: the value only as AES-GCM ciphertext. */
export interface StoredRecord {
  id: string;
  namespace: string;
  name: string;
  kind: RecordKind;
  source: Source;
  placeholder: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  /** Moves by one with every write of the record: a concurrent write compares it. */
  revision?: number;
  usedAt?: EpochMs;
  removedAt?: EpochMs;
  /** Set once when the ciphertext didn't open under the vault's key (README, Key store and lock). */
  unreadableAt?: EpochMs;
  expiresAt?: EpochMs;
  provider?: string;
  account?: string;
  /** For a `process` value: the uid that sealed it, the only one but root that may rotate it (README, /dev/sealed). */
  uid?: number;
}

/** Per-namespace state that isn't a record. */
export interface NamespaceMeta {
  namespace: string;
  scrubVersion: number;
  exportedAt: EpochMs | null;
  reminderDismissed: boolean;
  /** Moves by one with every write of the namespace (README, Scrub state): notices carry it. */
  rev?: number;
  /** Model base URLs and MCP servers the agent registered (`endpoints`). */
  registered?: Registered;
  /**
   * The bytes of the namespace's values (removed ones count until purged), kept by every write and
   * purge of records in the same transaction; absent, it is counted at the next write (README, Limits).
   */
  valueBytes?: number;
}

export type StoredAudit = AuditEntry & { namespace: string };

export interface VaultSchema extends DBSchema {
  keys: { key: KeyEntry['slot']; value: KeyEntry };
  records: {
    key: string;
    value: StoredRecord;
    indexes: { byName: [string, string]; byPlaceholder: string; byNamespace: string };
  };
  audit: { key: number; value: StoredAudit; indexes: { byNamespace: [string, number] } };
  namespaces: { key: string; value: NamespaceMeta };
  policy: { key: string; value: StoredPolicy };
  requests: { key: string; value: StoredRequest; indexes: { byNamespace: string } };
}

export type VaultDb = IDBPDatabase<VaultSchema>;
export type { LockKinds };

/**
 * Opens the database. Another document upgrading it closes this connection (a newer vault
 * version took over); `onClose` lets the owner say so instead of failing later.
 */
export function openVaultDb(name = DB_NAME, onClose?: () => void): Promise<VaultDb> {
  return openDB<VaultSchema>(name, DB_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('keys', { keyPath: 'slot' });
        const records = db.createObjectStore('records', { keyPath: 'id' });
        records.createIndex('byName', ['namespace', 'name'], { unique: true });
        records.createIndex('byPlaceholder', 'placeholder', { unique: true });
        records.createIndex('byNamespace', 'namespace');
        const audit = db.createObjectStore('audit', { keyPath: 'seq', autoIncrement: true });
        audit.createIndex('byNamespace', ['namespace', 'seq']);
        db.createObjectStore('namespaces', { keyPath: 'namespace' });
      }
      if (oldVersion < 2) {
        db.createObjectStore('policy', { keyPath: 'namespace' });
      }
      if (oldVersion < 3) {
        db.createObjectStore('requests', { keyPath: 'id' }).createIndex('byNamespace', 'namespace');
      }
    },
    blocking(_current, _blocked, event) {
      (event.target as IDBDatabase).close();
      onClose?.();
    },
  });
}

export function emptyMeta(namespace: string): NamespaceMeta {
  return { namespace, scrubVersion: 0, exportedAt: null, reminderDismissed: false };
}
