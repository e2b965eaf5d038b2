// `materialize` (README, Exec): the kernel, performing an exec, asks for the values its child's
// environment names. Every variable is judged before any value is decrypted; one refusal refuses
// the whole exec and reveals nothing; within `[limits]` the values go back, and every reveal and
// refusal is audited. This reply is the only one of /dev/sealed that carries values.
import type { SealedReply, Stamp } from '../contract.ts';
import { VaultError, einval } from '../errors.ts';
import { type Verdict, judgeExec, revealEntries } from '../exec/index.ts';
import { DEFAULT_LIMITS } from '../policy/index.ts';
import { type Decided, decryptValue, seenOf } from '../store/index.ts';
import type { SealedVault } from './port.ts';

export async function materialize(vault: SealedVault, namespace: string, env: Record<string, string>, stamp: Stamp): Promise<SealedReply> {
  const exec = stamp.exec;
  if (!exec) throw einval("materialize needs the kernel's exec in the stamp");
  // A reveal is written only if nothing it was decided on changed meanwhile (a value, a removal, a
  // policy, the key, a lock): else it is decided again, from what is stored then.
  for (let attempt = 1; ; attempt++) {
    const reply = await decide(vault, namespace, env, stamp, exec, attempt === 5);
    if (reply) return reply;
  }
}

const CHANGING = 'the vault changed while this exec was decided; try again';

/** One decision and its reveal; null when the vault changed before the reveal was written (on the `last`, EAGAIN, audited). */
async function decide(vault: SealedVault, namespace: string, env: Record<string, string>, stamp: Stamp, exec: NonNullable<Stamp['exec']>, last: boolean) {
  // A value, policy or lock another document has just written is in effect for the decision.
  await vault.reads.fresh(namespace);
  const [records, effect, mark] = await Promise.all([vault.reads.all(namespace), vault.reads.inEffect(namespace), vault.reads.policyMark(namespace)]);
  const byPlaceholder = new Map(records.map((r) => [r.placeholder, r]));
  const policy = effect.policy.secrets;
  const held = vault.keys.current;
  const key = held?.key ?? null;
  const { verdicts, refusal } = judgeExec({
    env,
    exec,
    uid: stamp.uid,
    locked: key === null,
    now: vault.reads.now(),
    record: (placeholder) => byPlaceholder.get(placeholder),
    line: (name) => (policy && Object.hasOwn(policy.exec, name) ? policy.exec[name] : undefined),
  });
  const scrub = await vault.reads.auditText(namespace);
  const entries = (verdictsOf: Verdict[], refused: string | null) => revealEntries(verdictsOf, exec, stamp, refused, scrub);
  if (refusal || !held) {
    const { code, message } = refusal ?? { code: 'EACCES' as const, message: 'vault is locked' };
    await vault.writes.refusedReveal(namespace, entries(verdicts, message));
    throw new VaultError(code, message);
  }

  // Every value, decrypted only now that every variable may have it; one that doesn't open refuses all.
  // The write checks each record as it was decrypted: its revision is taken from the record itself,
  // before the await, never from a list another document's write may have changed since.
  const values = new Map<string, string>();
  const seen: Decided['records'] = [];
  for (const v of verdicts) {
    const record = byPlaceholder.get(env[v.variable]!)!;
    if (values.has(record.id)) continue;
    seen.push({ id: record.id, ...seenOf(record) });
    try {
      values.set(record.id, await decryptValue(held.key, record));
    } catch {
      const message = `${record.name} can't be read under the vault's key`;
      await vault.writes.refusedReveal(namespace, entries(verdicts, message));
      throw new VaultError('EACCES', message);
    }
  }

  const ids = [...values.keys()];
  const decided: Decided = {
    records: seen,
    policy: mark,
    key: { check: held.check, epoch: held.epoch },
    held: () => vault.keys.current === held,
  };
  const written = await vault.writes.reveal(namespace, exec.kind, policy?.limits ?? DEFAULT_LIMITS, ids, (rate) => entries(verdicts, rate), decided);
  if (!written) {
    if (!last) return null;
    await vault.writes.refusedReveal(namespace, entries(verdicts, CHANGING));
    throw new VaultError('EAGAIN', CHANGING);
  }
  if (written.refused !== null) throw new VaultError('EAGAIN', written.refused);
  // Without a prototype, a variable named `__proto__` is one like any other.
  const out: Record<string, string> = Object.create(null);
  const revealed: string[] = [];
  for (const v of verdicts) {
    const record = byPlaceholder.get(env[v.variable]!)!;
    out[v.variable] = values.get(record.id)!;
    if (!revealed.includes(record.name)) revealed.push(record.name);
  }
  return { env: out, revealed };
}
