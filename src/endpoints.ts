/**
 * Model and MCP endpoints: where the vault never injects. An entry is a host pattern (lower-case;
 * `*` is one label, or part of one as in `*-aiplatform.googleapis.com`) and a path prefix (`*` is
 * one segment, `/` is none). The built-in list is `endpoints.json`, written by
 * `scripts/endpoints.mjs`; registered model and MCP URLs join it through `toEndpoint`. Every
 * function takes the entries as a parameter, so this module imports no JSON.
 */
import type { Rule } from './contract.ts';

/** The refusal of an injection into a model or MCP endpoint (README, Model and MCP endpoints). */
export const ENDPOINT_REASON = 'host is a model or MCP endpoint; the vault never injects there';

export interface Endpoint {
  host: string;
  path: string;
}

/** Hosts are compared lower-cased, without a trailing dot. */
export function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

const partCache = new Map<string, RegExp>();
/** One label or segment against its pattern. `*` may match nothing: refusing more is the safe side. */
function partMatches(pattern: string, text: string): boolean {
  if (!pattern.includes('*')) return pattern === text;
  let re = partCache.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
    partCache.set(pattern, re);
  }
  return re.test(text);
}
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Both sides normalised: a registered entry written `API.Example.com.` still refuses. */
export function hostMatches(pattern: string, host: string): boolean {
  const p = normalizeHost(pattern).split('.');
  const h = normalizeHost(host).split('.');
  return p.length === h.length && p.every((label, i) => partMatches(label, h[i]));
}

// A prefix has no empty segments; a path or glob keeps them (`/v1//x`), less its leading `/`.
const prefixSegments = (prefix: string) => prefix.split('/').filter(Boolean);
const pathSegments = (path: string) => path.split('/').slice(1);

/** `path` starts with `prefix` segment by segment (`/v1/chat` is under `/v1`, `/v10` isn't). */
export function pathUnder(path: string, prefix: string): boolean {
  const want = prefixSegments(prefix);
  const have = pathSegments(path);
  return want.length <= have.length && want.every((s, i) => partMatches(s, have[i]));
}

export function matchesEndpoint(url: URL, entries: readonly Endpoint[]): boolean {
  return entries.some((e) => hostMatches(e.host, url.hostname) && pathUnder(url.pathname, e.path));
}

/**
 * True when every URL the rule allows is under some entry: its domain matches, and the entry has
 * no path prefix or each of the rule's path globs stays under it. A rule with no paths allows any
 * path, so only a `/` entry covers it. When a glob might leave the prefix, the answer is false:
 * the request-time check still refuses what lands on an endpoint.
 */
export function ruleOnlyReachesEndpoints(rule: Rule, entries: readonly Endpoint[]): boolean {
  const onHost = entries.filter((e) => hostMatches(e.host, rule.domain));
  if (onHost.some((e) => prefixSegments(e.path).length === 0)) return true;
  return rule.paths.length > 0 && rule.paths.every((glob) => onHost.some((e) => globUnder(glob, e.path)));
}

function globUnder(glob: string, prefix: string): boolean {
  const want = prefixSegments(prefix);
  const have = pathSegments(glob);
  return (
    want.length <= have.length &&
    want.every((w, i) => {
      const g = have[i];
      if (g.includes('**')) return false;
      return /[*?]/.test(g) ? w === '*' : partMatches(w, g);
    })
  );
}

/** A registered model or MCP base URL as an entry; null when it isn't a URL. */
export function toEndpoint(url: string): Endpoint | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const path = parsed.pathname.split('/').filter(Boolean).join('/');
  return { host: normalizeHost(parsed.hostname), path: `/${path}` };
}
