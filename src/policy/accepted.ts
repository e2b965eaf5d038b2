// The accepted policy of a namespace and how a `policy` call changes it. Pure: the vault reads the
// stored policy, calls `mergePolicy` and writes the result in one transaction.
import type { PolicyChange, PolicyEntry, PolicyFileState } from '../contract.ts';
import type { AttestationVerdict } from './attest.ts';
import { FNOX_CONFIG, SECRETS_POLICY } from './paths.ts';
import { AUDIT_MEMORY, MAX_AUDIT_CHANGES } from '../limits.ts';
import { policyChanges } from './changes.ts';
import { type FnoxConfig, parseFnoxConfig } from './fnox-config.ts';
import { type ParsedFile, cachedParse, parsePolicyFile } from './parsed.ts';
import { type SecretsPolicy, parseSecretsPolicy } from './secrets-policy.ts';

export interface AcceptedFile {
  sha256: string;
  text: string;
}
/** What a namespace keeps of its policy (the store's `StoredPolicy` adds the namespace). */
export interface AcceptedPolicy {
  /** The last accepted text of each file. */
  accepted: Partial<Record<string, AcceptedFile>>;
  /** `files` of the last `policy` call, repeated in `status.policy`. */
  files: PolicyFileState[];
  /** The (SHA-256, verdict) pairs already audited, newest last, per file. */
  audited: Partial<Record<string, string[]>>;
}

/** The accepted policy, parsed. */
export interface Policy {
  config: FnoxConfig | null;
  secrets: SecretsPolicy | null;
}

export type PolicyAudit = Omit<PolicyEntry, 'seq' | 'at'>;

export const emptyAccepted = (): AcceptedPolicy => ({ accepted: {}, files: [], audited: {} });

/**
 * An accepted file's meaning, from the parse its attestation check made (parsed.ts). A file
 * accepted before the limits existed and past one now reads as if empty, with its warnings.
 */
function parse(path: string, file: AcceptedFile): FnoxConfig | SecretsPolicy {
  return meaningOf(path, parsePolicyFile(path, file.sha256, file.text));
}

function meaningOf(path: string, result: ParsedFile): FnoxConfig | SecretsPolicy {
  if ('parsed' in result) return result.parsed;
  const empty = path === FNOX_CONFIG ? parseFnoxConfig('') : parseSecretsPolicy('');
  return { ...empty, warnings: [`${path}: ${result.refused}`] };
}

/** The parsed accepted policy of a stored one. */
export function policyOf(stored: AcceptedPolicy | undefined): Policy {
  const config = stored?.accepted[FNOX_CONFIG];
  const secrets = stored?.accepted[SECRETS_POLICY];
  return {
    config: config ? (parse(FNOX_CONFIG, config) as FnoxConfig) : null,
    secrets: secrets ? (parse(SECRETS_POLICY, secrets) as SecretsPolicy) : null,
  };
}

/** An accepted file whose parse isn't in the cache: the caller parses it off the thread and tries again. */
export class Unparsed extends Error {
  constructor(
    readonly path: string,
    readonly file: AcceptedFile,
  ) {
    super('a policy file is not parsed yet');
  }
}

/** An accepted file's meaning from the cache only, never parsed here (README, Limits): else `Unparsed`. */
export function cachedMeaning(path: string, file: AcceptedFile): FnoxConfig | SecretsPolicy {
  const hit = cachedParse(path, file.sha256);
  if (!hit) throw new Unparsed(path, file);
  return meaningOf(path, hit);
}

/**
 * Applies the verdicts of one `policy` call: a trusted file replaces the accepted one, an
 * untrusted one leaves it as it was. Each file is audited once per SHA-256 and verdict. A trusted
 * file brings its parse; the file it replaces is read through `meaning`.
 */
export function mergePolicy<P extends AcceptedPolicy>(
  stored: P,
  verdicts: { given: unknown; verdict: AttestationVerdict }[],
  meaning: (path: string, file: AcceptedFile) => FnoxConfig | SecretsPolicy = parse,
) {
  const next: P = {
    ...stored,
    accepted: { ...stored.accepted },
    audited: { ...stored.audited },
  };
  const files: PolicyFileState[] = [];
  const audit: PolicyAudit[] = [];
  let changed = false;
  for (const { given, verdict } of verdicts) {
    const path = verdict.path ?? (typeof given === 'string' ? given : '(no path)');
    let state: PolicyFileState;
    let changes: PolicyChange[] = [];
    if (verdict.trusted) {
      const before = stored.accepted[path];
      const file = { sha256: verdict.sha256, text: verdict.text };
      const after = verdict.parsed;
      state = { path, sha256: verdict.sha256, accepted: true, warnings: [...after.warnings] };
      if (before?.sha256 !== verdict.sha256) {
        changes = policyChanges((before ? meaning(path, before) : null) as never, after as never);
        next.accepted[path] = file;
        changed = true;
      }
    } else {
      state = { path, sha256: verdict.sha256, accepted: false, warnings: [verdict.warning] };
    }
    files.push(state);
    const key = `${state.sha256 ?? (verdict.trusted ? '' : verdict.reason)}:${state.accepted}`;
    const seen = next.audited[path] ?? [];
    if (!seen.includes(key)) {
      next.audited[path] = [...seen, key].slice(-AUDIT_MEMORY);
      audit.push({
        type: 'policy',
        path,
        sha256: state.sha256 ?? '',
        accepted: state.accepted,
        // Bounded, as the entry is written, read and sent in one piece (4,096 rule changes took 20 ms to store).
        changes: changes.slice(0, MAX_AUDIT_CHANGES),
        ...(changes.length > MAX_AUDIT_CHANGES && { changesMore: changes.length - MAX_AUDIT_CHANGES }),
        ...(state.warnings.length > 0 && { warning: state.warnings.join('; ') }),
      });
    }
  }
  next.files = files;
  return { stored: next, files, audit, changed };
}
