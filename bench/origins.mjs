// The two origins a browser bench runs on, on free ports: an embedder and the vault, both
// development servers that also serve the bench pages (as fixtures).
import { EMBEDDER_HEADERS, startServer, vaultServerConfig } from '../scripts/vault-server.mjs';
import { freePort } from '../test/e2e/servers.mjs';

/**
 * Bench pages served cross-origin isolated, as bios serves itself (README, Documents and hosting):
 * the port bench's, whose timer then ticks in 5 µs steps instead of 100.
 */
const ISOLATED = ['/bench/port.html'];

/** Starts both servers; `stop()` ends them. */
export async function benchOrigins() {
  const [embedderPort, vaultPort] = await Promise.all([freePort(), freePort()]);
  const embedder = `http://localhost:${embedderPort}`;
  const vault = `http://localhost:${vaultPort}`;
  const embedderConfig = vaultServerConfig({ port: embedderPort, embedders: [embedder], fixtures: true });
  embedderConfig.middleware.push(async (ctx, next) => {
    await next();
    if (ISOLATED.includes(ctx.path)) ctx.set(EMBEDDER_HEADERS);
  });
  const servers = await Promise.all([startServer(vaultServerConfig({ port: vaultPort, embedders: [embedder], fixtures: true })), startServer(embedderConfig)]);
  return { embedder, vault, stop: () => Promise.all(servers.map((s) => s.stop())) };
}
