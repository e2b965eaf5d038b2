// The attested policy (README, Policy): trust in a kernel attestation, the two files read the way
// their readers read them, the accepted policy and its changes. Pure: no store, thread or document;
// a parse off the main thread is handed in (`ParseFile`).
export { type AcceptedPolicy, type Policy, Unparsed, cachedMeaning, emptyAccepted, mergePolicy, policyOf } from './accepted.ts';
export { type AttestationVerdict, checkAttestation } from './attest.ts';
export { type ParsedFile, cachedParse, cachedParses, parsePolicyFile, parseUncached, rememberParse } from './parsed.ts';
export { DEFAULT_LIMITS, type ExecPolicy, type Limits } from './secrets-policy.ts';
export { secretPolicy, secretState } from './state.ts';
export { tomlDepth } from './toml.ts';
