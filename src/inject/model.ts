// The agent's model requests (README, Model and MCP endpoints): a URL under a built-in model
// entry, or under a `model` record's base URL, read the broadest way, is a model request. There the
// vault fills in only `model` placeholders bound to that endpoint's provider (a pi-ai provider id,
// or an https base URL the URL lies under the narrow way), never a secret, grant or MCP credential,
// each once, in the header the request carries it in; every exit rule and head limit of a forward
// holds. Rules never apply here. Pure, like the injector.
import type { ExitName, RawTraits, RequestHead } from '../contract.ts';
import { ENDPOINT_REASON, type Endpoint, endpointsUnder, normalizeHost } from './endpoints.ts';
import { type InjectRecord, OncePerHead, clean, headRefusal } from './injector.ts';
import { SECRET_TO_MCP, underServerUrl } from './mcp.ts';
import { MAX_URL_BYTES } from '../limits.ts';
import { PLACEHOLDERS } from '../validate.ts';

/** A record as a model decision needs it: its `provider` binds a `model` record to an endpoint. */
export type ModelRecord = InjectRecord & { provider?: string };

/** Why a `model` record is filled in nowhere (README, Model and MCP endpoints). */
export const MODEL_NOWHERE = 'filled in nowhere: its provider is neither a known model provider nor an https base URL';

/**
 * A `model` record's provider, read: a pi-ai provider id the built-in entries name, an https base
 * URL on 443 without credentials, query or fragment, or nothing it can be filled in for.
 */
export function modelBinding(provider: string | undefined, known: ReadonlySet<string>): { id: string } | { base: URL } | null {
  if (provider === undefined) return null;
  if (known.has(provider)) return { id: provider };
  let url: URL;
  try {
    url = new URL(provider);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password || url.search || url.hash) return null;
  return { base: url };
}

/**
 * A provider as the agent names it, for comparing: a URL as the URL parser writes it, anything
 * else as it is. Two spellings are the same provider when their keys are equal.
 */
export function providerKey(provider: string): string {
  // Without a colon a string is no absolute URL: no parse (and no exception) for a provider id.
  if (!provider.includes(':')) return `id ${provider}`;
  try {
    return `url ${new URL(provider).href}`;
  } catch {
    return `id ${provider}`;
  }
}

/** What makes a URL a model request: the provider ids of the built-in entries it lies under, and whether a bound base URL holds it. */
export interface ModelTarget {
  providers: string[];
}

/** Where a `model` record's provider binds it when it is a base URL: the endpoint it is filled in under; else null. */
export function modelBase(provider: string | undefined, known: ReadonlySet<string>): Endpoint | null {
  const binding = modelBinding(provider, known);
  return binding && 'base' in binding ? { host: normalizeHost(binding.base.hostname), path: binding.base.pathname } : null;
}

/**
 * Whether a URL is a model request, read the broadest way: under a built-in entry (its providers),
 * or under a base URL a `model` record is bound to (`bases`, prepared as the records change). Null
 * when neither.
 */
export function modelRequest(url: string, builtin: readonly Endpoint[], bases: readonly Endpoint[]): ModelTarget | null {
  if (url.length > MAX_URL_BYTES) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const under = endpointsUnder(parsed, builtin);
  const providers = [...new Set(under.flatMap((e) => e.providers ?? []))];
  if (under.some((e) => e.providers?.length)) return { providers };
  return endpointsUnder(parsed, bases).length > 0 ? { providers } : null;
}

export interface ModelInput {
  head: RequestHead;
  exit: ExitName;
  rawTraits: RawTraits;
  locked: boolean;
  now: number;
  records: ReadonlyMap<string, ModelRecord>;
  target: ModelTarget;
  /** Every provider id the built-in entries name. */
  known: ReadonlySet<string>;
}
export interface ModelUse {
  name: string;
  provider: string;
}
export type ModelDecision =
  | { inject: true; head: RequestHead; uses: ModelUse[]; domain: string; path: string }
  | { inject: false; status: 403 | 502; reason: string; expired?: string };

/** The headers a model key goes in: each provider's own (README, Model and MCP endpoints). */
const MODEL_KEY_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];

const refuse = (reason: string, status: 403 | 502 = 403): ModelDecision & { inject: false } => ({ inject: false, status, reason });

export function decideModel({ head, exit, rawTraits, locked, now, records, target, known }: ModelInput): ModelDecision {
  const refusal = headRefusal(head, () => false);
  if (refusal) return refuse(refusal);
  const url = new URL(head.url);
  // Without a `model` placeholder it is refused as every request to a model endpoint is (a secret's
  // included); with one, a secret beside it is named for what it is.
  const ours = head.headers.flatMap(([, value]) => [...value.matchAll(PLACEHOLDERS)].map(([p]) => records.get(p)).filter((r) => r !== undefined));
  if (!ours.some((r) => r.kind === 'model')) return refuse(ENDPOINT_REASON);
  if (rawTraits.encodedBodies) return refuse(`exit ${clean(exit)} has encoded bodies, which can't be scrubbed`, 502);
  const uses = new Map<string, ModelUse>();
  // Each placeholder's header: a key goes in one header, once (README, Model and MCP endpoints).
  const once = new OncePerHead();
  for (const [i, [name, value]] of head.headers.entries()) {
    for (const [p] of value.matchAll(PLACEHOLDERS)) {
      const record = records.get(p);
      if (!record) continue;
      if (record.kind !== 'model') return refuse(SECRET_TO_MCP);
      if (record.removedAt != null) return refuse(`${record.name} was removed`);
      if (record.expiresAt != null && record.expiresAt <= now) return { ...refuse(`${record.name} expired; refreshing`), expired: record.name };
      const binding = modelBinding(record.provider, known);
      if (!binding) return refuse(`${record.name} is ${MODEL_NOWHERE}`);
      const bound = 'id' in binding ? target.providers.includes(binding.id) : underServerUrl(url, binding.base);
      if (!bound) return refuse(`${record.name} is a credential of ${clean(record.provider!)}, not of this endpoint`);
      const twice = once.see(p, i, record.name);
      if (twice) return refuse(twice);
      const header = name.toLowerCase();
      if (!MODEL_KEY_HEADERS.includes(header)) return refuse(`${record.name} may go only in ${MODEL_KEY_HEADERS.join(', ')}`);
      if (!rawTraits.manualRedirects && header !== 'authorization') {
        return refuse(`${record.name} may go only in authorization on an exit that follows redirects`);
      }
      uses.set(record.name, { name: record.name, provider: record.provider! });
    }
  }
  if (locked) return refuse('vault is locked');
  const headers = head.headers.map(([name, value]): [string, string] => [name, value.replace(PLACEHOLDERS, (p) => records.get(p)?.value ?? p)]);
  for (const [n, v] of headers) if (/[\r\n\0]/.test(n + v)) return refuse(`header ${clean(n.toLowerCase())} would contain CR, LF or NUL`);
  return {
    inject: true,
    head: { method: head.method, url: head.url, headers },
    uses: [...uses.values()],
    domain: normalizeHost(url.hostname),
    path: url.pathname,
  };
}
