// The vault of one document: the services (key store, records) behind the gateway, per namespace.
// It never hands out a value: views carry placeholders, states and times only. Changes are
// announced to this document's listeners and, over a BroadcastChannel, to every other vault
// document of the origin, which push the same events to their own ports.
import type {
  AuditPage,
  ExitPolicyView,
  PlaceholdersView,
  PolicyResult,
  PutFields,
  SealFields,
  SecretView,
  VaultConfig,
  VaultList,
  VaultStatus,
  AuditEntry,
} from './contract.ts';
import { emptyMeta, type VaultDb } from './db.ts';
import { VaultError, einval } from './errors.ts';
import { autoUnlock, lockOf, readLock } from './keys.ts';
import { checkAttestation } from './policy/attest.ts';
import { emptyPolicy, mergePolicy, policyOf } from './policy/accepted.ts';
import { AUDIT_PAGE, type Actor, Records, type RecordInput, type RotationCheck, addAudit } from './records.ts';
import { checkKind, checkName, checkOptionalString, checkOptionalTime, checkValue } from './validate.ts';
import { type Snapshot, backupReminderOf, exitsView, scrubOf, secretView, snapshotOf, stateOf } from './views.ts';

export const VAULT_VERSION = '1.3.0';
export const CHANNEL = 'slicc-vault';
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * What changed in a namespace: its set of values (`placeholders` event), its audit log or accepted
 * policy (`changed`), or its status (lock, requests, reminder: `status`).
 */
export type Change = 'values' | 'audit' | 'status';
export type ChangeListener = (namespace: string | null, changes: Change[]) => void | Promise<void>;

/** Messages between vault documents of the origin. They never carry a value. */
type BusMessage = { type: 'changed'; namespace: string | null; changes: Change[] } | { type: 'lock' };

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
      policy: snapshot.stored?.files ?? [],
    };
  }

  async placeholders(namespace: string): Promise<PlaceholdersView> {
    const snapshot = await this.snapshot(namespace);
    const placeholders = snapshot.records.filter((r) => r.removedAt === undefined).map((r) => r.placeholder);
    return { placeholders: placeholders.sort(), scrub: this.scrubOf(snapshot) };
  }

  async list(namespace: string): Promise<VaultList> {
    const { page, ...changed } = await this.overview(namespace);
    return { secrets: changed.secrets, refused: [], audit: page.audit, auditMore: page.more, exits: changed.exits };
  }

  /** The `changed` event's fields: every record's view, the exits lines, the newest audit page. */
  async changed(namespace: string): Promise<{ secrets: SecretView[]; exits: ExitPolicyView; audit: AuditEntry[] }> {
    const { page, ...changed } = await this.overview(namespace);
    return { ...changed, audit: page.audit };
  }

  private async overview(namespace: string) {
    const [snapshot, page] = await Promise.all([this.snapshot(namespace), this.records.audit(namespace)]);
    const records = [...snapshot.records].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      secrets: records.map((r) => secretView(r, snapshot.policy)),
      exits: exitsView(snapshot.policy),
      page,
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

  /** The namespace as one read: lock slots, records, meta and policy in one transaction. */
  private async snapshot(namespace: string): Promise<Snapshot> {
    const tx = this.db.transaction(['keys', 'records', 'namespaces', 'policy']);
    const [slots, records, meta, stored] = await Promise.all([
      tx.objectStore('keys').getAll(),
      tx.objectStore('records').index('byNamespace').getAll(namespace),
      tx.objectStore('namespaces').get(namespace),
      tx.objectStore('policy').get(namespace),
    ]);
    return snapshotOf({ lock: lockOf(slots), records, meta: meta ?? emptyMeta(namespace), stored });
  }

  private scrubOf(snapshot: Snapshot) {
    return scrubOf(snapshot, this.locked, this.heldKey);
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
    await this.announce(namespace, ['values', 'audit', 'status']);
    return { placeholder: record.placeholder, state: stateOf(record, await this.policy(namespace)) };
  }

  async remove(namespace: string, name: unknown) {
    if (typeof name !== 'string') throw einval('name must be a string');
    await this.records.remove(namespace, name);
    await this.announce(namespace, ['values', 'audit', 'status']);
    return { state: 'removed' as const };
  }

  async restore(namespace: string, name: unknown) {
    if (typeof name !== 'string') throw einval('name must be a string');
    const record = await this.records.restore(namespace, name);
    await this.announce(namespace, ['values', 'audit', 'status']);
    return { state: stateOf(record, await this.policy(namespace)) };
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
    for (const namespace of await this.records.purge()) await this.announce(namespace, ['values', 'audit', 'status']);
  }

  /** The accepted policy of the namespace, parsed. */
  async policy(namespace: string) {
    return policyOf(await this.db.get('policy', namespace));
  }

  /**
   * The kernel's attested policy files (`policy`): each trusted file replaces the accepted one,
   * read, merged and written in one transaction so two documents can't undo each other's update.
   */
  async applyPolicy(namespace: string, files: unknown): Promise<PolicyResult> {
    if (!Array.isArray(files) || files.length < 1 || files.length > 2) {
      throw einval('files must be a list of one or two attestations');
    }
    const paths = files.map((f) => (f && typeof f === 'object' ? (f as { path?: unknown }).path : undefined));
    if (paths.length === 2 && typeof paths[0] === 'string' && paths[0] === paths[1]) {
      throw einval(`files lists ${paths[0]} twice`);
    }
    const verdicts = await Promise.all(files.map(async (file, i) => ({ given: paths[i], verdict: await checkAttestation(file) })));
    const now = this.now();
    const tx = this.db.transaction(['policy', 'audit'], 'readwrite');
    const stored = (await tx.objectStore('policy').get(namespace)) ?? emptyPolicy(namespace);
    const merged = mergePolicy(stored, verdicts);
    await tx.objectStore('policy').put(merged.stored);
    for (const entry of merged.audit) await addAudit(tx, namespace, now, entry);
    await tx.done;
    if (merged.changed || merged.audit.length > 0) await this.announce(namespace, ['audit']);
    const { config } = policyOf(merged.stored);
    const warnings = merged.files.flatMap((f) => f.warnings);
    return {
      accepted: merged.files.every((f) => f.accepted),
      files: merged.files,
      rules: (config?.rules ?? []).map((r) => ({ ...r, methods: [...r.methods], paths: [...r.paths] })),
      warnings,
    };
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
