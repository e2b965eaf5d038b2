// Writes src/endpoints.json: the model endpoints (the README's "Model and MCP endpoints"), where
// the vault never injects a secret and fills in only a `model` record bound to the entry's provider.
// Every provider base URL of pi-ai's catalog, plus the fixed entries below. An entry is
// { host, path, providers }: a lower-case host where `*` stands for one label (or part of one,
// `*-aiplatform.googleapis.com`), a path prefix where `*` stands for one segment, and the pi-ai
// provider ids whose models live there. Idempotent: the file is rewritten only when it changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtinProviders, getAllBuiltinModels } from '@earendil-works/pi-ai/providers/all';

const out = fileURLToPath(new URL('../src/endpoints.json', import.meta.url));

/** Fixed entries and their provider ids: the catalog's id where it has one. */
const FIXED = [
  ['https://bedrock-runtime.*.amazonaws.com', 'amazon-bedrock'],
  ['https://bedrock-runtime-fips.*.amazonaws.com', 'amazon-bedrock'],
  // China regions: pi-ai's Bedrock client accepts them too.
  ['https://bedrock-runtime.*.amazonaws.com.cn', 'amazon-bedrock'],
  // Vertex's global location has no `{location}-` prefix.
  ['https://aiplatform.googleapis.com', 'google-vertex'],
  ['https://*.openai.azure.com', 'azure'],
  ['https://*.cognitiveservices.azure.com', 'azure'],
  ['https://*.ai.azure.com', 'azure'],
  // Adobe's LLM proxy, the default of SLICC's Adobe provider (not in pi-ai's catalog).
  ['https://adobe-llm-proxy.paolo-moz.workers.dev', 'adobe'],
];

/** `https://{location}-aiplatform.googleapis.com/v1/${x}` → { host: '*-aiplatform.googleapis.com', path: '/v1/*' } */
export function toEntry(baseUrl) {
  const templated = baseUrl.trim().replace(/\$\{[^}]*\}|\{[^}]*\}/g, '*');
  const m = /^https?:\/\/([^/?#]+)([^?#]*)/i.exec(templated);
  if (!m) throw new Error(`endpoints: not a URL: ${baseUrl}`);
  const host = m[1].toLowerCase().replace(/:443$/, '').replace(/\.$/, '').replace(/\*+/g, '*');
  const labels = host.split('.');
  if (!/^[a-z0-9*-]+(\.[a-z0-9*-]+)+$/.test(host) || labels.slice(-2).some((l) => l.includes('*'))) {
    throw new Error(`endpoints: refusing a host this broad or odd: ${baseUrl}`);
  }
  const segments = m[2]
    .split('/')
    .filter(Boolean)
    .map((s) => (s.includes('*') ? '*' : s));
  return { host, path: `/${segments.join('/')}` };
}

const part = (pattern, text) => pattern === text || (pattern.includes('*') && new RegExp(`^${pattern.split('*').map(esc).join('.*')}$`).test(text));
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when every URL under `b` is also under `a`, so `b` can be left out. */
function covers(a, b) {
  const ah = a.host.split('.');
  const bh = b.host.split('.');
  if (ah.length !== bh.length || !ah.every((l, i) => l === '*' || l === bh[i] || (!bh[i].includes('*') && part(l, bh[i])))) return false;
  const ap = a.path.split('/').filter(Boolean);
  const bp = b.path.split('/').filter(Boolean);
  return ap.length <= bp.length && ap.every((s, i) => s === '*' || s === bp[i]);
}

export function buildEntries() {
  /** `host path` → the entry, its provider ids gathered. */
  const byKey = new Map();
  const add = (url, provider) => {
    const entry = toEntry(url);
    const key = `${entry.host} ${entry.path}`;
    if (!byKey.has(key)) byKey.set(key, { ...entry, providers: new Set() });
    byKey.get(key).providers.add(provider);
  };
  for (const [url, provider] of FIXED) add(url, provider);
  for (const provider of builtinProviders()) {
    if (provider.baseUrl) add(provider.baseUrl, provider.id);
    for (const model of getAllBuiltinModels(provider.id)) if (model.baseUrl) add(model.baseUrl, provider.id);
  }
  const entries = [...byKey.values()];
  // Entries are unique, so two entries never cover each other; a covered entry's providers join its cover's.
  const kept = entries.filter((b) => {
    const cover = entries.find((a) => a !== b && covers(a, b));
    if (cover) for (const p of b.providers) cover.providers.add(p);
    return !cover;
  });
  return kept
    .map((e) => ({ host: e.host, path: e.path, providers: [...e.providers].sort() }))
    .sort((x, y) => (x.host < y.host ? -1 : x.host > y.host ? 1 : x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = `[\n${buildEntries()
    .map((e) => `  ${JSON.stringify(e)}`)
    .join(',\n')}\n]\n`;
  let old = null;
  try {
    old = readFileSync(out, 'utf8');
  } catch {}
  if (old !== text) writeFileSync(out, text);
}
