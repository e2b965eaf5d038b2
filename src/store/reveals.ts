// Reveals to programs (README, Exec): the rates of `[limits]` counted in IndexedDB, in the one
// transaction that audits each reveal (and marks its records used), so every vault document and a
// reload share them. A reveal past a rate writes its refusal to the audit and counts nothing.
import type { ExecKind } from '../contract.ts';
import { type RateLog, type RevealDraft, emptyLog, logged, rateRefusal } from '../exec/index.ts';
import type { Limits } from '../policy/index.ts';
import { type AuditText, addAudit } from './audit.ts';
import { type Delta, bump, deltaOf, settle } from './meta.ts';
import type { Seen } from './records.ts';
import type { StoredPolicy, StoredRecord, VaultDb } from './schema.ts';

/**
 * What a reveal was decided on: each record revealed as it was read, the accepted policy files
 * (`policyMark`), the key's check value and lock epoch, and whether this document still holds that key.
 */
export interface Decided {
  records: (Seen & { id: string })[];
  policy: string;
  key: { check: string; epoch: number };
  held: () => boolean;
}

/** The accepted policy files of a namespace, as one string: the same string, the same `[exec]` and `[limits]`. */
export const policyMark = (stored: StoredPolicy | undefined): string =>
  JSON.stringify(Object.entries(stored?.accepted ?? {}).map(([path, file]) => [path, file?.sha256 ?? null]));

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
   * given the refusal (null for a reveal), scrubbed with `text`. Answers the refusal, if any, and the write's delta; or
   * null, writing nothing, when anything `decided` read has changed since (a value rotated or
   * removed, a policy file, the key or a lock, in any document): the caller decides again.
   */
  async reveal(
    namespace: string,
    kind: ExecKind,
    limits: Limits,
    ids: string[],
    entries: (refused: string | null) => RevealDraft[],
    decided: Decided,
    text: AuditText,
  ): Promise<{ refused: string | null; delta: Delta } | null> {
    const now = this.now();
    const tx = this.db.transaction(['reveals', 'records', 'audit', 'namespaces', 'policy', 'keys'], 'readwrite');
    return settle(tx, async () => {
      const [stored, policy, check, epoch, records] = await Promise.all([
        tx.objectStore('reveals').get(namespace),
        tx.objectStore('policy').get(namespace),
        tx.objectStore('keys').get('check'),
        tx.objectStore('keys').get('epoch'),
        Promise.all(decided.records.map((r) => tx.objectStore('records').get(r.id))),
      ]);
      const same = decided.records.every((r, i) => {
        const now = records[i];
        return now?.namespace === namespace && now.removedAt === undefined && (now.revision ?? 0) === r.revision && now.updatedAt === r.updatedAt;
      });
      const keyHeld = check?.slot === 'check' && check.id === decided.key.check && (epoch?.slot === 'epoch' ? epoch.epoch : 0) === decided.key.epoch;
      if (!same || policyMark(policy) !== decided.policy || !keyHeld || !decided.held()) throw STALE;
      const log: RateLog = stored ?? emptyLog();
      const refused = rateRefusal(log, kind, limits, now);
      const used: StoredRecord[] = [];
      if (refused === null) {
        await tx.objectStore('reveals').put({ namespace, ...logged(log, kind, now) });
        for (const id of new Set(ids)) {
          const record = await tx.objectStore('records').get(id);
          if (record?.namespace !== namespace) continue;
          const marked = { ...record, usedAt: now };
          used.push(marked);
          await tx.objectStore('records').put(marked);
        }
      }
      const audit = [];
      for (const entry of entries(refused)) audit.push(await addAudit(tx, namespace, now, entry, text));
      return { refused, delta: deltaOf(await bump(tx, namespace), { records: used, audit }) };
    }).catch((error) => {
      if (error === STALE) return null;
      throw error;
    });
  }

  /** Audits an exec refused before the rates (a variable it may not have), in one transaction. */
  async refused(namespace: string, entries: RevealDraft[], text: AuditText): Promise<Delta> {
    const now = this.now();
    const tx = this.db.transaction(['audit', 'namespaces'], 'readwrite');
    return settle(tx, async () => {
      const audit = [];
      for (const entry of entries) audit.push(await addAudit(tx, namespace, now, entry, text));
      return deltaOf(await bump(tx, namespace), { audit });
    });
  }
}
