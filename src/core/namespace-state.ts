// One served namespace in this document's memory (README, Scrub state): its records (ciphertext
// only), the accepted policy and what is in effect of it, its registrations, requests, meta and
// newest audit page. Loaded once in one read, then changed only by the deltas of writes (this
// document's own, or another's over the bus) that follow its revision by exactly one; anything
// else (a missed notice, a notice without a delta) makes the owner reload it. IndexedDB stays the
// only truth: this is a cache kept exact by the revision.
import type { AuditEntry } from '../contract.ts';
import { type Endpoint, type InEffect, type InjectionPlan, type PlanRecord, boundEndpoints, inEffect, planRecord, providerKey } from '../inject/index.ts';
import { type Policy, policyOf } from '../policy/index.ts';
import {
  type Delta,
  type LoadedNamespace,
  type NamespaceMeta,
  type StoredPolicy,
  type StoredRecord,
  type StoredRequest,
  oldestFirst,
  revOf,
} from '../store/index.ts';
import { AUDIT_PAGE } from '../limits.ts';

export type { InEffect };

const byName = (a: StoredRecord, b: StoredRecord) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Where `key` goes in `sorted` (ascending by `keyOf`, as `<` orders strings): the first index not below it. */
function lowerBound<T>(sorted: readonly T[], key: string, keyOf: (x: T) => string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(sorted[mid]!) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
const nameOf = (r: StoredRecord) => r.name;
const itself = (s: string) => s;
/** A copy of `xs` with `x` at `at` (a held list is never changed under whoever reads it). */
const insertedAt = <T>(xs: readonly T[], at: number, x: T): T[] => [...xs.slice(0, at), x, ...xs.slice(at)];
const removedAt = <T>(xs: readonly T[], at: number): T[] => [...xs.slice(0, at), ...xs.slice(at + 1)];
const replacedAt = <T>(xs: readonly T[], at: number, x: T): T[] => xs.map((y, i) => (i === at ? x : y));
/** The placeholder a record puts in the live list, if it is live. */
const liveOf = (r: StoredRecord | undefined) => (r !== undefined && r.removedAt === undefined ? r.placeholder : null);
/** The key a record is found under in the provider index: a live `model` record's provider's. */
const modelKeyOf = (r: StoredRecord | undefined) =>
  r !== undefined && r.kind === 'model' && r.removedAt === undefined && r.provider !== undefined ? providerKey(r.provider) : null;

export class NamespaceState {
  meta!: NamespaceMeta;
  stored: StoredPolicy | undefined;
  effect!: InEffect;
  /** The accepted policy, parsed: read anew only when it changes, never from an evicted parse. */
  private accepted!: Policy;
  /** Records by name, removed ones included until purged. */
  readonly records = new Map<string, StoredRecord>();
  /** Requests by id, oldest first. */
  readonly requests = new Map<string, StoredRequest>();
  /** The newest audit entries, newest first. */
  audit: AuditEntry[] = [];
  auditMore = false;
  private sorted: StoredRecord[] | null = null;
  /** The placeholders of records not removed, sorted: kept until one is added, removed or restored. */
  private live: string[] | null = null;
  /**
   * Live `model` records by `providerKey` of their provider, each list sorted by name: made once
   * per load, then changed by each delta where it changes a model record, so `model` is a lookup.
   */
  private models: Map<string, StoredRecord[]> | null = null;
  /**
   * The records as the injection plan reads them, by placeholder, each with its binding read (a
   * base URL's endpoint, an MCP server's): one URL parse a record change, so a decision parses
   * none of them (README, Limits). Made once per load, then changed by each delta's records.
   */
  private placeholders: Map<string, PlanRecord> | null = null;
  /** Where live `model` and `mcp` records are bound, made from `placeholders` when asked after a change. */
  private bound: { model: Endpoint[]; mcp: Endpoint[] } | null = null;
  /** The injection plan: the policy's part (`effect.plan`) and the records', kept until either changes. */
  private injection: InjectionPlan | null = null;

  constructor(
    readonly namespace: string,
    private readonly builtin: readonly Endpoint[],
    loaded: LoadedNamespace,
  ) {
    this.replace(loaded);
  }

  get rev(): number {
    return revOf(this.meta);
  }

  /** Takes a fresh read, unless it is older than what is held already. */
  replace(loaded: LoadedNamespace): boolean {
    if (this.meta && revOf(loaded.meta) < this.rev) return false;
    this.meta = loaded.meta;
    this.stored = loaded.stored;
    this.accepted = policyOf(loaded.stored);
    this.records.clear();
    for (const r of loaded.records) this.records.set(r.name, r);
    this.live = null;
    this.models = null;
    this.placeholders = null;
    this.bound = null;
    this.requests.clear();
    for (const r of [...loaded.requests].sort(oldestFirst)) this.requests.set(r.id, r);
    this.audit = loaded.audit;
    this.auditMore = loaded.auditMore;
    this.sorted = null;
    this.derive();
    return true;
  }

  /**
   * Applies a write's delta when it follows this state's revision by one (answers true); a delta
   * already seen is ignored (true); a gap answers false: the owner reloads.
   */
  apply(delta: Delta): boolean {
    if (delta.rev <= this.rev) return true;
    if (delta.rev !== this.rev + 1) return false;
    const registered = this.meta.registered;
    this.meta = delta.meta;
    for (const r of delta.records ?? []) {
      const before = this.records.get(r.name);
      this.records.set(r.name, r);
      // The sorted lists take the change in place of a sort per write: a rotation replaces its
      // record where it is, a new name is inserted where it goes; in a copy either way, since a
      // reveal checks the records it read from the list it holds.
      if (this.sorted) {
        const at = lowerBound(this.sorted, r.name, nameOf);
        this.sorted = before ? replacedAt(this.sorted, at, r) : insertedAt(this.sorted, at, r);
      }
      const [was, is] = [liveOf(before), liveOf(r)];
      if (this.live && was !== is) {
        let live = this.live;
        if (was !== null) live = removedAt(live, lowerBound(live, was, itself));
        if (is !== null) live = insertedAt(live, lowerBound(live, is, itself), is);
        this.live = live;
      }
      if (this.models) this.indexModel(before, r);
      if (this.placeholders) {
        if (before && before.placeholder !== r.placeholder) this.placeholders.delete(before.placeholder);
        this.placeholders.set(r.placeholder, planRecord(r, this.effect.known));
      }
      this.bound = null;
      this.injection = null;
    }
    for (const r of delta.requests ?? []) this.requests.set(r.id, r);
    for (const id of delta.dropped ?? []) this.requests.delete(id);
    if (delta.audit?.length) {
      // An entry already held (a `model` entry counting one more use) is replaced where it is.
      const held = new Map(this.audit.map((e, i) => [e.seq, i]));
      const added: AuditEntry[] = [];
      for (const entry of delta.audit) {
        const at = held.get(entry.seq);
        if (at === undefined) added.push(entry);
        else this.audit[at] = entry;
      }
      const audit = added.reverse().concat(this.audit);
      if (audit.length > AUDIT_PAGE) this.auditMore = true;
      this.audit = audit.slice(0, AUDIT_PAGE);
    }
    if (delta.policy) {
      this.stored = delta.policy;
      this.accepted = policyOf(delta.policy);
    }
    if (delta.policy || JSON.stringify(registered) !== JSON.stringify(this.meta.registered)) this.derive();
    return true;
  }

  /** Every record, sorted by name (kept until the records change). */
  all(): StoredRecord[] {
    this.sorted ??= [...this.records.values()].sort(byName);
    return this.sorted;
  }

  /** The placeholders of the records not removed, sorted (the `placeholders` event and op). */
  livePlaceholders(): readonly string[] {
    this.live ??= this.all()
      .filter((r) => r.removedAt === undefined)
      .map((r) => r.placeholder)
      .sort();
    return this.live;
  }

  /** The live `model` records bound to a provider however it is spelled (`providerKey`), sorted by name. */
  modelsFor(provider: string): readonly StoredRecord[] {
    if (!this.models) {
      this.models = new Map();
      for (const r of this.all()) {
        const key = modelKeyOf(r);
        if (key === null) continue;
        const list = this.models.get(key);
        if (list) list.push(r);
        else this.models.set(key, [r]);
      }
    }
    return this.models.get(providerKey(provider)) ?? [];
  }

  /** The endpoints live `model` records' base URLs and `mcp` records' servers bind them to. */
  private boundEndpoints(): { model: readonly Endpoint[]; mcp: readonly Endpoint[] } {
    this.bound ??= boundEndpoints(this.planRecords().values());
    return this.bound;
  }

  /** What every injection decision of this namespace reads (README, Forward): prepared once per change. */
  plan(): InjectionPlan {
    this.injection ??= { policy: this.effect.plan, records: this.planRecords(), bound: this.boundEndpoints() };
    return this.injection;
  }

  /** Every record by placeholder, in name order (the last of a name's wins, as in any map of them). */
  private planRecords(): ReadonlyMap<string, PlanRecord> {
    this.placeholders ??= new Map(this.all().map((r) => [r.placeholder, planRecord(r, this.effect.known)]));
    return this.placeholders;
  }

  /** A record's change, in the provider index: out of its old list, into its new one where its name goes. */
  private indexModel(before: StoredRecord | undefined, r: StoredRecord) {
    const models = this.models!;
    const was = modelKeyOf(before);
    if (was !== null) {
      const list = models.get(was)!.filter((m) => m.name !== r.name);
      if (list.length) models.set(was, list);
      else models.delete(was);
    }
    const is = modelKeyOf(r);
    if (is !== null) {
      const list = models.get(is) ?? [];
      models.set(is, insertedAt(list, lowerBound(list, r.name, nameOf), r));
    }
  }

  private derive() {
    this.effect = inEffect(this.accepted, this.builtin, this.meta.registered);
    this.injection = null;
  }
}
