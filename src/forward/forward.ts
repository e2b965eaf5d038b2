// The `forward` op (README, Forward): bios asks the vault to fill a forwarded request's head, then
// sends it itself. The injector (or, for an MCP server, decideMcp) decides; values are decrypted
// only for the records it uses; each use is audited; the response comes back scrubbed.
import type { ForwardResult } from '../contract.ts';
import {
  type ForwardDecision,
  type InEffect,
  type Endpoint,
  type McpDecision,
  type McpRecord,
  type ModelDecision,
  decideForward,
  decideMcp,
  decideModel,
  headPlaceholders,
  mcpRequest,
  modelRequest,
} from '../inject/index.ts';
import { MAX_BODY_BYTES } from '../limits.ts';
import { type Scrubber, redactToBytes, utf8LengthSliced } from '../scrub/index.ts';
import { type AuditDraft, type StoredRecord, decryptValue } from '../store/index.ts';
import type { ForwardRequest } from './parse.ts';
import { relayResponse } from './response.ts';

/** A record the injector would use but the vault's key can't open (README, Key store and lock). */
class Unreadable extends Error {}

/** Records by placeholder, with values only for `names` (decrypted now), '' for the rest. */
async function byPlaceholder(records: StoredRecord[], key: CryptoKey | null, names: Set<string> = new Set()) {
  const entries = await Promise.all(
    records.map(async (r): Promise<[string, McpRecord]> => {
      const value = key && names.has(r.name) ? await decryptValue(key, r).catch(() => Promise.reject(new Unreadable(r.name))) : '';
      const { name, kind, placeholder, removedAt, expiresAt, provider } = r;
      return [placeholder, { name, kind, placeholder, removedAt, expiresAt, provider, value }];
    }),
  );
  return new Map(entries);
}

/** What `forward` uses of the vault: the key, the namespace from memory, its scrubber, and the audit of uses. */
export interface ForwardVault {
  readonly keys: { readonly key: CryptoKey | null };
  reads: {
    now(): number;
    /** Brings the namespace in memory up to the stored revision. */
    fresh(namespace: string): Promise<void>;
    all(namespace: string): Promise<StoredRecord[]>;
    inEffect(namespace: string): Promise<InEffect>;
    /** Where live `model` and `mcp` records are bound, prepared as the records change. */
    bound(namespace: string): Promise<{ model: readonly Endpoint[]; mcp: readonly Endpoint[] }>;
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
  const result = await decide(vault, namespace, request);
  if ('refused' in result) port.close();
  else relayResponse(port, (await vault.reads.scrubber(namespace)).scrubber);
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

async function decide(vault: ForwardVault, namespace: string, { head, body, owner, exit, rawTraits }: ForwardRequest): Promise<ForwardResult> {
  await vault.reads.fresh(namespace);
  const [records, effect, bound] = await Promise.all([vault.reads.all(namespace), vault.reads.inEffect(namespace), vault.reads.bound(namespace)]);
  const actor = { uid: owner.uid, tag: owner.tag };
  // An MCP server's request, else a model request, else one for the rules (README, Model and MCP endpoints).
  // Every decision looks up only the placeholders the head holds: only their records are read.
  const named = headPlaceholders(head);
  const inHead = named.size > 0 ? records.filter((r) => named.has(r.placeholder)) : [];
  const mcpFor = mcpRequest(head.url, effect.mcp, bound.mcp);
  const modelFor = mcpFor ? null : modelRequest(head.url, effect.models, bound.model);

  // Decide once without values to learn which records are used, then again with theirs.
  const run = async (names?: Set<string>): Promise<ForwardDecision | McpDecision | ModelDecision> => {
    const key = vault.keys.key;
    const input = { head, exit, rawTraits, locked: key === null, now: vault.reads.now(), records: await byPlaceholder(inHead, key, names) };
    if (mcpFor) return decideMcp({ ...input, servers: mcpFor.servers });
    if (modelFor) return decideModel({ ...input, target: modelFor, known: effect.known });
    return decideForward({ ...input, ...effect.plan });
  };
  const refused = async (d: { status: 403 | 502; reason: string; expired?: string }): Promise<ForwardResult> => {
    // An expired sign-in's value: the page is asked to renew it (README, The agent's ops: refresh).
    if (d.expired) await vault.writes.expired(namespace, d.expired);
    return { refused: { status: d.status, reason: d.reason } };
  };
  const first = await run();
  if (!first.inject) return refused(first);
  const scrubbed = mcpFor !== null || modelFor !== null;
  const tooBig = scrubbed ? await bodyRefusal(body, modelFor !== null) : null;
  if (tooBig) return { refused: { status: 403, reason: tooBig } };
  const names = new Set('names' in first ? first.names : first.uses.map((u) => u.name));
  let decision: Awaited<ReturnType<typeof run>>;
  try {
    decision = await run(names);
  } catch (error) {
    // Skipped, not injected: the request is refused, the rest of the namespace keeps working.
    if (error instanceof Unreadable) return { refused: { status: 403, reason: `${error.message} can't be read under the vault's key; it is never injected` } };
    throw error;
  }
  if (!decision.inject) return refused(decision);

  const ids = new Map(records.filter((r) => names.has(r.name)).map((r) => [r.name, r.id]));
  // The method as sent (HTTP methods are case-sensitive): upper-cased, a value in it would pass the scrubber.
  const method = head.method;
  if ('names' in decision) {
    const { domain, path, server } = decision;
    await vault.writes.used(namespace, [...ids.values()], [{ type: 'mcp', name: decision.names.join(','), server, domain, method, path, exit, ...actor }]);
  } else if (modelFor) {
    const { domain, path } = decision as Extract<ModelDecision, { inject: true }>;
    await vault.writes.modelUsed(
      namespace,
      (decision as Extract<ModelDecision, { inject: true }>).uses.map((u) => ({
        id: ids.get(u.name)!,
        entry: { type: 'model', name: u.name, provider: u.provider, domain, path, exit },
      })),
    );
  } else {
    const uses = (decision as Extract<ForwardDecision, { inject: true }>).uses;
    await vault.writes.used(
      namespace,
      [...ids.values()],
      uses.map((u) => ({ type: 'forward', ...u, method, exit, ...actor })),
    );
  }
  if (!scrubbed) return { head: decision.head };
  // The body bios sends instead of its own: every value of the namespace scrubbed out, in slices.
  const clean = body === undefined ? undefined : await redactToBytes((await vault.reads.scrubber(namespace)).scrubber, body);
  return { head: decision.head, ...(clean && { body: clean }) };
}
