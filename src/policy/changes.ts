// What changed between two accepted parses of the same policy file, for the `policy` audit entry.
import type { ExitName, PolicyChange, Rule } from '../contract.ts';
import { type FnoxConfig, type NamedRule, ruleKey } from './fnox-config.ts';
import { DEFAULT_LIMITS, type Limits, type SecretsPolicy } from './secrets-policy.ts';

/**
 * `before` is the previously accepted parse of the same file, `null` when there was none (then
 * it counts as an empty file: every rule is added, limits compare against the defaults).
 * Order: rules added (file order), then removed; exec, exits by secret name; limits.
 */
export function policyChanges(before: FnoxConfig | null, after: FnoxConfig): PolicyChange[];
export function policyChanges(before: SecretsPolicy | null, after: SecretsPolicy): PolicyChange[];
export function policyChanges(before: FnoxConfig | SecretsPolicy | null, after: FnoxConfig | SecretsPolicy): PolicyChange[] {
  if ('rules' in after) return ruleChanges(before && 'rules' in before ? before.rules : [], after.rules);
  const b = before && 'exec' in before ? before : null;
  return [...execChanges(b?.exec ?? {}, after.exec), ...exitsChanges(b?.exits ?? {}, after.exits), ...limitChanges(b?.limits ?? DEFAULT_LIMITS, after.limits)];
}

function ruleChanges(before: NamedRule[], after: NamedRule[]): PolicyChange[] {
  const had = new Set(before.map(ruleKey));
  const has = new Set(after.map(ruleKey));
  const change = (change: 'added' | 'removed', { secret, ...rule }: NamedRule): PolicyChange => ({
    what: 'rule',
    change,
    secret,
    rule: rule satisfies Rule,
  });
  return [
    ...after.filter((r) => !had.has(ruleKey(r))).map((r) => change('added', r)),
    ...before.filter((r) => !has.has(ruleKey(r))).map((r) => change('removed', r)),
  ];
}

function names(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

/** Own entries only: a secret may be called `constructor`. */
function get<T>(record: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

/** A change of `argv` prefixes under the same mode is reported as `argv` → `argv`. */
function execChanges(before: SecretsPolicy['exec'], after: SecretsPolicy['exec']): PolicyChange[] {
  return names(before, after).flatMap((secret): PolicyChange[] => {
    const from = get(before, secret) ?? { mode: false };
    const to = get(after, secret) ?? { mode: false };
    const same = from.mode === to.mode && JSON.stringify(from.argv ?? null) === JSON.stringify(to.argv ?? null);
    return same ? [] : [{ what: 'exec', secret, from: from.mode, to: to.mode }];
  });
}

/** `null` is no line (every exit); lines compare as sets. */
function exitsChanges(before: SecretsPolicy['exits'], after: SecretsPolicy['exits']): PolicyChange[] {
  const key = (line: ExitName[] | null) => (line ? JSON.stringify([...line].sort()) : 'null');
  return names(before, after).flatMap((secret): PolicyChange[] => {
    const from = get(before, secret) ?? null;
    const to = get(after, secret) ?? null;
    return key(from) === key(to) ? [] : [{ what: 'exits', secret, from, to }];
  });
}

function limitChanges(before: Limits, after: Limits): PolicyChange[] {
  return (Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]).flatMap((limit): PolicyChange[] =>
    before[limit] === after[limit] ? [] : [{ what: 'limits', limit, from: before[limit], to: after[limit] }],
  );
}
