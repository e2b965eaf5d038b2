// Backups and restores (README, Backup and restore): the backup's JSON, the age file around it, the
// `.env` reader, and the restore plan the preview shows. Pure apart from age's scrypt: nothing here
// touches IndexedDB, and no message, reason or preview item ever carries a value.
import { Decrypter, Encrypter, armor } from 'age-encryption';
import type { BackupFile, BackupRecord, ImportSource, RecordKind } from '../contract.ts';
import type { StoredRecord } from '../store/schema.ts';
import { RECORD_KINDS, checkName, checkOptionalString, checkValue, newPlaceholder } from '../validate.ts';

export const BACKUP_FORMAT = 'slicc-vault-backup';
export const BACKUP_VERSION = 1;
/** The backup passphrase's least length, in characters. */
export const MIN_BACKUP_PASSPHRASE = 12;
/** age's default scrypt work factor (log2 N), as `age -p` uses. */
export const SCRYPT_WORK_FACTOR = 18;
/** The largest file a restore reads: a namespace's 16 MiB of values, JSON-escaped and armored. */
export const MAX_RESTORE_FILE_BYTES = 64 * 1024 * 1024;
/** The most records one namespace holds, so the most a file may bring. */
export const MAX_RESTORE_RECORDS = 10_000;
const ARMOR_HEADER = '-----BEGIN AGE ENCRYPTED FILE-----';
const AGE_MAGIC = 'age-encryption.org/v1\n';
const EXACT_PLACEHOLDER = /^fnox_proxy_[0-9a-f]{24}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A restore or backup that can't go on; `message` is said to the person as it is. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

// ── Backing up ──────────────────────────────────────────────────────────────────────────

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

export function checkBackupPassphrase(passphrase: string, again: string): void {
  if ([...passphrase].length < MIN_BACKUP_PASSPHRASE) {
    throw new BackupError(`A backup passphrase needs at least ${MIN_BACKUP_PASSPHRASE} characters. Nothing was saved.`);
  }
  if (passphrase !== again) throw new BackupError("The two passphrases aren't the same. Nothing was saved.");
}

/** The JSON encrypted with age to the passphrase (scrypt), ASCII-armored. */
export async function encryptBackup(json: string, passphrase: string, workFactor = SCRYPT_WORK_FACTOR): Promise<string> {
  const encrypter = new Encrypter();
  encrypter.setPassphrase(passphrase.normalize('NFC'));
  encrypter.setScryptWorkFactor(workFactor);
  return armor.encode(await encrypter.encrypt(json));
}

// ── Reading a file ──────────────────────────────────────────────────────────────────────

export type FileKind = 'age' | 'dotenv';

/** What a chosen file is: an age file (armored or binary), or text read as a `.env` file. */
export function checkFileSize(bytes: number): void {
  if (bytes > MAX_RESTORE_FILE_BYTES) {
    throw new BackupError(`That file is larger than ${MAX_RESTORE_FILE_BYTES / 1024 / 1024} MiB, more than any backup. Nothing was restored.`);
  }
}

export function fileKind(bytes: Uint8Array): FileKind {
  checkFileSize(bytes.length);
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 64))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith(ARMOR_HEADER) || head.startsWith(AGE_MAGIC)) return 'age';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BackupError('That file is neither an age backup nor a .env file. Nothing was restored.');
  }
  if (!/^[ \t]*(export[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t]*=/m.test(text)) {
    throw new BackupError('That file is neither an age backup nor a .env file. Nothing was restored.');
  }
  return 'dotenv';
}

/**
 * Decrypts an age file with the passphrase. Every failure is a BackupError in plain words: not
 * age, cut short, altered, encrypted to a key rather than a passphrase, or the wrong passphrase.
 */
export async function decryptAge(bytes: Uint8Array, passphrase: string): Promise<string> {
  let binary: Uint8Array;
  const text = new TextDecoder()
    .decode(bytes.subarray(0, 64))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith(ARMOR_HEADER)) {
    try {
      binary = armor.decode(
        new TextDecoder('utf-8', { fatal: true })
          .decode(bytes)
          .replace(/^\uFEFF/, '')
          .trim() + '\n',
      );
    } catch {
      throw new BackupError('That backup is cut short or damaged: its armored text is incomplete. Nothing was restored.');
    }
  } else if (text.startsWith(AGE_MAGIC)) {
    binary = bytes;
  } else {
    throw new BackupError("That file isn't an age file. Nothing was restored.");
  }
  const header = headerLines(binary);
  if (header === null) throw new BackupError('That backup is cut short or damaged: its header is incomplete. Nothing was restored.');
  if (!header.some((line) => line.startsWith('-> scrypt '))) {
    throw new BackupError('That age file is encrypted to a key, not a passphrase; only passphrase backups restore here. Nothing was restored.');
  }
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase.normalize('NFC'));
  let plaintext: Uint8Array;
  try {
    plaintext = await decrypter.decrypt(binary);
  } catch (error) {
    const message = String((error as Error)?.message ?? '');
    if (/no identity matched|invalid header HMAC/.test(message)) {
      throw new BackupError('Wrong passphrase for that backup (or its header was altered). Nothing was restored.');
    }
    if (/work factor/.test(message)) {
      throw new BackupError("That backup's passphrase work factor is higher than age allows here. Nothing was restored.");
    }
    throw new BackupError('That backup was altered or cut short after it was made: it fails its integrity check. Nothing was restored.');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch {
    throw new BackupError("That age file decrypted, but it isn't a slicc-vault backup (it isn't UTF-8 text). Nothing was restored.");
  }
}

/** The header's lines up to `---`, or null when the file ends before it. */
function headerLines(binary: Uint8Array): string[] | null {
  const limit = Math.min(binary.length, 64 * 1024);
  const text = new TextDecoder('latin1').decode(binary.subarray(0, limit));
  const end = text.indexOf('\n---');
  if (end < 0) return null;
  return text.slice(0, end).split('\n');
}

// ── Checking a backup's plaintext ───────────────────────────────────────────────────────

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
    throw new BackupError(`That backup is format version ${JSON.stringify(data.v)}; this vault reads version ${BACKUP_VERSION}. Nothing was restored.`);
  }
  if (typeof data.namespace !== 'string' || !/^https?:\/\/[^\s/]+$/.test(data.namespace) || !Array.isArray(data.records)) {
    throw new BackupError('That backup is incomplete: it has no namespace or no list of records. Nothing was restored.');
  }
  if (data.records.length > MAX_RESTORE_RECORDS) {
    throw new BackupError(`That backup holds ${data.records.length} records; a namespace holds at most ${MAX_RESTORE_RECORDS}. Nothing was restored.`);
  }
  const seen = new Set<string>();
  const records = data.records.map((raw, i): Incoming => {
    const name = isObject(raw) && typeof raw.name === 'string' && raw.name.length <= 128 ? raw.name : `record ${i + 1}`;
    try {
      if (!isObject(raw)) throw new Error('it is not an object');
      const extra = Object.keys(raw).find((k) => !RECORD_FIELDS.has(k));
      if (extra) throw new Error(`it has an unknown field ${extra.slice(0, 40)}`);
      if (typeof raw.kind !== 'string' || !(RECORD_KINDS as string[]).includes(raw.kind)) throw new Error(`kind must be one of ${RECORD_KINDS.join(', ')}`);
      const kind = raw.kind as RecordKind;
      ruleOf(() => checkName(raw.name, kind));
      if (seen.has(raw.name as string)) throw new Error('the file holds this name twice');
      seen.add(raw.name as string);
      ruleOf(() => checkValue(raw.value));
      if (typeof raw.placeholder !== 'string' || !EXACT_PLACEHOLDER.test(raw.placeholder))
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

// ── .env files ──────────────────────────────────────────────────────────────────────────

/**
 * Reads a `.env` file: `NAME=value` lines, with an optional `export ` prefix, single-quoted
 * (literal), double-quoted (`\"`, `\\` escapes) or bare values (a ` #` starts a comment), `#`
 * comment lines and blank lines. Each pair is a `secret`; one pass over the text, no backtracking.
 */
export function readDotenv(text: string): ReadFile {
  const records: Incoming[] = [];
  const invalidLines: string[] = [];
  const lineOf = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if (lines.length > MAX_RESTORE_RECORDS * 4) {
    throw new BackupError(`That .env file has more than ${MAX_RESTORE_RECORDS * 4} lines. Nothing was restored.`);
  }
  lines.forEach((raw, i) => {
    const n = i + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const pair = parseDotenvLine(trimmed);
    if ('problem' in pair) {
      invalidLines.push(`line ${n}: ${pair.problem}`);
      return;
    }
    const { name, value } = pair;
    if (lineOf.has(name)) {
      invalidLines.push(`line ${n}: ${name} was already given on line ${lineOf.get(name)}`);
      return;
    }
    lineOf.set(name, n);
    try {
      checkValue(value);
      records.push({ name, kind: 'secret', value });
    } catch (error) {
      records.push({ name, kind: 'secret', problem: `line ${n}: ${(error as Error).message}` });
    }
  });
  if (records.length === 0 && invalidLines.length === 0) {
    throw new BackupError('That .env file holds no NAME=value line. Nothing was restored.');
  }
  return { source: 'import:dotenv', records, invalidLines };
}

function parseDotenvLine(line: string): { name: string; value: string } | { problem: string } {
  let rest = line;
  if (/^export[ \t]/.test(rest)) rest = rest.slice(7).trimStart();
  const eq = rest.indexOf('=');
  if (eq < 0) return { problem: 'not NAME=value' };
  const name = rest.slice(0, eq).trimEnd();
  if (!ENV_NAME.test(name) || name.length > 128) {
    return { problem: 'the name must be an environment variable name of at most 128 characters: a letter or _, then letters, digits or _' };
  }
  const after = rest.slice(eq + 1).trimStart();
  const quote = after[0];
  if (quote === "'" || quote === '"') {
    let value = '';
    let i = 1;
    for (; i < after.length; i++) {
      const c = after[i]!;
      if (c === quote) break;
      if (quote === '"' && c === '\\' && i + 1 < after.length) {
        const next = after[++i]!;
        value += next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : next;
      } else value += c;
    }
    if (i >= after.length) return { problem: `${name}: the quoted value has no closing quote (values are one line)` };
    const tail = after.slice(i + 1).trim();
    if (tail !== '' && !tail.startsWith('#')) return { problem: `${name}: text follows the closing quote` };
    return { name, value };
  }
  const hash = after.search(/[ \t]#/);
  return { name, value: (hash < 0 ? after : after.slice(0, hash)).trimEnd() };
}

// ── The restore plan ────────────────────────────────────────────────────────────────────

export type PreviewStatus = 'new' | 'replaces' | 'unchanged' | 'invalid';

/** One line of the preview: a name, what restoring does to it, never a value. */
export interface PreviewItem {
  name: string;
  kind?: RecordKind;
  status: PreviewStatus;
  /** `invalid`: the rule it breaks; `unchanged`: why it stays as it is, when it isn't plain. */
  reason?: string;
  /** Removed in the backup: restored as removed (a new name), kept as it is here otherwise. */
  removed?: boolean;
  /** The placeholder it has after the restore. */
  placeholder?: string;
  /** The backup's placeholder, when the restore gives another: `[secrets]` entries naming it must change. */
  placeholderWas?: string;
}

/** One record to write, with its value: it stays in the popup's memory until confirmed. */
export interface RestoreWrite {
  name: string;
  kind: RecordKind;
  value: string;
  placeholder: string;
  /** The id of the record it replaces; absent for a new one. */
  replaces?: string;
  createdAt?: number;
  removedAt?: number;
  expiresAt?: number;
  provider?: string;
  account?: string;
}

export interface RestorePlan {
  source: ImportSource;
  /** The backup's namespace when it isn't this one. */
  otherNamespace?: string;
  items: PreviewItem[];
  invalidLines: string[];
  writes: RestoreWrite[];
  /** For the audit: records (and invalid lines) in the file, and how many are skipped. */
  count: number;
  added: number;
  replaced: number;
  skipped: number;
}

/** What the plan needs to know of the vault as it is: this namespace's records and values. */
export interface Current {
  namespace: string;
  records: StoredRecord[];
  /** Values of this namespace's records by name, for `unchanged`. */
  values: Map<string, string>;
  /** Placeholders anywhere in the vault (every namespace). */
  taken: Set<string>;
}

/**
 * The preview and the writes: a name that exists here keeps its placeholder; a new one keeps the
 * file's placeholder when it is free in the whole vault, else gets a fresh one (and says so).
 */
export function planRestore(file: ReadFile, current: Current, fresh: () => string = newPlaceholder): RestorePlan {
  const byName = new Map(current.records.map((r) => [r.name, r]));
  const claimed = new Set<string>();
  const items: PreviewItem[] = [];
  const writes: RestoreWrite[] = [];
  for (const incoming of file.records) {
    const { name } = incoming;
    if (incoming.problem !== undefined || incoming.value === undefined || incoming.kind === undefined) {
      items.push({ name, ...(incoming.kind && { kind: incoming.kind }), status: 'invalid', reason: incoming.problem ?? 'it has no value' });
      continue;
    }
    const kind = incoming.kind;
    const here = byName.get(name);
    const removed = incoming.removedAt !== undefined;
    if (here) {
      if (here.kind !== kind) {
        items.push({ name, kind, status: 'invalid', reason: `${name} is a ${here.kind} record here, not a ${kind}` });
        continue;
      }
      if (removed) {
        items.push({ name, kind, status: 'unchanged', removed, placeholder: here.placeholder, reason: 'removed in the backup; kept as it is here' });
        continue;
      }
      const same =
        current.values.get(name) === incoming.value &&
        here.removedAt === undefined &&
        here.provider === incoming.provider &&
        here.account === incoming.account &&
        here.expiresAt === incoming.expiresAt;
      if (same) {
        items.push({ name, kind, status: 'unchanged', placeholder: here.placeholder });
        continue;
      }
      items.push({
        name,
        kind,
        status: 'replaces',
        placeholder: here.placeholder,
        ...(incoming.placeholder && incoming.placeholder !== here.placeholder && { placeholderWas: incoming.placeholder }),
      });
      writes.push(writeOf(incoming, kind, here.placeholder, here.id));
      continue;
    }
    let placeholder = incoming.placeholder;
    if (placeholder === undefined || current.taken.has(placeholder) || claimed.has(placeholder)) {
      do placeholder = fresh();
      while (current.taken.has(placeholder) || claimed.has(placeholder));
    }
    claimed.add(placeholder);
    items.push({
      name,
      kind,
      status: 'new',
      placeholder,
      ...(removed && { removed }),
      ...(incoming.placeholder && incoming.placeholder !== placeholder && { placeholderWas: incoming.placeholder }),
    });
    writes.push(writeOf(incoming, kind, placeholder));
  }
  const added = items.filter((i) => i.status === 'new').length;
  const replaced = items.filter((i) => i.status === 'replaces').length;
  const count = file.records.length + file.invalidLines.length;
  return {
    source: file.source,
    ...(file.namespace !== undefined && file.namespace !== current.namespace && { otherNamespace: file.namespace }),
    items,
    invalidLines: file.invalidLines,
    writes,
    count,
    added,
    replaced,
    skipped: count - added - replaced,
  };
}

function writeOf(incoming: Incoming, kind: RecordKind, placeholder: string, replaces?: string): RestoreWrite {
  return {
    name: incoming.name,
    kind,
    value: incoming.value!,
    placeholder,
    ...(replaces !== undefined && { replaces }),
    ...(replaces === undefined && incoming.createdAt !== undefined && { createdAt: incoming.createdAt }),
    ...(replaces === undefined && incoming.removedAt !== undefined && { removedAt: incoming.removedAt }),
    ...(incoming.expiresAt !== undefined && { expiresAt: incoming.expiresAt }),
    ...(incoming.provider !== undefined && { provider: incoming.provider }),
    ...(incoming.account !== undefined && { account: incoming.account }),
  };
}
