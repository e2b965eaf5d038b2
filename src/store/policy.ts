// The policy store (README, Policy): the only code that opens a transaction on `policy`. Each
// trusted file replaces the accepted one, read, merged and written in one transaction with its
// audit entries and the namespace's revision, so two documents can't undo each other's update.
import type { AuditEntry } from '../contract.ts';
import { type AttestationVerdict, emptyAccepted, mergePolicy } from '../policy/index.ts';
import { addAudit } from './audit.ts';
import { type Delta, bump, revOf } from './meta.ts';
import type { StoredPolicy, VaultDb } from './schema.ts';

export class PolicyStore {
  constructor(
    private readonly db: VaultDb,
    private readonly now: () => number,
  ) {}

  /** Merges checked attestations into the namespace's accepted policy; `delta` is null when nothing changed. */
  async apply(namespace: string, verdicts: { given: unknown; verdict: AttestationVerdict }[]) {
    const now = this.now();
    const tx = this.db.transaction(['policy', 'audit', 'namespaces'], 'readwrite');
    const stored: StoredPolicy = (await tx.objectStore('policy').get(namespace)) ?? { namespace, ...emptyAccepted() };
    const merged = mergePolicy(stored, verdicts);
    await tx.objectStore('policy').put(merged.stored);
    const audit: AuditEntry[] = [];
    for (const entry of merged.audit) audit.push(await addAudit(tx, namespace, now, entry));
    const meta = await bump(tx, namespace);
    await tx.done;
    const delta: Delta = { namespace, rev: revOf(meta), meta, policy: merged.stored, audit };
    return { merged, delta };
  }
}
