// Each policy file parsed once per SHA-256 (README, Limits): the attestation check parses it, the
// accepted policy reads that same parse. The cache keeps the newest few parses, so distinct files
// can't grow it without bound.
import { POLICY_CACHE_SIZE } from '../limits.ts';
import { type FnoxConfig, readFnoxConfig } from './fnox-config.ts';
import { FNOX_CONFIG } from './paths.ts';
import { type SecretsPolicy, readSecretsPolicy } from './secrets-policy.ts';
import { parseToml } from './toml.ts';
import { vaultWorker } from '../worker/client.ts';

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

/** A file's parse, uncached: what the vault's worker runs (src/worker.ts). */
export function parseUncached(path: string, text: string): ParsedFile {
  const toml = parseToml(text);
  if ('error' in toml) return { refused: toml.limit ? `bytes are ${toml.error}` : `bytes are not valid TOML: ${toml.error}` };
  const parsed = path === FNOX_CONFIG ? readFnoxConfig(toml.table) : readSecretsPolicy(toml.table);
  if (parsed.limit) return { refused: parsed.limit };
  return { parsed };
}

/**
 * `parsePolicyFile` with a miss parsed in the vault's worker (README, Limits): a file of thousands
 * of rules takes the parser longer than the main thread may be held. A later `parsePolicyFile` of
 * the same file is then a hit.
 */
export async function parsePolicyFileOffThread(path: string, sha256: string, text: string): Promise<ParsedFile> {
  const key = `${path}\n${sha256}`;
  if (cache.has(key)) return parsePolicyFile(path, sha256, text);
  const parsed = await vaultWorker.parse(path, text);
  if (!parsed) return parsePolicyFile(path, sha256, text);
  const result = 'parsed' in parsed ? { parsed: ownRecords(parsed.parsed) } : parsed;
  cache.set(key, result);
  if (cache.size > POLICY_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return result;
}

/** A parse as a worker posted it, its name-keyed records null-prototype again (as the parsers make them). */
function ownRecords(parsed: FnoxConfig | SecretsPolicy): FnoxConfig | SecretsPolicy {
  const own = <T>(record: Record<string, T>) => Object.assign(Object.create(null) as Record<string, T>, record);
  return 'rules' in parsed ? { ...parsed, secrets: own(parsed.secrets) } : { ...parsed, exec: own(parsed.exec), exits: own(parsed.exits) };
}

/** How many parses the cache holds (for tests). */
export const cachedParses = () => cache.size;
