// The `forward` op (README, Forward): bios asks the vault to fill a forwarded request's head, then
// sends it itself. The injector (or, for an MCP server, decideMcp) decides; values are decrypted
// only for the records it uses; each use is audited; the response comes back scrubbed.
import type { ForwardResult } from '../contract.ts';
import { type InEffect, type McpRecord, decideForward, decideMcp, mcpRequest } from '../inject/index.ts';
import { type Scrubber, redactToBytes } from '../scrub/index.ts';
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
    scrubber(namespace: string): Promise<{ scrubber: Scrubber }>;
  };
  writes: {
    used(namespace: string, ids: string[], entries: AuditDraft[]): Promise<void>;
  };
}

/** A parsed `forward` (parse.ts): decided from memory; the response relayed through `port`, scrubbed. */
export async function forward(vault: ForwardVault, namespace: string, request: ForwardRequest, port: MessagePort): Promise<ForwardResult> {
  const result = await decide(vault, namespace, request);
  if ('refused' in result) port.close();
  else relayResponse(port, (await vault.reads.scrubber(namespace)).scrubber);
  return result;
}

async function decide(vault: ForwardVault, namespace: string, { head, body, owner, exit, rawTraits }: ForwardRequest): Promise<ForwardResult> {
  await vault.reads.fresh(namespace);
  const [records, { plan, mcp }] = await Promise.all([vault.reads.all(namespace), vault.reads.inEffect(namespace)]);
  const actor = { uid: owner.uid, tag: owner.tag };
  const mcpFor = mcpRequest(head.url, mcp, records);

  // Decide once without values to learn which records are used, then again with theirs.
  const run = async (names?: Set<string>) => {
    const key = vault.keys.key;
    const input = { head, exit, rawTraits, locked: key === null, now: vault.reads.now(), records: await byPlaceholder(records, key, names) };
    return mcpFor ? decideMcp({ ...input, servers: mcpFor.servers }) : decideForward({ ...input, ...plan });
  };
  const first = await run();
  if (!first.inject) return { refused: { status: first.status, reason: first.reason } };
  const names = new Set('uses' in first ? first.uses.map((u) => u.name) : first.names);
  let decision: Awaited<ReturnType<typeof run>>;
  try {
    decision = await run(names);
  } catch (error) {
    // Skipped, not injected: the request is refused, the rest of the namespace keeps working.
    if (error instanceof Unreadable) return { refused: { status: 403, reason: `${error.message} can't be read under the vault's key; it is never injected` } };
    throw error;
  }
  if (!decision.inject) return { refused: { status: decision.status, reason: decision.reason } };

  const used = records.filter((r) => names.has(r.name)).map((r) => r.id);
  if ('uses' in decision) {
    await vault.writes.used(
      namespace,
      used,
      decision.uses.map((u) => ({ type: 'forward', ...u, exit, ...actor })),
    );
    return { head: decision.head };
  }
  const { domain, method, path, server } = decision;
  await vault.writes.used(namespace, used, [{ type: 'mcp', name: decision.names.join(','), server, domain, method, path, exit, ...actor }]);
  const scrubbed = body === undefined ? undefined : await redactToBytes((await vault.reads.scrubber(namespace)).scrubber, body);
  return { head: decision.head, ...(scrubbed && { body: new Uint8Array(scrubbed) }) };
}
