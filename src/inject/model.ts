// The agent's model requests (README, Model and MCP endpoints): a URL under a built-in model
// entry, or under a `model` record's base URL, read the broadest way, is a model request. There the
// vault fills in only `model` placeholders bound to that endpoint's provider (a pi-ai provider id,
// or an https base URL the URL lies under the narrow way), never a secret, grant or MCP credential,
// each once, in the header the request carries it in; every exit rule and head limit of a forward
// holds. Rules never apply here. The decision is `decide.ts`'s model route; here is how a provider
// reads. Pure.
import { type Endpoint, endpointsUnder } from './endpoints.ts';

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

/**
 * Whether a URL is a model request, read the broadest way: under a built-in entry (its providers),
 * or under a base URL a `model` record is bound to (`bases`, prepared as the records change). Null
 * when neither.
 */
export function modelRequest(parsed: URL, builtin: readonly Endpoint[], bases: readonly Endpoint[]): ModelTarget | null {
  const under = endpointsUnder(parsed, builtin);
  const providers = [...new Set(under.flatMap((e) => e.providers ?? []))];
  if (under.some((e) => e.providers?.length)) return { providers };
  return endpointsUnder(parsed, bases).length > 0 ? { providers } : null;
}

/** The headers a model key goes in: each provider's own (README, Model and MCP endpoints). */
export const MODEL_KEY_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];
