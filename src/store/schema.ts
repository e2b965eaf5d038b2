// The vault origin's IndexedDB, `slicc-vault`, through idb (README, Records): every stored shape,
// and the one upgrade function, one case per version. Every store is shared by all namespaces and
// keyed or indexed by `namespace`.
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { AuditEntry, EpochMs, PendingKind, RecordKind, RegisteredEndpoints, RequestStateName, Source } from '../contract.ts';
import type { RateLog } from '../exec/index.ts';
import type { AcceptedPolicy } from '../policy/index.ts';

export const DB_NAME = 'slicc-vault';
export const DB_VERSION = 4;

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
  /** A `model` record's current audit entry (README, Model and MCP endpoints): uses within a minute of `at` count in it. */
  modelAudit?: { seq: number; at: EpochMs };
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
  registered?: RegisteredEndpoints;
  /**
   * The bytes of the namespace's values (removed ones count until purged), kept by every write and
   * purge of records in the same transaction; absent, it is counted at the next write (README, Limits).
   */
  valueBytes?: number;
  /**
   * The namespace's records (removed ones count until purged), kept like `valueBytes`: a write of
   * a new name checks the limit without counting the index, whose count reads every entry.
   */
  recordCount?: number;
}

/** A request for the person (README, /dev/sealed): a value, a sign-in, a device seal, a backup or a restore. */
export interface StoredRequest {
  id: string;
  namespace: string;
  kind: PendingKind;
  name?: string;
  provider?: string;
  prompt?: string;
  oauth?: Record<string, unknown>;
  /** The kernel caller; absent on the page's and the agent's requests. */
  uid?: number;
  tag?: string;
  /** The agent port that asked (`grant`, `refresh`), or `forward` for a refresh a forward of an expired value asked for. */
  agent?: string;
  scopes?: string[];
  account?: string;
  createdAt: number;
  expiresAt: number;
  /** `pending` until answered or cancelled; `expired` is computed from `expiresAt`. */
  state: Exclude<RequestStateName, 'expired'>;
  placeholder?: string;
  /** A `refresh`: when the page was last sent its event, by any document (at most once a REFRESH_EVERY_MS). */
  askedAt?: number;
}

/** A namespace's reveals to programs within the last day, for the rates of `[limits]` (store `reveals`; README, Exec). */
export interface StoredReveals extends RateLog {
  namespace: string;
}

/** A namespace's accepted policy (store `policy`). */
export type StoredPolicy = AcceptedPolicy & { namespace: string };

export type StoredAudit = AuditEntry & { namespace: string };

// ── The `keys` store (README, Key store and lock) ─────────────────────────────────────────

interface SlotBase {
  iv: Uint8Array<ArrayBuffer>;
  /** The 32 data-key bytes, AES-GCM encrypted under the slot's wrapping key. */
  wrapped: ArrayBuffer;
  createdAt: number;
}
/** Auto-unlock: wrapped by a non-extractable key kept beside it. Exists only while no lock is set. */
export interface DeviceSlot extends SlotBase {
  slot: 'device';
  wrappingKey: CryptoKey;
}
/** Failed unlock attempts, kept on the slot itself so a reload doesn't forget them. */
export interface Attempts {
  failures?: number;
  failedAt?: number;
}
/** Wrapped by PBKDF2-SHA-256 of the NFC-normalized passphrase. */
export interface PassphraseSlot extends SlotBase, Attempts {
  slot: 'passphrase';
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
}
/** Wrapped by HKDF-SHA-256 of the passkey's WebAuthn PRF output for `prfSalt`. */
export interface PasskeySlot extends SlotBase, Attempts {
  slot: 'passkey';
  credentialId: ArrayBuffer;
  prfSalt: Uint8Array<ArrayBuffer>;
}
export type KeySlot = DeviceSlot | PassphraseSlot | PasskeySlot;

/**
 * The key-check value: a constant AES-GCM encrypted under the data key with its own additional
 * data. A key is the vault's only if it opens this; `id` is new with every data key, so a writer
 * can tell in its transaction that its key is still the vault's.
 */
export interface KeyCheck {
  slot: 'check';
  id: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
  createdAt: number;
}
/** The lock epoch: moves with every lock and every new data key; key messages carry it. */
export interface KeyEpoch {
  slot: 'epoch';
  epoch: number;
}
/** Auto-lock: the idle time chosen in the popup and the person's last use. */
export interface IdleEntry {
  slot: 'idle';
  afterMs: number | null;
  usedAt: number;
}
/** Everything the `keys` store holds, keyed by `slot`. */
export type KeyEntry = KeySlot | KeyCheck | KeyEpoch | IdleEntry;

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
  reveals: { key: string; value: StoredReveals };
}

export type VaultDb = IDBPDatabase<VaultSchema>;
/** A read-write transaction over any of the stores. */
export type WriteTx = IDBPTransaction<VaultSchema, any, 'readwrite'>;

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
      if (oldVersion < 4) {
        db.createObjectStore('reveals', { keyPath: 'namespace' });
      }
    },
    blocking(_current, _blocked, event) {
      (event.target as IDBDatabase).close();
      onClose?.();
    },
  });
}
