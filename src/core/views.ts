// What the vault shows of a namespace, computed from one read of it. Pure; never a value.
import type { BackupReminder, ExitPolicyView, LockState, RecordState, RefusedRule, ScrubState, SecretView } from '../contract.ts';
import type { NamespaceMeta, StoredRecord } from '../store/schema.ts';
import { ENDPOINT_REASON, type Endpoint, entriesByDomain, ruleCoveredBy } from '../inject/endpoints.ts';
import { type Policy, type StoredPolicy, policyOf } from '../policy/accepted.ts';
import { secretPolicy, secretState } from '../policy/state.ts';
import type { StoredRequest } from '../store/requests.ts';

/** A namespace as one transaction read it. */
export interface Snapshot {
  lock: LockState;
  records: StoredRecord[];
  meta: NamespaceMeta;
  stored: StoredPolicy | undefined;
  /** The accepted policy in effect: without the rules that reach only model or MCP endpoints. */
  policy: Policy;
  refused: RefusedRule[];
  requests: StoredRequest[];
}

export function snapshotOf(parts: Omit<Snapshot, 'policy' | 'refused'>, endpoints: readonly Endpoint[]): Snapshot {
  return { ...parts, ...withoutEndpointRules(policyOf(parts.stored), endpoints) };
}

export const endpointReason = (secret: string) => `${secret}: ${ENDPOINT_REASON}`;

/**
 * The policy in effect: rules that can reach only model or MCP endpoints are dropped and listed
 * as refused; other rules on the same host stay (the request-time check still refuses there).
 */
export function withoutEndpointRules(policy: Policy, endpoints: readonly Endpoint[]): { policy: Policy; refused: RefusedRule[] } {
  if (!policy.config) return { policy, refused: [] };
  // Worked out once per parsed file and set of endpoints, not on every view (README, Limits): the
  // parse is cached per SHA-256, so the same file is the same object here.
  const key = JSON.stringify(endpoints);
  const known = inEffect.get(policy.config);
  if (known?.key === key) return { policy: { ...policy, config: known.config }, refused: known.refused };
  const result = filterEndpointRules(policy, endpoints);
  inEffect.set(policy.config, { key, config: result.policy.config!, refused: result.refused });
  return result;
}

const inEffect = new WeakMap<NonNullable<Policy['config']>, { key: string; config: NonNullable<Policy['config']>; refused: RefusedRule[] }>();

function filterEndpointRules(policy: Policy, endpoints: readonly Endpoint[]): { policy: Policy; refused: RefusedRule[] } {
  if (!policy.config) return { policy, refused: [] };
  const refused: RefusedRule[] = [];
  const onDomain = entriesByDomain(endpoints);
  const rules = policy.config.rules.filter(({ secret, ...rule }) => {
    if (!ruleCoveredBy(rule, onDomain(rule.domain))) return true;
    refused.push({ secret, rule, reason: endpointReason(secret) });
    return false;
  });
  return { policy: { ...policy, config: { ...policy.config, rules } }, refused };
}

/** `removed`, `active` (a rule of the accepted policy for its own placeholder) or `inert`. */
export function stateOf(record: StoredRecord, policy: Policy): RecordState {
  return secretState(record, record.name, policy.config);
}

export function secretView(r: StoredRecord, policy: Policy): SecretView {
  const rules = r.kind === 'secret' ? secretPolicy(r.name, policy.config, policy.secrets) : { rules: [], exec: false as const };
  return {
    name: r.name,
    kind: r.kind,
    source: r.source,
    placeholder: r.placeholder,
    state: r.unreadableAt !== undefined ? 'unreadable' : stateOf(r, policy),
    ...(r.provider !== undefined && { provider: r.provider }),
    ...(r.account !== undefined && { account: r.account }),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(r.usedAt !== undefined && { usedAt: r.usedAt }),
    ...(r.removedAt !== undefined && { removedAt: r.removedAt }),
    ...(r.expiresAt !== undefined && { expiresAt: r.expiresAt }),
    ...rules,
  };
}

/** The secrets `[exits]` restricts, sorted by name. */
export function exitsView(policy: Policy): ExitPolicyView {
  const exits = policy.secrets?.exits ?? {};
  return {
    secrets: Object.keys(exits)
      .sort()
      .map((name) => ({ name, exits: [...exits[name]!] })),
  };
}

/** `due` once the namespace holds a secret and never exported, until dismissed. */
export function backupReminderOf({ records, meta }: Pick<Snapshot, 'records' | 'meta'>): BackupReminder {
  return reminderOf(meta, () => records.some((r) => r.kind === 'secret' && r.removedAt === undefined));
}

/** The reminder of a namespace's meta, asking whether it holds a live secret only when that decides. */
export function reminderOf(meta: NamespaceMeta, liveSecret: () => boolean): BackupReminder {
  if (meta.exportedAt !== null) return null;
  if (meta.reminderDismissed) return 'dismissed';
  return liveSecret() ? 'due' : null;
}

/**
 * `needed` unless the namespace holds no value at all; `ready` unless values exist, the vault is
 * locked and this frame has no compiled scrubber for them.
 */
export function scrubOf({ records, meta }: Pick<Snapshot, 'records' | 'meta'>, locked: boolean, compiled: boolean): ScrubState {
  return scrubStateOf(records.length > 0, meta, locked, compiled);
}

export function scrubStateOf(needed: boolean, meta: NamespaceMeta, locked: boolean, compiled: boolean): ScrubState {
  return { needed, version: meta.scrubVersion, ready: !needed || !locked || compiled };
}
