// The two files the vault fetches, same-origin, at start (README, Documents and hosting). A missing or malformed
// file is a console error and a vault that answers nobody, never one that answers everybody.
import type { EmbedderList, VaultConfig } from '../contract.ts';
import { MAX_ITERATIONS, MIN_ITERATIONS, iterationsAllowed } from '../limits.ts';

/** Whether `origin` is one of the embedders: an exact origin, or a pattern with one `*` label. */
export function originAllowed(origin: string, embedders: EmbedderList): boolean {
  return embedders.some((pattern) => {
    if (!pattern.includes('*')) return pattern === origin;
    const [scheme, rest] = pattern.split('://');
    const [host = '', port] = (rest ?? '').split(/:(?=\d+$)/);
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.origin !== origin || url.protocol !== `${scheme}:` || url.port !== (port ?? '')) return false;
    const want = host.split('.');
    const have = url.hostname.split('.');
    return want.length === have.length && want.every((label, i) => (label === '*' ? /^[a-z0-9-]+$/.test(have[i]!) : label === have[i]));
  });
}

/** Checks `embedders.json`: a list of origins, `*` only as one whole host label. */
export function parseEmbedders(data: unknown): EmbedderList {
  if (!Array.isArray(data)) throw new Error('embedders.json must be a JSON array of origins');
  for (const entry of data) {
    if (typeof entry !== 'string') throw new Error('embedders.json: every entry must be a string');
    const probe = entry.replace('://*.', '://wildcard.');
    let url: URL;
    try {
      url = new URL(probe);
    } catch {
      throw new Error(`embedders.json: ${entry} is not an origin`);
    }
    if (url.origin !== probe || (entry.match(/\*/g) ?? []).length > (entry.includes('://*.') ? 1 : 0)) {
      throw new Error(`embedders.json: ${entry} is not an origin (or has a * that isn't its first host label)`);
    }
  }
  return data as EmbedderList;
}

export function parseConfig(data: unknown): VaultConfig {
  const c = data as Partial<VaultConfig> | null;
  if (!c || typeof c !== 'object') throw new Error('config.json must be a JSON object');
  if (typeof c.name !== 'string' || !c.name) throw new Error('config.json: name must be a non-empty string');
  if (!iterationsAllowed(c.passphraseIterations)) {
    throw new Error(`config.json: passphraseIterations must be an integer from ${MIN_ITERATIONS} to ${MAX_ITERATIONS}`);
  }
  if (!Number.isSafeInteger(c.requestLifetimeMs) || c.requestLifetimeMs! <= 0) {
    throw new Error('config.json: requestLifetimeMs must be a positive integer');
  }
  return { name: c.name, passphraseIterations: c.passphraseIterations!, requestLifetimeMs: c.requestLifetimeMs! };
}

/** Fetches and checks both files; throws with a message naming what was wrong. */
export async function loadSettings(base: string = location.origin) {
  const get = async (file: string) => {
    const response = await fetch(new URL(file, base), { cache: 'no-store' });
    if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
    try {
      return await response.json();
    } catch {
      throw new Error(`${file} is not valid JSON`);
    }
  };
  const [config, embedders] = await Promise.all([get('/config.json'), get('/embedders.json')]);
  return { config: parseConfig(config), embedders: parseEmbedders(embedders) };
}
