// A namespace's meta and its revision (README, Scrub state): every write transaction of a
// namespace moves its `rev` by one, so a document keeping the namespace in memory sees at once
// whether a notice follows the state it has or one was missed. Every store's write moves it here.
import type { AuditEntry } from '../contract.ts';
import type { NamespaceMeta, StoredPolicy, StoredRecord, StoredRequest, WriteTx } from './schema.ts';

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

export function emptyMeta(namespace: string): NamespaceMeta {
  return { namespace, scrubVersion: 0, exportedAt: null, reminderDismissed: false };
}

/** The revision a meta holds (0 before the first write that counted them). */
export const revOf = (meta: NamespaceMeta) => meta.rev ?? 0;

/** How a write changes the meta besides its revision. */
export interface MetaChange {
  /** The namespace's set of values changed: its scrub version moves too. */
  values?: boolean;
  /** The bytes of its values now, when known; `null` forgets them, to be counted at the next write. */
  valueBytes?: number | null;
  /** The records it holds now, when known; `null` forgets them, to be counted at the next write. */
  recordCount?: number | null;
  meta?: Partial<NamespaceMeta>;
}

/** The meta after a write. */
export function bumped(meta: NamespaceMeta | undefined, namespace: string, change: MetaChange = {}): NamespaceMeta {
  const before = meta ?? emptyMeta(namespace);
  const next: NamespaceMeta = { ...before, ...change.meta, rev: revOf(before) + 1, scrubVersion: before.scrubVersion + (change.values ? 1 : 0) };
  if (change.valueBytes === null) delete next.valueBytes;
  else if (change.valueBytes !== undefined) next.valueBytes = change.valueBytes;
  if (change.recordCount === null) delete next.recordCount;
  else if (change.recordCount !== undefined) next.recordCount = change.recordCount;
  return next;
}

/** Moves the namespace's revision inside a write transaction that includes `namespaces`; answers the meta written. */
export async function bump(tx: WriteTx, namespace: string, change: MetaChange = {}): Promise<NamespaceMeta> {
  const store = tx.objectStore('namespaces');
  const next = bumped(await store.get(namespace), namespace, change);
  await store.put(next);
  return next;
}

/** The delta of a write that changed only the meta (and these parts). */
export const deltaOf = (meta: NamespaceMeta, parts: Omit<Delta, 'namespace' | 'rev' | 'meta'> = {}): Delta => ({
  namespace: meta.namespace,
  rev: revOf(meta),
  meta,
  ...parts,
});

/** Runs a write's body; a throw aborts the transaction, else its result answers once it commits. */
export async function settle<T>(tx: WriteTx, body: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await body();
  } catch (error) {
    abort(tx);
    await tx.done.catch(() => {});
    throw error;
  }
  await tx.done;
  return result;
}

/** Aborts a transaction that may already have finished. */
export function abort(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // it had already finished or aborted
  }
}
