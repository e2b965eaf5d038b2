// The `forward` op (README, Forward): bios asks the vault to fill a forwarded request's head, then
// sends it itself. The injector (or, for a registered MCP server, decideMcp) decides; values are
// decrypted only for the records it uses; each use is audited; the response comes back scrubbed.
import type { ExitName, ForwardResult, RawTraits, RequestHead, Stamp } from '../contract.ts';
import type { StoredRecord } from '../store/schema.ts';
import { einval } from '../errors.ts';
import { MAX_HEAD_BYTES, MAX_HEADERS, MAX_URL_BYTES } from '../limits.ts';
import { EXIT_NAME, HTTP_TOKEN, isDense } from '../validate.ts';
import { decideForward } from '../inject/injector.ts';
import { type McpRecord, decideMcp, mcpRequest } from '../inject/mcp.ts';
import { decryptValue } from '../lock/slots.ts';
import { relayResponse } from './response.ts';
import { redactToBytes } from '../scrub/slices.ts';
import { parseStamp } from '../sealed/sealed.ts';
import type { InEffect } from '../core/namespace-state.ts';
import type { AuditDraft } from '../store/records.ts';
import type { Compiled } from '../core/scrubbers.ts';

export interface ForwardRequest {
  head: RequestHead;
  /** As bios sent it: a string is encoded only where it is scrubbed, in slices (an MCP request's). */
  body?: string | Uint8Array;
  owner: Stamp;
  exit: ExitName;
  rawTraits: RawTraits;
}

/** Checks the op's fields; EINVAL names the one that is wrong. */
export function checkForward(fields: Record<string, unknown>): ForwardRequest {
  const head = fields.head as Partial<RequestHead> | null;
  if (!head || typeof head !== 'object') throw einval('head must be { method, url, headers }');
  // Past a head limit the injector refuses the request naming the limit (README, Limits): a URL,
  // header list or name longer than a limit is never parsed or matched here, only measured.
  if (typeof head.method !== 'string' || head.method.length > MAX_HEAD_BYTES || !HTTP_TOKEN.test(head.method)) {
    throw einval('head.method must be an HTTP method');
  }
  if (typeof head.url !== 'string') throw einval('head.url must be a string');
  if (head.url.length <= MAX_URL_BYTES) {
    try {
      new URL(head.url);
    } catch {
      throw einval('head.url is not a URL');
    }
  }
  if (!Array.isArray(head.headers) || !isDense(head.headers)) throw einval('head.headers must be a list of [name, value] strings');
  // One header past the limit is enough for the injector's refusal.
  const headers: unknown[] = head.headers.length > MAX_HEADERS ? head.headers.slice(0, MAX_HEADERS + 1) : head.headers;
  if (!headers.every((h) => Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string')) {
    throw einval('head.headers must be a list of [name, value] strings');
  }
  const pairs = headers as [string, string][];
  if (!pairs.every(([name]) => name.length > MAX_HEAD_BYTES || HTTP_TOKEN.test(name))) throw einval('head.headers has a name that is not a header name');
  const body = fields.body;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) throw einval('body must be bytes or a string');
  if (typeof fields.exit !== 'string' || !EXIT_NAME.test(fields.exit)) throw einval('exit must be page, proxy, tailscale or device:<name>');
  const traits = fields.rawTraits as Record<string, unknown> | null;
  if (!traits || typeof traits !== 'object' || Array.isArray(traits)) throw einval('rawTraits must be { manualRedirects?, encodedBodies? }');
  for (const [key, value] of Object.entries(traits)) {
    if (!['manualRedirects', 'encodedBodies'].includes(key)) throw einval(`rawTraits has no field ${key}`);
    if (typeof value !== 'boolean') throw einval(`rawTraits.${key} must be a boolean`);
  }
  return {
    head: { method: head.method, url: head.url, headers: pairs.map(([n, v]) => [n, v] as [string, string]) },
    ...(body !== undefined && { body }),
    owner: parseStamp(fields.owner),
    exit: fields.exit as ExitName,
    rawTraits: traits as RawTraits,
  };
}

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

/** What `forward` uses of the vault: the namespace from memory, the key, the clock, the audit of uses, the scrubber. */
export interface ForwardVault {
  readonly keys: { readonly key: CryptoKey | null };
  now(): number;
  /** Brings the namespace in memory up to the stored revision. */
  fresh(namespace: string): Promise<void>;
  all(namespace: string): Promise<StoredRecord[]>;
  inEffect(namespace: string): Promise<InEffect>;
  used(namespace: string, ids: string[], entries: AuditDraft[]): Promise<void>;
  scrubber(namespace: string): Promise<Compiled>;
}

/** A parsed `forward` (commands.ts): decided from memory; the response relayed through `port`, scrubbed. */
export async function forward(vault: ForwardVault, namespace: string, request: ForwardRequest, port: MessagePort): Promise<ForwardResult> {
  const result = await decide(vault, namespace, request);
  if ('refused' in result) port.close();
  else relayResponse(port, (await vault.scrubber(namespace)).scrubber);
  return result;
}

async function decide(vault: ForwardVault, namespace: string, { head, body, owner, exit, rawTraits }: ForwardRequest): Promise<ForwardResult> {
  await vault.fresh(namespace);
  const [records, { policy, endpoints, mcp }] = await Promise.all([vault.all(namespace), vault.inEffect(namespace)]);
  const actor = { uid: owner.uid, tag: owner.tag };
  const mcpFor = mcpRequest(head.url, mcp, records);

  // Decide once without values to learn which records are used, then again with theirs.
  const run = async (names?: Set<string>) => {
    const key = vault.keys.key;
    const input = { head, locked: key === null, now: vault.now(), records: await byPlaceholder(records, key, names) };
    return mcpFor
      ? decideMcp({ ...input, exit, rawTraits, servers: mcpFor.servers })
      : decideForward({
          ...input,
          exit,
          rawTraits,
          rules: policy.config?.rules ?? [],
          secrets: policy.config?.secrets ?? {},
          exits: policy.secrets?.exits ?? {},
          refused: endpoints,
        });
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
    await vault.used(
      namespace,
      used,
      decision.uses.map((u) => ({ type: 'forward', ...u, exit, ...actor })),
    );
    return { head: decision.head };
  }
  const { domain, method, path, server } = decision;
  await vault.used(namespace, used, [{ type: 'mcp', name: decision.names.join(','), server, domain, method, path, exit, ...actor }]);
  const scrubbed = body === undefined ? undefined : await redactToBytes((await vault.scrubber(namespace)).scrubber, body);
  return { head: decision.head, ...(scrubbed && { body: new Uint8Array(scrubbed) }) };
}
