// The audit log (README, Records: audit): store `audit`, auto-increment `seq`, per namespace, never
// a value. Entries are added inside the write transaction they record; the newest 10,000 per
// namespace are kept (README, Limits).
import type { IDBPIndex, IDBPTransaction, StoreNames } from 'idb';
import type { AuditEntry, AuditPage } from '../contract.ts';
import { AUDIT_PAGE, AUDIT_TRIM_EVERY, AUDIT_TRIM_MAX, MAX_AUDIT_ENTRIES, MIN_VALUE_BYTES, utf8Length } from '../limits.ts';
import type { StoredAudit, VaultDb, VaultSchema, WriteTx } from './schema.ts';

/** An entry as a write drafts it: its type and fields, without `seq` and `at`. */
export type AuditDraft = { type: AuditEntry['type'] } & Record<string, unknown>;

/**
 * How an entry's text is made safe to store (README, Records: audit): the namespace's scrubber,
 * or null when the document has none (locked since it opened), and then that text is withheld.
 */
export type AuditText = ((text: string) => string) | null;

/** What stands for a text withheld because the document couldn't scrub it. */
export const WITHHELD = '[withheld]';

/** Fields, at any depth, whose strings are the vault's own words or digests, never another's text. */
const VAULT_FIELDS: ReadonlySet<string> = new Set(['type', 'exec', 'kind', 'what', 'change', 'sha256']);
/** Entries the vault writes of itself, holding only counts and its own words. */
const VAULT_ENTRIES: ReadonlySet<AuditEntry['type']> = new Set(['export', 'import']);

/**
 * The entry with every string a program, the agent, a URL, a file or a name-giver supplied (a
 * tag, a name, a variable, argv, a path, a domain, a server, a rule, a reason quoting them)
 * passed through `text`, at any depth. Without a scrubber, each is withheld, but one shorter
 * than a value can be (MIN_VALUE_BYTES), which can hold none, and an accepted policy file's.
 */
export function scrubAudit(entry: AuditDraft, text: AuditText): AuditDraft {
  if (VAULT_ENTRIES.has(entry.type)) return entry;
  // An accepted policy file is root-owned and attested (README, Policy): without a scrubber its
  // changes are kept as read, so a locked vault's audit still says what the policy became.
  if (!text && entry.type === 'policy' && entry.accepted === true) return entry;
  const scrub = (s: string) => (text ? text(s) : utf8Length(s) < MIN_VALUE_BYTES ? s : WITHHELD);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, field]) => [k, VAULT_FIELDS.has(k) ? field : walk(field)]));
    }
    return v;
  };
  return walk(entry) as AuditDraft;
}

const namespaceRange = (namespace: string) => IDBKeyRange.bound([namespace, -Infinity], [namespace, Infinity]);

/**
 * Adds an audit entry inside a transaction that includes `audit`, its text scrubbed with `text`
 * (scrubAudit); answers it with its seq. Every AUDIT_TRIM_EVERY-th entry of the vault also trims
 * its namespace's oldest (README, Limits).
 */
export async function addAudit(tx: WriteTx, namespace: string, at: number, draft: AuditDraft, text: AuditText): Promise<AuditEntry> {
  const entry = scrubAudit(draft, text);
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
