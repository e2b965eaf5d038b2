// The audit log (README, Records: audit): store `audit`, auto-increment `seq`, per namespace, never
// a value. Entries are added inside the write transaction they record; the newest 10,000 per
// namespace are kept (README, Limits).
import type { IDBPIndex, IDBPTransaction, StoreNames } from 'idb';
import type { AuditEntry, AuditPage } from '../contract.ts';
import { AUDIT_TRIM_EVERY, AUDIT_TRIM_MAX, MAX_AUDIT_ENTRIES } from '../limits.ts';
import type { StoredAudit, VaultDb, VaultSchema, WriteTx } from './schema.ts';

/** The newest audit entries a document keeps per namespace: the first `audit` page. */
export const AUDIT_PAGE = 100;

/** An entry as a write drafts it: its type and fields, without `seq` and `at`. */
export type AuditDraft = { type: AuditEntry['type'] } & Record<string, unknown>;

const namespaceRange = (namespace: string) => IDBKeyRange.bound([namespace, -Infinity], [namespace, Infinity]);

/**
 * Adds an audit entry inside a transaction that includes `audit`; answers it with its seq. Every
 * AUDIT_TRIM_EVERY-th entry of the vault also trims its namespace's oldest (README, Limits).
 */
export async function addAudit(tx: WriteTx, namespace: string, at: number, entry: AuditDraft): Promise<AuditEntry> {
  const seq = (await tx.objectStore('audit').add({ namespace, at, ...entry } as unknown as StoredAudit)) as number;
  if (seq % AUDIT_TRIM_EVERY === 0) await trimAudit(tx, namespace);
  return { seq, at, ...entry } as unknown as AuditEntry;
}

/** Deletes the namespace's oldest audit entries past `keep`, at most `max` of them; answers how many. */
export async function trimAudit(tx: WriteTx, namespace: string, keep = MAX_AUDIT_ENTRIES, max = AUDIT_TRIM_MAX): Promise<number> {
  const index = (tx as IDBPTransaction<VaultSchema, ['audit'], 'readwrite'>).objectStore('audit').index('byNamespace');
  const range = namespaceRange(namespace);
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

type AuditIndex = IDBPIndex<VaultSchema, ArrayLike<StoreNames<VaultSchema>>, 'audit', 'byNamespace', IDBTransactionMode>;

/**
 * The newest page of a namespace's audit, from the audit index of a read transaction, in three
 * reads rather than a cursor step per entry (a frame's boot waited on 101 of them): the key a
 * page back from the newest, then every entry from it on.
 */
export async function newestAudit(index: AuditIndex, namespace: string): Promise<{ audit: AuditEntry[]; more: boolean }> {
  const range = namespaceRange(namespace);
  const newestKey = await index.openKeyCursor(range, 'prev');
  const pageBack = newestKey && (await newestKey.advance(AUDIT_PAGE));
  const entries = await index.getAll(pageBack ? IDBKeyRange.bound(pageBack.key, [namespace, Infinity]) : range);
  const audit = entries
    .reverse()
    .slice(0, AUDIT_PAGE)
    .map(({ namespace: _, ...entry }) => entry as AuditEntry);
  return { audit, more: entries.length > AUDIT_PAGE };
}

/** Audit entries newest first, from the store; pass `next` as `before` for the next page. */
export async function auditPage(db: VaultDb, namespace: string, before?: number, limit = AUDIT_PAGE): Promise<AuditPage> {
  const range = IDBKeyRange.bound([namespace, -Infinity], [namespace, before ?? Infinity], false, before !== undefined);
  const audit: AuditEntry[] = [];
  let more = false;
  for await (const cursor of db.transaction('audit').store.index('byNamespace').iterate(range, 'prev')) {
    if (audit.length === limit) {
      more = true;
      break;
    }
    const { namespace: _, ...entry } = cursor.value;
    audit.push(entry as AuditEntry);
  }
  return more ? { audit, more, next: audit[audit.length - 1]!.seq } : { audit, more };
}
