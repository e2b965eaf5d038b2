// A record's state and a secret's policy, from the accepted parses of the two files.
import type { ExecMode, ExitName, RecordKind, RecordState, Rule } from '../contract.ts';
import type { FnoxConfig } from './fnox-config.ts';
import type { SecretsPolicy } from './secrets-policy.ts';

/**
 * `removed` when `removedAt` is set; `active` for a `secret` record whose `[secrets]` entry holds
 * its own placeholder and that at least one rule names; otherwise `inert` (also with no accepted
 * config, and always for `grant`, `model` and `mcp`, which no rule activates).
 */
export function secretState(
  record: { kind: RecordKind; placeholder: string; removedAt?: number | null },
  name: string,
  config: FnoxConfig | null,
): RecordState {
  if (record.removedAt !== undefined && record.removedAt !== null) return 'removed';
  if (record.kind !== 'secret' || !config) return 'inert';
  const own = Object.hasOwn(config.secrets, name) && config.secrets[name] === record.placeholder;
  return own && config.rules.some((r) => r.secret === name) ? 'active' : 'inert';
}

export interface SecretPolicy {
  rules: Rule[];
  exec: ExecMode;
  execArgv?: string[][];
  /** Present only when a line restricts the secret; absent means every exit. */
  exits?: ExitName[];
}

/** The rules naming `name`, its `[exec]` mode and its `[exits]` line (fields as in `SecretView`). */
export function secretPolicy(name: string, config: FnoxConfig | null, policy: SecretsPolicy | null): SecretPolicy {
  const rules = (config?.rules ?? [])
    .filter((r) => r.secret === name)
    .map(({ domain, header, methods, paths }) => ({ domain, header, methods: [...methods], paths: [...paths] }));
  const exec = policy && Object.hasOwn(policy.exec, name) ? policy.exec[name] : { mode: false as const };
  const out: SecretPolicy = { rules, exec: exec.mode };
  if (exec.argv) out.execArgv = exec.argv.map((p) => [...p]);
  if (policy && Object.hasOwn(policy.exits, name)) out.exits = [...policy.exits[name]];
  return out;
}
