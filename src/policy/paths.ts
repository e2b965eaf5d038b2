// The two policy files' paths (README, Policy).
export const FNOX_CONFIG = '/etc/fnox/config.toml';
export const SECRETS_POLICY = '/etc/slicc/secrets-policy.toml';
export const POLICY_PATHS: readonly string[] = [FNOX_CONFIG, SECRETS_POLICY];
