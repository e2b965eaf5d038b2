// The vault of one document: the services (key store, records) behind the gateway, per namespace.
// It never hands out a value: views carry placeholders, states and times only. Changes are
// announced to this document's listeners and, over a BroadcastChannel, to every other vault
// document of the origin, which push the same events to their own ports.
import type {
  AuditPage,
  BackupReminder,
  LockState,
  PlaceholdersView,
  PutFields,
  RecordState,
  ScrubState,
  SealFields,
  SecretView,
  VaultConfig,
  VaultList,
  VaultStatus,
} from './contract.ts';
import { emptyMeta, type NamespaceMeta, type StoredRecord, type VaultDb } from './db.ts';
import { VaultError, einval } from './errors.ts';
import { autoUnlock, lockOf, readLock } from './keys.ts';
import { AUDIT_PAGE, type Actor, Records, type RecordInput, type RotationCheck } from './records.ts';
import { checkKind, checkName, checkOptionalString, checkOptionalTime, checkValue } from './validate.ts';

export const VAULT_VERSION = '1.3.0';
export const CHANNEL = 'slicc-vault';
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** What changed in a namespace: its set of values, or its status (lock, requests, reminder). */
export type Change = 'values' | 'status';
export type ChangeListener = (namespace: string | null, changes: Change[]) => void | Promise<void>;

/** Messages between vault documents of the origin. They never carry a value. */
type BusMessage = { type: 'changed'; namespace: string | null; changes: Change[] } | { type: 'lock' };

interface Snapshot {
  lock: LockState;
  records: StoredRecord[];
  meta: NamespaceMeta;
}

/** `due` once the namespace holds a secret and never exported, until dismissed. */
function backupReminderOf({ records, meta }: Snapshot): BackupReminder {
  if (meta.exportedAt !== null) return null;
  if (meta.reminderDismissed) return 'dismissed';
  return records.some((r) => r.kind === 'secret' && r.removedAt === undefined) ? 'due' : null;
}

export interface VaultOptions {
  db: VaultDb;
  config: VaultConfig;
  now?: () => number;
}

export class Vault {
  readonly records: Records;
  readonly config: VaultConfig;
  readonly now: () => number;
  private key: CryptoKey | null = null;
  /** Namespaces whose values this document could scrub: it held the key since they last changed. */
  private heldKey = false;
  private readonly listeners = new Set<ChangeListener>();
  private readonly bus = new BroadcastChannel(CHANNEL);
  private purgeTimer?: ReturnType<typeof setInterval>;

  private constructor(private readonly db: VaultDb, options: VaultOptions) {
    this.config = options.config;
    this.now = options.now ?? Date.now;
    this.records = new Records(db, this.now);
    this.bus.onmessage = (event: MessageEvent<BusMessage>) => void this.fromBus(event.data);
  }

  /** Opens the vault of this document: auto-unlocks when no lock is set, purges, schedules purges. */
  static async open(options: VaultOptions): Promise<Vault> {
    const vault = new Vault(options.db, options);
    vault.setKey(await autoUnlock(options.db));
    await vault.purge();
    vault.purgeTimer = setInterval(() => void vault.purge(), PURGE_EVERY_MS);
    return vault;
  }

  close() {
    clearInterval(this.purgeTimer);
    this.bus.close();
    this.listeners.clear();
  }

  get locked(): boolean {
    return this.key === null;
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ── Views ─────────────────────────────────────────────────────────────────────────────

  async status(namespace: string): Promise<VaultStatus> {
    const snapshot = await this.snapshot(namespace);
    return {
      version: VAULT_VERSION,
      protocol: 1,
      origin: namespace,
      locked: this.locked,
      lock: snapshot.lock,
      scrub: this.scrubOf(snapshot),
      waiting: [],
      exportedAt: snapshot.meta.exportedAt,
      backupReminder: backupReminderOf(snapshot),
      policy: [],
    };
  }

  async placeholders(namespace: string): Promise<PlaceholdersView> {
    const snapshot = await this.snapshot(namespace);
    const placeholders = snapshot.records.filter((r) => r.removedAt === undefined).map((r) => r.placeholder);
    return { placeholders: placeholders.sort(), scrub: this.scrubOf(snapshot) };
  }

  /** The namespace as one read: lock slots, records and meta in one transaction. */
  private async snapshot(namespace: string): Promise<Snapshot> {
    const tx = this.db.transaction(['keys', 'records', 'namespaces']);
    const [slots, records, meta] = await Promise.all([
      tx.objectStore('keys').getAll(),
      tx.objectStore('records').index('byNamespace').getAll(namespace),
      tx.objectStore('namespaces').get(namespace),
    ]);
    return { lock: lockOf(slots), records, meta: meta ?? emptyMeta(namespace) };
  }

  private scrubOf({ records, meta }: Snapshot): ScrubState {
    const needed = records.length > 0;
    return { needed, version: meta.scrubVersion, ready: !needed || !this.locked || this.heldKey };
  }

  async list(namespace: string): Promise<VaultList> {
    const [records, page] = await Promise.all([this.records.all(namespace), this.records.audit(namespace)]);
    return {
      secrets: records.map((r) => this.view(r)),
      refused: [],
      audit: page.audit,
      auditMore: page.more,
      exits: { secrets: [] },
    };
  }

  audit(namespace: string, before?: unknown, limit?: unknown): Promise<AuditPage> {
    if (before !== undefined && (!Number.isSafeInteger(before) || (before as number) < 1)) {
      throw einval('before must be a seq: a positive integer');
    }
    if (limit !== undefined && (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > 1000)) {
      throw einval('limit must be an integer from 1 to 1000');
    }
    return this.records.audit(namespace, before as number | undefined, (limit as number | undefined) ?? AUDIT_PAGE);
  }

  /** A record's state: computed, never stored. */
  stateOf(record: StoredRecord): RecordState {
    return record.removedAt !== undefined ? 'removed' : 'inert';
  }

  view(r: StoredRecord): SecretView {
    return {
      name: r.name,
      kind: r.kind,
      source: r.source,
      placeholder: r.placeholder,
      state: this.stateOf(r),
      ...(r.provider !== undefined && { provider: r.provider }),
      ...(r.account !== undefined && { account: r.account }),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      ...(r.usedAt !== undefined && { usedAt: r.usedAt }),
      ...(r.removedAt !== undefined && { removedAt: r.removedAt }),
      ...(r.expiresAt !== undefined && { expiresAt: r.expiresAt }),
      exec: false,
      rules: [],
    };
  }

  // ── Changes ───────────────────────────────────────────────────────────────────────────

  /** A value entered in Settings (`put`): creates the record or rotates it. */
  async put(namespace: string, fields: Partial<PutFields>) {
    const kind = checkKind(fields.kind);
    const input: RecordInput = {
      name: checkName(fields.name, kind),
      value: checkValue(fields.value),
      kind,
      source: 'settings',
      provider: checkOptionalString('provider', fields.provider),
      account: checkOptionalString('account', fields.account),
      expiresAt: checkOptionalTime('expiresAt', fields.expiresAt),
    };
    if (fields.request !== undefined) {
      throw new VaultError('ENOENT', 'there is no pending request with that id');
    }
    return this.write(namespace, input);
  }

  /** A value from a sign-in or another device (`seal`). */
  async seal(namespace: string, fields: Partial<SealFields>) {
    if (fields.kind === undefined) throw einval('kind is required');
    const kind = checkKind(fields.kind);
    const source = fields.source;
    if (typeof source !== 'string' || !/^(oauth:[^\s:@]+|jerk:[^\s:@]+@[^\s@]+)$/.test(source)) {
      throw einval('source must be oauth:<provider> or jerk:<provider>@<device>');
    }
    const input: RecordInput = {
      name: checkName(fields.name, kind),
      value: checkValue(fields.value),
      kind,
      source: source as SealFields['source'],
      provider: checkOptionalString('provider', fields.provider),
      account: checkOptionalString('account', fields.account),
      expiresAt: checkOptionalTime('expiresAt', fields.expiresAt),
    };
    return this.write(namespace, input);
  }

  /** Writes a checked value; shared by `put`, `seal` and `/dev/sealed`'s `seal`. */
  async write(namespace: string, input: RecordInput, check?: RotationCheck, actor?: Actor) {
    if (!this.key) throw new VaultError('EACCES', 'vault is locked: unlock it to add or change a value');
    const { record } = await this.records.write(namespace, this.key, this.clean(input), check, actor);
    await this.announce(namespace, ['values', 'status']);
    return { placeholder: record.placeholder, state: this.stateOf(record) };
  }

  async remove(namespace: string, name: unknown) {
    if (typeof name !== 'string') throw einval('name must be a string');
    await this.records.remove(namespace, name);
    await this.announce(namespace, ['values', 'status']);
    return { state: 'removed' as const };
  }

  async restore(namespace: string, name: unknown) {
    if (typeof name !== 'string') throw einval('name must be a string');
    const record = await this.records.restore(namespace, name);
    await this.announce(namespace, ['values', 'status']);
    return { state: this.stateOf(record) };
  }

  async dismissBackupReminder(namespace: string) {
    await this.records.dismissReminder(namespace);
    await this.announce(namespace, ['status']);
    return { backupReminder: backupReminderOf(await this.snapshot(namespace)) };
  }

  /** Drops the key in every vault document when a lock is set; without a lock it does nothing. */
  async lock(): Promise<void> {
    if (!(await readLock(this.db))) return;
    this.bus.postMessage({ type: 'lock' } satisfies BusMessage);
    await this.dropKey();
  }

  async purge(): Promise<void> {
    for (const namespace of await this.records.purge()) await this.announce(namespace, ['values', 'status']);
  }

  private clean(input: RecordInput): RecordInput {
    return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as unknown as RecordInput;
  }

  private setKey(key: CryptoKey | null) {
    this.key = key;
    if (key) this.heldKey = true;
  }

  private async dropKey() {
    if (!this.key) return;
    this.key = null;
    await this.notify(null, ['status']);
  }

  private async announce(namespace: string, changes: Change[]) {
    this.bus.postMessage({ type: 'changed', namespace, changes } satisfies BusMessage);
    await this.notify(namespace, changes);
  }

  private async notify(namespace: string | null, changes: Change[]) {
    for (const listener of this.listeners) await listener(namespace, changes);
  }

  private async fromBus(message: BusMessage) {
    if (message.type === 'lock') await this.dropKey();
    else await this.notify(message.namespace, message.changes);
  }
}
