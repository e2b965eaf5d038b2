// The two origins of an end-to-end run, on free ports: the vault at vault.sliccy.localhost and the
// demo embedder at seven.sliccy.localhost (same site, other origin: README, Documents and hosting), and Chromium.
import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { startServer, vaultServerConfig } from '../../scripts/vault-server.mjs';
import { demoServerConfig } from '../../scripts/demo-server.mjs';

export const artifacts = fileURLToPath(new URL('../../test-artifacts/e2e/', import.meta.url));

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts both servers and a headless Chromium; `stop()` ends all three. */
export async function startDemo() {
  const [demoPort, vaultPort] = await Promise.all([freePort(), freePort()]);
  const demoOrigin = `http://seven.sliccy.localhost:${demoPort}`;
  const vaultOrigin = `http://vault.sliccy.localhost:${vaultPort}`;
  const servers = await Promise.all([
    startServer(vaultServerConfig({ port: vaultPort, embedders: [demoOrigin] })),
    startServer(demoServerConfig({ port: demoPort, vaultOrigin })),
  ]);
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || ensureChromium(), args: CHROMIUM_ARGS });
  mkdirSync(artifacts, { recursive: true });
  return {
    demoOrigin,
    vaultOrigin,
    browser,
    async stop() {
      await browser.close();
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}
