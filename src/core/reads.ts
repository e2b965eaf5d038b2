// What a vault document answers from memory (README, Scrub state): status, placeholders, list, the
// first audit page, the namespace's records, requests and policy in effect, the verdict of
// `/dev/sealed` `test`, and its compiled scrubber. Views carry placeholders, states and times
// only, never a value.
import pkg from '../../package.json' with { type: 'json' };
import type { AuditEntry, AuditPage, ExitPolicyView, PlaceholdersView, SecretView, VaultList, VaultStatus } from '../contract.ts';
import { VaultError, enoent } from '../errors.ts';
import { type InEffect, type InjectionPlan, type TestRequest, emptyRegistered, scrubbedRegistered, testVerdict } from '../inject/index.ts';
import type { KeyRing } from '../lock/index.ts';
import {
  type AuditText,
  type NamespaceMeta,
  type StoredPolicy,
  type StoredRecord,
  type StoredRequest,
  type VaultDb,
  auditPage,
  pendingOf,
  policyMark,
  stateAt,
} from '../store/index.ts';
import type { NamespaceState } from './namespace-state.ts';
import type { Compiled, Scrubbers } from './scrubbers.ts';
import type { Served } from './served.ts';
import { exitsView, reminderOf, scrubOf, scrubStateOf, secretView } from './views.ts';
import { AUDIT_PAGE } from '../limits.ts';

/** The vault's version: package.json's, the one definition of it. */
export const VAULT_VERSION: string = pkg.version;

export interface ReadsParts {
  db: VaultDb;
  served: Served;
  keys: KeyRing;
  scrubbers: Scrubbers;
  now: () => number;
}

export class Reads {
  constructor(private readonly parts: ReadsParts) {}

  get locked(): boolean {
    return this.parts.keys.key === null;
  }

  now(): number {
    return this.parts.now();
  }

  /** Brings the namespace in memory up to the stored revision (one small read). */
  fresh(namespace: string): Promise<void> {
    return this.parts.served.fresh(namespace);
  }

  async status(namespace: string): Promise<VaultStatus> {
    return this.statusNow(namespace) ?? this.statusIn(namespace, await this.parts.served.state(namespace));
  }

  /** `status` at once, once the namespace is in memory (undefined before). */
  statusNow(namespace: string): VaultStatus | undefined {
    const state = this.parts.served.loadedState(namespace);
    return state && this.statusIn(namespace, state);
  }

  private statusIn(namespace: string, state: NamespaceState): VaultStatus {
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
    const { served } = this.parts;
    // The read made as the vault opened serves the first hello, if it is that namespace's.
    const early = served.takeEarly(namespace);
    if (served.has(namespace)) {
      await served.serve(namespace);
      return this.status(namespace);
    }
    const summary = early ?? served.summaryOf(namespace);
    const serving = served.serve(namespace);
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
    const now = this.parts.now();
    const waiting = [];
    for (const r of of.requests) if (stateAt(r, now) === 'pending') waiting.push(pendingOf(r));
    return {
      version: VAULT_VERSION,
      protocol: 1,
      origin: namespace,
      locked: this.locked,
      lock: this.parts.served.lockState,
      keyLost: this.parts.keys.keyLost,
      scrub: scrubStateOf(of.anyRecord, of.meta, this.locked, this.parts.scrubbers.ready(namespace)),
      waiting,
      exportedAt: of.meta.exportedAt,
      backupReminder: reminderOf(of.meta, of.liveSecret),
      policy: of.stored?.files ?? [],
    };
  }

  async placeholders(namespace: string): Promise<PlaceholdersView> {
    const state = await this.parts.served.state(namespace);
    return {
      placeholders: [...state.livePlaceholders()],
      scrub: scrubOf({ records: state.all(), meta: state.meta }, this.locked, this.parts.scrubbers.ready(namespace)),
    };
  }

  async list(namespace: string): Promise<VaultList> {
    const state = await this.parts.served.state(namespace);
    const { secrets, exits } = overview(state);
    // Agent-chosen strings, scrubbed; before the first unlock there is no scrubber, and none are shown.
    const shown = await this.registeredScrub(namespace);
    const registered = shown ? scrubbedRegistered(state.meta.registered ?? emptyRegistered(), shown) : emptyRegistered();
    return { secrets, refused: state.effect.refused, audit: state.audit, auditMore: state.auditMore, exits, registered };
  }

  /** The `changed` event's fields: every record's view, the exits lines, the newest audit page. */
  async changed(namespace: string): Promise<{ secrets: SecretView[]; exits: ExitPolicyView; audit: AuditEntry[] }> {
    const state = await this.parts.served.state(namespace);
    return { ...overview(state), audit: state.audit };
  }

  /** An audit page: the first from memory, older ones from the audit store. */
  async audit(namespace: string, before?: number, limit = AUDIT_PAGE): Promise<AuditPage> {
    if (before === undefined && limit <= AUDIT_PAGE) {
      const state = await this.parts.served.state(namespace);
      const audit = state.audit.slice(0, limit);
      const more = state.audit.length > limit || state.auditMore;
      return more ? { audit, more, next: audit[audit.length - 1]!.seq } : { audit, more };
    }
    return auditPage(this.parts.db, namespace, before, limit);
  }

  /** The accepted policy in effect, the refused endpoints and the registered MCP servers. */
  async inEffect(namespace: string): Promise<InEffect> {
    return (await this.parts.served.state(namespace)).effect;
  }

  /** The namespace's record of that name, removed or not, from memory. */
  async record(namespace: string, name: string): Promise<StoredRecord | undefined> {
    return (await this.parts.served.state(namespace)).records.get(name);
  }

  /** Every record of the namespace, sorted by name, from memory. */
  async all(namespace: string): Promise<StoredRecord[]> {
    return (await this.parts.served.state(namespace)).all();
  }

  /** The namespace's injection plan, from memory: prepared once per change of its records, policy or registrations. */
  async plan(namespace: string): Promise<InjectionPlan> {
    return (await this.parts.served.state(namespace)).plan();
  }

  /** The namespace's live `model` records bound to `provider`, by name, from memory's provider index. */
  async modelRecords(namespace: string, provider: string): Promise<readonly StoredRecord[]> {
    return (await this.parts.served.state(namespace)).modelsFor(provider);
  }

  /** The namespace's accepted policy files in memory, as one string (`policyMark`). */
  async policyMark(namespace: string): Promise<string> {
    return policyMark((await this.parts.served.state(namespace)).stored);
  }

  /** The namespace's scrub version, from memory. */
  async scrubVersion(namespace: string): Promise<number> {
    return (await this.parts.served.state(namespace)).meta.scrubVersion;
  }

  /** The namespace's requests, oldest first, from memory. */
  async requestsOf(namespace: string): Promise<StoredRequest[]> {
    return [...(await this.parts.served.state(namespace)).requests.values()];
  }

  /** The namespace's request of that id, or ENOENT (also for another namespace's). */
  async requestOf(namespace: string, id: string): Promise<StoredRequest> {
    const request = (await this.parts.served.state(namespace)).requests.get(id);
    if (!request) throw enoent('there is no request with that id');
    return request;
  }

  /** /dev/sealed's `test`: the injector's verdict for `Bearer <placeholder>`, sending nothing. */
  async test(namespace: string, request: TestRequest) {
    const state = await this.parts.served.state(namespace);
    if (!state.records.has(request.name)) throw new VaultError('ENOENT', `there is no record named ${request.name}`);
    // The rules' decision over the plan, without values: nothing is filled in.
    return testVerdict(request, state.plan(), { locked: this.locked, now: this.parts.now() });
  }

  /** The newest compiled scrubber (compiling first when it can), if there is one. */
  async newestScrubber(namespace: string): Promise<Compiled | undefined> {
    const { scrubbers } = this.parts;
    return scrubbers.refresh(namespace).catch(() => scrubbers.get(namespace));
  }

  /** The namespace's scrubber, compiled if it can be; EACCES when locked before any compile. */
  async scrubber(namespace: string): Promise<Compiled> {
    const compiled = await this.parts.scrubbers.refresh(namespace);
    if (!compiled) throw new VaultError('EACCES', 'unlock the vault to continue');
    return compiled;
  }

  /**
   * How an audit entry's text is scrubbed before it is stored (store/audit.ts): with the newest
   * scrubber, or the last one beside the few values written since, else compiled first. Before this document's first compile, null
   * (the text is withheld), unless the namespace holds no value: then there is nothing to scrub.
   */
  async auditText(namespace: string): Promise<AuditText> {
    // The last compile and the few values written since, without waiting for the worker (a `put` after a `put`).
    const now = this.parts.scrubbers.textNow(namespace, (await this.parts.served.state(namespace)).meta.scrubVersion);
    if (now) return now;
    await this.newestScrubber(namespace);
    return this.compiledText(namespace) ?? ((await this.parts.served.state(namespace)).all().length === 0 ? (text) => text : null);
  }

  /** `auditText` as it is now, without a compile (for writes that span namespaces, as the purge). */
  compiledText(namespace: string): AuditText {
    const compiled = this.parts.scrubbers.get(namespace);
    return compiled ? (text) => compiled.scrubber.redact(text).text : null;
  }

  /**
   * The newest scrubber (compiled first when the values changed) as a string function, or null
   * before the first unlock (nothing agent-chosen is shown then).
   */
  async registeredScrub(namespace: string): Promise<((text: string) => string) | null> {
    const compiled = await this.newestScrubber(namespace);
    return compiled ? (text) => compiled.scrubber.redact(text).text : null;
  }
}

/** Every record's view and the exits lines. */
function overview(state: NamespaceState) {
  const { policy, known } = state.effect;
  return { secrets: state.all().map((r) => secretView(r, policy, known)), exits: exitsView(policy) };
}
