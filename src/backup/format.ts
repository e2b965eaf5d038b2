// A backup's plaintext (README, Backup and restore): the JSON of every record of one namespace,
// made for a backup and read, record by record under the record rules, from a decrypted file. No
// message or reason ever quotes a value.
import type { BackupFile, BackupRecord, ImportSource, RecordKind } from '../contract.ts';
import { MAX_ORIGIN, MAX_RECORDS } from '../limits.ts';
import type { StoredRecord } from '../store/index.ts';
import { PLACEHOLDER_EXACT, RECORD_KINDS, RECORD_NAME, checkName, checkOptionalString, checkValue } from '../validate.ts';

export const BACKUP_FORMAT = 'slicc-vault-backup';
export const BACKUP_VERSION = 1;

/** A restore or backup that can't go on; `message` is said to the person as it is. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** `slicc-vault-<namespace host>-<YYYY-MM-DD>.age`, the local date; a port joins with `-`. */
export function backupFileName(namespace: string, at: Date): string {
  const host = new URL(namespace).host.replace(':', '-');
  const day = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  return `slicc-vault-${host}-${day}.age`;
}

/** The backup's plaintext: every record of the namespace, removed ones included, sorted by name. */
export function backupJson(namespace: string, exportedAt: number, records: (StoredRecord & { value: string })[]): string {
  const file: BackupFile = {
    format: BACKUP_FORMAT,
    v: BACKUP_VERSION,
    namespace,
    exportedAt,
    records: records.map((r) => ({
      name: r.name,
      kind: r.kind,
      source: r.source,
      placeholder: r.placeholder,
      value: r.value,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      ...(r.removedAt !== undefined && { removedAt: r.removedAt }),
      ...(r.expiresAt !== undefined && { expiresAt: r.expiresAt }),
      ...(r.provider !== undefined && { provider: r.provider }),
      ...(r.account !== undefined && { account: r.account }),
    })),
  };
  return JSON.stringify(file);
}

/** A record read from a file, checked: its value is there only when `problem` is absent. */
export interface Incoming {
  name: string;
  kind?: RecordKind;
  /** Why it can't be restored (a record rule it breaks), never quoting the value. */
  problem?: string;
  value?: string;
  placeholder?: string;
  createdAt?: number;
  updatedAt?: number;
  removedAt?: number;
  expiresAt?: number;
  provider?: string;
  account?: string;
}

export interface ReadFile {
  source: ImportSource;
  /** The backup's namespace (backups only). */
  namespace?: string;
  records: Incoming[];
  /** `.env` lines that aren't `NAME=value`, as `line N: reason`. */
  invalidLines: string[];
}

/**
 * A field of a file as a refusal may show it, never quoting the file: a short number or a short
 * plain word as it is, anything else only as what it is ("a text of 262,144 characters").
 */
export function excerpt(x: unknown): string {
  if (typeof x === 'number') return String(x).length <= EXCERPT ? String(x) : 'a long number';
  if (typeof x === 'string') return x.length <= EXCERPT && /^[A-Za-z0-9._-]+$/.test(x) ? x : `a text of ${x.length.toLocaleString('en-US')} characters`;
  if (x === null || typeof x === 'boolean') return String(x);
  if (x === undefined) return 'missing';
  return Array.isArray(x) ? 'a list' : `a ${typeof x}`;
}
const EXCERPT = 12;

const isObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);
const time = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const RECORD_FIELDS = new Set(['name', 'kind', 'source', 'placeholder', 'value', 'createdAt', 'updatedAt', 'removedAt', 'expiresAt', 'provider', 'account']);

/** Reads a decrypted backup: the format, the version, then each record by the record rules. */
export function readBackup(plaintext: string): ReadFile {
  let data: unknown;
  try {
    data = JSON.parse(plaintext);
  } catch {
    throw new BackupError("That age file decrypted, but it isn't a slicc-vault backup (it isn't JSON). Nothing was restored.");
  }
  if (!isObject(data) || data.format !== BACKUP_FORMAT) {
    throw new BackupError("That age file decrypted, but it isn't a slicc-vault backup. Nothing was restored.");
  }
  if (data.v !== BACKUP_VERSION) {
    throw new BackupError(`That backup is format version ${excerpt(data.v)}; this vault reads version ${BACKUP_VERSION}. Nothing was restored.`);
  }
  if (
    typeof data.namespace !== 'string' ||
    data.namespace.length > MAX_ORIGIN ||
    !/^https?:\/\/[^\s/]+$/.test(data.namespace) ||
    !Array.isArray(data.records)
  ) {
    throw new BackupError('That backup is incomplete: it has no namespace or no list of records. Nothing was restored.');
  }
  if (data.records.length > MAX_RECORDS) {
    throw new BackupError(`That backup holds ${data.records.length} records; a namespace holds at most ${MAX_RECORDS}. Nothing was restored.`);
  }
  const seen = new Set<string>();
  const records = data.records.map((raw, i): Incoming => {
    // A name is shown only when it reads as one (the preview names records); otherwise by its place.
    const name = isObject(raw) && typeof raw.name === 'string' && RECORD_NAME.test(raw.name) ? raw.name : `record ${i + 1}`;
    try {
      if (!isObject(raw)) throw new Error('it is not an object');
      const extra = Object.keys(raw).find((k) => !RECORD_FIELDS.has(k));
      if (extra) throw new Error(`it has an unknown field ${excerpt(extra)}`);
      if (typeof raw.kind !== 'string' || !(RECORD_KINDS as string[]).includes(raw.kind)) throw new Error(`kind must be one of ${RECORD_KINDS.join(', ')}`);
      const kind = raw.kind as RecordKind;
      ruleOf(() => checkName(raw.name, kind));
      if (seen.has(raw.name as string)) throw new Error('the file holds this name twice');
      seen.add(raw.name as string);
      ruleOf(() => checkValue(raw.value));
      if (typeof raw.placeholder !== 'string' || !PLACEHOLDER_EXACT.test(raw.placeholder))
        throw new Error('placeholder must be fnox_proxy_ and 24 lower-case hex characters');
      if (typeof raw.source !== 'string' || raw.source.length < 1 || raw.source.length > 256) throw new Error('source must be a string of 1 to 256 characters');
      if (!time(raw.createdAt) || !time(raw.updatedAt)) throw new Error('createdAt and updatedAt must be times in epoch milliseconds');
      for (const field of ['removedAt', 'expiresAt'] as const) {
        if (raw[field] !== undefined && !time(raw[field])) throw new Error(`${field} must be a time in epoch milliseconds`);
      }
      const provider = ruleOf(() => checkOptionalString('provider', raw.provider));
      const account = ruleOf(() => checkOptionalString('account', raw.account));
      const record = raw as unknown as BackupRecord;
      return {
        name: record.name,
        kind,
        value: record.value,
        placeholder: record.placeholder,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        ...(record.removedAt !== undefined && { removedAt: record.removedAt }),
        ...(record.expiresAt !== undefined && { expiresAt: record.expiresAt }),
        ...(provider !== undefined && { provider }),
        ...(account !== undefined && { account }),
      };
    } catch (error) {
      return {
        name,
        ...(isObject(raw) && typeof raw.kind === 'string' && (RECORD_KINDS as string[]).includes(raw.kind) && { kind: raw.kind as RecordKind }),
        problem: (error as Error).message,
      };
    }
  });
  return { source: 'import:slicc-vault', namespace: data.namespace, records, invalidLines: [] };
}

/** A record rule's EINVAL as a plain reason. */
function ruleOf<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw new Error((error as Error).message);
  }
}
