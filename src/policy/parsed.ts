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
  // Newest last: a hit moves to the end, the oldest goes first.
  return cachedParse(path, sha256) ?? remember(path, sha256, parseUncached(path, text));
}

/** A file's parse, uncached: what the vault's worker runs (src/worker/). */
export function parseUncached(path: string, text: string): ParsedFile {
  const toml = parseToml(text);
  if ('error' in toml) return { refused: toml.limit ? `bytes are ${toml.error}` : `bytes are not valid TOML: ${toml.error}` };
  const parsed = path === FNOX_CONFIG ? readFnoxConfig(toml.table) : readSecretsPolicy(toml.table);
  if (parsed.limit) return { refused: parsed.limit };
  return { parsed };
}

/** The cached parse of that file, if there is one (a hit moves to the newest place). */
export function cachedParse(path: string, sha256: string): ParsedFile | undefined {
  const key = `${path}\n${sha256}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
  }
  return hit;
}

/** Keeps a parse made elsewhere (the vault's worker), as a worker posted it. */
export function rememberParse(path: string, sha256: string, posted: ParsedFile): ParsedFile {
  return remember(path, sha256, 'parsed' in posted ? { parsed: ownRecords(posted.parsed) } : posted);
}

function remember(path: string, sha256: string, result: ParsedFile): ParsedFile {
  cache.set(`${path}\n${sha256}`, result);
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
