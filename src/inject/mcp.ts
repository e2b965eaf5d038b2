// Kernel programs calling an MCP server (README, Model and MCP endpoints). A URL is an MCP server's
// when, read the broadest way, it lies under a server the agent registered or under the server URL
// the page bound an `mcp` record to (its `provider`). Such a request is handled for MCP only: no
// `secret`, `grant` or `model` value ever goes there; an `mcp` record is filled in only under its
// own server URL, taken the narrow way (the path as sent), so an agent's registration can never
// send a credential to a new host; a registered server's `names` narrow which bound records it
// uses; and every exit rule of `forward` holds. The decision is `decide.ts`'s; here is how a
// binding reads. Pure.
import { normalizeHost } from './endpoints.ts';
import { kernelForm } from './request.ts';

export const SECRET_TO_MCP = 'secrets are never sent to model or MCP endpoints';

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
  if (!https && !kernelForm(url, provider)) return null;
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
