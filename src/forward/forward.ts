// The `forward` op (README, Forward): bios asks the vault to fill a forwarded request's head, then
// sends it itself. One decision over the namespace's plan names the records it uses; only their
// values are decrypted, and filled in once; each use is audited; the response comes back scrubbed.
import type { ForwardResult } from '../contract.ts';
import { type InjectionPlan, type Refusal, decide as decideRequest, fill } from '../inject/index.ts';
import { MAX_BODY_BYTES } from '../limits.ts';
import { type Scrubber, redactToBytes, utf8LengthSliced } from '../scrub/index.ts';
import { type AuditDraft, type StoredRecord, decryptValue } from '../store/index.ts';
import type { ForwardRequest } from './parse.ts';
import { relayResponse } from './response.ts';

/** A record the decision names but the vault's key can't open (README, Key store and lock). */
class Unreadable extends Error {}

/** What `forward` uses of the vault: the key, the namespace from memory and its plan, its scrubber, and the audit of uses. */
export interface ForwardVault {
  readonly keys: { readonly key: CryptoKey | null };
  reads: {
    now(): number;
    /** Brings the namespace in memory up to the stored revision. */
    fresh(namespace: string): Promise<void>;
    all(namespace: string): Promise<StoredRecord[]>;
    /** What every decision reads of the namespace, prepared once per change. */
    plan(namespace: string): Promise<InjectionPlan>;
    scrubber(namespace: string): Promise<{ scrubber: Scrubber }>;
  };
  writes: {
    used(namespace: string, ids: string[], entries: AuditDraft[]): Promise<void>;
    modelUsed(namespace: string, uses: { id: string; entry: AuditDraft & { type: 'model' } }[]): Promise<void>;
    /** A forward met an expired value: a sign-in's is asked to be renewed. */
    expired(namespace: string, name: string): Promise<void>;
  };
}

/** A parsed `forward` (parse.ts): decided from memory; the response relayed through `port`, scrubbed. */
export async function forward(vault: ForwardVault, namespace: string, request: ForwardRequest, port: MessagePort): Promise<ForwardResult> {
  // Fetched at most once a forward: a model or MCP request's body and its response share it.
  let scrubber: Promise<Scrubber> | undefined;
  const scrubberOnce = () => (scrubber ??= vault.reads.scrubber(namespace).then((s) => s.scrubber));
  const result = await decide(vault, namespace, request, scrubberOnce);
  if ('refused' in result) port.close();
  else relayResponse(port, await scrubberOnce());
  return result;
}

/** A model or MCP request's body, scrubbed and returned for bios to send: at most this large (README, Limits). */
async function bodyRefusal(body: string | Uint8Array | undefined, model: boolean): Promise<string | null> {
  if (body === undefined) return model ? 'a model request needs its body: the vault scrubs it, and bios sends the scrubbed one' : null;
  // UTF-8 takes at least a byte per UTF-16 unit: a string over the limit in units is never read
  // through; one within it is measured in slices (32 MiB of non-ASCII text takes ~90 ms at once).
  const bytes = typeof body === 'string' ? (body.length > MAX_BODY_BYTES ? body.length : await utf8LengthSliced(body)) : body.byteLength;
  return bytes > MAX_BODY_BYTES ? `body is larger than the limit of ${MAX_BODY_BYTES} bytes` : null;
}

async function decide(
  vault: ForwardVault,
  namespace: string,
  { head, url, body, owner, exit, rawTraits }: ForwardRequest,
  scrubber: () => Promise<Scrubber>,
): Promise<ForwardResult> {
  await vault.reads.fresh(namespace);
  const [records, plan] = await Promise.all([vault.reads.all(namespace), vault.reads.plan(namespace)]);
  const refused = async (d: Refusal): Promise<ForwardResult> => {
    // An expired sign-in's value: the page is asked to renew it (README, The agent's ops: refresh).
    if (d.expired) await vault.writes.expired(namespace, d.expired);
    return { refused: { status: d.status, reason: d.reason } };
  };
  // One decision, without values: an MCP server's request, else a model request, else one for the
  // rules (README, Model and MCP endpoints). It names the records the fill needs; only those are decrypted.
  const decision = decideRequest(plan, { head, url, exit, rawTraits }, { locked: vault.keys.key === null, now: vault.reads.now() });
  if (!decision.inject) return refused(decision);
  const scrubbed = decision.kind !== 'secret';
  const tooBig = scrubbed ? await bodyRefusal(body, decision.kind === 'model') : null;
  if (tooBig) return { refused: { status: 403, reason: tooBig } };
  const names = new Set(decision.names);
  const used = records.filter((r) => names.has(r.name));
  // The vault may have locked while the body was measured.
  const key = vault.keys.key;
  if (used.length > 0 && key === null) return { refused: { status: 403, reason: 'vault is locked' } };
  let values: Map<string, string>;
  try {
    const decrypted = await Promise.all(
      used.map(async (r): Promise<[string, string]> => [r.name, await decryptValue(key!, r).catch(() => Promise.reject(new Unreadable(r.name)))]),
    );
    values = new Map(decrypted);
  } catch (error) {
    // Skipped, not injected: the request is refused, the rest of the namespace keeps working.
    if (error instanceof Unreadable) return { refused: { status: 403, reason: `${error.message} can't be read under the vault's key; it is never injected` } };
    throw error;
  }
  const filled = fill(decision, head, values);
  if (!filled.inject) return refused(filled);

  const ids = used.map((r) => r.id);
  const idOf = new Map(used.map((r) => [r.name, r.id]));
  // The method as sent (HTTP methods are case-sensitive): upper-cased, a value in it would pass the scrubber.
  const method = head.method;
  const actor = { uid: owner.uid, tag: owner.tag };
  const { domain, path } = decision;
  if (decision.kind === 'mcp') {
    await vault.writes.used(namespace, ids, [{ type: 'mcp', name: decision.names.join(','), server: decision.server, domain, method, path, exit, ...actor }]);
  } else if (decision.kind === 'model') {
    await vault.writes.modelUsed(
      namespace,
      decision.uses.map((u) => ({ id: idOf.get(u.name)!, entry: { type: 'model', name: u.name, provider: u.provider, domain, path, exit } })),
    );
  } else {
    await vault.writes.used(
      namespace,
      ids,
      decision.uses.map((u) => ({ type: 'forward', ...u, method, exit, ...actor })),
    );
  }
  if (!scrubbed) return { head: filled.head };
  // The body bios sends instead of its own: every value of the namespace scrubbed out, in slices.
  const clean = body === undefined ? undefined : await redactToBytes(await scrubber(), body);
  return { head: filled.head, ...(clean && { body: clean }) };
}
