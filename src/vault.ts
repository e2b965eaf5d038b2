// The vault of one document: the services (key store, records) behind the gateway, per namespace.
// It never hands out a value: views carry placeholders, states and times only. Changes are
// announced to this document's listeners and, over a BroadcastChannel, to every other vault
// document of the origin, which push the same events to their own ports.
import type {
  AuditPage,
  ExitPolicyView,
  McpServerEntry,
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
import { type BusMessage, CHANNEL, type Change } from './bus.ts';
import { emptyMeta, type StoredRecord, type VaultDb } from './db.ts';
import { VaultError, einval } from './errors.ts';
import { lockOf } from './keys.ts';
import { KeyRing } from './keyring.ts';
import { AutoLock, type Clock, clockOf } from './autolock.ts';
import { Scrubbers } from './scrubbers.ts';
import {
  type Registered,
  checkRegistration,
  checkUnregister,
  count,
  emptyRegistered,
  mergeRegistered,
  refusedEndpoints,
  removeRegistered,
  scrubbedRegistered,
} from './registered.ts';
import { checkAttestation } from './policy/attest.ts';

/** What `list.registered` shows before the first unlock: nothing, since nothing can be scrubbed. */
const hidden = emptyRegistered;
import { type Policy, emptyPolicy, mergePolicy, policyOf } from './policy/accepted.ts';
import type { Endpoint } from './endpoints.ts';
import { type TestRequest, testVerdict } from './injector.ts';
import builtinEndpoints from './endpoints.json' with { type: 'json' };
import pkg from '../package.json' with { type: 'json' };
import { type NewRequest, Requests, pendingOf, stateAt } from './requests.ts';
import { AUDIT_PAGE, type Actor, type AuditDraft, PURGE_AFTER_MS, Records, type RecordInput, type RotationCheck, addAudit } from './records.ts';
import { checkKind, checkName, checkOptionalString, checkOptionalTime, checkValue } from './validate.ts';
import { type Snapshot, backupReminderOf, exitsView, scrubOf, secretView, snapshotOf, stateOf, withoutEndpointRules } from './views.ts';

/** The vault's version: package.json's, the one definition of it. */
export const VAULT_VERSION: string = pkg.version;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export type { Change };
export type ChangeListener = (namespace: string | null, changes: Change[]) => void | Promise<void>;

export interface VaultOptions {
  db: VaultDb;
  config: VaultConfig;
  now?: () => number;
  /** Auto-lock's clock and timers (default: real timers over `now`); tests inject one. */
  clock?: Clock;
}

export class Vault {
  readonly records: Records;
  readonly requests: Requests;
  readonly config: VaultConfig;
  readonly now: () => number;
  readonly keys: KeyRing;
  readonly autoLock: AutoLock;
  readonly scrubbers: Scrubbers;
  /** The namespaces this document serves, whose scrubbers it keeps compiled. */
  private readonly served = new Set<string>();
  private readonly listeners = new Set<ChangeListener>();
  private readonly bus = new BroadcastChannel(CHANNEL);
  private purgeTimer?: ReturnType<typeof setInterval>;
  private expiryTimer?: ReturnType<typeof setTimeout>;

  private constructor(
    private readonly db: VaultDb,
    keys: KeyRing,
    options: VaultOptions,
  ) {
    this.keys = keys;
    this.config = options.config;
    this.now = options.now ?? Date.now;
    this.autoLock = new AutoLock(db, keys, options.clock ?? clockOf(this.now));
    this.records = new Records(db, this.now);
    this.scrubbers = new Scrubbers(
      this.records,
      () => this.keys.current,
      (namespace) => void this.announce(namespace, ['audit']),
    );
    this.requests = new Requests(db, this.config.requestLifetimeMs, this.now);
    this.bus.onmessage = (event: MessageEvent<BusMessage>) => void this.fromBus(event.data);
  }

  /** Opens the vault of this document: auto-unlocks when no lock is set, purges, schedules purges. */
  static async open(options: VaultOptions): Promise<Vault> {
    const keys = await KeyRing.open(options.db);
    const vault = new Vault(options.db, keys, options);
    keys.onChange(async () => {
      for (const namespace of vault.served) void vault.scrubbers.refresh(namespace);
      await vault.notify(null, ['status']);
    });
    await vault.purge();
    vault.purgeTimer = setInterval(() => void vault.purge(), PURGE_EVERY_MS);
    await vault.watchExpiry();
    return vault;
  }

  close() {
    clearInterval(this.purgeTimer);
    clearTimeout(this.expiryTimer);
    this.bus.close();
    this.autoLock.close();
    this.keys.close();
    this.listeners.clear();
  }

  get locked(): boolean {
    return this.keys.key === null;
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
      keyLost: this.keys.keyLost,
      scrub: this.scrubOf(snapshot),
      waiting: snapshot.requests.filter((r) => stateAt(r, this.now()) === 'pending').map(pendingOf),
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
    const { page, refused, secrets, exits, registered } = await this.overview(namespace);
    return { secrets, refused, audit: page.audit, auditMore: page.more, exits, registered };
  }

  /** The `changed` event's fields: every record's view, the exits lines, the newest audit page. */
  async changed(namespace: string): Promise<{ secrets: SecretView[]; exits: ExitPolicyView; audit: AuditEntry[] }> {
    const { page, secrets, exits } = await this.overview(namespace);
    return { secrets, exits, audit: page.audit };
  }

  private async overview(namespace: string) {
    const [snapshot, page] = await Promise.all([this.snapshot(namespace), this.records.audit(namespace)]);
    const records = [...snapshot.records].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      secrets: records.map((r) => secretView(r, snapshot.policy)),
      exits: exitsView(snapshot.policy),
      refused: snapshot.refused,
      // Agent-chosen strings, scrubbed; before the first unlock there is no scrubber, and none are shown.
      registered: ((scrub) => (scrub ? scrubbedRegistered(snapshot.meta.registered ?? emptyRegistered(), scrub) : hidden()))(this.registeredScrub(namespace)),
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
    const tx = this.db.transaction(['keys', 'records', 'namespaces', 'policy', 'requests']);
    const [slots, records, meta, stored, requests] = await Promise.all([
      tx.objectStore('keys').getAll(),
      tx.objectStore('records').index('byNamespace').getAll(namespace),
      tx.objectStore('namespaces').get(namespace),
      tx.objectStore('policy').get(namespace),
      tx.objectStore('requests').index('byNamespace').getAll(namespace),
    ]);
    requests.sort((a, b) => a.createdAt - b.createdAt);
    const known = meta ?? emptyMeta(namespace);
    return snapshotOf({ lock: lockOf(slots), records, meta: known, stored, requests }, refusedEndpoints(builtinEndpoints, known.registered));
  }

  private scrubOf(snapshot: Snapshot) {
    return scrubOf(snapshot, this.locked, this.scrubbers.get(snapshot.meta.namespace) !== undefined);
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
    if (fields.request === undefined) return this.write(namespace, input);
    const request = await this.requests.get(namespace, fields.request);
    if (request.kind !== 'value' || stateAt(request, this.now()) !== 'pending') {
      throw new VaultError('ENOENT', 'there is no pending value request with that id');
    }
    if (request.name !== input.name) throw einval(`that request asks for ${request.name}, not ${input.name}`);
    const reply = await this.write(namespace, input, undefined, { uid: request.uid, tag: request.tag });
    await this.requests.end(request.id, 'done', reply.placeholder);
    await this.announce(namespace, ['status']);
    return reply;
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
    const reply = await this.write(namespace, input);
    // It answers the oldest pending sign-in or device seal of that provider, if any.
    const [, provider] = /^(?:oauth|jerk):([^@]+)/.exec(input.source)!;
    const wanted = input.source.startsWith('oauth:') ? 'oauth' : 'jerk-seal';
    const answered = (await this.requests.pending(namespace)).find((r) => r.kind === wanted && r.provider === provider);
    if (answered) {
      await this.requests.end(answered.id, 'done', reply.placeholder);
      await this.announce(namespace, ['status']);
    }
    return reply;
  }

  /** Writes a checked value; shared by `put`, `seal` and `/dev/sealed`'s `seal`. */
  async write(namespace: string, input: RecordInput, check?: RotationCheck, actor?: Actor) {
    const held = this.keys.current;
    if (!held && this.keys.keyLost) {
      throw new VaultError('EACCES', 'vault is locked: its key is gone (records exist but no key slot is left to open them); nothing is written');
    }
    if (!held) throw new VaultError('EACCES', 'vault is locked: unlock it to add or change a value');
    let record: StoredRecord;
    try {
      ({ record } = await this.records.write(namespace, held, input, check, actor));
      await this.autoLock.used();
    } catch (error) {
      // The vault's key changed under this document (README, Key store and lock): it drops its own.
      if (error instanceof VaultError && error.code === 'EACCES') await this.keys.recheck();
      throw error;
    }
    await this.announce(namespace, ['values', 'audit', 'status']);
    return { placeholder: record.placeholder, state: stateOf(record, (await this.inEffect(namespace)).policy) };
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
    return { state: stateOf(record, (await this.inEffect(namespace)).policy) };
  }

  /** Ends a pending request (the page's `cancel`, or /dev/sealed's for its own requests). */
  async cancel(namespace: string, id: unknown) {
    if (typeof id !== 'string' || !id) throw einval('request must be a request id');
    const request = await this.requests.get(namespace, id);
    const state = await this.requests.end(request.id, 'cancelled');
    await this.announce(namespace, ['status']);
    return { state };
  }

  /** Makes a /dev/sealed request and has `waiting` follow it, until it expires. */
  async request(namespace: string, fields: NewRequest) {
    const request = await this.requests.make(namespace, fields);
    await this.announce(namespace, ['status']);
    await this.watchExpiry();
    return request;
  }

  /** Announces `status` when the next pending request expires, so `waiting` follows. */
  private async watchExpiry() {
    clearTimeout(this.expiryTimer);
    const next = await this.requests.nextExpiry();
    if (next === null) return;
    this.expiryTimer = setTimeout(
      async () => {
        await this.notify(null, ['status']);
        await this.watchExpiry();
      },
      Math.max(0, next - this.now()) + 10,
    );
  }

  /**
   * The page's `export` (`import`): a pending `backup` (`restore`) request the person finishes or
   * cancels in the popup (README, Backup and restore). Asking again answers the same request.
   */
  async askBackup(namespace: string, kind: 'backup' | 'restore') {
    const request = await this.request(namespace, { kind });
    return { request: request.id };
  }

  async dismissBackupReminder(namespace: string) {
    await this.records.dismissReminder(namespace);
    await this.announce(namespace, ['status']);
    return { backupReminder: backupReminderOf(await this.snapshot(namespace)) };
  }

  /** Drops the key in every vault document when a lock is set; without a lock it does nothing. */
  async lock(): Promise<void> {
    await this.keys.lock();
  }

  /** Deletes records removed 30 days ago, and requests that expired as long ago. */
  async purge(): Promise<void> {
    await this.requests.purge(PURGE_AFTER_MS);
    for (const namespace of await this.records.purge()) await this.announce(namespace, ['values', 'audit', 'status']);
  }

  /**
   * In one read: the accepted policy in effect (without the rules that reach only model or MCP
   * endpoints), the refused endpoints (built in and registered) and the registered MCP servers.
   */
  async inEffect(namespace: string): Promise<{ policy: Policy; endpoints: Endpoint[]; mcp: McpServerEntry[] }> {
    const tx = this.db.transaction(['policy', 'namespaces']);
    const [stored, meta] = await Promise.all([tx.objectStore('policy').get(namespace), tx.objectStore('namespaces').get(namespace)]);
    const endpoints = refusedEndpoints(builtinEndpoints, meta?.registered);
    return { policy: withoutEndpointRules(policyOf(stored), endpoints).policy, endpoints, mcp: meta?.registered?.mcp ?? [] };
  }

  /** /dev/sealed's `test`: the injector's verdict for `Bearer <placeholder>`, sending nothing. */
  async test(namespace: string, request: TestRequest) {
    const [records, { policy, endpoints }] = await Promise.all([this.records.all(namespace), this.inEffect(namespace)]);
    if (!records.some((r) => r.name === request.name)) throw new VaultError('ENOENT', `there is no record named ${request.name}`);
    // The verdict needs no value: its head is never used, so records go in without theirs.
    const byPlaceholder = new Map(records.map((r) => [r.placeholder, { ...r, value: '' }]));
    return testVerdict(request, {
      records: byPlaceholder,
      locked: this.locked,
      now: this.now(),
      rules: policy.config?.rules ?? [],
      secrets: policy.config?.secrets ?? {},
      exits: policy.secrets?.exits ?? {},
      refused: endpoints,
    });
  }

  /** Records a use of values (`forward`): `usedAt` and the audit entries, then `changed`. */
  async used(namespace: string, ids: string[], entries: AuditDraft[]): Promise<void> {
    await this.records.use(namespace, ids, entries);
    await this.autoLock.used();
    await this.announce(namespace, ['audit']);
  }

  /**
   * The agent's `endpoints`: registers model base URLs and MCP servers; they only ever add. What is
   * new is audited (`endpoints`, `added`) in the same transaction; past the limit nothing changes.
   */
  async registerEndpoints(namespace: string, model: unknown, mcp: unknown) {
    const wanted = checkRegistration(model, mcp);
    // The audit entry shows the agent's strings scrubbed, so the scrubber is needed, as for `redact`.
    const { scrubber } = await this.scrubber(namespace);
    const scrub = (text: string) => scrubber.redact(text).text;
    const tx = this.db.transaction(['namespaces', 'audit'], 'readwrite');
    const meta = (await tx.objectStore('namespaces').get(namespace)) ?? emptyMeta(namespace);
    let merged: ReturnType<typeof mergeRegistered>;
    try {
      merged = mergeRegistered(meta.registered ?? emptyRegistered(), wanted);
    } catch (error) {
      tx.abort();
      await tx.done.catch(() => {});
      throw error;
    }
    if (merged.changed) {
      await tx.objectStore('namespaces').put({ ...meta, registered: merged.registered });
      await addAudit(tx, namespace, this.now(), { type: 'endpoints', change: 'added', ...scrubbedRegistered(merged.added, scrub) });
    }
    await tx.done;
    if (merged.changed) await this.announce(namespace, ['audit']);
    return { ok: true as const };
  }

  /**
   * The page's `unregister`: removes registrations (model base URLs, MCP servers by URL), audits
   * what went (`endpoints`, `removed`) and pushes `changed`, so the policy in effect is read anew.
   */
  async unregister(namespace: string, model: unknown, mcp: unknown): Promise<{ registered: Registered }> {
    const gone = checkUnregister(model, mcp);
    const scrub = this.registeredScrub(namespace);
    const tx = this.db.transaction(['namespaces', 'audit'], 'readwrite');
    const meta = (await tx.objectStore('namespaces').get(namespace)) ?? emptyMeta(namespace);
    const { registered, removed } = removeRegistered(meta.registered ?? emptyRegistered(), gone, scrub ?? undefined);
    const changed = count(removed) > 0;
    if (changed) {
      await tx.objectStore('namespaces').put({ ...meta, registered });
      await addAudit(tx, namespace, this.now(), { type: 'endpoints', change: 'removed', ...(scrub ? scrubbedRegistered(removed, scrub) : hidden()) });
    }
    await tx.done;
    if (changed) await this.announce(namespace, ['audit']);
    return { registered: scrub ? scrubbedRegistered(registered, scrub) : hidden() };
  }

  /** The compiled scrubber as a string function, or null before the first unlock (nothing is shown then). */
  private registeredScrub(namespace: string): ((text: string) => string) | null {
    const compiled = this.scrubbers.get(namespace);
    return compiled ? (text) => compiled.scrubber.redact(text).text : null;
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
    const { config } = (await this.inEffect(namespace)).policy;
    const warnings = merged.files.flatMap((f) => f.warnings);
    return {
      accepted: merged.files.every((f) => f.accepted),
      files: merged.files,
      rules: (config?.rules ?? []).map((r) => ({ ...r, methods: [...r.methods], paths: [...r.paths] })),
      warnings,
    };
  }

  private async announce(namespace: string, changes: Change[]) {
    this.bus.postMessage({ type: 'changed', namespace, changes } satisfies BusMessage);
    await this.notify(namespace, changes);
  }

  private async notify(namespace: string | null, changes: Change[]) {
    // Compiling needn't hold up the events: while unlocked, `ready` is true anyway.
    if (namespace && changes.includes('values') && this.served.has(namespace)) void this.scrubbers.refresh(namespace);
    for (const listener of this.listeners) await listener(namespace, changes);
  }

  /** Starts serving a namespace (an embedder said hello): its scrubber compiles from now on. */
  async serve(namespace: string): Promise<void> {
    this.served.add(namespace);
    await this.scrubbers.refresh(namespace);
  }

  /** The namespace's scrubber, compiled if it can be; EACCES when locked before any compile. */
  async scrubber(namespace: string) {
    const compiled = await this.scrubbers.refresh(namespace);
    if (!compiled) throw new VaultError('EACCES', 'unlock the vault to continue');
    return compiled;
  }

  private async fromBus(message: BusMessage) {
    // The lock or auto-lock's setting may have changed: look at the idle time again.
    if (message.namespace === null && message.changes.includes('status')) void this.autoLock.arm();
    await this.notify(message.namespace, message.changes);
  }
}
