// The injection plan (fnox's `ProxyPlan::new`): everything a decision reads of a namespace,
// prepared where the namespace's state is derived, once per change, never per request. The policy
// part (rules with their globs compiled, `[secrets]`, `[exits]`, refused endpoints, registered MCP
// servers) changes with the policy and the registrations; the records part (this namespace's
// records by placeholder, each with its binding read) with the records. Pure.
import type { ExitName, McpServerEntry, RecordKind, Rule } from '../contract.ts';
import { type Endpoint, normalizeHost, toEndpoint } from './endpoints.ts';
import { type PreparedGlob, prepareGlob } from './match.ts';
import { mcpServerUrl } from './mcp.ts';
import { modelBinding } from './model.ts';

export type PolicyRule = Rule & { secret: string };

/** A rule with its path globs compiled: the plan owns them, so they go when it does. */
export interface PreparedRule {
  rule: PolicyRule;
  globs: readonly PreparedGlob[];
}

/** A registered MCP server with the endpoint its URL reads as (null when it reads as none). */
export interface PreparedServer {
  entry: McpServerEntry;
  endpoint: Endpoint | null;
}

/** What every decision reads of the policy in effect and the registrations. */
export interface PolicyPlan {
  /** Each secret's rules, in the policy's order. */
  rules: ReadonlyMap<string, readonly PreparedRule[]>;
  /** The accepted `/etc/fnox/config.toml`'s `[secrets]`: name → placeholder. Only a record it holds is `active`. */
  secrets: Readonly<Record<string, string>>;
  /** A secret with a line may use only those exits; no line means every exit. */
  exits: Readonly<Record<string, readonly ExitName[]>>;
  /** Built-in and registered model and MCP endpoints. */
  refused: readonly Endpoint[];
  servers: readonly PreparedServer[];
  /** The built-in model entries, with their provider ids, and every id they name. */
  models: readonly Endpoint[];
  known: ReadonlySet<string>;
}

/**
 * Where a record may be filled in besides what rules say: a `model` record under its provider
 * (a pi-ai id, or an https base URL), an `mcp` record under its server URL. `null` binds nothing.
 */
export type Binding =
  | { kind: 'model'; id: string }
  | { kind: 'model'; base: URL; endpoint: Endpoint }
  | { kind: 'mcp'; server: URL; endpoint: Endpoint }
  | null;

/** A record as a decision reads it: never its value. */
export interface PlanRecord {
  name: string;
  kind: RecordKind;
  placeholder: string;
  removedAt?: number;
  expiresAt?: number;
  provider?: string;
  binding: Binding;
}

export interface InjectionPlan {
  policy: PolicyPlan;
  /** This namespace's records by placeholder, removed ones included. */
  records: ReadonlyMap<string, PlanRecord>;
  /** Where live `model` and `mcp` records are bound: what makes a URL a model or MCP request. */
  bound: { model: readonly Endpoint[]; mcp: readonly Endpoint[] };
}

export interface PolicyParts {
  rules: readonly PolicyRule[];
  secrets: Readonly<Record<string, string>>;
  exits: Readonly<Record<string, readonly ExitName[]>>;
  refused: readonly Endpoint[];
  mcp: readonly McpServerEntry[];
  models: readonly Endpoint[];
  known: ReadonlySet<string>;
}

/** The policy part of a plan: rules grouped by secret with their globs compiled, servers with their endpoints. */
export function preparePolicy({ rules, secrets, exits, refused, mcp, models, known }: PolicyParts): PolicyPlan {
  const bySecret = new Map<string, PreparedRule[]>();
  // One prepared glob per distinct glob: a decision reads each once for its path (PathReader).
  const globs = new Map<string, PreparedGlob>();
  const globOf = (glob: string) => globs.get(glob) ?? globs.set(glob, prepareGlob(glob)).get(glob)!;
  for (const rule of rules) {
    const prepared = { rule, globs: rule.paths.map(globOf) };
    const list = bySecret.get(rule.secret);
    if (list) list.push(prepared);
    else bySecret.set(rule.secret, [prepared]);
  }
  const servers = mcp.map((entry) => ({ entry, endpoint: toEndpoint(entry.url) }));
  return { rules: bySecret, secrets, exits, refused, servers, models, known };
}

/** A record's fields a plan keeps. */
export type RecordFields = Omit<PlanRecord, 'binding'>;

/** A record for the plan, its binding read once (a URL parse for a `model` base URL or an `mcp` server). */
export function planRecord({ name, kind, placeholder, removedAt, expiresAt, provider }: RecordFields, known: ReadonlySet<string>): PlanRecord {
  return { name, kind, placeholder, removedAt, expiresAt, provider, binding: bindingOf(kind, provider, known) };
}

function bindingOf(kind: RecordKind, provider: string | undefined, known: ReadonlySet<string>): Binding {
  if (kind === 'model') {
    const binding = modelBinding(provider, known);
    if (!binding) return null;
    if ('id' in binding) return { kind, id: binding.id };
    return { kind, base: binding.base, endpoint: { host: normalizeHost(binding.base.hostname), path: binding.base.pathname } };
  }
  if (kind === 'mcp') {
    const server = mcpServerUrl(provider);
    const endpoint = server && toEndpoint(server.href);
    return server && endpoint ? { kind, server, endpoint } : null;
  }
  return null;
}

/** The endpoints live records are bound to, by kind. */
export function boundEndpoints(records: Iterable<PlanRecord>): { model: Endpoint[]; mcp: Endpoint[] } {
  const bound: { model: Endpoint[]; mcp: Endpoint[] } = { model: [], mcp: [] };
  for (const r of records) if (r.removedAt == null && r.binding && 'endpoint' in r.binding) bound[r.binding.kind].push(r.binding.endpoint);
  return bound;
}
