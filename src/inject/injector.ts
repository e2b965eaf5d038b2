/**
 * The injector's decision: fnox's proxy semantics as a pure function. Given a request head and
 * the namespace's records, rules, exits and refused endpoints, it answers the head with values
 * filled in, or a refusal with a one-line reason. It sends nothing and stores nothing; the
 * `forward` op audits `uses`. Reasons never carry a value. docs/injector.md lists them.
 */
import type { ExitName, RawTraits, RecordKind, RequestHead, Rule } from '../contract.ts';
import { ENDPOINT_REASON, type Endpoint, matchesEndpoint, normalizeHost } from './endpoints.ts';
import { PLACEHOLDER_ANY_CASE as ANY_PLACEHOLDER, PLACEHOLDERS } from '../validate.ts';
import { MAX_HEADERS, MAX_HEAD_BYTES, MAX_URL_BYTES, utf8Length } from '../limits.ts';
import { globMatches, PathReader } from './match.ts';
import { hasMalformedEscape, isAmbiguousPath, percentDecode } from './urls.ts';

export interface InjectRecord {
  name: string;
  kind: RecordKind;
  placeholder: string;
  removedAt?: number;
  expiresAt?: number;
  /** Only for substitution: the decision puts it nowhere but the returned head. */
  value: string;
}
export type PolicyRule = Rule & { secret: string };

export interface ForwardInput {
  head: RequestHead;
  exit: ExitName;
  rawTraits: RawTraits;
  locked: boolean;
  now: number;
  /** This namespace's records by placeholder. */
  records: ReadonlyMap<string, InjectRecord>;
  /** Placeholders of other namespaces: never filled in, even if `records` held them. */
  foreignPlaceholder?: (placeholder: string) => boolean;
  /** Normalised: domain and header lower-case, methods upper-case, paths starting with `/`. */
  rules: readonly PolicyRule[];
  /** The accepted `/etc/fnox/config.toml`'s `[secrets]`: name → placeholder. Only a record it holds is `active`. */
  secrets: Readonly<Record<string, string>>;
  /** A secret with a line may use only those exits; no line means every exit. */
  exits: Readonly<Record<string, readonly ExitName[]>>;
  /** Built-in and registered model and MCP endpoints. */
  refused: readonly Endpoint[];
}
export interface Use {
  name: string;
  rule: Rule;
  domain: string;
  method: string;
  path: string;
}
/** A refusal of an expired value names it (`expired`): the page is asked to renew it (README, The agent's ops: refresh). */
export type ForwardDecision = { inject: true; head: RequestHead; uses: Use[] } | { inject: false; status: 403 | 502; reason: string; expired?: string };

export const inertReason = (name: string) => `${name} is inert: /etc/fnox/config.toml doesn't hold its placeholder`;

const refuse = (reason: string, status: 403 | 502 = 403): ForwardDecision => ({ inject: false, status, reason });
/** Request-supplied text in a reason: one line, bounded. */
export const clean = (s: string) => s.replace(/[\x00-\x1f\x7f]/g, '?').slice(0, 200);

/**
 * A placeholder may appear once in a request head, as fnox reads it (README, Forward): its sightings,
 * header by header, refuse the second, whether in the same header's value or in another header.
 * `decideForward`, `decideModel` and `decideMcp` each count this vault's placeholders with one.
 */
export class OncePerHead {
  private readonly first = new Map<string, number>();
  /** A sighting of `placeholder` (the record `name`'s) in the head's header `index`: the refusal's reason when it was seen before. */
  see(placeholder: string, index: number, name: string): string | null {
    const before = this.first.get(placeholder);
    if (before === undefined) {
      this.first.set(placeholder, index);
      return null;
    }
    return before === index ? `${name} appears twice in one header value` : `${name} appears in more than one header`;
  }
}

/** The kernel MCP form `http://<port>.kernel.localhost/<path>`: port 1–65535 but 9222, none explicit. */
export function isKernelMcpUrl(url: string | URL): boolean {
  const raw = String(url);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  const m = /^([1-9][0-9]{0,4})\.kernel\.localhost$/.exec(normalizeHost(u.hostname));
  const port = m ? Number(m[1]) : 0;
  const authority = /^http:\/\/([^/?#\\]*)/i.exec(raw)?.[1] ?? ':';
  return u.protocol === 'http:' && port >= 1 && port <= 65535 && port !== 9222 && !u.username && !u.password && !authority.includes(':');
}

/** Rule path globs (`src/inject/match.ts`): `*` within a segment, `**` across as whole segments only, `?` one character but `/`. */
export { globMatches };

/** `reader` shares the path's reading among the rules of one decision. */
export function ruleAllows(rule: Rule, domain: string, header: string, method: string, path: string, reader = new PathReader(path)): boolean {
  return (
    rule.domain === domain &&
    rule.header === header &&
    (rule.methods.length === 0 || rule.methods.includes(method)) &&
    (rule.paths.length === 0 || rule.paths.some((glob) => globMatches(glob, path, reader)))
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Strict base64 (standard alphabet, padding optional): the bytes as a binary string, or null. */
function decodeBase64(b64: string): string | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.replace(/=+$/, '').length % 4 === 1) return null;
  if (b64.includes('=') && b64.length % 4 !== 0) return null;
  return atob(b64);
}
function utf8OrNull(binary: string): string | null {
  try {
    return utf8.decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}
function encodeBase64Utf8(text: string): string {
  let bin = '';
  for (const byte of new TextEncoder().encode(text)) bin += String.fromCharCode(byte);
  return btoa(bin);
}

/** One header as the injector sees it: `Authorization: Basic` is scanned decoded. */
interface Scanned {
  index: number;
  name: string;
  text: string;
  basic?: { scheme: string };
}
interface Hit {
  header: Scanned;
  record: InjectRecord;
  count: number;
}

/**
 * `Basic` (any case) and its credentials, spaces and tabs around them dropped: the reading of
 * `^(basic)(?:[ \t]+(.*?))?[ \t]*$`, done by hand, because that expression backtracks
 * quadratically over a run of spaces (a 64 KiB header held the thread for seconds). Null when the
 * value isn't a Basic credential.
 */
export function basicCredentials(value: string): { scheme: string; credentials: string } | null {
  const scheme = value.slice(0, 5);
  if (scheme.toLowerCase() !== 'basic') return null;
  const blank = (i: number) => value.charCodeAt(i) === 0x20 || value.charCodeAt(i) === 0x09;
  if (value.length > 5 && !blank(5)) return null;
  let from = 5;
  while (from < value.length && blank(from)) from++;
  let to = value.length;
  while (to > from && blank(to - 1)) to--;
  return { scheme, credentials: value.slice(from, to) };
}

/**
 * Every placeholder a head holds where a decision looks: in each header's value, and decoded in an
 * `Authorization: Basic` credential. A forward reads the records of these only.
 */
export function headPlaceholders(head: RequestHead): Set<string> {
  const found = new Set<string>();
  for (const [name, value] of head.headers) {
    for (const [p] of value.matchAll(PLACEHOLDERS)) found.add(p);
    const basic = name.toLowerCase() === 'authorization' ? basicCredentials(value) : null;
    const binary = basic ? decodeBase64(basic.credentials) : null;
    if (binary) for (const [p] of binary.matchAll(PLACEHOLDERS)) found.add(p);
  }
  return found;
}

/**
 * The checks every injection starts with, on the head's size, the URL and the header names, in
 * the order of docs/injector.md: the reason of the first that fails, or null. `kernelAllowed` says
 * whether a kernel MCP URL (`http://<port>.kernel.localhost/…`) may pass the https check.
 */
export function headRefusal(head: RequestHead, kernelAllowed: (url: URL) => boolean): string | null {
  const checked = checkHead(head, kernelAllowed);
  return typeof checked === 'string' ? checked : null;
}

/** `headRefusal`'s checks: the reason of the first that fails, else the URL as parsed. */
function checkHead(head: RequestHead, kernelAllowed: (url: URL) => boolean): string | URL {
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
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid URL';
  }
  // Before the placeholder check: a malformed escape must not stop the URL from being decoded.
  if (hasMalformedEscape(raw)) return 'malformed percent-escape in the URL';
  if (ANY_PLACEHOLDER.test(raw) || ANY_PLACEHOLDER.test(percentDecode(raw))) return 'placeholder in the URL; only header values are filled in';
  if (head.headers.some(([name]) => ANY_PLACEHOLDER.test(name))) return 'placeholder in a header name';
  if (url.username || url.password) return 'credentials in the URL';
  const httpsOn443 = url.protocol === 'https:' && url.port === '';
  if (!httpsOn443 && !(isKernelMcpUrl(raw) && kernelAllowed(url))) return 'only https on port 443 is injected';
  if (isAmbiguousPath(raw)) return 'ambiguous path';
  if (raw.includes('%25')) return 'ambiguous URL: %25 encodes a %, which servers may decode twice';
  return url;
}

export function decideForward(input: ForwardInput): ForwardDecision {
  const { head, exit, rawTraits } = input;
  // A kernel MCP URL passes only when registered, so that the endpoint check below refuses it.
  const url = checkHead(head, (url) => matchesEndpoint(url, input.refused));
  if (typeof url === 'string') return refuse(url);
  if (matchesEndpoint(url, input.refused)) return refuse(ENDPOINT_REASON);
  if (rawTraits.encodedBodies) return refuse(`exit ${clean(exit)} has encoded bodies, which can't be scrubbed`, 502);

  const domain = normalizeHost(url.hostname);
  const method = head.method.toUpperCase();
  const path = url.pathname;
  const own = (p: string) => (input.foreignPlaceholder?.(p) ? undefined : input.records.get(p));

  // Find this vault's placeholders, header by header.
  const hits: Hit[] = [];
  for (const [index, [name, value]] of head.headers.entries()) {
    const lower = name.toLowerCase();
    const scanned: Scanned = { index, name: lower, text: value };
    const basic = lower === 'authorization' ? basicCredentials(value) : null;
    if (basic) {
      const binary = decodeBase64(basic.credentials);
      const credential = binary === null ? null : utf8OrNull(binary);
      if (credential !== null && credential.includes(':')) {
        scanned.text = credential;
        scanned.basic = { scheme: basic.scheme };
      } else if (ANY_PLACEHOLDER.test(value) || ANY_PLACEHOLDER.test(binary ?? '')) {
        // Placeholders are ASCII, so they show in the raw bytes even when these aren't UTF-8.
        return refuse("Basic credential isn't base64 of UTF-8 user:password");
      }
    }
    const counts = new Map<string, number>();
    for (const [p] of scanned.text.matchAll(PLACEHOLDERS)) counts.set(p, (counts.get(p) ?? 0) + 1);
    for (const [p, count] of counts) {
      const record = own(p);
      if (record) hits.push({ header: scanned, record, count });
    }
  }
  if (hits.length === 0) return refuse('no placeholder of this vault');

  for (const { record: r } of hits) {
    if (r.removedAt != null) return refuse(`${r.name} was removed`);
    if (r.expiresAt != null && r.expiresAt <= input.now) return { ...refuse(`${r.name} expired; refreshing`), expired: r.name } as ForwardDecision;
    if (r.kind !== 'secret') return refuse(`${r.name} is a ${r.kind} record; rules inject secrets only`);
    // Only `active` secrets (README, Records: state): own entries only, as for `[exits]`.
    if (!Object.hasOwn(input.secrets, r.name) || input.secrets[r.name] !== r.placeholder) return refuse(inertReason(r.name));
  }
  if (input.locked) return refuse('vault is locked');
  const ruleOf = new Map<Hit, PolicyRule>();
  const reader = new PathReader(path);
  for (const hit of hits) {
    const name = hit.record.name;
    const rule = input.rules.find((x) => x.secret === name && ruleAllows(x, domain, hit.header.name, method, path, reader));
    if (!rule) return refuse(`no rule lets ${name} go in ${clean(hit.header.name)} to ${clean(method)} ${domain}${clean(path)}`);
    ruleOf.set(hit, rule);
  }
  for (const { record: r } of hits) {
    // Own lines only: a secret named `constructor` must not find Object's.
    const line = Object.hasOwn(input.exits, r.name) ? input.exits[r.name] : undefined;
    if (line && !line.includes(exit)) return refuse(`${r.name} may not use exit ${clean(exit)}`);
  }
  const once = new OncePerHead();
  for (const { record: r, header, count } of hits) {
    for (let k = 0; k < count; k++) {
      const twice = once.see(r.placeholder, header.index, r.name);
      if (twice) return refuse(twice);
    }
  }
  if (!rawTraits.manualRedirects) {
    for (const { record: r, header } of hits) {
      if (header.name !== 'authorization') return refuse(`${r.name} may go only in authorization on an exit that follows redirects`);
    }
  }

  // Substitute: placeholders are all the same length and none contains another, so order is free.
  const headers = head.headers.map(([n, v]): [string, string] => [n, v]);
  const groups = new Map<Scanned, InjectRecord[]>();
  for (const { header, record } of hits) groups.set(header, [...(groups.get(header) ?? []), record]);
  for (const [scanned, records] of groups) {
    const fill = (text: string) => records.reduce((t, r) => t.replace(r.placeholder, () => r.value), text);
    let value = fill(scanned.text);
    if (scanned.basic) {
      const colon = scanned.text.indexOf(':');
      const user = scanned.text.slice(0, colon);
      if (fill(user).includes(':')) {
        const r = records.find((x) => user.includes(x.placeholder))!;
        return refuse(`${r.name} has ':' in its value, so it can't be a Basic user`);
      }
      value = `${scanned.basic.scheme} ${encodeBase64Utf8(`${fill(user)}:${fill(scanned.text.slice(colon + 1))}`)}`;
    }
    headers[scanned.index][1] = value;
  }
  for (const [n, v] of headers) if (/[\r\n\0]/.test(n + v)) return refuse(`header ${clean(n.toLowerCase())} would contain CR, LF or NUL`);

  const uses: Use[] = [];
  for (const hit of hits) {
    if (uses.some((u) => u.name === hit.record.name)) continue;
    const { secret: _, ...rule } = ruleOf.get(hit)!;
    uses.push({ name: hit.record.name, rule, domain, method, path });
  }
  return { inject: true, head: { method: head.method, url: head.url, headers }, uses };
}

export interface TestRequest {
  name: string;
  url: string;
  method?: string;
  header?: string;
  exit?: ExitName;
}
/** What `decideForward` takes but the head and exit; `rawTraits` should be the exit's own (default `{}`). */
export type TestContext = Omit<ForwardInput, 'head' | 'exit' | 'rawTraits'> & { rawTraits?: RawTraits };

/** `/dev/sealed`'s `test`: the verdict for `Bearer <placeholder>` in that header, sending nothing. */
export function testVerdict(
  { name, url, method = 'GET', header = 'authorization', exit = 'page' }: TestRequest,
  context: TestContext,
): { verdict: 'inject' | 'refuse'; reason: string } {
  const record = [...context.records.values()].find((r) => r.name === name);
  if (!record) return { verdict: 'refuse', reason: `no record named ${clean(name)}` };
  const head: RequestHead = { method, url, headers: [[header, `Bearer ${record.placeholder}`]] };
  const d = decideForward({ ...context, rawTraits: context.rawTraits ?? {}, exit, head });
  if (!d.inject) return { verdict: 'refuse', reason: d.reason };
  const { rule } = d.uses[0];
  const list = (xs: string[]) => (xs.length ? xs.join(' ') : 'any');
  return {
    verdict: 'inject',
    reason: `allowed by a rule for ${name}: ${rule.domain}, header ${rule.header}, methods ${list(rule.methods)}, paths ${list(rule.paths)}`,
  };
}
