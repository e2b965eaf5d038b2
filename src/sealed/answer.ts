// /dev/sealed (README, /dev/sealed): the kernel's requests, relayed by bios as the `sealed` op with
// the kernel's stamp, answered through the narrow port below. Replies carry placeholders, states
// and verdicts only, but `materialize`'s, which hands the kernel's exec its values (README, Exec).
import type { SealedReply, SealedRequest, Stamp } from '../contract.ts';
import { VaultError, enoent, errorBody } from '../errors.ts';
import { secretState } from '../policy/index.ts';
import { statusOf } from '../store/index.ts';
import { materialize } from './materialize.ts';
import type { SealedVault } from './port.ts';

/** The `sealed` op's `reply`: the op's result or `{ error }`, never a port error. */
export async function answerSealed(vault: SealedVault, namespace: string, request: SealedRequest, stamp: Stamp): Promise<SealedReply> {
  try {
    return await answer(vault, namespace, request, stamp);
  } catch (error) {
    return { error: errorBody(error) };
  }
}

async function answer(vault: SealedVault, namespace: string, request: SealedRequest, stamp: Stamp): Promise<SealedReply> {
  const actor = { uid: stamp.uid, tag: stamp.tag };
  switch (request.op) {
    case 'seal':
      // A process value is rotated only by the uid that sealed it; a value from a person or a
      // sign-in only by root. Root may rotate anything (README, /dev/sealed).
      return vault.writes.write(
        namespace,
        { name: request.name, value: request.value, kind: 'secret', source: 'process', uid: stamp.uid },
        {
          check: (existing) => {
            if (stamp.uid === 0) return;
            if (existing.source !== 'process') {
              throw new VaultError('EEXIST', `${request.name} holds a value from ${existing.source}; only root may replace it`);
            }
            if (existing.uid !== stamp.uid) throw new VaultError('EEXIST', `${request.name} was sealed by another user`);
          },
          actor,
        },
      );
    case 'placeholder': {
      const record = await vault.reads.record(namespace, request.name);
      if (!record) throw enoent(`there is no record named ${request.name}`);
      return { placeholder: record.placeholder, state: secretState(record, record.name, (await vault.reads.inEffect(namespace)).policy.config) };
    }
    case 'list': {
      const { secrets } = await vault.reads.changed(namespace);
      return {
        secrets: secrets
          .filter((s) => s.kind === 'secret' && s.state !== 'removed')
          .map(({ name, placeholder, state, exec, rules, expiresAt }) => ({
            name,
            placeholder,
            state,
            exec,
            rules,
            ...(expiresAt !== undefined && { expiresAt }),
          })),
      };
    }
    case 'test':
      return vault.reads.test(namespace, request);
    case 'request': {
      const { op: _, ...fields } = request;
      const made = await vault.writes.request(namespace, { ...fields, ...actor });
      return { state: 'pending', id: made.id };
    }
    case 'status': {
      const now = vault.reads.now();
      if (request.id !== undefined) return statusOf(await visible(vault, namespace, request.id, stamp), now);
      const all = await vault.reads.requestsOf(namespace);
      return { requests: all.filter((r) => r.uid !== undefined && (stamp.uid === 0 || r.uid === stamp.uid)).map((r) => statusOf(r, now)) };
    }
    case 'cancel': {
      const mine = await visible(vault, namespace, request.id, stamp);
      return (await vault.writes.cancel(namespace, mine.id)) as SealedReply;
    }
    case 'materialize':
      return materialize(vault, namespace, request.env, stamp);
  }
}

/** A request the caller may see: its own, or any for root; others are ENOENT. */
async function visible(vault: SealedVault, namespace: string, id: string, stamp: Stamp) {
  const request = await vault.reads.requestOf(namespace, id);
  if (request.uid === undefined || (stamp.uid !== 0 && request.uid !== stamp.uid)) throw enoent('there is no request with that id');
  return request;
}
