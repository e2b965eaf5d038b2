// Reveals to programs (README, Exec): the rates of `[limits]` counted in IndexedDB, in the one
// transaction that audits each reveal (and marks its records used), so every vault document and a
// reload share them. A reveal past a rate writes its refusal to the audit and counts nothing.
import type { ExecKind } from '../contract.ts';
import { type RateLog, type RevealDraft, emptyLog, logged, rateRefusal } from '../exec/index.ts';
import type { Limits } from '../policy/index.ts';
import { addAudit } from './audit.ts';
import { type Delta, bump, deltaOf, settle } from './meta.ts';
import type { StoredRecord, VaultDb } from './schema.ts';

export class Reveals {
  constructor(
    private readonly db: VaultDb,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts a reveal of that kind against the namespace's rates and, within them, audits it and
   * marks its records used; past one, audits the refusal instead. `entries` drafts the audit,
   * given the refusal (null for a reveal). Answers the refusal, if any, and the write's delta.
   */
  async reveal(
    namespace: string,
    kind: ExecKind,
    limits: Limits,
    ids: string[],
    entries: (refused: string | null) => RevealDraft[],
  ): Promise<{ refused: string | null; delta: Delta }> {
    const now = this.now();
    const tx = this.db.transaction(['reveals', 'records', 'audit', 'namespaces'], 'readwrite');
    return settle(tx, async () => {
      const stored = await tx.objectStore('reveals').get(namespace);
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
