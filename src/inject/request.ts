// A request as every injection decision reads it (README, Forward): its head, exit and traits, and
// its URL parsed once where it comes in (`readUrl`), so that no check, route or rule parses it again.
// The head's checks of docs/injector.md (1–12) are here, in their order. Pure.
import type { ExitName, RawTraits, RequestHead } from '../contract.ts';
import { normalizeHost } from './endpoints.ts';
import { MAX_HEADERS, MAX_HEAD_BYTES, MAX_URL_BYTES, utf8Length } from '../limits.ts';
import { PLACEHOLDER_ANY_CASE as ANY_PLACEHOLDER } from '../validate.ts';
import { hasMalformedEscape, isAmbiguousPath, percentDecode } from './urls.ts';

export interface InjectRequest {
  head: RequestHead;
  /** `head.url` as `readUrl` parsed it: null past the URL limit or when it isn't a URL. */
  url: URL | null;
  exit: ExitName;
  rawTraits: RawTraits;
}

/** The URL parsed, once, at the boundary: null when it is longer than the limit (never read through) or isn't a URL. */
export function readUrl(raw: string): URL | null {
  // UTF-8 takes at least a byte per UTF-16 unit: a text over the limit in units is refused unread.
  if (raw.length > MAX_URL_BYTES) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** The kernel MCP form `http://<port>.kernel.localhost/<path>`: port 1–65535 but 9222, none explicit. */
export function isKernelMcpUrl(url: string | URL): boolean {
  const raw = String(url);
  if (typeof url !== 'string') return kernelForm(url, raw);
  try {
    return kernelForm(new URL(raw), raw);
  } catch {
    return false;
  }
}

/** `isKernelMcpUrl` of a URL parsed already from `raw`. */
export function kernelForm(url: URL, raw: string): boolean {
  const m = /^([1-9][0-9]{0,4})\.kernel\.localhost$/.exec(normalizeHost(url.hostname));
  const port = m ? Number(m[1]) : 0;
  const authority = /^http:\/\/([^/?#\\]*)/i.exec(raw)?.[1] ?? ':';
  return url.protocol === 'http:' && port >= 1 && port <= 65535 && port !== 9222 && !url.username && !url.password && !authority.includes(':');
}

/**
 * The checks every injection starts with, on the head's size, the URL and the header names, in
 * the order of docs/injector.md: the reason of the first that fails, or the URL. `kernelAllowed`
 * says whether a kernel MCP URL (`http://<port>.kernel.localhost/…`) may pass the https check.
 */
export function checkHead({ head, url }: InjectRequest, kernelAllowed: (url: URL) => boolean): string | URL {
  const raw = head.url;
  // UTF-8 takes at least a byte per UTF-16 unit: a text over a limit in units is over it in bytes,
  // and is never read through.
  const urlBytes = raw.length > MAX_URL_BYTES ? raw.length : utf8Length(raw);
  if (urlBytes > MAX_URL_BYTES) return `URL is longer than the limit of ${MAX_URL_BYTES} bytes`;
  if (head.headers.length > MAX_HEADERS) return `head has more than the limit of ${MAX_HEADERS} headers`;
  const units = head.headers.reduce((n, [name, value]) => n + name.length + value.length, head.method.length + raw.length);
  if (units > MAX_HEAD_BYTES) return `head is larger than the limit of ${MAX_HEAD_BYTES} bytes`;
  const size = head.headers.reduce((n, [name, value]) => n + utf8Length(name) + utf8Length(value), utf8Length(head.method) + urlBytes);
  if (size > MAX_HEAD_BYTES) return `head is larger than the limit of ${MAX_HEAD_BYTES} bytes`;
  if (/[\x00-\x20\x7f]/.test(raw)) return 'URL contains whitespace or control characters';
  if (url === null) return 'invalid URL';
  // Before the placeholder check: a malformed escape must not stop the URL from being decoded.
  if (hasMalformedEscape(raw)) return 'malformed percent-escape in the URL';
  if (ANY_PLACEHOLDER.test(raw) || ANY_PLACEHOLDER.test(percentDecode(raw))) return 'placeholder in the URL; only header values are filled in';
  if (head.headers.some(([name]) => ANY_PLACEHOLDER.test(name))) return 'placeholder in a header name';
  if (url.username || url.password) return 'credentials in the URL';
  const httpsOn443 = url.protocol === 'https:' && url.port === '';
  if (!httpsOn443 && !(kernelForm(url, raw) && kernelAllowed(url))) return 'only https on port 443 is injected';
  if (isAmbiguousPath(raw)) return 'ambiguous path';
  if (raw.includes('%25')) return 'ambiguous URL: %25 encodes a %, which servers may decode twice';
  return url;
}
