// Reveals to programs (README, Exec): the rates of `[limits]` counted in IndexedDB, in the one
// transaction that audits each reveal (and marks its records used), so every vault document and a
// reload share them. A reveal past a rate writes its refusal to the audit and counts nothing.
import type { ExecKind } from '../contract.ts';
import { type RateLog, type RevealDraft, emptyLog, logged, rateRefusal } from '../exec/index.ts';
import type { Limits } from '../policy/index.ts';
import { addAudit } from './audit.ts';
import { type Delta, bump, deltaOf, revOf, settle } from './meta.ts';
import type { StoredRecord, VaultDb } from './schema.ts';

/** What a reveal was decided on: the namespace's revision then, and whether the key it decrypted with is still held. */
export interface Decided {
  rev: number;
  held: () => boolean;
}

/** Thrown inside the transaction when the decision no longer holds: the writes are aborted. */
const STALE = Symbol('stale');

export class Reveals {
  constructor(
    private readonly db: VaultDb,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts a reveal of that kind against the namespace's rates and, within them, audits it and
   * marks its records used; past one, audits the refusal instead. `entries` drafts the audit,
   * given the refusal (null for a reveal). Answers the refusal, if any, and the write's delta; or
   * null, writing nothing, when the namespace's revision has moved since `decided` (any write of
   * any document: a value, a removal, a policy) or its key is no longer held (a lock): the
   * caller decides again.
   */
  async reveal(
    namespace: string,
    kind: ExecKind,
    limits: Limits,
    ids: string[],
    entries: (refused: string | null) => RevealDraft[],
    decided: Decided,
  ): Promise<{ refused: string | null; delta: Delta } | null> {
    const now = this.now();
    const tx = this.db.transaction(['reveals', 'records', 'audit', 'namespaces'], 'readwrite');
    return settle(tx, async () => {
      const [stored, meta] = await Promise.all([tx.objectStore('reveals').get(namespace), tx.objectStore('namespaces').get(namespace)]);
      if ((meta ? revOf(meta) : 0) !== decided.rev || !decided.held()) throw STALE;
      const log: RateLog = stored ?? emptyLog();
      const refused = rateRefusal(log, kind, limits, now);
      const records: StoredRecord[] = [];
      if (refused === null) {
        await tx.objectStore('reveals').put({ namespace, ...logged(log, kind, now) });
        for (const id of new Set(ids)) {
          const record = await tx.objectStore('records').get(id);
          if (record?.namespace !== namespace) continue;
          const used = { ...record, usedAt: now };
          records.push(used);
          await tx.objectStore('records').put(used);
        }
      }
      const audit = [];
      for (const entry of entries(refused)) audit.push(await addAudit(tx, namespace, now, entry));
      return { refused, delta: deltaOf(await bump(tx, namespace), { records, audit }) };
    }).catch((error) => {
      if (error === STALE) return null;
      throw error;
    });
  }

  /** Audits an exec refused before the rates (a variable it may not have), in one transaction. */
  async refused(namespace: string, entries: RevealDraft[]): Promise<Delta> {
    const now = this.now();
    const tx = this.db.transaction(['audit', 'namespaces'], 'readwrite');
    return settle(tx, async () => {
      const audit = [];
      for (const entry of entries) audit.push(await addAudit(tx, namespace, now, entry));
      return deltaOf(await bump(tx, namespace), { audit });
    });
  }
}
