// The namespaces store and its meta (README, Scrub state): the only code that opens a transaction
// on `namespaces`, besides the other stores' writes, which move a namespace's revision through
// `bump` in their own transaction. Every write of a namespace moves its `rev` by one, so a document
// keeping the namespace in memory (namespace-state.ts) sees at once whether a notice follows the
// state it has or one was missed. `load` reads a whole namespace in one transaction.
import type { AuditEntry } from '../contract.ts';
import { type Registered, emptyRegistered, mergeRegistered, registeredCount, removeRegistered, scrubbedRegistered } from '../inject/index.ts';
import { addAudit, newestAudit } from './audit.ts';
import { type Delta, bump, deltaOf, emptyMeta, revOf, settle } from './meta.ts';
import { oldestFirst } from './requests.ts';
import type { NamespaceMeta, StoredPolicy, StoredRecord, StoredRequest, VaultDb } from './schema.ts';
import { SUMMARY_RECORDS } from '../limits.ts';

/** A namespace as one transaction read it. */
export interface LoadedNamespace {
  meta: NamespaceMeta;
  records: StoredRecord[];
  stored: StoredPolicy | undefined;
  requests: StoredRequest[];
  /** The newest audit entries, newest first, at most AUDIT_PAGE. */
  audit: AuditEntry[];
  auditMore: boolean;
}

/**
 * What a namespace's status needs, in one small read (README, Scrub state): `welcome` goes out
 * from it while the whole namespace is still being read.
 */
export interface NamespaceSummary {
  meta: NamespaceMeta;
  stored: StoredPolicy | undefined;
  requests: StoredRequest[];
  /** Whether it holds any record, of any kind or state. */
  anyRecord: boolean;
  /** Whether it holds a secret not removed; null when the first records read didn't tell. */
  liveSecret: boolean | null;
}

export class Namespaces {
  constructor(private readonly db: VaultDb) {}

  /** The whole namespace in one read: meta, records, accepted policy, requests, newest audit page. */
  async load(namespace: string): Promise<LoadedNamespace> {
    const tx = this.db.transaction(['records', 'namespaces', 'policy', 'requests', 'audit']);
    const [records, meta, stored, requests, page] = await Promise.all([
      tx.objectStore('records').index('byNamespace').getAll(namespace),
      tx.objectStore('namespaces').get(namespace),
      tx.objectStore('policy').get(namespace),
      tx.objectStore('requests').index('byNamespace').getAll(namespace),
      newestAudit(tx.objectStore('audit').index('byNamespace'), namespace),
    ]);
    return { meta: meta ?? emptyMeta(namespace), records, stored, requests, audit: page.audit, auditMore: page.more };
  }

  /** The namespace's summary: its row, policy and requests, a count and a few records. */
  async summary(namespace: string): Promise<NamespaceSummary> {
    const tx = this.db.transaction(['records', 'namespaces', 'policy', 'requests']);
    const records = tx.objectStore('records').index('byNamespace');
    const [meta, stored, requests, total, first] = await Promise.all([
      tx.objectStore('namespaces').get(namespace),
      tx.objectStore('policy').get(namespace),
      tx.objectStore('requests').index('byNamespace').getAll(namespace),
      records.count(namespace),
      records.getAll(namespace, SUMMARY_RECORDS),
    ]);
    const live = first.some((r) => r.kind === 'secret' && r.removedAt === undefined);
    return {
      meta: meta ?? emptyMeta(namespace),
      stored,
      requests: requests.sort(oldestFirst),
      anyRecord: total > 0,
      liveSecret: live || total <= first.length ? live : null,
    };
  }

  /** The namespace's stored revision: one small read. */
  async rev(namespace: string): Promise<number> {
    const meta = await this.db.get('namespaces', namespace);
    return meta ? revOf(meta) : 0;
  }

  /** The backup reminder dismissed, in one transaction. */
  async dismissReminder(namespace: string): Promise<Delta> {
    const tx = this.db.transaction('namespaces', 'readwrite');
    return settle(tx, async () => deltaOf(await bump(tx, namespace, { meta: { reminderDismissed: true } })));
  }

  /**
   * Adds registered endpoints (they only ever add), with an `endpoints` audit entry of what was new
   * (`shown` scrubs the agent's strings) in the same transaction; `null` when nothing was new.
   * EINVAL past the limit, and nothing changes.
   */
  async register(namespace: string, wanted: Registered, shown: (text: string) => string, at: number): Promise<Delta | null> {
    const tx = this.db.transaction(['namespaces', 'audit'], 'readwrite');
    return settle(tx, async () => {
      const meta = (await tx.objectStore('namespaces').get(namespace)) ?? emptyMeta(namespace);
      const merged = mergeRegistered(meta.registered ?? emptyRegistered(), wanted);
      if (!merged.changed) return null;
      const next = await bump(tx, namespace, { meta: { registered: merged.registered } });
      const entry = await addAudit(tx, namespace, at, { type: 'endpoints', change: 'added', ...scrubbedRegistered(merged.added, shown) }, shown);
      return { namespace, rev: revOf(next), meta: next, audit: [entry] };
    });
  }

  /**
   * Removes registrations named as stored or as shown (`unregister`), with an `endpoints` audit
   * entry of what went; `shown` is null before the first unlock, and then nothing is shown.
   */
  async unregister(
    namespace: string,
    gone: { model: string[]; mcp: string[] },
    shown: ((text: string) => string) | null,
    at: number,
  ): Promise<{ registered: Registered; delta: Delta | null }> {
    const tx = this.db.transaction(['namespaces', 'audit'], 'readwrite');
    return settle(tx, async () => {
      const meta = (await tx.objectStore('namespaces').get(namespace)) ?? emptyMeta(namespace);
      const { registered, removed } = removeRegistered(meta.registered ?? emptyRegistered(), gone, shown ?? undefined);
      if (registeredCount(removed) === 0) return { registered, delta: null };
      const next = await bump(tx, namespace, { meta: { registered } });
      const entry = await addAudit(
        tx,
        namespace,
        at,
        {
          type: 'endpoints',
          change: 'removed',
          ...(shown ? scrubbedRegistered(removed, shown) : emptyRegistered()),
        },
        shown,
      );
      return { registered, delta: { namespace, rev: revOf(next), meta: next, audit: [entry] } };
    });
  }
}
