// The namespaces store and its meta (README, Scrub state): the only code that opens a transaction
// on `namespaces`, besides the other stores' writes, which move a namespace's revision through
// `bump` in their own transaction. Every write of a namespace moves its `rev` by one, so a document
// keeping the namespace in memory (namespace-state.ts) sees at once whether a notice follows the
// state it has or one was missed. `load` reads a whole namespace in one transaction.
import type { IDBPTransaction } from 'idb';
import type { AuditEntry } from '../contract.ts';
import { emptyMeta, type NamespaceMeta, type StoredAudit, type StoredRecord, type VaultDb, type VaultSchema } from './schema.ts';
import type { StoredPolicy } from '../policy/accepted.ts';
import { AUDIT_TRIM_EVERY, AUDIT_TRIM_MAX, MAX_AUDIT_ENTRIES } from '../limits.ts';
import { type Registered, count, emptyRegistered, mergeRegistered, removeRegistered, scrubbedRegistered } from '../inject/registered.ts';
import { type StoredRequest, oldestFirst } from './requests.ts';

/** The newest audit entries a document keeps per namespace: the first `audit` page. */
export const AUDIT_PAGE = 100;

type AnyWriteTx = IDBPTransaction<VaultSchema, any, 'readwrite'>;

/**
 * What one write transaction changed in a namespace, as it committed: `rev` is the namespace's
 * revision after it. Never a value: records carry their ciphertext only.
 */
export interface Delta {
  namespace: string;
  rev: number;
  meta: NamespaceMeta;
  records?: StoredRecord[];
  requests?: StoredRequest[];
  /** Ids of requests deleted (the oldest ended ones beyond the limit). */
  dropped?: string[];
  policy?: StoredPolicy;
  /** New audit entries, oldest first. */
  audit?: AuditEntry[];
}

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

/** Records a summary reads to look for a secret not removed. */
const SUMMARY_RECORDS = 16;

/** The revision a meta holds (0 before the first write that counted them). */
export const revOf = (meta: NamespaceMeta) => meta.rev ?? 0;

/**
 * Moves the namespace's revision (and, when its set of values changed, its scrub version) inside
 * a write transaction that includes `namespaces`; answers the meta written.
 */
export async function bump(tx: AnyWriteTx, namespace: string, change: { values?: boolean; meta?: Partial<NamespaceMeta> } = {}): Promise<NamespaceMeta> {
  const store = tx.objectStore('namespaces');
  const meta: NamespaceMeta = (await store.get(namespace)) ?? emptyMeta(namespace);
  const next: NamespaceMeta = { ...meta, ...change.meta, rev: revOf(meta) + 1, scrubVersion: meta.scrubVersion + (change.values ? 1 : 0) };
  await store.put(next);
  return next;
}

/**
 * Adds an audit entry inside a transaction that includes `audit`; answers it with its seq. Every
 * AUDIT_TRIM_EVERY-th entry of the vault also trims its namespace's oldest (README, Limits).
 */
export async function addAudit(
  tx: AnyWriteTx,
  namespace: string,
  at: number,
  entry: { type: AuditEntry['type'] } & Record<string, unknown>,
): Promise<AuditEntry> {
  const seq = (await tx.objectStore('audit').add({ namespace, at, ...entry } as unknown as StoredAudit)) as number;
  if (seq % AUDIT_TRIM_EVERY === 0) await trimAudit(tx, namespace);
  return { seq, at, ...entry } as unknown as AuditEntry;
}

/** Deletes the namespace's oldest audit entries past `keep`, at most `max` of them; answers how many. */
export async function trimAudit(tx: AnyWriteTx, namespace: string, keep = MAX_AUDIT_ENTRIES, max = AUDIT_TRIM_MAX): Promise<number> {
  const index = (tx as IDBPTransaction<VaultSchema, ['audit'], 'readwrite'>).objectStore('audit').index('byNamespace');
  const range = IDBKeyRange.bound([namespace, -Infinity], [namespace, Infinity]);
  // Seqs are unique: a namespace whose oldest and newest are fewer than `keep` apart can't hold more
  // (two key reads, where counting reads every entry).
  const [oldest, newest] = await Promise.all([index.openKeyCursor(range), index.openKeyCursor(range, 'prev')]);
  if (!oldest || !newest || (newest.key[1] as number) - (oldest.key[1] as number) < keep) return 0;
  const excess = Math.min(max, (await index.count(range)) - keep);
  let deleted = 0;
  for (let cursor = excess > 0 ? await index.openCursor(range) : null; cursor && deleted < excess; cursor = await cursor.continue()) {
    await cursor.delete();
    deleted++;
  }
  return deleted;
}

export class Namespaces {
  constructor(private readonly db: VaultDb) {}

  /** The whole namespace in one read: meta, records, accepted policy, requests, newest audit page. */
  async load(namespace: string): Promise<LoadedNamespace> {
    const tx = this.db.transaction(['records', 'namespaces', 'policy', 'requests', 'audit']);
    const range = IDBKeyRange.bound([namespace, -Infinity], [namespace, Infinity]);
    // The newest page in three reads rather than a cursor step per entry (a frame's boot waited on
    // 101 of them): the key a page back from the newest, then every entry from it on.
    const newest = async () => {
      const index = tx.objectStore('audit').index('byNamespace');
      const newestKey = await index.openKeyCursor(range, 'prev');
      const pageBack = newestKey && (await newestKey.advance(AUDIT_PAGE));
      const entries = await index.getAll(pageBack ? IDBKeyRange.bound(pageBack.key, [namespace, Infinity]) : range);
      const audit = entries
        .reverse()
        .slice(0, AUDIT_PAGE)
        .map(({ namespace: _, ...entry }) => entry as AuditEntry);
      return { audit, more: entries.length > AUDIT_PAGE };
    };
    const [records, meta, stored, requests, page] = await Promise.all([
      tx.objectStore('records').index('byNamespace').getAll(namespace),
      tx.objectStore('namespaces').get(namespace),
      tx.objectStore('policy').get(namespace),
      tx.objectStore('requests').index('byNamespace').getAll(namespace),
      newest(),
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
    const meta = await bump(tx, namespace, { meta: { reminderDismissed: true } });
    await tx.done;
    return { namespace, rev: revOf(meta), meta };
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
      const entry = await addAudit(tx, namespace, at, { type: 'endpoints', change: 'added', ...scrubbedRegistered(merged.added, shown) });
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
      if (count(removed) === 0) return { registered, delta: null };
      const next = await bump(tx, namespace, { meta: { registered } });
      const entry = await addAudit(tx, namespace, at, {
        type: 'endpoints',
        change: 'removed',
        ...(shown ? scrubbedRegistered(removed, shown) : emptyRegistered()),
      });
      return { registered, delta: { namespace, rev: revOf(next), meta: next, audit: [entry] } };
    });
  }
}

/** Runs a write's body; a throw aborts the transaction, else its result answers once it commits. */
async function settle<T>(tx: AnyWriteTx, body: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await body();
  } catch (error) {
    tx.abort();
    await tx.done.catch(() => {});
    throw error;
  }
  await tx.done;
  return result;
}
