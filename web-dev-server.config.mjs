// The vault origin as `npm start` serves it: http://vault.sliccy.localhost:8702, answering the demo
// embedder at http://seven.sliccy.localhost:8701 (same site, another origin: README, Documents and
// hosting) and the origins in EMBEDDERS (README, Embed it in your own page).
// `npx wds` with this file serves the vault alone.
import { embeddersFromEnv } from './scripts/embedders-env.mjs';
import { vaultServerConfig } from './scripts/vault-server.mjs';

export const demoPort = Number(process.env.DEMO_PORT ?? 8701);
export const vaultPort = Number(process.env.VAULT_PORT ?? 8702);
export const demoOrigin = `http://seven.sliccy.localhost:${demoPort}`;
export const vaultOrigin = `http://vault.sliccy.localhost:${vaultPort}`;

/** The origins the vault answers: the demo's, then EMBEDDERS' (space-separated). */
export const embedders = [...new Set([demoOrigin, ...(await embeddersFromEnv(process.env.EMBEDDERS))])];

export default vaultServerConfig({ port: vaultPort, embedders });
