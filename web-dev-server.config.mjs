// The vault origin as `npm start` serves it: http://vault.sliccy.localhost:8702, answering the demo
// embedder at http://seven.sliccy.localhost:8701 (same site, another origin: GAPS section 1).
// `npx wds` with this file serves the vault alone.
import { vaultServerConfig } from './scripts/vault-server.mjs';

export const demoPort = Number(process.env.DEMO_PORT ?? 8701);
export const vaultPort = Number(process.env.VAULT_PORT ?? 8702);
export const demoOrigin = `http://seven.sliccy.localhost:${demoPort}`;
export const vaultOrigin = `http://vault.sliccy.localhost:${vaultPort}`;

export default vaultServerConfig({ port: vaultPort, embedders: [demoOrigin] });
