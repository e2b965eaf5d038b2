// The vault of one document (README, Scrub state): it composes the stores, the key ring, the
// compiled scrubbers and each served namespace's state in memory, and opens no transaction itself.
// It never hands out a value: views carry placeholders, states and times only. Each write is one
// store transaction whose delta updates this document's state and goes, over a BroadcastChannel
// with the namespace's revision, to every other vault document of the origin, which apply it (or
// reload the namespace when they missed one) and push the same events to their own ports.
import type {
  AuditEntry,
  AuditPage,
  ExitPolicyView,
  LockState,
  PlaceholdersView,
  PolicyResult,
  SecretView,
  VaultConfig,
  VaultList,
  VaultStatus,
} from '../contract.ts';
import { type BusMessage, CHANNEL, type Change } from '../store/bus.ts';
import type { NamespaceMeta, StoredRecord, VaultDb } from '../store/schema.ts';
import { VaultError, enoent, einval } from '../errors.ts';
import { readLock } from '../lock/slots.ts';
import { KeyRing } from '../lock/keyring.ts';
import { AutoLock, type Clock, clockOf } from '../lock/autolock.ts';
import { Scrubbers } from './scrubbers.ts';
import { type Registered, emptyRegistered, scrubbedRegistered } from '../inject/registered.ts';
import { checkAttestation } from '../policy/attest.ts';
import { PolicyStore } from '../store/policy.ts';
import { yieldThread } from '../scrub/slices.ts';
import { type StoredPolicy, warmPolicy } from '../policy/accepted.ts';
import { type TestRequest, testVerdict } from '../inject/injector.ts';
import builtinEndpoints from '../endpoints.json' with { type: 'json' };
import pkg from '../../package.json' with { type: 'json' };
import { type NewRequest, Requests, type StoredRequest, pendingOf, stateAt } from '../store/requests.ts';
import { AUDIT_PAGE, type Actor, type AuditDraft, PURGE_AFTER_MS, Records, type RecordInput, type RotationCheck } from '../store/records.ts';
import { type Delta, type NamespaceSummary, Namespaces } from '../store/namespaces.ts';
import { type InEffect, NamespaceState } from './namespace-state.ts';
import { backupReminderOf, exitsView, reminderOf, scrubOf, scrubStateOf, secretView, stateOf } from './views.ts';
import type { SealFields } from '../contract.ts';

/** The vault's version: package.json's, the one definition of it. */
export const VAULT_VERSION: string = pkg.version;
const PURGE_FIRST_MS = 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export type { Change };
export type ChangeListener = (namespace: string | null, changes: Change[]) => void | Promise<void>;

export interface VaultOptions {
  db: VaultDb;
  /** May still be on its way (the frame's settings): the reads that don't need it go out meanwhile. */
  config: VaultConfig | Promise<VaultConfig>;
  /**
   * The namespace whose hello is expected first (the frame's parent, where the browser names it
   * before the hello): its small read for `welcome` goes out as the vault opens.
   */
  expected?: string;
  now?: () => number;
  /** Auto-lock's clock and timers (default: real timers over `now`); tests inject one. */
  clock?: Clock;
}

export class Vault {
  readonly config: VaultConfig;
  readonly now: () => number;
  readonly keys: KeyRing;
  readonly autoLock: AutoLock;
  readonly scrubbers: Scrubbers;
  private readonly records: Records;
  private readonly requests: Requests;
  private readonly namespaces: Namespaces;
  private readonly policies: PolicyStore;
  /** Each namespace this document serves, in memory from its first use. */
  private readonly states = new Map<string, Promise<NamespaceState>>();
  /** The lock kinds set: vault-wide, read at open and again when a document says the lock changed. */
  private lockState: LockState = null;
  private readonly listeners = new Set<ChangeListener>();
  private readonly bus: BroadcastChannel;
  private firstPurge?: ReturnType<typeof setTimeout>;
  private purgeTimer?: ReturnType<typeof setInterval>;
  private expiryTimer?: ReturnType<typeof setTimeout>;
  /** The expected namespace's small read, for its first `welcome`; dropped at any notice meanwhile. */
  private early?: { namespace: string; summary: Promise<NamespaceSummary | null> };

  private constructor(
    private readonly db: VaultDb,
    keys: KeyRing,
    options: VaultOptions & { config: VaultConfig },
    bus: BroadcastChannel,
  ) {
    this.keys = keys;
    this.bus = bus;
    this.config = options.config;
    this.now = options.now ?? Date.now;
    this.autoLock = new AutoLock(db, keys, options.clock ?? clockOf(this.now));
    this.records = new Records(db, this.now);
    this.requests = new Requests(db, this.config.requestLifetimeMs, this.now);
    this.namespaces = new Namespaces(db);
    this.policies = new PolicyStore(db, this.now);
    this.scrubbers = new Scrubbers(
      async (namespace) => {
        const state = await this.state(namespace);
        return { version: state.meta.scrubVersion, records: state.all() };
      },
      () => this.keys.current,
      async (namespace, held, records) => {
        // Records newly marked unreadable: this document reads the namespace again, the others too.
        if (!(await this.records.markUnreadable(namespace, held, records))) return;
        await this.reload(namespace);
        this.bus.postMessage({ type: 'changed', namespace, changes: ['audit'] } satisfies BusMessage);
        await this.notify(namespace, ['audit']);
      },
    );
    this.bus.onmessage = (event: MessageEvent<BusMessage>) => void this.fromBus(event.data);
  }

  /** Opens the vault of this document: auto-unlocks when no lock is set, purges, schedules purges. */
  static async open(options: VaultOptions): Promise<Vault> {
    // The reads that need no settings go out at once, beside the settings' fetches (README,
    // Benchmarks: frame boot). The bus listens from the same moment (a write these reads miss
    // commits after them, so its notice comes to this channel).
    const { db, expected } = options;
    const opening = KeyRing.open(db);
    const locking = readLock(db);
    locking.catch(() => {}); // awaited below, unless the settings failed first
    const early = expected === undefined ? undefined : { namespace: expected, summary: new Namespaces(db).summary(expected).catch(() => null) };
    const bus = new BroadcastChannel(CHANNEL);
    const missed: BusMessage[] = [];
    bus.onmessage = ({ data }: MessageEvent<BusMessage>) => void missed.push(data);
    let config: VaultConfig;
    try {
      config = await options.config;
    } catch (error) {
      bus.close();
      (await opening.catch(() => null))?.close();
      throw error;
    }
    const keys = await opening;
    const vault = new Vault(db, keys, { ...options, config }, bus);
    vault.early = early;
    vault.lockState = await locking;
    // The notices heard before the vault's own handler listened go through it now: one of the
    // expected namespace drops the early read, one of the lock reads the lock again.
    for (const message of missed) void vault.fromBus(message);
    keys.onChange(async () => {
      vault.lockState = await readLock(options.db);
      for (const namespace of vault.states.keys()) void vault.scrubbers.refresh(namespace);
      await vault.notify(null, ['status']);
    });
    // Purging is upkeep: it runs a while after the first hellos, never in their way (README, Records).
    vault.firstPurge = setTimeout(() => void vault.purge(), PURGE_FIRST_MS);
    vault.purgeTimer = setInterval(() => void vault.purge(), PURGE_EVERY_MS);
    return vault;
  }

  /** Stops the timers and channels (the database is its opener's to close). */
  close() {
    clearTimeout(this.firstPurge);
    clearInterval(this.purgeTimer);
    clearTimeout(this.expiryTimer);
    this.bus.close();
    this.autoLock.close();
    this.keys.close();
    this.scrubbers.close();
    this.listeners.clear();
  }

  get locked(): boolean {
    return this.keys.key === null;
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ── State ─────────────────────────────────────────────────────────────────────────────

  /** The namespace in memory, loaded in one read at its first use (an embedder's hello). */
  state(namespace: string): Promise<NamespaceState> {
    let state = this.states.get(namespace);
    if (!state) {
      state = this.load(namespace).then((loaded) => new NamespaceState(namespace, builtinEndpoints, loaded));
      state.catch(() => this.states.get(namespace) === state && this.states.delete(namespace));
      this.states.set(namespace, state);
    }
    return state;
  }

  /**
   * Makes sure the namespace in memory is the stored one: another document's write may have
   * committed with its notice still on the way. One small read; `forward` asks before deciding,
   * so a just-registered endpoint or a just-changed policy is never decided on from before.
   */
  async fresh(namespace: string): Promise<void> {
    const state = await this.state(namespace);
    if ((await this.namespaces.rev(namespace)) > state.rev) await this.reload(namespace);
  }

  /** The namespace in one read, its policy files parsed in the worker (README, Limits). */
  private async load(namespace: string) {
    const loaded = await this.namespaces.load(namespace);
    await warmPolicy(loaded.stored);
    return loaded;
  }

  /** Reads the namespace again (a notice was missed or carried no delta). */
  private async reload(namespace: string): Promise<void> {
    const held = this.states.get(namespace);
    if (!held) return;
    const [state, loaded] = await Promise.all([held, this.load(namespace)]);
    state.replace(loaded);
  }

  /** A write of this document committed: its state follows, then every other document's. */
  private async commit(delta: Delta | null, changes: Change[]): Promise<void> {
    if (!delta) return;
    const held = this.states.get(delta.namespace);
    if (held && !(await held).apply(delta)) await this.reload(delta.namespace);
    // A policy change is big work in pieces (its rules in effect, then the events that carry it):
    // the thread is given back between them (README, Limits).
    if (delta.policy) await yieldThread();
    this.bus.postMessage({ type: 'changed', namespace: delta.namespace, changes, delta } satisfies BusMessage);
    await this.notify(delta.namespace, changes);
    if (delta.policy) await yieldThread();
  }

  private async fromBus(message: BusMessage) {
    if (message.namespace === null || message.namespace === this.early?.namespace) this.early = undefined;
    // The lock or auto-lock's setting may have changed: look at the idle time again.
    if (message.namespace === null && message.changes.includes('status')) void this.autoLock.arm();
    if (message.namespace === null) {
      this.lockState = await readLock(this.db);
      for (const namespace of this.states.keys()) await this.reload(namespace);
    } else {
      const held = this.states.get(message.namespace);
      if (message.delta?.policy) await warmPolicy(message.delta.policy);
      if (held && !(message.delta && (await held).apply(message.delta))) await this.reload(message.namespace);
    }
    await this.notify(message.namespace, message.changes);
  }

  private async notify(namespace: string | null, changes: Change[]) {
    // Compiling needn't hold up the events: while unlocked, `ready` is true anyway.
    if (namespace && changes.includes('values') && this.states.has(namespace)) this.scrubbers.soon(namespace);
    if (changes.includes('status')) this.watchExpiry();
    for (const listener of this.listeners) await listener(namespace, changes);
  }

  /** Starts serving a namespace (an embedder said hello): in memory, its scrubber compiled. */
  async serve(namespace: string): Promise<void> {
    await this.state(namespace);
    // Compiled in the worker just after: an op that needs the scrubber waits for it, `welcome` doesn't.
    this.scrubbers.soon(namespace);
    this.watchExpiry();
  }

  // ── Views (from memory) ───────────────────────────────────────────────────────────────

  async status(namespace: string): Promise<VaultStatus> {
    const state = await this.state(namespace);
    const records = state.all();
    return this.statusOf(namespace, {
      meta: state.meta,
      stored: state.stored,
      requests: state.requests.values(),
      anyRecord: records.length > 0,
      liveSecret: () => records.some((r) => r.kind === 'secret' && r.removedAt === undefined),
    });
  }

  /**
   * `welcome`'s status. A namespace not yet in memory starts loading, and the status comes from a
   * small read beside it (README, Scrub state): the page's first ops wait for the load, `welcome`
   * doesn't. When that read can't tell (no live secret among its first records), it waits too.
   */
  async welcome(namespace: string): Promise<VaultStatus> {
    // The read made as the vault opened serves the first hello, if it is that namespace's.
    const early = this.early?.namespace === namespace ? this.early.summary : undefined;
    this.early = undefined;
    if (this.states.has(namespace)) {
      await this.serve(namespace);
      return this.status(namespace);
    }
    const summary = early ?? this.namespaces.summary(namespace).catch(() => null);
    const serving = this.serve(namespace);
    serving.catch(() => {}); // every op awaits the load again, and answers its error
    const known = await summary;
    if (!known || known.liveSecret === null) {
      await serving;
      return this.status(namespace);
    }
    return this.statusOf(namespace, { ...known, liveSecret: () => known.liveSecret === true });
  }

  private statusOf(
    namespace: string,
    of: { meta: NamespaceMeta; stored: StoredPolicy | undefined; requests: Iterable<StoredRequest>; anyRecord: boolean; liveSecret: () => boolean },
  ): VaultStatus {
    const now = this.now();
    const waiting = [];
    for (const r of of.requests) if (stateAt(r, now) === 'pending') waiting.push(pendingOf(r));
    return {
      version: VAULT_VERSION,
      protocol: 1,
      origin: namespace,
      locked: this.locked,
      lock: this.lockState,
      keyLost: this.keys.keyLost,
      scrub: scrubStateOf(of.anyRecord, of.meta, this.locked, this.scrubbers.ready(namespace)),
      waiting,
      exportedAt: of.meta.exportedAt,
      backupReminder: reminderOf(of.meta, of.liveSecret),
      policy: of.stored?.files ?? [],
    };
  }

  async placeholders(namespace: string): Promise<PlaceholdersView> {
    const state = await this.state(namespace);
    return {
      placeholders: [...state.livePlaceholders()],
      scrub: scrubOf({ records: state.all(), meta: state.meta }, this.locked, this.scrubbers.ready(namespace)),
    };
  }

  async list(namespace: string): Promise<VaultList> {
    const state = await this.state(namespace);
    const { secrets, exits } = this.overview(state);
    // Agent-chosen strings, scrubbed; before the first unlock there is no scrubber, and none are shown.
    const shown = await this.registeredScrub(namespace);
    const registered = shown ? scrubbedRegistered(state.meta.registered ?? emptyRegistered(), shown) : emptyRegistered();
    return { secrets, refused: state.effect.refused, audit: state.audit, auditMore: state.auditMore, exits, registered };
  }

  /** The `changed` event's fields: every record's view, the exits lines, the newest audit page. */
  async changed(namespace: string): Promise<{ secrets: SecretView[]; exits: ExitPolicyView; audit: AuditEntry[] }> {
    const state = await this.state(namespace);
    return { ...this.overview(state), audit: state.audit };
  }

  private overview(state: NamespaceState) {
    const { policy } = state.effect;
    return { secrets: state.all().map((r) => secretView(r, policy)), exits: exitsView(policy) };
  }

  /** An audit page: the first from memory, older ones from the audit store. */
  async audit(namespace: string, before?: number, limit = AUDIT_PAGE): Promise<AuditPage> {
    if (before === undefined && limit <= AUDIT_PAGE) {
      const state = await this.state(namespace);
      const audit = state.audit.slice(0, limit);
      const more = state.audit.length > limit || state.auditMore;
      return more ? { audit, more, next: audit[audit.length - 1]!.seq } : { audit, more };
    }
    return this.records.audit(namespace, before, limit);
  }

  /** The accepted policy in effect, the refused endpoints and the registered MCP servers. */
  async inEffect(namespace: string): Promise<InEffect> {
    return (await this.state(namespace)).effect;
  }

  /** The namespace's record of that name, removed or not, from memory. */
  async record(namespace: string, name: string): Promise<StoredRecord | undefined> {
    return (await this.state(namespace)).records.get(name);
  }

  /** Every record of the namespace, sorted by name, from memory. */
  async all(namespace: string): Promise<StoredRecord[]> {
    return (await this.state(namespace)).all();
  }

  /** The namespace's scrub version, from memory. */
  async scrubVersion(namespace: string): Promise<number> {
    return (await this.state(namespace)).meta.scrubVersion;
  }

  /** The namespace's requests, oldest first, from memory. */
  async requestsOf(namespace: string): Promise<StoredRequest[]> {
    return [...(await this.state(namespace)).requests.values()];
  }

  /** The namespace's request of that id, or ENOENT (also for another namespace's). */
  async requestOf(namespace: string, id: string): Promise<StoredRequest> {
    const request = (await this.state(namespace)).requests.get(id);
    if (!request) throw enoent('there is no request with that id');
    return request;
  }

  // ── Changes (each one store transaction) ──────────────────────────────────────────────

  /** A value entered in Settings (`put`): creates the record or rotates it, answering its request. */
  async put(namespace: string, input: RecordInput, requestId?: string) {
    if (requestId === undefined) return this.write(namespace, input);
    const pendingValue = (r: StoredRequest) => r.id === requestId && r.kind === 'value';
    const request = (await this.state(namespace)).requests.get(requestId);
    if (!request || !pendingValue(request) || stateAt(request, this.now()) !== 'pending') {
      throw new VaultError('ENOENT', 'there is no pending value request with that id');
    }
    if (request.name !== input.name) throw einval(`that request asks for ${request.name}, not ${input.name}`);
    return this.write(namespace, input, {
      actor: { uid: request.uid, tag: request.tag },
      answers: (pending) => {
        const still = pending.find(pendingValue);
        if (!still) throw new VaultError('ENOENT', 'there is no pending value request with that id');
        return still;
      },
    });
  }

  /** A value from a sign-in or another device (`seal`); it answers the oldest pending request of its kind and provider. */
  async seal(namespace: string, input: RecordInput & { source: SealFields['source'] }) {
    const [, provider] = /^(?:oauth|jerk):([^@]+)/.exec(input.source)!;
    const wanted = input.source.startsWith('oauth:') ? 'oauth' : 'jerk-seal';
    return this.write(namespace, input, { answers: (pending) => pending.find((r) => r.kind === wanted && r.provider === provider) });
  }

  /** Writes a checked value; shared by `put`, `seal` and `/dev/sealed`'s `seal`. */
  async write(
    namespace: string,
    input: RecordInput,
    options: { check?: RotationCheck; actor?: Actor; answers?: (pending: StoredRequest[]) => StoredRequest | undefined } = {},
  ) {
    const held = this.keys.current;
    if (!held && this.keys.keyLost) {
      throw new VaultError('EACCES', 'vault is locked: its key is gone (records exist but no key slot is left to open them); nothing is written');
    }
    if (!held) throw new VaultError('EACCES', 'vault is locked: unlock it to add or change a value');
    const state = await this.state(namespace);
    let written: Awaited<ReturnType<Records['write']>>;
    try {
      written = await this.records.write(namespace, held, input, { ...options, existing: state.records.get(input.name) ?? null });
      await this.autoLock.used();
    } catch (error) {
      // The vault's key changed under this document (README, Key store and lock): it drops its own.
      if (error instanceof VaultError && error.code === 'EACCES') await this.keys.recheck();
      throw error;
    }
    await this.commit(written.delta, ['values', 'audit', 'status']);
    return { placeholder: written.record.placeholder, state: stateOf(written.record, state.effect.policy) };
  }

  async remove(namespace: string, name: string) {
    const { delta } = await this.records.remove(namespace, name);
    await this.commit(delta, ['values', 'audit', 'status']);
    return { state: 'removed' as const };
  }

  async restore(namespace: string, name: string) {
    const { record, delta } = await this.records.restore(namespace, name);
    await this.commit(delta, ['values', 'audit', 'status']);
    return { state: stateOf(record, (await this.state(namespace)).effect.policy) };
  }

  /** Ends a pending request (the page's `cancel`, or /dev/sealed's for its own requests). */
  async cancel(namespace: string, id: string) {
    const request = await this.requestOf(namespace, id);
    const { state, delta } = await this.requests.end(request.id, 'cancelled');
    await this.commit(delta, ['status']);
    return { state };
  }

  /** Makes a request and has `waiting` follow it, until it expires. */
  async request(namespace: string, fields: NewRequest) {
    const { request, delta } = await this.requests.make(namespace, fields);
    await this.commit(delta, ['status']);
    return request;
  }

  /**
   * The page's `export` (`import`): a pending `backup` (`restore`) request the person finishes or
   * cancels in the popup (README, Backup and restore). Asking again answers the same request.
   */
  async askBackup(namespace: string, kind: 'backup' | 'restore') {
    const request = await this.request(namespace, { kind });
    return { request: request.id };
  }

  /** Announces `status` when the next pending request of a served namespace expires, so `waiting` follows. */
  private watchExpiry() {
    clearTimeout(this.expiryTimer);
    void (async () => {
      const now = this.now();
      let next: number | null = null;
      for (const held of this.states.values()) {
        const state = await held.catch(() => null);
        for (const r of state?.requests.values() ?? []) if (stateAt(r, now) === 'pending' && (next === null || r.expiresAt < next)) next = r.expiresAt;
      }
      if (next === null) return;
      clearTimeout(this.expiryTimer);
      this.expiryTimer = setTimeout(() => void this.notify(null, ['status']), Math.max(0, next - this.now()) + 10);
    })();
  }

  async dismissBackupReminder(namespace: string) {
    const delta = await this.namespaces.dismissReminder(namespace);
    await this.commit(delta, ['status']);
    const state = await this.state(namespace);
    return { backupReminder: backupReminderOf({ records: state.all(), meta: state.meta }) };
  }

  /** Drops the key in every vault document when a lock is set; without a lock it does nothing. */
  async lock(): Promise<void> {
    await this.keys.lock();
  }

  /** Deletes records removed 30 days ago, and requests that expired as long ago. */
  async purge(): Promise<void> {
    const requests = await this.requests.purge(PURGE_AFTER_MS);
    const records = await this.records.purge();
    for (const namespace of new Set([...requests, ...records])) {
      await this.reload(namespace);
      const changes: Change[] = records.includes(namespace) ? ['values', 'audit', 'status'] : ['status'];
      this.bus.postMessage({ type: 'changed', namespace, changes } satisfies BusMessage);
      await this.notify(namespace, changes);
    }
  }

  /** /dev/sealed's `test`: the injector's verdict for `Bearer <placeholder>`, sending nothing. */
  async test(namespace: string, request: TestRequest) {
    const state = await this.state(namespace);
    const records = state.all();
    if (!state.records.has(request.name)) throw new VaultError('ENOENT', `there is no record named ${request.name}`);
    const { policy, endpoints } = state.effect;
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
    await this.commit(await this.records.use(namespace, ids, entries), ['audit']);
    await this.autoLock.used();
  }

  /**
   * The agent's `endpoints`: registers model base URLs and MCP servers; they only ever add. What is
   * new is audited (`endpoints`, `added`) in the same transaction, its agent strings scrubbed.
   */
  async registerEndpoints(namespace: string, wanted: Registered) {
    // The audit entry keeps the agent's strings: scrubbed with every value stored, this instant's too.
    await this.fresh(namespace);
    const { scrubber } = await this.scrubber(namespace);
    const delta = await this.namespaces.register(namespace, wanted, (text) => scrubber.redact(text).text, this.now());
    await this.commit(delta, ['audit']);
    return { ok: true as const };
  }

  /**
   * The page's `unregister`: removes registrations (model base URLs, MCP servers by URL), audits
   * what went (`endpoints`, `removed`) and pushes `changed`, so the policy in effect is read anew.
   */
  async unregister(namespace: string, gone: { model: string[]; mcp: string[] }): Promise<{ registered: Registered }> {
    await this.fresh(namespace);
    const shown = await this.registeredScrub(namespace);
    const { registered, delta } = await this.namespaces.unregister(namespace, gone, shown, this.now());
    await this.commit(delta, ['audit']);
    return { registered: shown ? scrubbedRegistered(registered, shown) : emptyRegistered() };
  }

  /**
   * The newest scrubber (compiled first when the values changed) as a string function, or null
   * before the first unlock (nothing is shown then).
   */
  private async registeredScrub(namespace: string): Promise<((text: string) => string) | null> {
    const compiled = await this.newestScrubber(namespace);
    return compiled ? (text) => compiled.scrubber.redact(text).text : null;
  }

  /** The kernel's attested policy files (`policy`): checked, then merged in one transaction. */
  async applyPolicy(namespace: string, files: unknown[]): Promise<PolicyResult> {
    const paths = files.map((f) => (f && typeof f === 'object' ? (f as { path?: unknown }).path : undefined));
    const verdicts = await Promise.all(files.map(async (file, i) => ({ given: paths[i], verdict: await checkAttestation(file) })));
    const { merged, delta } = await this.policies.apply(namespace, verdicts);
    await this.commit(delta, merged.changed || merged.audit.length > 0 ? ['audit'] : []);
    const { config } = (await this.state(namespace)).effect.policy;
    const warnings = merged.files.flatMap((f) => f.warnings);
    return {
      accepted: merged.files.every((f) => f.accepted),
      files: merged.files,
      rules: (config?.rules ?? []).map((r) => ({ ...r, methods: [...r.methods], paths: [...r.paths] })),
      warnings,
    };
  }

  /** The newest compiled scrubber (compiling first when it can), if there is one. */
  async newestScrubber(namespace: string) {
    return this.scrubbers.refresh(namespace).catch(() => this.scrubbers.get(namespace));
  }

  /** The namespace's scrubber, compiled if it can be; EACCES when locked before any compile. */
  async scrubber(namespace: string) {
    const compiled = await this.scrubbers.refresh(namespace);
    if (!compiled) throw new VaultError('EACCES', 'unlock the vault to continue');
    return compiled;
  }
}
