// The attested policy (README, Policy): trust in a kernel attestation, the two files read the way
// their readers read them, the accepted policy and its changes. Pure: no store, thread or document;
// a parse off the main thread is handed in (`ParseFile`).
export {
  type AcceptedFile,
  type AcceptedPolicy,
  type Policy,
  type PolicyAudit,
  Unparsed,
  cachedMeaning,
  emptyAccepted,
  mergePolicy,
  policyOf,
} from './accepted.ts';
export { type AttestationVerdict, type ParseFile, type Trusted, type Untrusted, checkAttestation, parentsOf, untrustedWarning } from './attest.ts';
export { policyChanges } from './changes.ts';
export { type FnoxConfig, HTTP_METHODS, type NamedRule, checkDomain, parseFnoxConfig, readFnoxConfig, ruleKey } from './fnox-config.ts';
export { type ParsedFile, cachedParse, cachedParses, parsePolicyFile, parseUncached, rememberParse } from './parsed.ts';
export { FNOX_CONFIG, POLICY_PATHS, SECRETS_POLICY } from './paths.ts';
export { DEFAULT_LIMITS, type ExecPolicy, type Limits, type SecretsPolicy, parseSecretsPolicy, readSecretsPolicy } from './secrets-policy.ts';
export { type SecretPolicy, secretPolicy, secretState } from './state.ts';
export { parseToml, tomlDepth } from './toml.ts';
