// Model base URLs and MCP servers the agent registers for its namespace (`endpoints`). They only
// ever add to the refused set. Pure: checking and merging are functions of their inputs.
import type { McpServerEntry, RegisteredEndpoints } from '../contract.ts';
import { type Endpoint, toEndpoint } from './endpoints.ts';
import { einval } from '../errors.ts';
import { MAX_REGISTERED, MAX_REGISTERED_STARS, MAX_REGISTERED_URL_BYTES, MAX_SERVER_NAMES, utf8Length } from '../limits.ts';
import { isKernelMcpUrl } from './request.ts';
import { RECORD_NAME, isDense } from '../validate.ts';

/** The model base URLs and MCP servers a namespace holds (the contract's shape). */
export type Registered = RegisteredEndpoints;

export const emptyRegistered = (): Registered => ({ model: [], mcp: [] });

/** An https base URL on 443 without credentials, query or fragment (or the kernel MCP form). */
function checkUrl(field: string, url: unknown, kernelForm: boolean): string {
  if (typeof url !== 'string') throw einval(`${field} must be a URL string`);
  // The limits come first, so no pattern is ever read whole that is longer than them (README, Limits).
  if (utf8Length(url) > MAX_REGISTERED_URL_BYTES) throw einval(`${field} must be at most ${MAX_REGISTERED_URL_BYTES} bytes`);
  if (url.split('*').length - 1 > MAX_REGISTERED_STARS) throw einval(`${field} may hold at most ${MAX_REGISTERED_STARS} *`);
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
  // The URL kept is the parsed one: its escapes written out, `%2A` a star once matched. The limits hold for it too.
  const href = parsed.href;
  if (utf8Length(href) > MAX_REGISTERED_URL_BYTES) throw einval(`${field} must be at most ${MAX_REGISTERED_URL_BYTES} bytes as a URL reads`);
  if (starsIn(href) > MAX_REGISTERED_STARS) throw einval(`${field} may hold at most ${MAX_REGISTERED_STARS} *`);
  return href;
}

/** The `*` of a URL, and its `%2A` in either case. */
function starsIn(href: string): number {
  let stars = 0;
  for (let i = 0; i < href.length; i++) {
    if (href[i] === '*') stars++;
    else if (href[i] === '%' && href[i + 1] === '2' && (href[i + 2] === 'A' || href[i + 2] === 'a')) stars++;
  }
  return stars;
}

/** Checks an `endpoints` op's fields; EINVAL names the entry that is wrong. */
export function checkRegistration(model: unknown, mcp: unknown): Registered {
  if (model === undefined && mcp === undefined) throw einval('endpoints needs model or mcp');
  if (model !== undefined && (!Array.isArray(model) || !isDense(model))) throw einval('model must be a list of base URLs');
  if (mcp !== undefined && (!Array.isArray(mcp) || !isDense(mcp))) throw einval('mcp must be a list of servers');
  // Checked before any entry is read: a longer list could never fit.
  if ((model?.length ?? 0) + (mcp?.length ?? 0) > MAX_REGISTERED) throw tooMany();
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
      if (e.names !== undefined) {
        if (!Array.isArray(e.names)) throw einval(`mcp[${i}].names must be a list of record names`);
        if (e.names.length > MAX_SERVER_NAMES) throw tooManyNames();
        if (!isDense(e.names) || !e.names.every((n) => typeof n === 'string' && RECORD_NAME.test(n)))
          throw einval(`mcp[${i}].names must be a list of record names`);
      }
      return { server: e.server, url, ...(e.names && { names: [...new Set(e.names)] }) };
    }),
  };
}

const tooManyNames = () => einval(`an MCP server may list at most ${MAX_SERVER_NAMES} record names`);
const tooMany = () => einval(`a namespace holds at most ${MAX_REGISTERED} registered endpoints; unregister some in Settings`);
export const count = (r: Registered) => r.model.length + r.mcp.length;

/**
 * Adds new entries (a known MCP server gains names, never loses them); `changed` if anything was
 * new, and `added` what was. EINVAL when the namespace would hold more than the limit.
 */
export function mergeRegistered(current: Registered, added: Registered): { registered: Registered; changed: boolean; added: Registered } {
  const model = [...new Set([...current.model, ...added.model])];
  const mcp = current.mcp.map((s) => ({ ...s, ...(s.names && { names: [...s.names] }) }));
  const news: Registered = { model: model.slice(current.model.length), mcp: [] };
  for (const entry of added.mcp) {
    const same = mcp.find((s) => s.server === entry.server && s.url === entry.url);
    if (!same) {
      mcp.push(entry);
      news.mcp.push(entry);
    } else if (entry.names) {
      const before = new Set(same.names ?? []);
      const gained = entry.names.filter((n) => !before.has(n));
      if (gained.length === 0) continue;
      same.names = [...before, ...gained];
      if (same.names.length > MAX_SERVER_NAMES) throw tooManyNames();
      news.mcp.push({ server: entry.server, url: entry.url, names: gained });
    }
  }
  const registered = { model, mcp };
  if (count(registered) > MAX_REGISTERED) throw tooMany();
  return { registered, changed: JSON.stringify(registered) !== JSON.stringify(current), added: news };
}

/** Checks an `unregister`'s fields: model base URLs and MCP server URLs, as strings. */
export function checkUnregister(model: unknown, mcp: unknown): { model: string[]; mcp: string[] } {
  if (model === undefined && mcp === undefined) throw einval('unregister needs model or mcp');
  const urls = (field: string, list: unknown): string[] => {
    if (list === undefined) return [];
    if (!Array.isArray(list) || list.length > MAX_REGISTERED || !isDense(list)) throw einval(`${field} must be a list of at most ${MAX_REGISTERED} URLs`);
    return list.map((url, i) => {
      if (typeof url !== 'string' || utf8Length(url) > MAX_REGISTERED_URL_BYTES) throw einval(`${field}[${i}] must be a registered URL`);
      return url;
    });
  };
  return { model: urls('model', model), mcp: urls('mcp', mcp) };
}

/**
 * Removes the given model URLs and every MCP server at the given URLs; `removed` is what went. A
 * URL is named as stored or as the page was shown it (`shown`: scrubbed).
 */
export function removeRegistered(
  current: Registered,
  gone: { model: string[]; mcp: string[] },
  shown: (text: string) => string = (t) => t,
): { registered: Registered; removed: Registered } {
  const named = (list: string[], url: string) => list.includes(url) || list.includes(shown(url));
  const removed: Registered = {
    model: current.model.filter((u) => named(gone.model, u)),
    mcp: current.mcp.filter((s) => named(gone.mcp, s.url)),
  };
  return {
    registered: { model: current.model.filter((u) => !named(gone.model, u)), mcp: current.mcp.filter((s) => !named(gone.mcp, s.url)) },
    removed,
  };
}

/** The refused set: the built-in list and every registered model and MCP URL. */
export function refusedEndpoints(builtin: readonly Endpoint[], registered: Registered | undefined): Endpoint[] {
  const extra = [...(registered?.model ?? []), ...(registered?.mcp ?? []).map((s) => s.url)].map(toEndpoint).filter((e): e is Endpoint => e !== null);
  return [...builtin, ...extra];
}

/**
 * Registrations as the page sees them (`list.registered`, the `endpoints` audit entry): every
 * agent-chosen string passed through the namespace's scrubber, so a value the agent wrote into a
 * server name or URL never reaches a reply, event or audit entry (README, Embedding API: values).
 */
export function scrubbedRegistered(r: Registered, scrub: (text: string) => string): Registered {
  return {
    model: r.model.map(scrub),
    mcp: r.mcp.map((s) => ({ server: scrub(s.server), url: scrub(s.url), ...(s.names && { names: s.names.map(scrub) }) })),
  };
}
