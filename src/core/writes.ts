// What a vault document changes (README, Records; Policy; Model and MCP endpoints): each write is
// one store transaction, whose delta the served namespaces apply and send to the other documents.
// A write of a value needs the key, and checks in its transaction that the key is still the vault's.
import type { ExecKind, PolicyResult, SealFields } from '../contract.ts';
import type { RevealDraft } from '../exec/index.ts';
import { VaultError, einval } from '../errors.ts';
import { type Registered, emptyRegistered, scrubbedRegistered } from '../inject/index.ts';
import type { AutoLock, KeyRing } from '../lock/index.ts';
import { type Limits, checkAttestation } from '../policy/index.ts';
import {
  type Actor,
  type AuditDraft,
  type Change,
  type Decided,
  type Namespaces,
  type NewRequest,
  type PolicyStore,
  type RecordInput,
  type Records,
  type Requests,
  type Reveals,
  type RotationCheck,
  type StoredRequest,
  stateAt,
} from '../store/index.ts';
import { parsePolicyFileOffThread } from '../worker/index.ts';
import type { Reads } from './reads.ts';
import type { Served } from './served.ts';
import { backupReminderOf, stateOf } from './views.ts';
import { PURGE_AFTER_MS } from '../limits.ts';
import type { Scrubbers } from './scrubbers.ts';

/** A policy file as bios sent it: its attestation, unchecked, and the path it names. */
export interface GivenFile {
  path: unknown;
  attestation: unknown;
}

export interface WritesParts {
  served: Served;
  scrubbers: Scrubbers;
  reads: Reads;
  keys: KeyRing;
  autoLock: AutoLock;
  records: Records;
  requests: Requests;
  namespaces: Namespaces;
  policies: PolicyStore;
  reveals: Reveals;
  now: () => number;
}

/** How a write of a value goes: a rotation check, who caused it, and the pending requests it answers. */
export interface WriteHow {
  check?: RotationCheck;
  actor?: Actor;
  answers?: (pending: StoredRequest[]) => StoredRequest[];
}

export class Writes {
  constructor(private readonly parts: WritesParts) {}

  /** A value entered in Settings (`put`): creates the record or rotates it, answering its request. */
  async put(namespace: string, input: RecordInput, requestId?: string) {
    if (requestId === undefined) return this.write(namespace, input);
    const pendingValue = (r: StoredRequest) => r.id === requestId && r.kind === 'value';
    const request = (await this.parts.served.state(namespace)).requests.get(requestId);
    if (!request || !pendingValue(request) || stateAt(request, this.parts.now()) !== 'pending') {
      throw new VaultError('ENOENT', 'there is no pending value request with that id');
    }
    if (request.name !== input.name) throw einval(`that request asks for ${request.name}, not ${input.name}`);
    return this.write(namespace, input, {
      actor: { uid: request.uid, tag: request.tag },
      answers: (pending) => {
        const still = pending.find(pendingValue);
        if (!still) throw new VaultError('ENOENT', 'there is no pending value request with that id');
        return [still];
      },
    });
  }

  /**
   * A value from a sign-in or another device (`seal`): it answers the oldest pending request of its
   * kind and provider (an agent's `grant` only with an access token, a `secret` or `model`, never the
   * refresh token's `grant` record), and a sign-in's value answers the pending refresh of its name.
   */
  async seal(namespace: string, input: RecordInput & { source: SealFields['source'] }) {
    const [, provider] = /^(?:oauth|jerk):([^@]+)/.exec(input.source)!;
    const wanted = input.source.startsWith('oauth:') ? 'oauth' : 'jerk-seal';
    const token = input.kind === 'secret' || input.kind === 'model';
    return this.write(namespace, input, {
      answers: (pending) => {
        const asked = pending.find((r) => r.kind === wanted && r.provider === provider && (r.agent === undefined || token));
        const renewed = wanted === 'oauth' ? pending.filter((r) => r.kind === 'refresh' && r.name === input.name) : [];
        return [...(asked ? [asked] : []), ...renewed];
      },
    });
  }

  /** Writes a checked value; shared by `put`, `seal` and `/dev/sealed`'s `seal`. */
  async write(namespace: string, input: RecordInput, how: WriteHow = {}) {
    const { keys, served, records } = this.parts;
    const held = keys.current;
    if (!held && keys.keyLost) {
      throw new VaultError('EACCES', 'vault is locked: its key is gone (records exist but no key slot is left to open them); nothing is written');
    }
    if (!held) throw new VaultError('EACCES', 'vault is locked: unlock it to add or change a value');
    const state = await served.state(namespace);
    const text = await this.parts.reads.auditText(namespace);
    let written: Awaited<ReturnType<Records['write']>>;
    try {
      written = await records.write(namespace, held, input, { ...how, existing: state.records.get(input.name) ?? null, meta: state.meta, text });
    } catch (error) {
      // The vault's key changed under this document (README, Key store and lock): it drops its own.
      if (error instanceof VaultError && error.code === 'EACCES') await keys.recheck();
      throw error;
    }
    const before = state.meta.scrubVersion;
    await served.commit(written.delta, ['values', 'audit', 'status']);
    // The scrub version this write's own transaction made, if it changed the values.
    if (written.delta?.meta.scrubVersion === before + 1)
      this.parts.scrubbers.wrote(namespace, { name: input.name, placeholder: written.record.placeholder, value: input.value }, before + 1);
    return { placeholder: written.record.placeholder, state: stateOf(written.record, state.effect.policy) };
  }

  async remove(namespace: string, name: string) {
    const { delta } = await this.parts.records.remove(namespace, name, {}, await this.parts.reads.auditText(namespace));
    await this.parts.served.commit(delta, ['values', 'audit', 'status']);
    return { state: 'removed' as const };
  }

  async restore(namespace: string, name: string) {
    const { record, delta } = await this.parts.records.restore(namespace, name, {}, await this.parts.reads.auditText(namespace));
    await this.parts.served.commit(delta, ['values', 'audit', 'status']);
    return { state: stateOf(record, (await this.parts.served.state(namespace)).effect.policy) };
  }

  /** Ends a pending request (the page's `cancel`, or /dev/sealed's for its own requests). */
  async cancel(namespace: string, id: string) {
    const request = await this.parts.reads.requestOf(namespace, id);
    const { state, delta } = await this.parts.requests.end(request.id, 'cancelled');
    await this.parts.served.commit(delta, ['status']);
    return { state };
  }

  /** Makes a request and has `waiting` follow it, until it expires. */
  async request(namespace: string, fields: NewRequest) {
    const { request, delta } = await this.parts.requests.make(namespace, fields);
    await this.parts.served.commit(delta, ['status']);
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

  async dismissBackupReminder(namespace: string) {
    const delta = await this.parts.namespaces.dismissReminder(namespace);
    await this.parts.served.commit(delta, ['status']);
    const state = await this.parts.served.state(namespace);
    return { backupReminder: backupReminderOf({ records: state.all(), meta: state.meta }) };
  }

  /** Drops the key in every vault document when a lock is set; without a lock it does nothing. */
  async lock(): Promise<void> {
    await this.parts.keys.lock();
  }

  /** Deletes records removed 30 days ago, and requests that expired as long ago. */
  async purge(): Promise<void> {
    const requests = await this.parts.requests.purge(PURGE_AFTER_MS);
    const records = await this.parts.records.purge((namespace) => this.parts.reads.compiledText(namespace));
    for (const namespace of new Set([...requests, ...records])) {
      const changes: Change[] = records.includes(namespace) ? ['values', 'audit', 'status'] : ['status'];
      await this.parts.served.changedWithoutDelta(namespace, changes);
    }
  }

  /**
   * Records a use of values (`forward`): `usedAt` and the audit entries, then `changed`. A kernel
   * program's use never keeps the vault open (README, Key store and lock: auto-lock).
   */
  async used(namespace: string, ids: string[], entries: AuditDraft[]): Promise<void> {
    const text = await this.parts.reads.auditText(namespace);
    await this.parts.served.commit(await this.parts.records.use(namespace, ids, entries, text), ['audit']);
  }

  /**
   * The person acted through the page (a value entered, sealed, removed, restored, a request
   * answered or cancelled): auto-lock's idle time starts again. Kernel programs and the agent are
   * assumed hostile and never keep the vault open.
   */
  async personActed(): Promise<void> {
    await this.parts.autoLock.used();
  }

  /** The agent's model requests: each use audited, at most one entry a record a minute (README, Model and MCP endpoints). */
  async modelUsed(namespace: string, uses: { id: string; entry: AuditDraft & { type: 'model' } }[]): Promise<void> {
    const text = await this.parts.reads.auditText(namespace);
    await this.parts.served.commit(await this.parts.records.modelUse(namespace, uses, text), ['audit']);
  }

  /** The agent's `grant`: a sign-in for the person, pending until the page seals its access token (README, The agent's ops). */
  async grant(namespace: string, agent: string, fields: { provider: string; scopes?: string[]; account?: string }) {
    const request = await this.request(namespace, { kind: 'oauth', agent, ...fields });
    return { request: request.id };
  }

  /**
   * Asks the page to renew a sign-in's value (the agent's `refresh`, or a forward of an expired
   * one): a pending `refresh` request (the same one while one is pending), and the `refresh` event
   * when the request's transaction says so: once when it is made, then at most once a minute
   * however often and from however many documents it is asked for.
   */
  async refresh(namespace: string, name: string, provider: string, agent: string): Promise<{ request: string }> {
    const { request, delta, ask } = await this.parts.requests.make(namespace, { kind: 'refresh', name, provider, agent });
    await this.parts.served.commit(delta, ['status']);
    if (ask) await this.parts.served.ask(namespace, { name, provider, request: request.id });
    return { request: request.id };
  }

  /** A forward met an expired value: a sign-in's is asked to be renewed. */
  async expired(namespace: string, name: string): Promise<void> {
    const record = (await this.parts.served.state(namespace)).records.get(name);
    const provider = record?.source.startsWith('oauth:') ? record.source.slice('oauth:'.length) : null;
    if (provider) await this.refresh(namespace, name, provider, 'forward');
  }

  /**
   * A reveal to the kernel's exec (README, Exec): counted against the namespace's rates, audited
   * and its records marked used, in one transaction; past a rate, the refusal is audited instead.
   * Null, with nothing written, when what it was decided on has changed since.
   */
  async reveal(namespace: string, kind: ExecKind, limits: Limits, ids: string[], entries: (refused: string | null) => RevealDraft[], decided: Decided) {
    const text = await this.parts.reads.auditText(namespace);
    const done = await this.parts.reveals.reveal(namespace, kind, limits, ids, entries, decided, text);
    if (!done) return null;
    await this.parts.served.commit(done.delta, ['audit']);
    return { refused: done.refused };
  }

  /** An exec refused before the rates: its audit entries. */
  async refusedReveal(namespace: string, entries: RevealDraft[]): Promise<void> {
    const text = await this.parts.reads.auditText(namespace);
    await this.parts.served.commit(await this.parts.reveals.refused(namespace, entries, text), ['audit']);
  }

  /**
   * The agent's `endpoints`: registers model base URLs and MCP servers; they only ever add. What is
   * new is audited (`endpoints`, `added`) in the same transaction, its agent strings scrubbed.
   */
  async registerEndpoints(namespace: string, wanted: Registered) {
    // The audit entry keeps the agent's strings: scrubbed with every value stored, this instant's too.
    await this.parts.served.fresh(namespace);
    const { scrubber } = await this.parts.reads.scrubber(namespace);
    const delta = await this.parts.namespaces.register(namespace, wanted, (text) => scrubber.redact(text).text, this.parts.now());
    await this.parts.served.commit(delta, ['audit']);
    return { ok: true as const };
  }

  /**
   * The page's `unregister`: removes registrations (model base URLs, MCP servers by URL), audits
   * what went (`endpoints`, `removed`) and pushes `changed`, so the policy in effect is read anew.
   */
  async unregister(namespace: string, gone: { model: string[]; mcp: string[] }): Promise<{ registered: Registered }> {
    await this.parts.served.fresh(namespace);
    const shown = await this.parts.reads.registeredScrub(namespace);
    const { registered, delta } = await this.parts.namespaces.unregister(namespace, gone, shown, this.parts.now());
    await this.parts.served.commit(delta, ['audit']);
    return { registered: shown ? scrubbedRegistered(registered, shown) : emptyRegistered() };
  }

  /** The kernel's attested policy files (`policy`): checked, then merged in one transaction. */
  async applyPolicy(namespace: string, files: GivenFile[]): Promise<PolicyResult> {
    const verdicts = await Promise.all(
      files.map(async ({ path, attestation }) => ({ given: path, verdict: await checkAttestation(attestation, parsePolicyFileOffThread) })),
    );
    const text = await this.parts.reads.auditText(namespace);
    const { merged, delta } = await this.parts.policies.apply(namespace, verdicts, parsePolicyFileOffThread, text);
    await this.parts.served.commit(delta, merged.changed || merged.audit.length > 0 ? ['audit'] : []);
    const { config } = (await this.parts.served.state(namespace)).effect.policy;
    return {
      accepted: merged.files.every((f) => f.accepted),
      files: merged.files,
      rules: (config?.rules ?? []).map((r) => ({ ...r, methods: [...r.methods], paths: [...r.paths] })),
      warnings: merged.files.flatMap((f) => f.warnings),
    };
  }
}
