// EMBEDDERS for `npm start` (README, Embed it in your own page): more embedder origins,
// space-separated, added to the served embedders.json and to frame-ancestors. Each is checked by
// the vault's own rule (`parseEmbedders` in src/gateway/settings.ts, bundled here by esbuild), so a
// bad one stops the start with its message instead of giving a vault that answers nobody.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The origins in `text` (the EMBEDDERS value), checked; throws naming the first bad one. */
export async function embeddersFromEnv(text = '') {
  const list = text.split(/\s+/).filter(Boolean);
  if (list.length === 0) return [];
  const entry = fileURLToPath(new URL('../src/gateway/settings.ts', import.meta.url));
  const { outputFiles } = await build({ entryPoints: [entry], bundle: true, format: 'esm', write: false, logLevel: 'silent' });
  const { parseEmbedders } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString('base64')}`);
  try {
    parseEmbedders(list);
  } catch (error) {
    throw new Error(`EMBEDDERS: ${error.message.replace(/^embedders\.json: /, '')}`);
  }
  return list;
}
