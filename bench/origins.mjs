// The two origins a browser bench runs on, on free ports: an embedder and the vault, both
// development servers that also serve the bench pages (as fixtures).
import { startServer, vaultServerConfig } from '../scripts/vault-server.mjs';
import { freePort } from '../test/e2e/servers.mjs';

/** Starts both servers; `stop()` ends them. */
export async function benchOrigins() {
  const [embedderPort, vaultPort] = await Promise.all([freePort(), freePort()]);
  const embedder = `http://localhost:${embedderPort}`;
  const vault = `http://localhost:${vaultPort}`;
  const servers = await Promise.all([
    startServer(vaultServerConfig({ port: vaultPort, embedders: [embedder], fixtures: true })),
    startServer(vaultServerConfig({ port: embedderPort, embedders: [embedder], fixtures: true })),
  ]);
  return { embedder, vault, stop: () => Promise.all(servers.map((s) => s.stop())) };
}
