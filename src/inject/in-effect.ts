// What is in effect of a namespace's accepted policy (README, Model and MCP endpoints): rules that
// can reach only model or MCP endpoints are dropped and listed as refused, other rules on the same
// host stay (the request-time check still refuses there). Worked out once where the namespace's
// state is derived, as the policy part of the plan every decision reads (fnox's `ProxyPlan`):
// never per request.
import type { McpServerEntry, RefusedRule } from '../contract.ts';
import type { Policy } from '../policy/index.ts';
import { ENDPOINT_REASON, type Endpoint, entriesByDomain, ruleCoveredBy } from './endpoints.ts';
import { type PolicyPlan, preparePolicy } from './plan.ts';
import { type Registered, refusedEndpoints } from './registered.ts';

/** The policy in effect and the endpoints it may never reach, derived from the accepted policy and the registrations. */
export interface InEffect {
  policy: Policy;
  refused: RefusedRule[];
  endpoints: Endpoint[];
  mcp: McpServerEntry[];
  /** The policy part of the injection plan, its rules' globs compiled. */
  plan: PolicyPlan;
  /** The built-in model entries, with their provider ids, and every id they name. */
  models: readonly Endpoint[];
  known: ReadonlySet<string>;
}

export const endpointReason = (secret: string) => `${secret}: ${ENDPOINT_REASON}`;

/** The namespace's policy in effect, given the built-in endpoint list and its registrations. */
export function inEffect(accepted: Policy, builtin: readonly Endpoint[], registered: Registered | undefined): InEffect {
  const endpoints = refusedEndpoints(builtin, registered);
  const { policy, refused } = withoutEndpointRules(accepted, endpoints);
  const mcp = registered?.mcp ?? [];
  const ids = knownProviders(builtin);
  const plan = preparePolicy({
    rules: policy.config?.rules ?? [],
    secrets: policy.config?.secrets ?? {},
    exits: policy.secrets?.exits ?? {},
    refused: endpoints,
    mcp,
    models: builtin,
    known: ids,
  });
  return { policy, refused, endpoints, mcp, plan, models: builtin, known: ids };
}

const known = new WeakMap<readonly Endpoint[], ReadonlySet<string>>();
/** Every provider id of the built-in entries, worked out once per list. */
function knownProviders(builtin: readonly Endpoint[]): ReadonlySet<string> {
  let ids = known.get(builtin);
  if (!ids) known.set(builtin, (ids = new Set(builtin.flatMap((e) => e.providers ?? []))));
  return ids;
}

/** The accepted policy without the rules that reach only model or MCP endpoints, and those rules as refused. */
export function withoutEndpointRules(policy: Policy, endpoints: readonly Endpoint[]): { policy: Policy; refused: RefusedRule[] } {
  if (!policy.config) return { policy, refused: [] };
  // Worked out once per parsed file and set of endpoints (README, Limits): the parse is cached per
  // SHA-256, so the same file is the same object here.
  const key = JSON.stringify(endpoints);
  const known = filtered.get(policy.config);
  if (known?.key === key) return { policy: { ...policy, config: known.config }, refused: known.refused };
  const refused: RefusedRule[] = [];
  const onDomain = entriesByDomain(endpoints);
  const rules = policy.config.rules.filter(({ secret, ...rule }) => {
    if (!ruleCoveredBy(rule, onDomain(rule.domain))) return true;
    refused.push({ secret, rule, reason: endpointReason(secret) });
    return false;
  });
  const config = { ...policy.config, rules };
  filtered.set(policy.config, { key, config, refused });
  return { policy: { ...policy, config }, refused };
}

const filtered = new WeakMap<NonNullable<Policy['config']>, { key: string; config: NonNullable<Policy['config']>; refused: RefusedRule[] }>();
