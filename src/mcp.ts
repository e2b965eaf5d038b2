// Kernel programs calling a registered MCP server (README, Model and MCP endpoints): the request
// is handled for that server only. Only `mcp` records the server lists in `names` are filled in;
// any other placeholder of this vault is refused. Pure, like the injector.
import type { McpServerEntry, RequestHead } from './contract.ts';
import { matchesEndpoint, normalizeHost, toEndpoint } from './endpoints.ts';
import { type InjectRecord, headRefusal } from './injector.ts';
import { PLACEHOLDERS } from './validate.ts';
export const SECRET_TO_MCP = 'secrets are never sent to model or MCP endpoints';

export interface McpInput {
  head: RequestHead;
  locked: boolean;
  now: number;
  records: ReadonlyMap<string, InjectRecord>;
  server: McpServerEntry;
}
export type McpDecision =
  | { inject: true; head: RequestHead; names: string[]; domain: string; method: string; path: string }
  | { inject: false; status: 403; reason: string };

const refuse = (reason: string): McpDecision => ({ inject: false, status: 403, reason });

/** The registered MCP server a URL lies under, if any. */
export function mcpServerFor(url: string, servers: readonly McpServerEntry[]): McpServerEntry | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return servers.find((s) => {
    const endpoint = toEndpoint(s.url);
    return endpoint !== null && matchesEndpoint(parsed, [endpoint]);
  });
}

export function decideMcp({ head, locked, now, records, server }: McpInput): McpDecision {
  // The injector's checks of the URL and header names; a registered server may use the kernel form.
  const refusal = headRefusal(head, () => true);
  if (refusal) return refuse(refusal);
  const url = new URL(head.url);
  const names = new Set<string>();
  for (const [, value] of head.headers) {
    const seen = new Set<string>();
    for (const [p] of value.matchAll(PLACEHOLDERS)) {
      const record = records.get(p);
      if (!record) continue;
      if (record.kind !== 'mcp') return refuse(SECRET_TO_MCP);
      if (!(server.names ?? []).includes(record.name)) return refuse(`${record.name} is not a credential of MCP server ${server.server}`);
      if (record.removedAt != null) return refuse(`${record.name} was removed`);
      if (record.expiresAt != null && record.expiresAt <= now) return refuse(`${record.name} expired; refreshing`);
      if (seen.has(p)) return refuse(`${record.name} appears twice in one header value`);
      seen.add(p);
      names.add(record.name);
    }
  }
  const headers = head.headers.map(([name, value]): [string, string] => [name, value.replace(PLACEHOLDERS, (p) => records.get(p)?.value ?? p)]);
  if (names.size > 0 && locked) return refuse('vault is locked');
  for (const [n, v] of headers) if (/[\r\n\0]/.test(n + v)) return refuse(`header ${n.toLowerCase()} would contain CR, LF or NUL`);
  return {
    inject: true,
    head: { method: head.method, url: head.url, headers },
    names: [...names],
    domain: normalizeHost(url.hostname),
    method: head.method.toUpperCase(),
    path: url.pathname,
  };
}
