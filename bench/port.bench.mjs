// Port round trips: `status` requests per second through the real gateway in Chromium, next to a
// bare MessageChannel echo across the same two origins, measured in the same run.
// `node bench/port.bench.mjs [--count N]`
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { startServer, vaultServerConfig } from '../scripts/vault-server.mjs';

const args = process.argv.slice(2);
const count = Number(args[args.indexOf('--count') + 1]) || 3000;
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const [embedderPort, vaultPort] = await Promise.all([freePort(), freePort()]);
const embedder = `http://localhost:${embedderPort}`;
const vault = `http://localhost:${vaultPort}`;
const servers = await Promise.all([
  startServer(vaultServerConfig({ port: vaultPort, embedders: [embedder] })),
  startServer(vaultServerConfig({ port: embedderPort, embedders: [embedder] })),
]);
const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  await page.goto(`${embedder}/bench/port.html?vault=${encodeURIComponent(vault)}`);
  await page.waitForFunction(() => window.benchReady);
  const { gateway, echo } = await page.evaluate((n) => window.runBench(n), count);
  const f = (n) => Math.round(n).toLocaleString('en');
  console.log(`Port round trips in Chromium, ${count} status requests each:\n`);
  console.log('| | gateway (status) req/s | bare echo req/s | gateway ÷ echo |');
  console.log('|---|---:|---:|---:|');
  console.log(`| one in flight | ${f(gateway.sequential)} | ${f(echo.sequential)} | ${(gateway.sequential / echo.sequential).toFixed(2)} |`);
  console.log(`| all sent at once | ${f(gateway.pipelined)} | ${f(echo.pipelined)} | ${(gateway.pipelined / echo.pipelined).toFixed(2)} |`);
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.stop()));
}
