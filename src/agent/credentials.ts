// What the agent may know of the namespace's credentials (README, The agent's ops): its records
// by name with their placeholders (`records`), the model credential bound to a provider (`model`),
// and the MCP credentials bound to a registered server (`mcp`). Never a value. Pure.
import type { AgentRecord } from '../contract.ts';
import { VaultError } from '../errors.ts';
import { type InEffect, mcpServerUrl, modelBinding, providerKey, underServerUrl } from '../inject/index.ts';
import { secretState } from '../policy/index.ts';
import type { StoredRecord } from '../store/index.ts';

/** Every record that isn't removed, sorted by name (code-unit order): what the agent may reference. */
export function agentRecords(records: readonly StoredRecord[], effect: InEffect): AgentRecord[] {
  return records
    .filter((r) => r.removedAt === undefined)
    .map((r) => ({
      name: r.name,
      kind: r.kind,
      ...(r.provider !== undefined && { provider: r.provider }),
      ...(r.account !== undefined && { account: r.account }),
      placeholder: r.placeholder,
      state: secretState(r, r.name, effect.policy.config),
      ...(r.expiresAt !== undefined && { expiresAt: r.expiresAt }),
    }));
}

/** The same provider: an id as it is, a base URL as the URL parser writes it. */
const sameProvider = (a: string, b: string) => a === b || providerKey(a) === providerKey(b);

/**
 * Of the live `model` records bound to a provider (a pi-ai provider id or an https base URL), by
 * name (the namespace's provider index), the newest by `updatedAt`, with the base URLs its key
 * goes to; ENOENT without one.
 */
export function modelCredential(bound: readonly StoredRecord[], effect: InEffect) {
  const binding = bound.length ? modelBinding(bound[0]!.provider, effect.known) : null;
  if (!binding) throw new VaultError('ENOENT', 'no model credential for that provider');
  const newest = bound.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a));
  const baseUrls =
    'id' in binding
      ? effect.models.filter((e) => e.providers?.includes(binding.id)).map((e) => `https://${e.host}${e.path === '/' ? '' : e.path}`)
      : [binding.base.href];
  return { name: newest.name, placeholder: newest.placeholder, provider: newest.provider!, baseUrls };
}

/**
 * The credentials of a registered MCP server (by its name or URL): the `mcp` records bound to a URL
 * its URL lies under, narrowed by its `names`; ENOENT for a server not registered.
 */
export function mcpCredentials(records: readonly StoredRecord[], server: string, effect: InEffect) {
  const entry = effect.mcp.find((s) => s.server === server) ?? effect.mcp.find((s) => sameProvider(s.url, server));
  if (!entry) throw new VaultError('ENOENT', 'no MCP server of that name or URL is registered');
  const url = new URL(entry.url);
  const credentials = records
    .filter((r) => {
      if (r.kind !== 'mcp' || r.removedAt !== undefined) return false;
      const base = mcpServerUrl(r.provider);
      return base !== null && underServerUrl(url, base) && (entry.names === undefined || entry.names.includes(r.name));
    })
    .map((r) => ({ name: r.name, placeholder: r.placeholder }));
  return { server: entry.server, url: entry.url, credentials };
}
