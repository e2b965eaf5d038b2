// Each policy file parsed once per SHA-256 (README, Limits): the attestation check parses it, the
// accepted policy reads that same parse. The cache keeps the newest few parses, so distinct files
// can't grow it without bound.
import { POLICY_CACHE_SIZE } from '../limits.ts';
import { type FnoxConfig, readFnoxConfig } from './fnox-config.ts';
import { FNOX_CONFIG } from './paths.ts';
import { type SecretsPolicy, readSecretsPolicy } from './secrets-policy.ts';
import { parseToml } from './toml.ts';

export type ParsedFile = { parsed: FnoxConfig | SecretsPolicy } | { refused: string };

const cache = new Map<string, ParsedFile>();

/**
 * The file's meaning, or why it can't be trusted: not TOML, or past a limit (too deep, too many
 * rules or paths). `sha256` must be the text's own digest: it is the cache's key.
 */
export function parsePolicyFile(path: string, sha256: string, text: string): ParsedFile {
  const key = `${path}\n${sha256}`;
  const hit = cache.get(key);
  if (hit) {
    // Newest last: a hit moves to the end, the oldest goes first.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const result = parseUncached(path, text);
  cache.set(key, result);
  if (cache.size > POLICY_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return result;
}

function parseUncached(path: string, text: string): ParsedFile {
  const toml = parseToml(text);
  if ('error' in toml) return { refused: toml.limit ? `bytes are ${toml.error}` : `bytes are not valid TOML: ${toml.error}` };
  const parsed = path === FNOX_CONFIG ? readFnoxConfig(toml.table) : readSecretsPolicy(toml.table);
  if (parsed.limit) return { refused: parsed.limit };
  return { parsed };
}

/** How many parses the cache holds (for tests). */
export const cachedParses = () => cache.size;
