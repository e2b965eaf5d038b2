// The policy's pure parts: trust in an attestation, the two files' parsers, changes, state.
export {
  type AttestationVerdict,
  checkAttestation,
  FNOX_CONFIG,
  MAX_BYTES,
  parentsOf,
  POLICY_PATHS,
  SECRETS_POLICY,
  type Trusted,
  type Untrusted,
  untrustedWarning,
} from './attest.ts';
export { checkDomain, type FnoxConfig, HTTP_METHODS, type NamedRule, PLACEHOLDER, parseFnoxConfig, ruleKey } from './fnox-config.ts';
export {
  DEFAULT_LIMITS,
  type ExecPolicy,
  type Limits,
  parseSecretsPolicy,
  type SecretsPolicy,
} from './secrets-policy.ts';
export { policyChanges } from './changes.ts';
export { type SecretPolicy, secretPolicy, secretState } from './state.ts';
