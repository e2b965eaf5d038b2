// What the vault shows of a namespace (README, Embedding API): records as Settings lists them, the
// exits lines, the backup reminder and the scrub state. Pure; never a value.
import type { BackupReminder, ExitPolicyView, RecordState, ScrubState, SecretView } from '../contract.ts';
import { MODEL_NOWHERE, mcpServerUrl, modelBinding } from '../inject/index.ts';
import { type Policy, secretPolicy, secretState } from '../policy/index.ts';
import type { NamespaceMeta, StoredRecord } from '../store/index.ts';

/** `removed`, `active` (a rule of the accepted policy for its own placeholder) or `inert`. */
export function stateOf(record: StoredRecord, policy: Policy): RecordState {
  return secretState(record, record.name, policy.config);
}

/** Why a `model` or `mcp` record is filled in nowhere: its `provider` binds it to no endpoint (README, Model and MCP endpoints). */
export function nowhereOf(r: StoredRecord, known: ReadonlySet<string>): string | undefined {
  if (r.kind === 'model' && !modelBinding(r.provider, known)) return MODEL_NOWHERE;
  if (r.kind === 'mcp' && !mcpServerUrl(r.provider)) return 'filled in nowhere: its provider is no MCP server URL';
  return undefined;
}

export function secretView(r: StoredRecord, policy: Policy, known: ReadonlySet<string> = new Set()): SecretView {
  const rules = r.kind === 'secret' ? secretPolicy(r.name, policy.config, policy.secrets) : { rules: [], exec: false as const };
  const warning = nowhereOf(r, known);
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
    ...(warning !== undefined && { warning }),
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

/** A namespace's records and meta, as the views read them. */
interface Held {
  records: readonly StoredRecord[];
  meta: NamespaceMeta;
}

/** `due` once the namespace holds a secret and never exported, until dismissed. */
export function backupReminderOf({ records, meta }: Held): BackupReminder {
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
export function scrubOf({ records, meta }: Held, locked: boolean, compiled: boolean): ScrubState {
  return scrubStateOf(records.length > 0, meta, locked, compiled);
}

export function scrubStateOf(needed: boolean, meta: NamespaceMeta, locked: boolean, compiled: boolean): ScrubState {
  return { needed, version: meta.scrubVersion, ready: !needed || !locked || compiled };
}
