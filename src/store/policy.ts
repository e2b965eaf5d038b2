// The policy store (README, Policy): the only code that opens a transaction on `policy`. Each
// trusted file replaces the accepted one, read, merged and written in one transaction with its
// audit entries and the namespace's revision, so two documents can't undo each other's update.
import type { AuditEntry } from '../contract.ts';
import { type AttestationVerdict, Unparsed, cachedMeaning, emptyAccepted, mergePolicy } from '../policy/index.ts';
import { type AuditText, addAudit } from './audit.ts';
import { type Delta, abort, bump, revOf } from './meta.ts';
import type { StoredPolicy, VaultDb } from './schema.ts';

export class PolicyStore {
  constructor(
    private readonly db: VaultDb,
    private readonly now: () => number,
  ) {}

  /**
   * Merges checked attestations into the namespace's accepted policy. The file each one replaces
   * is read from the parse cache only: a miss ends the transaction, is parsed with `parse` (the
   * vault's worker) and the merge starts again, so no policy file is parsed inside it. Its audit
   * entries are scrubbed with `auditText`.
   */
  async apply(
    namespace: string,
    verdicts: { given: unknown; verdict: AttestationVerdict }[],
    parse: (path: string, sha256: string, text: string) => Promise<unknown>,
    auditText: AuditText,
  ) {
    for (let attempt = 0; ; attempt++) {
      const now = this.now();
      const tx = this.db.transaction(['policy', 'audit', 'namespaces'], 'readwrite');
      const stored: StoredPolicy = (await tx.objectStore('policy').get(namespace)) ?? { namespace, ...emptyAccepted() };
      let merged: ReturnType<typeof mergePolicy<StoredPolicy>>;
      try {
        merged = mergePolicy(stored, verdicts, cachedMeaning);
      } catch (error) {
        abort(tx);
        await tx.done.catch(() => {});
        if (!(error instanceof Unparsed) || attempt >= 3) throw error;
        await parse(error.path, error.file.sha256, error.file.text);
        continue;
      }
      await tx.objectStore('policy').put(merged.stored);
      const audit: AuditEntry[] = [];
      for (const entry of merged.audit) audit.push(await addAudit(tx, namespace, now, entry, auditText));
      const meta = await bump(tx, namespace);
      await tx.done;
      const delta: Delta = { namespace, rev: revOf(meta), meta, policy: merged.stored, audit };
      return { merged, delta };
    }
  }
}
