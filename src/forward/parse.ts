// The `forward` op's fields (README, Forward), parsed once at the boundary into a `ForwardRequest`,
// or EINVAL naming the field that is wrong. A head past a limit is measured here, never read
// through: the injector refuses it naming the limit.
import type { ExitName, RawTraits, RequestHead, Stamp } from '../contract.ts';
import { einval } from '../errors.ts';
import { MAX_HEAD_BYTES, MAX_HEADERS, MAX_URL_BYTES } from '../limits.ts';
import { EXIT_NAME, HTTP_TOKEN, isDense, parseStamp } from '../validate.ts';
import { readUrl } from '../inject/index.ts';

export interface ForwardRequest {
  head: RequestHead;
  /** `head.url` parsed, once, here: null only past the URL limit (the decision refuses it unread). */
  url: URL | null;
  /** As bios sent it: a string is encoded only where it is scrubbed, in slices (an MCP request's). */
  body?: string | Uint8Array;
  owner: Stamp;
  exit: ExitName;
  rawTraits: RawTraits;
}

/** Checks the op's fields; EINVAL names the one that is wrong. */
export function parseForward(fields: Record<string, unknown>): ForwardRequest {
  const head = fields.head as Partial<RequestHead> | null;
  if (!head || typeof head !== 'object') throw einval('head must be { method, url, headers }');
  // Past a head limit the injector refuses the request naming the limit (README, Limits): a URL,
  // header list or name longer than a limit is never parsed or matched here, only measured.
  if (typeof head.method !== 'string' || head.method.length > MAX_HEAD_BYTES || !HTTP_TOKEN.test(head.method)) {
    throw einval('head.method must be an HTTP method');
  }
  if (typeof head.url !== 'string') throw einval('head.url must be a string');
  const url = readUrl(head.url);
  if (url === null && head.url.length <= MAX_URL_BYTES) throw einval('head.url is not a URL');
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
    url,
    ...(body !== undefined && { body }),
    owner: parseStamp(fields.owner),
    exit: fields.exit as ExitName,
    rawTraits: traits as RawTraits,
  };
}
