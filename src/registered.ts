// Model base URLs and MCP servers the agent registers for its namespace (`endpoints`). They only
// ever add to the refused set. Pure: checking and merging are functions of their inputs.
import type { McpServerEntry } from './contract.ts';
import { type Endpoint, toEndpoint } from './endpoints.ts';
import { einval } from './errors.ts';
import { isKernelMcpUrl } from './injector.ts';
import { RECORD_NAME } from './validate.ts';

export interface Registered {
  model: string[];
  mcp: McpServerEntry[];
}

export const emptyRegistered = (): Registered => ({ model: [], mcp: [] });

/** An https base URL on 443 without credentials, query or fragment (or the kernel MCP form). */
function checkUrl(field: string, url: unknown, kernelForm: boolean): string {
  if (typeof url !== 'string') throw einval(`${field} must be a URL string`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw einval(`${field} is not a URL`);
  }
  const https = parsed.protocol === 'https:' && parsed.port === '';
  if (!https && !(kernelForm && isKernelMcpUrl(url))) {
    throw einval(`${field} must be https on port 443${kernelForm ? ' (or http://<port>.kernel.localhost/…)' : ''}`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw einval(`${field} must have no credentials, query or fragment`);
  }
  return parsed.href;
}

/** Checks an `endpoints` op's fields; EINVAL names the entry that is wrong. */
export function checkRegistration(model: unknown, mcp: unknown): Registered {
  if (model === undefined && mcp === undefined) throw einval('endpoints needs model or mcp');
  if (model !== undefined && !Array.isArray(model)) throw einval('model must be a list of base URLs');
  if (mcp !== undefined && !Array.isArray(mcp)) throw einval('mcp must be a list of servers');
  return {
    model: (model ?? []).map((url: unknown, i: number) => checkUrl(`model[${i}]`, url, false)),
    mcp: (mcp ?? []).map((entry: unknown, i: number): McpServerEntry => {
      if (typeof entry === 'string') {
        const url = checkUrl(`mcp[${i}]`, entry, true);
        return { server: url, url };
      }
      const e = entry as Partial<McpServerEntry> | null;
      if (!e || typeof e !== 'object') throw einval(`mcp[${i}] must be a URL or { server, url, names? }`);
      const extra = Object.keys(e).find((k) => !['server', 'url', 'names'].includes(k));
      if (extra) throw einval(`mcp[${i}] takes only server, url and names`);
      if (typeof e.server !== 'string' || !e.server || e.server.length > 128) throw einval(`mcp[${i}].server must be a name of 1 to 128 characters`);
      const url = checkUrl(`mcp[${i}].url`, e.url, true);
      if (e.names !== undefined && (!Array.isArray(e.names) || !e.names.every((n) => typeof n === 'string' && RECORD_NAME.test(n)))) {
        throw einval(`mcp[${i}].names must be a list of record names`);
      }
      return { server: e.server, url, ...(e.names && { names: [...new Set(e.names)] }) };
    }),
  };
}

/** Adds new entries (a known MCP server gains names, never loses them); `changed` if anything was new. */
export function mergeRegistered(current: Registered, added: Registered): { registered: Registered; changed: boolean } {
  const model = [...new Set([...current.model, ...added.model])];
  const mcp = current.mcp.map((s) => ({ ...s, ...(s.names && { names: [...s.names] }) }));
  for (const entry of added.mcp) {
    const same = mcp.find((s) => s.server === entry.server && s.url === entry.url);
    if (!same) mcp.push(entry);
    else if (entry.names) same.names = [...new Set([...(same.names ?? []), ...entry.names])];
  }
  const registered = { model, mcp };
  return { registered, changed: JSON.stringify(registered) !== JSON.stringify(current) };
}

/** The refused set: the built-in list and every registered model and MCP URL. */
export function refusedEndpoints(builtin: readonly Endpoint[], registered: Registered | undefined): Endpoint[] {
  const extra = [...(registered?.model ?? []), ...(registered?.mcp ?? []).map((s) => s.url)].map(toEndpoint).filter((e): e is Endpoint => e !== null);
  return [...builtin, ...extra];
}
