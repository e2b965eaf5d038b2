// Kernel programs calling an MCP server (README, Model and MCP endpoints). A URL is an MCP server's
// when, read the broadest way, it lies under a server the agent registered or under the server URL
// the page bound an `mcp` record to (its `provider`). Such a request is handled for MCP only: no
// `secret`, `grant` or `model` value ever goes there; an `mcp` record is filled in only under its
// own server URL, taken the narrow way (the path as sent), so an agent's registration can never
// send a credential to a new host; a registered server's `names` narrow which bound records it
// uses; and every exit rule of `forward` holds. Pure, like the injector.
import type { ExitName, McpServerEntry, RawTraits, RequestHead } from '../contract.ts';
import { type Endpoint, matchesEndpoint, normalizeHost, toEndpoint } from './endpoints.ts';
import { type InjectRecord, OncePerHead, clean, headRefusal, isKernelMcpUrl } from './injector.ts';
import { MAX_URL_BYTES } from '../limits.ts';
import { PLACEHOLDERS } from '../validate.ts';

export const SECRET_TO_MCP = 'secrets are never sent to model or MCP endpoints';

/** An `mcp` record as the decision needs it: its `provider`, the server URL the page bound it to. */
export type McpRecord = InjectRecord & { provider?: string };

export interface McpInput {
  head: RequestHead;
  exit: ExitName;
  rawTraits: RawTraits;
  locked: boolean;
  now: number;
  records: ReadonlyMap<string, McpRecord>;
  /** The registered servers the URL lies under (`mcpRequest`); may be empty when only a binding holds it. */
  servers: readonly McpServerEntry[];
}
export type McpDecision =
  | { inject: true; head: RequestHead; names: string[]; server: string; domain: string; method: string; path: string }
  | { inject: false; status: 403 | 502; reason: string; expired?: string };

const refuse = (reason: string, status: 403 | 502 = 403): McpDecision => ({ inject: false, status, reason });

/**
 * A `provider` that names an MCP server: https on 443 (or the kernel form), without credentials,
 * query or fragment. Anything else binds a record to nothing, so it is filled in nowhere.
 */
export function mcpServerUrl(provider: string | undefined): URL | null {
  if (!provider) return null;
  let url: URL;
  try {
    url = new URL(provider);
  } catch {
    return null;
  }
  const https = url.protocol === 'https:' && url.port === '';
  if (!https && !isKernelMcpUrl(provider)) return null;
  if (url.username || url.password || url.search || url.hash) return null;
  return url;
}

/** `url` under `base` the narrow way: the same scheme and host, and the base's path segments exactly as sent. */
export function underServerUrl(url: URL, base: URL): boolean {
  if (url.protocol !== base.protocol || normalizeHost(url.hostname) !== normalizeHost(base.hostname) || url.port !== base.port) return false;
  const want = base.pathname.split('/').filter(Boolean);
  const have = url.pathname.split('/').slice(1);
  return want.length <= have.length && want.every((s, i) => s === have[i]);
}

/**
 * Whether a URL is an MCP request: the registered servers it lies under, and whether it lies under
 * a bound server URL, both read the broadest way (as the refusal reads them). Null when neither.
 */
/** Where an `mcp` record's provider binds it: its server's endpoint, or null (filled in nowhere). */
export function mcpEndpoint(provider: string | undefined): Endpoint | null {
  const base = mcpServerUrl(provider);
  return base ? toEndpoint(base.href) : null;
}

/**
 * Whether a URL is an MCP request: under a registered server (those it lies under), or under the
 * server an `mcp` record is bound to (`bound`, prepared as the records change).
 */
export function mcpRequest(url: string, registered: readonly McpServerEntry[], bound: readonly Endpoint[]): { servers: McpServerEntry[] } | null {
  // Over the URL limit a request is refused as any other (README, Limits), never parsed.
  if (url.length > MAX_URL_BYTES) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const under = (server: string) => {
    const endpoint = toEndpoint(server);
    return endpoint !== null && matchesEndpoint(parsed, [endpoint]);
  };
  const servers = registered.filter((s) => under(s.url));
  return servers.length > 0 || (bound.length > 0 && matchesEndpoint(parsed, bound)) ? { servers } : null;
}

export function decideMcp({ head, exit, rawTraits, locked, now, records, servers }: McpInput): McpDecision {
  // The injector's checks of the head's size, the URL and header names; the kernel form may pass.
  const refusal = headRefusal(head, () => true);
  if (refusal) return refuse(refusal);
  const url = new URL(head.url);
  // The exit rules of every forward (README, Forward).
  if (rawTraits.encodedBodies) return refuse(`exit ${clean(exit)} has encoded bodies, which can't be scrubbed`, 502);
  const names = new Set<string>();
  let server: string | undefined;
  const once = new OncePerHead();
  for (const [i, [name, value]] of head.headers.entries()) {
    for (const [p] of value.matchAll(PLACEHOLDERS)) {
      const record = records.get(p);
      if (!record) continue;
      if (record.kind !== 'mcp') return refuse(SECRET_TO_MCP);
      if (record.removedAt != null) return refuse(`${record.name} was removed`);
      if (record.expiresAt != null && record.expiresAt <= now) return { ...refuse(`${record.name} expired; refreshing`), expired: record.name } as McpDecision;
      const base = mcpServerUrl(record.provider);
      if (!base) return refuse(`${record.name} names no MCP server URL in its provider, so it is filled in nowhere`);
      if (!underServerUrl(url, base)) return refuse(`${record.name} is bound to the MCP server ${clean(base.href)}, and this URL isn't under it`);
      const narrowing = servers.find((s) => s.names !== undefined && !s.names.includes(record.name));
      if (narrowing) return refuse(`${record.name} is not a credential of MCP server ${clean(narrowing.server)}`);
      const twice = once.see(p, i, record.name);
      if (twice) return refuse(twice);
      if (!rawTraits.manualRedirects && name.toLowerCase() !== 'authorization') {
        return refuse(`${record.name} may go only in authorization on an exit that follows redirects`);
      }
      names.add(record.name);
      server ??= base.href;
    }
  }
  if (names.size > 0 && locked) return refuse('vault is locked');
  const headers = head.headers.map(([name, value]): [string, string] => [name, value.replace(PLACEHOLDERS, (p) => records.get(p)?.value ?? p)]);
  for (const [n, v] of headers) if (/[\r\n\0]/.test(n + v)) return refuse(`header ${clean(n.toLowerCase())} would contain CR, LF or NUL`);
  return {
    inject: true,
    head: { method: head.method, url: head.url, headers },
    names: [...names],
    server: servers[0]?.server ?? server ?? url.origin,
    domain: normalizeHost(url.hostname),
    method: head.method.toUpperCase(),
    path: url.pathname,
  };
}
