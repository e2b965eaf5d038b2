// The namespaces this document serves, in memory, and their sync with the other vault documents
// of the origin (README, Scrub state). Each namespace is loaded in one read at its first use; each
// write of this document applies its delta here and goes out on the bus with the namespace's
// revision; another document's notice is applied when it follows the revision held, and the
// namespace is read again when one was missed. IndexedDB stays the only truth.
import type { LockState } from '../contract.ts';
import type { Endpoint } from '../inject/index.ts';
import { type AutoLock, readLock } from '../lock/index.ts';
import { yieldThread } from '../scrub/index.ts';
import {
  type BusMessage,
  type Change,
  type Delta,
  type NamespaceSummary,
  type Namespaces,
  type RefreshAsk,
  type StoredPolicy,
  type VaultDb,
  stateAt,
} from '../store/index.ts';
import { parsePolicyFileOffThread } from '../worker/index.ts';
import { NamespaceState } from './namespace-state.ts';
import type { Scrubbers } from './scrubbers.ts';

export type ChangeListener = (namespace: string | null, changes: Change[], refresh?: RefreshAsk) => void | Promise<void>;

/** Parses a stored policy's files in the vault's worker first, so reading the policy then only reads the cache. */
export async function warmPolicy(stored: StoredPolicy | undefined): Promise<void> {
  for (const [path, file] of Object.entries(stored?.accepted ?? {})) if (file) await parsePolicyFileOffThread(path, file.sha256, file.text);
}

export interface ServedParts {
  db: VaultDb;
  namespaces: Namespaces;
  bus: BroadcastChannel;
  builtin: readonly Endpoint[];
  scrubbers: () => Scrubbers;
  autoLock: () => AutoLock;
  now: () => number;
}

export class Served {
  /** Each namespace this document serves, in memory from its first use. */
  private readonly states = new Map<string, Promise<NamespaceState>>();
  /** The same, from the moment each is loaded: what `state()` answers, without a wait. */
  private readonly loaded = new Map<string, NamespaceState>();
  private readonly listeners = new Set<ChangeListener>();
  private expiryTimer?: ReturnType<typeof setTimeout>;
  /** The lock kinds set: vault-wide, read at open and again when a document says the lock changed. */
  private lock: LockState = null;
  /** The expected namespace's small read, for its first `welcome`; dropped at any notice meanwhile. */
  private early?: { namespace: string; summary: Promise<NamespaceSummary | null> };

  constructor(private readonly parts: ServedParts) {}

  get lockState(): LockState {
    return this.lock;
  }

  /** As the vault opens: the lock as read, and the expected namespace's small read, if any. */
  opened(lock: LockState, early?: { namespace: string; summary: Promise<NamespaceSummary | null> }) {
    this.lock = lock;
    this.early = early;
  }

  /** The lock may have changed: read it again. */
  async lockChanged(): Promise<void> {
    this.lock = await readLock(this.parts.db);
  }

  /** The early read, for the first `welcome` of its namespace only; gone once asked for. */
  takeEarly(namespace: string): Promise<NamespaceSummary | null> | undefined {
    const early = this.early?.namespace === namespace ? this.early.summary : undefined;
    this.early = undefined;
    return early;
  }

  /** The namespaces held in memory. */
  held(): string[] {
    return [...this.states.keys()];
  }

  has(namespace: string): boolean {
    return this.states.has(namespace);
  }

  /** The namespace in memory if its load is done, else undefined: for a reply from memory without a wait. */
  loadedState(namespace: string): NamespaceState | undefined {
    return this.loaded.get(namespace);
  }

  /** The namespace in memory, loaded in one read at its first use (an embedder's hello). */
  state(namespace: string): Promise<NamespaceState> {
    let state = this.states.get(namespace);
    if (!state) {
      state = this.load(namespace).then((loaded) => {
        const state = new NamespaceState(namespace, this.parts.builtin, loaded);
        this.loaded.set(namespace, state);
        return state;
      });
      state.catch(() => this.states.get(namespace) === state && this.states.delete(namespace));
      this.states.set(namespace, state);
    }
    return state;
  }

  /**
   * Makes sure the namespace in memory is the stored one: another document's write may have
   * committed with its notice still on the way. One small read; decisions ask before deciding, so
   * a just-registered endpoint or a just-changed policy is never decided on from before.
   */
  async fresh(namespace: string): Promise<void> {
    const state = await this.state(namespace);
    if ((await this.parts.namespaces.rev(namespace)) > state.rev) await this.reload(namespace);
  }

  /** The namespace in one read, its policy files parsed in the worker (README, Limits). */
  private async load(namespace: string) {
    const loaded = await this.parts.namespaces.load(namespace);
    await warmPolicy(loaded.stored);
    return loaded;
  }

  /** Reads the namespace again (a notice was missed or carried no delta). */
  async reload(namespace: string): Promise<void> {
    const held = this.states.get(namespace);
    if (!held) return;
    const [state, loaded] = await Promise.all([held, this.load(namespace)]);
    state.replace(loaded);
  }

  /** A write of this document committed: its state follows, then every other document's. */
  async commit(delta: Delta | null, changes: Change[]): Promise<void> {
    if (!delta) return;
    // Every accepted file's parse in the cache first, off the thread: applying reads only the cache.
    if (delta.policy) await warmPolicy(delta.policy);
    const held = this.states.get(delta.namespace);
    if (held && !(await held).apply(delta)) await this.reload(delta.namespace);
    // A policy change is big work in pieces (its rules in effect, then the events that carry it):
    // the thread is given back between them (README, Limits).
    if (delta.policy) await yieldThread();
    this.parts.bus.postMessage({ type: 'changed', namespace: delta.namespace, changes, delta } satisfies BusMessage);
    await this.notify(delta.namespace, changes);
    if (delta.policy) await yieldThread();
  }

  /** A write without a delta (a purge, records found unreadable): this document reads the namespace again, the others too. */
  async changedWithoutDelta(namespace: string, changes: Change[]): Promise<void> {
    await this.reload(namespace);
    this.parts.bus.postMessage({ type: 'changed', namespace, changes } satisfies BusMessage);
    await this.notify(namespace, changes);
  }

  /** Asks the page to renew a sign-in's value: the `refresh` event on every page port of the namespace, in every document. */
  async ask(namespace: string, refresh: RefreshAsk): Promise<void> {
    this.parts.bus.postMessage({ type: 'changed', namespace, changes: [], refresh } satisfies BusMessage);
    await this.notify(namespace, [], refresh);
  }

  /** Another document's notice. */
  async fromBus(message: BusMessage) {
    if (message.namespace === null || message.namespace === this.early?.namespace) this.early = undefined;
    // The lock or auto-lock's setting may have changed: look at the idle time again.
    if (message.namespace === null && message.changes.includes('status')) void this.parts.autoLock().arm();
    if (message.namespace === null) {
      await this.lockChanged();
      for (const namespace of this.states.keys()) await this.reload(namespace);
    } else {
      const held = this.states.get(message.namespace);
      if (message.delta?.policy) await warmPolicy(message.delta.policy);
      const told = message.changes.length > 0;
      if (held && told && !(message.delta && (await held).apply(message.delta))) await this.reload(message.namespace);
    }
    await this.notify(message.namespace, message.changes, message.refresh);
  }

  /** Tells this document's listeners (the gateway's events, the button's availability). */
  async notify(namespace: string | null, changes: Change[], refresh?: RefreshAsk) {
    // Compiling needn't hold up the events: while unlocked, `ready` is true anyway.
    if (namespace && changes.includes('values') && this.states.has(namespace)) this.parts.scrubbers().soon(namespace);
    if (changes.includes('status')) this.watchExpiry();
    for (const listener of this.listeners) await listener(namespace, changes, refresh);
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The namespace's small read for a `welcome` (README, Scrub state), or null when it fails. */
  summaryOf(namespace: string): Promise<NamespaceSummary | null> {
    return this.parts.namespaces.summary(namespace).catch(() => null);
  }

  /** Starts serving a namespace (an embedder said hello): in memory, its scrubber compiled. */
  async serve(namespace: string): Promise<void> {
    await this.state(namespace);
    // Compiled in the worker just after: an op that needs the scrubber waits for it, `welcome` doesn't.
    this.parts.scrubbers().soon(namespace);
    this.watchExpiry();
  }

  /** Announces `status` when the next pending request of a served namespace expires, so `waiting` follows. */
  private watchExpiry() {
    clearTimeout(this.expiryTimer);
    void (async () => {
      const now = this.parts.now();
      let next: number | null = null;
      for (const held of this.states.values()) {
        const state = await held.catch(() => null);
        for (const r of state?.requests.values() ?? []) if (stateAt(r, now) === 'pending' && (next === null || r.expiresAt < next)) next = r.expiresAt;
      }
      if (next === null) return;
      clearTimeout(this.expiryTimer);
      this.expiryTimer = setTimeout(() => void this.notify(null, ['status']), Math.max(0, next - this.parts.now()) + 10);
    })();
  }

  close() {
    clearTimeout(this.expiryTimer);
    this.listeners.clear();
  }
}
