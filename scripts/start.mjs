// `npm start`: the vault and its demo embedder, on two same-site origins.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
ensureDeps();
if (existsSync(`${root}scripts/endpoints.mjs`)) execFileSync('node', ['scripts/endpoints.mjs'], { cwd: root, stdio: 'inherit' });

const { default: vaultConfig, demoOrigin, demoPort, vaultOrigin } = await import('../web-dev-server.config.mjs');
const { demoServerConfig } = await import('./demo-server.mjs');
const { startServer } = await import('./vault-server.mjs');

await startServer(vaultConfig);
await startServer(demoServerConfig({ port: demoPort, vaultOrigin }));
console.log(`slicc-vault ${JSON.parse((await import('node:fs')).readFileSync(`${root}package.json`, 'utf8')).version}
  vault:     ${vaultOrigin}/
  demo:      ${demoOrigin}/   ← open this one
Both names resolve to this machine in Chromium (any *.localhost name does). Ctrl-C stops.`);
