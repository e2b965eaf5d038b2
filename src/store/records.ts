// Records (README, Records): one per value, unique per (namespace, name), placeholders unique
// vault-wide. Every change of a namespace's set of values moves its scrub version, in the same
// transaction as the change and its audit entry, so two documents writing at once lose nothing.
import type { IDBPTransaction } from 'idb';
import type { AuditEntry, ImportSource, RecordKind, Source } from '../contract.ts';
import { VaultError, enoent } from '../errors.ts';
import { MAX_RECORDS, MAX_VALUE_TOTAL, MODEL_AUDIT_MS, PURGE_AFTER_MS, PURGE_BATCH, tooManyRecords, tooManyValueBytes } from '../limits.ts';
import { newPlaceholder } from '../validate.ts';
import { type AuditDraft, type AuditText, addAudit } from './audit.ts';
import { type Delta, abort, bump, bumped, deltaOf, emptyMeta, revOf, settle } from './meta.ts';
import { oldestFirst, stateAt } from './requests.ts';
import type { NamespaceMeta, StoredRecord, StoredRequest, VaultDb, VaultSchema, WriteTx } from './schema.ts';
import { type HeldKey, decryptValue, encryptValue, valueBytesOf } from './values.ts';

/** A value to store, already checked (validate.ts). */
export interface RecordInput {
  name: string;
  value: string;
  kind: RecordKind;
  source: Source;
  provider?: string;
  account?: string;
  expiresAt?: number;
  /** For a `process` value, the uid sealing it; a rotation keeps the uid that first sealed it. */
  uid?: number;
}
/** Who caused an audit entry, for `/dev/sealed` callers. */
export interface Actor {
  uid?: number;
  tag?: string;
}
/** Called with the record a write would rotate; throws to refuse the rotation. */
export type RotationCheck = (existing: StoredRecord) => void;

/** One record a confirmed restore writes (README, Backup and restore), with its value. */
/** A record as a preview read it: its revision and when it was last written. */
export interface Seen {
  revision: number;
  updatedAt: number;
}

/** A record's `Seen`, as read now. */
export const seenOf = (r: StoredRecord): Seen => ({ revision: r.revision ?? 0, updatedAt: r.updatedAt });

/** A record a restore's preview read and leaves as it is (unchanged, or not its kind): it too must not change before the write. */
export interface KeptRecord extends Seen {
  name: string;
  id: string;
}

export interface ImportWrite {
  name: string;
  kind: RecordKind;
  value: string;
  placeholder: string;
  /** The id of the record it replaces; absent for a new one. */
  replaces?: string;
  /** The replaced record as the preview read it: the write is refused if it changed since. */
  was?: Seen;
  createdAt?: number;
  removedAt?: number;
  expiresAt?: number;
  provider?: string;
  account?: string;
}

/** The uid a `process` value remembers: the one that sealed it first, kept when root rotates it. */
const sealer = (existing: StoredRecord | undefined, input: RecordInput) =>
  existing?.source === 'process' && existing.uid !== undefined ? existing.uid : input.uid;
/**
 * How a write goes: `existing` is the record as the caller last saw it (from memory; read here
 * when not given), `meta` its namespace's meta as seen beside it, `check` may refuse the rotation,
 * `answers` picks the pending request of the namespace the write answers (or throws), which ends
 * `done` in the same transaction; `text` scrubs its audit entry (withheld without it).
 */
export interface WriteOptions {
  existing?: StoredRecord | null;
  meta?: NamespaceMeta;
  check?: RotationCheck;
  actor?: Actor;
  answers?: (pending: StoredRequest[]) => StoredRequest[];
  text?: AuditText;
}

/**
 * The namespace's meta after writing `record` over `current`, from counters known to be right; null
 * past a limit of README, Limits (or when the counters aren't kept: the caller counts them).
 */
function within(before: NamespaceMeta, current: StoredRecord | undefined, record: StoredRecord): NamespaceMeta | null {
  const { valueBytes, recordCount } = before;
  if (valueBytes === undefined || recordCount === undefined) return null;
  const grown = valueBytesOf(record) - (current ? valueBytesOf(current) : 0);
  if ((!current && recordCount >= MAX_RECORDS) || valueBytes + grown > MAX_VALUE_TOTAL) return null;
  return bumped(before, before.namespace, { values: true, valueBytes: valueBytes + grown, recordCount: recordCount + (current ? 0 : 1) });
}

/** Two reads of a record are of the same version: same id and same revision. */
const sameVersion = (a: StoredRecord | undefined, b: StoredRecord | undefined) =>
  a?.id === b?.id && (a?.revision ?? 0) === (b?.revision ?? 0) && a?.updatedAt === b?.updatedAt;

/**
 * A seal's audit text: the value it writes isn't yet one the namespace's scrubber knows, so a text
 * holding it as it is (a tag, say) has it replaced by its placeholder first.
 */
const withOwnValue = (text: AuditText, value: string, placeholder: string): AuditText => text && ((s) => text(s.replaceAll(value, placeholder)));

export class Records {
  constructor(
    private readonly db: VaultDb,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Creates the record, or rotates it keeping its id and placeholder (and brings a removed one
   * back). Given a held key, the transaction also checks it is still the vault's (its check value
   * is the one stored), so nothing is ever written under a key the vault no longer has. The
   * record, its audit entry, the namespace's revision and the request it answers: one transaction.
   */
  async write(
    namespace: string,
    keyOrHeld: CryptoKey | HeldKey,
    input: RecordInput,
    options: WriteOptions = {},
  ): Promise<{ record: StoredRecord; rotated: boolean; delta: Delta }> {
    const key = keyOrHeld instanceof CryptoKey ? keyOrHeld : keyOrHeld.key;
    const checkId = keyOrHeld instanceof CryptoKey ? null : keyOrHeld.check;
    const { check, actor = {}, answers, text = null } = options;
    let seen = options.existing;
    let known = options.meta;
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = seen === undefined ? await this.get(namespace, input.name) : (seen ?? undefined);
      seen = undefined;
      if (existing) {
        if (existing.kind !== input.kind) {
          throw new VaultError('EEXIST', `${input.name} is already a ${existing.kind} record`);
        }
        check?.(existing);
      }
      const id = existing?.id ?? crypto.randomUUID();
      const placeholder = existing?.placeholder ?? newPlaceholder();
      const sealed = await encryptValue(key, input.value, { id, namespace, name: input.name });
      const now = this.now();
      const record: StoredRecord = {
        id,
        namespace,
        name: input.name,
        kind: input.kind,
        source: input.source,
        placeholder,
        ...sealed,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
        revision: (existing?.revision ?? 0) + 1,
        ...(existing?.usedAt !== undefined && { usedAt: existing.usedAt }),
        ...(input.expiresAt !== undefined && { expiresAt: input.expiresAt }),
        ...((input.provider ?? existing?.provider) !== undefined && { provider: input.provider ?? existing?.provider }),
        ...((input.account ?? existing?.account) !== undefined && { account: input.account ?? existing?.account }),
        ...(input.source === 'process' && sealer(existing, input) !== undefined && { uid: sealer(existing, input) }),
      };
      const tx = this.db.transaction(
        answers ? ['records', 'namespaces', 'audit', 'keys', 'requests'] : ['records', 'namespaces', 'audit', 'keys'],
        'readwrite',
      );
      const writeAll = (meta: NamespaceMeta, answered: StoredRequest[]) =>
        Promise.all([
          tx.objectStore('records').put(record),
          tx.objectStore('namespaces').put(meta),
          addAudit(
            tx,
            namespace,
            now,
            { type: 'seal', name: input.name, kind: input.kind, source: input.source, rotated: !!existing, ...actor },
            withOwnValue(text, input.value, placeholder),
          ),
          ...answered.map((r) => tx.objectStore('requests').put(r)),
        ]).then(([, , entry]) => entry);
      try {
        // Every read at once, then every write at once: a transaction's requests run in order
        // anyway, and each await would be a round trip to the browser's storage.
        const reading = Promise.all([
          checkId !== null ? tx.objectStore('keys').get('check') : null,
          tx.objectStore('records').index('byName').get([namespace, input.name]),
          tx.objectStore('namespaces').get(namespace),
          answers ? tx.objectStore('requests').index('byNamespace').getAll(namespace) : [],
        ]);
        // The caller's meta, if the reads find it still at its revision, is the stored one (every
        // write moves the revision): the writes computed from it go out with the reads, in one
        // round trip, and a check below that fails aborts them with the transaction.
        const ahead = !answers && known ? within(known, existing, record) : null;
        const early = ahead ? writeAll(ahead, []) : null;
        early?.catch(() => {});
        const [stored, current, metaBefore, requests] = await reading;
        if (checkId !== null && (stored?.slot !== 'check' || stored.id !== checkId)) throw keyChanged(tx);
        if (!sameVersion(current, existing) || (ahead && (!metaBefore || revOf(metaBefore) !== revOf(known!)))) {
          tx.abort(); // another document wrote it or its namespace meanwhile: read again
          await tx.done.catch(() => {});
          if (ahead) attempt--; // once at most: the next attempts read first
          seen = known = undefined;
          continue;
        }
        let meta = ahead;
        let answered: StoredRequest[] = [];
        if (!meta) {
          // The namespace's limits (README, Limits), checked where the write happens: past one, nothing changes.
          const valueBytes = metaBefore?.valueBytes ?? (await this.countValueBytes(tx, namespace));
          const recordCount = metaBefore?.recordCount ?? (await countRecords(tx, namespace));
          meta = within({ ...(metaBefore ?? emptyMeta(namespace)), valueBytes, recordCount }, current, record);
          if (!meta) throw !current && recordCount >= MAX_RECORDS ? tooManyRecords() : tooManyValueBytes();
          if (current?.usedAt !== undefined) record.usedAt = current.usedAt;
          const pending = requests.filter((r) => stateAt(r, now) === 'pending').sort(oldestFirst);
          answered = (answers?.(pending) ?? []).map((r) => ({ ...r, state: 'done' as const, placeholder, name: r.name ?? input.name }));
        }
        const entry = await (early ?? writeAll(meta, answered));
        await tx.done;
        const delta: Delta = { namespace, rev: revOf(meta), meta, records: [record], audit: [entry], ...(answered.length > 0 && { requests: answered }) };
        return { record, rotated: !!existing, delta };
      } catch (error) {
        abort(tx);
        await tx.done.catch(() => {});
        if ((error as DOMException)?.name === 'ConstraintError') continue; // a placeholder collided
        throw error;
      }
    }
    throw new VaultError('EAGAIN', `${input.name} is being changed by another vault document; try again`);
  }

  /** Sets `removedAt`; the record keeps its placeholder and is purged 30 days later. */
  async remove(namespace: string, name: string, actor: Actor = {}, text: AuditText = null): Promise<{ record: StoredRecord; delta: Delta | null }> {
    return this.change(namespace, name, actor, text, (record, now) => {
      if (record.removedAt !== undefined) return null;
      record.removedAt = now;
      return 'remove';
    });
  }

  async restore(namespace: string, name: string, actor: Actor = {}, text: AuditText = null): Promise<{ record: StoredRecord; delta: Delta | null }> {
    return this.change(namespace, name, actor, text, (record) => {
      if (record.removedAt === undefined) throw enoent(`there is no removed record named ${name}`);
      delete record.removedAt;
      return 'restore';
    });
  }

  /**
   * Deletes records removed 30 days ago or more; answers the namespaces whose values changed.
   * `text` answers each namespace's scrubber as it is now.
   */
  async purge(text: (namespace: string) => AuditText = () => null): Promise<string[]> {
    const now = this.now();
    const due = (r: StoredRecord | undefined): r is StoredRecord => r?.removedAt !== undefined && now - r.removedAt >= PURGE_AFTER_MS;
    // Looked for in read-only batches first: most purges find nothing, and a write transaction
    // over `records` holds up every read of it (a frame's first read of its namespace among them).
    const ids: string[] = [];
    for (let after: string | undefined; ; ) {
      const batch = await this.db.getAll('records', after === undefined ? undefined : IDBKeyRange.lowerBound(after, true), PURGE_BATCH);
      for (const r of batch) if (due(r)) ids.push(r.id);
      if (batch.length < PURGE_BATCH) break;
      after = batch[batch.length - 1]!.id;
    }
    if (ids.length === 0) return [];
    const tx = this.db.transaction(['records', 'namespaces', 'audit'], 'readwrite');
    const freed = new Map<string, { bytes: number; records: number }>();
    for (const id of ids) {
      const record = await tx.objectStore('records').get(id);
      if (!due(record)) continue; // restored meanwhile
      const { namespace, name } = record;
      const before = freed.get(namespace) ?? { bytes: 0, records: 0 };
      freed.set(namespace, { bytes: before.bytes + valueBytesOf(record), records: before.records + 1 });
      await tx.objectStore('records').delete(id);
      await addAudit(tx, namespace, now, { type: 'purge', name }, text(namespace));
    }
    const changed = new Set(freed.keys());
    for (const [namespace, { bytes, records }] of freed) {
      const meta = await tx.objectStore('namespaces').get(namespace);
      await bump(tx, namespace, {
        values: true,
        valueBytes: meta?.valueBytes === undefined ? null : meta.valueBytes - bytes,
        recordCount: meta?.recordCount === undefined ? null : meta.recordCount - records,
      });
    }
    await tx.done;
    return [...changed];
  }

  /** Marks records used (an injection) and audits the uses, scrubbed with `text`, in one transaction. */
  async use(namespace: string, ids: string[], entries: AuditDraft[], text: AuditText): Promise<Delta> {
    const now = this.now();
    const tx = this.db.transaction(['records', 'audit', 'namespaces'], 'readwrite');
    const records: StoredRecord[] = [];
    for (const id of ids) {
      const record = await tx.objectStore('records').get(id);
      if (record?.namespace !== namespace) continue;
      const used = { ...record, usedAt: now };
      records.push(used);
      await tx.objectStore('records').put(used);
    }
    const audit: AuditEntry[] = [];
    for (const entry of entries) audit.push(await addAudit(tx, namespace, now, entry, text));
    const meta = await bump(tx, namespace);
    await tx.done;
    return { namespace, rev: revOf(meta), meta, records, audit };
  }

  /**
   * Marks `model` records used by an agent's model request and audits each use, in one
   * transaction: a record's uses within a minute of its current `model` entry count in that entry
   * (`count`), so a busy agent adds one entry a record a minute (README, Model and MCP endpoints).
   */
  async modelUse(namespace: string, uses: { id: string; entry: AuditDraft & { type: 'model' } }[], text: AuditText): Promise<Delta> {
    const now = this.now();
    const tx = this.db.transaction(['records', 'audit', 'namespaces'], 'readwrite');
    return settle(tx, async () => {
      const records: StoredRecord[] = [];
      const audit: AuditEntry[] = [];
      for (const { id, entry } of uses) {
        const record = await tx.objectStore('records').get(id);
        if (record?.namespace !== namespace) continue;
        const current = record.modelAudit && now - record.modelAudit.at < MODEL_AUDIT_MS ? await tx.objectStore('audit').get(record.modelAudit.seq) : undefined;
        let written: AuditEntry;
        if (current && current.type === 'model' && current.namespace === namespace) {
          const counted = { ...current, count: current.count + 1 };
          await tx.objectStore('audit').put(counted);
          const { namespace: _, ...shown } = counted;
          written = shown;
        } else {
          written = await addAudit(tx, namespace, now, { ...entry, count: 1 }, text);
          record.modelAudit = { seq: written.seq, at: now };
        }
        audit.push(written);
        const used = { ...record, usedAt: now };
        records.push(used);
        await tx.objectStore('records').put(used);
      }
      return deltaOf(await bump(tx, namespace), { records, audit });
    });
  }

  get(namespace: string, name: string): Promise<StoredRecord | undefined> {
    return this.db.getFromIndex('records', 'byName', [namespace, name]);
  }

  /** Every record of the namespace, removed ones included, sorted by name. */
  async all(namespace: string): Promise<StoredRecord[]> {
    const records = await this.db.getAllFromIndex('records', 'byNamespace', namespace);
    return records.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Every value of the namespace (removed ones too, until purged), for the scrubber. A record the
   * key can't open is left out and answered apart: one unreadable record breaks nothing else.
   */
  async values(namespace: string, key: CryptoKey) {
    const records = await this.all(namespace);
    const opened = await Promise.all(
      records.map(async (record) => {
        try {
          return { record, value: await decryptValue(key, record) };
        } catch {
          return { record, value: null };
        }
      }),
    );
    return {
      values: opened.flatMap(({ record, value }) => (value === null ? [] : [{ name: record.name, placeholder: record.placeholder, value }])),
      unreadable: opened.flatMap(({ record, value }) => (value === null ? [record] : [])),
    };
  }

  /**
   * Marks records the held key couldn't open, once each, with an audit entry, in one transaction
   * that first checks the key is still the vault's and each record is the one read. Answers
   * whether any was newly marked.
   */
  async markUnreadable(namespace: string, held: HeldKey, records: StoredRecord[], text: AuditText): Promise<boolean> {
    const fresh = records.filter((r) => r.unreadableAt === undefined);
    if (fresh.length === 0) return false;
    const now = this.now();
    const tx = this.db.transaction(['records', 'audit', 'keys', 'namespaces'], 'readwrite');
    const check = await tx.objectStore('keys').get('check');
    let marked = false;
    if (check?.slot === 'check' && check.id === held.check) {
      for (const record of fresh) {
        const stored = await tx.objectStore('records').get(record.id);
        if (!stored || stored.unreadableAt !== undefined || !sameBytes(stored.iv, record.iv)) continue;
        await tx.objectStore('records').put({ ...stored, unreadableAt: now });
        await addAudit(tx, namespace, now, { type: 'unreadable', name: stored.name }, text);
        marked = true;
      }
    }
    if (marked) await bump(tx, namespace);
    await tx.done;
    return marked;
  }

  async meta(namespace: string): Promise<NamespaceMeta> {
    return (await this.db.get('namespaces', namespace)) ?? emptyMeta(namespace);
  }

  /**
   * A backup was handed to the browser (README, Backup and restore): `exportedAt`, the `export`
   * audit entry and the end of the page's `backup` request, in one transaction.
   */
  async exported(namespace: string, count: number, request?: string): Promise<number> {
    const now = this.now();
    const tx = this.db.transaction(['namespaces', 'audit', 'requests'], 'readwrite');
    await bump(tx, namespace, { meta: { exportedAt: now } });
    await addAudit(tx, namespace, now, { type: 'export', count }, null);
    if (request) await endRequest(tx, namespace, request, now);
    await tx.done;
    return now;
  }

  /**
   * A confirmed restore: every write of the plan, the scrub version, the `import` audit entry and
   * the end of the page's `restore` request, in ONE transaction. Values are encrypted first
   * (WebCrypto can't run inside a transaction); then, inside it, each record it writes or `kept`
   * must still be the one the preview saw and each new placeholder still free, or nothing is
   * written (EAGAIN).
   */
  async import(
    namespace: string,
    keyOrHeld: CryptoKey | HeldKey,
    writes: ImportWrite[],
    audit: { source: ImportSource; count: number; added: number; replaced: number; skipped: number },
    request?: string,
    kept: KeptRecord[] = [],
  ): Promise<void> {
    const key = keyOrHeld instanceof CryptoKey ? keyOrHeld : keyOrHeld.key;
    const checkId = keyOrHeld instanceof CryptoKey ? null : keyOrHeld.check;
    const now = this.now();
    const prepared = await Promise.all(
      writes.map(async (w) => {
        const id = w.replaces ?? crypto.randomUUID();
        return { w, id, sealed: await encryptValue(key, w.value, { id, namespace, name: w.name }) };
      }),
    );
    // A restore is a write like any other (README, Backup and restore): the key checked and every
    // record it replaces at the revision the preview read, in the transaction that writes them.
    const tx = this.db.transaction(['records', 'namespaces', 'audit', 'requests', 'keys'], 'readwrite');
    const records = tx.objectStore('records');
    const changed = () => new VaultError('EAGAIN', 'the vault changed; choose the file again');
    try {
      const [stored, byName, byPlaceholder, keptNow] = await Promise.all([
        checkId !== null ? tx.objectStore('keys').get('check') : null,
        Promise.all(prepared.map(({ w }) => records.index('byName').get([namespace, w.name]))),
        Promise.all(prepared.map(({ w }) => (w.replaces ? undefined : records.index('byPlaceholder').getKey(w.placeholder)))),
        Promise.all(kept.map((k) => records.index('byName').get([namespace, k.name]))),
      ]);
      if (checkId !== null && (stored?.slot !== 'check' || stored.id !== checkId)) throw keyChanged(tx);
      const moved = (here: StoredRecord | undefined, seen: Seen | undefined) =>
        here !== undefined && ((here.revision ?? 0) !== seen?.revision || here.updatedAt !== seen.updatedAt);
      for (const [i, { w }] of prepared.entries()) {
        const here = byName[i];
        if (here?.id !== w.replaces || byPlaceholder[i] !== undefined || moved(here, w.was)) throw changed();
      }
      for (const [i, k] of kept.entries()) if (keptNow[i]?.id !== k.id || moved(keptNow[i], k)) throw changed();
      // The namespace's limits hold for a restore as for a write (README, Limits).
      const meta = await tx.objectStore('namespaces').get(namespace);
      const used = meta?.valueBytes ?? (await this.countValueBytes(tx, namespace));
      const held = meta?.recordCount ?? (await countRecords(tx, namespace));
      const added = byName.filter((r) => r === undefined).length;
      if (added > 0 && held + added > MAX_RECORDS) throw tooManyRecords();
      let delta = 0;
      for (const [i, { sealed }] of prepared.entries()) delta += valueBytesOf(sealed) - (byName[i] ? valueBytesOf(byName[i]!) : 0);
      if (used + delta > MAX_VALUE_TOTAL && delta > 0) throw tooManyValueBytes();
      await Promise.all(
        prepared.map(({ w, id, sealed }, i) => {
          const existing = byName[i];
          const record: StoredRecord = {
            id,
            namespace,
            name: w.name,
            kind: w.kind,
            source: audit.source,
            placeholder: w.placeholder,
            ...sealed,
            createdAt: existing?.createdAt ?? w.createdAt ?? now,
            updatedAt: now,
            revision: (existing?.revision ?? 0) + 1,
            ...(existing?.usedAt !== undefined && { usedAt: existing.usedAt }),
            ...(w.removedAt !== undefined && { removedAt: w.removedAt }),
            ...(w.expiresAt !== undefined && { expiresAt: w.expiresAt }),
            ...(w.provider !== undefined && { provider: w.provider }),
            ...(w.account !== undefined && { account: w.account }),
          };
          return records.put(record);
        }),
      );
      await tx
        .objectStore('namespaces')
        .put(bumped(meta, namespace, writes.length > 0 ? { values: true, valueBytes: used + delta, recordCount: held + added } : {}));
      await addAudit(tx, namespace, now, { type: 'import', ...audit }, null);
      if (request) await endRequest(tx, namespace, request, now);
      await tx.done;
    } catch (error) {
      abort(tx);
      await tx.done.catch(() => {});
      if ((error as DOMException)?.name === 'ConstraintError') throw changed();
      throw error;
    }
  }

  /** Every placeholder in the vault, of every namespace: a restore keeps a file's placeholder only when it is free. */
  async placeholders(): Promise<Set<string>> {
    const taken = new Set<string>();
    let cursor = await this.db.transaction('records').store.index('byPlaceholder').openKeyCursor();
    while (cursor) {
      taken.add(cursor.key);
      cursor = await cursor.continue();
    }
    return taken;
  }

  private async change(
    namespace: string,
    name: string,
    actor: Actor,
    text: AuditText,
    apply: (record: StoredRecord, now: number) => 'remove' | 'restore' | null,
  ): Promise<{ record: StoredRecord; delta: Delta | null }> {
    const now = this.now();
    const tx = this.db.transaction(['records', 'namespaces', 'audit'], 'readwrite');
    const record = await tx.objectStore('records').index('byName').get([namespace, name]);
    if (!record) {
      tx.abort();
      await tx.done.catch(() => {});
      throw enoent(`there is no record named ${name}`);
    }
    let type: 'remove' | 'restore' | null;
    try {
      type = apply(record, now);
    } catch (error) {
      tx.abort();
      await tx.done.catch(() => {});
      throw error;
    }
    if (!type) {
      await tx.done;
      return { record, delta: null };
    }
    record.revision = (record.revision ?? 0) + 1;
    await tx.objectStore('records').put(record);
    const meta = await bump(tx, namespace, { values: true });
    const entry = await addAudit(tx, namespace, now, { type, name, ...actor }, text);
    await tx.done;
    return { record, delta: { namespace, rev: revOf(meta), meta, records: [record], audit: [entry] } };
  }

  /** The bytes of the namespace's values, counted when its meta doesn't keep them. */
  private async countValueBytes(tx: WriteTx, namespace: string): Promise<number> {
    let total = 0;
    const records = (tx as IDBPTransaction<VaultSchema, ['records'], 'readwrite'>).objectStore('records');
    for await (const cursor of records.index('byNamespace').iterate(namespace)) total += valueBytesOf(cursor.value);
    return total;
  }
}

/** The namespace's records, counted when its meta doesn't keep them. */
function countRecords(tx: WriteTx, namespace: string): Promise<number> {
  return (tx as IDBPTransaction<VaultSchema, ['records'], 'readwrite'>).objectStore('records').index('byNamespace').count(namespace);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The write's key is no longer the vault's: abort, and say so as a lock. */
function keyChanged(_tx: WriteTx): VaultError {
  // The write's catch aborts the transaction for every VaultError.
  return new VaultError('EACCES', "vault is locked: the vault's key changed since this document got it; unlock again");
}

/** Ends the namespace's pending request `id` as done, inside a transaction with `requests`. */
async function endRequest(tx: WriteTx, namespace: string, id: string, now: number) {
  const store = tx.objectStore('requests');
  const request = await store.get(id);
  if (request && request.namespace === namespace && request.state === 'pending' && now < request.expiresAt) {
    await store.put({ ...request, state: 'done' });
  }
}
