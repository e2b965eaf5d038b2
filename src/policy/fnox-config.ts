// `/etc/fnox/config.toml`, the injection policy, read the way fnox reads it: only the `seven`
// entries of `[secrets]` and `[[proxy.rules]]` count. A bad rule is dropped with a warning; the
// rest of the file still counts. Never throws.
import type { Rule } from '../contract.ts';
import { HTTP_TOKEN, PLACEHOLDER_EXACT as PLACEHOLDER } from '../validate.ts';
import { FNOX_CONFIG } from './paths.ts';
import { isTable, parseToml, SECRET_NAME, show, type Table, warnings } from './toml.ts';
import { MAX_RULES, MAX_RULE_PATHS } from '../limits.ts';

export type NamedRule = Rule & { secret: string };
export interface FnoxConfig {
  /** Secret name → its placeholder, for `seven` entries holding a placeholder. */
  secrets: Record<string, string>;
  rules: NamedRule[];
  warnings: string[];
  /** Set when the file passes a limit (README, Limits): then nothing of it may be accepted. */
  limit?: string;
}

/** The methods a rule may name: what bios's fetch can send (no CONNECT, TRACE or TRACK). */
export const HTTP_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export function parseFnoxConfig(text: string): FnoxConfig {
  const parsed = parseToml(text);
  if ('error' in parsed) {
    const out: FnoxConfig = { secrets: Object.create(null), rules: [], warnings: [`${FNOX_CONFIG}: not valid TOML: ${parsed.error}`] };
    if (parsed.limit) out.limit = parsed.error;
    return out;
  }
  return readFnoxConfig(parsed.table);
}

/** The file's meaning, from its parsed TOML. */
export function readFnoxConfig(root: Table): FnoxConfig {
  const out: FnoxConfig = { secrets: Object.create(null), rules: [], warnings: [] };
  const { warn, done } = warnings(out.warnings, FNOX_CONFIG);
  read(root, out, warn);
  done();
  return out;
}

function read(root: Table, out: FnoxConfig, warn: (w: string) => void): void {
  let defaultProvider: string | undefined;
  if (typeof root.default_provider === 'string') defaultProvider = root.default_provider;
  else if (root.default_provider !== undefined) warn('default_provider must be a string; ignored');

  if (isTable(root.secrets)) {
    for (const [name, entry] of Object.entries(root.secrets)) {
      if (!isTable(entry)) continue;
      const provider = entry.provider ?? defaultProvider;
      if (provider !== 'seven') continue;
      // Never echo `value`: a misconfigured file could hold a real credential there.
      if (!SECRET_NAME.test(name)) warn(`secrets.${show(name)}: not an environment variable name; ignored`);
      else if (typeof entry.value !== 'string' || !PLACEHOLDER.test(entry.value)) {
        warn(`secrets.${name}: value is not a placeholder (fnox_proxy_ and 24 lower-case hex); ignored`);
      } else out.secrets[name] = entry.value;
    }
  } else if (root.secrets !== undefined) warn('[secrets] must be a table; ignored');

  const proxy = root.proxy;
  const rules = isTable(proxy) ? proxy.rules : undefined;
  if (proxy !== undefined && !isTable(proxy)) warn('[proxy] must be a table; ignored');
  else if (rules !== undefined && !Array.isArray(rules)) warn('proxy.rules must be an array of tables; ignored');
  else if (Array.isArray(rules)) {
    if (rules.length > MAX_RULES) {
      out.limit = `has ${rules.length} rules; at most ${MAX_RULES} are read`;
      return;
    }
    const tooMany = rules.findIndex((r) => isTable(r) && Array.isArray(r.paths) && r.paths.length > MAX_RULE_PATHS);
    if (tooMany >= 0) {
      out.limit = `proxy.rules[${tooMany}] has more than ${MAX_RULE_PATHS} paths`;
      return;
    }
    const seen = new Map<string, number>();
    rules.forEach((raw, i) => {
      const result = readRule(raw, out.secrets);
      const label = `proxy.rules[${i}]${isTable(raw) && typeof raw.secret === 'string' ? ` (${show(raw.secret)})` : ''}`;
      if (typeof result === 'string') return warn(`${label} dropped: ${result}`);
      const key = ruleKey(result);
      const first = seen.get(key);
      if (first !== undefined) return warn(`${label} dropped: same as proxy.rules[${first}]`);
      seen.set(key, i);
      out.rules.push(result);
    });
  }
}

/** The normalised rule, or what is wrong with it. Keys other than the five are ignored. */
function readRule(raw: unknown, secrets: Record<string, string>): NamedRule | string {
  if (!isTable(raw)) return 'not a table';
  const { secret, domain, header = 'authorization', methods = [], paths = [] } = raw;
  if (typeof secret !== 'string') return 'secret must be a string';
  if (!Object.hasOwn(secrets, secret)) return `${show(secret)} is not a seven entry of [secrets] with a placeholder`;

  const host = checkDomain(domain);
  if (typeof host !== 'string') return host.error;

  if (typeof header !== 'string' || !HTTP_TOKEN.test(header)) return `header ${show(header)} is not a header name`;

  if (!Array.isArray(methods)) return 'methods must be an array of strings';
  // Deduplicated through sets, in linear time (README, Limits).
  const ms = new Set<string>();
  for (const m of methods) {
    const up = typeof m === 'string' ? m.toUpperCase() : null;
    if (up === null || !HTTP_METHODS.includes(up)) return `methods entry ${show(m)} is not an HTTP method`;
    ms.add(up);
  }

  if (!Array.isArray(paths)) return 'paths must be an array of strings';
  const ps = new Set<string>();
  for (const p of paths) {
    if (typeof p !== 'string' || !p.startsWith('/')) return `paths entry ${show(p)} must start with /`;
    if (/[\s\0-\x1f\x7f#]/.test(p)) return `paths entry ${show(p)} has whitespace, a control character or #`;
    ps.add(p);
  }
  return { secret, domain: host, header: header.toLowerCase(), methods: [...ms], paths: [...ps] };
}

/** One exact host, lower-case, without a trailing dot; the URL parser must leave it unchanged. */
export function checkDomain(domain: unknown): string | { error: string } {
  if (typeof domain !== 'string') return { error: 'domain must be a string' };
  const d = show(domain);
  if (domain.includes('://')) return { error: `domain ${d} must be a host, not a URL` };
  if (domain.includes('/')) return { error: `domain ${d} must not have a path` };
  if (domain.includes(':')) return { error: `domain ${d} must not have a port` };
  if (domain.includes('*')) return { error: `domain ${d} must be one exact host, not a wildcard` };
  if (/[A-Z]/.test(domain)) return { error: `domain ${d} must be lower-case` };
  const host = domain.endsWith('.') ? domain.slice(0, -1) : domain;
  if (host.length > 253 || !host.split('.').every((l) => LABEL.test(l)) || !canonical(host)) {
    return { error: `domain ${d} is not a host name` };
  }
  return host;
}

function canonical(host: string): boolean {
  try {
    return new URL(`https://${host}/`).hostname === host;
  } catch {
    return false;
  }
}

/** Identity of a rule: methods and paths as sets. */
export function ruleKey(r: NamedRule): string {
  return JSON.stringify([r.secret, r.domain, r.header, [...r.methods].sort(), [...r.paths].sort()]);
}
